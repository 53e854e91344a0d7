// Builtins rat and rats: rational approximations by continued fractions.
//
// Algorithm: MATLAB's rat (documented in its reference page): the convergents n/d of the
// continued fraction x = a0 + 1/(a1 + 1/(a2 + ...)) with partial quotients rounded to the
// nearest integer, stopped at the first convergent with |x - n/d| < tol; tol defaults to
// 1e-6*norm(X(:), 1) over the finite elements. rats approximates each element to 1e-6 of its
// magnitude within the field width strlen (default 13), like `format rat`.
#include "builtins/rational.h"

#include <algorithm>
#include <climits>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "builtins/registry.h"
#include "runtime/error.h"

namespace matfuse {

namespace {

std::string int_text(double v) {
  char buf[48];
  std::snprintf(buf, sizeof buf, "%.0f", v == 0 ? 0.0 : v);
  return buf;
}

/// Char matrix (rows padded with blanks on the right) from ASCII rows.
Value char_rows(const std::vector<std::string>& rows) {
  size_t w = 0;
  for (const auto& r : rows) w = std::max(w, r.size());
  int64_t m = static_cast<int64_t>(rows.size()), n = static_cast<int64_t>(w);
  Tensor t = Tensor::uninit(ClassId::Char, Dims(m, n));
  char16_t* d = t.mutable_data<char16_t>();
  for (int64_t i = 0; i < m; ++i)
    for (int64_t j = 0; j < n; ++j)
      d[j * m + i] = static_cast<size_t>(j) < rows[i].size() ? rows[i][j] : u' ';
  return Value(t);
}

Tensor real_input(const Value& v, const char* fname) {
  if (!v.is_tensor() || v.is_char())
    throw_error("MATLAB:UndefinedFunction",
                "Undefined function '%s' for input arguments of type '%s'.", fname,
                v.class_name().c_str());
  return v.tensor();
}

}  // namespace

void rat_approx(double x, double tol, double& n, double& d, std::string* expansion) {
  if (std::isnan(x)) {
    n = 0;
    d = 0;
    if (expansion) *expansion = "0/0";
    return;
  }
  if (std::isinf(x)) {
    n = x > 0 ? 1 : -1;
    d = 0;
    if (expansion) *expansion = x > 0 ? "Inf" : "-Inf";
    return;
  }
  double lastn = 1, lastd = 0;
  n = std::round(x);
  d = 1;
  double frac = x - n;
  std::vector<double> steps;
  while (std::abs(x - n / d) >= tol && frac != 0) {
    double flip = 1 / frac;
    double step = std::round(flip);
    frac = flip - step;
    double sn = n, sd = d;
    n = n * step + lastn;
    d = d * step + lastd;
    lastn = sn;
    lastd = sd;
    steps.push_back(step);
    if (!std::isfinite(n) || !std::isfinite(d)) break;
  }
  if (expansion) {
    // a0 + 1/(a1 + 1/(a2 + 1/a3)); a negative last term keeps its parentheses: "1 + 1/(-2)".
    std::string tail;
    for (size_t i = steps.size(); i-- > 0;) {
      std::string t = int_text(steps[i]);
      if (i + 1 == steps.size())
        tail = steps[i] < 0 ? "(" + t + ")" : t;
      else
        tail = "(" + t + " + 1/" + tail + ")";
    }
    std::string a0 = int_text(std::round(x));
    *expansion = steps.empty() ? a0 : a0 + " + 1/" + tail;
  }
  if (d < 0) {
    n = -n;
    d = -d;
  }
}

std::string rats_text(double x, int strlen) {
  std::string body;
  if (std::isnan(x)) {
    body = "NaN";
  } else if (std::isinf(x)) {
    body = x > 0 ? "Inf" : "-Inf";
  } else if (x == 0) {
    body = "0";
  } else {
    // Convergents until the tolerance is met; keep the last one that fits the field.
    double tol = 1e-6 * std::abs(x);
    double lastn = 1, lastd = 0, n = std::round(x), d = 1, frac = x - n;
    auto text = [&](double nn, double dd) {
      if (dd < 0) {
        nn = -nn;
        dd = -dd;
      }
      return dd == 1 ? int_text(nn) : int_text(nn) + "/" + int_text(dd);
    };
    std::string best = text(n, d);
    if (static_cast<int>(best.size()) > strlen) best = "*";
    while (std::abs(x - n / d) >= tol && frac != 0) {
      double flip = 1 / frac;
      double step = std::round(flip);
      frac = flip - step;
      double sn = n, sd = d;
      n = n * step + lastn;
      d = d * step + lastd;
      lastn = sn;
      lastd = sd;
      if (!std::isfinite(n) || !std::isfinite(d)) break;
      std::string t = text(n, d);
      if (static_cast<int>(t.size()) > strlen) break;
      best = t;
    }
    body = best;
  }
  int pad = strlen - static_cast<int>(body.size());
  if (pad < 0) pad = 0;
  int left = (pad + 1) / 2, right = pad / 2;
  return std::string(1 + static_cast<size_t>(left), ' ') + body +
         std::string(static_cast<size_t>(right), ' ');
}

namespace {

/// [N, D] = rat(X) | [N, D] = rat(X, tol) | S = rat(___): N./D approximates X with
/// |X - N./D| < tol (default 1e-6*norm(X(:),1)); D positive; N, D of X's size. S: char matrix
/// of the continued-fraction expansions, one row per element ("Inf", "-Inf" for infinities).
/// Errors: MATLAB:rat:InvalidInput (not single or double), MATLAB:rat:complexInput,
/// MATLAB:rat:InvalidTol.
Outputs bi_rat(CallContext&, Args args, int nargout) {
  check_nargin(args, 1, 2);
  check_nargout(nargout, 2);
  Tensor x = real_input(args[0], "rat");
  if (x.cls() != ClassId::Double && x.cls() != ClassId::Single)
    throw_error("MATLAB:rat:InvalidInput", "Input X must be a single or double array.");
  if (x.is_complex())
    throw_error("MATLAB:rat:complexInput", "Input X must be real.");
  const int64_t ne = x.numel();
  double tol;
  if (args.size() > 1) {
    const Value& tv = args[1];
    if (!tv.is_tensor() || tv.is_char() || tv.numel() != 1 || tv.tensor().is_complex() ||
        !(tv.tensor().get_double(0) >= 0))
      throw_error("MATLAB:rat:InvalidTol", "TOL must be a non-negative real scalar.");
    tol = tv.tensor().get_double(0);
  } else {
    double nrm = 0;
    for (int64_t i = 0; i < ne; ++i) {
      double v = x.get_double(i);
      if (std::isfinite(v)) nrm += std::abs(v);
    }
    tol = 1e-6 * nrm;
  }
  if (nargout <= 1) {
    std::vector<std::string> rows;
    for (int64_t i = 0; i < ne; ++i) {
      double n, d;
      std::string s;
      rat_approx(x.get_double(i), tol, n, d, &s);
      rows.push_back(s);
    }
    if (rows.empty()) return {Value::from_chars("")};
    return {char_rows(rows)};
  }
  Tensor N = Tensor::uninit(ClassId::Double, x.dims()), D = Tensor::uninit(ClassId::Double, x.dims());
  for (int64_t i = 0; i < ne; ++i) {
    double n, d;
    rat_approx(x.get_double(i), tol, n, d);
    N.set_double(i, n);
    D.set_double(i, d);
  }
  return {Value(N), Value(D)};
}

/// S = rats(X) | rats(X, strlen): char matrix, one row per row of X, each element a
/// rational approximation in a field of strlen (default 13) characters plus a separator.
/// Errors: MATLAB:rats:complexInput for complex X, MATLAB:UndefinedFunction for non-numeric.
Outputs bi_rats(CallContext&, Args args, int nargout) {
  check_nargin(args, 1, 2);
  check_nargout(nargout, 1);
  Tensor x = real_input(args[0], "rats");
  if (x.is_complex())
    throw_error("MATLAB:rats:complexInput", "Input X must be real.");
  int strlen = 13;
  if (args.size() > 1) {
    double v = args[1].to_double("strlen");
    if (!(v >= 1 && v <= INT_MAX && v == std::floor(v)))  // Inf: undefined to cast to int
      throw_error("MATLAB:rats:invalidStrlen", "STRLEN must be a positive integer.");
    strlen = static_cast<int>(v);
  }
  if (x.dims().ndims() > 2)
    throw_error("MATLAB:rats:inputMustBe2D", "Input X must be a 2-D matrix.");
  int64_t m = x.dims()[0], n = x.dims()[1];
  std::vector<std::string> rows;
  for (int64_t i = 0; i < m; ++i) {
    std::string r;
    for (int64_t j = 0; j < n; ++j) r += rats_text(x.get_double(j * m + i), strlen);
    rows.push_back(r);
  }
  if (rows.empty()) return {Value::from_chars("")};
  return {char_rows(rows)};
}

}  // namespace

void register_rational(Registry& r) {
  r.add("rat", bi_rat);
  r.add("rats", bi_rats);
}

}  // namespace matfuse
