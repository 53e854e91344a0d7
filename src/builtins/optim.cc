// Builtins of the "optim" family: fzero, fminbnd, fminsearch, lsqnonneg, optimset, optimget.
//
// Algorithms:
// - fzero: T. J. Dekker's zero finder as refined by R. P. Brent, "Algorithms for Minimization
//   without Derivatives", Prentice-Hall 1973, ch. 4 (the zeroin of G. E. Forsythe, M. A.
//   Malcolm and C. B. Moler, "Computer Methods for Mathematical Computations", 1977), with
//   MATLAB's bracket search from a scalar start (steps x/50 growing by sqrt(2) on both sides).
// - fminbnd: Brent's golden-section search with parabolic interpolation (Brent 1973, ch. 5;
//   Forsythe-Malcolm-Moler's fmin).
// - fminsearch: the Nelder-Mead simplex as specified by J. C. Lagarias, J. A. Reeds, M. H.
//   Wright and P. E. Wright, "Convergence properties of the Nelder-Mead simplex method in low
//   dimensions", SIAM J. Optim. 9 (1998) 112-147 (rho 1, chi 2, psi 1/2, sigma 1/2; initial
//   simplex 5% steps, 0.00025 for zero components).
// - lsqnonneg: C. L. Lawson and R. J. Hanson, "Solving Least Squares Problems", Prentice-Hall
//   1974, ch. 23 (NNLS active-set algorithm); subproblems solved by LAPACK dgelsy.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <numeric>
#include <ostream>

#include "builtins/lapack_inc.h"
#include "builtins/numutil.h"
#include "runtime/session.h"

