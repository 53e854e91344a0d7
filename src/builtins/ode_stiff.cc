// Builtins of the "ode" family for stiff problems: ode23s, ode15s.
//
// ode23s is the modified Rosenbrock (2,3) pair of L. F. Shampine and M. W. Reichelt, "The
// MATLAB ODE Suite", SIAM J. Sci. Comput. 18 (1997) 1-22, section 3 (d = 1/(2+sqrt(2)),
// e32 = 6+sqrt(2); W = I - h*d*J factored once per step; error estimate
// (h/6)*(k1 - 2*k2 + k3); continuous extension y + h*(k1*s(1-s) + k2*s(s-2d))/(1-2d)).
// The Jacobian comes from options.Jacobian (a matrix or a function J(t, y)) or from forward
// differences with increments sqrt(eps)*max(|y_j|, AbsTol_j/RelTol); df/dt by a forward
// difference.
//
// ode15s is the variable-order (1 to MaxOrder <= 5) quasi-constant step size method of the
// numerical differentiation formulas (NDFs; the BDFs with BDF = 'on') of L. F. Shampine and
// M. W. Reichelt, "The MATLAB ODE Suite", SIAM J. Sci. Comput. 18 (1997) 1-22, section 2:
// backward differences of the solution changed to a new step size by the matrices R*U
// (eq. 2.4), the NDF coefficients kappa = (-0.1850, -1/9, -0.0823, -0.0415, 0) and the error
// constants kappa*gamma_k + 1/(k+1) (Table 1), simplified Newton iterations with
// I - h/((1-kappa)*gamma_k) J (a new Jacobian or a 0.3 step when they converge too slowly),
// and the order and step choice after k+2 steps at constant size (factors 1.2, 1.3 and 1.4 for
// orders k, k-1 and k+1).
#include <algorithm>
#include <cmath>
#include <limits>

#include "builtins/lapack_inc.h"
#include "builtins/ode.h"

