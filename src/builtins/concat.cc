// Concatenation: horzcat, vertcat, cat_dim (construct.h) for every Value kind.
//
// Rules (MATLAB "Valid Combinations of Unlike Classes" and concatenation docs):
// - Operands of size 0x0 are skipped for the result's shape (but their class still takes part in
//   the class combination, as in ['' 65] -> 'A'). Other empty operands whose size does not fit
//   are skipped too (so [zeros(1,0); [1 2]] is [1 2]).
// - Class of numeric/char/logical results: char if any char (char with logical is an error);
//   else the leftmost integer class if any integer; else single if any single; else logical if
//   all logical; else double. Complex if any operand is complex.
// - Any cell operand makes the result a cell: non-cell operands are wrapped as 1x1 cells
//   ([] skipped), so [{1}, 2] is {1, 2}.
// - Any string operand makes the result a string array: char rows become strings, numbers are
//   converted like string(x), logicals become "true"/"false".
// - Struct arrays concatenate when their field names agree (order follows the first operand).
// - Function handles and objects cannot form arrays.
#include <cmath>
#include <cstdio>
#include <cstring>
#include <optional>
#include <string>
#include <vector>

#include "runtime/missing.h"
#include "builtins/construct.h"
#include "builtins/shape_util.h"
#include "runtime/element_array.h"
#include "runtime/value_object.h"