namespace matfuse::num {

namespace {

constexpr double kEps = std::numeric_limits<double>::epsilon();

const std::vector<std::string>& optim_fields() {
  static const std::vector<std::string> f{"Display",   "MaxFunEvals", "MaxIter",
                                          "TolFun",    "TolX",        "FunValCheck",
                                          "OutputFcn", "PlotFcns"};
  return f;
}

/// Default options of a solver (optimset('fzero') ...).
Value solver_defaults(const std::string& name) {
  auto t = [](const char* s) { return Value::from_chars(s); };
  std::vector<Value> a;
  if (name == "fzero") {
    a = {t("Display"), t("notify"), t("TolX"), Value(kEps), t("FunValCheck"), t("off")};
  } else if (name == "fminbnd") {
    a = {t("Display"), t("notify"), t("MaxFunEvals"), Value(500.0), t("MaxIter"), Value(500.0),
         t("TolX"), Value(1e-4), t("FunValCheck"), t("off")};
  } else if (name == "fminsearch") {
    a = {t("Display"), t("notify"), t("MaxFunEvals"), t("200*numberofvariables"), t("MaxIter"),
         t("200*numberofvariables"), t("TolFun"), Value(1e-4), t("TolX"), Value(1e-4),
         t("FunValCheck"), t("off")};
  } else if (name == "lsqnonneg") {
    a = {t("Display"), t("notify"), t("TolX"), t("10*eps*norm(c,1)*length(c)")};
  } else {
    throw_error("MATLAB:optimset:NoDefaultsForFcn",
                "No default options available for the function '%s'.", name.c_str());
  }
  return set_options(Args(a.data(), a.size()), optim_fields(), "MATLAB:optimset", "optimset");
}

/// options = optimset(name, value, ...) | optimset(old, name, value, ...) | optimset(old, new)
/// | optimset('fzero') (that solver's defaults) | optimset (list when nargout = 0).
Outputs bi_optimset(CallContext& ctx, Args args, int nargout) {
  if (args.empty() && nargout == 0) {
    std::ostream& os = *ctx.session().out;
    for (const auto& f : optim_fields()) os << "  " << f << "\n";
    return {};
  }
  if (args.size() == 1 && args[0].is_text()) return {solver_defaults(args[0].to_text())};
  if (args.size() == 1 && args[0].is_function())
    return {solver_defaults(fn_text(args[0]))};
  return {set_options(args, optim_fields(), "MATLAB:optimset", "optimset")};
}

/// v = optimget(options, name [, default]): the field or default when [].
Outputs bi_optimget(CallContext&, Args args, int nargout) {
  check_nargin(args, 2, 4);
  check_nargout(nargout, 1);
  std::string name = args[1].to_text("name");
  // A base option by its full name or unique prefix; other names are read as given (structs
  // may carry other fields).
  int f = find_option(optim_fields(), name);
  std::string resolved = f >= 0 ? optim_fields()[static_cast<size_t>(f)] : name;
  Value v = opt(args[0], resolved);
  if (absent(v) && args.size() > 2) return {args[2]};
  return {v};
}

std::string display_opt(const Value& o) {
  std::string d = opt_text(o, "Display", "notify");
  if (d == "none") d = "off";
  return d;
}

Value out_struct(std::vector<std::pair<std::string, Value>> f) { return make_struct(f); }

std::string fmt(const char* f, double a, double b = 0) {
  char buf[128];
  std::snprintf(buf, sizeof buf, f, a, b);
  return buf;
}

/// [x, fval, exitflag, output] = fzero(fun, x0, options, p1, ...): a zero of a scalar
/// function. x0 scalar (bracket searched) or [a b] with f(a), f(b) of different signs.
/// exitflag 1 converged, -1 stopped, -3 NaN/Inf during search, -4 complex, -5 may have
/// converged to a singular point, -6 no sign change found. Errors:
/// MATLAB:fzero:ValuesAtEndPtsSameSign, MATLAB:fzero:InvalidFunctionValue.
Outputs bi_fzero(CallContext& ctx, Args args, int nargout) {
  check_nargin(args, 2, 1000);
  check_nargout(nargout, 4);
  Value fn = args[0];
  Value o = args.size() > 2 ? args[2] : Value();
  std::vector<Value> extra(args.begin() + std::min<size_t>(3, args.size()), args.end());
  std::vector<double> x0 = reals(args[1], "fzero", "starting point");
  if (x0.size() != 1 && x0.size() != 2)
    throw_error("MATLAB:fzero:LengthArg2", "Second argument must be a scalar or vector of "
                "length 2.");
  double tol = opt_double(o, "TolX", kEps);
  std::string disp = display_opt(o);
  int64_t fcount = 0, iter = 0, intervaliter = 0;
  auto F = [&](double x) {
    std::vector<Value> a{Value(x)};
    a.insert(a.end(), extra.begin(), extra.end());
    ++fcount;
    return call_scalar(ctx, fn, a, "fzero");
  };
  std::ostream& os = *ctx.session().out;
  double a, b, fa, fb;
  int exitflag = 1;
  std::string msg;
  auto finish = [&](double x, double fx) {
    Outputs out{Value(x), Value(fx), Value(double(exitflag))};
    if (nargout > 3)
      out.push_back(out_struct({{"intervaliterations", Value(double(intervaliter))},
                                {"iterations", Value(double(iter))},
                                {"funcCount", Value(double(fcount))},
                                {"algorithm", Value::from_chars("bisection, interpolation")},
                                {"message", Value::from_chars(msg)}}));
    if (disp == "final" || disp == "iter" || (disp == "notify" && exitflag != 1))
      os << "\n" << msg << "\n\n";
    out.resize(static_cast<size_t>(std::max(nargout, 1)));
    return out;
  };
  if (x0.size() == 2) {
    a = x0[0];
    b = x0[1];
    fa = F(a);
    fb = F(b);
    if (!std::isfinite(fa) || !std::isfinite(fb))
      throw_error("MATLAB:fzero:ValueAtEndPtsComplexOrNotFinite",
                  "Function values at the interval endpoints must be finite and real.");
    if ((fa > 0) == (fb > 0) && fa != 0 && fb != 0)
      throw_error("MATLAB:fzero:ValuesAtEndPtsSameSign",
                  "The function values at the interval endpoints must differ in sign.");
    if (fa == 0) {
      msg = fmt("Zero found in the interval [%g, %g]", a, b);
      return finish(a, fa);
    }
  } else {
    double x = x0[0];
    double fx = F(x);
    if (fx == 0) {
      msg = fmt("Zero found in the interval [%g, %g]", x, x);
      return finish(x, fx);
    }
    if (!std::isfinite(fx))
      throw_error("MATLAB:fzero:InvalidFunctionValue",
                  "Function value at starting guess must be finite and real.");
    double dx = x != 0 ? x / 50 : 1.0 / 50;
    const double twosqrt = std::sqrt(2.0);
    a = x;
    fa = fx;
    b = x;
    fb = fx;
    while ((fa > 0) == (fb > 0)) {
      ++intervaliter;
      dx *= twosqrt;
      a = x - dx;
      fa = F(a);
      if (!std::isfinite(fa) || !std::isfinite(a)) {
        exitflag = std::isnan(fa) || std::isnan(a) ? -3 : -3;
        msg = fmt("Exiting fzero: aborting search for an interval containing a sign change\n"
                  "    because NaN or Inf function value encountered during search.\n"
                  "(Function value at %g is %g.)", a, fa);
        msg += fmt("\nCheck function or try again with a different starting value.", 0);
        return finish(NAN, NAN);
      }
      if ((fa > 0) != (fb > 0)) break;
      b = x + dx;
      fb = F(b);
      if (!std::isfinite(fb) || !std::isfinite(b)) {
        exitflag = -3;
        msg = fmt("Exiting fzero: aborting search for an interval containing a sign change\n"
                  "    because NaN or Inf function value encountered during search.\n"
                  "(Function value at %g is %g.)", b, fb);
        msg += "\nCheck function or try again with a different starting value.";
        return finish(NAN, NAN);
      }
    }
  }
  const double savea = a, saveb = b, savefa = fa, savefb = fb;
  double c = a, fc = fb, d = b - a, e = d;
  fc = fb;
  while (fb != 0 && a != b) {
    if ((fb > 0) == (fc > 0)) {
      c = a;
      fc = fa;
      d = b - a;
      e = d;
    }
    if (std::abs(fc) < std::abs(fb)) {
      a = b;
      b = c;
      c = a;
      fa = fb;
      fb = fc;
      fc = fa;
    }
    double m = 0.5 * (c - b);
    double toler = 2.0 * tol * std::max(std::abs(b), 1.0);
    if (std::abs(m) <= toler || fb == 0.0) break;
    if (std::abs(e) < toler || std::abs(fa) <= std::abs(fb)) {
      d = m;
      e = m;
    } else {
      double s = fb / fa, p, q;
      if (a == c) {
        p = 2.0 * m * s;
        q = 1.0 - s;
      } else {
        q = fa / fc;
        double r = fb / fc;
        p = s * (2.0 * m * q * (q - r) - (b - a) * (r - 1.0));
        q = (q - 1.0) * (r - 1.0) * (s - 1.0);
      }
      if (p > 0) q = -q;
      else p = -p;
      if (2.0 * p < 3.0 * m * q - std::abs(toler * q) && p < std::abs(0.5 * e * q)) {
        e = d;
        d = p / q;
      } else {
        d = m;
        e = m;
      }
    }
    a = b;
    fa = fb;
    if (std::abs(d) > toler) b = b + d;
    else if (b > c) b = b - toler;
    else b = b + toler;
    fb = F(b);
    ++iter;
  }
  double lo = std::min(savea, saveb), hi = std::max(savea, saveb);
  if (std::abs(fb) <= std::max(std::abs(savefa), std::abs(savefb))) {
    exitflag = 1;
    msg = fmt("Zero found in the interval [%g, %g]", lo, hi);
  } else {
    exitflag = -5;
    msg = "Current point x may be near a singular point. The interval [" + fmt("%g", lo) +
          ", " + fmt("%g", hi) + "] \nreduced to the requested tolerance and the function "
          "changes sign in the interval,\nbut f(x) increased in magnitude as the interval "
          "reduced.";
  }
  return finish(b, fb);
}

/// [x, fval, exitflag, output] = fminbnd(fun, x1, x2, options, p1, ...): local minimum of a
/// scalar function on [x1, x2]. Defaults TolX 1e-4, MaxFunEvals 500, MaxIter 500.
/// exitflag 1 converged, 0 iteration/evaluation limit, -1 stopped, -2 x1 > x2.
Outputs bi_fminbnd(CallContext& ctx, Args args, int nargout) {
  check_nargin(args, 3, 1000);
  check_nargout(nargout, 4);
  Value fn = args[0];
  Value o = args.size() > 3 ? args[3] : Value();
  std::vector<Value> extra(args.begin() + std::min<size_t>(4, args.size()), args.end());
  double ax = args[1].to_double("x1"), bx = args[2].to_double("x2");
  double tol = opt_double(o, "TolX", 1e-4);
  double maxfun = opt_double(o, "MaxFunEvals", 500), maxiter = opt_double(o, "MaxIter", 500);
  std::string disp = display_opt(o);
  std::ostream& os = *ctx.session().out;
  int64_t num = 0, iter = 0;
  auto F = [&](double x) {
    std::vector<Value> a{Value(x)};
    a.insert(a.end(), extra.begin(), extra.end());
    ++num;
    return call_scalar(ctx, fn, a, "fminbnd");
  };
  int exitflag = 1;
  std::string msg;
  double xf, fx;
  if (ax > bx) {
    exitflag = -2;
    msg = "Exiting due to infeasibility:  lower bound exceeds upper bound.";
    xf = NAN;
    fx = NAN;
  } else {
    const double seps = std::sqrt(kEps), c = 0.5 * (3.0 - std::sqrt(5.0));
    double a = ax, b = bx;
    double v = a + c * (b - a), w = v;
    xf = v;
    double d = 0, e = 0;
    double x = xf;
    fx = F(x);
    double fv = fx, fw = fx;
    double xm = 0.5 * (a + b);
    double tol1 = seps * std::abs(xf) + tol / 3.0, tol2 = 2.0 * tol1;
    if (disp == "iter")
      os << " \n Func-count     x          f(x)         Procedure\n"
         << fmt("    %5.0f", double(num)) << fmt("   %12.6g %12.6g", xf, fx) << "        initial\n";
    while (std::abs(xf - xm) > (tol2 - 0.5 * (b - a))) {
      bool gs = true;
      const char* proc = "       golden";
      if (std::abs(e) > tol1) {
        gs = false;
        double r = (xf - w) * (fx - fv);
        double q = (xf - v) * (fx - fw);
        double p = (xf - v) * q - (xf - w) * r;
        q = 2.0 * (q - r);
        if (q > 0.0) p = -p;
        q = std::abs(q);
        r = e;
        e = d;
        if (std::abs(p) < std::abs(0.5 * q * r) && p > q * (a - xf) && p < q * (b - xf)) {
          d = p / q;
          x = xf + d;
          proc = "       parabolic";
          if ((x - a) < tol2 || (b - x) < tol2) {
            double si = (xm - xf > 0 ? 1.0 : xm - xf < 0 ? -1.0 : 0.0) + ((xm - xf) == 0);
            d = tol1 * si;
          }
        } else {
          gs = true;
        }
      }
      if (gs) {
        e = xf >= xm ? a - xf : b - xf;
        d = c * e;
      }
      double si = (d > 0 ? 1.0 : d < 0 ? -1.0 : 0.0) + (d == 0);
      x = xf + si * std::max(std::abs(d), tol1);
      double fu = F(x);
      ++iter;
      if (disp == "iter")
        os << fmt("    %5.0f", double(num)) << fmt("   %12.6g %12.6g", x, fu) << proc << "\n";
      if (fu <= fx) {
        if (x >= xf) a = xf;
        else b = xf;
        v = w;
        fv = fw;
        w = xf;
        fw = fx;
        xf = x;
        fx = fu;
      } else {
        if (x < xf) a = x;
        else b = x;
        if (fu <= fw || w == xf) {
          v = w;
          fv = fw;
          w = x;
          fw = fu;
        } else if (fu <= fv || v == xf || v == w) {
          v = x;
          fv = fu;
        }
      }
      xm = 0.5 * (a + b);
      tol1 = seps * std::abs(xf) + tol / 3.0;
      tol2 = 2.0 * tol1;
      if (num >= maxfun || iter >= maxiter) {
        exitflag = 0;
        break;
      }
    }
    if (exitflag == 1)
      msg = "Optimization terminated:\n the current x satisfies the termination criteria using "
            "OPTIONS.TolX of " + fmt("%e", tol) + " \n";
    else
      msg = "Exiting: Maximum number of function evaluations or iterations has been exceeded\n"
            "         - increase MaxFunEvals and/or MaxIter option.\n";
  }
  if (disp == "final" || disp == "iter" || (disp == "notify" && exitflag != 1))
    os << "\n" << msg << "\n";
  Outputs out{Value(xf), Value(fx), Value(double(exitflag))};
  if (nargout > 3)
    out.push_back(out_struct({{"iterations", Value(double(iter))},
                              {"funcCount", Value(double(num))},
                              {"algorithm", Value::from_chars(
                                                "golden section search, parabolic interpolation")},
                              {"message", Value::from_chars(msg)}}));
  out.resize(static_cast<size_t>(std::max(nargout, 1)));
  return out;
}

/// [x, fval, exitflag, output] = fminsearch(fun, x0, options, p1, ...): unconstrained minimum
/// by Nelder-Mead; x has x0's shape. Defaults TolX = TolFun = 1e-4, MaxIter = MaxFunEvals =
/// 200*numel(x0). exitflag 1 converged, 0 limit reached, -1 stopped.
Outputs bi_fminsearch(CallContext& ctx, Args args, int nargout) {
  check_nargin(args, 2, 1000);
  check_nargout(nargout, 4);
  Value fn = args[0];
  Value o = args.size() > 2 ? args[2] : Value();
  std::vector<Value> extra(args.begin() + std::min<size_t>(3, args.size()), args.end());
  Dims xd = args[1].dims();
  Vec x0 = reals(args[1], "fminsearch", "starting point");
  const size_t n = x0.size();
  double tolx = opt_double(o, "TolX", 1e-4), tolf = opt_double(o, "TolFun", 1e-4);
  double maxfun = opt_double(o, "MaxFunEvals", 200.0 * n);
  double maxiter = opt_double(o, "MaxIter", 200.0 * n);
  std::string disp = display_opt(o);
  std::ostream& os = *ctx.session().out;
  int64_t fevals = 0;
  bool check = opt_text(o, "FunValCheck", "off") == "on";
  auto F = [&](const Vec& x) {
    Tensor t = matrix(xd.rows(), xd.cols(), x).reshaped(xd);
    std::vector<Value> a{Value(t)};
    a.insert(a.end(), extra.begin(), extra.end());
    ++fevals;
    if (!check) return call_scalar(ctx, fn, a, "fminsearch");
    Value r = callf(ctx, fn, a, 1)[0];
    if (r.is_tensor() && r.tensor().is_complex())
      throw_error("MATLAB:fminsearch:checkfun:ComplexFval", "fminsearch: non-real value "
                  "encountered in the user function.");
    if (!r.is_tensor() || r.numel() != 1)
      throw_error("MATLAB:optimfcnchk:checkfun:NonScalarFunctionValue",
                  "fminsearch: the function must return a scalar value.");
    double v = r.to_double("function value");
    if (check && std::isnan(v))
      throw_error("MATLAB:fminsearch:checkfun:NaNFval", "fminsearch: NaN value encountered in "
                  "the user function.");
    if (check && std::isinf(v))
      throw_error("MATLAB:fminsearch:checkfun:InfFval", "fminsearch: Inf value encountered in "
                  "the user function.");
    return v;
  };
  const double rho = 1, chi = 2, psi = 0.5, sigma = 0.5;
  std::vector<Vec> v(n + 1, x0);
  Vec fv(n + 1);
  fv[0] = F(x0);
  for (size_t j = 0; j < n; ++j) {
    Vec y = x0;
    y[j] = y[j] != 0 ? (1 + 0.05) * y[j] : 0.00025;
    v[j + 1] = y;
    fv[j + 1] = F(y);
  }
  auto sort_simplex = [&]() {
    std::vector<size_t> idx(n + 1);
    std::iota(idx.begin(), idx.end(), 0);
    std::stable_sort(idx.begin(), idx.end(), [&](size_t a, size_t b) { return fv[a] < fv[b]; });
    std::vector<Vec> v2(n + 1);
    Vec f2(n + 1);
    for (size_t i = 0; i <= n; ++i) {
      v2[i] = v[idx[i]];
      f2[i] = fv[idx[i]];
    }
    v = v2;
    fv = f2;
  };
  sort_simplex();
  int64_t itercount = 1;
  std::string how = "initial simplex";
  auto show = [&]() {
    if (disp == "iter")
      os << fmt(" %5.0f        %5.0f", double(itercount - 1), double(fevals))
         << fmt("     %12.6g         ", fv[0]) << how << "\n";
  };
  if (disp == "iter") {
    os << " \n Iteration   Func-count     min f(x)         Procedure\n";
    itercount = 1;
    os << fmt(" %5.0f        %5.0f", 0.0, 1.0) << fmt("     %12.6g         ", fv[0]) << "\n";
  }
  show();
  while (fevals < maxfun && itercount < maxiter) {
    double dfv = 0, dx = 0;
    for (size_t j = 1; j <= n; ++j) {
      dfv = std::max(dfv, std::abs(fv[0] - fv[j]));
      for (size_t i = 0; i < n; ++i) dx = std::max(dx, std::abs(v[j][i] - v[0][i]));
    }
    double mv = n ? *std::max_element(v[0].begin(), v[0].end()) : 0;
    auto epsof = [](double z) { return std::nextafter(std::abs(z), INFINITY) - std::abs(z); };
    if (dfv <= std::max(tolf, 10 * epsof(fv[0])) && dx <= std::max(tolx, 10 * epsof(mv))) break;
    Vec xbar(n, 0.0);
    for (size_t j = 0; j < n; ++j)
      for (size_t i = 0; i < n; ++i) xbar[i] += v[j][i] / static_cast<double>(n);
    auto comb = [&](double a, double b) {  // a*xbar + b*v(:,end)
      Vec r(n);
      for (size_t i = 0; i < n; ++i) r[i] = a * xbar[i] + b * v[n][i];
      return r;
    };
    Vec xr = comb(1 + rho, -rho);
    double fxr = F(xr);
    if (fxr < fv[0]) {
      Vec xe = comb(1 + rho * chi, -rho * chi);
      double fxe = F(xe);
      if (fxe < fxr) {
        v[n] = xe;
        fv[n] = fxe;
        how = "expand";
      } else {
        v[n] = xr;
        fv[n] = fxr;
        how = "reflect";
      }
    } else if (fxr < fv[n - 1]) {
      v[n] = xr;
      fv[n] = fxr;
      how = "reflect";
    } else {
      if (fxr < fv[n]) {
        Vec xc = comb(1 + psi * rho, -psi * rho);
        double fxc = F(xc);
        if (fxc <= fxr) {
          v[n] = xc;
          fv[n] = fxc;
          how = "contract outside";
        } else {
          how = "shrink";
        }
      } else {
        Vec xcc = comb(1 - psi, psi);
        double fxcc = F(xcc);
        if (fxcc < fv[n]) {
          v[n] = xcc;
          fv[n] = fxcc;
          how = "contract inside";
        } else {
          how = "shrink";
        }
      }
      if (how == "shrink") {
        for (size_t j = 1; j <= n; ++j) {
          for (size_t i = 0; i < n; ++i) v[j][i] = v[0][i] + sigma * (v[j][i] - v[0][i]);
          fv[j] = F(v[j]);
        }
      }
    }
    sort_simplex();
    ++itercount;
    show();
  }
  int exitflag = 1;
  std::string msg;
  char buf[300];
  if (fevals >= maxfun) {
    exitflag = 0;
    std::snprintf(buf, sizeof buf, "Exiting: Maximum number of function evaluations has been "
                  "exceeded\n         - increase MaxFunEvals option.\n         Current function "
                  "value: %f \n", fv[0]);
    msg = buf;
  } else if (itercount >= maxiter) {
    exitflag = 0;
    std::snprintf(buf, sizeof buf, "Exiting: Maximum number of iterations has been exceeded\n"
                  "         - increase MaxIter option.\n         Current function value: %f \n",
                  fv[0]);
    msg = buf;
  } else {
    std::snprintf(buf, sizeof buf, "Optimization terminated:\n the current x satisfies the "
                  "termination criteria using OPTIONS.TolX of %e \n and F(X) satisfies the "
                  "convergence criteria using OPTIONS.TolFun of %e \n", tolx, tolf);
    msg = buf;
  }
  if (disp == "final" || disp == "iter" || (disp == "notify" && exitflag != 1))
    os << " \n" << msg << "\n";
  Tensor xt = matrix(xd.rows(), xd.cols(), v[0]).reshaped(xd);
  if (n == 0) xt = Tensor::zeros(ClassId::Double, xd);
  Outputs out{Value(xt), Value(fv[0]), Value(double(exitflag))};
  if (nargout > 3)
    out.push_back(out_struct({{"iterations", Value(double(itercount))},
                              {"funcCount", Value(double(fevals))},
                              {"algorithm", Value::from_chars("Nelder-Mead simplex direct search")},
                              {"message", Value::from_chars(msg)}}));
  out.resize(static_cast<size_t>(std::max(nargout, 1)));
  return out;
}

/// Least-squares solution of C(:, P) z = d (m x k, rank-revealing QR, LAPACK dgelsy).
Vec lsq_sub(const Vec& C, int64_t m, const std::vector<int64_t>& cols, const Vec& d) {
  int64_t k = static_cast<int64_t>(cols.size());
  if (k == 0) return {};
  int64_t ld = std::max(m, k);
  Vec A(static_cast<size_t>(m * k)), b(static_cast<size_t>(ld), 0.0);
  for (int64_t j = 0; j < k; ++j)
    for (int64_t i = 0; i < m; ++i) A[j * m + i] = C[cols[j] * m + i];
  std::copy(d.begin(), d.end(), b.begin());
  std::vector<lapack_int> jpvt(static_cast<size_t>(k), 0);
  lapack_int rank = 0;
  LAPACKE_dgelsy(LAPACK_COL_MAJOR, static_cast<int>(m), static_cast<int>(k), 1, A.data(),
                 static_cast<int>(std::max<int64_t>(m, 1)), b.data(), static_cast<int>(ld),
                 jpvt.data(), kEps * static_cast<double>(std::max(m, k)), &rank);
  return Vec(b.begin(), b.begin() + k);
}

/// [x, resnorm, residual, exitflag, output, lambda] = lsqnonneg(C, d, options): minimizes
/// norm(C*x - d) subject to x >= 0 (C m x n real, d m-vector). x is n x 1.
Outputs bi_lsqnonneg(CallContext& ctx, Args args, int nargout) {
  check_nargin(args, 2, 3);
  check_nargout(nargout, 6);
  Tensor Ct = args[0].tensor();
  if (Ct.dims().ndims() > 2) throw_error("MATLAB:lsqnonneg:NotMatrix", "C must be a matrix.");
  Vec C = reals(args[0], "lsqnonneg", "matrix"), d = reals(args[1], "lsqnonneg", "vector");
  int64_t m = Ct.dims()[0], n = Ct.dims()[1];
  if (static_cast<int64_t>(d.size()) != m)
    throw_error("MATLAB:lsqnonneg:InvalidDim", "The number of rows in C must equal the length "
                "of d.");
  Value o = args.size() > 2 ? args[2] : Value();
  double norm1 = 0;
  for (int64_t j = 0; j < n; ++j) {
    double s = 0;
    for (int64_t i = 0; i < m; ++i) s += std::abs(C[j * m + i]);
    norm1 = std::max(norm1, s);
  }
  double tol = opt_double(o, "TolX", 10 * kEps * norm1 * static_cast<double>(std::max(m, n)));
  std::string disp = display_opt(o);
  std::vector<bool> P(static_cast<size_t>(n), false), Z(static_cast<size_t>(n), true);
  Vec x(static_cast<size_t>(n), 0.0), resid = d, w(static_cast<size_t>(n));
  auto grad = [&]() {
    for (int64_t j = 0; j < n; ++j) {
      double s = 0;
      for (int64_t i = 0; i < m; ++i) s += C[j * m + i] * resid[i];
      w[j] = s;
    }
  };
  grad();
  int64_t outeriter = 0, iter = 0, itmax = 3 * n;
  int exitflag = 1;
  auto anyZpos = [&]() {
    for (int64_t j = 0; j < n; ++j)
      if (Z[j] && w[j] > tol) return true;
    return false;
  };
  auto solveP = [&]() {
    std::vector<int64_t> cols;
    for (int64_t j = 0; j < n; ++j)
      if (P[j]) cols.push_back(j);
    Vec zs = lsq_sub(C, m, cols, d);
    Vec z(static_cast<size_t>(n), 0.0);
    for (size_t k = 0; k < cols.size(); ++k) z[cols[k]] = zs[k];
    return z;
  };
  while (anyZpos()) {
    ++outeriter;
    int64_t t = -1;
    double best = -INFINITY;
    for (int64_t j = 0; j < n; ++j)
      if (Z[j] && w[j] > best) {
        best = w[j];
        t = j;
      }
    P[t] = true;
    Z[t] = false;
    Vec z = solveP();
    auto anyPnonpos = [&]() {
      for (int64_t j = 0; j < n; ++j)
        if (P[j] && z[j] <= 0) return true;
      return false;
    };
    while (anyPnonpos()) {
      ++iter;
      if (iter > itmax) {
        exitflag = 0;
        break;
      }
      double alpha = INFINITY;
      for (int64_t j = 0; j < n; ++j)
        if (P[j] && z[j] <= 0) alpha = std::min(alpha, x[j] / (x[j] - z[j]));
      for (int64_t j = 0; j < n; ++j) x[j] += alpha * (z[j] - x[j]);
      for (int64_t j = 0; j < n; ++j) {
        Z[j] = (std::abs(x[j]) < tol && P[j]) || Z[j];
        P[j] = !Z[j];
      }
      z = solveP();
    }
    if (exitflag == 0) break;
    x = z;
    for (int64_t i = 0; i < m; ++i) {
      double s = 0;
      for (int64_t j = 0; j < n; ++j) s += C[j * m + i] * x[j];
      resid[i] = d[i] - s;
    }
    grad();
  }
  double resnorm = 0;
  for (double r : resid) resnorm += r * r;
  for (int64_t j = 0; j < n; ++j)
    if (P[j]) w[j] = 0;  // multipliers of the active (positive) variables are zero
  std::string msg = exitflag == 1
                        ? "Optimization terminated."
                        : "Exiting: Iteration count is exceeded, exiting LSQNONNEG.\n"
                          "Try raising the tolerance (OPTIONS.TolX).";
  if (disp == "final" || disp == "iter" || (disp == "notify" && exitflag != 1))
    *ctx.session().out << msg << "\n";
  Outputs out{Value(colvec(x)), Value(resnorm), Value(colvec(resid)), Value(double(exitflag))};
  out.push_back(out_struct({{"iterations", Value(double(outeriter))},
                            {"algorithm", Value::from_chars("active-set")},
                            {"message", Value::from_chars(msg)}}));
  out.push_back(Value(colvec(w)));
  out.resize(static_cast<size_t>(std::max(nargout, 1)));
  return out;
}

}  // namespace

}  // namespace matfuse::num

namespace matfuse {
void register_optim(Registry& r) {
  r.add("optimset", num::bi_optimset);
  r.add("optimget", num::bi_optimget);
  r.add("fzero", num::bi_fzero);
  r.add("fminbnd", num::bi_fminbnd);
  r.add("fminsearch", num::bi_fminsearch);
  r.add("lsqnonneg", num::bi_lsqnonneg);
}
}  // namespace matfuse