namespace matfuse::num {

void ndf_interp(double tnew, const Vec& ynew, double h, int k, const double* dif, double tau,
                Vec& yout, Vec& ypout) {
  const size_t n = ynew.size();
  const double s = (tau - tnew) / h;
  yout = ynew;
  ypout.assign(n, 0.0);
  // y = ynew + sum_j dif_j * prod_{m=1..j} (s + m - 1)/m, and its derivative in s over h.
  double c = 1, dc = 0;
  for (int j = 1; j <= k; ++j) {
    dc = (dc * (s + j - 1) + c) / j;
    c = c * (s + j - 1) / j;
    for (size_t l = 0; l < n; ++l) {
      yout[l] += dif[(j - 1) * n + l] * c;
      ypout[l] += dif[(j - 1) * n + l] * dc / h;
    }
  }
}

namespace {

constexpr double kEps = std::numeric_limits<double>::epsilon();

}  // namespace

Vec ode_jacobian(OdeProblem& p, double t, const Vec& y, const Vec& f0, int64_t& npds) {
  const Vec& thr = p.thr;
  size_t n = y.size();
  ++npds;
  Value J = opt(p.options, "Jacobian");
  if (!absent(J)) {
    Value m = J;
    if (J.is_function() || J.is_text()) {
      std::vector<Value> a{Value(t), p.column(y)};
      a.insert(a.end(), p.extra.begin(), p.extra.end());
      m = callf(*p.ctx, J, a, 1)[0];
    }
    if (p.complex_y)
      throw_error("matfuse:notSupported", "%s: a Jacobian option with complex initial "
                  "conditions is not supported yet.", p.solver.c_str());
    Vec v = reals(m, p.solver.c_str(), "Jacobian");
    if (v.size() != n * n)
      throw_error("MATLAB:odearguments:SizeJacobian", "The Jacobian must be a %zu-by-%zu "
                  "matrix.", n, n);
    if (!absent(p.mass)) {
      // The solvers see y' = M \ f: the Jacobian M \ J.
      Vec lu = p.mass_lu;
      std::vector<int> piv = p.mass_piv;
      if (lu.empty()) {
        std::vector<Value> ma{Value(t)};
        if (p.mass_state) ma.push_back(p.column(y));
        ma.insert(ma.end(), p.extra.begin(), p.extra.end());
        lu = reals(callf(*p.ctx, p.mass, ma, 1)[0], p.solver.c_str(), "mass matrix");
        piv.assign(n, 0);
        if (lu.size() != n * n || !lu_factor(lu, piv, static_cast<int>(n)))
          throw_error("MATLAB:odearguments:MassSingular", "The mass matrix is singular; "
                      "differential-algebraic problems are not supported yet.");
      }
      for (size_t j = 0; j < n; ++j) {
        Vec col(v.begin() + j * n, v.begin() + (j + 1) * n);
        lu_solve(lu, piv, static_cast<int>(n), col);
        std::copy(col.begin(), col.end(), v.begin() + j * n);
      }
    }
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

namespace {

/// [t, y, te, ye, ie] = ode23s(odefun, tspan, y0, options, ...) | sol = ode23s(...).
Outputs bi_ode23s(CallContext& ctx, Args args, int nargout) {
  check_nargout(nargout, 5);
  OdeProblem p = ode_setup(ctx, args, "ode23s", 1);
  const size_t n = p.y0.size();
  const int ni = static_cast<int>(n);
  const double d = 1 / (2 + std::sqrt(2.0)), e32 = 6 + std::sqrt(2.0), pow = 1.0 / 3;
  double t = p.t0;
  Vec y = p.y0;
  Vec f0 = p.f(t, y);
  OdeOutput out(p, nargout, 2);
  int64_t npds = 0, ndecomps = 0, nsolves = 0, nsteps = 0, nfailed = 0;
  Vec dfdy = ode_jacobian(p, t, y, f0, npds);
  StepSize step(p);
  {
    Vec w(n);
    for (size_t i = 0; i < n; ++i) w[i] = std::max(std::abs(y[i]), p.thr[i]);
    step.init(1.25 * std::pow(wnorm_inf(f0, w) / p.rtol, pow));
  }
  Vec W(n * n), k1(n), k2(n), k3(n), ynew(n), ytmp(n), T(n), e(n);
  std::vector<lapack_int> piv(n);
  auto lu_solve = [&](Vec& b) {
    ++nsolves;
    LAPACKE_dgetrs(LAPACK_COL_MAJOR, 'N', ni, 1, W.data(), ni, piv.data(), b.data(), ni);
  };
  while (true) {
    double h = step.start(t);
    // df/dt by a forward difference.
    double delt = std::sqrt(kEps) * std::max(std::abs(t), std::abs(t + h));
    double tdel = (t + p.tdir * std::min(delt, step.absh)) - t;
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
      tnew = step.done ? p.tfinal : t + h;
      h = tnew - t;
      for (size_t i = 0; i < n; ++i) ynew[i] = y[i] + h * k2[i];
      f2 = p.f(tnew, ynew);
      for (size_t i = 0; i < n; ++i)
        k3[i] = f2[i] - e32 * (k2[i] - f1[i]) - 2 * (k1[i] - f0[i]) + h * d * T[i];
      lu_solve(k3);
      for (size_t i = 0; i < n; ++i) e[i] = k1[i] - 2 * k2[i] + k3[i];
      err = step.absh / 6 * err_norm(p, e, y, ynew);
      if (err <= p.rtol && !p.nonneg.empty()) err = std::max(err, p.nonneg_error(ynew));
      if (err <= p.rtol) break;
      ++nfailed;
      if (!step.can_reduce(t)) return out.finish(nsteps, nfailed, npds, ndecomps, nsolves);
      step.reject(err, nofailed, pow, 0.5);
      h = p.tdir * step.absh;
    }
    ++nsteps;
    p.project(ynew);
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
    if (out.step(t, y, tnew, ynew, K, interp, h) || step.done) break;
    if (nofailed) step.grow(err, pow);
    t = tnew;
    y = ynew;
    f0 = f2;
    dfdy = ode_jacobian(p, t, y, f0, npds);
  }
  return out.finish(nsteps, nfailed, npds, ndecomps, nsolves);
}


constexpr int kNdfMaxOrder = 5;

/// [t, y, te, ye, ie] = ode15s(odefun, tspan, y0, options, ...) | sol = ode15s(...).
/// Options besides ode45's: Jacobian (matrix or function), JConstant, MaxOrder (1..5, default
/// 5), BDF ('off': NDFs, 'on': BDFs). Refine defaults to 1. Errors as ode45, and
/// MATLAB:odearguments:MaxOrder for a MaxOrder outside 1..5.
Outputs bi_ode15s(CallContext& ctx, Args args, int nargout) {
  check_nargout(nargout, 5);
  OdeProblem p = ode_setup(ctx, args, "ode15s", 1);
  const size_t n = p.y0.size();
  const int ni = static_cast<int>(n);
  double mo = opt_double(p.options, "MaxOrder", kNdfMaxOrder);
  if (!(mo >= 1 && mo <= kNdfMaxOrder && mo == std::floor(mo)))
    throw_error("MATLAB:odearguments:MaxOrder", "MaxOrder must be 1, 2, 3, 4, or 5.");
  const int maxk = static_cast<int>(mo);
  const bool bdf = opt_text(p.options, "BDF", "off") == "on";
  const bool jconst = opt_text(p.options, "JConstant", "off") == "on";
  // Coefficients (1-based by order).
  const double G[6] = {0, 1, 3.0 / 2, 11.0 / 6, 25.0 / 12, 137.0 / 60};
  const double ndf_alpha[6] = {0, -37.0 / 200, -1.0 / 9, -0.0823, -0.0415, 0};
  double invGa[7], erconst[7];
  for (int k = 1; k <= kNdfMaxOrder; ++k) {
    double al = bdf ? 0 : ndf_alpha[k];
    invGa[k] = 1 / (G[k] * (1 - al));
    erconst[k] = al * G[k] + 1.0 / (k + 1);
  }
  invGa[6] = erconst[6] = 0;
  // U(i, j) = (-1)^i * nchoosek(j, i) (i, j = 1..maxk), the difU of eq. 2.4.
  auto binom = [](int a, int b) {
    double r = 1;
    for (int q = 1; q <= b; ++q) r = r * (a - b + q) / q;
    return r;
  };
  double t = p.t0;
  Vec y = p.y0;
  Vec yp = p.f(t, y);
  OdeOutput out(p, nargout, kNdfMaxOrder, 1);
  int64_t npds = 0, ndecomps = 0, nsolves = 0, nsteps = 0, nfailed = 0;
  Vec dfdy = ode_jacobian(p, t, y, yp, npds);
  bool jcurrent = true;
  StepSize step(p);
  ErrorWeights weights(p);
  auto set_weights = [&](const Vec& a, const Vec& b) { weights.set(a, b); };
  auto wnorm = [&](auto&& elem) { return weights.norm(elem); };
  set_weights(y, y);
  step.init(1.25 * wnorm([&](size_t l) { return yp[l]; }) / std::sqrt(p.rtol));
  int k = 1, klast = 1;
  double h = p.tdir * step.absh, abslast = step.absh;
  // dif: n x (maxk + 2) backward differences scaled to the current step, column-major.
  Vec dif(n * (kNdfMaxOrder + 2), 0.0);
  auto D = [&](int col, size_t l) -> double& { return dif[(col - 1) * n + l]; };
  for (size_t l = 0; l < n; ++l) D(1, l) = h * yp[l];
  double hinvGak = h * invGa[k];
  int nconhk = 0;
  Vec Miter(n * n);
  std::vector<lapack_int> piv(n);
  auto factor = [&]() {
    for (size_t j = 0; j < n * n; ++j) Miter[j] = -hinvGak * dfdy[j];
    for (size_t i = 0; i < n; ++i) Miter[i * n + i] += 1;
    ++ndecomps;
    if (LAPACKE_dgetrf(LAPACK_COL_MAJOR, ni, ni, Miter.data(), ni, piv.data()) > 0)
      warn(ctx, "MATLAB:singularMatrix", "Matrix is singular to working precision.");
  };
  // dif(:, 1:k) <- dif(:, 1:k) * (R*U)(1:k, 1:k) for the step ratio absh/abslast.
  auto rescale = [&](double ratio) {
    double RU[kNdfMaxOrder + 1][kNdfMaxOrder + 1] = {};
    double R[kNdfMaxOrder + 1][kNdfMaxOrder + 1];
    for (int j = 1; j <= k; ++j) {
      double c = 1;
      for (int i = 1; i <= k; ++i) {
        c *= (i - 1 - j * ratio) / i;
        R[i][j] = c;
      }
    }
    for (int i = 1; i <= k; ++i)
      for (int j = 1; j <= k; ++j) {
        double acc = 0;
        for (int m = 1; m <= k; ++m) acc += R[i][m] * ((m % 2 ? -1.0 : 1.0) * binom(j, m));
        RU[i][j] = acc;
      }
    Vec nd(n * k, 0.0);
    for (int j = 1; j <= k; ++j)
      for (int m = 1; m <= k; ++m)
        if (RU[m][j] != 0)
          for (size_t l = 0; l < n; ++l) nd[(j - 1) * n + l] += D(m, l) * RU[m][j];
    std::copy(nd.begin(), nd.end(), dif.begin());
  };
  factor();
  bool havrate = false, at_hmin = false;
  double rate = 0;
  const int maxit = 4;
  Vec pred(n), ynew(n), difkp1(n), psi(n), rhs(n);
  while (true) {
    step.hmin = 16 * std::abs(std::nextafter(std::abs(t), INFINITY) - std::abs(t));
    step.absh = std::min(p.hmax, std::max(step.hmin, step.absh));
    if (step.absh == step.hmin) {
      if (at_hmin) step.absh = abslast;  // do not stay at hmin
      at_hmin = true;
    } else {
      at_hmin = false;
    }
    h = step.start(t);
    if (step.absh != abslast || k != klast) {
      rescale(step.absh / abslast);
      hinvGak = h * invGa[k];
      nconhk = 0;
      factor();
      havrate = false;
    }
    bool nofailed = true;
    double tnew, err;
    while (true) {
      bool gotynew = false;
      while (!gotynew) {
        // psi = dif(:, 1:k) * G(1:k) * invGa(k); the prediction sums the differences.
        for (size_t l = 0; l < n; ++l) {
          double ps = 0, pr = 0;
          for (int j = 1; j <= k; ++j) {
            ps += D(j, l) * G[j];
            pr += D(j, l);
          }
          psi[l] = ps * invGa[k];
          pred[l] = y[l] + pr;
        }
        tnew = step.done ? p.tfinal : t + h;
        h = tnew - t;
        ynew = pred;
        std::fill(difkp1.begin(), difkp1.end(), 0.0);
        set_weights(y, pred);
        double minnrm = 100 * kEps * wnorm([&](size_t l) { return pred[l]; });
        bool tooslow = false;
        double oldnrm = 0;
        int iter;
        for (iter = 1; iter <= maxit; ++iter) {
          Vec fy = p.f(tnew, ynew);
          for (size_t l = 0; l < n; ++l) rhs[l] = hinvGak * fy[l] - (psi[l] + difkp1[l]);
          ++nsolves;
          LAPACKE_dgetrs(LAPACK_COL_MAJOR, 'N', ni, 1, Miter.data(), ni, piv.data(), rhs.data(),
                         ni);
          double newnrm = wnorm([&](size_t l) { return rhs[l]; });
          for (size_t l = 0; l < n; ++l) {
            difkp1[l] += rhs[l];
            ynew[l] = pred[l] + difkp1[l];
          }
          if (newnrm <= minnrm) {
            gotynew = true;
            break;
          } else if (iter == 1) {
            if (havrate) {
              double errit = newnrm * rate / (1 - rate);
              if (errit <= 0.05 * p.rtol) {
                gotynew = true;
                break;
              }
            } else {
              rate = 0;
            }
          } else if (newnrm > 0.9 * oldnrm) {
            tooslow = true;
            break;
          } else {
            rate = std::max(0.9 * rate, newnrm / oldnrm);
            havrate = true;
            double errit = newnrm * rate / (1 - rate);
            if (errit <= 0.5 * p.rtol) {
              gotynew = true;
              break;
            } else if (iter == maxit) {
              tooslow = true;
              break;
            } else if (0.5 * p.rtol < errit * std::pow(rate, maxit - iter)) {
              tooslow = true;
              break;
            }
          }
          oldnrm = newnrm;
        }
        if (!tooslow) continue;
        ++nfailed;
        // A new Jacobian, or a smaller step when the Jacobian is current.
        if (!jcurrent) {
          Vec f0 = p.f(t, y);
          dfdy = ode_jacobian(p, t, y, f0, npds);
          jcurrent = true;
        } else if (!step.can_reduce(t)) {
          return out.finish(nsteps, nfailed, npds, ndecomps, nsolves);
        } else {
          abslast = step.absh;
          step.absh = std::max(0.3 * step.absh, step.hmin);
          h = p.tdir * step.absh;
          step.done = false;
          rescale(step.absh / abslast);
          hinvGak = h * invGa[k];
          nconhk = 0;
        }
        factor();
        havrate = false;
      }
      // difkp1 is the backward difference of order k+1 of ynew.
      err = wnorm([&](size_t l) { return difkp1[l]; }) * erconst[k];
      if (err <= p.rtol && !p.nonneg.empty()) err = std::max(err, p.nonneg_error(ynew));
      if (err <= p.rtol) break;
      ++nfailed;
      if (!step.can_reduce(t)) return out.finish(nsteps, nfailed, npds, ndecomps, nsolves);
      abslast = step.absh;
      if (nofailed) {
        nofailed = false;
        double hopt = step.absh * std::max(0.1, 0.833 * std::pow(p.rtol / err, 1.0 / (k + 1)));
        if (k > 1) {
          double errkm1 = wnorm([&](size_t l) { return D(k, l) + difkp1[l]; }) * erconst[k - 1];
          double hkm1 = step.absh * std::max(0.1, 0.769 * std::pow(p.rtol / errkm1, 1.0 / k));
          if (hkm1 > hopt) {
            hopt = std::min(step.absh, hkm1);  // no increase after a failure
            --k;
          }
        }
        step.absh = std::max(step.hmin, hopt);
      } else {
        step.absh = std::max(step.hmin, 0.5 * step.absh);
      }
      h = p.tdir * step.absh;
      if (step.absh < abslast) step.done = false;
      rescale(step.absh / abslast);
      hinvGak = h * invGa[k];
      nconhk = 0;
      factor();
      havrate = false;
    }
    ++nsteps;
    for (size_t l = 0; l < n; ++l) {
      D(k + 2, l) = difkp1[l] - D(k + 1, l);
      D(k + 1, l) = difkp1[l];
    }
    for (int j = k; j >= 1; --j)
      for (size_t l = 0; l < n; ++l) D(j, l) += D(j + 1, l);
    Vec stages(n * kNdfMaxOrder, 0.0);
    std::copy(dif.begin(), dif.begin() + n * k, stages.begin());
    const double tend = tnew, hh = h;
    const Vec yend = ynew;
    const int kk = k;
    auto interp = [&, tend, hh, yend, kk](double tau) {
      Vec yo, ypo;
      ndf_interp(tend, yend, hh, kk, stages.data(), tau, yo, ypo);
      return yo;
    };
    if (out.step(t, y, tnew, ynew, stages, interp, h, Vec{static_cast<double>(k)}) || step.done)
      break;
    klast = k;
    abslast = step.absh;
    nconhk = std::min(nconhk + 1, maxk + 2);
    if (nconhk >= k + 2) {
      double temp = 1.2 * std::pow(err / p.rtol, 1.0 / (k + 1));
      double hopt = temp > 0.1 ? step.absh / temp : 10 * step.absh;
      int kopt = k;
      if (k > 1) {
        double errkm1 = wnorm([&](size_t l) { return D(k, l); }) * erconst[k - 1];
        temp = 1.3 * std::pow(errkm1 / p.rtol, 1.0 / k);
        double hkm1 = temp > 0.1 ? step.absh / temp : 10 * step.absh;
        if (hkm1 > hopt) {
          hopt = hkm1;
          kopt = k - 1;
        }
      }
      if (k < maxk) {
        double errkp1 = wnorm([&](size_t l) { return D(k + 2, l); }) * erconst[k + 1];
        temp = 1.4 * std::pow(errkp1 / p.rtol, 1.0 / (k + 2));
        double hkp1 = temp > 0.1 ? step.absh / temp : 10 * step.absh;
        if (hkp1 > hopt) {
          hopt = hkp1;
          kopt = k + 1;
        }
      }
      if (hopt > step.absh) {
        step.absh = hopt;
        k = kopt;
      }
    }
    t = tnew;
    y = ynew;
    jcurrent = jconst;
  }
  return out.finish(nsteps, nfailed, npds, ndecomps, nsolves);
}
}  // namespace

void register_ode_stiff(Registry& r) {
  r.add("ode23s", bi_ode23s);
  r.add("ode15s", bi_ode15s);
}

}  // namespace matfuse::num
