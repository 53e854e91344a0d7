// Builtins of the "polycalc" family: polynomial calculus and curve tools: polyder, polyint,
// spline, pchip, gradient, unwrap, sinc, freqz, filter2, interp2, histc, cart2pol, pol2cart,
// cart2sph, sph2cart.
//
// Algorithms: spline builds the not-a-knot (or clamped, when two extra end slopes are given)
// cubic spline by solving the tridiagonal slope system (C. de Boor, "A Practical Guide to
// Splines", Springer 1978, ch. IV) with LAPACK dgtsv; pchip uses the shape-preserving slopes of
// F. N. Fritsch and R. E. Carlson, "Monotone piecewise cubic interpolation", SIAM J. Numer.
// Anal. 17 (1980) 238-246, with the weighted harmonic mean of C. Moler, "Numerical Computing
// with MATLAB" (2004) section 3.4, and its one-sided three-point end slopes.
#include <algorithm>
#include <cmath>
#include <complex>
#include <string>

#include "builtins/lapack_inc.h"
#include "builtins/math_util.h"
#include "builtins/registry.h"
#include "builtins/signal_detail.h"

namespace matfuse {

namespace {

using cd = std::complex<double>;
using mathutil::call1;
using Vec = std::vector<double>;

Tensor num(const Value& v, const char* fname) {
  if (!v.is_tensor()) mathutil::undefined_for(fname, v);
  return v.tensor();
}

Tensor row_of(const std::vector<cd>& v, bool keep_complex = false) {
  bool cplx = keep_complex;
  for (const cd& c : v)
    if (c.imag() != 0) cplx = true;
  Tensor t = Tensor::uninit(ClassId::Double, Dims(1, static_cast<int64_t>(v.size())), cplx);
  for (size_t i = 0; i < v.size(); ++i) {
    if (cplx) t.set_complex(static_cast<int64_t>(i), v[i]);
    else t.set_double(static_cast<int64_t>(i), v[i].real());
  }
  return t;
}

std::vector<cd> cvec(const Tensor& t) {
  std::vector<cd> v(static_cast<size_t>(t.numel()));
  for (int64_t i = 0; i < t.numel(); ++i) v[i] = t.get_complex(i);
  return v;
}

std::vector<cd> conv(const std::vector<cd>& a, const std::vector<cd>& b) {
  if (a.empty() || b.empty()) return {};
  std::vector<cd> r(a.size() + b.size() - 1, cd(0));
  for (size_t i = 0; i < a.size(); ++i)
    for (size_t j = 0; j < b.size(); ++j) r[i + j] += a[i] * b[j];
  return r;
}

std::vector<cd> deriv(const std::vector<cd>& p) {
  size_t n = p.size();
  if (n <= 1) return {cd(0)};
  std::vector<cd> r(n - 1);
  for (size_t i = 0; i + 1 < n; ++i) r[i] = p[i] * static_cast<double>(n - 1 - i);
  return r;
}

/// Strips leading zeros (keeps at least one coefficient).
std::vector<cd> trim(std::vector<cd> p) {
  size_t k = 0;
  while (k + 1 < p.size() && p[k] == cd(0)) ++k;
  p.erase(p.begin(), p.begin() + static_cast<long>(k));
  if (p.empty()) p.push_back(0);
  return p;
}

std::vector<cd> sub(std::vector<cd> a, std::vector<cd> b) {
  size_t n = std::max(a.size(), b.size());
  a.insert(a.begin(), n - a.size(), cd(0));
  b.insert(b.begin(), n - b.size(), cd(0));
  for (size_t i = 0; i < n; ++i) a[i] -= b[i];
  return a;
}

/// k = polyder(p) | polyder(a, b) (derivative of the product) | [q, d] = polyder(b, a)
/// (derivative of b/a as q/d). Row vectors, leading zeros removed.
Outputs bi_polyder(CallContext&, Args args, int nargout) {
  check_nargin(args, 1, 2);
  check_nargout(nargout, 2);
  for (const Value& v : args)
    if (!v.dims().is_vector() && !v.dims().is_scalar())
      throw_error("MATLAB:polyder:InvalidInput", "Input arguments must be vectors.");
  if (args[0].is_empty() && args.size() == 1)
    throw_error("MATLAB:polyder:InvalidInput", "Input arguments must be vectors.");
  std::vector<cd> a = cvec(num(args[0], "polyder"));
  if (args.size() == 1) return {Value(row_of(trim(deriv(a))))};
  std::vector<cd> b = cvec(num(args[1], "polyder"));
  if (nargout < 2) {  // (a*b)' = a'*b + a*b'
    std::vector<cd> r = sub(conv(deriv(a), b), conv(a, deriv(b)));
    std::vector<cd> r2 = conv(a, deriv(b));
    r = conv(deriv(a), b);
    size_t n = std::max(r.size(), r2.size());
    r.insert(r.begin(), n - r.size(), cd(0));
    r2.insert(r2.begin(), n - r2.size(), cd(0));
    for (size_t i = 0; i < n; ++i) r[i] += r2[i];
    return {Value(row_of(trim(r)))};
  }
  // (b/a)' = (b' a - b a') / a^2 with b = args[0], a = args[1].
  std::vector<cd> num1 = conv(deriv(a), b), num2 = conv(a, deriv(b));
  std::vector<cd> q = trim(sub(num1, num2));
  std::vector<cd> d = trim(conv(b, b));
  return {Value(row_of(q)), Value(row_of(d))};
}

/// q = polyint(p, k): integral of polynomial p with constant of integration k (default 0).
Outputs bi_polyint(CallContext&, Args args, int nargout) {
  check_nargin(args, 1, 2);
  check_nargout(nargout, 1);
  if (!args[0].dims().is_vector() && !args[0].is_empty())
    throw_error("MATLAB:polyint:InvalidInput", "Input must be a vector.");
  std::vector<cd> p = cvec(num(args[0], "polyint"));
  cd k = args.size() > 1 ? num(args[1], "polyint").get_complex(0) : cd(0);
  size_t n = p.size();
  std::vector<cd> r(n + 1);
  for (size_t i = 0; i < n; ++i) r[i] = p[i] / static_cast<double>(n - i);
  r[n] = k;
  return {Value(row_of(r))};
}

/// Piecewise cubic Hermite coefficients from slopes: coefs rows (piece*d + comp), columns
/// [c3 c2 c1 c0] (MATLAB's pwch).
Tensor hermite_coefs(const Vec& x, const std::vector<Vec>& y, const std::vector<Vec>& s) {
  size_t n = x.size(), d = y.size(), l = n - 1;
  Tensor c = Tensor::uninit(ClassId::Double, Dims(static_cast<int64_t>(l * d), 4));
  int64_t rows = static_cast<int64_t>(l * d);
  for (size_t j = 0; j < l; ++j)
    for (size_t q = 0; q < d; ++q) {
      double h = x[j + 1] - x[j], del = (y[q][j + 1] - y[q][j]) / h;
      double c3 = (s[q][j] + s[q][j + 1] - 2 * del) / (h * h);
      double c2 = (3 * del - 2 * s[q][j] - s[q][j + 1]) / h;
      int64_t r = static_cast<int64_t>(j * d + q);
      c.set_double(r, c3);
      c.set_double(rows + r, c2);
      c.set_double(2 * rows + r, s[q][j]);
      c.set_double(3 * rows + r, y[q][j]);
    }
  return c;
}

struct CurveData {
  Vec x;
  std::vector<Vec> y;  // per component
  std::vector<int64_t> vdims;
  bool clamped = false;
  std::vector<double> e1, e2;  // end slopes per component (clamped)
};

CurveData curve_args(const Value& xv, const Value& yv, const char* fname, bool allow_clamp) {
  CurveData c;
  c.x = mathutil::doubles_of(xv, fname);
  Tensor yt = num(yv, fname);
  const Dims& yd = yt.dims();
  size_t n = c.x.size();
  int64_t last = yd.is_vector() ? yd.numel() : yd[yd.ndims() - 1];
  int64_t comps = yd.is_vector() ? 1 : yt.numel() / std::max<int64_t>(last, 1);
  if (yd.is_vector()) c.vdims = {1};
  else
    for (int k = 0; k + 1 < yd.ndims(); ++k) c.vdims.push_back(yd[k]);
  if (static_cast<size_t>(last) == n + 2 && allow_clamp) c.clamped = true;
  else if (static_cast<size_t>(last) != n)
    throw_error(("MATLAB:" + std::string(fname) + ":XYLengthMismatch").c_str(),
                "The number of sites, %zu, is incompatible with the number of values, %lld.", n,
                static_cast<long long>(last));
  if (n < 2)
    throw_error(("MATLAB:" + std::string(fname) + ":NotEnoughPts").c_str(),
                "There should be at least two data points.");
  c.y.assign(static_cast<size_t>(comps), Vec());
  for (int64_t q = 0; q < comps; ++q)
    for (int64_t j = 0; j < last; ++j) c.y[q].push_back(yt.get_double(j * comps + q));
  if (c.clamped)
    for (auto& v : c.y) {
      c.e1.push_back(v.front());
      c.e2.push_back(v.back());
      v = Vec(v.begin() + 1, v.end() - 1);
    }
  // Sites in increasing order (values reordered with them); points with NaN values dropped.
  std::vector<size_t> ord;
  for (size_t i = 0; i < n; ++i) {
    bool bad = std::isnan(c.x[i]);
    for (const Vec& v : c.y) bad = bad || std::isnan(v[i]);
    if (!bad) ord.push_back(i);
  }
  std::stable_sort(ord.begin(), ord.end(), [&](size_t a, size_t b) { return c.x[a] < c.x[b]; });
  Vec xs;
  for (size_t i : ord) xs.push_back(c.x[i]);
  for (Vec& v : c.y) {
    Vec w;
    for (size_t i : ord) w.push_back(v[i]);
    v = w;
  }
  c.x = xs;
  for (size_t i = 1; i < c.x.size(); ++i)
    if (!(c.x[i] > c.x[i - 1]))
      throw_error("MATLAB:chckxy:RepeatedSites", "The data sites should be distinct.");
  if (c.x.size() < 2)
    throw_error(("MATLAB:" + std::string(fname) + ":NotEnoughPts").c_str(),
                "There should be at least two data points.");
  return c;
}

Value finish_pp(CallContext& ctx, const CurveData& c, const Vec& breaks, const Tensor& coefs,
                Args args, size_t xxpos) {
  Value pp = sig::make_pp(breaks, coefs, c.vdims);
  if (args.size() > xxpos) return call1(ctx, "ppval", {pp, args[xxpos]});
  return pp;
}

/// pp = spline(x, y) | yy = spline(x, y, xx): not-a-knot cubic spline (clamped when y has
/// numel(x)+2 values: the first and last are end slopes). y may be d-by-n (vector values).
/// Complex values: the real and imaginary parts interpolated separately (the schemes are
/// linear in the data), recombined as re + 1i*im (values or pp coefficients).
Value split_complex(CallContext& ctx, const char* fname, Args args) {
  Value re = call1(ctx, "real", {args[1]}), im = call1(ctx, "imag", {args[1]});
  std::vector<Value> ar{args[0], re}, ai{args[0], im};
  if (args.size() > 2) {
    ar.push_back(args[2]);
    ai.push_back(args[2]);
  }
  Value r = call1(ctx, fname, ar), i = call1(ctx, fname, ai);
  if (args.size() > 2) return call1(ctx, "complex", {r, i});
  StructArray s = r.struct_array();
  int f = s.field_index("coefs");
  s.at(0, f) = call1(ctx, "complex", {s.get(0, f), i.struct_array().get(0, f)});
  return Value(s);
}

Outputs bi_spline(CallContext& ctx, Args args, int nargout) {
  check_nargin(args, 2, 3);
  check_nargout(nargout, 1);
  if (args[1].is_tensor() && args[1].tensor().is_complex()) return {split_complex(ctx, "spline", args)};
  CurveData c = curve_args(args[0], args[1], "spline", true);
  const Vec& x = c.x;
  size_t n = x.size();
  if (!c.clamped && n == 2) {
    Tensor coefs = Tensor::uninit(ClassId::Double, Dims(static_cast<int64_t>(c.y.size()), 2));
    int64_t d = static_cast<int64_t>(c.y.size());
    for (int64_t q = 0; q < d; ++q) {
      coefs.set_double(q, (c.y[q][1] - c.y[q][0]) / (x[1] - x[0]));
      coefs.set_double(d + q, c.y[q][0]);
    }
    return {finish_pp(ctx, c, x, coefs, args, 2)};
  }
  if (!c.clamped && n == 3) {  // the interpolant is the parabola through the three points
    int64_t d = static_cast<int64_t>(c.y.size());
    Tensor coefs = Tensor::uninit(ClassId::Double, Dims(d, 3));
    for (int64_t q = 0; q < d; ++q) {
      double d1 = (c.y[q][1] - c.y[q][0]) / (x[1] - x[0]);
      double d2 = (c.y[q][2] - c.y[q][1]) / (x[2] - x[1]);
      double a2 = (d2 - d1) / (x[2] - x[0]);
      coefs.set_double(q, a2);
      coefs.set_double(d + q, d1 - a2 * (x[1] - x[0]));
      coefs.set_double(2 * d + q, c.y[q][0]);
    }
    return {finish_pp(ctx, c, Vec{x[0], x[2]}, coefs, args, 2)};
  }
  Vec dx(n - 1);
  for (size_t i = 0; i + 1 < n; ++i) dx[i] = x[i + 1] - x[i];
  std::vector<Vec> slopes;
  for (size_t q = 0; q < c.y.size(); ++q) {
    const Vec& y = c.y[q];
    Vec del(n - 1);
    for (size_t i = 0; i + 1 < n; ++i) del[i] = (y[i + 1] - y[i]) / dx[i];
    Vec dl(n - 1), dd(n), du(n - 1), b(n);
    for (size_t i = 1; i + 1 < n; ++i) {
      dl[i - 1] = dx[i];
      dd[i] = 2 * (dx[i] + dx[i - 1]);
      du[i] = dx[i - 1];
      b[i] = 3 * (dx[i] * del[i - 1] + dx[i - 1] * del[i]);
    }
    if (c.clamped) {
      dd[0] = 1;
      du[0] = 0;
      b[0] = c.e1[q];
      dd[n - 1] = 1;
      dl[n - 2] = 0;
      b[n - 1] = c.e2[q];
    } else {
      double x31 = x[2] - x[0], xn = x[n - 1] - x[n - 3];
      dd[0] = dx[1];
      du[0] = x31;
      b[0] = ((dx[0] + 2 * x31) * dx[1] * del[0] + dx[0] * dx[0] * del[1]) / x31;
      dd[n - 1] = dx[n - 3];
      dl[n - 2] = xn;
      b[n - 1] = (dx[n - 2] * dx[n - 2] * del[n - 3] + (2 * xn + dx[n - 2]) * dx[n - 3] * del[n - 2]) / xn;
    }
    LAPACKE_dgtsv(LAPACK_COL_MAJOR, static_cast<int>(n), 1, dl.data(), dd.data(), du.data(),
                  b.data(), static_cast<int>(n));
    slopes.push_back(b);
  }
  return {finish_pp(ctx, c, x, hermite_coefs(x, c.y, slopes), args, 2)};
}

int sgn(double v) { return (v > 0) - (v < 0); }

/// pp = pchip(x, y) | yy = pchip(x, y, xx): shape-preserving piecewise cubic Hermite
/// interpolation (Fritsch-Carlson slopes).
Outputs bi_pchip(CallContext& ctx, Args args, int nargout) {
  check_nargin(args, 2, 3);
  check_nargout(nargout, 1);
  if (args[1].is_tensor() && args[1].tensor().is_complex()) return {split_complex(ctx, "pchip", args)};
  CurveData c = curve_args(args[0], args[1], "pchip", false);
  const Vec& x = c.x;
  size_t n = x.size();
  Vec h(n - 1);
  for (size_t i = 0; i + 1 < n; ++i) h[i] = x[i + 1] - x[i];
  std::vector<Vec> slopes;
  for (const Vec& y : c.y) {
    Vec del(n - 1), d(n, 0.0);
    for (size_t i = 0; i + 1 < n; ++i) del[i] = (y[i + 1] - y[i]) / h[i];
    if (n == 2) {
      d[0] = d[1] = del[0];
    } else {
      for (size_t k = 1; k + 1 < n; ++k)
        if (sgn(del[k - 1]) * sgn(del[k]) > 0) {
          double w1 = 2 * h[k] + h[k - 1], w2 = h[k] + 2 * h[k - 1];
          d[k] = (w1 + w2) / (w1 / del[k - 1] + w2 / del[k]);
        }
      auto endslope = [](double h1, double h2, double d1, double d2) {
        double s = ((2 * h1 + h2) * d1 - h1 * d2) / (h1 + h2);
        if (sgn(s) != sgn(d1)) s = 0;
        else if (sgn(d1) != sgn(d2) && std::abs(s) > std::abs(3 * d1)) s = 3 * d1;
        return s;
      };
      d[0] = endslope(h[0], h[1], del[0], del[1]);
      d[n - 1] = endslope(h[n - 2], h[n - 3], del[n - 2], del[n - 3]);
    }
    slopes.push_back(d);
  }
  return {finish_pp(ctx, c, x, hermite_coefs(x, c.y, slopes), args, 2)};
}

/// [FX, FY, FZ, ...] = gradient(F, h) | gradient(F, hx, hy, ...): numerical gradient by
/// central differences in the interior and one-sided differences at the edges. Spacings are
/// scalars or coordinate vectors. FX is along dimension 2 (columns) for matrices, dimension 1
/// for vectors.
Outputs bi_gradient(CallContext&, Args args, int nargout) {
  check_nargin(args, 1, 1000);
  Tensor F = mathutil::float_arg(args[0], "gradient", true);
  const Dims& d = F.dims();
  std::vector<int> dims;  // gradient dimensions in output order
  if (d.is_vector()) dims.push_back(d[0] == 1 ? 1 : 0);
  else {
    dims.push_back(1);
    dims.push_back(0);
    for (int k = 2; k < d.ndims(); ++k) dims.push_back(k);
  }
  check_nargout(nargout, static_cast<int>(dims.size()));
  Outputs out;
  int nout = std::max(1, nargout);
  for (int o = 0; o < nout; ++o) {
    int dim = dims[static_cast<size_t>(o)];
    int64_t len = d[dim];
    Vec coord(static_cast<size_t>(len));
    const Value* sp = nullptr;
    if (args.size() == 2) sp = &args[1];
    else if (args.size() > 1 + static_cast<size_t>(o)) sp = &args[1 + o];
    if (sp && sp->numel() > 1) {
      Vec c = mathutil::doubles_of(*sp, "gradient");
      if (static_cast<int64_t>(c.size()) != len)
        throw_error("MATLAB:gradient:InvalidGridSpacing", "Coordinate vectors must have the "
                    "same length as the corresponding dimension of F.");
      coord = c;
    } else {
      double h = sp ? sp->to_double("h") : 1.0;
      for (int64_t i = 0; i < len; ++i) coord[i] = h * static_cast<double>(i);
    }
    int64_t inner = 1, outer = 1;
    for (int k = 0; k < dim; ++k) inner *= d[k];
    for (int k = dim + 1; k < d.ndims(); ++k) outer *= d[k];
    Tensor G = Tensor::uninit(F.cls(), d, F.is_complex());
    for (int64_t ob = 0; ob < outer; ++ob)
      for (int64_t i = 0; i < inner; ++i) {
        auto at = [&](int64_t k) { return F.get_complex((ob * len + k) * inner + i); };
        for (int64_t k = 0; k < len; ++k) {
          cd g;
          if (len == 1) g = 0;
          else if (k == 0) g = (at(1) - at(0)) / (coord[1] - coord[0]);
          else if (k == len - 1) g = (at(len - 1) - at(len - 2)) / (coord[len - 1] - coord[len - 2]);
          else g = (at(k + 1) - at(k - 1)) / (coord[k + 1] - coord[k - 1]);
          int64_t idx = (ob * len + k) * inner + i;
          if (F.is_complex()) G.set_complex(idx, g);
          else G.set_double(idx, g.real());
        }
      }
    out.push_back(Value(G));
  }
  return out;
}

/// Q = unwrap(P, tol, dim): corrects radian phase jumps larger than tol (default pi) by adding
/// multiples of 2*pi along dim (default first non-singleton).
Outputs bi_unwrap(CallContext&, Args args, int nargout) {
  check_nargin(args, 1, 3);
  check_nargout(nargout, 1);
  Tensor P = mathutil::float_arg(args[0], "unwrap");
  double tol = args.size() > 1 && !args[1].is_empty() ? args[1].to_double("tol") : M_PI;
  int dim = args.size() > 2 ? mathutil::dim_arg(args[2]) : mathutil::first_nonsingleton(P.dims());
  const Dims& d = P.dims();
  int64_t len = d[dim], inner = 1, outer = 1;
  for (int k = 0; k < dim; ++k) inner *= d[k];
  for (int k = dim + 1; k < d.ndims(); ++k) outer *= d[k];
  Tensor Q = Tensor::uninit(P.cls(), d);
  for (int64_t ob = 0; ob < outer; ++ob)
    for (int64_t i = 0; i < inner; ++i) {
      double corr = 0;
      for (int64_t k = 0; k < len; ++k) {
        int64_t idx = (ob * len + k) * inner + i;
        double p = P.get_double(idx);
        if (k > 0) {
          double dp = p - P.get_double(idx - inner);
          if (std::isfinite(dp)) {
            double dps = std::fmod(dp + M_PI, 2 * M_PI);
            if (dps < 0) dps += 2 * M_PI;
            dps -= M_PI;
            if (dps == -M_PI && dp > 0) dps = M_PI;
            double c = dps - dp;
            if (std::abs(dp) < tol) c = 0;
            corr += c;
          }
        }
        Q.set_double(idx, p + corr);
      }
    }
  return {Value(Q)};
}

/// y = sinc(x): sin(pi*x)./(pi*x), 1 at x == 0.
Outputs bi_sinc(CallContext&, Args args, int nargout) {
  check_nargin(args, 1, 1);
  check_nargout(nargout, 1);
  Tensor x = mathutil::float_arg(args[0], "sinc", true);
  Tensor r = Tensor::uninit(x.cls(), x.dims(), x.is_complex());
  for (int64_t i = 0; i < x.numel(); ++i) {
    cd v = x.get_complex(i);
    cd y = v == cd(0) ? cd(1) : std::sin(M_PI * v) / (M_PI * v);
    if (x.is_complex()) r.set_complex(i, y);
    else r.set_double(i, y.real());
  }
  return {Value(r)};
}

/// [h, w] = freqz(b, a, n) | freqz(b, a, n, 'whole') | freqz(b, a, w) | [h, f] =
/// freqz(b, a, n, fs) | freqz(b, a, f, fs): frequency response H(e^jw) = B/A of a digital
/// filter (a default 1, n default 512 points on [0, pi) or [0, 2*pi) with 'whole'). Columns.
Outputs bi_freqz(CallContext&, Args args, int nargout) {
  check_nargin(args, 1, 5);
  check_nargout(nargout, 2);
  std::vector<cd> b = cvec(num(args[0], "freqz"));
  std::vector<cd> a = args.size() > 1 && !args[1].is_empty() ? cvec(num(args[1], "freqz"))
                                                             : std::vector<cd>{1};
  bool whole = false;
  double fs = 0;
  Vec w;
  bool given = false;
  int64_t n = 512;
  std::vector<Value> rest(args.begin() + std::min<size_t>(2, args.size()), args.end());
  for (size_t i = 0; i < rest.size(); ++i) {
    if (rest[i].is_text()) {
      if (rest[i].to_text() == "whole") whole = true;
      continue;
    }
    if (i == 0) {
      if (rest[i].numel() > 1) {
        w = mathutil::doubles_of(rest[i], "freqz");
        given = true;
      } else if (!rest[i].is_empty()) {
        n = rest[i].to_index("n");  // NaN, Inf and fractions are errors (UB to convert)
      }
    } else if (!rest[i].is_empty()) {
      fs = rest[i].to_double("fs");
    }
  }
  if (!given) {
    for (int64_t k = 0; k < n; ++k)
      w.push_back((whole ? 2 * M_PI : M_PI) * static_cast<double>(k) / static_cast<double>(n));
    if (fs > 0)
      for (double& v : w) v = v * fs / (2 * M_PI);
  }
  size_t m = w.size();
  Tensor H = Tensor::uninit(ClassId::Double, Dims(static_cast<int64_t>(m), 1), true);
  for (size_t k = 0; k < m; ++k) {
    double om = fs > 0 ? 2 * M_PI * w[k] / fs : w[k];
    cd z = std::polar(1.0, -om), num = 0, den = 0, zp = 1;
    for (const cd& c : b) {
      num += c * zp;
      zp *= z;
    }
    zp = 1;
    for (const cd& c : a) {
      den += c * zp;
      zp *= z;
    }
    H.set_complex(static_cast<int64_t>(k), num / den);
  }
  if (nargout == 0) return {};
  Tensor W = Tensor::uninit(ClassId::Double, Dims(static_cast<int64_t>(m), 1));
  for (size_t k = 0; k < m; ++k) W.set_double(static_cast<int64_t>(k), w[k]);
  if (given && args.size() > 2 && args[2].dims().is_row()) {
    H = H.reshaped(Dims(1, static_cast<int64_t>(m)));
    W = W.reshaped(Dims(1, static_cast<int64_t>(m)));
  }
  return {Value(H), Value(W)};
}

/// Y = filter2(h, X, shape): 2-D correlation of X with h ('same' default, 'full', 'valid'),
/// i.e. conv2(X, rot90(h, 2), shape).
Outputs bi_filter2(CallContext&, Args args, int nargout) {
  check_nargin(args, 2, 3);
  check_nargout(nargout, 1);
  Tensor h = num(args[0], "filter2"), X = num(args[1], "filter2");
  std::string shape = args.size() > 2 ? args[2].to_text("shape") : "same";
  if (h.dims().ndims() > 2 || X.dims().ndims() > 2)
    throw_error("MATLAB:filter2:invalidInputs", "N-D arrays are not supported.");
  int64_t mh = h.dims()[0], nh = h.dims()[1], mx = X.dims()[0], nx = X.dims()[1];
  int64_t r0, c0, mo, no;
  if (shape == "full") {
    r0 = 0;
    c0 = 0;
    mo = mx + mh - 1;
    no = nx + nh - 1;
  } else if (shape == "same") {
    r0 = mh / 2;
    c0 = nh / 2;
    mo = mx;
    no = nx;
  } else if (shape == "valid") {
    r0 = mh - 1;
    c0 = nh - 1;
    mo = std::max<int64_t>(mx - mh + 1, 0);
    no = std::max<int64_t>(nx - nh + 1, 0);
  } else {
    throw_error("MATLAB:filter2:unknownShapeParameter", "Unknown shape parameter.");
  }
  if (mh == 0 || nh == 0) {
    mo = shape == "full" ? mx + std::max<int64_t>(mh - 1, 0) : mo;
  }
  bool cplx = h.is_complex() || X.is_complex();
  ClassId c = (h.cls() == ClassId::Single || X.cls() == ClassId::Single) ? ClassId::Single
                                                                          : ClassId::Double;
  Tensor Y = Tensor::uninit(c, Dims(mo, no), cplx);
  for (int64_t j = 0; j < no; ++j)
    for (int64_t i = 0; i < mo; ++i) {
      int64_t fi = i + r0, fj = j + c0;  // index into the full correlation
      cd s = 0;
      for (int64_t q = 0; q < nh; ++q) {
        int64_t xc = fj - (nh - 1) + q;
        if (xc < 0 || xc >= nx) continue;
        for (int64_t p = 0; p < mh; ++p) {
          int64_t xr = fi - (mh - 1) + p;
          if (xr < 0 || xr >= mx) continue;
          s += X.get_complex(xc * mx + xr) * h.get_complex(q * mh + p);
        }
      }
      if (cplx) Y.set_complex(j * mo + i, s);
      else Y.set_double(j * mo + i, s.real());
    }
  return {Value(Y)};
}

/// Vq = interp2(X, Y, V, Xq, Yq, method, extrapval) | interp2(V, Xq, Yq) | interp2(V, k):
/// 'linear' (default) or 'nearest' interpolation on a grid (X, Y grid vectors or meshgrid
/// matrices; V is numel(Y)-by-numel(X)). Points outside give extrapval (NaN).
Outputs bi_interp2(CallContext& ctx, Args args, int nargout) {
  check_nargin(args, 1, 7);
  check_nargout(nargout, 1);
  std::vector<Value> a(args.begin(), args.end());
  std::string method = "linear";
  double extrap = NAN;
  // Trailing method / extrapval.
  for (size_t i = 0; i < a.size(); ++i)
    if (a[i].is_text()) {
      method = a[i].to_text();
      for (char& ch : method) ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
      if (i + 1 < a.size()) {
        const Value& e = a[i + 1];
        if (!e.is_tensor() || e.is_char() || e.numel() != 1)
          throw_error("MATLAB:interp2:invalidExtrap", "EXTRAP must be a numeric scalar.");
        extrap = e.to_double("extrapval");
      }
      a.resize(i);
      break;
    }
  if (a.size() > 5)
    throw_error("MATLAB:interp2:nargin", "Too many numeric input arguments.");
  for (const Value& v : a)
    if (!v.is_tensor())
      throw_error("MATLAB:interp2:InvalidInput", "Inputs must be numeric arrays.");
  if (!method.empty() && method[0] == '*') method = method.substr(1);
  bool spline = method == "spline";
  if (method != "linear" && method != "nearest" && !spline)
    throw_error("matfuse:notSupported", "interp2: method '%s' is not supported yet (linear, "
                "nearest).", method.c_str());
  bool nearest = method.find("nearest") != std::string::npos;
  Tensor V;
  Vec xg, yg, xq, yq;
  Dims qd;
  auto grid_vec = [](const Value& g, bool is_x, int64_t len) {
    Tensor t = g.tensor();
    Vec v;
    if (t.dims().is_vector() || t.numel() == 1) v = mathutil::doubles_of(g, "interp2");
    else {  // meshgrid matrix: first row (x) or first column (y)
      int64_t m = t.dims()[0];
      if (is_x)
        for (int64_t j = 0; j < t.dims()[1]; ++j) v.push_back(t.get_double(j * m));
      else
        for (int64_t i = 0; i < m; ++i) v.push_back(t.get_double(i));
    }
    if (static_cast<int64_t>(v.size()) != len)
      throw_error("MATLAB:interp2:XYLengthMismatch", "The lengths of the X and Y vectors must "
                  "match the size of V.");
    bool inc = true, dec = true;
    for (size_t i = 1; i < v.size(); ++i) {
      inc = inc && v[i] > v[i - 1];
      dec = dec && v[i] < v[i - 1];
    }
    if (!inc && !dec)
      throw_error("MATLAB:interp2:NonMonotonic", "%s must be strictly monotonic.",
                  is_x ? "X" : "Y");
    return v;
  };
  auto seq = [](int64_t n) {
    Vec v;
    for (int64_t i = 1; i <= n; ++i) v.push_back(static_cast<double>(i));
    return v;
  };
  auto query = [&](const Value& X, const Value& Y) {
    Dims dx = X.dims(), dy = Y.dims();
    Vec x = mathutil::doubles_of(X, "interp2"), y = mathutil::doubles_of(Y, "interp2");
    if (dx.is_row() && dy.is_column() && !(dx.is_scalar() || dy.is_scalar())) {
      qd = Dims(static_cast<int64_t>(y.size()), static_cast<int64_t>(x.size()));
      for (size_t j = 0; j < x.size(); ++j)
        for (size_t i = 0; i < y.size(); ++i) {
          xq.push_back(x[j]);
          yq.push_back(y[i]);
        }
    } else {
      if (dx != dy && x.size() != 1 && y.size() != 1)
        throw_error("MATLAB:interp2:XqYqSizeMismatch", "Xq and Yq must be the same size or "
                    "grid vectors.");
      qd = x.size() >= y.size() ? dx : dy;
      size_t n = std::max(x.size(), y.size());
      for (size_t i = 0; i < n; ++i) {
        xq.push_back(x.size() == 1 ? x[0] : x[i]);
        yq.push_back(y.size() == 1 ? y[0] : y[i]);
      }
    }
  };
  if (a.size() == 5) {
    V = num(a[2], "interp2");
    if (V.dims()[0] < 2 || V.dims()[1] < 2 || V.dims().ndims() > 2)
      throw_error("MATLAB:interp2:InvalidZ", "Z must be a 2-D matrix with at least 2 rows and "
                  "2 columns.");
    xg = grid_vec(a[0], true, V.dims()[1]);
    yg = grid_vec(a[1], false, V.dims()[0]);
    query(a[3], a[4]);
  } else if (a.size() == 3) {
    V = num(a[0], "interp2");
    if (V.dims()[0] < 2 || V.dims()[1] < 2 || V.dims().ndims() > 2)
      throw_error("MATLAB:interp2:InvalidZ", "Z must be a 2-D matrix with at least 2 rows and "
                  "2 columns.");
    xg = seq(V.dims()[1]);
    yg = seq(V.dims()[0]);
    query(a[1], a[2]);
  } else if (a.size() <= 2) {
    V = num(a[0], "interp2");
    if (V.dims()[0] < 2 || V.dims()[1] < 2 || V.dims().ndims() > 2)
      throw_error("MATLAB:interp2:InvalidZ", "Z must be a 2-D matrix with at least 2 rows and "
                  "2 columns.");
    if (a.size() == 2 && (a[1].numel() != 1 || !(a[1].to_double() >= 0) ||
                          a[1].to_double() != std::floor(a[1].to_double())))
      throw_error("MATLAB:interp2:InvalidK", "N must be an integer >= 0.");
    double k = a.size() == 2 ? a[1].to_double("k") : 1;
    xg = seq(V.dims()[1]);
    yg = seq(V.dims()[0]);
    double step = std::pow(2.0, -k);
    Vec x, y;
    for (double v = 1; v <= xg.back() + 1e-12; v += step) x.push_back(v);
    for (double v = 1; v <= yg.back() + 1e-12; v += step) y.push_back(v);
    qd = Dims(static_cast<int64_t>(y.size()), static_cast<int64_t>(x.size()));
    for (double xv : x)
      for (double yv : y) {
        xq.push_back(xv);
        yq.push_back(yv);
      }
  } else {
    throw_error("MATLAB:interp2:nargin", "Wrong number of input arguments.");
  }
  int64_t ny = V.dims()[0], nx = V.dims()[1];
  if (ny < 2 || nx < 2 || V.dims().ndims() > 2 || xg.size() < 2 || yg.size() < 2)
    throw_error("MATLAB:interp2:InvalidZ", "Z must be a 2-D matrix with at least 2 rows and 2 "
                "columns.");
  // Decreasing grids: flip to increasing.
  bool fx = xg.size() > 1 && xg[1] < xg[0], fy = yg.size() > 1 && yg[1] < yg[0];
  auto vat = [&](int64_t i, int64_t j) {
    if (fy) i = ny - 1 - i;
    if (fx) j = nx - 1 - j;
    return V.get_complex(j * ny + i);
  };
  if (fx) std::reverse(xg.begin(), xg.end());
  if (fy) std::reverse(yg.begin(), yg.end());
  auto locate = [](const Vec& g, double v, int64_t& k, double& t) {
    if (!(v >= g.front() && v <= g.back())) return false;
    auto it = std::upper_bound(g.begin(), g.end(), v);
    k = std::max<int64_t>(0, (it - g.begin()) - 1);
    if (k >= static_cast<int64_t>(g.size()) - 1) k = std::max<int64_t>(0, static_cast<int64_t>(g.size()) - 2);
    t = g.size() > 1 ? (v - g[k]) / (g[k + 1] - g[k]) : 0;
    return true;
  };
  bool cplx = V.is_complex();
  Tensor R = Tensor::uninit(V.cls() == ClassId::Single ? ClassId::Single : ClassId::Double, qd, cplx);
  if (spline) {
    // Tensor-product spline: every row of V along x at the query x values, then along y.
    Tensor xq_t = Tensor::uninit(ClassId::Double, Dims(1, static_cast<int64_t>(xq.size())));
    for (size_t q = 0; q < xq.size(); ++q) xq_t.set_double(static_cast<int64_t>(q), xq[q]);
    Tensor xg_t = Tensor::uninit(ClassId::Double, Dims(1, nx)), yg_t = Tensor::uninit(ClassId::Double, Dims(1, ny));
    for (int64_t j = 0; j < nx; ++j) xg_t.set_double(j, xg[j]);
    for (int64_t i = 0; i < ny; ++i) yg_t.set_double(i, yg[i]);
    Tensor Vs = Tensor::uninit(ClassId::Double, Dims(ny, nx));
    for (int64_t i = 0; i < ny; ++i)
      for (int64_t j = 0; j < nx; ++j) Vs.set_double(j * ny + i, vat(i, j).real());
    Tensor W = call1(ctx, "spline", {Value(xg_t), Value(Vs), Value(xq_t)}).tensor();  // ny x nq
    for (size_t q = 0; q < xq.size(); ++q) {
      double val = extrap;
      if (xq[q] >= xg.front() && xq[q] <= xg.back() && yq[q] >= yg.front() && yq[q] <= yg.back()) {
        Tensor col = Tensor::uninit(ClassId::Double, Dims(1, ny));
        for (int64_t i = 0; i < ny; ++i) col.set_double(i, W.get_double(static_cast<int64_t>(q) * ny + i));
        val = call1(ctx, "spline", {Value(yg_t), Value(col), Value(yq[q])}).to_double();
      }
      R.set_double(static_cast<int64_t>(q), val);
    }
    return {Value(R)};
  }
  for (size_t q = 0; q < xq.size(); ++q) {
    int64_t i, j;
    double ty, tx;
    cd val;
    if (!locate(xg, xq[q], j, tx) || !locate(yg, yq[q], i, ty)) {
      val = extrap;
    } else if (nearest) {
      int64_t jj = std::min<int64_t>(j + (tx >= 0.5 ? 1 : 0), nx - 1);
      int64_t ii = std::min<int64_t>(i + (ty >= 0.5 ? 1 : 0), ny - 1);
      val = vat(ii, jj);
    } else {
      int64_t j1 = std::min<int64_t>(j + 1, nx - 1), i1 = std::min<int64_t>(i + 1, ny - 1);
      cd v00 = vat(i, j), v01 = vat(i, j1), v10 = vat(i1, j), v11 = vat(i1, j1);
      val = (1 - ty) * ((1 - tx) * v00 + tx * v01) + ty * ((1 - tx) * v10 + tx * v11);
      if (tx == 0) val = (1 - ty) * v00 + ty * v10;
      if (ty == 0) val = (1 - tx) * v00 + tx * v01;
      if (tx == 0 && ty == 0) val = v00;
    }
    if (cplx) R.set_complex(static_cast<int64_t>(q), val);
    else R.set_double(static_cast<int64_t>(q), val.real());
  }
  return {Value(R)};
}

/// [n, bin] = histc(x, edges, dim): counts of edges(k) <= x < edges(k+1), the last bin
/// counting x == edges(end); bin (same size as x) is the bin index (0 outside).
Outputs bi_histc(CallContext&, Args args, int nargout) {
  check_nargin(args, 2, 3);
  check_nargout(nargout, 2);
  Tensor x = num(args[0], "histc");
  if (x.is_complex())
    throw_error("MATLAB:histc:InvalidInput", "Input must be real.");
  Vec e = mathutil::doubles_of(args[1], "histc");
  for (size_t i = 1; i < e.size(); ++i)
    if (e[i] < e[i - 1])
      throw_error("MATLAB:histc:InvalidInput", "Edge vector must be monotonically "
                  "non-decreasing.");
  const Dims& d = x.dims();
  int dim = args.size() > 2 ? mathutil::dim_arg(args[2]) : mathutil::first_nonsingleton(d);
  int64_t len = d[dim], inner = 1, outer = 1, ne = static_cast<int64_t>(e.size());
  for (int k = 0; k < dim; ++k) inner *= d[k];
  for (int k = dim + 1; k < d.ndims(); ++k) outer *= d[k];
  Dims nd = d;
  nd.set(dim, ne);
  nd.normalize();
  if (d.is_vector() && args.size() < 3) nd = d.is_row() ? Dims(1, ne) : Dims(ne, 1);
  Tensor N = Tensor::zeros(ClassId::Double, nd), B = Tensor::zeros(ClassId::Double, d);
  for (int64_t ob = 0; ob < outer; ++ob)
    for (int64_t i = 0; i < inner; ++i)
      for (int64_t k = 0; k < len; ++k) {
        int64_t idx = (ob * len + k) * inner + i;
        double v = x.get_double(idx);
        int64_t b = -1;
        if (ne > 0 && v == e[ne - 1]) b = ne - 1;
        else if (ne > 0 && v >= e[0] && v < e[ne - 1]) {
          b = (std::upper_bound(e.begin(), e.end(), v) - e.begin()) - 1;
        }
        if (b < 0) continue;
        int64_t nidx = (ob * ne + b) * inner + i;
        N.set_double(nidx, N.get_double(nidx) + 1);
        B.set_double(idx, static_cast<double>(b + 1));
      }
  return {Value(N), Value(B)};
}

/// [theta, rho, z] = cart2pol(x, y, z).
Outputs bi_cart2pol(CallContext& ctx, Args args, int nargout) {
  check_nargin(args, 2, 3);
  check_nargout(nargout, 3);
  Outputs o{call1(ctx, "atan2", {args[1], args[0]}), call1(ctx, "hypot", {args[0], args[1]})};
  if (args.size() > 2) o.push_back(args[2]);
  return o;
}
/// [x, y, z] = pol2cart(theta, rho, z).
Outputs bi_pol2cart(CallContext& ctx, Args args, int nargout) {
  check_nargin(args, 2, 3);
  check_nargout(nargout, 3);
  Outputs o{call1(ctx, "times", {args[1], call1(ctx, "cos", {args[0]})}),
            call1(ctx, "times", {args[1], call1(ctx, "sin", {args[0]})})};
  if (args.size() > 2) o.push_back(args[2]);
  return o;
}
/// [azimuth, elevation, r] = cart2sph(x, y, z).
Outputs bi_cart2sph(CallContext& ctx, Args args, int nargout) {
  check_nargin(args, 3, 3);
  check_nargout(nargout, 3);
  Value hxy = call1(ctx, "hypot", {args[0], args[1]});
  return {call1(ctx, "atan2", {args[1], args[0]}), call1(ctx, "atan2", {args[2], hxy}),
          call1(ctx, "hypot", {hxy, args[2]})};
}
/// [x, y, z] = sph2cart(azimuth, elevation, r).
Outputs bi_sph2cart(CallContext& ctx, Args args, int nargout) {
  check_nargin(args, 3, 3);
  check_nargout(nargout, 3);
  Value rc = call1(ctx, "times", {args[2], call1(ctx, "cos", {args[1]})});
  return {call1(ctx, "times", {rc, call1(ctx, "cos", {args[0]})}),
          call1(ctx, "times", {rc, call1(ctx, "sin", {args[0]})}),
          call1(ctx, "times", {args[2], call1(ctx, "sin", {args[1]})})};
}

}  // namespace

void register_polycalc(Registry& r) {
  r.add("polyder", bi_polyder);
  r.add("polyint", bi_polyint);
  r.add("spline", bi_spline);
  r.add("pchip", bi_pchip);
  r.add("gradient", bi_gradient);
  r.add("unwrap", bi_unwrap);
  r.add("sinc", bi_sinc);
  r.add("freqz", bi_freqz);
  r.add("filter2", bi_filter2);
  r.add("interp2", bi_interp2);
  r.add("histc", bi_histc);
  r.add("cart2pol", bi_cart2pol);
  r.add("pol2cart", bi_pol2cart);
  r.add("cart2sph", bi_cart2sph);
  r.add("sph2cart", bi_sph2cart);
}

}  // namespace matfuse
