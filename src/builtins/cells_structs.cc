// Builtins of the "cells_structs" family: cell, struct, fieldnames, isfield, rmfield, setfield,
// getfield, iscellstr, cellfun, arrayfun, num2cell, cell2mat.
#include <algorithm>
#include <cmath>
#include <cstring>
#include <cctype>

#include "builtins/argparse.h"
#include "builtins/construct.h"
#include "builtins/format.h"
#include "runtime/interrupt.h"

namespace matfuse {

namespace {

/// cell(n), cell(m,n,...), cell([m n ...]): cell array of [] elements.
Outputs bi_cell(CallContext&, Args args, int nargout) {
  check_nargout(nargout, 1);
  return {Value(CellArray(parse_size_list(args, "cell")))};
}

bool valid_name(std::string_view s) {
  if (s.empty() || s.size() > 63 || !std::isalpha(static_cast<unsigned char>(s[0]))) return false;
  for (char c : s)
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '_') return false;
  return true;
}

std::string field_name_arg(const Value& v, const char* fname) {
  if (!v.is_text())
    throw_error("MATLAB:struct:FieldNameNotText", "Field names must be non-empty character vectors or strings.");
  std::string s = v.to_text();
  if (!valid_name(s))
    throw_error("MATLAB:Cell2Struct:InvalidFieldName",
                "Invalid field name \"%s\".", s.c_str());
  (void)fname;
  return s;
}

/// struct(), struct('f1', v1, 'f2', v2, ...): cell values spread over a struct array (all
/// non-scalar cells must share dims; 1x1 cells are unwrapped; {} gives a 0x0 struct array).
Outputs bi_struct(CallContext&, Args args, int nargout) {
  check_nargout(nargout, 1);
  if (args.empty()) return {Value(StructArray(Dims(1, 1)))};
  if (args.size() == 1 && args[0].is_struct()) return {args[0]};
  // struct([]): a 0x0 struct array with no fields.
  if (args.size() == 1 && args[0].is_tensor() && args[0].dims() == Dims(0, 0))
    return {Value(StructArray(Dims(0, 0)))};
  if (args.size() % 2 != 0)
    throw_error("MATLAB:struct:FieldValuePairs",
                "Field and value input arguments must come in pairs.");
  Dims d = Dims::scalar();
  bool have = false;
  for (size_t k = 1; k < args.size(); k += 2) {
    const Value& v = args[k];
    if (v.is_cell() && v.numel() != 1) {
      if (have && v.dims() != d)
        throw_error("MATLAB:struct:DimensionMismatch", "Dimensions of field values must match.");
      d = v.dims();
      have = true;
    }
  }
  StructArray s(d);
  for (size_t k = 0; k < args.size(); k += 2) {
    std::string name = field_name_arg(args[k], "struct");
    int f = s.add_field(name);
    const Value& v = args[k + 1];
    for (int64_t e = 0; e < d.numel(); ++e) {
      if (v.is_cell()) s.at(e, f) = v.cell()[v.numel() == 1 ? 0 : e];
      else s.at(e, f) = v;
    }
  }
  return {Value(s)};
}

std::vector<std::string> name_list(const Value& v, const char* fname) {
  std::vector<std::string> out;
  if (v.is_cell()) {
    for (const Value& e : v.cell().elems()) out.push_back(e.is_text() ? e.to_text() : "");
  } else if (v.is_string()) {
    for (const auto& s : v.string_array().elems()) out.push_back(s.value_or(""));
  } else if (v.is_text()) {
    out.push_back(v.to_text());
  } else {
    std::string id = std::string("MATLAB:") + fname + ":InvalidInput";
    throw_error(id.c_str(), "Field names must be text.");
  }
  return out;
}

/// fieldnames(s): Nx1 cell of the field names (in order).
Outputs bi_fieldnames(CallContext&, Args args, int nargout) {
  check_nargin(args, 1, 2);
  check_nargout(nargout, 1);
  if (!args[0].is_struct())
    throw_error("MATLAB:fieldnames:InvalidInput",
                "Invalid input argument of type '%s'. Input must be a structure or a Java or COM "
                "object.",
                args[0].class_name().c_str());
  const auto& f = args[0].struct_array().fields();
  CellArray c(Dims(static_cast<int64_t>(f.size()), 1));
  for (size_t i = 0; i < f.size(); ++i) c.at(static_cast<int64_t>(i)) = char_row(f[i]);
  return {Value(c)};
}

/// isfield(s, name) / isfield(s, {names}): logical (array for a cell of names).
Outputs bi_isfield(CallContext&, Args args, int nargout) {
  check_nargin(args, 2, 2);
  check_nargout(nargout, 1);
  const Value& s = args[0];
  const Value& n = args[1];
  auto has = [&](const Value& name) {
    return s.is_struct() && name.is_text() && s.struct_array().field_index(name.to_text()) >= 0;
  };
  if (n.is_cell()) {
    Tensor r = Tensor::zeros(ClassId::Logical, n.dims());
    for (int64_t i = 0; i < n.numel(); ++i) r.mutable_data<bool>()[i] = has(n.cell()[i]);
    return {Value(r)};
  }
  return {Value::logical(has(n))};
}

/// rmfield(s, name) / rmfield(s, {names}).
Outputs bi_rmfield(CallContext&, Args args, int nargout) {
  check_nargin(args, 2, 2);
  check_nargout(nargout, 1);
  if (!args[0].is_struct())
    throw_error("MATLAB:rmfield:InvalidStruct", "First argument must be a struct.");
  StructArray s = args[0].struct_array();
  for (const std::string& name : name_list(args[1], "rmfield")) {
    if (s.field_index(name) < 0)
      throw_error("MATLAB:rmfield:InvalidFieldname",
                  "A field named '%s' doesn't exist.", name.c_str());
    s.remove_field(name);
  }
  return {Value(s)};
}

/// s = setfield(s, name, v) for a 1x1 (or undefined-like empty) struct.
Outputs bi_setfield(CallContext& ctx, Args args, int nargout) {
  check_nargin(args, 3, 64);
  check_nargout(nargout, 1);
  if (args.size() > 3) {
    // setfield(s, 'a', 'b', ..., v): nested field path (s.a.b = v); index subscripts ({i})
    // between the names are not supported.
    for (size_t i = 1; i + 1 < args.size(); ++i)
      if (!args[i].is_text())
        throw_error("matfuse:notSupported", "setfield: index subscripts in the field path are "
                    "not supported yet.");
    Value inner;
    if (args[0].is_struct() && args[0].numel() == 1) {
      const StructArray& s0 = args[0].struct_array();
      int f = s0.field_index(field_name_arg(args[1], "setfield"));
      if (f >= 0) inner = s0.get(0, f);
    }
    std::vector<Value> sub{inner};
    sub.insert(sub.end(), args.begin() + 2, args.end());
    Value nv = bi_setfield(ctx, Args(sub.data(), sub.size()), 1)[0];
    Value top[3] = {args[0], args[1], nv};
    return bi_setfield(ctx, Args(top, 3), 1);
  }
  StructArray s = args[0].is_struct() ? args[0].struct_array() : StructArray(Dims(1, 1));
  if (!args[0].is_struct() && !args[0].is_empty())
    throw_error("MATLAB:setfield:InvalidInput", "First input must be a struct.");
  std::string name = field_name_arg(args[1], "setfield");
  if (s.numel() != 1)
    throw_error("MATLAB:setfield:NonScalarStruct", "setfield requires a 1x1 struct.");
  int f = s.add_field(name);
  s.at(0, f) = args[2];
  return {Value(s)};
}

/// v = getfield(s, name): field of a 1x1 struct (first element of a struct array).
Outputs bi_getfield(CallContext& ctx, Args args, int nargout) {
  check_nargin(args, 2, 64);
  check_nargout(nargout, 1);
  if (args.size() > 2) {  // getfield(s, 'a', 'b', ...): nested field path s.a.b
    Value v = args[0];
    for (size_t i = 1; i < args.size(); ++i) {
      if (!args[i].is_text())
        throw_error("matfuse:notSupported", "getfield: index subscripts in the field path are "
                    "not supported yet.");
      Value a2[2] = {v, args[i]};
      v = bi_getfield(ctx, Args(a2, 2), 1)[0];
    }
    return {v};
  }
  if (!args[0].is_struct())
    throw_error("MATLAB:getfield:InvalidInput", "First input must be a struct.");
  const StructArray& s = args[0].struct_array();
  std::string name = text_arg(args[1], "getfield", 2);
  int f = s.field_index(name);
  if (f < 0) throw_error("MATLAB:nonExistentField", "Unrecognized field name \"%s\".", name.c_str());
  if (s.numel() < 1)
    throw_error("MATLAB:index:expected_one_output_from_expression",
                "Expected one output from a curly brace or dot indexing expression, but there "
                "were 0 results.");
  return {s.get(0, f)};
}

Outputs bi_iscellstr(CallContext&, Args args, int nargout) {
  check_nargin(args, 1, 1);
  check_nargout(nargout, 1);
  if (!args[0].is_cell()) return {Value::logical(false)};
  for (const Value& e : args[0].cell().elems())
    if (!e.is_char()) return {Value::logical(false)};
  return {Value::logical(true)};
}

/// Element i of any value kind as a 1x1 value (arrayfun's iteration).
Value element_of(const Value& v, int64_t i) {
  switch (v.kind()) {
    case Value::Kind::Scalar: return v;
    case Value::Kind::Array: {
      Tensor t = v.tensor();
      Tensor e = Tensor::uninit(t.cls(), Dims::scalar(), t.is_complex());
      if (t.is_complex()) e.set_complex(0, t.get_complex(i));
      else if (t.cls() == ClassId::Int64) e.mutable_data<int64_t>()[0] = t.data<int64_t>()[i];
      else if (t.cls() == ClassId::UInt64) e.mutable_data<uint64_t>()[0] = t.data<uint64_t>()[i];
      else e.set_double(0, t.get_double(i));
      return Value(e);
    }
    case Value::Kind::Cell: {
      CellArray c(Dims::scalar());
      c.at(0) = v.cell()[i];
      return Value(c);
    }
    case Value::Kind::Struct: {
      const StructArray& s = v.struct_array();
      StructArray r(Dims::scalar());
      for (size_t f = 0; f < s.fields().size(); ++f) {
        int k = r.add_field(s.fields()[f]);
        r.at(0, k) = s.get(i, static_cast<int>(f));
      }
      return Value(r);
    }
    case Value::Kind::String: {
      StringArray s(Dims::scalar());
      s.at(0) = v.string_array()[i];
      return Value(s);
    }
    default: return v;
  }
}

/// Shared engine of cellfun and arrayfun.
Outputs fun_apply(CallContext& ctx, Args args, int nargout, bool is_cellfun) {
  const char* fname = is_cellfun ? "cellfun" : "arrayfun";
  check_nargin(args, 2, SIZE_MAX);
  // Inputs run until the first text argument that names an option.
  size_t ndata = 1;
  while (ndata < args.size()) {
    const Value& v = args[ndata];
    if (v.is_text() && ndata > 1) {
      std::string t = v.to_text();
      for (char& c : t) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
      if (t == "uniformoutput" || t == "errorhandler") break;
    }
    ++ndata;
  }
  bool uniform = true;
  Value handler;
  bool have_handler = false;
  for (size_t k = ndata; k < args.size(); k += 2) {
    std::string name = text_arg(args[k], fname, static_cast<int>(k) + 1);
    for (char& c : name) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    if (k + 1 >= args.size())
      throw_error("MATLAB:cellfun:NotAParameterPair", "Parameter value is missing.");
    if (name == "uniformoutput") uniform = args[k + 1].truthy();
    else if (name == "errorhandler") {
      handler = args[k + 1];
      have_handler = true;
    } else
      throw_error("MATLAB:cellfun:UnknownParameter", "Unrecognized parameter name '%s'.",
                  name.c_str());
  }
  const Value& fn = args[0];
  Args inputs = args.subspan(1, ndata - 1);
  if (inputs.empty()) throw_error("MATLAB:minrhs", "Not enough input arguments.");

  // Legacy string function names of cellfun, computed directly.
  if (is_cellfun && fn.is_text()) {
    std::string legacy = fn.to_text();
    static const char* names[] = {"isempty", "islogical", "isreal", "length", "ndims",
                                  "prodofsize", "isclass", "size"};
    if (std::find(std::begin(names), std::end(names), legacy) != std::end(names)) {
      const Value& c = inputs[0];
      if (!c.is_cell())
        throw_error("MATLAB:cellfun:NotACell", "Input #2 expected to be a cell array, was %s instead.",
                    c.class_name().c_str());
      bool logical_out = legacy == "isempty" || legacy == "islogical" || legacy == "isreal" ||
                         legacy == "isclass";
      Tensor r = Tensor::zeros(logical_out ? ClassId::Logical : ClassId::Double, c.dims());
      for (int64_t i = 0; i < c.numel(); ++i) {
        const Value& e = c.cell()[i];
        Dims d = e.dims();
        double x = 0;
        if (legacy == "isempty") x = e.is_empty();
        else if (legacy == "islogical") x = e.is_logical();
        else if (legacy == "isreal") x = !(e.is_tensor() && e.tensor().is_complex()) && !e.is_cell() && !e.is_struct();
        else if (legacy == "length") {
          int64_t m = 0;
          for (int64_t s : d) m = std::max(m, s);
          x = d.numel() == 0 ? 0 : static_cast<double>(m);
        } else if (legacy == "ndims") x = d.ndims();
        else if (legacy == "prodofsize") x = static_cast<double>(d.numel());
        else if (legacy == "isclass") {
          if (inputs.size() < 2) throw_error("MATLAB:minrhs", "Not enough input arguments.");
          x = e.class_name() == inputs[1].to_text();
        } else {  // size
          if (inputs.size() < 2) throw_error("MATLAB:minrhs", "Not enough input arguments.");
          // cellfun('size', C, k): k a positive integer; past the last dimension the size is
          // 1 (d[k-1] read outside the dims, and NaN was undefined to cast to int).
          const double k = inputs[1].to_double();
          if (!(k >= 1) || k != std::floor(k))
            throw_error("MATLAB:getdimarg:dimensionMustBePositiveInteger",
                        "Dimension argument must be a positive integer scalar within indexing "
                        "range.");
          x = k <= d.ndims() ? static_cast<double>(d[static_cast<int>(k) - 1]) : 1.0;
        }
        r.set_double(i, x);
      }
      return {Value(r)};
    }
  }

  Dims d = inputs[0].dims();
  for (size_t k = 0; k < inputs.size(); ++k) {
    if (is_cellfun && !inputs[k].is_cell())
      throw_error("MATLAB:cellfun:NotACell",
                  "Input #%zu expected to be a cell array, was %s instead.", k + 2,
                  inputs[k].class_name().c_str());
    if (inputs[k].dims() != d) {
      std::string id = std::string("MATLAB:") + fname + ":AllInputsSameSize";
      throw_error(id.c_str(), "All of the input arguments must be of the same size and shape.");
    }
  }
  int64_t n = d.numel();
  int nout = std::max(nargout, 1);
  std::vector<std::vector<Value>> results(static_cast<size_t>(nout),
                                          std::vector<Value>(static_cast<size_t>(n)));
  bool produced_any = nargout >= 1;
  bool produced_none = false;
  std::vector<Value> call_args(inputs.size());
  for (int64_t i = 0; i < n; ++i) {
    check_interrupt();  // Ctrl-C (builtin handles run no statements that would check)
    for (size_t k = 0; k < inputs.size(); ++k)
      call_args[k] = is_cellfun ? inputs[k].cell()[i] : element_of(inputs[k], i);
    Outputs o;
    try {
      o = ctx.call(fn, call_args, nargout);
    } catch (const MatlabError& err) {
      if (!have_handler) throw;
      StructArray s(Dims::scalar());
      s.at(0, s.add_field("message")) = char_row(err.message());
      s.at(0, s.add_field("identifier")) = char_row(err.identifier());
      s.at(0, s.add_field("index")) = Value(static_cast<double>(i + 1));
      std::vector<Value> hargs{Value(s)};
      hargs.insert(hargs.end(), call_args.begin(), call_args.end());
      o = ctx.call(handler, hargs, nargout);
    }
    if (nargout == 0) {
      if (o.empty()) {
        produced_none = true;
        continue;
      }
      produced_any = true;
    } else if (static_cast<int>(o.size()) < nargout) {
      throw_error("MATLAB:TooManyOutputs", "Too many output arguments.");
    }
    for (int k = 0; k < nout && k < static_cast<int>(o.size()); ++k) results[k][i] = o[k];
  }
  if (nargout == 0 && produced_none) {
    if (produced_any) {
      std::string id = std::string("MATLAB:") + fname + ":NotAScalarOutput";
      throw_error(id.c_str(), "Non-scalar in Uniform output. Set 'UniformOutput' to false.");
    }
    if (n > 0) return {};
  }
  Outputs out;
  for (int k = 0; k < nout; ++k) {
    if (!uniform) {
      CellArray c(d);
      for (int64_t i = 0; i < n; ++i) c.at(i) = results[k][i];
      out.push_back(Value(c));
      continue;
    }
    if (n == 0) {
      out.push_back(Value(Tensor::zeros(ClassId::Double, d)));
      continue;
    }
    ClassId cls = ClassId::Double;
    bool cplx = false;
    for (int64_t i = 0; i < n; ++i) {
      const Value& v = results[k][i];
      if (!v.is_tensor() || v.numel() != 1) {
        std::string id = std::string("MATLAB:") + fname + ":NotAScalarOutput";
        throw_error(id.c_str(),
                    "Non-scalar in Uniform output, at index %lld, output %d.\nSet 'UniformOutput' "
                    "to false.",
                    static_cast<long long>(i + 1), k + 1);
      }
      if (i == 0) cls = v.cls();
      else if (v.cls() != cls) {
        std::string id = std::string("MATLAB:") + fname + ":MismatchInTypes";
        std::string a(class_name(v.cls())), b(class_name(cls));
        throw_error(id.c_str(),
                    "Mismatch in type of outputs, at index %lld, output %d (%s versus %s).\nSet "
                    "'UniformOutput' to false.",
                    static_cast<long long>(i + 1), k + 1, a.c_str(), b.c_str());
      }
      cplx |= v.tensor().is_complex();
    }
    Tensor r = Tensor::uninit(cls, d, cplx);
    for (int64_t i = 0; i < n; ++i) {
      Tensor e = results[k][i].tensor();
      if (cplx) r.set_complex(i, e.get_complex(0));
      else if (cls == ClassId::Int64) r.mutable_data<int64_t>()[i] = e.data<int64_t>()[0];
      else if (cls == ClassId::UInt64) r.mutable_data<uint64_t>()[i] = e.data<uint64_t>()[0];
      else r.set_double(i, e.get_double(0));
    }
    out.push_back(Value(r));
  }
  return out;
}

/// [A1,...] = cellfun(func, C1, ..., 'UniformOutput', tf, 'ErrorHandler', h).
Outputs bi_cellfun(CallContext& ctx, Args args, int nargout) { return fun_apply(ctx, args, nargout, true); }
/// [B1,...] = arrayfun(func, A1, ..., 'UniformOutput', tf, 'ErrorHandler', h).
Outputs bi_arrayfun(CallContext& ctx, Args args, int nargout) { return fun_apply(ctx, args, nargout, false); }

/// num2cell(A): cell of A's dims with one element of A in each cell.
Outputs bi_num2cell(CallContext&, Args args, int nargout) {
  check_nargin(args, 1, 2);
  check_nargout(nargout, 1);
  const Value& v = args[0];
  if (args.size() == 2) {
    // num2cell(A, dims): each cell holds A's slice spanning the listed dimensions whole.
    if (!v.is_tensor() && !v.is_cell())
      throw_error("MATLAB:num2cell:InvalidInput", "num2cell(A, dims) needs a numeric, logical, "
                  "char or cell array.");
    Dims d = v.dims();
    std::vector<bool> whole(static_cast<size_t>(Dims::kMaxDims), false);
    Tensor dt = args[1].tensor();
    for (int64_t k = 0; k < dt.numel(); ++k) {
      double x = dt.get_double(k);
      if (!(x >= 1) || x != std::floor(x) || x > Dims::kMaxDims)
        throw_error("MATLAB:num2cell:InvalidDims", "Dimensions must be positive integers.");
      whole[static_cast<size_t>(x) - 1] = true;
    }
    int nd = d.ndims();
    for (int k = 0; k < Dims::kMaxDims; ++k)
      if (whole[k] && k + 1 > nd) nd = k + 1;
    Dims cd(1, 1), ed(1, 1);
    for (int k = 0; k < nd; ++k) {
      cd.set(k, whole[k] ? 1 : d[k]);
      ed.set(k, whole[k] ? d[k] : 1);
    }
    cd.normalize();
    ed.normalize();
    auto st = strides_of(d);
    CellArray c(cd);
    std::vector<int64_t> sub(static_cast<size_t>(nd), 0);
    for (int64_t ci = 0; ci < cd.numel(); ++ci) {
      // Base offset of cell ci.
      int64_t rem = ci, base = 0;
      for (int k = 0; k < nd; ++k) {
        int64_t sz = cd[k];
        base += (rem % sz) * (k < d.ndims() ? st[k] : 0);
        rem /= sz;
      }
      std::vector<int64_t> lin(static_cast<size_t>(ed.numel()));
      for (int64_t e = 0; e < ed.numel(); ++e) {
        int64_t r2 = e, off = base;
        for (int k = 0; k < nd; ++k) {
          int64_t sz = ed[k];
          off += (r2 % sz) * (k < d.ndims() ? st[k] : 0);
          r2 /= sz;
        }
        lin[static_cast<size_t>(e)] = off;
      }
      if (v.is_cell()) {
        CellArray part(ed);
        for (size_t e = 0; e < lin.size(); ++e) part.at(static_cast<int64_t>(e)) = v.cell()[lin[e]];
        c.at(ci) = Value(part);
      } else {
        Tensor t = v.tensor();
        Tensor part = Tensor::uninit(t.cls(), ed, t.is_complex());
        int eb = t.elem_bytes();
        const char* src = static_cast<const char*>(t.raw());
        char* dst = static_cast<char*>(part.mutable_raw());
        for (size_t e = 0; e < lin.size(); ++e) std::memcpy(dst + e * eb, src + lin[e] * eb, eb);
        c.at(ci) = Value(part);
      }
    }
    return {Value(c)};
  }
  CellArray c(v.dims());
  for (int64_t i = 0; i < v.numel(); ++i) c.at(i) = v.is_cell() ? element_of(v, i) : element_of(v, i);
  return {Value(c)};
}

/// cell2mat(C) for 2-D cells: each row of cells joined horizontally, the rows vertically.
Outputs bi_cell2mat(CallContext&, Args args, int nargout) {
  check_nargin(args, 1, 1);
  check_nargout(nargout, 1);
  const Value& v = args[0];
  if (!v.is_cell())
    throw_error("MATLAB:cell2mat:InvalidInput", "Input must be a cell array.");
  const CellArray& c = v.cell();
  if (c.numel() == 0) return {Value()};
  if (c.dims().ndims() > 2)
    throw_error("MATLAB:cell2mat:UnsupportedDims", "cell2mat supports only 2-D cell arrays.");
  for (const Value& e : c.elems())
    if (e.is_cell() || e.is_object() || e.is_function())
      throw_error("MATLAB:cell2mat:UnsupportedCellContent",
                  "CELL2MAT does not support cell arrays containing cell arrays or objects.");
  int64_t rows = c.dims().rows(), cols = c.dims().cols();
  std::vector<Value> row_vals;
  for (int64_t r = 0; r < rows; ++r) {
    std::vector<Value> parts;
    for (int64_t k = 0; k < cols; ++k) parts.push_back(c[r + k * rows]);
    row_vals.push_back(horzcat(parts));
  }
  return {vertcat(row_vals)};
}

}  // namespace

void register_cells_structs(Registry& r) {
  r.add("cell", bi_cell);
  r.add("struct", bi_struct);
  r.add("fieldnames", bi_fieldnames);
  r.add("isfield", bi_isfield);
  r.add("rmfield", bi_rmfield);
  r.add("setfield", bi_setfield);
  r.add("getfield", bi_getfield);
  r.add("iscellstr", bi_iscellstr);
  r.add("cellfun", bi_cellfun);
  r.add("arrayfun", bi_arrayfun);
  r.add("num2cell", bi_num2cell);
  r.add("cell2mat", bi_cell2mat);
}

}  // namespace matfuse
