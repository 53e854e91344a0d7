// Builtins of the "ode" family for nonstiff problems at stringent tolerances: ode113.
//
// ode113 is the variable-order (1 to 12) Adams-Bashforth-Moulton PECE method of L. F. Shampine
// and M. K. Gordon, "Computer Solution of Ordinary Differential Equations: The Initial Value
// Problem", W. H. Freeman 1975, ch. 10: subroutine STEP (modified divided differences phi,
// coefficients psi, alpha, beta, sigma, g; error estimates at orders k-2, k-1, k, k+1 choosing
// the next order; halving on the first two failures, order 1 on the third, the optimal step
// afterwards) and subroutine INTRP for output between steps. As in L. F. Shampine and
// M. W. Reichelt, "The MATLAB ODE Suite", SIAM J. Sci. Comput. 18 (1997) 1-22, the error is
// measured in the infinity norm weighted by max(|y|, |p|, AbsTol/RelTol) against RelTol, and
// MaxStep, the minimum step and the stretch to tfinal are the other solvers' (StepSize).
#include <algorithm>
#include <cmath>

#include "builtins/ode.h"

namespace matfuse::num {

namespace {
constexpr int kMaxOrder = 12;
/// gstar(k) of Shampine & Gordon: the error constants of the order-k Adams formulas.
constexpr double kGstar[13] = {0.5,    0.0833, 0.0417, 0.0264, 0.0188, 0.0143, 0.0114,
                               0.00936, 0.00789, 0.00679, 0.00592, 0.00524, 0.00468};
}  // namespace

void adams_interp(double t, const Vec& y, int k, const double* psi, const double* phi, double tau,
                  Vec& yout, Vec& ypout) {
  const size_t n = y.size();
  const int ki = k + 1;
  double hi = tau - t;
  double w[kMaxOrder + 2], g[kMaxOrder + 2], rho[kMaxOrder + 2];
  for (int i = 1; i <= ki; ++i) w[i] = 1.0 / i;
  g[1] = 1;
  rho[1] = 1;
  double term = 0;
  for (int j = 2; j <= ki; ++j) {
    double psijm1 = psi[j - 2];
    double gamma = (hi + term) / psijm1, eta = hi / psijm1;
    for (int i = 1; i <= ki + 1 - j; ++i) w[i] = gamma * w[i] - eta * w[i + 1];
    g[j] = w[1];
    rho[j] = gamma * rho[j - 1];
    term = psijm1;
  }
  yout.assign(n, 0.0);
  ypout.assign(n, 0.0);
  for (int j = 1; j <= ki; ++j) {
    int i = ki + 1 - j;
    for (size_t l = 0; l < n; ++l) {
      yout[l] += g[i] * phi[(i - 1) * n + l];
      ypout[l] += rho[i] * phi[(i - 1) * n + l];
    }
  }
  for (size_t l = 0; l < n; ++l) yout[l] = y[l] + hi * yout[l];
}

namespace {

/// [t, y, te, ye, ie] = ode113(odefun, tspan, y0, options, ...) | sol = ode113(...).
/// Same forms, options (RelTol, AbsTol, NormControl, MaxStep, InitialStep, Refine (default 1),
/// Events, OutputFcn, OutputSel, Stats) and errors as ode45.
Outputs bi_ode113(CallContext& ctx, Args args, int nargout) {
  check_nargout(nargout, 5);
  OdeProblem p = ode_setup(ctx, args, "ode113", 1);
  const size_t n = p.y0.size();
  const int np = kMaxOrder + 2;  // phi columns 1..k+2
  // Arrays are 1-based as in Shampine & Gordon.
  double psi[kMaxOrder + 2] = {}, alpha[kMaxOrder + 2] = {}, beta[kMaxOrder + 2] = {},
         sig[kMaxOrder + 3] = {}, v[kMaxOrder + 2] = {}, w[kMaxOrder + 2] = {},
         g[kMaxOrder + 3] = {};
  Vec phi(n * (np + 1), 0.0);
  auto PHI = [&](int col, size_t l) -> double& { return phi[col * n + l]; };
  double t = p.t0;
  Vec y = p.y0;
  Vec yp = p.f(t, y);
  OdeOutput out(p, nargout, kMaxOrder + 1, kMaxOrder + 1);
  StepSize step(p);
  // Norms of v ./ max(|y|, |pred|, thr) (2-norm ratio with NormControl).
  ErrorWeights weights(p);
  auto set_weights = [&](const Vec& a, const Vec& b) { weights.set(a, b); };
  auto wnorm = [&](auto&& elem) { return weights.norm(elem); };
  set_weights(y, y);
  step.init(wnorm([&](size_t l) { return yp[l]; }) / (0.25 * std::sqrt(p.rtol)));
  for (size_t l = 0; l < n; ++l) {
    PHI(1, l) = yp[l];
    PHI(2, l) = 0;
  }
  g[1] = 1;
  g[2] = 0.5;
  sig[1] = 1;
  int k = 1, kold = 0, ns = 0;
  double hold = 0;
  bool phase1 = true;
  const double p5eps = 0.5 * p.rtol;
  int64_t nsteps = 0, nfailed = 0;
  Vec pred(n), ynew(n), difp(n);
  while (true) {
    double h = step.start(t);
    int ifail = 0;
    double tnew = t, erk = 0, erkm1 = 0;
    int knew = k;
    while (true) {
      // Block 1: coefficients for the current step.
      const int kp1 = k + 1, kp2 = k + 2, km1 = k - 1, km2 = k - 2;
      if (h != hold) ns = 0;
      if (ns <= kold) ++ns;
      const int nsp1 = ns + 1;
      if (k >= ns) {
        beta[ns] = 1;
        alpha[ns] = 1.0 / ns;
        double temp1 = h * ns;
        sig[nsp1] = 1;
        for (int i = nsp1; i <= k; ++i) {
          double temp2 = psi[i - 1];
          psi[i - 1] = temp1;
          beta[i] = beta[i - 1] * psi[i - 1] / temp2;
          temp1 = temp2 + h;
          alpha[i] = h / temp1;
          sig[i + 1] = i * alpha[i] * sig[i];
        }
        psi[k] = temp1;
        if (ns <= 1) {
          for (int iq = 1; iq <= k; ++iq) {
            v[iq] = 1.0 / (iq * (iq + 1));
            w[iq] = v[iq];
          }
        } else {
          if (k > kold) {
            v[k] = 1.0 / (k * kp1);
            for (int j = 1; j <= ns - 2; ++j) {
              int i = k - j;
              v[i] -= alpha[j + 1] * v[i + 1];
            }
          }
          double temp5 = alpha[ns];
          for (int iq = 1; iq <= kp1 - ns; ++iq) {
            v[iq] -= temp5 * v[iq + 1];
            w[iq] = v[iq];
          }
          g[nsp1] = w[1];
        }
        for (int i = ns + 2; i <= kp1; ++i) {
          double temp6 = alpha[i - 1];
          for (int iq = 1; iq <= kp2 - i; ++iq) w[iq] -= temp6 * w[iq + 1];
          g[i] = w[1];
        }
      }
      // Block 2: predict, evaluate, estimate the errors at orders k, k-1, k-2.
      for (int i = nsp1; i <= k; ++i)
        for (size_t l = 0; l < n; ++l) PHI(i, l) *= beta[i];
      for (size_t l = 0; l < n; ++l) {
        PHI(kp2, l) = PHI(kp1, l);
        PHI(kp1, l) = 0;
        pred[l] = 0;
      }
      for (int j = 1; j <= k; ++j) {
        int i = kp1 - j;
        for (size_t l = 0; l < n; ++l) {
          pred[l] += g[i] * PHI(i, l);
          PHI(i, l) += PHI(i + 1, l);
        }
      }
      for (size_t l = 0; l < n; ++l) pred[l] = y[l] + h * pred[l];
      tnew = step.done ? p.tfinal : t + h;
      double absh = std::abs(h);
      yp = p.f(tnew, pred);
      for (size_t l = 0; l < n; ++l) difp[l] = yp[l] - PHI(1, l);
      set_weights(y, pred);
      double erkm2 = 0;
      erkm1 = 0;
      if (km2 > 0)
        erkm2 = absh * sig[km1] * kGstar[km2 - 1] *
                wnorm([&](size_t l) { return PHI(km1, l) + difp[l]; });
      if (km2 >= 0)
        erkm1 = absh * sig[k] * kGstar[km1 - 1] *
                wnorm([&](size_t l) { return PHI(k, l) + difp[l]; });
      double temp5 = absh * wnorm([&](size_t l) { return difp[l]; });
      double err = temp5 * (g[k] - g[kp1]);
      if (err <= p.rtol && !p.nonneg.empty()) {
        // The corrected value is close to the prediction: test its NonNegative components.
        err = std::max(err, p.nonneg_error(pred));
      }
      erk = temp5 * sig[kp1] * kGstar[k - 1];
      knew = k;
      if (km2 > 0) {
        if (std::max(erkm1, erkm2) <= erk) knew = km1;
      } else if (km2 == 0) {
        if (erkm1 <= 0.5 * erk) knew = km1;
      }
      if (err <= p.rtol) break;
      // Block 3: the step failed; restore phi and psi, reduce the step (and the order).
      ++nfailed;
      phase1 = false;
      for (int i = 1; i <= k; ++i)
        for (size_t l = 0; l < n; ++l) PHI(i, l) = (PHI(i, l) - PHI(i + 1, l)) / beta[i];
      for (int i = 2; i <= k; ++i) psi[i - 1] = psi[i] - h;
      if (!step.can_reduce(t)) return out.finish(nsteps, nfailed);
      ++ifail;
      double reduce = 0.5;
      if (ifail == 3) {
        knew = 1;
      } else if (ifail > 3) {
        if (p5eps < 0.25 * erk) reduce = std::sqrt(p5eps / erk);
        knew = 1;
      }
      step.absh = std::max(reduce * step.absh, step.hmin);
      step.done = false;
      h = p.tdir * step.absh;
      k = knew;
    }
    // Block 4: correct, evaluate, update the differences.
    const int kp1 = k + 1, kp2 = k + 2, km1 = k - 1;
    kold = k;
    hold = h;
    double temp1 = h * g[kp1];
    for (size_t l = 0; l < n; ++l) ynew[l] = pred[l] + temp1 * (yp[l] - PHI(1, l));
    p.project(ynew);
    yp = p.f(tnew, ynew);
    for (size_t l = 0; l < n; ++l) {
      PHI(kp1, l) = yp[l] - PHI(1, l);
      PHI(kp2, l) = PHI(kp1, l) - PHI(kp2, l);
    }
    for (int i = 1; i <= k; ++i)
      for (size_t l = 0; l < n; ++l) PHI(i, l) += PHI(kp1, l);
    ++nsteps;
    // Output and events on INTRP from the new point (phi columns 1..k+1, psi 1..k).
    Vec stages(n * (kMaxOrder + 1), 0.0);
    std::copy(phi.begin() + n, phi.begin() + n * (kp1 + 1), stages.begin());
    Vec aux(kMaxOrder + 1, 0.0);
    aux[0] = k;
    for (int i = 1; i <= k; ++i) aux[i] = psi[i];
    const double tend = tnew;
    const Vec yend = ynew;
    auto interp = [&, tend, yend](double tau) {
      Vec yo, ypo;
      adams_interp(tend, yend, static_cast<int>(aux[0]), aux.data() + 1, stages.data(), tau, yo,
                   ypo);
      return yo;
    };
    double hstep = tnew - t;
    if (out.step(t, y, tnew, ynew, stages, interp, hstep, aux) || step.done) break;
    // Order for the next step (raise in phase 1, else from the estimate at order k+1).
    double erkp1 = 0;
    if (knew == km1 || k == kMaxOrder) phase1 = false;
    enum { Raise, Lower, Keep } act = Keep;
    if (phase1) {
      act = Raise;
    } else if (knew == km1) {
      act = Lower;
    } else if (kp1 <= ns) {
      set_weights(y, ynew);
      erkp1 = std::abs(h) * kGstar[kp1 - 1] * wnorm([&](size_t l) { return PHI(kp2, l); });
      if (k == 1) {
        act = erkp1 >= 0.5 * erk ? Keep : Raise;
      } else if (erkm1 <= std::min(erk, erkp1)) {
        act = Lower;
      } else if (erkp1 >= erk || k == kMaxOrder) {
        act = Keep;
      } else {
        act = Raise;
      }
    }
    if (act == Raise) {
      k = kp1;
      erk = erkp1;
    } else if (act == Lower) {
      k = km1;
      erk = erkm1;
    }
    // Step size for the next step: double it while the error allows, else keep or shrink.
    {
      double absh = std::abs(h);
      if (phase1 || p5eps >= erk * std::pow(2.0, k + 1)) {
        step.absh = 2 * absh;
      } else if (p5eps >= erk) {
        step.absh = absh;
      } else {
        double r = std::pow(p5eps / erk, 1.0 / (k + 1));
        step.absh = std::max(absh * std::max(0.5, std::min(0.9, r)), step.hmin);
      }
    }
    t = tnew;
    y = ynew;
  }
  return out.finish(nsteps, nfailed);
}

}  // namespace

void register_ode_adams(Registry& r) { r.add("ode113", bi_ode113); }

}  // namespace matfuse::num
