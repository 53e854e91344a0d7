// Internal to the ODE family (ode.cc: explicit Runge-Kutta solvers, odeset/odeget, deval;
// ode_stiff.cc: Rosenbrock ode23s): the shared problem set-up, output collection and event
// location, so every solver returns MATLAB's output forms:
//   [t, y] = solver(odefun, tspan, y0, options, p1, p2, ...)   t: column, y: numel(t) x n
//   [t, y, te, ye, ie] = ...                                   events (te column, ye rows)
//   sol = solver(...)                                          struct for deval
#pragma once

#include <functional>
#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "builtins/numutil.h"

namespace matfuse::num {

/// The problem as the solvers see it: f(t, y) with the extra parameters, counters, options.
struct OdeProblem {
  CallContext* ctx = nullptr;
  std::string solver;  ///< "ode45", ...
  Value fn;            ///< odefun
  Value options;       ///< odeset struct or []
  std::vector<Value> extra;
  Vec tspan;
  Vec y0;
  Dims y0dims;
  double t0 = 0, tfinal = 0, tdir = 1;
  double rtol = 1e-3;
  Vec atol;  ///< per component
  bool normcontrol = false;
  double hmax = 0, h0 = 0;  ///< h0 = 0: automatic
  int refine = 1;
  Vec thr;  ///< error-weight floors AbsTol/RelTol (all max(AbsTol)/RelTol with NormControl)
  int64_t nfevals = 0;
  /// Complex initial conditions: the solvers integrate the real system [real(y); imag(y)]
  /// (2*ny values); ny is numel(y0).
  bool complex_y = false;
  size_t ny = 0;
  /// Mass option: a constant matrix (factored once) or a function M(t, y) ('weak'/'strong'
  /// MStateDependence) or M(t) ('none'); f returns M \ odefun(t, y).
  Value mass;
  bool mass_state = true;
  Vec mass_lu;
  std::vector<int> mass_piv;
  /// NonNegative option: 0-based components kept >= 0 (Shampine, Thompson, Kierzenka and
  /// Byrne, "Non-negative solutions of ODEs", Appl. Math. Comput. 170 (2005) 556-569).
  std::vector<size_t> nonneg;
  /// f(t, y) as a real column (numel(y0) values, or 2*numel(y0) for complex y0).
  Vec f(double t, const Vec& y);
  /// y as the column odefun and the event and output functions receive (complex for complex
  /// y0).
  Value column(const Vec& y) const;
  /// The NonNegative error of ynew (infinity norm of max(0, -ynew(i)) over the weights), 0 when
  /// every NonNegative component is >= 0.
  double nonneg_error(const Vec& ynew) const;
  /// Sets the negative NonNegative components of y to 0.
  void project(Vec& y) const;
};

/// Reads odefun, tspan, y0, options and extra parameters (args of solver) and the common
/// options (RelTol, AbsTol, NormControl, MaxStep, InitialStep, Refine with default_refine).
OdeProblem ode_setup(CallContext& ctx, Args args, const char* solver, int default_refine);

/// Weighted error norm of MATLAB's solvers: infinity norm of e ./ max(max(|y|,|ynew|), thr) or,
/// with NormControl, norm(e) / max(max(norm(y), norm(ynew)), thr).
double err_norm(const OdeProblem& p, const Vec& e, const Vec& y, const Vec& ynew);

/// The error weights of the multistep solvers (ode113, ode15s), set once per step and used for
/// many norms: max(|a|, |b|, thr) per component, or with NormControl max(norm(a), norm(b), thr);
/// norm(elem) is then err_norm's weighted norm of the vector whose component l is elem(l).
struct ErrorWeights {
  explicit ErrorWeights(const OdeProblem& p) : p_(p), wt_(p.y0.size()) {}
  void set(const Vec& a, const Vec& b) {
    const size_t n = wt_.size();
    if (p_.normcontrol) {
      double na = 0, nb = 0;
      for (size_t l = 0; l < n; ++l) {
        na += a[l] * a[l];
        nb += b[l] * b[l];
      }
      wscale_ = std::max(std::max(std::sqrt(na), std::sqrt(nb)), p_.thr[0]);
    } else {
      for (size_t l = 0; l < n; ++l)
        wt_[l] = std::max(std::max(std::abs(a[l]), std::abs(b[l])), p_.thr[l]);
    }
  }
  template <class F>
  double norm(F&& elem) const {
    const size_t n = wt_.size();
    double m = 0;
    if (p_.normcontrol) {
      for (size_t l = 0; l < n; ++l) m += elem(l) * elem(l);
      return std::sqrt(m) / wscale_;
    }
    for (size_t l = 0; l < n; ++l) {
      double a = std::abs(elem(l)) / wt_[l];
      if (a > m || std::isnan(a)) m = a;
    }
    return m;
  }

private:
  const OdeProblem& p_;
  Vec wt_;
  double wscale_ = 1;
};

/// Step-size bookkeeping shared by every solver (Shampine & Reichelt 1997, section 2: the
/// minimum step 16*eps(t), MaxStep, stretching the last step to tfinal, the warning when the
/// tolerances cannot be met at the minimum step, and the explicit pairs' step-ratio rule).
struct StepSize {
  explicit StepSize(const OdeProblem& p) : p_(p) {}
  double absh = 0;   ///< |h| of the step being tried
  double hmin = 0;   ///< 16*eps(t) at the current t
  bool done = false; ///< the step being tried ends at tfinal
  /// Initial |h|: InitialStep when given, else min(MaxStep, |tfinal - t0|) cut to 1/rh, at least
  /// hmin (rh: the solver's estimate of the inverse of a step that meets the tolerance).
  void init(double rh);
  /// Start of a step at t: clamps absh to [hmin, MaxStep] and stretches a step that comes within
  /// 10% of tfinal to end there (sets done). Returns the signed h.
  double start(double t);
  /// Called at a rejected step: false (after warning `MATLAB:<solver>:IntegrationTolNotMet`) when
  /// absh is already hmin and the integration must stop at t.
  bool can_reduce(double t) const;
  /// Rejected step with error err: the first failure scales absh by
  /// max(floor, 0.8*(RelTol/err)^pow), later ones halve it; never below hmin.
  void reject(double err, bool& nofailed, double pow, double floor);
  /// After a step accepted without failure: absh / (1.25*(err/RelTol)^pow), at most 5*absh.
  void grow(double err, double pow);

private:
  const OdeProblem& p_;
};

/// Collects outputs, handles the OutputFcn and events, and builds the return values.
class OdeOutput {
public:
  /// interp(tau, stage data) gives y at tau in [t, tnew] for the step just taken.
  using Interp = std::function<Vec(double)>;
  /// naux: solver data kept per step for deval besides the stages (sol.idata.aux columns).
  OdeOutput(OdeProblem& p, int nargout, int nstages_stored, int naux = 0);
  /// Call after an accepted step from (t, y) to (tnew, ynew); stages (n x nstages_stored,
  /// column-major) and aux (naux values) are stored for sol/deval. Returns true when integration must stop (terminal
  /// event or OutputFcn stop); then tnew/ynew are moved to the event point.
  bool step(double t, const Vec& y, double& tnew, Vec& ynew, const Vec& stages,
            const Interp& interp, double h, const Vec& aux = {});
  /// Final outputs (prints Stats when requested).
  Outputs finish(int64_t nsteps, int64_t nfailed, int64_t npds = 0, int64_t ndecomps = 0,
                 int64_t nsolves = 0);

private:
  void emit(const std::vector<double>& ts, const std::vector<Vec>& ys);
  OdeProblem& p_;
  int nargout_;
  int nst_, naux_;
  bool sol_mode_, many_points_;
  size_t next_ = 1;  // next tspan index (many_points_)
  std::vector<double> tout_;
  std::vector<Vec> yout_;
  // sol struct data
  std::vector<double> solx_;
  std::vector<Vec> soly_;
  Vec f3d_;
  Vec aux_;
  // events
  Value events_, outfcn_;
  Vec outsel_;
  Vec ev_val_;
  std::vector<double> te_;
  std::vector<Vec> ye_;
  std::vector<double> ie_;
};

/// dfdy at (t, y) with f0 = f(t, y) (n x n, column-major): options.Jacobian (a matrix or a
/// function J(t, y, ...)) or forward differences with increments sqrt(eps)*max(|y_j|, thr_j).
/// Counts npds. Errors: MATLAB:odearguments:SizeJacobian.
Vec ode_jacobian(OdeProblem& p, double t, const Vec& y, const Vec& f0, int64_t& npds);

/// ode113's interpolant (Shampine & Gordon's INTRP) at tau from the step's end point (t, y),
/// its order k, psi (k-1 values used) and modified divided differences phi (n x k, column-major).
/// yp: the derivative there.
void adams_interp(double t, const Vec& y, int k, const double* psi, const double* phi, double tau,
                  Vec& yout, Vec& ypout);
/// ode15s's interpolant at tau from the step's end point (tnew, ynew), step h, order k and the
/// backward differences dif (n x k, column-major). yp: the derivative there.
void ndf_interp(double tnew, const Vec& ynew, double h, int k, const double* dif, double tau,
                Vec& yout, Vec& ypout);

/// Registration of ode_stiff.cc (ode23s, ode15s) and ode_adams.cc (ode113).
void register_ode_stiff(Registry& r);
void register_ode_adams(Registry& r);

}  // namespace matfuse::num
