// Builtins that scripts commonly use, beside the families: trigonometric and special-function
// extras (atan2d, beta, betaln, ellipke, wrapToPi, wrapTo2Pi, wrapTo180, wrapTo360), number
// theory (factor), statistics (skewness, kurtosis, mad, iqr), text (strjust, strtok,
// insertAfter, insertBefore, reverse, validatestring), planerot, polyvalm and cputime.
//
// Algorithms: ellipke by the arithmetic-geometric mean (M. Abramowitz and I. A. Stegun,
// "Handbook of Mathematical Functions", 1964, 17.6); beta from log-gamma
// (Abramowitz-Stegun 6.2.2); factor by trial division; skewness and kurtosis by their moment
// definitions with the bias correction of D. N. Joanes and C. A. Gill, "Comparing measures of
// sample skewness and kurtosis", The Statistician 47 (1998) 183-189 (flag 0).
#include <algorithm>
#include <cmath>
#include <complex>
#include <ctime>
#include <limits>
#include <string>
#include <vector>

#include "builtins/math_util.h"
#include "builtins/registry.h"
#include "runtime/error.h"

namespace matfuse {

namespace {

using mathutil::call1;
using mathutil::float_arg;

std::string lower_s(std::string s) {
  for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

/// Binary elementwise op on real double/single inputs with implicit expansion.
template <class F>
Tensor binary_real(const Value& a, const Value& b, const char* fname, F f) {
  Tensor x = float_arg(a, fname), y = float_arg(b, fname);
  Dims od = broadcast_dims(x.dims(), y.dims());
  ClassId cls = (x.cls() == ClassId::Single || y.cls() == ClassId::Single) ? ClassId::Single
                                                                           : ClassId::Double;
  std::vector<int64_t> mx = mathutil::broadcast_map(x.dims(), od),
                       my = mathutil::broadcast_map(y.dims(), od);
  Tensor r = Tensor::uninit(cls, od);
  for (int64_t i = 0; i < od.numel(); ++i)
    r.set_double(i, f(x.get_double(mx[i]), y.get_double(my[i])));
  return r;
}

// ---------------------------------------------------------------------------------------------
// Trigonometry and special functions

/// D = atan2d(Y, X): four-quadrant inverse tangent in degrees, in [-180, 180]; real inputs,
/// implicit expansion.
Outputs bi_atan2d(CallContext&, Args args, int nargout) {
  check_nargin(args, 2, 2);
  check_nargout(nargout, 1);
  return {Value(binary_real(args[0], args[1], "atan2d",
                            [](double y, double x) { return 180.0 / M_PI * std::atan2(y, x); }))};
}

double betaln_d(double z, double w) {
  return std::lgamma(z) + std::lgamma(w) - std::lgamma(z + w);
}

/// B = beta(Z, W): the beta function gamma(Z).*gamma(W)./gamma(Z+W) for real inputs
/// (implicit expansion); from log-gamma when the gammas would overflow. Complex inputs raise
/// MATLAB:beta:notFullReal.
Outputs bi_beta(CallContext&, Args args, int nargout) {
  check_nargin(args, 2, 2);
  check_nargout(nargout, 1);
  return {Value(binary_real(args[0], args[1], "beta", [](double z, double w) {
    if (std::isnan(z) || std::isnan(w)) return std::nan("");
    if (z > 0 && w > 0 && z + w >= 170) return std::exp(betaln_d(z, w));
    if (z == 0 || w == 0) return std::numeric_limits<double>::infinity();
    return std::tgamma(z) * std::tgamma(w) / std::tgamma(z + w);
  }))};
}

/// L = betaln(Z, W): log(beta(Z, W)) without overflow, real non-negative inputs. Errors:
/// MATLAB:betaln:ZWMustBeRealNonNeg.
Outputs bi_betaln(CallContext&, Args args, int nargout) {
  check_nargin(args, 2, 2);
  check_nargout(nargout, 1);
  return {Value(binary_real(args[0], args[1], "betaln", [](double z, double w) {
    if (z < 0 || w < 0)
      throw_error("MATLAB:betaln:ZWMustBeRealNonNeg", "Z and W must be real and non-negative.");
    if (std::isnan(z) || std::isnan(w)) return std::nan("");
    if (z == 0 || w == 0) return std::numeric_limits<double>::infinity();
    if (z + w < 170) return std::log(std::tgamma(z) * std::tgamma(w) / std::tgamma(z + w));
    return betaln_d(z, w);
  }))};
}

/// [K, E] = ellipke(M) | ellipke(M, tol): complete elliptic integrals of the first and second
/// kind for M <= 1 (K(1) = Inf, E(1) = 1), by the arithmetic-geometric mean to tol
/// (default eps). Errors: MATLAB:ellipke:MOutOfRange (M > 1), MATLAB:ellipke:InvalidTol.
Outputs bi_ellipke(CallContext&, Args args, int nargout) {
  check_nargin(args, 1, 2);
  check_nargout(nargout, 2);
  Tensor m = float_arg(args[0], "ellipke");
  double tol = 2.220446049250313e-16;
  if (args.size() > 1) {
    const Value& tv = args[1];
    if (!tv.is_tensor() || tv.is_char() || tv.numel() != 1 || tv.tensor().is_complex() ||
        !(tv.tensor().get_double(0) > 0))
      throw_error("MATLAB:ellipke:InvalidTol", "TOL must be a real positive scalar.");
    tol = tv.tensor().get_double(0);
  }
  Tensor K = Tensor::uninit(m.cls(), m.dims()), E = Tensor::uninit(m.cls(), m.dims());
  for (int64_t i = 0; i < m.numel(); ++i) {
    double x = m.get_double(i);
    if (std::isnan(x)) {
      K.set_double(i, x);
      E.set_double(i, x);
      continue;
    }
    if (x > 1)
      throw_error("MATLAB:ellipke:MOutOfRange", "M must be in the range M <= 1.");
    if (x == -INFINITY) {
      K.set_double(i, 0);
      E.set_double(i, INFINITY);
      continue;
    }
    // M < 0 through the imaginary-modulus transformation (Abramowitz-Stegun 17.4.17):
    // K(m) = K(-m/(1-m))/sqrt(1-m), E(m) = E(-m/(1-m))*sqrt(1-m).
    double scale_k = 1, scale_e = 1;
    if (x < 0) {
      scale_k = 1 / std::sqrt(1 - x);
      scale_e = std::sqrt(1 - x);
      x = -x / (1 - x);
    }
    if (x == 1) {
      K.set_double(i, INFINITY);
      E.set_double(i, 1);
      continue;
    }

    double a = 1, b = std::sqrt(1 - x), c = std::sqrt(x), s = 0.5 * c * c, p = 1;
    for (int it = 0; it < 64 && std::abs(c) > tol; ++it) {
      double an = 0.5 * (a + b), bn = std::sqrt(a * b);
      c = 0.5 * (a - b);
      p *= 2;
      s += p * 0.5 * c * c;
      a = an;
      b = bn;
    }
    double k = M_PI / (2 * a);
    K.set_double(i, k * scale_k);
    E.set_double(i, k * (1 - s) * scale_e);
  }
  return {Value(K), Value(E)};
}

/// Wraps angles into [lo, lo + period) or (lo, lo + period] (MATLAB's Mapping Toolbox
/// wrapToPi / wrapTo2Pi / wrapTo180 / wrapTo360: positive multiples of the period map to the
/// period itself, not to 0).
Tensor wrap_angles(const Value& v, const char* fname, double period, bool centered) {
  Tensor x = float_arg(v, fname);
  return mathutil::map_real(x, [&](double a) {
    if (!std::isfinite(a)) return a;
    if (centered) {
      // wrapToPi: ((lambda + pi) mod 2pi) - pi, with positive odd multiples of pi kept as pi.
      double half = period / 2;
      double r = std::fmod(a + half, period);
      if (r < 0) r += period;
      if (r == 0 && a + half > 0) r = period;
      return r - half;
    }
    double r = std::fmod(a, period);
    if (r < 0) r += period;
    if (r == 0 && a > 0) r = period;
    return r;
  });
}

/// lambda = wrapToPi(lambda): angles in radians wrapped to [-pi, pi].
Outputs bi_wrapToPi(CallContext&, Args args, int nargout) {
  check_nargin(args, 1, 1);
  check_nargout(nargout, 1);
  return {Value(wrap_angles(args[0], "wrapToPi", 2 * M_PI, true))};
}
/// lambda = wrapTo2Pi(lambda): angles in radians wrapped to [0, 2*pi].
Outputs bi_wrapTo2Pi(CallContext&, Args args, int nargout) {
  check_nargin(args, 1, 1);
  check_nargout(nargout, 1);
  return {Value(wrap_angles(args[0], "wrapTo2Pi", 2 * M_PI, false))};
}
/// lon = wrapTo180(lon): angles in degrees wrapped to [-180, 180].
Outputs bi_wrapTo180(CallContext&, Args args, int nargout) {
  check_nargin(args, 1, 1);
  check_nargout(nargout, 1);
  return {Value(wrap_angles(args[0], "wrapTo180", 360, true))};
}
/// lon = wrapTo360(lon): angles in degrees wrapped to [0, 360].
Outputs bi_wrapTo360(CallContext&, Args args, int nargout) {
  check_nargin(args, 1, 1);
  check_nargout(nargout, 1);
  return {Value(wrap_angles(args[0], "wrapTo360", 360, false))};
}

// ---------------------------------------------------------------------------------------------
// Number theory

/// [p, m] = factor(n): the prime factors of a non-negative integer n in ascending order (row);
/// m: the multiplicities of the distinct factors p. factor(0) = 0, factor(1) = 1. The class of
/// n is kept. Errors: MATLAB:factor:InputNotPosInt (not a non-negative integer scalar),
/// MATLAB:factor:InputTooLarge (above flintmax for double).
Outputs bi_factor(CallContext&, Args args, int nargout) {
  check_nargin(args, 1, 1);
  check_nargout(nargout, 2);
  const Value& v = args[0];
  if (!v.is_tensor() || v.numel() != 1 || v.tensor().is_complex())
    throw_error("MATLAB:factor:InputNotPosInt", "N must be a real nonnegative integer scalar.");
  Tensor t = v.tensor();
  double d = t.get_double(0);
  if (!(d >= 0 && d == std::floor(d)))
    throw_error("MATLAB:factor:InputNotPosInt", "N must be a real nonnegative integer scalar.");
  if (t.cls() == ClassId::Double && d > 9007199254740992.0)
    throw_error("MATLAB:factor:InputTooLarge", "The maximum value of N allowed is 2^53.");
  if (t.cls() == ClassId::Single && d > 16777216.0)
    throw_error("MATLAB:factor:InputTooLarge", "The maximum value of N allowed is 2^24.");
  uint64_t n = t.cls() == ClassId::UInt64 ? t.data<uint64_t>()[0] : static_cast<uint64_t>(d);
  std::vector<uint64_t> f;
  if (n < 4) {
    f.push_back(n);
  } else {
    for (uint64_t q = 2; q * q <= n; q += (q == 2 ? 1 : 2))
      while (n % q == 0) {
        f.push_back(q);
        n /= q;
      }
    if (n > 1) f.push_back(n);
  }
  ClassId cls = t.cls() == ClassId::Logical || t.cls() == ClassId::Char ? ClassId::Double : t.cls();
  Tensor p = Tensor::uninit(cls, Dims(1, static_cast<int64_t>(f.size())));
  for (size_t i = 0; i < f.size(); ++i) p.set_double(static_cast<int64_t>(i), static_cast<double>(f[i]));
  if (nargout < 2) return {Value(p)};
  std::vector<uint64_t> u;
  std::vector<double> mult;
  for (uint64_t q : f) {
    if (!u.empty() && u.back() == q) {
      mult.back() += 1;
    } else {
      u.push_back(q);
      mult.push_back(1);
    }
  }
  Tensor pu = Tensor::uninit(cls, Dims(1, static_cast<int64_t>(u.size())));
  Tensor m = Tensor::uninit(ClassId::Double, Dims(1, static_cast<int64_t>(u.size())));
  for (size_t i = 0; i < u.size(); ++i) {
    pu.set_double(static_cast<int64_t>(i), static_cast<double>(u[i]));
    m.set_double(static_cast<int64_t>(i), mult[i]);
  }
  return {Value(pu), Value(m)};
}

// ---------------------------------------------------------------------------------------------
// Statistics

/// Shared argument handling of skewness/kurtosis/mad: X, flag, dim.
struct MomentArgs {
  Tensor x;
  double flag = 1;
  int dim = -1;  // 0-based; -1 first non-singleton
};

MomentArgs moment_args(Args args, const char* fname, double default_flag) {
  MomentArgs m;
  if (args[0].is_char())
    throw_error((std::string("MATLAB:") + fname + ":InvalidInput").c_str(),
                "X must be a numeric array.");
  m.x = float_arg(args[0], fname);
  m.flag = default_flag;
  if (args.size() > 1 && !args[1].is_empty()) {
    m.flag = args[1].to_double("flag");
  }
  if (args.size() > 2) m.dim = mathutil::dim_arg(args[2]);
  if (m.dim < 0) m.dim = mathutil::first_nonsingleton(m.x.dims());
  return m;
}

/// Applies f to every lane of x along dim (NaNs included); the result has size 1 along dim.
template <class F>
Tensor reduce_lanes(const Tensor& x, int dim, F f) {
  Dims d = x.dims();
  Dims od = d;
  int64_t n = d[dim];
  od.set(dim, x.is_empty() && d.ndims() == 2 && d[0] == 0 && d[1] == 0 ? 1 : 1);
  if (x.numel() == 0 && d.ndims() == 2 && d[0] == 0 && d[1] == 0) od = Dims(1, 1);
  int64_t pre = 1, post = 1;
  for (int k = 0; k < dim; ++k) pre *= d[k];
  for (int k = dim + 1; k < d.ndims(); ++k) post *= d[k];
  Tensor r = Tensor::uninit(x.cls(), od.normalize());
  std::vector<double> lane(static_cast<size_t>(n));
  for (int64_t b = 0; b < post; ++b)
    for (int64_t i = 0; i < pre; ++i) {
      for (int64_t k = 0; k < n; ++k) lane[k] = x.get_double((b * n + k) * pre + i);
      r.set_double(b * pre + i, f(lane));
    }
  if (x.numel() == 0 && r.numel() == 1) r.set_double(0, f(std::vector<double>{}));
  return r;
}

double mean_of(const std::vector<double>& v) {
  double s = 0;
  for (double a : v) s += a;
  return s / static_cast<double>(v.size());
}

/// y = skewness(X) | skewness(X, flag) | skewness(X, flag, dim): the sample skewness
/// m3/m2^1.5 along dim (first non-singleton by default); flag 0 corrects the bias
/// (sqrt(n(n-1))/(n-2) factor, n >= 3), flag 1 (default) does not. NaNs propagate.
Outputs bi_skewness(CallContext&, Args args, int nargout) {
  check_nargin(args, 1, 3);
  check_nargout(nargout, 1);
  MomentArgs a = moment_args(args, "skewness", 1);
  if (a.flag != 0 && a.flag != 1)
    throw_error("MATLAB:skewness:BadFlag", "FLAG must be 0 or 1.");
  auto stat = [&](auto zero, const std::vector<double>& v) -> double {
    using T = decltype(zero);  // single input: single arithmetic, as MATLAB
    T n = static_cast<T>(v.size());
    if (v.empty()) return std::nan("");
    T mu = 0, m2 = 0, m3 = 0;
    for (double x : v) mu += static_cast<T>(x);
    mu /= n;
    for (double x : v) {
      T d = static_cast<T>(x) - mu;
      m2 += d * d;
      m3 += d * d * d;
    }
    m2 /= n;
    m3 /= n;
    T s = m3 / std::pow(m2, static_cast<T>(1.5));
    if (a.flag == 0) s = n < 3 ? std::nan("") : s * std::sqrt(n * (n - 1)) / (n - 2);
    return static_cast<double>(s);
  };
  const bool single = a.x.cls() == ClassId::Single;
  return {Value(reduce_lanes(a.x, a.dim, [&](const std::vector<double>& v) {
    return single ? stat(0.0f, v) : stat(0.0, v);
  }))};
}

/// k = kurtosis(X) | kurtosis(X, flag) | kurtosis(X, flag, dim): m4/m2^2 along dim; flag 0
/// corrects the bias (n >= 4), flag 1 (default) does not. A normal sample gives about 3.
Outputs bi_kurtosis(CallContext&, Args args, int nargout) {
  check_nargin(args, 1, 3);
  check_nargout(nargout, 1);
  MomentArgs a = moment_args(args, "kurtosis", 1);
  if (a.flag != 0 && a.flag != 1)
    throw_error("MATLAB:kurtosis:BadFlag", "FLAG must be 0 or 1.");
  auto stat = [&](auto zero, const std::vector<double>& v) -> double {
    using T = decltype(zero);  // single input: single arithmetic, as MATLAB
    T n = static_cast<T>(v.size());
    if (v.empty()) return std::nan("");
    T mu = 0, m2 = 0, m4 = 0;
    for (double x : v) mu += static_cast<T>(x);
    mu /= n;
    for (double x : v) {
      T d = static_cast<T>(x) - mu;
      m2 += d * d;
      m4 += d * d * d * d;
    }
    m2 /= n;
    m4 /= n;
    T k = m4 / (m2 * m2);
    if (a.flag == 0)
      k = n < 4 ? std::nan("") : 3 + (n - 1) / ((n - 2) * (n - 3)) * ((n + 1) * k - 3 * (n - 1));
    return static_cast<double>(k);
  };
  const bool single = a.x.cls() == ClassId::Single;
  return {Value(reduce_lanes(a.x, a.dim, [&](const std::vector<double>& v) {
    return single ? stat(0.0f, v) : stat(0.0, v);
  }))};
}

/// y = mad(X) | mad(X, flag) | mad(X, flag, dim): mean (flag 0, default) or median (flag 1)
/// absolute deviation from the mean or median along dim. NaN values are ignored (as MATLAB's
/// mad does, through nanmean/nanmedian).
Outputs bi_mad(CallContext&, Args args, int nargout) {
  check_nargin(args, 1, 3);
  check_nargout(nargout, 1);
  MomentArgs a = moment_args(args, "mad", 0);
  if (a.flag != 0 && a.flag != 1)
    throw_error("MATLAB:mad:BadFlag", "FLAG must be 0 or 1.");
  auto median = [](std::vector<double> v) {
    if (v.empty()) return std::nan("");
    std::sort(v.begin(), v.end());
    size_t n = v.size();
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
  };
  return {Value(reduce_lanes(a.x, a.dim, [&](const std::vector<double>& all) {
    std::vector<double> v;
    for (double x : all)
      if (!std::isnan(x)) v.push_back(x);
    if (v.empty()) return std::nan("");
    double c = a.flag == 1 ? median(v) : mean_of(v);
    std::vector<double> dev;
    for (double x : v) dev.push_back(std::abs(x - c));
    return a.flag == 1 ? median(dev) : mean_of(dev);
  }))};
}

/// r = iqr(X) | iqr(X, dim) | iqr(X, 'all') | iqr(X, vecdim): the interquartile range
/// prctile(X, 75) - prctile(X, 25) along the dimension (first non-singleton by default).
Outputs bi_iqr(CallContext& ctx, Args args, int nargout) {
  check_nargin(args, 1, 2);
  check_nargout(nargout, 1);
  if (args[0].is_char() || !args[0].is_tensor())
    throw_error("MATLAB:iqr:InvalidInput", "X must be a numeric array.");
  if (args.size() > 1 && args[1].is_tensor() && !args[1].is_char()) {
    std::vector<double> d = mathutil::doubles_of(args[1], "iqr");
    for (double v : d)
      if (!(v >= 1 && v == std::floor(v) && std::isfinite(v)))
        throw_error("MATLAB:getdimarg:dimensionMustBePositiveInteger",
                    "Dimension argument must be a positive integer scalar or a vector of "
                    "unique positive integers.");
    for (size_t i = 0; i < d.size(); ++i)
      for (size_t j = i + 1; j < d.size(); ++j)
        if (d[i] == d[j])
          throw_error("MATLAB:getdimarg:vecDimsMustBeUniquePositiveIntegers",
                      "Dimension argument must be a positive integer scalar or a vector of "
                      "unique positive integers.");
  }
  std::vector<Value> a{args[0], Value(Tensor::scalar(25))};
  if (args.size() > 1) a.push_back(args[1]);
  Value lo = call1(ctx, "prctile", a);
  a[1] = Value(75.0);
  Value hi = call1(ctx, "prctile", a);
  return {call1(ctx, "minus", {hi, lo})};
}

// ---------------------------------------------------------------------------------------------
// Text

/// Each char row, cellstr element or string as UTF-8 texts with a writer of the same kind.
struct TextArg {
  enum Kind { CharRows, Cell, String } kind;
  Dims dims;
  std::vector<std::string> items;
  std::vector<bool> miss;  ///< string <missing>
};

TextArg text_arg(const Value& v, const char* fname) {
  TextArg t;
  if (v.is_char() || (v.is_tensor() && v.is_empty())) {
    t.kind = TextArg::CharRows;
    Tensor c = v.tensor();
    int64_t rows = c.dims()[0], cols = c.numel() / std::max<int64_t>(rows, 1);
    t.dims = Dims(rows, 1);
    for (int64_t i = 0; i < rows; ++i) {
      std::u16string r;
      for (int64_t j = 0; j < cols; ++j) r.push_back(static_cast<char16_t>(c.get_double(j * rows + i)));
      Tensor row = Tensor::uninit(ClassId::Char, Dims(1, cols));
      for (int64_t j = 0; j < cols; ++j) row.mutable_data<char16_t>()[j] = r[j];
      t.items.push_back(row.to_utf8());
      t.miss.push_back(false);
    }
    return t;
  }
  if (v.is_cell()) {
    t.kind = TextArg::Cell;
    t.dims = v.dims();
    for (int64_t i = 0; i < v.numel(); ++i) {
      const Value& e = v.cell()[i];
      if (!(e.is_char() || (e.is_tensor() && e.is_empty()) || (e.is_string() && e.numel() == 1)))
        throw_error(("MATLAB:" + std::string(fname) + ":InvalidInput").c_str(),
                    "Input must be a string array, a character vector, or a cell array of "
                    "character vectors.");
      t.items.push_back(e.is_empty() ? std::string() : e.to_text());
      t.miss.push_back(false);
    }
    return t;
  }
  if (v.is_string()) {
    t.kind = TextArg::String;
    t.dims = v.dims();
    const StringArray& s = v.string_array();
    for (int64_t i = 0; i < s.numel(); ++i) {
      t.items.push_back(s[i] ? *s[i] : std::string());
      t.miss.push_back(!s[i]);
    }
    return t;
  }
  throw_error(("MATLAB:" + std::string(fname) + ":InvalidInput").c_str(),
              "Input must be a string array, a character vector, or a cell array of character "
              "vectors.");
}

Value text_out(const TextArg& t, const std::vector<std::string>& items) {
  switch (t.kind) {
    case TextArg::CharRows: {
      if (items.size() == 1) return Value::from_chars(items[0]);
      // Rows of equal length (callers keep widths).
      std::vector<Tensor> rows;
      int64_t w = 0;
      for (const auto& s : items) {
        rows.push_back(Value::from_chars(s).tensor());
        w = std::max(w, rows.back().numel());
      }
      int64_t m = static_cast<int64_t>(rows.size());
      Tensor r = Tensor::uninit(ClassId::Char, Dims(m, w));
      char16_t* d = r.mutable_data<char16_t>();
      for (int64_t i = 0; i < m; ++i)
        for (int64_t j = 0; j < w; ++j)
          d[j * m + i] = j < rows[i].numel() ? rows[i].data<char16_t>()[j] : u' ';
      return Value(r);
    }
    case TextArg::Cell: {
      CellArray c(t.dims);
      for (size_t i = 0; i < items.size(); ++i) c.at(static_cast<int64_t>(i)) = Value::from_chars(items[i]);
      return Value(std::move(c));
    }
    case TextArg::String: {
      StringArray s(t.dims);
      for (size_t i = 0; i < items.size(); ++i)
        s.at(static_cast<int64_t>(i)) = t.miss[i] ? std::nullopt : std::optional<std::string>(items[i]);
      return Value(std::move(s));
    }
  }
  return Value();
}

/// S = strjust(S) | strjust(S, 'right' | 'left' | 'center'): a char array with the text of
/// each row moved to the right (default), left or centre of the row, keeping the width
/// (blanks, and nulls, around the text are moved). Errors: MATLAB:strjust:InvalidJustification.
Outputs bi_strjust(CallContext&, Args args, int nargout) {
  check_nargin(args, 1, 2);
  check_nargout(nargout, 1);
  std::string mode = args.size() > 1 ? lower_s(args[1].to_text("justification")) : "right";
  if (mode != "right" && mode != "left" && mode != "center")
    throw_error("MATLAB:strjust:InvalidJustification",
                "Justification must be 'left', 'right', or 'center'.");
  if (args[0].is_tensor() && args[0].is_empty()) return {args[0]};
  if (!args[0].is_char() || args[0].dims().ndims() > 2)
    throw_error("MATLAB:strjust:InvalidInput", "Input must be a 2-D character array.");
  Tensor c = args[0].tensor();
  int64_t m = c.dims()[0], n = c.dims()[1];
  Tensor r = Tensor::uninit(ClassId::Char, c.dims());
  const char16_t* s = c.data<char16_t>();
  char16_t* d = r.mutable_data<char16_t>();
  auto blank = [](char16_t ch) { return ch == u' ' || ch == 0; };
  for (int64_t i = 0; i < m; ++i) {
    int64_t a = 0, b = n;
    while (a < n && blank(s[a * m + i])) ++a;
    while (b > a && blank(s[(b - 1) * m + i])) --b;
    int64_t len = b - a;
    int64_t start = mode == "left" ? 0 : mode == "right" ? n - len : (n - len) / 2;
    for (int64_t j = 0; j < n; ++j) d[j * m + i] = u' ';
    for (int64_t j = 0; j < len; ++j) d[(start + j) * m + i] = s[(a + j) * m + i];
  }
  return {Value(r)};
}

/// [token, remain] = strtok(str) | strtok(str, delimiters): the first token of str after
/// leading delimiters (default whitespace: space, \t, \n, \v, \f, \r, \0) and the rest from
/// the delimiter that ends it. Cell arrays and string arrays are processed element by element.
Outputs bi_strtok(CallContext&, Args args, int nargout) {
  check_nargin(args, 1, 2);
  check_nargout(nargout, 2);
  std::u32string delims;
  bool default_delims = args.size() < 2;
  if (!default_delims) {
    if (!args[1].is_text() && !(args[1].is_tensor() && args[1].is_empty()))
      throw_error("MATLAB:strtok:InvalidDelimiter",
                  "Delimiters must be a character vector or string scalar.");
    std::string ds = args[1].is_empty() ? std::string() : args[1].to_text();
    for (char c : ds) delims.push_back(static_cast<unsigned char>(c));
  }
  auto is_delim = [&](unsigned char c) {
    if (default_delims) return c == ' ' || (c >= 9 && c <= 13) || c == 0;
    return delims.find(c) != std::u32string::npos;
  };
  auto tok = [&](const std::string& s, std::string& t, std::string& rem) {
    size_t a = 0;
    while (a < s.size() && is_delim(static_cast<unsigned char>(s[a]))) ++a;
    size_t b = a;
    while (b < s.size() && !is_delim(static_cast<unsigned char>(s[b]))) ++b;
    t = s.substr(a, b - a);
    rem = s.substr(b);
  };
  const Value& v = args[0];
  if (v.is_char() || (v.is_tensor() && v.is_empty()) || (v.is_string() && v.numel() == 1)) {
    if (v.is_tensor() && !v.is_char() && !v.is_empty())
      throw_error("MATLAB:strtok:InvalidInput", "Input must be a string array, a character "
                  "vector, or a cell array of character vectors.");
    std::string s = v.is_empty() && !v.is_string() ? std::string() : v.to_text();
    std::string t, rem;
    tok(s, t, rem);
    if (v.is_string()) return {Value::from_string(t), Value::from_string(rem)};
    return {Value::from_chars(t), Value::from_chars(rem)};
  }
  TextArg ta = text_arg(v, "strtok");
  std::vector<std::string> ts, rs;
  for (const auto& s : ta.items) {
    std::string t, rem;
    tok(s, t, rem);
    ts.push_back(t);
    rs.push_back(rem);
  }
  return {text_out(ta, ts), text_out(ta, rs)};
}

/// Position argument of insertAfter/insertBefore: text (every occurrence) or a character
/// count (0..numel).
Outputs insert_text(Args args, int nargout, bool after, const char* fname) {
  check_nargin(args, 3, 3);
  check_nargout(nargout, 1);
  TextArg ta = text_arg(args[0], fname);
  if (!args[2].is_text())
    throw_error(("MATLAB:" + std::string(fname) + ":InvalidNewText").c_str(),
                "New text must be a string array, a character vector, or a cell array of "
                "character vectors.");
  std::string nt = args[2].to_text();
  std::vector<std::string> out;
  for (size_t i = 0; i < ta.items.size(); ++i) {
    const std::string& s = ta.items[i];
    if (args[1].is_text()) {
      std::string pat = args[1].to_text();
      if (pat.empty()) {
        out.push_back(s);
        continue;
      }
      std::string r;
      size_t p = 0;
      while (true) {
        size_t q = s.find(pat, p);
        if (q == std::string::npos) break;
        if (after) r += s.substr(p, q - p) + pat + nt;
        else r += s.substr(p, q - p) + nt + pat;
        p = q + pat.size();
      }
      out.push_back(r + s.substr(p));
    } else {
      double pos = args[1].to_double("pos");
      Tensor u = Value::from_chars(s).tensor();
      int64_t len = u.numel();
      if (!(pos == std::floor(pos)) || pos < (after ? 0 : 1) || pos > (after ? len : len + 1))
        throw_error(("MATLAB:" + std::string(fname) + ":PositionOutOfRange").c_str(),
                    "Position must be an integer between %d and the number of characters%s.",
                    after ? 0 : 1, after ? "" : " plus one");
      int64_t at = after ? static_cast<int64_t>(pos) : static_cast<int64_t>(pos) - 1;
      Tensor head = Tensor::uninit(ClassId::Char, Dims(1, at));
      Tensor tail = Tensor::uninit(ClassId::Char, Dims(1, len - at));
      for (int64_t k = 0; k < at; ++k) head.mutable_data<char16_t>()[k] = u.data<char16_t>()[k];
      for (int64_t k = at; k < len; ++k) tail.mutable_data<char16_t>()[k - at] = u.data<char16_t>()[k];
      out.push_back(head.to_utf8() + nt + tail.to_utf8());
    }
  }
  return {text_out(ta, out)};
}

/// newStr = insertAfter(str, pat, newText) | insertAfter(str, pos, newText): newText after
/// every occurrence of pat, or after the first pos characters.
Outputs bi_insertAfter(CallContext&, Args args, int nargout) {
  return insert_text(args, nargout, true, "insertAfter");
}
/// newStr = insertBefore(str, pat, newText) | insertBefore(str, pos, newText): newText before
/// every occurrence of pat, or before character pos.
Outputs bi_insertBefore(CallContext&, Args args, int nargout) {
  return insert_text(args, nargout, false, "insertBefore");
}

/// newStr = reverse(str): the characters of each text in reverse order (char vectors, cell
/// arrays of character vectors, string arrays; <missing> stays missing).
Outputs bi_reverse(CallContext&, Args args, int nargout) {
  check_nargin(args, 1, 1);
  check_nargout(nargout, 1);
  TextArg ta = text_arg(args[0], "reverse");
  if (ta.kind == TextArg::CharRows && args[0].dims()[0] > 1)
    throw_error("MATLAB:reverse:InvalidInput", "Input must be a string array, a character "
                "vector, or a cell array of character vectors.");
  std::vector<std::string> out;
  for (const auto& s : ta.items) {
    Tensor u = Value::from_chars(s).tensor();
    int64_t n = u.numel();
    Tensor r = Tensor::uninit(ClassId::Char, Dims(1, n));
    for (int64_t k = 0; k < n; ++k) r.mutable_data<char16_t>()[k] = u.data<char16_t>()[n - 1 - k];
    out.push_back(r.to_utf8());
  }
  if (ta.kind == TextArg::CharRows && out.empty()) return {args[0]};
  return {text_out(ta, out)};
}

/// validStr = validatestring(str, validStrings) | validatestring(str, validStrings, funcName,
/// varName, argIndex): the element of validStrings that str matches case-insensitively, exactly
/// or as the unique prefix (a match that is a prefix of every other match wins). Errors:
/// MATLAB:validatestring:unrecognizedStringChoice, MATLAB:validatestring:ambiguousStringChoice,
/// MATLAB:validatestring:invalidStringArray.
Outputs bi_validatestring(CallContext&, Args args, int nargout) {
  check_nargin(args, 2, 5);
  check_nargout(nargout, 1);
  if (!args[0].is_text())
    throw_error("MATLAB:validatestring:invalidType", "Expected input to be a string scalar or "
                "character vector.");
  std::string s = args[0].to_text();
  std::vector<std::string> opts;
  const Value& o = args[1];
  if (o.is_cell()) {
    for (int64_t i = 0; i < o.numel(); ++i) {
      if (!o.cell()[i].is_text())
        throw_error("MATLAB:validatestring:invalidStringArray",
                    "Valid strings must be a string array or a cell array of character "
                    "vectors.");
      opts.push_back(o.cell()[i].to_text());
    }
  } else if (o.is_string()) {
    for (int64_t i = 0; i < o.numel(); ++i) opts.push_back(o.string_array()[i].value_or(""));
  } else {
    throw_error("MATLAB:validatestring:invalidStringArray",
                "Valid strings must be a string array or a cell array of character vectors.");
  }
  for (size_t i = 2; i < args.size() && i < 4; ++i)
    if (!(args[i].is_text() || (args[i].is_char() && args[i].is_empty())))
      throw_error("MATLAB:validatestring:invalidInput", "%s must be a character vector or "
                  "string scalar.", i == 2 ? "FUNCNAME" : "VARNAME");
  if (args.size() > 4) {
    const Value& ai = args[4];
    if (!ai.is_tensor() || ai.is_char() || ai.numel() != 1 || !(ai.tensor().get_double(0) >= 1) ||
        ai.tensor().get_double(0) != std::floor(ai.tensor().get_double(0)))
      throw_error("MATLAB:validatestring:invalidArgIndex", "ARGINDEX must be a positive integer.");
  }
  std::string prefix;
  if (args.size() > 2 && args[2].is_text() && !args[2].to_text().empty())
    prefix = args[2].to_text() + ": ";
  std::string ls = lower_s(s);
  std::vector<size_t> hits;
  for (size_t i = 0; i < opts.size(); ++i) {
    std::string lo = lower_s(opts[i]);
    if (lo == ls) return {o.is_string() ? Value::from_string(opts[i]) : Value::from_chars(opts[i])};
    if (!ls.empty() && lo.compare(0, ls.size(), ls) == 0) hits.push_back(i);
  }
  auto list = [&]() {
    std::string r;
    for (size_t i = 0; i < opts.size(); ++i) r += (i ? ", " : "") + std::string("'") + opts[i] + "'";
    return r;
  };
  if (hits.empty())
    throw_error("MATLAB:validatestring:unrecognizedStringChoice",
                "%sExpected input to match one of these values:\n\n%s\n\nThe input, '%s', did "
                "not match any of the valid values.", prefix.c_str(), list().c_str(), s.c_str());
  if (hits.size() > 1) {
    // The shortest match wins when it is a prefix of every other match.
    size_t best = hits[0];
    for (size_t h : hits)
      if (opts[h].size() < opts[best].size()) best = h;
    for (size_t h : hits)
      if (lower_s(opts[h]).compare(0, opts[best].size(), lower_s(opts[best])) != 0)
        throw_error("MATLAB:validatestring:ambiguousStringChoice",
                    "%sExpected input to match one of these values:\n\n%s\n\nThe input, '%s', "
                    "matched more than one valid value.", prefix.c_str(), list().c_str(),
                    s.c_str());
    hits = {best};
  }
  const std::string& r = opts[hits[0]];
  return {o.is_string() ? Value::from_string(r) : Value::from_chars(r)};
}

// ---------------------------------------------------------------------------------------------
// planerot, polyvalm, cputime

/// [G, y] = planerot(x): the 2x2 Givens rotation G with G*x = y = [norm(x); 0] for a
/// 2-element column x (G = eye(2) when x(2) = 0). Errors: MATLAB:planerot:InvalidInput.
Outputs bi_planerot(CallContext&, Args args, int nargout) {
  check_nargin(args, 1, 1);
  check_nargout(nargout, 2);
  Tensor x = float_arg(args[0], "planerot");
  if (x.numel() != 2)
    throw_error("MATLAB:planerot:InvalidInput", "Input must be a 2-element vector.");
  double a = x.get_double(0), b = x.get_double(1);
  Tensor G = Tensor::zeros(x.cls(), Dims(2, 2));
  Tensor y = Tensor::uninit(x.cls(), x.dims());
  if (b != 0) {
    double r = std::hypot(a, b);
    double c = a / r, s = b / r;
    G.set_double(0, c);
    G.set_double(1, -s);
    G.set_double(2, s);
    G.set_double(3, c);
    y.set_double(0, r);
    y.set_double(1, 0);
  } else {
    G.set_double(0, 1);
    G.set_double(3, 1);
    y.set_double(0, a);
    y.set_double(1, b);
  }
  return {Value(G), Value(y)};
}

/// Y = polyvalm(p, X): the matrix polynomial p(1)*X^n + ... + p(n+1)*I for square X, by
/// Horner's rule with matrix products. Errors: MATLAB:polyvalm:NonSquareMatrix.
Outputs bi_polyvalm(CallContext& ctx, Args args, int nargout) {
  check_nargin(args, 2, 2);
  check_nargout(nargout, 1);
  const Value& X = args[1];
  if (!X.is_tensor() || X.dims().ndims() != 2 || X.dims()[0] != X.dims()[1])
    throw_error("MATLAB:polyvalm:NonSquareMatrix", "Matrix must be square.");
  if (!args[0].is_tensor() || !(args[0].dims().is_vector() || args[0].is_empty()))
    throw_error("MATLAB:polyvalm:InvalidP", "P must be a vector.");
  Tensor p = args[0].tensor();
  double n = static_cast<double>(X.dims()[0]);
  Value I = call1(ctx, "eye", {Value(n)});
  Value Y = call1(ctx, "zeros", {Value(n)});
  for (int64_t k = 0; k < p.numel(); ++k) {
    Value c = p.is_complex() ? Value(Tensor::complex_scalar(p.get_complex(k))) : Value(p.get_double(k));
    Y = call1(ctx, "plus", {call1(ctx, "mtimes", {X, Y}), call1(ctx, "times", {c, I})});
  }
  return {Y};
}

/// t = cputime: the processor time used by matfuse so far, in seconds.
Outputs bi_cputime(CallContext&, Args args, int nargout) {
  check_nargin(args, 0, 0);
  check_nargout(nargout, 1);
  return {Value(static_cast<double>(std::clock()) / CLOCKS_PER_SEC)};
}

}  // namespace

void register_extras(Registry& r) {
  r.add("atan2d", bi_atan2d);
  r.add("beta", bi_beta);
  r.add("betaln", bi_betaln);
  r.add("ellipke", bi_ellipke);
  r.add("wrapToPi", bi_wrapToPi);
  r.add("wrapTo2Pi", bi_wrapTo2Pi);
  r.add("wrapTo180", bi_wrapTo180);
  r.add("wrapTo360", bi_wrapTo360);
  r.add("factor", bi_factor);
  r.add("skewness", bi_skewness);
  r.add("kurtosis", bi_kurtosis);
  r.add("mad", bi_mad);
  r.add("iqr", bi_iqr);
  r.add("strjust", bi_strjust);
  r.add("strtok", bi_strtok);
  r.add("insertAfter", bi_insertAfter);
  r.add("insertBefore", bi_insertBefore);
  r.add("reverse", bi_reverse);
  r.add("validatestring", bi_validatestring);
  r.add("planerot", bi_planerot);
  r.add("polyvalm", bi_polyvalm);
  r.add("cputime", bi_cputime);
}

}  // namespace matfuse