namespace matfuse {

namespace {

[[noreturn]] void dim_mismatch() {
  throw_error("MATLAB:catenate:dimensionMismatch",
              "Dimensions of arrays being concatenated are not consistent.");
}

bool is_0x0(const Dims& d) { return d.ndims() == 2 && d[0] == 0 && d[1] == 0; }

bool fits(const std::vector<Dims>& ds, const std::vector<size_t>& use, int k, Dims* out) {
  if (use.empty()) {
    *out = Dims(0, 0);
    return true;
  }
  int nd = k + 1;
  for (size_t u : use) nd = std::max(nd, ds[u].ndims());
  const Dims& first = ds[use[0]];
  int64_t sum = 0;
  for (size_t u : use) {
    for (int j = 0; j < nd; ++j)
      if (j != k && ds[u][j] != first[j]) return false;
    sum += ds[u][k];
  }
  Dims r = first;
  for (int j = r.ndims(); j < nd; ++j) r.push_back(1);
  r.set(k, sum);
  r.normalize();
  *out = r;
  return true;
}

/// Chooses the operands that contribute (see file comment) and the result dims.
std::vector<size_t> plan(const std::vector<Dims>& ds, int k, Dims* out) {
  std::vector<size_t> use;
  for (size_t i = 0; i < ds.size(); ++i)
    if (!is_0x0(ds[i])) use.push_back(i);
  if (fits(ds, use, k, out)) return use;
  std::vector<size_t> nonempty;
  for (size_t u : use)
    if (ds[u].numel() > 0) nonempty.push_back(u);
  if (nonempty.size() < use.size() && fits(ds, nonempty, k, out)) return nonempty;
  dim_mismatch();
}

/// Calls copy(operand, src_offset, dst_offset, count) for every contiguous run of the result.
template <class Copy>
void for_each_run(const std::vector<Dims>& ds, const std::vector<size_t>& use, int k,
                  const Dims& out, Copy copy) {
  int64_t outer = 1;
  for (int j = k + 1; j < out.ndims(); ++j) outer *= out[j];
  std::vector<int64_t> chunk(use.size());
  for (size_t i = 0; i < use.size(); ++i) {
    int64_t c = 1;
    for (int j = 0; j <= k; ++j) c *= ds[use[i]][j];
    chunk[i] = c;
  }
  int64_t dst = 0;
  for (int64_t o = 0; o < outer; ++o)
    for (size_t i = 0; i < use.size(); ++i) {
      if (chunk[i] > 0) copy(use[i], o * chunk[i], dst, chunk[i]);
      dst += chunk[i];
    }
}

std::vector<Dims> dims_of(std::span<const Value> parts) {
  std::vector<Dims> ds;
  ds.reserve(parts.size());
  for (const Value& p : parts) ds.push_back(p.dims());
  return ds;
}

// ---- numeric, char, logical -----------------------------------------------------------------

ClassId combined_class(std::span<const Value> parts, bool* complex) {
  bool has_char = false, has_logical = false, has_single = false, all_logical = true;
  std::optional<ClassId> first_int;
  *complex = false;
  for (const Value& p : parts) {
    ClassId c = p.cls();
    if (p.kind() == Value::Kind::Array && p.tensor().is_complex()) *complex = true;
    if (c == ClassId::Char) has_char = true;
    if (c == ClassId::Logical) has_logical = true;
    else all_logical = false;
    if (c == ClassId::Single) has_single = true;
    if (is_integer_class(c) && !first_int) first_int = c;
  }
  if (has_char) {
    if (has_logical)
      throw_error("MATLAB:invalidConversion", "Conversion to char from logical is not possible.");
    return ClassId::Char;
  }
  if (first_int) return *first_int;
  if (has_single) return ClassId::Single;
  if (all_logical && !parts.empty()) return ClassId::Logical;
  return ClassId::Double;
}

Value cat_tensors(int k, std::span<const Value> parts) {
  // Fast path: a row of real double scalars ([1 2 3]).
  if (k == 1) {
    bool all_scalar = true;
    for (const Value& p : parts) all_scalar = all_scalar && p.is_scalar_double();
    if (all_scalar) {
      Tensor t = Tensor::uninit(ClassId::Double, Dims(1, static_cast<int64_t>(parts.size())));
      double* d = t.mutable_data<double>();
      for (size_t i = 0; i < parts.size(); ++i) d[i] = parts[i].scalar();
      return Value(std::move(t));
    }
  }
  bool complex = false;
  ClassId cls = combined_class(parts, &complex);
  if (complex && !(is_float_class(cls) || is_integer_class(cls))) complex = false;
  std::vector<Dims> ds = dims_of(parts);
  Dims out;
  std::vector<size_t> use = plan(ds, k, &out);
  std::vector<Tensor> ts(parts.size());
  for (size_t u : use) {
    Tensor t = parts[u].tensor();
    if (t.cls() != cls) t = t.to_class(cls);
    if (complex && !t.is_complex()) t = t.to_complex();
    if (!complex && t.is_complex()) t = t.to_class(cls);  // char from complex: real part
    ts[u] = std::move(t);
  }
  Tensor r = Tensor::uninit(cls, out, complex);
  auto* dst = static_cast<unsigned char*>(r.numel() > 0 ? r.mutable_raw() : nullptr);
  const size_t eb = static_cast<size_t>(r.elem_bytes());
  for_each_run(ds, use, k, out, [&](size_t u, int64_t so, int64_t dof, int64_t n) {
    const auto* src = static_cast<const unsigned char*>(ts[u].raw());
    std::memcpy(dst + dof * eb, src + so * eb, static_cast<size_t>(n) * eb);
  });
  return Value(std::move(r));
}

// ---- cells ----------------------------------------------------------------------------------

Value cat_cells(int k, std::span<const Value> parts) {
  std::vector<Value> cs;
  cs.reserve(parts.size());
  for (const Value& p : parts) {
    if (p.is_cell()) {
      cs.push_back(p);
    } else if (p.is_tensor() && is_0x0(p.dims())) {
      cs.push_back(Value(CellArray(Dims(0, 0))));
    } else {
      CellArray c(Dims(1, 1));
      c.at(0) = p;
      cs.push_back(Value(std::move(c)));
    }
  }
  std::vector<Dims> ds = dims_of(cs);
  Dims out;
  std::vector<size_t> use = plan(ds, k, &out);
  CellArray r(out);
  std::vector<Value>& dst = r.mutable_elems();
  for_each_run(ds, use, k, out, [&](size_t u, int64_t so, int64_t dof, int64_t n) {
    const std::vector<Value>& src = cs[u].cell().elems();
    for (int64_t i = 0; i < n; ++i) dst[dof + i] = src[so + i];
  });
  return Value(std::move(r));
}

// ---- strings --------------------------------------------------------------------------------

std::string number_text(double v) {
  char buf[64];
  if (v != v) return "NaN";
  if (v == 1.0 / 0.0) return "Inf";
  if (v == -1.0 / 0.0) return "-Inf";
  if (v > -1e15 && v < 1e15 && v == std::floor(v))  // range first: 1e300 is no int64
    std::snprintf(buf, sizeof buf, "%lld", static_cast<long long>(v));
  else
    std::snprintf(buf, sizeof buf, "%.5g", v);
  return buf;
}

StringArray to_string_array(const Value& p) {
  if (p.is_string()) return p.string_array();
  if (p.is_char()) {
    Tensor t = p.tensor();
    const Dims& d = t.dims();
    if (d.ndims() > 2) throw_error("MATLAB:string:MustBeCharRowOrMatrix",
                                   "Unable to convert a multidimensional char array to string.");
    if (d.numel() == 0) return StringArray::scalar("");
    StringArray s(Dims(d.rows(), 1));
    for (int64_t r = 0; r < d.rows(); ++r) {
      Tensor row = Tensor::uninit(ClassId::Char, Dims(1, d.cols()));
      for (int64_t c = 0; c < d.cols(); ++c)
        row.mutable_data<char16_t>()[c] = t.data<char16_t>()[r + c * d.rows()];
      s.at(r) = row.to_utf8();
    }
    return s;
  }
  if (p.is_tensor()) {
    Tensor t = p.tensor();
    StringArray s(t.dims());
    for (int64_t i = 0; i < t.numel(); ++i) {
      if (t.cls() == ClassId::Logical) s.at(i) = t.get_double(i) != 0 ? "true" : "false";
      else s.at(i) = number_text(t.get_double(i));
    }
    return s;
  }
  if (p.is_cell()) {
    const CellArray& c = p.cell();
    StringArray s(c.dims());
    for (int64_t i = 0; i < c.numel(); ++i) {
      if (!c[i].is_text())
        throw_error("MATLAB:string:MustBeCellstrOrStringArray",
                    "Unable to convert cell elements that are not text to string.");
      s.at(i) = c[i].to_text();
    }
    return s;
  }
  throw_error("MATLAB:invalidConversion", "Conversion to string from %s is not possible.",
              p.class_name().c_str());
}

Value cat_strings(int k, std::span<const Value> parts) {
  std::vector<Value> ss;
  ss.reserve(parts.size());
  for (const Value& p : parts) {
    if (p.is_tensor() && !p.is_char() && is_0x0(p.dims())) continue;  // [] skipped
    ss.push_back(Value(to_string_array(p)));
  }
  std::vector<Dims> ds = dims_of(ss);
  Dims out;
  std::vector<size_t> use = plan(ds, k, &out);
  StringArray r(out);
  for_each_run(ds, use, k, out, [&](size_t u, int64_t so, int64_t dof, int64_t n) {
    const StringArray& src = ss[u].string_array();
    for (int64_t i = 0; i < n; ++i) r.at(dof + i) = src[so + i];
  });
  return Value(std::move(r));
}

// ---- structs --------------------------------------------------------------------------------

Value cat_structs(int k, std::span<const Value> parts) {
  std::vector<Value> ss;
  for (const Value& p : parts) {
    if (p.is_struct()) {
      ss.push_back(p);
    } else if (p.is_tensor() && p.is_empty()) {
      continue;
    } else {
      throw_error("MATLAB:invalidConversion", "Conversion to struct from %s is not possible.",
                  p.class_name().c_str());
    }
  }
  std::vector<Dims> ds = dims_of(ss);
  Dims out;
  std::vector<size_t> use = plan(ds, k, &out);
  const StructArray* ref = nullptr;
  for (size_t u : use) {
    ref = &ss[u].struct_array();
    break;
  }
  if (!ref) return ss.empty() ? Value(StructArray(Dims(0, 0))) : ss[0];
  const std::vector<std::string>& fields = ref->fields();
  std::vector<std::vector<int>> maps(ss.size());
  for (size_t u : use) {
    const StructArray& s = ss[u].struct_array();
    if (s.fields().size() != fields.size())
      throw_error("MATLAB:catenate:structFieldBad",
                  "Concatenation of structures requires that the structures have the same "
                  "field names.");
    for (const std::string& f : fields) {
      int idx = s.field_index(f);
      if (idx < 0)
        throw_error("MATLAB:catenate:structFieldBad",
                    "Concatenation of structures requires that the structures have the same "
                    "field names.");
      maps[u].push_back(idx);
    }
  }
  StructArray r(out);
  for (const std::string& f : fields) r.add_field(f);
  const int nf = static_cast<int>(fields.size());
  for_each_run(ds, use, k, out, [&](size_t u, int64_t so, int64_t dof, int64_t n) {
    const StructArray& src = ss[u].struct_array();
    for (int64_t i = 0; i < n; ++i)
      for (int f = 0; f < nf; ++f) r.at(dof + i, f) = src.get(so + i, maps[u][f]);
  });
  return Value(std::move(r));
}

}  // namespace

Value cat_dim(int dim, std::span<const Value> parts) {
  if (dim < 1)
    throw_error("MATLAB:catenate:invalidDimension",
                "Dimension argument must be a real, positive, integer scalar.");
  if (dim > Dims::kMaxDims)
    throw_error("matfuse:tooManyDims", "Arrays of more than %d dimensions are not supported.",
                Dims::kMaxDims);
  if (parts.empty()) return Value();
  if (parts.size() == 1) return parts[0];
  // `missing` takes the missing value of the other parts' class: <missing> among strings,
  // NaN among double/single arrays.
  {
    bool miss = false, str = false, single = false, other = false;
    std::string bad;
    for (const Value& p : parts) {
      if (is_missing_value(p)) miss = true;
      else if (p.is_string()) str = true;
      else if (p.is_tensor() && !p.is_empty()) {
        if (p.cls() == ClassId::Single) single = true;
        else if (p.cls() != ClassId::Double) bad = p.class_name();
      } else if (!p.is_tensor()) other = true;
    }
    if (miss && !other && (str || bad.empty())) {
      std::vector<Value> conv(parts.begin(), parts.end());
      int nonempty = 0;
      for (Value& p : conv) {
        ++nonempty;
        if (!is_missing_value(p)) {
          if (p.is_tensor() && p.is_empty()) --nonempty;
          continue;
        }
        if (str) {
          StringArray sa(Dims(1, 1));
          sa.at(0) = std::nullopt;
          p = Value(std::move(sa));
        } else {
          p = Value(Tensor::scalar(std::nan(""), single ? ClassId::Single : ClassId::Double));
        }
      }
      // [missing, []] stays the missing object; an array of several becomes NaNs.
      if (nonempty > 1 || str) return cat_dim(dim, conv);
    } else if (miss && !other && !bad.empty()) {
      throw_error("MATLAB:invalidConversion", "Conversion to %s from missing is not possible.",
                  bad.c_str());
    }
  }
  const int k = dim - 1;
  bool any_cell = false, any_string = false, any_struct = false, any_other = false;
  for (const Value& p : parts) {
    switch (p.kind()) {
      case Value::Kind::Cell: any_cell = true; break;
      case Value::Kind::String: any_string = true; break;
      case Value::Kind::Struct: any_struct = true; break;
      case Value::Kind::Function:
      case Value::Kind::Object: any_other = true; break;
      default: break;
    }
  }
  if (any_cell) return cat_cells(k, parts);
  for (const Value& p : parts)  // datetime, duration, ...: the first such part concatenates
    if (ElementArrayObject* e = as_element_array(p)) return e->concat(dim, parts);
  if (any_other) {
    // An object that defines concatenation (a table, ...) takes the whole list.
    for (const Value& p : parts) {
      if (!p.is_object()) continue;
      Value out;
      if (ValueObject* o = as_value_object(p); o && o->concat(dim, parts, out)) return out;
      break;
    }
    // A single handle/object among empties is returned as is; anything else is an error.
    const Value* only = nullptr;
    for (const Value& p : parts) {
      if (p.is_tensor() && p.is_empty()) continue;
      if (only || !(p.is_function() || p.is_object()))
        throw_error("MATLAB:catenate:functionHandleOrObject",
                    "Nonscalar arrays of function handles are not allowed; use cell arrays "
                    "instead.");
      only = &p;
    }
    return *only;
  }
  if (any_struct) return cat_structs(k, parts);
  if (any_string) return cat_strings(k, parts);
  return cat_tensors(k, parts);
}

Value horzcat(std::span<const Value> parts) { return cat_dim(2, parts); }
Value vertcat(std::span<const Value> parts) { return cat_dim(1, parts); }

}  // namespace matfuse
