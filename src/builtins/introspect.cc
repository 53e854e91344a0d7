// Type and argument introspection builtins: typecast, validateattributes, inputname,
// orderfields, mat2cell. (nargin/narginchk/nargoutchk/evalin/assignin/func2str/str2func live
// in the interpreter, which owns the caller's frame; isa/isfield in types.cc/cells_structs.cc.)
#include <algorithm>
#include <cmath>
#include <cstring>
#include <numeric>

#include "builtins/format.h"
#include "builtins/registry.h"
#include "runtime/array_size.h"

namespace matfuse {

namespace {

// ---------------------------------------------------------------- typecast

/// Y = typecast(X, type): reinterprets the bytes of a real numeric scalar or vector X as class
/// `type` (host byte order). A column stays a column, otherwise the result is a row. Errors:
/// MATLAB:typecast:inputMustBeNumeric, MATLAB:typecast:invalidType,
/// MATLAB:typecast:tooFewInputs (byte count not a multiple of the new element size).
Outputs bi_typecast(CallContext&, Args args, int nargout) {
  check_nargin(args, 2, 2);
  check_nargout(nargout, 1);
  const Value& x = args[0];
  if (!x.is_tensor() || !x.is_numeric())
    throw_error("MATLAB:typecast:inputMustBeNumeric",
                "The first input argument must be a full, non-complex numeric value.");
  Tensor t = x.tensor();
  if (t.is_complex())
    throw_error("MATLAB:typecast:inputMustBeNumeric",
                "The first input argument must be a full, non-complex numeric value.");
  if (!t.dims().is_vector() && !t.is_empty())
    throw_error("MATLAB:typecast:inputMustBeVector", "The first input argument must be a vector.");
  std::string name = text_arg(args[1], "typecast", 2);
  auto cls = class_from_name(name);
  if (!cls || *cls == ClassId::Logical || *cls == ClassId::Char)
    throw_error("MATLAB:typecast:invalidType",
                "Unsupported class '%s'. The second input must be a numeric class name.",
                name.c_str());
  size_t bytes = static_cast<size_t>(t.numel()) * static_cast<size_t>(element_size(t.cls()));
  size_t esz = static_cast<size_t>(element_size(*cls));
  if (bytes % esz != 0)
    throw_error("MATLAB:typecast:tooFewInputs", "Too few input values to make output type.");
  int64_t n = static_cast<int64_t>(bytes / esz);
  Dims d = t.dims().is_column() && !t.dims().is_scalar() ? Dims(n, 1) : Dims(1, n);
  Tensor out = Tensor::uninit(*cls, d);
  if (bytes) std::memcpy(out.mutable_raw(), t.raw(), bytes);
  return {Value(std::move(out))};
}

// ---------------------------------------------------------------- validateattributes

struct Who {
  std::string text = "input";  ///< "input", "X", "input number 2, X,"
};

bool class_matches(const Value& a, const std::string& c) {
  std::string cn = a.class_name();
  if (c == cn) return true;
  if (!a.is_tensor()) return false;
  if (c == "numeric") return a.is_numeric();
  if (c == "float") return is_float_class(a.cls());
  if (c == "integer") return is_integer_class(a.cls());
  return false;
}

[[noreturn]] void attr_fail(const char* id, const Who& w, const std::string& what) {
  throw_error(id, "Expected %s to be %s.", w.text.c_str(), what.c_str());
}

std::string num_text(double d) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%g", d);
  return buf;
}

/// Checks one attribute (and its value argument, consumed from attrs at index i).
void check_attribute(const Value& a, const CellArray& attrs, size_t& i, const Who& w) {
  const Value& av = attrs[static_cast<int64_t>(i)];
  std::string at = text_arg(av, "validateattributes", 3);
  for (char& c : at) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  Dims d = a.dims();
  auto need_value = [&]() -> const Value& {
    if (i + 1 >= static_cast<size_t>(attrs.numel()))
      throw_error("MATLAB:validateattributes:missingValue",
                  "Attribute '%s' must be followed by a value.", at.c_str());
    return attrs[static_cast<int64_t>(++i)];
  };
  // Shape attributes (any class).
  if (at == "nonempty") { if (a.is_empty()) attr_fail("MATLAB:expectedNonempty", w, "nonempty"); return; }
  if (at == "scalar") { if (!d.is_scalar()) attr_fail("MATLAB:expectedScalar", w, "scalar"); return; }
  if (at == "vector") { if (!d.is_vector()) attr_fail("MATLAB:expectedVector", w, "a vector"); return; }
  if (at == "row") { if (!d.is_row()) attr_fail("MATLAB:expectedRow", w, "a row vector"); return; }
  if (at == "column") { if (!d.is_column()) attr_fail("MATLAB:expectedColumn", w, "a column vector"); return; }
  if (at == "2d") { if (d.ndims() != 2) attr_fail("MATLAB:expected2D", w, "two-dimensional"); return; }
  if (at == "3d") { if (d.ndims() > 3) attr_fail("MATLAB:expected3D", w, "three-dimensional"); return; }
  if (at == "diag") {
    bool ok = d.ndims() == 2 && a.is_tensor();
    if (ok) {
      Tensor t = a.tensor();
      for (int64_t c = 0; c < d.cols() && ok; ++c)
        for (int64_t r = 0; r < d.rows() && ok; ++r)
          if (r != c) {
            int64_t k = r + c * d.rows();
            ok = t.get_double(k) == 0 && (!t.is_complex() || t.get_complex(k).imag() == 0);
          }
    }
    if (!ok) attr_fail("MATLAB:expectedDiagonal", w, "diagonal");
    return;
  }
  if (at == "square") { if (d.ndims() != 2 || d.rows() != d.cols()) attr_fail("MATLAB:expectedSquare", w, "square"); return; }
  if (at == "nonsparse") return;
  if (at == "numel") {
    double n = need_value().to_double("numel");
    if (static_cast<double>(a.numel()) != n)
      throw_error("MATLAB:incorrectNumel",
                  "Expected %s to be an array with number of elements equal to %s.",
                  w.text.c_str(), num_text(n).c_str());
    return;
  }
  if (at == "size" || at == "nrows" || at == "ncols" || at == "ndims") {
    const Value& sv = need_value();
    if (at == "size") {
      Tensor s = sv.tensor();
      bool ok = s.numel() >= 2 && (s.numel() == d.ndims() || s.numel() > d.ndims());
      std::string want;
      for (int64_t k = 0; k < s.numel(); ++k) {
        double e = s.get_double(k);
        want += (k ? "x" : "") + (std::isnan(e) ? std::string("N") : num_text(e));
        if (!std::isnan(e) && static_cast<double>(d[static_cast<int>(k)]) != e) ok = false;
      }
      if (s.numel() < d.ndims()) ok = false;
      if (!ok)
        throw_error("MATLAB:incorrectSize", "Expected %s to be of size %s, but it is of size %s.",
                    w.text.c_str(), want.c_str(), d.str().c_str());
      return;
    }
    double n = sv.to_double(at.c_str());
    double have = at == "nrows" ? static_cast<double>(d.rows())
                  : at == "ncols" ? static_cast<double>(d.cols())
                                  : static_cast<double>(d.ndims());
    if (have != n)
      throw_error(at == "nrows" ? "MATLAB:incorrectNumrows"
                  : at == "ncols" ? "MATLAB:incorrectNumcols" : "MATLAB:incorrectNumdims",
                  "Expected %s to be an array with %s equal to %s.", w.text.c_str(),
                  at == "nrows" ? "number of rows" : at == "ncols" ? "number of columns"
                                                                   : "number of dimensions",
                  num_text(n).c_str());
    return;
  }
  // Value attributes: need numeric/logical/char data.
  static const char* kValueAttrs[] = {"positive", "nonnegative", "integer", "finite", "real",
                                      "nonnan", "nonzero", "binary", "even", "odd",
                                      "increasing", "decreasing", "nondecreasing",
                                      "nonincreasing", ">", ">=", "<", "<="};
  bool known = false;
  for (const char* k : kValueAttrs) known = known || at == k;
  if (!known)
    throw_error("MATLAB:validateattributes:badAttributeString",
                "Unknown attribute '%s'.", at.c_str());
  double bound = 0;
  if (at[0] == '<' || at[0] == '>') bound = need_value().to_double("bound");
  if (!a.is_tensor())
    throw_error("MATLAB:validateattributes:invalidType",
                "Attribute '%s' requires numeric, logical or char input.", at.c_str());
  Tensor t = a.tensor();
  bool cplx = t.is_complex();
  int64_t n = t.numel();
  if (at == "real") { if (cplx) attr_fail("MATLAB:expectedReal", w, "real"); return; }
  auto all = [&](auto pred) {
    for (int64_t k = 0; k < n; ++k)
      if (!pred(t.get_double(k), cplx ? t.get_complex(k).imag() : 0.0)) return false;
    return true;
  };
  if (at == "positive" && !all([](double x, double im) { return x > 0 && im == 0; }))
    attr_fail("MATLAB:expectedPositive", w, "positive");
  if (at == "nonnegative" && !all([](double x, double im) { return x >= 0 && im == 0; }))
    attr_fail("MATLAB:expectedNonnegative", w, "nonnegative");
  if (at == "integer" &&
      !all([](double x, double im) { return std::isfinite(x) && x == std::floor(x) && im == 0; }))
    attr_fail("MATLAB:expectedInteger", w, "integer-valued");
  if (at == "finite" &&
      !all([](double x, double im) { return std::isfinite(x) && std::isfinite(im); }))
    attr_fail("MATLAB:expectedFinite", w, "finite");
  if (at == "nonnan" && !all([](double x, double im) { return !std::isnan(x) && !std::isnan(im); }))
    attr_fail("MATLAB:expectedNonNaN", w, "non-NaN");
  if (at == "nonzero" && !all([](double x, double im) { return x != 0 || im != 0; }))
    attr_fail("MATLAB:expectedNonZero", w, "nonzero");
  if (at == "binary" && !all([](double x, double im) { return (x == 0 || x == 1) && im == 0; }))
    attr_fail("MATLAB:expectedBinary", w, "binary");
  if (at == "even" &&
      !all([](double x, double) { return std::isfinite(x) && std::fmod(x, 2.0) == 0; }))
    attr_fail("MATLAB:expectedEven", w, "even");
  if (at == "odd" &&
      !all([](double x, double) { return std::isfinite(x) && std::abs(std::fmod(x, 2.0)) == 1; }))
    attr_fail("MATLAB:expectedOdd", w, "odd");
  if (at == ">" && !all([&](double x, double) { return x > bound; }))
    throw_error("MATLAB:notGreater", "Expected %s to be an array with all of the values > %s.",
                w.text.c_str(), num_text(bound).c_str());
  if (at == ">=" && !all([&](double x, double) { return x >= bound; }))
    throw_error("MATLAB:notGreaterEqual",
                "Expected %s to be an array with all of the values >= %s.", w.text.c_str(),
                num_text(bound).c_str());
  if (at == "<" && !all([&](double x, double) { return x < bound; }))
    throw_error("MATLAB:notLess", "Expected %s to be an array with all of the values < %s.",
                w.text.c_str(), num_text(bound).c_str());
  if (at == "<=" && !all([&](double x, double) { return x <= bound; }))
    throw_error("MATLAB:notLessEqual",
                "Expected %s to be an array with all of the values <= %s.", w.text.c_str(),
                num_text(bound).c_str());
  if (at == "increasing" || at == "decreasing" || at == "nondecreasing" ||
      at == "nonincreasing") {
    bool ok = true;
    for (int64_t k = 0; k < n; ++k)
      if (std::isnan(t.get_double(k))) ok = false;
    for (int64_t k = 1; k < n && ok; ++k) {
      double p = t.get_double(k - 1), c = t.get_double(k);
      if (at == "increasing") ok = c > p;
      else if (at == "decreasing") ok = c < p;
      else if (at == "nondecreasing") ok = c >= p;
      else ok = c <= p;
    }
    if (!ok) {
      std::string id = "MATLAB:expected" + std::string(1, static_cast<char>(std::toupper(at[0]))) +
                       at.substr(1);
      attr_fail(id.c_str(), w, at);
    }
  }
}

/// validateattributes(A, classes, attributes[, argIndex]) or (..., funcName, varName,
/// argIndex): checks A's class against `classes` (a cell of class names, including 'numeric',
/// 'float', 'integer'; empty = any) and each attribute; raises MATLAB:invalidType or the
/// attribute's MATLAB:expected* / MATLAB:incorrect* / MATLAB:not* error on failure.
Outputs bi_validateattributes(CallContext&, Args args, int nargout) {
  check_nargin(args, 3, 6);
  check_nargout(nargout, 0);
  const Value& a = args[0];
  Who w;
  std::string var;
  int64_t argi = 0;
  size_t k = 3;
  if (k < args.size() && !args[k].is_text()) {
    argi = args[k].to_index("argIndex");
    ++k;
  } else {
    if (k < args.size()) ++k;  // funcName (reported by the interpreter's stack instead)
    if (k < args.size()) var = text_arg(args[k++], "validateattributes", 5);
    if (k < args.size()) argi = args[k++].to_index("argIndex");
  }
  if (k < args.size()) throw_error("MATLAB:TooManyInputs", "Too many input arguments.");
  if (argi > 0 && !var.empty()) w.text = "input number " + std::to_string(argi) + ", " + var + ",";
  else if (argi > 0) w.text = "input number " + std::to_string(argi);
  else if (!var.empty()) w.text = var;
  // Classes.
  std::vector<std::string> classes;
  if (args[1].is_cell()) {
    for (const auto& e : args[1].cell().elems()) classes.push_back(text_arg(e, "validateattributes", 2));
  } else if (args[1].is_text()) {
    classes.push_back(args[1].to_text());
  } else if (!args[1].is_empty()) {
    throw_error("MATLAB:validateattributes:badClassList",
                "Expected the class list to be a cell array of character vectors.");
  }
  if (!classes.empty()) {
    bool ok = false;
    for (const auto& c : classes) ok = ok || class_matches(a, c);
    if (!ok) {
      std::string list;
      for (size_t i = 0; i < classes.size(); ++i) list += (i ? ", " : "") + classes[i];
      throw_error("MATLAB:invalidType",
                  "Expected %s to be one of these types:\n\n%s\n\nInstead its type was %s.",
                  w.text.c_str(), list.c_str(), a.class_name().c_str());
    }
  }
  // Attributes.
  if (args[2].is_cell()) {
    const CellArray& attrs = args[2].cell();
    for (size_t i = 0; i < static_cast<size_t>(attrs.numel()); ++i) check_attribute(a, attrs, i, w);
  } else if (!args[2].is_empty()) {
    throw_error("MATLAB:validateattributes:badAttributeList",
                "Expected the attribute list to be a cell array.");
  }
  return {};
}

/// inputname(argNumber): the interpreter does not record argument expressions, so this raises
/// matfuse:notAvailable after checking its argument.
Outputs bi_inputname(CallContext&, Args args, int nargout) {
  check_nargin(args, 1, 2);
  check_nargout(nargout, 1);
  args[0].to_index("argNumber");
  throw_error("matfuse:notAvailable",
              "inputname is not available: matfuse does not keep the caller's argument names.");
}

// ---------------------------------------------------------------- orderfields

/// [S, perm] = orderfields(S1[, order]): S1's fields sorted by name (ASCII order), or in the
/// order of a second struct's fields, a cell array of names, or a permutation vector. perm is
/// the column vector of old field positions. Errors: MATLAB:orderfields:InvalidInput,
/// MATLAB:orderfields:StructFieldMismatch, MATLAB:orderfields:InvalidPermutation.
Outputs bi_orderfields(CallContext&, Args args, int nargout) {
  check_nargin(args, 1, 2);
  check_nargout(nargout, 2);
  if (!args[0].is_struct())
    throw_error("MATLAB:orderfields:InvalidInput", "First argument must be a struct.");
  StructArray s = args[0].struct_array();
  const std::vector<std::string> old = s.fields();
  size_t nf = old.size();
  std::vector<std::string> order;
  auto mismatch = [] {
    throw_error("MATLAB:orderfields:StructFieldMismatch",
                "The field names of the two arguments must match.");
  };
  if (args.size() == 1) {
    order = old;
    std::sort(order.begin(), order.end());
  } else if (args[1].is_struct()) {
    order = args[1].struct_array().fields();
  } else if (args[1].is_cell() || args[1].is_string()) {
    if (args[1].is_cell())
      for (const auto& e : args[1].cell().elems()) order.push_back(text_arg(e, "orderfields", 2));
    else
      for (const auto& e : args[1].string_array().elems()) order.push_back(e ? *e : "");
  } else if (args[1].is_tensor() && !args[1].is_char()) {
    Tensor p = args[1].tensor();
    if (static_cast<size_t>(p.numel()) != nf)
      throw_error("MATLAB:orderfields:InvalidPermutation", "Invalid permutation vector.");
    std::vector<bool> seen(nf, false);
    for (int64_t i = 0; i < p.numel(); ++i) {
      double d = p.get_double(i);
      if (!(d >= 1 && d <= static_cast<double>(nf)) || d != std::floor(d) ||
          seen[static_cast<size_t>(d) - 1])
        throw_error("MATLAB:orderfields:InvalidPermutation", "Invalid permutation vector.");
      seen[static_cast<size_t>(d) - 1] = true;
      order.push_back(old[static_cast<size_t>(d) - 1]);
    }
  } else {
    throw_error("MATLAB:orderfields:InvalidInput",
                "Second argument must be a struct, cell array of names or permutation vector.");
  }
  if (order.size() != nf) mismatch();
  std::vector<std::string> a = order, b = old;
  std::sort(a.begin(), a.end());
  std::sort(b.begin(), b.end());
  if (a != b) mismatch();
  s.set_field_order(order);
  Outputs out{Value(std::move(s))};
  if (nargout >= 2) {
    Tensor perm = Tensor::uninit(ClassId::Double, Dims(static_cast<int64_t>(nf), 1));
    for (size_t i = 0; i < nf; ++i)
      perm.mutable_data<double>()[i] =
          static_cast<double>(std::find(old.begin(), old.end(), order[i]) - old.begin() + 1);
    out.push_back(Value(std::move(perm)));
  }
  return out;
}

// ---------------------------------------------------------------- mat2cell

/// The elements of `a` at linear indices idx, as an array of dims d (same kind as a).
Value gather(const Value& a, const std::vector<int64_t>& idx, const Dims& d) {
  if (a.is_cell()) {
    CellArray c(d);
    for (size_t i = 0; i < idx.size(); ++i) c.at(static_cast<int64_t>(i)) = a.cell()[idx[i]];
    return Value(std::move(c));
  }
  if (a.is_string()) {
    StringArray s(d);
    for (size_t i = 0; i < idx.size(); ++i) s.at(static_cast<int64_t>(i)) = a.string_array()[idx[i]];
    return Value(std::move(s));
  }
  if (a.is_struct()) {
    const StructArray& src = a.struct_array();
    StructArray s(d);
    for (const auto& f : src.fields()) s.add_field(f);
    int nf = static_cast<int>(src.fields().size());
    for (size_t i = 0; i < idx.size(); ++i)
      for (int f = 0; f < nf; ++f) s.at(static_cast<int64_t>(i), f) = src.get(idx[i], f);
    return Value(std::move(s));
  }
  if (!a.is_tensor())
    throw_error("MATLAB:mat2cell:UnsupportedInput", "mat2cell does not support %s inputs.",
                a.class_name().c_str());
  Tensor t = a.tensor();
  Tensor o = Tensor::uninit(t.cls(), d, t.is_complex());
  size_t eb = static_cast<size_t>(t.elem_bytes());
  const char* src = static_cast<const char*>(t.raw());
  char* dst = static_cast<char*>(o.mutable_raw());
  for (size_t i = 0; i < idx.size(); ++i)
    std::memcpy(dst + i * eb, src + static_cast<size_t>(idx[i]) * eb, eb);
  return Value(std::move(o));
}

/// C = mat2cell(A, d1, d2, ..., dn): splits A into blocks; dk lists the block sizes along
/// dimension k and must sum to size(A, k). With only d1, the second dimension is one block.
/// C has size numel(d1) x numel(d2) x ... Errors: MATLAB:mat2cell:DimensionMismatch,
/// MATLAB:mat2cell:InvalidDimension.
Outputs bi_mat2cell(CallContext&, Args args, int nargout) {
  check_nargin(args, 2, 34);
  check_nargout(nargout, 1);
  const Value& a = args[0];
  Dims ad = a.dims();
  int nd = std::max<int>(ad.ndims(), static_cast<int>(args.size()) - 1);
  std::vector<std::vector<int64_t>> parts(static_cast<size_t>(nd));
  for (int k = 0; k < nd; ++k) {
    if (static_cast<size_t>(k) + 1 < args.size()) {
      const Value& v = args[static_cast<size_t>(k) + 1];
      if (!v.is_tensor() || v.is_char())
        throw_error("MATLAB:mat2cell:InvalidDimension",
                    "Dimension arguments must be vectors of nonnegative integers.");
      Tensor t = v.tensor();
      double sum = 0;
      for (int64_t i = 0; i < t.numel(); ++i) {
        double e = t.get_double(i);
        if (!(e >= 0) || e != std::floor(e) || !std::isfinite(e))
          throw_error("MATLAB:mat2cell:InvalidDimension",
                      "Dimension arguments must be vectors of nonnegative integers.");
        sum += e;
        parts[static_cast<size_t>(k)].push_back(clamp_count(e));  // 1e300: the sum mismatches
      }
      if (sum != static_cast<double>(ad[k]))
        throw_error("MATLAB:mat2cell:DimensionMismatch",
                    "Input arguments, D1 through D%d, must sum to each dimension of the input "
                    "matrix size, [%s].",
                    static_cast<int>(args.size()) - 1, ad.str().c_str());
    } else {
      parts[static_cast<size_t>(k)].push_back(ad[k]);
    }
  }
  Dims cd;
  for (int k = 0; k < nd; ++k) cd.set(k, static_cast<int64_t>(parts[static_cast<size_t>(k)].size()));
  if (nd < 2) cd.set(1, 1);
  cd.normalize();
  CellArray out(cd);
  std::vector<int64_t> stride(static_cast<size_t>(nd), 1);
  for (int k = 1; k < nd; ++k) stride[static_cast<size_t>(k)] = stride[static_cast<size_t>(k) - 1] * ad[k - 1];
  std::vector<int64_t> ci(static_cast<size_t>(nd), 0);
  for (int64_t c = 0; c < cd.numel(); ++c) {
    // Block c: offsets and sizes along each dimension.
    std::vector<int64_t> off(static_cast<size_t>(nd)), sz(static_cast<size_t>(nd));
    Dims bd;
    for (int k = 0; k < nd; ++k) {
      const auto& p = parts[static_cast<size_t>(k)];
      int64_t o = 0;
      for (int64_t j = 0; j < ci[static_cast<size_t>(k)]; ++j) o += p[static_cast<size_t>(j)];
      off[static_cast<size_t>(k)] = o;
      sz[static_cast<size_t>(k)] = p[static_cast<size_t>(ci[static_cast<size_t>(k)])];
      bd.set(k, sz[static_cast<size_t>(k)]);
    }
    bd.normalize();
    std::vector<int64_t> idx;
    idx.reserve(static_cast<size_t>(bd.numel()));
    std::vector<int64_t> e(static_cast<size_t>(nd), 0);
    for (int64_t i = 0; i < bd.numel(); ++i) {
      int64_t lin = 0;
      for (int k = 0; k < nd; ++k)
        lin += (off[static_cast<size_t>(k)] + e[static_cast<size_t>(k)]) * stride[static_cast<size_t>(k)];
      idx.push_back(lin);
      for (int k = 0; k < nd; ++k) {
        if (++e[static_cast<size_t>(k)] < sz[static_cast<size_t>(k)]) break;
        e[static_cast<size_t>(k)] = 0;
      }
    }
    out.at(c) = gather(a, idx, bd);
    for (int k = 0; k < nd; ++k) {
      if (++ci[static_cast<size_t>(k)] < static_cast<int64_t>(parts[static_cast<size_t>(k)].size())) break;
      ci[static_cast<size_t>(k)] = 0;
    }
  }
  return {Value(std::move(out))};
}

}  // namespace

void register_introspect(Registry& r) {
  r.add("typecast", bi_typecast);
  r.add("validateattributes", bi_validateattributes);
  r.add("inputname", bi_inputname);
  r.add("orderfields", bi_orderfields);
  r.add("mat2cell", bi_mat2cell);
}

}  // namespace matfuse
