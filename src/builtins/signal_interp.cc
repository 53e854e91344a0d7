// Builtins of the "signal" family: interp1 (1-D interpolation).
//
// Methods: 'linear' (default), 'nearest' (ties go to the larger sample point), 'previous',
// 'next', 'makima' (modified Akima), 'pchip' / 'cubic' (shape-preserving piecewise cubic Hermite
// with Fritsch-Carlson slopes: weighted harmonic means inside, three-point end slopes limited as
// MATLAB's pchip), 'spline' (cubic spline with not-a-knot end conditions; a parabola for 3 points,
// a line for 2); pp = interp1(x, v, method, 'pp') gives the piecewise polynomial (see interp1_pp).
// Out-of-range query points give NaN by default (the methods extrapolate by default for
// 'pchip' and 'spline'), their own method with 'extrap', or a given scalar value.
// Sample values v: a vector, or an array whose columns (first dimension = numel(x)) are
// interpolated independently; complex values have their real and imaginary parts interpolated
// separately.
#include <algorithm>
#include <cmath>
#include <numeric>

#include "builtins/signal_detail.h"

namespace matfuse::sig {

namespace {

enum class Method { Linear, Nearest, Previous, Next, Pchip, Spline, Makima };

Method parse_method(const Value& v) {
  std::string s = lower_text(v);
  if (!s.empty() && s[0] == '*') s.erase(0, 1);
  if (s == "linear") return Method::Linear;
  if (s == "nearest") return Method::Nearest;
  if (s == "previous") return Method::Previous;
  if (s == "next") return Method::Next;
  if (s == "pchip" || s == "cubic") return Method::Pchip;
  if (s == "spline") return Method::Spline;
  if (s == "makima") return Method::Makima;
  if (s == "v5cubic") {
    throw_error("matfuse:notAvailable", "interp1 method '%s' is not supported yet.", s.c_str());
  }
  throw_error("MATLAB:interp1:InvalidMethod", "Invalid interpolation method.");
}

/// Slopes of the modified Akima interpolant (MATLAB's makima; C. Moler, "Makima piecewise
/// cubic interpolation", 2019): d(i) = (w2 del(i-1) + w1 del(i)) / (w1 + w2) with
/// w1 = |del(i-1) - del(i-2)| + |del(i-1) + del(i-2)|/2, w2 = |del(i+1) - del(i)| +
/// |del(i+1) + del(i)|/2, two slopes extrapolated linearly at each end, 0 where both weights
/// are 0; two points give the line. Real data only (the caller splits complex values).
std::vector<double> makima_slopes(const std::vector<double>& del) {
  const int64_t m = static_cast<int64_t>(del.size());  // n - 1 intervals
  if (m == 1) return {del[0], del[0]};
  std::vector<double> e(static_cast<size_t>(m + 4));  // del(-2) .. del(m+1)
  for (int64_t i = 0; i < m; ++i) e[i + 2] = del[i];
  e[1] = 2 * del[0] - del[1];
  e[0] = 2 * e[1] - del[0];
  e[m + 2] = 2 * del[m - 1] - del[m - 2];
  e[m + 3] = 2 * e[m + 2] - del[m - 1];
  auto w = [&](int64_t j) { return std::fabs(e[j + 1] - e[j]) + std::fabs(e[j + 1] + e[j]) / 2; };
  std::vector<double> d(static_cast<size_t>(m + 1));
  for (int64_t i = 0; i <= m; ++i) {  // point i: del(i-1) = e[i+1], del(i) = e[i+2]
    double w1 = w(i), w2 = w(i + 2);
    d[i] = w1 + w2 == 0 ? 0.0 : (w2 * e[i + 1] + w1 * e[i + 2]) / (w1 + w2);
  }
  return d;
}

/// Slopes of the pchip interpolant (Fritsch-Carlson).
template <class T>
std::vector<T> pchip_slopes(const std::vector<double>& h, const std::vector<T>& del) {
  size_t n = h.size() + 1;
  std::vector<T> d(n, T(0));
  if (n == 2) {
    d[0] = d[1] = del[0];
    return d;
  }
  auto sgn = [](const T& v) -> double {
    double r = std::real(v);
    return r > 0 ? 1.0 : r < 0 ? -1.0 : 0.0;
  };
  for (size_t k = 1; k + 1 < n; ++k) {
    if (sgn(del[k - 1]) * sgn(del[k]) > 0) {
      double w1 = 2 * h[k] + h[k - 1], w2 = h[k] + 2 * h[k - 1];
      d[k] = (w1 + w2) / (w1 / del[k - 1] + w2 / del[k]);
    }
  }
  auto end_slope = [&](double h0, double h1, const T& d0, const T& d1) {
    T s = ((2 * h0 + h1) * d0 - h0 * d1) / (h0 + h1);
    if (sgn(s) != sgn(d0)) s = T(0);
    else if (sgn(d0) != sgn(d1) && std::abs(s) > std::abs(T(3) * d0)) s = T(3) * d0;
    return s;
  };
  d[0] = end_slope(h[0], h[1], del[0], del[1]);
  d[n - 1] = end_slope(h[n - 2], h[n - 3], del[n - 2], del[n - 3]);
  return d;
}

/// Slopes of the not-a-knot cubic spline (tridiagonal system solved without pivoting).
template <class T>
std::vector<T> spline_slopes(const std::vector<double>& x, const std::vector<double>& h,
                             const std::vector<T>& del) {
  size_t n = x.size();
  std::vector<T> s(n);
  if (n == 2) {
    s[0] = s[1] = del[0];
    return s;
  }
  if (n == 3) {  // the parabola through the three points
    T c = (del[1] - del[0]) / (x[2] - x[0]);
    for (size_t k = 0; k < 3; ++k) s[k] = del[0] + c * (2 * x[k] - x[0] - x[1]);
    return s;
  }
  std::vector<double> lo(n, 0), di(n, 0), up(n, 0);
  std::vector<T> r(n);
  di[0] = h[1];
  up[0] = h[0] + h[1];
  r[0] = ((h[0] + 2 * up[0]) * h[1] * del[0] + h[0] * h[0] * del[1]) / up[0];
  for (size_t k = 1; k + 1 < n; ++k) {
    lo[k] = h[k];
    di[k] = 2 * (h[k - 1] + h[k]);
    up[k] = h[k - 1];
    r[k] = T(3) * (h[k] * del[k - 1] + h[k - 1] * del[k]);
  }
  double hl = h[n - 2], hp = h[n - 3];
  lo[n - 1] = hl + hp;
  di[n - 1] = hp;
  r[n - 1] = (hl * hl * del[n - 3] + (2 * lo[n - 1] + hl) * hp * del[n - 2]) / lo[n - 1];
  // Thomas algorithm.
  for (size_t k = 1; k < n; ++k) {
    double m = lo[k] / di[k - 1];
    di[k] -= m * up[k - 1];
    r[k] -= m * r[k - 1];
  }
  s[n - 1] = r[n - 1] / di[n - 1];
  for (size_t k = n - 1; k-- > 0;) s[k] = (r[k] - up[k] * s[k + 1]) / di[k];
  return s;
}

template <class T>
std::vector<T> interp_column(const std::vector<double>& x, const std::vector<T>& v,
                             const std::vector<double>& xq, Method m, int extrap_mode,
                             T extrap_value) {
  size_t n = x.size();
  std::vector<double> h(n - 1);
  std::vector<T> del(n - 1);
  for (size_t k = 0; k + 1 < n; ++k) {
    h[k] = x[k + 1] - x[k];
    del[k] = (v[k + 1] - v[k]) / h[k];
  }
  std::vector<T> d;
  if (m == Method::Pchip) d = pchip_slopes(h, del);
  if (m == Method::Spline) d = spline_slopes(x, h, del);
  if constexpr (std::is_same_v<T, double>)
    if (m == Method::Makima) d = makima_slopes(del);
  const T nan = T(NAN);
  // Interval search: on an evenly spaced grid (every point within a quarter step of
  // x0 + k*h) the interval is computed arithmetically and fixed by at most a step or two of
  // comparisons with the grid itself (so the answer is the binary search's); otherwise
  // std::upper_bound.
  const double x0 = x[0], step = (x[n - 1] - x[0]) / static_cast<double>(n - 1);
  bool uniform = step > 0 && std::isfinite(step);
  for (size_t k = 1; uniform && k + 1 < n; ++k)
    uniform = std::fabs(x[k] - (x0 + static_cast<double>(k) * step)) <= 0.25 * step;
  const double inv_step = uniform ? 1.0 / step : 0.0;
  const int64_t last = static_cast<int64_t>(n) - 2;
  auto locate = [&](double q) -> size_t {
    if (uniform) {
      double g = (q - x0) * inv_step;
      int64_t k = g <= 0 ? 0 : g >= static_cast<double>(last) ? last : static_cast<int64_t>(g);
      while (k > 0 && q < x[k]) --k;
      while (k < last && q >= x[k + 1]) ++k;
      return static_cast<size_t>(k);
    }
    size_t k = static_cast<size_t>(std::upper_bound(x.begin(), x.end(), q) - x.begin());
    return k == 0 ? 0 : std::min(k - 1, n - 2);
  };
  std::vector<T> out(xq.size());
  if (m == Method::Linear && extrap_mode != 2) {  // the common case as one tight loop
    const bool ex = extrap_mode == 1;
    for (size_t i = 0; i < xq.size(); ++i) {
      double q = xq[i];
      if (std::isnan(q) || (!ex && !(q >= x[0] && q <= x[n - 1]))) {
        out[i] = nan;
        continue;
      }
      size_t k = locate(q);
      out[i] = v[k] + del[k] * (q - x[k]);
    }
    return out;
  }
  for (size_t i = 0; i < xq.size(); ++i) {
    double q = xq[i];
    if (std::isnan(q)) {
      out[i] = nan;
      continue;
    }
    bool inside = q >= x[0] && q <= x[n - 1];
    if (!inside && extrap_mode == 0) {
      out[i] = nan;
      continue;
    }
    if (!inside && extrap_mode == 2) {
      out[i] = extrap_value;
      continue;
    }
    size_t k = locate(q);
    double t = q - x[k];
    switch (m) {
      case Method::Linear: out[i] = v[k] + del[k] * t; break;
      case Method::Nearest:
        if (q <= x[0]) out[i] = v[0];
        else if (q >= x[n - 1]) out[i] = v[n - 1];
        else out[i] = (q - x[k] < x[k + 1] - q) ? v[k] : v[k + 1];
        break;
      case Method::Previous:
        if (q < x[0]) out[i] = nan;
        else if (q >= x[n - 1]) out[i] = v[n - 1];
        else out[i] = v[k];
        break;
      case Method::Next:
        if (q > x[n - 1]) out[i] = nan;
        else if (q <= x[0]) out[i] = v[0];
        else out[i] = q == x[k] ? v[k] : v[k + 1];
        break;
      case Method::Pchip:
      case Method::Makima:
      case Method::Spline: {
        double hk = h[k];
        T c2 = (T(3) * del[k] - T(2) * d[k] - d[k + 1]) / hk;
        T c3 = (d[k] - T(2) * del[k] + d[k + 1]) / (hk * hk);
        out[i] = v[k] + t * (d[k] + t * (c2 + t * c3));
        break;
      }
    }
  }
  return out;
}

/// The sample points of interp1: x = args[0] when has_x, else 1..n. Checked as MATLAB does
/// (a real vector of n elements, n >= 2, no NaN, unique). `order` sorts them (stable), `xs`
/// holds them sorted, `xt` is x as given (empty without x).
struct SamplePoints {
  Tensor xt;
  std::vector<int64_t> order;
  std::vector<double> xs;
};
SamplePoints sample_points(Args args, bool has_x, int64_t n) {
  SamplePoints sp;
  std::vector<double> x(static_cast<size_t>(n));
  if (has_x) {
    sp.xt = operand(args[0], "interp1");
    if (!sp.xt.dims().is_vector() || sp.xt.is_complex())
      throw_error("MATLAB:interp1:Xvector", "X must be a real vector.");
    if (sp.xt.numel() != n)
      throw_error("MATLAB:interp1:YInvalidNumRows",
                  "The length of the input coordinates must equal the number of rows in the sample values.");
    x = elems<double>(sp.xt);
  } else {
    std::iota(x.begin(), x.end(), 1.0);
  }
  if (n < 2)
    throw_error("MATLAB:interp1:NotEnoughPts",
                "Interpolation requires at least two sample points for each dimension.");
  for (double v : x)
    if (std::isnan(v)) throw_error("MATLAB:interp1:NaNinX", "NaN is not an appropriate value for X.");
  sp.order.resize(static_cast<size_t>(n));
  std::iota(sp.order.begin(), sp.order.end(), 0);
  std::stable_sort(sp.order.begin(), sp.order.end(),
                   [&](int64_t a, int64_t b) { return x[a] < x[b]; });
  sp.xs.resize(static_cast<size_t>(n));
  for (int64_t i = 0; i < n; ++i) sp.xs[i] = x[sp.order[i]];
  for (int64_t i = 0; i + 1 < n; ++i)
    if (sp.xs[i] == sp.xs[i + 1])
      throw_error("MATLAB:interp1:RepeatedValuesX", "The sample points must be unique.");
  return sp;
}

/// pp = interp1(x, v, method, 'pp') and interp1(v, method, 'pp'): the interpolant as MATLAB's
/// piecewise-polynomial struct (evaluate with ppval; the end pieces extrapolate). Orders:
/// 1 for nearest/previous/next (constant pieces; 'next' pieces start just after each sample
/// point so that ppval is left-continuous there), 2 for linear, 4 for pchip/cubic/spline.
/// Values: d = size(v, 2:end) components for a matrix/N-d v, 1 for a vector v.
Outputs interp1_pp(Args args) {
  size_t nnum = args.size() - 2;
  if (nnum < 1 || nnum > 2 || !args[nnum].is_text() || args[0].is_text())
    throw_error("MATLAB:interp1:InvalidMethod", "Invalid interpolation method.");
  Method m = parse_method(args[nnum]);
  Tensor vt = operand(args[nnum - 1], "interp1");
  bool vvec = vt.dims().is_vector();
  int64_t n = vvec ? vt.numel() : vt.dims().rows();
  int64_t D = n == 0 ? 0 : vt.numel() / n;
  std::vector<int64_t> dv{1};
  if (!vvec) {
    dv.clear();
    for (int k = 1; k < vt.dims().ndims(); ++k) dv.push_back(vt.dims()[k]);
  }
  const SamplePoints sp = sample_points(args, nnum == 2, n);
  const std::vector<int64_t>& order = sp.order;
  const std::vector<double>& xs = sp.xs;
  std::vector<double> breaks;
  int64_t k = 1;
  switch (m) {
    case Method::Nearest:
      breaks.push_back(xs[0]);
      for (int64_t i = 0; i + 1 < n; ++i) breaks.push_back((xs[i] + xs[i + 1]) / 2);
      breaks.push_back(xs[n - 1]);
      break;
    case Method::Previous:
      breaks = xs;
      breaks.push_back(2 * xs[n - 1] - xs[n - 2]);
      break;
    case Method::Next:
      breaks.push_back(2 * xs[0] - xs[1]);
      for (double v : xs) breaks.push_back(std::nextafter(v, INFINITY));
      break;
    case Method::Linear: breaks = xs; k = 2; break;
    case Method::Pchip:
    case Method::Makima:
    case Method::Spline: breaks = xs; k = 4; break;
  }
  int64_t l = static_cast<int64_t>(breaks.size()) - 1, L = D * l;
  auto run = [&](auto tag) {
    using T = decltype(tag);
    std::vector<T> all = elems<T>(vt), cf(static_cast<size_t>(L * k), T(0));
    for (int64_t j = 0; j < D; ++j) {
      std::vector<T> v(static_cast<size_t>(n));
      for (int64_t i = 0; i < n; ++i) v[i] = all[j * n + order[i]];
      if (k == 1) {
        for (int64_t p = 0; p < l; ++p) cf[j + D * p] = v[p];
        continue;
      }
      std::vector<double> h(n - 1);
      std::vector<T> del(n - 1);
      for (int64_t i = 0; i + 1 < n; ++i) {
        h[i] = xs[i + 1] - xs[i];
        del[i] = (v[i + 1] - v[i]) / h[i];
      }
      std::vector<T> d;
      if (m == Method::Pchip) d = pchip_slopes(h, del);
      if (m == Method::Spline) d = spline_slopes(xs, h, del);
      if constexpr (std::is_same_v<T, double>) {
        if (m == Method::Makima) d = makima_slopes(del);
      } else if (m == Method::Makima) {
        throw_error("matfuse:notAvailable",
                    "interp1 'makima' pp form of complex data is not "
                    "supported yet.");
      }
      for (int64_t p = 0; p < l; ++p) {
        int64_t row = j + D * p;
        if (k == 2) {
          cf[row] = del[p];
          cf[L + row] = v[p];
        } else {
          cf[row] = (d[p] - T(2) * del[p] + d[p + 1]) / (h[p] * h[p]);
          cf[L + row] = (T(3) * del[p] - T(2) * d[p] - d[p + 1]) / h[p];
          cf[2 * L + row] = d[p];
          cf[3 * L + row] = v[p];
        }
      }
    }
    return make(Dims(L, k), cf, result_class({&vt}));
  };
  Tensor coefs = vt.is_complex() ? run(cd{}) : run(double{});
  return {make_pp(breaks, coefs, dv)};
}

/// interp1(x, v, xq [, method [, extrapolation]]) and interp1(v, xq [, method [, extrap]]).
Outputs bi_interp1(CallContext&, Args args, int nargout) {
  check_nargin(args, 2, 5);
  check_nargout(nargout, 1);
  if (args.size() >= 3 && args.back().is_text() && lower_text(args.back()) == "pp")
    return interp1_pp(args);
  size_t nnum = 0;
  while (nnum < args.size() && nnum < 3 && !args[nnum].is_text()) ++nnum;
  if (nnum < 2) throw_error("MATLAB:minrhs", "Not enough input arguments.");
  bool has_x = nnum == 3;
  Tensor vt = operand(args[has_x ? 1 : 0], "interp1");
  Tensor xqt = operand(args[has_x ? 2 : 1], "interp1");
  Method m = Method::Linear;
  size_t ai = nnum;
  if (ai < args.size()) {
    if (args[ai].is_text()) {
      std::string s = lower_text(args[ai]);
      if (s != "extrap") {
        m = parse_method(args[ai]);
        ++ai;
      }
    } else if (args[ai].is_empty()) {
      ++ai;  // interp1(x, v, xq, [], extrap)
    }
  }
  int extrap_mode = (m == Method::Pchip || m == Method::Spline || m == Method::Makima)
                        ? 1
                        : 0;  // 0 NaN, 1 method, 2 value
  cd extrap_value = 0;
  if (ai < args.size()) {
    if (lower_text(args[ai]) == "extrap") extrap_mode = 1;
    else if (args[ai].is_tensor() && !args[ai].is_char() && args[ai].numel() == 1) {
      extrap_mode = 2;
      extrap_value = args[ai].tensor().get_complex(0);
    } else {
      throw_error("MATLAB:interp1:InvalidExtrap", "Invalid extrapolation value.");
    }
    ++ai;
  }
  if (ai < args.size()) throw_error("MATLAB:TooManyInputs", "Too many input arguments.");

  bool vvec = vt.dims().is_vector();
  int64_t n = vvec ? vt.numel() : vt.dims().rows();
  int64_t ncols = n == 0 ? 0 : vt.numel() / n;
  const SamplePoints sp = sample_points(args, has_x, n);
  const Tensor& xt = sp.xt;
  const std::vector<int64_t>& order = sp.order;
  const std::vector<double>& xs = sp.xs;

  std::vector<double> xq = elems<double>(xqt);
  ClassId c = result_class({&vt, &xqt, has_x ? &xt : nullptr});
  int64_t nq = static_cast<int64_t>(xq.size());
  Dims od = xqt.dims();
  if (!vvec) {
    const Dims& vd = vt.dims();
    if (xqt.dims().is_vector()) od = Dims(nq, vd[1]);
    else od.push_back(vd[1]);
    for (int k = 2; k < vd.ndims(); ++k) od.push_back(vd[k]);
    od.normalize();
  }
  auto run = [&](auto tag) {
    using T = decltype(tag);
    std::vector<T> all = elems<T>(vt), out(static_cast<size_t>(nq * ncols));
    T ev;
    if constexpr (std::is_same_v<T, double>) ev = extrap_value.real();
    else ev = extrap_value;
    for (int64_t j = 0; j < ncols; ++j) {
      std::vector<T> col(static_cast<size_t>(n));
      for (int64_t i = 0; i < n; ++i) col[i] = all[j * n + order[i]];
      if constexpr (std::is_same_v<T, double>) {
        std::vector<T> r = interp_column(xs, col, xq, m, extrap_mode, ev);
        std::copy(r.begin(), r.end(), out.begin() + j * nq);
      } else {
        // Complex data: the real and imaginary parts are interpolated separately.
        std::vector<double> re(col.size()), im(col.size());
        for (size_t i = 0; i < col.size(); ++i) {
          re[i] = col[i].real();
          im[i] = col[i].imag();
        }
        std::vector<double> rr = interp_column(xs, re, xq, m, extrap_mode, ev.real());
        std::vector<double> ri = interp_column(xs, im, xq, m, extrap_mode, ev.imag());
        for (int64_t i = 0; i < nq; ++i) out[j * nq + i] = T(rr[i], ri[i]);
      }
    }
    return Value(make(od, out, c));
  };
  bool cplx = vt.is_complex() || extrap_value.imag() != 0;
  return {cplx ? run(cd{}) : run(double{})};
}

}  // namespace

void register_interp(Registry& r) { r.add("interp1", bi_interp1); }

}  // namespace matfuse::sig
