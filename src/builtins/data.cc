// Builtins of the "data" family: registration entry point and the shared helpers of
// data_util.h. The functions live in data_sort.cc, data_sets.cc, data_stats.cc, data_cum.cc
// and data_hist.cc.
#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <cstring>

#include "builtins/data_util.h"
#include "builtins/registry.h"

namespace matfuse {

namespace data {

std::string lower(std::string s) {
  for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

bool is_option(const Value& v, const char* name) {
  return v.is_text() && lower(v.to_text()) == lower(name);
}

Tensor numeric_arg(const Value& v, const char* fname) {
  if (!v.is_tensor())
    throw_error("MATLAB:UndefinedFunction",
                "Undefined function '%s' for input arguments of type '%s'.", fname,
                v.class_name().c_str());
  return v.tensor();
}

[[noreturn]] static void bad_dim() {
  throw_error("MATLAB:getdimarg:invalidDim",
              "Dimension argument must be a positive integer scalar, a vector of unique positive "
              "integers, or 'all'.");
}

int dim_arg(const Value& v) {
  if (!v.is_tensor() || v.is_char() || v.numel() != 1) bad_dim();
  Tensor t = v.tensor();
  if (t.is_complex()) bad_dim();
  double d = t.get_double(0);
  if (!(d >= 1) || d != std::floor(d)) bad_dim();
  return d > 1000 ? 1000 : static_cast<int>(d) - 1;
}

std::vector<int> vecdim_arg(const Value& v) {
  if (!v.is_tensor() || v.is_char() || v.is_empty()) bad_dim();
  Tensor t = v.tensor();
  if (t.is_complex() || !t.dims().is_vector()) bad_dim();
  std::vector<int> out;
  for (int64_t i = 0; i < t.numel(); ++i) {
    double d = t.get_double(i);
    if (!(d >= 1) || d != std::floor(d)) bad_dim();
    int k = d > 1000 ? 1000 + static_cast<int>(i) : static_cast<int>(d) - 1;
    if (std::find(out.begin(), out.end(), k) != out.end())
      throw_error("MATLAB:getdimarg:vecdimsMustBeUniquePositiveIntegers",
                  "Vector of dimensions must contain unique positive integers.");
    out.push_back(k);
  }
  return out;
}

std::vector<int> DimSpec::resolve(const Dims& d, bool empty_to_scalar) const {
  if (all) {
    std::vector<int> v;
    for (int k = 0; k < d.ndims(); ++k) v.push_back(k);
    return v;
  }
  if (given) return dims;
  if (empty_to_scalar && d == Dims(0, 0)) return {0, 1};
  return {first_nonsingleton_dim(d)};
}

Lanes lanes_of(const Dims& d, int dim) {
  Lanes L;
  for (int k = 0; k < dim; ++k) L.pre *= d[k];
  L.n = d[dim];
  for (int k = dim + 1; k < d.ndims(); ++k) L.post *= d[k];
  return L;
}

Tensor to_work(const Tensor& x) {
  ClassId c = float_class(x.cls());
  return x.cls() == c ? x : x.to_class(c);
}

// ---- Keys -----------------------------------------------------------------------------------

int Keys::cmp(int64_t i, int64_t j) const {
  if (nan[i] || nan[j]) return nan[i] == nan[j] ? 0 : nan[i] ? 1 : -1;
  switch (kind) {
    case Kind::Real:
      return a[i] < a[j] ? -1 : a[i] > a[j] ? 1 : 0;
    case Kind::Complex:
      if (a[i] != a[j]) return a[i] < a[j] ? -1 : 1;
      if (b[i] != b[j]) return b[i] < b[j] ? -1 : 1;
      if (re[i] != re[j]) return re[i] < re[j] ? -1 : 1;
      if (im[i] != im[j]) return im[i] < im[j] ? -1 : 1;
      return 0;
    case Kind::Text: {
      int c = s[i].compare(s[j]);
      return c < 0 ? -1 : c > 0 ? 1 : 0;
    }
  }
  return 0;
}

bool is_cellstr(const Value& v) {
  if (!v.is_cell()) return false;
  for (const Value& e : v.cell().elems())
    if (!(e.is_char() && (e.dims().rows() == 1 || e.is_empty()) && e.dims().ndims() == 2))
      return false;
  return true;
}

Keys make_keys(const Value& v, const char* fname, CompareMethod m, bool force_complex) {
  Keys k;
  int64_t n = v.numel();
  k.nan.assign(static_cast<size_t>(n), 0);
  if (v.is_cell()) {
    if (!is_cellstr(v))
      throw_error("MATLAB:UndefinedFunction",
                  "Undefined function '%s' for input arguments of type 'cell'.", fname);
    k.kind = Keys::Kind::Text;
    for (const Value& e : v.cell().elems()) k.s.push_back(e.is_empty() ? "" : e.tensor().to_utf8());
    return k;
  }
  if (v.is_string()) {
    k.kind = Keys::Kind::Text;
    const StringArray& s = v.string_array();
    for (int64_t i = 0; i < n; ++i) {
      k.s.push_back(s[i] ? *s[i] : std::string());
      k.nan[i] = s[i] ? 0 : 1;
    }
    return k;
  }
  if (!v.is_tensor())
    throw_error("MATLAB:UndefinedFunction",
                "Undefined function '%s' for input arguments of type '%s'.", fname,
                v.class_name().c_str());
  Tensor t = v.tensor();
  if (t.is_complex() || force_complex || m != CompareMethod::Auto) {
    k.kind = Keys::Kind::Complex;
    k.a.resize(n);
    k.b.resize(n);
    k.re.resize(n);
    k.im.resize(n);
    for (int64_t i = 0; i < n; ++i) {
      std::complex<double> z = t.get_complex(i);
      k.re[i] = z.real();
      k.im[i] = z.imag();
      k.nan[i] = std::isnan(z.real()) || std::isnan(z.imag());
      if (m == CompareMethod::Real) {
        k.a[i] = z.real();
        k.b[i] = z.imag();
      } else {
        k.a[i] = std::abs(z);
        k.b[i] = std::arg(z);
      }
    }
    return k;
  }
  k.a.resize(n);
  dispatch_class(t.cls(), [&](auto tag) {
    using T = decltype(tag);
    const T* p = t.data<T>();
    for (int64_t i = 0; i < n; ++i) {
      if constexpr (std::is_floating_point_v<T>) k.nan[i] = std::isnan(p[i]);
      k.a[i] = static_cast<long double>(p[i]);
    }
  });
  return k;
}

// ---- set operands ---------------------------------------------------------------------------

Value as_set_operand(const Value& v, bool other_is_text) {
  // [] beside text is the empty set of text.
  if (other_is_text && v.is_tensor() && !v.is_char() && v.cls() == ClassId::Double &&
      v.dims().ndims() == 2 && v.dims().rows() == 0 && v.dims().cols() == 0)
    return Value(CellArray(Dims(0, 0)));
  if (other_is_text && v.is_char() && (v.dims().rows() == 1 || v.is_empty())) {
    CellArray c(Dims(1, 1));
    c.at(0) = v;
    return Value(c);
  }
  return v;
}

static bool textish(const Value& v) { return v.is_cell() || v.is_string(); }

static ClassId concat_class(ClassId a, ClassId b) {
  if (a == b) return a;
  if (is_integer_class(a)) return a;
  if (is_integer_class(b)) return b;
  if (a == ClassId::Single || b == ClassId::Single) return ClassId::Single;
  if (a == ClassId::Char || b == ClassId::Char) return ClassId::Char;
  return ClassId::Double;
}

Value concat_elements(const Value& a0, const Value& b0, int64_t* na, int64_t* nb) {
  bool text = textish(a0) || textish(b0);
  Value a = as_set_operand(a0, text), b = as_set_operand(b0, text);
  *na = a.numel();
  *nb = b.numel();
  int64_t n = *na + *nb;
  if (a.is_string() || b.is_string()) {
    StringArray out(Dims(n, 1));
    auto put = [&](const Value& v, int64_t off) {
      if (v.is_string()) {
        for (int64_t i = 0; i < v.numel(); ++i) out.at(off + i) = v.string_array()[i];
      } else if (v.is_cell()) {
        Keys k = make_keys(v, "union");
        for (int64_t i = 0; i < v.numel(); ++i) out.at(off + i) = k.s[i];
      } else {  // numbers join a string set as their text (string(NaN) is <missing>)
        Tensor t = numeric_arg(v, "union");
        for (int64_t i = 0; i < v.numel(); ++i) {
          double d = t.get_double(i);
          char buf[40];
          std::snprintf(buf, sizeof buf, "%.15g", d);
          if (std::isnan(d)) out.at(off + i) = std::nullopt;
          else out.at(off + i) = std::string(buf);
        }
      }
    };
    put(a, 0);
    put(b, *na);
    return Value(out);
  }
  if (text) {
    if (!is_cellstr(a) || !is_cellstr(b))
      throw_error("MATLAB:UNIQUE:InputClass",
                  "Input A and input B must be cell arrays of character vectors, unless one is a "
                  "character vector.");
    CellArray out(Dims(n, 1));
    for (int64_t i = 0; i < *na; ++i) out.at(i) = a.cell()[i];
    for (int64_t i = 0; i < *nb; ++i) out.at(*na + i) = b.cell()[i];
    return Value(out);
  }
  Tensor ta = numeric_arg(a, "union"), tb = numeric_arg(b, "union");
  ClassId c = concat_class(ta.cls(), tb.cls());
  bool cx = ta.is_complex() || tb.is_complex();
  Tensor ca = ta.to_class(c), cb = tb.to_class(c);
  if (cx) {
    ca = ca.to_complex();
    cb = cb.to_complex();
  }
  Tensor out = Tensor::uninit(c, Dims(n, 1), cx);
  int eb = out.elem_bytes();
  if (*na) std::memcpy(out.mutable_raw(), ca.raw(), static_cast<size_t>(*na * eb));
  if (*nb)
    std::memcpy(static_cast<char*>(out.mutable_raw()) + *na * eb, cb.raw(),
                static_cast<size_t>(*nb * eb));
  return Value(out);
}

Tensor index_tensor(const std::vector<int64_t>& idx0, const Dims& d) {
  Tensor t = Tensor::uninit(ClassId::Double, d);
  double* p = t.mutable_data<double>();
  for (size_t i = 0; i < idx0.size(); ++i) p[i] = static_cast<double>(idx0[i] + 1);
  return t;
}

Tensor double_tensor(const std::vector<double>& v, const Dims& d) {
  Tensor t = Tensor::uninit(ClassId::Double, d);
  if (!v.empty()) std::memcpy(t.mutable_data<double>(), v.data(), v.size() * sizeof(double));
  return t;
}

}  // namespace data

void register_data(Registry& r) {
  data::register_data_sort(r);
  data::register_data_sets(r);
  data::register_data_stats(r);
  data::register_data_cum(r);
  data::register_data_hist(r);
  data::register_data_mov(r);
  data::register_data_select(r);
  data::register_data_scale(r);
}

}  // namespace matfuse
