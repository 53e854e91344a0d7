// Internal to the ODE family (ode.cc: explicit Runge-Kutta solvers, odeset/odeget, deval;
// ode_stiff.cc: Rosenbrock ode23s): the shared problem set-up, output collection and event
// location, so every solver returns MATLAB's output forms:
//   [t, y] = solver(odefun, tspan, y0, options, p1, p2, ...)   t: column, y: numel(t) x n
//   [t, y, te, ye, ie] = ...                                   events (te column, ye rows)
//   sol = solver(...)                                          struct for deval
#pragma once

#include <functional>
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
  int64_t nfevals = 0;
  /// f(t, y) as a real column of numel(y0) values.
  Vec f(double t, const Vec& y);
};

/// Reads odefun, tspan, y0, options and extra parameters (args of solver) and the common
/// options (RelTol, AbsTol, NormControl, MaxStep, InitialStep, Refine with default_refine).
OdeProblem ode_setup(CallContext& ctx, Args args, const char* solver, int default_refine);

/// Collects outputs, handles the OutputFcn and events, and builds the return values.
class OdeOutput {
public:
  /// interp(tau, stage data) gives y at tau in [t, tnew] for the step just taken.
  using Interp = std::function<Vec(double)>;
  OdeOutput(OdeProblem& p, int nargout, int nstages_stored);
  /// Call after an accepted step from (t, y) to (tnew, ynew); stages (n x nstages_stored,
  /// column-major) are stored for sol/deval. Returns true when integration must stop (terminal
  /// event or OutputFcn stop); then tnew/ynew are moved to the event point.
  bool step(double t, const Vec& y, double& tnew, Vec& ynew, const Vec& stages,
            const Interp& interp, double h);
  /// Final outputs (prints Stats when requested).
  Outputs finish(int64_t nsteps, int64_t nfailed, int64_t npds = 0, int64_t ndecomps = 0,
                 int64_t nsolves = 0);

private:
  void emit(const std::vector<double>& ts, const std::vector<Vec>& ys);
  OdeProblem& p_;
  int nargout_;
  int nst_;
  bool sol_mode_, many_points_;
  size_t next_ = 1;  // next tspan index (many_points_)
  std::vector<double> tout_;
  std::vector<Vec> yout_;
  // sol struct data
  std::vector<double> solx_;
  std::vector<Vec> soly_;
  Vec f3d_;
  // events
  Value events_, outfcn_;
  Vec outsel_;
  Vec ev_val_;
  std::vector<double> te_;
  std::vector<Vec> ye_;
  std::vector<double> ie_;
};

/// Registration of ode_stiff.cc (ode23s).
void register_ode_stiff(Registry& r);

}  // namespace matfuse::num
