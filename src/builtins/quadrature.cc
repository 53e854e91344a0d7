// Builtins of the "quadrature" family: integral, quadgk, integral2, integral3, quad, dblquad.
//
// Algorithms:
// - integral / quadgk: globally adaptive Gauss-Kronrod (7, 15) quadrature, vectorized over all
//   active subintervals, after L. F. Shampine, "Vectorized adaptive quadrature in MATLAB",
//   J. Comput. Appl. Math. 211 (2008) 131-140: finite intervals are mapped by
//   x = (b-a)/4 * t (3 - t^2) + (b+a)/2 to weaken end-point singularities, [a, Inf) by
//   x = a + (t/(1-t))^2, (-Inf, b] by x = b - (t/(1+t))^2, (-Inf, Inf) by x = t/(1-t^2); ten
//   initial subintervals; a subinterval is accepted when |err| <= tol * (its length / total
//   length), tol = max(AbsTol, RelTol*|Q|); at most MaxIntervalCount (650) subintervals.
//   Gauss-Kronrod nodes and weights from R. Piessens et al., QUADPACK (Springer 1983).
// - integral2 / integral3: iterated integration with the same adaptive rule in each variable
//   (MATLAB's 'Method', 'iterated'); inner limits may be functions of the outer variables.
// - quad: adaptive Simpson quadrature with Richardson extrapolation, W. Gander and W. Gautschi,
//   "Adaptive quadrature - revisited", BIT 40 (2000) 84-101 (MATLAB's quad: tolerance 1e-6,
//   seven initial points, 10000 function evaluations at most).
// - dblquad: quad over y of quad over x (f(x, y) vectorized in x, y scalar).
#include <algorithm>
#include <climits>
#include <cmath>
#include <complex>
#include <functional>
#include <limits>

#include "builtins/numutil.h"

