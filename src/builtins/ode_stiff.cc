// Builtins of the "ode" family for stiff problems: ode23s.
//
// ode23s is the modified Rosenbrock (2,3) pair of L. F. Shampine and M. W. Reichelt, "The
// MATLAB ODE Suite", SIAM J. Sci. Comput. 18 (1997) 1-22, section 3 (d = 1/(2+sqrt(2)),
// e32 = 6+sqrt(2); W = I - h*d*J factored once per step; error estimate
// (h/6)*(k1 - 2*k2 + k3); continuous extension y + h*(k1*s(1-s) + k2*s(s-2d))/(1-2d)).
// The Jacobian comes from options.Jacobian (a matrix or a function J(t, y)) or from forward
// differences with increments sqrt(eps)*max(|y_j|, AbsTol_j/RelTol); df/dt by a forward
// difference.
#include <algorithm>
#include <cmath>
#include <limits>

#include "builtins/lapack_inc.h"
#include "builtins/ode.h"

namespace matfuse::num {

namespace {

constexpr double kEps = std::numeric_limits<double>::epsilon();
double eps_of(double x) { return std::nextafter(std::abs(x), INFINITY) - std::abs(x); }

/// dfdy at (t, y) with f0 = f(t, y): the Jacobian option or forward differences.
Vec jacobian(OdeProblem& p, double t, const Vec& y, const Vec& f0, const Vec& thr,
             int64_t& npds) {
  size_t n = y.size();
  ++npds;
  Value J = opt(p.options, "Jacobian");
  if (!absent(J)) {
    Value m = J;
    if (J.is_function() || J.is_text()) {
      std::vector<Value> a{Value(t), Value(colvec(y))};
      a.insert(a.end(), p.extra.begin(), p.extra.end());
      m = callf(*p.ctx, J, a, 1)[0];
    }
    Vec v = reals(m, p.solver.c_str(), "Jacobian");
    if (v.size() != n * n)
      throw_error("MATLAB:odearguments:SizeJacobian", "The Jacobian must be a %zu-by-%zu "
                  "matrix.", n, n);
    return v;
  }
  Vec Jm(n * n);
  Vec yy = y;
  for (size_t j = 0; j < n; ++j) {
    double del = std::sqrt(kEps) * std::max(std::abs(y[j]), thr[j]);
    if (y[j] < 0) del = -del;
    double tmp = yy[j];
    yy[j] = tmp + del;
    del = yy[j] - tmp;  // the increment actually applied
    Vec f1 = p.f(t, yy);
    yy[j] = tmp;
    for (size_t i = 0; i < n; ++i) Jm[j * n + i] = (f1[i] - f0[i]) / del;
  }
  return Jm;
}

/// [t, y, te, ye, ie] = ode23s(odefun, tspan, y0, options, ...) | sol = ode23s(...).
Outputs bi_ode23s(CallContext& ctx, Args args, int nargout) {
  check_nargout(nargout, 5);
  OdeProblem p = ode_setup(ctx, args, "ode23s", 1);
  const size_t n = p.y0.size();
  const int ni = static_cast<int>(n);
  const double d = 1 / (2 + std::sqrt(2.0)), e32 = 6 + std::sqrt(2.0), pow = 1.0 / 3;
  Vec thr(n);
  for (size_t i = 0; i < n; ++i) thr[i] = p.atol[i] / p.rtol;
  double t = p.t0;
  Vec y = p.y0;
  Vec f0 = p.f(t, y);
  OdeOutput out(p, nargout, 2);
  int64_t npds = 0, ndecomps = 0, nsolves = 0, nsteps = 0, nfailed = 0;
  Vec dfdy = jacobian(p, t, y, f0, thr, npds);
  double hmin = 16 * eps_of(t), absh;
  if (p.h0 > 0) {
    absh = std::min(p.hmax, p.h0);
  } else {
    absh = std::min(p.hmax, std::abs(p.tfinal - p.t0));
    Vec w(n);
    for (size_t i = 0; i < n; ++i) w[i] = std::max(std::abs(y[i]), thr[i]);
    double rh = 1.25 * std::pow(wnorm_inf(f0, w) / p.rtol, pow);
    if (absh * rh > 1) absh = 1 / rh;
    absh = std::max(absh, hmin);
  }
  bool done = false;
  Vec W(n * n), k1(n), k2(n), k3(n), ynew(n), ytmp(n), T(n);
  std::vector<lapack_int> piv(n);
  auto lu_solve = [&](Vec& b) {
    ++nsolves;
    LAPACKE_dgetrs(LAPACK_COL_MAJOR, 'N', ni, 1, W.data(), ni, piv.data(), b.data(), ni);
  };
  while (!done) {
    hmin = 16 * eps_of(t);
    absh = std::min(p.hmax, std::max(hmin, absh));
    double h = p.tdir * absh;
    if (1.1 * absh >= std::abs(p.tfinal - t)) {
      h = p.tfinal - t;
      absh = std::abs(h);
      done = true;
    }
    // df/dt by a forward difference.
    double delt = std::sqrt(kEps) * std::max(std::abs(t), std::abs(t + h));
    double tdel = (t + p.tdir * std::min(delt, absh)) - t;
    Vec ft = p.f(t + tdel, y);
    for (size_t i = 0; i < n; ++i) T[i] = (ft[i] - f0[i]) / tdel;
    bool nofailed = true;
    double tnew, err;
    Vec f2;
    while (true) {
      for (size_t j = 0; j < n * n; ++j) W[j] = -h * d * dfdy[j];
      for (size_t i = 0; i < n; ++i) W[i * n + i] += 1;
      ++ndecomps;
      if (LAPACKE_dgetrf(LAPACK_COL_MAJOR, ni, ni, W.data(), ni, piv.data()) > 0)
        warn(ctx, "MATLAB:singularMatrix", "Matrix is singular to working precision.");
      for (size_t i = 0; i < n; ++i) k1[i] = f0[i] + h * d * T[i];
      lu_solve(k1);
      for (size_t i = 0; i < n; ++i) ytmp[i] = y[i] + 0.5 * h * k1[i];
      Vec f1 = p.f(t + 0.5 * h, ytmp);
      for (size_t i = 0; i < n; ++i) k2[i] = f1[i] - k1[i];
      lu_solve(k2);
      for (size_t i = 0; i < n; ++i) k2[i] += k1[i];
      tnew = t + h;
      if (done) tnew = p.tfinal;
      h = tnew - t;
      for (size_t i = 0; i < n; ++i) ynew[i] = y[i] + h * k2[i];
      f2 = p.f(tnew, ynew);
      for (size_t i = 0; i < n; ++i)
        k3[i] = f2[i] - e32 * (k2[i] - f1[i]) - 2 * (k1[i] - f0[i]) + h * d * T[i];
      lu_solve(k3);
      err = 0;
      for (size_t i = 0; i < n; ++i) {
        double w = std::max(std::max(std::abs(y[i]), std::abs(ynew[i])), thr[i]);
        double a = std::abs(k1[i] - 2 * k2[i] + k3[i]) / w;
        if (a > err || std::isnan(a)) err = a;
      }
      err *= absh / 6;
      if (err > p.rtol) {
        ++nfailed;
        if (absh <= hmin) {
          char buf[200];
          std::snprintf(buf, sizeof buf,
                        "Failure at t=%e.  Unable to meet integration tolerances without "
                        "reducing the step size below the smallest value allowed (%e) at time t.",
                        t, hmin);
          warn(ctx, "MATLAB:ode23s:IntegrationTolNotMet", buf);
          return out.finish(nsteps, nfailed, npds, ndecomps, nsolves);
        }
        if (nofailed) {
          nofailed = false;
          absh = std::max(hmin, absh * std::max(0.5, 0.8 * std::pow(p.rtol / err, pow)));
        } else {
          absh = std::max(hmin, 0.5 * absh);
        }
        h = p.tdir * absh;
        done = false;
      } else {
        break;
      }
    }
    ++nsteps;
    Vec K(2 * n);
    std::copy(k1.begin(), k1.end(), K.begin());
    std::copy(k2.begin(), k2.end(), K.begin() + n);
    const double tt = t, hh = h;
    const Vec yy = y, kk1 = k1, kk2 = k2;
    auto interp = [&](double tau) {
      double s = (tau - tt) / hh;
      double s1 = s * (1 - s) / (1 - 2 * d), s2 = s * (s - 2 * d) / (1 - 2 * d);
      Vec r = yy;
      for (size_t i = 0; i < n; ++i) r[i] += hh * (kk1[i] * s1 + kk2[i] * s2);
      return r;
    };
    if (out.step(t, y, tnew, ynew, K, interp, h)) break;
    if (nofailed) {
      double temp = 1.25 * std::pow(err / p.rtol, pow);
      absh = temp > 0.2 ? absh / temp : 5.0 * absh;
    }
    t = tnew;
    y = ynew;
    f0 = f2;
    if (!done) dfdy = jacobian(p, t, y, f0, thr, npds);
  }
  return out.finish(nsteps, nfailed, npds, ndecomps, nsolves);
}

}  // namespace

void register_ode_stiff(Registry& r) { r.add("ode23s", bi_ode23s); }

}  // namespace matfuse::num