namespace matfuse::num {

namespace {

using cd = std::complex<double>;
constexpr double kEps = std::numeric_limits<double>::epsilon();

const double kXgk[8] = {0.991455371120812639206854697526329, 0.949107912342758524526189684047851,
                        0.864864423359769072789712788640926, 0.741531185599394439863864773280788,
                        0.586087235467691130294144845693013, 0.405845151377397166906606412076961,
                        0.207784955007898467600689403773245, 0.0};
const double kWgk[8] = {0.022935322010529224963732008058970, 0.063092092629978553290700663189204,
                        0.104790010322250183839876322541518, 0.140653259715525918745189590510238,
                        0.169004726639267902826583426598550, 0.190350578064785409913256402421014,
                        0.204432940075298892414161999234649, 0.209482141084727828012999174891714};
const double kWg[4] = {0.129484966168869693270611432679082, 0.279705391489276667901467771423780,
                       0.381830050505118944950369775488975, 0.417959183673469387755102040816327};

/// The 15 nodes in [-1, 1] in the order used below.
void gk_nodes(double* t) {
  for (int i = 0; i < 7; ++i) {
    t[i] = -kXgk[i];
    t[14 - i] = kXgk[i];
  }
  t[7] = 0;
}

/// Integrand values at many points: returns m values per point, point-major (values of point
/// p at [p*m, p*m+m)). m is fixed by the first call.
using Batch = std::function<std::vector<cd>(const Vec& x, size_t& m)>;

struct GkResult {
  std::vector<cd> q;
  double err = 0;
  Dims vdims = Dims(1, 1);
};

/// Adaptive GK(7,15) of f over [a, b] (a, b may be +-Inf; waypoints real, inside).
GkResult gk_adapt(CallContext& ctx, const Batch& f, double a, double b, double abstol,
                  double reltol, const Vec& waypoints, int maxint, const char* fname) {
  GkResult res;
  if (a == b) {
    size_t m = 0;
    std::vector<cd> v = f(Vec{a}, m);
    res.q.assign(m, cd(0));
    return res;
  }
  if (a > b && waypoints.empty()) {
    GkResult r = gk_adapt(ctx, f, b, a, abstol, reltol, waypoints, maxint, fname);
    for (cd& v : r.q) v = -v;
    return r;
  }
  // Transform t -> (x, dx/dt).
  int kind;  // 0 finite mapped, 1 [a,Inf), 2 (-Inf,b], 3 (-Inf,Inf), 4 identity (waypoints)
  double ta, tb;
  bool fa = std::isfinite(a), fb = std::isfinite(b);
  if (fa && fb) {
    kind = waypoints.empty() ? 0 : 4;
    ta = kind == 0 ? -1 : a;
    tb = kind == 0 ? 1 : b;
  } else if (fa) {
    kind = 1;
    ta = 0;
    tb = 1;
  } else if (fb) {
    kind = 2;
    ta = -1;
    tb = 0;
  } else {
    kind = 3;
    ta = -1;
    tb = 1;
  }
  if (!waypoints.empty() && kind != 4)
    throw_error("matfuse:notSupported", "%s: Waypoints with infinite limits are not supported.",
                fname);
  auto xform = [&](double t, double& w) {
    switch (kind) {
      case 0:
        w = 0.75 * (b - a) * (1 - t * t);
        return 0.25 * (b - a) * t * (3 - t * t) + 0.5 * (b + a);
      case 1: {
        double u = t / (1 - t);
        w = 2 * u / ((1 - t) * (1 - t));
        return a + u * u;
      }
      case 2: {
        double u = t / (1 + t);
        w = -2 * u / ((1 + t) * (1 + t));
        return b - u * u;
      }
      case 3:
        w = (1 + t * t) / ((1 - t * t) * (1 - t * t));
        return t / (1 - t * t);
      default:
        w = 1;
        return t;
    }
  };
  // Initial subintervals.
  std::vector<std::pair<double, double>> subs;
  Vec brk{ta};
  for (double wpt : waypoints) brk.push_back(wpt);
  brk.push_back(tb);
  size_t nseg = brk.size() - 1;
  size_t per = std::max<size_t>(1, (10 + nseg - 1) / nseg);
  for (size_t s = 0; s < nseg; ++s)
    for (size_t k = 0; k < per; ++k) {
      double l = brk[s] + (brk[s + 1] - brk[s]) * k / per;
      double r = k + 1 == per ? brk[s + 1] : brk[s] + (brk[s + 1] - brk[s]) * (k + 1) / per;
      subs.emplace_back(l, r);
    }
  const double pathlen = std::abs(tb - ta);
  double tn[15];
  gk_nodes(tn);
  size_t m = 0;
  std::vector<cd> qok, errok;
  bool first = true;
  while (true) {
    size_t ns = subs.size();
    Vec xs(ns * 15), ws(ns * 15);
    for (size_t s = 0; s < ns; ++s) {
      double mid = 0.5 * (subs[s].first + subs[s].second);
      double half = 0.5 * (subs[s].second - subs[s].first);
      for (int k = 0; k < 15; ++k) {
        double w;
        xs[s * 15 + k] = xform(mid + half * tn[k], w);
        ws[s * 15 + k] = w * half;
      }
    }
    std::vector<cd> fx = f(xs, m);
    if (first) {
      qok.assign(m, cd(0));
      errok.assign(m, cd(0));
      first = false;
    }
    std::vector<cd> qs(ns * m), es(ns * m);
    std::vector<cd> qtot = qok, etot = errok;
    for (size_t s = 0; s < ns; ++s)
      for (size_t c = 0; c < m; ++c) {
        cd q15 = 0, q7 = 0;
        for (int k = 0; k < 15; ++k) {
          cd v = fx[(s * 15 + k) * m + c] * ws[s * 15 + k];
          if (ws[s * 15 + k] == 0 || std::isinf(xs[s * 15 + k])) v = 0;  // t = +-1 ends
          int j = k < 7 ? k : 14 - k;
          q15 += kWgk[j] * v;
          if (j % 2 == 1) q7 += kWg[j / 2] * v;
        }
        qs[s * m + c] = q15;
        es[s * m + c] = q15 - q7;
        qtot[c] += q15;
        etot[c] += q15 - q7;
      }
    double qn = 0, errbnd = 0;
    for (size_t c = 0; c < m; ++c) {
      qn = std::max(qn, std::abs(qtot[c]));
      errbnd = std::max(errbnd, std::abs(etot[c]));
    }
    double tol = std::max(abstol, reltol * qn);
    bool nonfinite = false;
    for (const cd& v : qtot)
      if (!std::isfinite(v.real()) || !std::isfinite(v.imag())) nonfinite = true;
    if (nonfinite) {
      warn(ctx, ("MATLAB:" + std::string(fname) + ":NonFiniteValue").c_str(),
           "Inf or NaN value encountered.");
      res.q = qtot;
      res.err = errbnd;
      return res;
    }
    if (errbnd <= tol) {
      res.q = qtot;
      res.err = errbnd;
      return res;
    }
    // Accept the subintervals whose error is small for their length; split the others.
    std::vector<std::pair<double, double>> next;
    for (size_t s = 0; s < ns; ++s) {
      double len = std::abs(subs[s].second - subs[s].first);
      double es_n = 0;
      for (size_t c = 0; c < m; ++c) es_n = std::max(es_n, std::abs(es[s * m + c]));
      if (es_n <= tol * len / pathlen) {
        for (size_t c = 0; c < m; ++c) {
          qok[c] += qs[s * m + c];
          errok[c] += es[s * m + c];
        }
      } else {
        double mid = 0.5 * (subs[s].first + subs[s].second);
        if (mid == subs[s].first || mid == subs[s].second) {
          double w;
          char buf[160];
          std::snprintf(buf, sizeof buf, "Minimum step size reached near x = %g. There may be a "
                        "singularity, or the tolerances may be too tight for this problem.",
                        xform(mid, w));
          warn(ctx, ("MATLAB:" + std::string(fname) + ":MinStepSize").c_str(), buf);
          res.q = qtot;
          res.err = errbnd;
          return res;
        }
        next.emplace_back(subs[s].first, mid);
        next.emplace_back(mid, subs[s].second);
      }
    }
    if (next.empty()) {
      res.q = qtot;
      res.err = errbnd;
      return res;
    }
    if (static_cast<int>(next.size()) > maxint) {
      char buf[300];
      std::snprintf(buf, sizeof buf, "Reached the limit on the maximum number of intervals in "
                    "use. Approximate bound on error is %9.1e. The integral may not exist, or "
                    "it may be difficult to approximate numerically to the requested accuracy.",
                    errbnd);
      warn(ctx, ("MATLAB:" + std::string(fname) + ":MaxIntervalCountReached").c_str(), buf);
      res.q = qtot;
      res.err = errbnd;
      return res;
    }
    subs = std::move(next);
  }
}

std::vector<cd> cvals(const Value& v, const char* fname) {
  if (v.is_scalar_double()) return {cd(v.scalar())};
  if (!v.is_tensor())
    throw_error("MATLAB:UndefinedFunction", "%s: the integrand must return numeric values.",
                fname);
  Tensor t = v.tensor();
  std::vector<cd> r(static_cast<size_t>(t.numel()));
  for (int64_t i = 0; i < t.numel(); ++i) r[i] = t.get_complex(i);
  return r;
}

/// Vectorized integrand: f(x) with x a row vector; output must have x's size.
Batch vector_batch(CallContext& ctx, const Value& fn, const char* fname,
                   const std::vector<Value>& extra = {}) {
  return [&ctx, fn, fname, extra](const Vec& x, size_t& m) {
    std::vector<Value> a{Value(rowvec(x))};
    a.insert(a.end(), extra.begin(), extra.end());
    Value r = callf(ctx, fn, a, 1)[0];
    if (r.numel() != static_cast<int64_t>(x.size()))
      throw_error(("MATLAB:" + std::string(fname) + ":FxNotSameSizeAsX").c_str(),
                  "Output of the function must be the same size as the input. If FUN is an "
                  "array-valued integrand, set the 'ArrayValued' option to true.");
    m = 1;
    return cvals(r, fname);
  };
}

/// Array-valued integrand: f(x) for each scalar x; every value has the first value's size.
Batch array_batch(CallContext& ctx, const Value& fn, const char* fname, Dims* vdims) {
  return [&ctx, fn, fname, vdims](const Vec& x, size_t& m) {
    std::vector<cd> out;
    for (double xi : x) {
      Value r = callf(ctx, fn, {Value(xi)}, 1)[0];
      if (m == 0) {
        m = static_cast<size_t>(r.numel());
        *vdims = r.dims();
      }
      if (static_cast<size_t>(r.numel()) != m)
        throw_error(("MATLAB:" + std::string(fname) + ":ArrayValuedSizeMismatch").c_str(),
                    "The integrand must return arrays of the same size for every point.");
      std::vector<cd> v = cvals(r, fname);
      out.insert(out.end(), v.begin(), v.end());
    }
    return out;
  };
}

Value result_value(const std::vector<cd>& q, const Dims& d) {
  bool cplx = false;
  for (const cd& v : q)
    if (v.imag() != 0) cplx = true;
  Tensor t = Tensor::uninit(ClassId::Double, d, cplx);
  for (size_t i = 0; i < q.size(); ++i) {
    if (cplx) t.set_complex(static_cast<int64_t>(i), q[i]);
    else t.set_double(static_cast<int64_t>(i), q[i].real());
  }
  return Value(t);
}

struct QuadOpts {
  double abstol = 1e-10, reltol = 1e-6;
  bool arrayvalued = false;
  Vec waypoints;
  int maxint = 650;
};

QuadOpts parse_opts(Args args, size_t from, const char* fname, bool allow_array) {
  QuadOpts o;
  for (size_t i = from; i < args.size(); i += 2) {
    if (!args[i].is_text())
      throw_error(("MATLAB:" + std::string(fname) + ":invalidOption").c_str(),
                  "Expected a name-value pair option name.");
    std::string n = args[i].to_text();
    for (char& c : n) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    if (i + 1 >= args.size())
      throw_error("MATLAB:minrhs", "Option '%s' has no value.", args[i].to_text().c_str());
    const Value& v = args[i + 1];
    if (n == "abstol") o.abstol = v.to_double("AbsTol");
    else if (n == "reltol") o.reltol = v.to_double("RelTol");
    else if (n == "arrayvalued" && allow_array) o.arrayvalued = v.truthy();
    else if (n == "waypoints") o.waypoints = reals(v, fname, "Waypoints");
    else if (n == "maxintervalcount") {
      // A positive integer (NaN would be undefined to cast to int); counts past int are int's
      // largest, a limit never reached.
      const double m = v.to_double("MaxIntervalCount");
      if (!(m >= 1) || m != std::floor(m))
        throw_error(("MATLAB:" + std::string(fname) + ":invalidMaxIntervalCount").c_str(),
                    "%s: MaxIntervalCount must be a positive integer scalar.", fname);  // unverified
      o.maxint = m < INT_MAX ? static_cast<int>(m) : INT_MAX;
    }
    else if (n == "method") {  // 'auto' | 'iterated' | 'tiled': iterated integration is used
      std::string m = v.to_text("Method");
      if (m != "auto" && m != "iterated" && m != "tiled")
        throw_error(("MATLAB:" + std::string(fname) + ":invalidMethod").c_str(),
                    "%s: unrecognized method '%s'.", fname, m.c_str());
    }
    else
      throw_error(("MATLAB:" + std::string(fname) + ":unknownOption").c_str(),
                  "Invalid option name '%s'.", args[i].to_text().c_str());
  }
  if (!(o.abstol >= 0))
    throw_error(("MATLAB:" + std::string(fname) + ":invalidAbsTol").c_str(),
                "AbsTol must be a nonnegative real scalar.");
  if (!(o.reltol >= 0))
    throw_error(("MATLAB:" + std::string(fname) + ":invalidRelTol").c_str(),
                "RelTol must be a nonnegative real scalar.");
  if (o.reltol < 100 * kEps && o.reltol > 0) o.reltol = 100 * kEps;
  return o;
}

double real_limit(const Value& v, const char* fname, const char* name);

/// q = integral(fun, a, b, 'AbsTol', 1e-10, 'RelTol', 1e-6, 'ArrayValued', false,
/// 'Waypoints', [...]): numerical integral of fun over [a, b] (a, b real, may be +-Inf).
/// fun must accept a row vector and return values of the same size (unless ArrayValued).
Outputs bi_integral(CallContext& ctx, Args args, int nargout) {
  check_nargin(args, 3, 1000);
  check_nargout(nargout, 1);
  QuadOpts o = parse_opts(args, 3, "integral", true);
  double a = real_limit(args[1], "integral", "A"), b = real_limit(args[2], "integral", "B");
  Dims vd(1, 1);
  Batch f = o.arrayvalued ? array_batch(ctx, args[0], "integral", &vd)
                          : vector_batch(ctx, args[0], "integral");
  GkResult r = gk_adapt(ctx, f, a, b, o.abstol, o.reltol, o.waypoints, o.maxint, "integral");
  return {result_value(r.q, o.arrayvalued ? vd : Dims(1, 1))};
}

/// [q, errbnd] = quadgk(fun, a, b, 'AbsTol', 1e-10, 'RelTol', 1e-6, 'Waypoints', w,
/// 'MaxIntervalCount', 650): as integral, also returning the error bound.
Outputs bi_quadgk(CallContext& ctx, Args args, int nargout) {
  check_nargin(args, 3, 1000);
  check_nargout(nargout, 2);
  QuadOpts o = parse_opts(args, 3, "quadgk", false);
  double a = args[1].to_double("A"), b = args[2].to_double("B");
  GkResult r = gk_adapt(ctx, vector_batch(ctx, args[0], "quadgk"), a, b, o.abstol, o.reltol,
                        o.waypoints, o.maxint, "quadgk");
  return {result_value(r.q, Dims(1, 1)), Value(r.err)};
}

/// A real scalar integration limit (named in the message).
double real_limit(const Value& v, const char* fname, const char* name) {
  if (!v.is_tensor() || v.numel() != 1 || v.tensor().is_complex())
    throw_error(("MATLAB:" + std::string(fname) + ":invalidLimit").c_str(),
                "%s: %s must be a real scalar.", fname, name);
  return v.to_double(name);
}

/// A limit of an iterated integral: a constant or a function of the outer variables.
double limit(CallContext& ctx, const Value& lim, std::vector<Value> outer, const char* fname) {
  if (lim.is_function()) return call_scalar(ctx, lim, std::move(outer), fname);
  return real_limit(lim, fname, "limit");
}

/// q = integral2(fun, xmin, xmax, ymin, ymax, options): fun(X, Y) elementwise on arrays;
/// ymin/ymax constants or functions of x. Iterated adaptive Gauss-Kronrod.
Outputs bi_integral2(CallContext& ctx, Args args, int nargout) {
  check_nargin(args, 5, 1000);
  check_nargout(nargout, 2);
  QuadOpts o = parse_opts(args, 5, "integral2", false);
  Value fn = args[0], ylo = args[3], yhi = args[4];
  if (!fn.is_function() && !fn.is_text())
    throw_error("MATLAB:integral2:invalidIntegrand", "integral2: FUN must be a function handle.");
  double xa = real_limit(args[1], "integral2", "XA"), xb = real_limit(args[2], "integral2", "XB");
  if (!ylo.is_function()) real_limit(ylo, "integral2", "YA");
  if (!yhi.is_function()) real_limit(yhi, "integral2", "YB");
  double errsum = 0;
  Batch outer = [&](const Vec& xs, size_t& m) {
    m = 1;
    std::vector<cd> out;
    for (double x : xs) {
      double c = limit(ctx, ylo, {Value(x)}, "integral2");
      double d = limit(ctx, yhi, {Value(x)}, "integral2");
      Batch inner = [&](const Vec& ys, size_t& mi) {
        mi = 1;
        Value X = Value(rowvec(Vec(ys.size(), x))), Y = Value(rowvec(ys));
        Value r = callf(ctx, fn, {X, Y}, 1)[0];
        if (r.numel() != static_cast<int64_t>(ys.size()))
          throw_error("MATLAB:integral2:funSizeMismatch", "Integrand output size does not "
                      "match the input size.");
        return cvals(r, "integral2");
      };
      GkResult ri = gk_adapt(ctx, inner, c, d, o.abstol, o.reltol, {}, o.maxint, "integral2");
      errsum += ri.err;
      out.push_back(ri.q[0]);
    }
    return out;
  };
  GkResult r = gk_adapt(ctx, outer, xa, xb, o.abstol, o.reltol, {}, o.maxint, "integral2");
  return {result_value(r.q, Dims(1, 1)), Value(r.err)};
}

/// q = integral3(fun, xmin, xmax, ymin, ymax, zmin, zmax, options): fun(X, Y, Z) elementwise;
/// ymin/ymax functions of x, zmin/zmax functions of (x, y) or constants.
Outputs bi_integral3(CallContext& ctx, Args args, int nargout) {
  check_nargin(args, 7, 1000);
  check_nargout(nargout, 1);
  QuadOpts o = parse_opts(args, 7, "integral3", false);
  Value fn = args[0];
  double xa = args[1].to_double("xmin"), xb = args[2].to_double("xmax");
  Batch outer = [&](const Vec& xs, size_t& m) {
    m = 1;
    std::vector<cd> out;
    for (double x : xs) {
      double c = limit(ctx, args[3], {Value(x)}, "integral3");
      double d = limit(ctx, args[4], {Value(x)}, "integral3");
      Batch mid = [&](const Vec& ys, size_t& mm) {
        mm = 1;
        std::vector<cd> o2;
        for (double y : ys) {
          double e = limit(ctx, args[5], {Value(x), Value(y)}, "integral3");
          double f = limit(ctx, args[6], {Value(x), Value(y)}, "integral3");
          Batch inner = [&](const Vec& zs, size_t& mi) {
            mi = 1;
            Value X = Value(rowvec(Vec(zs.size(), x))), Y = Value(rowvec(Vec(zs.size(), y)));
            Value r = callf(ctx, fn, {X, Y, Value(rowvec(zs))}, 1)[0];
            if (r.numel() != static_cast<int64_t>(zs.size()))
              throw_error("MATLAB:integral3:funSizeMismatch", "Integrand output size does not "
                          "match the input size.");
            return cvals(r, "integral3");
          };
          o2.push_back(gk_adapt(ctx, inner, e, f, o.abstol, o.reltol, {}, o.maxint,
                                "integral3").q[0]);
        }
        return o2;
      };
      out.push_back(gk_adapt(ctx, mid, c, d, o.abstol, o.reltol, {}, o.maxint, "integral3").q[0]);
    }
    return out;
  };
  GkResult r = gk_adapt(ctx, outer, xa, xb, o.abstol, o.reltol, {}, o.maxint, "integral3");
  return {result_value(r.q, Dims(1, 1))};
}

/// Adaptive Simpson (MATLAB quad): returns Q, counts evaluations, sets warn (0 ok, 1 minimum
/// step, 2 too many evaluations, 3 non-finite).
struct Simpson {
  std::function<Vec(const Vec&)> f;
  double tol, hmin;
  int64_t fcnt = 0;
  double step(double a, double b, double fa, double fc, double fb, int& w) {
    const int64_t maxfcnt = 10000;
    double h = b - a, c = (a + b) / 2;
    if (std::abs(h) < hmin || c == a || c == b) {
      w = 1;
      return h * fc;
    }
    Vec y = f({(a + c) / 2, (c + b) / 2});
    fcnt += 2;
    if (fcnt > maxfcnt) {
      w = 2;
      return h * fc;
    }
    double fd = y[0], fe = y[1];
    double q1 = (h / 6) * (fa + 4 * fc + fb);
    double q2 = (h / 12) * (fa + 4 * fd + 2 * fc + 4 * fe + fb);
    double q = q2 + (q2 - q1) / 15;
    if (!std::isfinite(q)) {
      w = 3;
      return q;
    }
    if (std::abs(q2 - q) <= tol) {
      w = 0;
      return q;
    }
    int w1 = 0, w2 = 0;
    double qac = step(a, c, fa, fd, fc, w1);
    double qcb = step(c, b, fc, fe, fb, w2);
    w = std::max(w1, w2);
    return qac + qcb;
  }
  double run(double a, double b, CallContext& ctx, const char* fname) {
    double h = 0.13579 * (b - a);
    Vec x{a, a + h, a + 2 * h, (a + b) / 2, b - 2 * h, b - h, b};
    Vec y = f(x);
    fcnt = 7;
    if (!std::isfinite(y[0])) {
      y[0] = f({a + kEps * (b - a)})[0];
      ++fcnt;
    }
    if (!std::isfinite(y[6])) {
      y[6] = f({b - kEps * (b - a)})[0];
      ++fcnt;
    }
    hmin = kEps / 1024 * std::abs(b - a);
    int w[3] = {0, 0, 0};
    double q = step(x[0], x[2], y[0], y[1], y[2], w[0]) + step(x[2], x[4], y[2], y[3], y[4], w[1]) +
               step(x[4], x[6], y[4], y[5], y[6], w[2]);
    int wm = std::max({w[0], w[1], w[2]});
    std::string id = "MATLAB:" + std::string(fname);
    if (wm == 1) warn(ctx, (id + ":MinStepSize").c_str(), "Minimum step size reached; "
                      "singularity possible.");
    else if (wm == 2) warn(ctx, (id + ":MaxFcnCount").c_str(), "Maximum function count "
                           "exceeded; singularity likely.");
    else if (wm == 3) warn(ctx, (id + ":ImproperFcnValue").c_str(), "Infinite or Not-a-Number "
                           "value encountered.");
    return q;
  }
};

Vec call_vec(CallContext& ctx, const Value& fn, const Vec& x, std::vector<Value> extra,
             const char* fname) {
  std::vector<Value> a{Value(rowvec(x))};
  a.insert(a.end(), extra.begin(), extra.end());
  Value r = callf(ctx, fn, a, 1)[0];
  Vec v = reals(r, fname, "function value");
  if (v.size() != x.size())
    throw_error(("MATLAB:" + std::string(fname) + ":FcnOutputSize").c_str(),
                "The integrand function must return an output vector of the same length as the "
                "input vector.");
  return v;
}

/// [q, fcnt] = quad(fun, a, b, tol, trace, p1, ...): adaptive Simpson, tol default 1e-6.
Outputs bi_quad(CallContext& ctx, Args args, int nargout) {
  check_nargin(args, 3, 1000);
  check_nargout(nargout, 2);
  double a = args[1].to_double("A"), b = args[2].to_double("B");
  double tol = args.size() > 3 && !args[3].is_empty() ? args[3].to_double("tol") : 1e-6;
  std::vector<Value> extra(args.begin() + std::min<size_t>(5, args.size()), args.end());
  Value fn = args[0];
  Simpson s;
  s.tol = tol;
  s.f = [&](const Vec& x) { return call_vec(ctx, fn, x, extra, "quad"); };
  double q = s.run(a, b, ctx, "quad");
  return {Value(q), Value(double(s.fcnt))};
}

/// q = dblquad(fun, xmin, xmax, ymin, ymax, tol, method): double integral over a rectangle;
/// fun(x, y) accepts a vector x and a scalar y. tol default 1e-6; method @quad (default) or
/// @quadgk/@quadl names (quadgk uses the Gauss-Kronrod rule).
Outputs bi_dblquad(CallContext& ctx, Args args, int nargout) {
  check_nargin(args, 5, 1000);
  check_nargout(nargout, 1);
  Value fn = args[0];
  double xa = args[1].to_double("xmin"), xb = args[2].to_double("xmax");
  double ya = args[3].to_double("ymin"), yb = args[4].to_double("ymax");
  double tol = args.size() > 5 && !args[5].is_empty() ? args[5].to_double("tol") : 1e-6;
  std::vector<Value> extra(args.begin() + std::min<size_t>(7, args.size()), args.end());
  bool gk = args.size() > 6 && !args[6].is_empty() && fn_text(args[6]) == "quadgk";
  auto inner = [&](double y) {
    auto fx = [&](const Vec& x) {
      std::vector<Value> a{Value(rowvec(x)), Value(y)};
      a.insert(a.end(), extra.begin(), extra.end());
      Vec v = reals(callf(ctx, fn, a, 1)[0], "dblquad", "function value");
      if (v.size() == 1 && x.size() > 1) v.assign(x.size(), v[0]);
      return v;
    };
    if (gk) {
      Batch bf = [&](const Vec& x, size_t& m) {
        m = 1;
        Vec v = fx(x);
        return std::vector<cd>(v.begin(), v.end());
      };
      return gk_adapt(ctx, bf, xa, xb, 1e-10, tol, {}, 650, "dblquad").q[0].real();
    }
    Simpson s;
    s.tol = tol;
    s.f = fx;
    return s.run(xa, xb, ctx, "dblquad");
  };
  Simpson outer;
  outer.tol = tol;
  outer.f = [&](const Vec& ys) {
    Vec r;
    for (double y : ys) r.push_back(inner(y));
    return r;
  };
  return {Value(outer.run(ya, yb, ctx, "dblquad"))};
}

}  // namespace

}  // namespace matfuse::num

namespace matfuse {
void register_quadrature(Registry& r) {
  r.add("integral", num::bi_integral);
  r.add("quadgk", num::bi_quadgk);
  r.add("integral2", num::bi_integral2);
  r.add("integral3", num::bi_integral3);
  r.add("quad", num::bi_quad);
  r.add("dblquad", num::bi_dblquad);
}
}  // namespace matfuse
