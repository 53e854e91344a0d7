// Builtins of the "ode" family: ode45, ode23 (explicit Runge-Kutta pairs), odeset, odeget,
// deval, and the output/event machinery shared with ode_stiff.cc.
//
// Algorithms:
// - ode45: the Dormand-Prince 5(4) FSAL pair, J. R. Dormand and P. J. Prince, "A family of
//   embedded Runge-Kutta formulae", J. Comp. Appl. Math. 6 (1980) 19-26, with the continuous
//   extension and error control of L. F. Shampine and M. W. Reichelt, "The MATLAB ODE Suite",
//   SIAM J. Sci. Comput. 18 (1997) 1-22 (error per unit step in the infinity norm weighted by
//   max(|y|, |ynew|, AbsTol/RelTol), step ratio 0.8*(RelTol/err)^(1/5) clipped to [0.1, 5];
//   Refine = 4 output points per step by default).
// - ode23: the Bogacki-Shampine 3(2) FSAL pair, P. Bogacki and L. F. Shampine, "A 3(2) pair of
//   Runge-Kutta formulas", Appl. Math. Lett. 2 (1989) 321-325, with its cubic Hermite-equivalent
//   interpolant and the same error control (exponent 1/3).
// - Events are located on the step's continuous extension by the Illinois variant of
//   regula falsi (M. Dowell and P. Jarratt, BIT 11 (1971) 168-174).
#include "builtins/ode.h"

#include <algorithm>
#include <cmath>
#include <complex>
#include <limits>
#include <ostream>

#include "runtime/session.h"

namespace matfuse::num {

namespace {
constexpr double kEps = std::numeric_limits<double>::epsilon();
double eps_of(double x) { return std::nextafter(std::abs(x), INFINITY) - std::abs(x); }
}  // namespace

// ---------------------------------------------------------------------------------------------
// Problem set-up

Value OdeProblem::column(const Vec& y) const {
  if (!complex_y) return Value(colvec(y));
  Tensor c = Tensor::uninit(ClassId::Double, Dims(static_cast<int64_t>(ny), 1), true);
  for (size_t i = 0; i < ny; ++i) c.set_complex(static_cast<int64_t>(i), {y[i], y[i + ny]});
  return Value(c);
}

Vec OdeProblem::f(double t, const Vec& y) {
  std::vector<Value> a{Value(t), column(y)};
  a.insert(a.end(), extra.begin(), extra.end());
  Value r = callf(*ctx, fn, std::move(a), 1)[0];
  ++nfevals;
  if (!r.is_tensor())
    throw_error("MATLAB:odearguments:FoMustReturnCol", "%s must return a column vector.",
                fn_text(fn).c_str());
  if (r.numel() != static_cast<int64_t>(ny))
    throw_error("MATLAB:odearguments:SizeIC",
                "%s returns a vector of length %lld, but the length of initial conditions vector "
                "is %lld. The vector returned by %s and the initial conditions vector must have "
                "the same number of elements.",
                fn_text(fn).c_str(), static_cast<long long>(r.numel()),
                static_cast<long long>(ny), fn_text(fn).c_str());
  Vec out;
  if (complex_y) {
    Tensor rt = r.tensor();
    out.resize(2 * ny);
    for (size_t i = 0; i < ny; ++i) {
      std::complex<double> z = rt.get_complex(static_cast<int64_t>(i));
      out[i] = z.real();
      out[i + ny] = z.imag();
    }
  } else {
    out = reals(r, solver.c_str(), "function value");
  }
  if (!absent(mass)) {
    const int m = static_cast<int>(ny);
    Vec lu = mass_lu;
    std::vector<int> piv = mass_piv;
    if (lu.empty()) {
      std::vector<Value> ma{Value(t)};
      if (mass_state) ma.push_back(column(y));
      ma.insert(ma.end(), extra.begin(), extra.end());
      lu = reals(callf(*ctx, mass, ma, 1)[0], solver.c_str(), "mass matrix");
      if (lu.size() != ny * ny)
        throw_error("MATLAB:odearguments:MassMatrixSize",
                    "The mass matrix must be %zu-by-%zu.", ny, ny);
      piv.assign(ny, 0);
      if (!lu_factor(lu, piv, m))
        throw_error("MATLAB:odearguments:MassSingular", "The mass matrix is singular; "
                    "differential-algebraic problems are not supported yet.");
    }
    for (size_t part = 0; part < (complex_y ? 2u : 1u); ++part) {
      Vec b(out.begin() + part * ny, out.begin() + (part + 1) * ny);
      lu_solve(lu, piv, m, b);
      std::copy(b.begin(), b.end(), out.begin() + part * ny);
    }
  }
  for (size_t i : nonneg)
    if (y[i] <= 0) out[i] = std::max(out[i], 0.0);
  return out;
}

double OdeProblem::nonneg_error(const Vec& ynew) const {
  double e = 0;
  for (size_t i : nonneg)
    if (ynew[i] < 0) e = std::max(e, -ynew[i] / thr[i]);
  return e;
}

void OdeProblem::project(Vec& y) const {
  for (size_t i : nonneg)
    if (y[i] < 0) y[i] = 0;
}

OdeProblem ode_setup(CallContext& ctx, Args args, const char* solver, int default_refine) {
  if (args.size() < 3) throw_error("MATLAB:minrhs", "Not enough input arguments.");
  OdeProblem p;
  p.ctx = &ctx;
  p.solver = solver;
  p.fn = args[0];
  if (!p.fn.is_function() && !p.fn.is_text())
    throw_error("MATLAB:odearguments:InvalidFcn",
                "The first input to %s must be a function handle.", solver);
  p.tspan = reals(args[1], solver, "time span");
  if (args[2].is_tensor() && !args[2].is_char() && args[2].tensor().is_complex()) {
    // Complex y0: integrate [real(y); imag(y)].
    Tensor c = args[2].tensor();
    p.complex_y = true;
    p.ny = static_cast<size_t>(c.numel());
    p.y0.resize(2 * p.ny);
    for (size_t i = 0; i < p.ny; ++i) {
      std::complex<double> z = c.get_complex(static_cast<int64_t>(i));
      p.y0[i] = z.real();
      p.y0[i + p.ny] = z.imag();
    }
  } else {
    p.y0 = reals(args[2], solver, "initial conditions");
    p.ny = p.y0.size();
  }
  p.y0dims = args[2].dims();
  // A fourth argument that is not an odeset struct (or []) starts the extra parameters.
  size_t first_extra = 3;
  if (args.size() > 3 && (args[3].is_struct() || absent(args[3]))) {
    p.options = args[3];
    first_extra = 4;
  }
  for (size_t i = first_extra; i < args.size(); ++i) p.extra.push_back(args[i]);
  if (p.tspan.size() < 2)
    throw_error("MATLAB:odearguments:SizeTspan", "The vector tspan must have at least two "
                "elements.");
  p.t0 = p.tspan.front();
  p.tfinal = p.tspan.back();
  if (p.t0 == p.tfinal)
    throw_error("MATLAB:odearguments:TspanEndpointsNotDistinct",
                "The last entry in tspan must be different from the first entry.");
  p.tdir = p.tfinal > p.t0 ? 1.0 : -1.0;
  for (size_t i = 1; i < p.tspan.size(); ++i)
    if (p.tdir * (p.tspan[i] - p.tspan[i - 1]) <= 0)
      throw_error("MATLAB:odearguments:TspanNotMonotonic",
                  "The entries in tspan must strictly increase or decrease.");
  const Value& o = p.options;
  p.rtol = opt_double(o, "RelTol", 1e-3);
  if (!(p.rtol > 0))
    throw_error("MATLAB:odearguments:RelTolNotPos", "RelTol must be a positive scalar.");
  if (p.rtol < 100 * kEps) {
    p.rtol = 100 * kEps;
    warn(ctx, "MATLAB:odearguments:RelTolIncrease",
         "RelTol has been increased to " + std::to_string(p.rtol) + ".");
  }
  Value at = opt(o, "AbsTol");
  size_t n = p.ny;
  if (absent(at)) {
    p.atol.assign(n, 1e-6);
  } else {
    Vec a = reals(at, solver, "AbsTol");
    if (a.size() != 1 && a.size() != n)
      throw_error("MATLAB:odearguments:SizeAbsTol",
                  "Solving %s requires a scalar AbsTol, or a vector AbsTol of length %zu.",
                  fn_text(p.fn).c_str(), n);
    for (double v : a)
      if (!(v > 0))
        throw_error("MATLAB:odearguments:AbsTolNotPos", "AbsTol must be positive.");
    p.atol = a.size() == 1 ? Vec(n, a[0]) : a;
  }
  if (p.complex_y) p.atol.insert(p.atol.end(), p.atol.begin(), p.atol.end());
  n = p.y0.size();
  p.normcontrol = opt_text(o, "NormControl", "off") == "on";
  double span = std::abs(p.tfinal - p.t0);
  p.hmax = std::min(span, opt_double(o, "MaxStep", 0.1 * span));
  if (!(p.hmax > 0))
    throw_error("MATLAB:odearguments:MaxStepLEzero", "MaxStep must be greater than zero.");
  p.h0 = opt_double(o, "InitialStep", 0);
  if (p.h0 < 0)
    throw_error("MATLAB:odearguments:InitialStepLEzero", "InitialStep must be greater than "
                "zero.");
  p.refine = static_cast<int>(opt_double(o, "Refine", default_refine));
  if (p.refine < 1) p.refine = 1;
  p.thr.resize(n);
  for (size_t i = 0; i < n; ++i) p.thr[i] = p.atol[i] / p.rtol;
  if (p.normcontrol) {
    double m = 0;
    for (double a : p.atol) m = std::max(m, a);
    p.thr.assign(n, m / p.rtol);
  }
  p.mass = opt(o, "Mass");
  if (!absent(p.mass)) {
    if (opt_text(o, "MassSingular", "maybe") == "yes")
      throw_error("matfuse:notSupported", "%s: singular mass matrices (differential-algebraic "
                  "equations) are not supported yet.", solver);
    p.mass_state = opt_text(o, "MStateDependence", "weak") != "none";
    if (!(p.mass.is_function() || p.mass.is_text())) {
      p.mass_lu = reals(p.mass, solver, "mass matrix");
      if (p.mass_lu.size() != p.ny * p.ny)
        throw_error("MATLAB:odearguments:MassMatrixSize", "The mass matrix must be %zu-by-%zu.",
                    p.ny, p.ny);
      p.mass_piv.assign(p.ny, 0);
      if (!lu_factor(p.mass_lu, p.mass_piv, static_cast<int>(p.ny)))
        throw_error("MATLAB:odearguments:MassSingular", "The mass matrix is singular; "
                    "differential-algebraic problems are not supported yet.");
    }
  }
  Value nn = opt(o, "NonNegative");
  if (!absent(nn)) {
    if (p.complex_y)
      throw_error("MATLAB:odenonnegative:NonNegativeComplex",
                  "The NonNegative option cannot be used with complex initial conditions.");
    for (double v : reals(nn, solver, "NonNegative")) {
      if (!(v >= 1 && v <= static_cast<double>(p.ny) && v == std::floor(v)))
        throw_error("MATLAB:odenonnegative:NonNegativeIndicesInvalid",
                    "The NonNegative option must be a vector of integer indices between 1 and "
                    "%zu.", p.ny);
      p.nonneg.push_back(static_cast<size_t>(v) - 1);
    }
  }
  return p;
}

double err_norm(const OdeProblem& p, const Vec& e, const Vec& y, const Vec& ynew) {
  const Vec& thr = p.thr;
  if (p.normcontrol) {
    double ne = 0, ny = 0, nn = 0;
    for (size_t i = 0; i < e.size(); ++i) {
      ne += e[i] * e[i];
      ny += y[i] * y[i];
      nn += ynew[i] * ynew[i];
    }
    return std::sqrt(ne) / std::max(std::max(std::sqrt(ny), std::sqrt(nn)), thr[0]);
  }
  double m = 0;
  for (size_t i = 0; i < e.size(); ++i) {
    double w = std::max(std::max(std::abs(y[i]), std::abs(ynew[i])), thr[i]);
    double a = std::abs(e[i]) / w;
    if (a > m || std::isnan(a)) m = a;
  }
  return m;
}

// ---------------------------------------------------------------------------------------------
// Step size

void StepSize::init(double rh) {
  hmin = 16 * eps_of(p_.t0);
  if (p_.h0 > 0) {
    absh = std::min(p_.hmax, p_.h0);
    return;
  }
  absh = std::min(p_.hmax, std::abs(p_.tfinal - p_.t0));
  if (absh * rh > 1) absh = 1 / rh;
  absh = std::max(absh, hmin);
}

double StepSize::start(double t) {
  hmin = 16 * eps_of(t);
  absh = std::min(p_.hmax, std::max(hmin, absh));
  double h = p_.tdir * absh;
  done = false;
  if (1.1 * absh >= std::abs(p_.tfinal - t)) {
    h = p_.tfinal - t;
    absh = std::abs(h);
    done = true;
  }
  return h;
}

bool StepSize::can_reduce(double t) const {
  if (absh > hmin) return true;
  char buf[240];
  std::snprintf(buf, sizeof buf,
                "Failure at t=%e.  Unable to meet integration tolerances without reducing the "
                "step size below the smallest value allowed (%e) at time t.",
                t, hmin);
  warn(*p_.ctx, ("MATLAB:" + p_.solver + ":IntegrationTolNotMet").c_str(), buf);
  return false;
}

void StepSize::reject(double err, bool& nofailed, double pow, double floor) {
  if (nofailed) {
    nofailed = false;
    absh = std::max(hmin, absh * std::max(floor, 0.8 * std::pow(p_.rtol / err, pow)));
  } else {
    absh = std::max(hmin, 0.5 * absh);
  }
  done = false;
}

void StepSize::grow(double err, double pow) {
  double temp = 1.25 * std::pow(err / p_.rtol, pow);
  absh = temp > 0.2 ? absh / temp : 5.0 * absh;
}

// ---------------------------------------------------------------------------------------------
// Output collection

OdeOutput::OdeOutput(OdeProblem& p, int nargout, int nst, int naux)
    : p_(p), nargout_(nargout), nst_(nst), naux_(naux) {
  sol_mode_ = nargout == 1;
  many_points_ = p.tspan.size() > 2;
  events_ = opt(p.options, "Events");
  outfcn_ = opt(p.options, "OutputFcn");
  Value os = opt(p.options, "OutputSel");
  if (!absent(os)) outsel_ = reals(os, p.solver.c_str(), "OutputSel");
  if (sol_mode_) {
    solx_.push_back(p.t0);
    soly_.push_back(p.y0);
  } else {
    tout_.push_back(p.t0);
    yout_.push_back(p.y0);
  }
  if (!absent(events_)) {
    std::vector<Value> a{Value(p.t0), p.column(p.y0)};
    a.insert(a.end(), p.extra.begin(), p.extra.end());
    ev_val_ = reals(callf(*p.ctx, events_, a, 3)[0], p.solver.c_str(), "event value");
  }
  if (!absent(outfcn_)) {
    Vec ts = many_points_ ? p.tspan : Vec{p.t0, p.tfinal};
    Value y0 = p.column(p.y0);
    if (!outsel_.empty()) {
      Tensor full = y0.tensor();
      Tensor sel = Tensor::uninit(ClassId::Double, Dims(static_cast<int64_t>(outsel_.size()), 1),
                                  full.is_complex());
      for (size_t q = 0; q < outsel_.size(); ++q)
        sel.set_complex(static_cast<int64_t>(q),
                        full.get_complex(static_cast<int64_t>(outsel_[q]) - 1));
      y0 = Value(sel.is_complex() ? sel : sel.drop_zero_imag());
    }
    std::vector<Value> a{Value(rowvec(ts)), y0, Value::from_chars("init")};
    a.insert(a.end(), p.extra.begin(), p.extra.end());
    p.ctx->call(outfcn_, Args(a.data(), a.size()), 0);
  }
}

void OdeOutput::emit(const std::vector<double>& ts, const std::vector<Vec>& ys) {
  for (size_t i = 0; i < ts.size(); ++i) {
    tout_.push_back(ts[i]);
    yout_.push_back(ys[i]);
  }
}

bool OdeOutput::step(double t, const Vec& y, double& tnew, Vec& ynew, const Vec& stages,
                     const Interp& interp, double h, const Vec& aux) {
  bool stop = false;
  // Events: sign changes of value(i) over the step, located on the interpolant.
  if (!absent(events_)) {
    auto evcall = [&](double tau, const Vec& yy, Vec* term, Vec* dir) {
      std::vector<Value> a{Value(tau), p_.column(yy)};
      a.insert(a.end(), p_.extra.begin(), p_.extra.end());
      Outputs o = callf(*p_.ctx, events_, a, 3);
      if (term) *term = reals(o[1], p_.solver.c_str(), "isterminal");
      if (dir) *dir = reals(o[2], p_.solver.c_str(), "direction");
      return reals(o[0], p_.solver.c_str(), "event value");
    };
    Vec term, dir;
    Vec vnew = evcall(tnew, ynew, &term, &dir);
    struct Hit {
      double t;
      Vec y;
      size_t i;
    };
    std::vector<Hit> hits;
    for (size_t i = 0; i < vnew.size() && i < ev_val_.size(); ++i) {
      double v0 = ev_val_[i], v1 = vnew[i];
      double d = i < dir.size() ? dir[i] : 0;
      bool up = v0 < 0 && v1 >= 0, down = v0 > 0 && v1 <= 0;
      if (!((up && d >= 0) || (down && d <= 0))) continue;
      // Illinois regula falsi on [lo, hi]; hi is kept on the far side of the crossing.
      double lo = t, hi = tnew, glo = v0, ghi = v1;
      double tol = std::min(128 * std::max(eps_of(t), eps_of(tnew)), std::abs(tnew - t));
      int side = 0;
      for (int it = 0; it < 200 && std::abs(hi - lo) > tol && ghi != 0; ++it) {
        double c = hi - ghi * (hi - lo) / (ghi - glo);
        if (!(p_.tdir * (c - lo) > 0 && p_.tdir * (hi - c) > 0)) c = 0.5 * (lo + hi);
        double gc = evcall(c, interp(c), nullptr, nullptr)[i];
        if ((gc < 0) == (ghi < 0) && gc != 0) {
          hi = c;
          ghi = gc;
          if (side == 1) glo *= 0.5;
          side = 1;
        } else {
          lo = c;
          glo = gc;
          if (side == -1) ghi *= 0.5;
          side = -1;
          if (gc == 0) {
            hi = c;
            break;
          }
        }
      }
      hits.push_back({hi, hi == tnew ? ynew : interp(hi), i});
    }
    std::stable_sort(hits.begin(), hits.end(),
                     [&](const Hit& a, const Hit& b) { return p_.tdir * (a.t - b.t) < 0; });
    for (const Hit& hh : hits) {
      te_.push_back(hh.t);
      ye_.push_back(hh.y);
      ie_.push_back(static_cast<double>(hh.i + 1));
      if (hh.i < term.size() && term[hh.i] != 0) {
        stop = true;
        tnew = hh.t;
        ynew = hh.y;
        break;
      }
    }
    ev_val_ = stop ? evcall(tnew, ynew, nullptr, nullptr) : vnew;
  }
  std::vector<double> ts;
  std::vector<Vec> ys;
  if (sol_mode_) {
    solx_.push_back(tnew);
    soly_.push_back(ynew);
    f3d_.insert(f3d_.end(), stages.begin(), stages.end());
    f3d_.push_back(h);  // the step the stages belong to (a terminal event shortens x(k+1))
    for (int q = 0; q < naux_; ++q) aux_.push_back(q < static_cast<int>(aux.size()) ? aux[q] : 0);
    ts.push_back(tnew);
    ys.push_back(ynew);
  } else if (many_points_) {
    while (next_ < p_.tspan.size() && p_.tdir * (tnew - p_.tspan[next_]) >= 0) {
      double tt = p_.tspan[next_++];
      ts.push_back(tt);
      ys.push_back(tt == tnew ? ynew : interp(tt));
    }
    if (stop) {
      ts.push_back(tnew);
      ys.push_back(ynew);
    }
    emit(ts, ys);
  } else {
    for (int j = 1; j < p_.refine; ++j) {
      double tt = t + (tnew - t) * j / p_.refine;
      ts.push_back(tt);
      ys.push_back(interp(tt));
    }
    ts.push_back(tnew);
    ys.push_back(ynew);
    emit(ts, ys);
  }
  if (!absent(outfcn_) && !ts.empty()) {
    size_t m = outsel_.empty() ? p_.ny : outsel_.size();
    Tensor ym = Tensor::uninit(ClassId::Double, Dims(static_cast<int64_t>(m),
                                                     static_cast<int64_t>(ts.size())),
                               p_.complex_y);
    for (size_t q = 0; q < ys.size(); ++q) {
      Tensor col = p_.column(ys[q]).tensor();
      for (size_t k = 0; k < m; ++k) {
        int64_t src = outsel_.empty() ? static_cast<int64_t>(k)
                                      : static_cast<int64_t>(outsel_[k]) - 1;
        ym.set_complex(static_cast<int64_t>(q * m + k), col.get_complex(src));
      }
    }
    std::vector<Value> a{Value(rowvec(ts)), Value(ym), Value::from_chars("")};
    a.insert(a.end(), p_.extra.begin(), p_.extra.end());
    Outputs o = p_.ctx->call(outfcn_, Args(a.data(), a.size()), 1);
    if (!o.empty() && o[0].is_tensor() && !o[0].is_empty() && o[0].truthy()) stop = true;
  }
  (void)y;
  return stop;
}

Outputs OdeOutput::finish(int64_t nsteps, int64_t nfailed, int64_t npds, int64_t ndecomps,
                          int64_t nsolves) {
  if (!absent(outfcn_)) {
    std::vector<Value> a{Value(), Value(), Value::from_chars("done")};
    a.insert(a.end(), p_.extra.begin(), p_.extra.end());
    p_.ctx->call(outfcn_, Args(a.data(), a.size()), 0);
  }
  bool stiff = p_.solver == "ode23s" || p_.solver == "ode15s";
  if (opt_text(p_.options, "Stats", "off") == "on") {
    std::ostream& os = *p_.ctx->session().out;
    os << nsteps << " successful steps\n" << nfailed << " failed attempts\n"
       << p_.nfevals << " function evaluations\n";
    if (stiff)
      os << npds << " partial derivatives\n" << ndecomps << " LU decompositions\n" << nsolves
         << " solutions of linear systems\n";
  }
  const int64_t n = static_cast<int64_t>(p_.ny);
  const bool cx = p_.complex_y;
  auto elem = [&](const Vec& y, int64_t j) {
    return cx ? std::complex<double>(y[j], y[j + n]) : std::complex<double>(y[j], 0.0);
  };
  auto rows = [&](const std::vector<Vec>& ys) {  // k x n, one row per point
    int64_t k = static_cast<int64_t>(ys.size());
    Tensor t = Tensor::uninit(ClassId::Double, Dims(k, n), cx);
    for (int64_t i = 0; i < k; ++i)
      for (int64_t j = 0; j < n; ++j) {
        if (cx) t.set_complex(j * k + i, elem(ys[i], j));
        else t.set_double(j * k + i, ys[i][j]);
      }
    return t;
  };
  auto cols = [&](const std::vector<Vec>& ys) {  // n x k, one column per point
    int64_t k = static_cast<int64_t>(ys.size());
    Tensor t = Tensor::uninit(ClassId::Double, Dims(k ? n : 0, k), cx);
    for (int64_t i = 0; i < k; ++i)
      for (int64_t j = 0; j < n; ++j) {
        if (cx) t.set_complex(i * n + j, elem(ys[i], j));
        else t.set_double(i * n + j, ys[i][j]);
      }
    return t;
  };
  bool haveev = !absent(events_);
  if (sol_mode_) {
    int64_t k = static_cast<int64_t>(solx_.size());
    Tensor Y = cols(soly_);
    std::vector<std::pair<std::string, Value>> f;
    f.emplace_back("solver", Value::from_chars(p_.solver));
    CellArray va(Dims(1, static_cast<int64_t>(p_.extra.size())));
    for (size_t i = 0; i < p_.extra.size(); ++i) va.at(static_cast<int64_t>(i)) = p_.extra[i];
    f.emplace_back("extdata", make_struct({{"odefun", p_.fn},
                                           {"options", p_.options},
                                           {"varargin", Value(va)}}));
    f.emplace_back("x", Value(rowvec(solx_)));
    f.emplace_back("y", Value(Y));
    if (haveev) {
      f.emplace_back("xe", Value(rowvec(te_)));
      f.emplace_back("ye", Value(cols(ye_)));
      f.emplace_back("ie", Value(rowvec(ie_)));
    }
    f.emplace_back("stats", make_struct({{"nsteps", Value(double(nsteps))},
                                         {"nfailed", Value(double(nfailed))},
                                         {"nfevals", Value(double(p_.nfevals))},
                                         {"npds", Value(double(npds))},
                                         {"ndecomps", Value(double(ndecomps))},
                                         {"nsolves", Value(double(nsolves))}}));
    // idata.f3d: n x nstages x (numel(x)-1) stage values of the real system (2n rows for
    // complex y0); idata.h: the step of each.
    int64_t ns = k - 1;
    const int64_t nr = static_cast<int64_t>(p_.y0.size());
    Tensor F = Tensor::uninit(ClassId::Double, Dims({nr, static_cast<int64_t>(nst_), ns}));
    Vec hs;
    size_t per = static_cast<size_t>(nr * nst_) + 1;
    for (int64_t s = 0; s < ns; ++s) {
      for (size_t q = 0; q + 1 < per; ++q)
        F.set_double(s * static_cast<int64_t>(per - 1) + static_cast<int64_t>(q),
                     f3d_[s * per + q]);
      hs.push_back(f3d_[s * per + per - 1]);
    }
    std::vector<std::pair<std::string, Value>> id{{"f3d", Value(F)}, {"h", Value(rowvec(hs))}};
    if (naux_ > 0) id.emplace_back("aux", Value(matrix(naux_, ns, aux_)));
    f.emplace_back("idata", make_struct(id));
    return {make_struct(f)};
  }
  if (nargout_ == 0) return {};
  Outputs out{Value(colvec(tout_)), Value(rows(yout_))};
  if (nargout_ > 2) {
    out.push_back(Value(colvec(te_)));
    Value ye = ye_.empty() ? Value(Tensor::zeros(ClassId::Double, Dims(0, haveev ? n : 0)))
                           : Value(rows(ye_));
    if (!haveev) ye = Value();
    out.push_back(haveev ? ye : Value());
    out.push_back(Value(colvec(ie_)));
    if (!haveev) out[2] = out[4] = Value();
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// Explicit Runge-Kutta pairs

namespace {

struct RKPair {
  const char* name;
  int s;                        ///< stages including the FSAL stage at tnew
  std::vector<double> c;        ///< nodes of stages 2..s-1
  std::vector<Vec> a;           ///< rows of stages 2..s (the last row gives ynew)
  Vec e;                        ///< error weights (s)
  std::vector<Vec> bi;          ///< s x q interpolation matrix rows
  double pow;                   ///< 1/order for step control
  int refine;                   ///< default Refine
};

const RKPair& dp45() {
  static const RKPair p{
      "ode45", 7,
      {1.0 / 5, 3.0 / 10, 4.0 / 5, 8.0 / 9, 1.0},
      {{1.0 / 5},
       {3.0 / 40, 9.0 / 40},
       {44.0 / 45, -56.0 / 15, 32.0 / 9},
       {19372.0 / 6561, -25360.0 / 2187, 64448.0 / 6561, -212.0 / 729},
       {9017.0 / 3168, -355.0 / 33, 46732.0 / 5247, 49.0 / 176, -5103.0 / 18656},
       {35.0 / 384, 0, 500.0 / 1113, 125.0 / 192, -2187.0 / 6784, 11.0 / 84}},
      {71.0 / 57600, 0, -71.0 / 16695, 71.0 / 1920, -17253.0 / 339200, 22.0 / 525, -1.0 / 40},
      {{1, -183.0 / 64, 37.0 / 12, -145.0 / 128},
       {0, 0, 0, 0},
       {0, 1500.0 / 371, -1000.0 / 159, 1000.0 / 371},
       {0, -125.0 / 32, 125.0 / 12, -375.0 / 64},
       {0, 9477.0 / 3392, -729.0 / 106, 25515.0 / 6784},
       {0, -11.0 / 7, 11.0 / 3, -55.0 / 28},
       {0, 3.0 / 2, -4, 5.0 / 2}},
      1.0 / 5, 4};
  return p;
}

const RKPair& bs23() {
  static const RKPair p{"ode23", 4,
                        {1.0 / 2, 3.0 / 4},
                        {{1.0 / 2}, {0, 3.0 / 4}, {2.0 / 9, 1.0 / 3, 4.0 / 9}},
                        {-5.0 / 72, 1.0 / 12, 1.0 / 9, -1.0 / 8},
                        {{1, -4.0 / 3, 5.0 / 9}, {0, 1, -2.0 / 3}, {0, 4.0 / 3, -8.0 / 9},
                         {0, -1, 1}},
                        1.0 / 3, 1};
  return p;
}

/// y(t + s h) = y + h * F * BI * [s; s^2; ...] (F: n x stages, column-major).
Vec rk_interp(const RKPair& rk, double t, const Vec& y, double h, const Vec& F, double tau) {
  size_t n = y.size(), q = rk.bi[0].size();
  double s = (tau - t) / h;
  Vec sp(q);
  double pw = 1;
  for (size_t k = 0; k < q; ++k) sp[k] = (pw *= s);
  Vec r = y;
  for (int j = 0; j < rk.s; ++j) {
    double w = 0;
    for (size_t k = 0; k < q; ++k) w += rk.bi[j][k] * sp[k];
    if (w == 0) continue;
    for (size_t i = 0; i < n; ++i) r[i] += h * w * F[j * n + i];
  }
  return r;
}

/// Derivative of rk_interp at tau.
Vec rk_interp_deriv(const RKPair& rk, double t, const Vec& y, double h, const Vec& F,
                    double tau) {
  size_t n = y.size(), q = rk.bi[0].size();
  double s = (tau - t) / h;
  Vec dp(q);
  double pw = 1;
  for (size_t k = 0; k < q; ++k) {
    dp[k] = (k + 1) * pw;
    pw *= s;
  }
  Vec r(n, 0.0);
  for (int j = 0; j < rk.s; ++j) {
    double w = 0;
    for (size_t k = 0; k < q; ++k) w += rk.bi[j][k] * dp[k];
    for (size_t i = 0; i < n; ++i) r[i] += w * F[j * n + i];
  }
  return r;
}

/// Initial-step estimate of the explicit solvers: ||f0 ./ max(|y0|, thr)|| / (0.8*RelTol^pow)
/// (2-norm ratio with NormControl).
double rk_initial_rh(const OdeProblem& p, const Vec& f0, double pow) {
  const Vec& y = p.y0;
  double r;
  if (p.normcontrol) {
    double nf = 0, ny = 0;
    for (size_t i = 0; i < y.size(); ++i) {
      nf += f0[i] * f0[i];
      ny += y[i] * y[i];
    }
    r = std::sqrt(nf) / std::max(std::sqrt(ny), p.thr[0]);
  } else {
    Vec w(y.size());
    for (size_t i = 0; i < y.size(); ++i) w[i] = std::max(std::abs(y[i]), p.thr[i]);
    r = wnorm_inf(f0, w);
  }
  return r / (0.8 * std::pow(p.rtol, pow));
}

Outputs run_rk(CallContext& ctx, Args args, int nargout, const RKPair& rk) {
  check_nargout(nargout, 5);
  OdeProblem p = ode_setup(ctx, args, rk.name, rk.refine);
  const size_t n = p.y0.size();
  double t = p.t0;
  Vec y = p.y0;
  Vec f0 = p.f(t, y);
  OdeOutput out(p, nargout, rk.s);
  const double pow = rk.pow;
  StepSize step(p);
  step.init(rk_initial_rh(p, f0, pow));
  Vec F(n * rk.s);
  std::copy(f0.begin(), f0.end(), F.begin());
  int64_t nsteps = 0, nfailed = 0;
  Vec ynew(n), ytmp(n), e(n);
  while (true) {
    double h = step.start(t);
    bool nofailed = true;
    double tnew, err;
    while (true) {
      for (int st = 1; st < rk.s; ++st) {
        const Vec& arow = rk.a[st - 1];
        for (size_t i = 0; i < n; ++i) {
          double acc = 0;
          for (size_t j = 0; j < arow.size(); ++j) acc += arow[j] * F[j * n + i];
          ytmp[i] = y[i] + h * acc;
        }
        if (st < rk.s - 1) {
          Vec fs = p.f(t + rk.c[st - 1] * h, ytmp);
          std::copy(fs.begin(), fs.end(), F.begin() + st * n);
        }
      }
      tnew = step.done ? p.tfinal : t + h;
      h = tnew - t;
      ynew = ytmp;
      Vec fn = p.f(tnew, ynew);
      std::copy(fn.begin(), fn.end(), F.begin() + (rk.s - 1) * n);
      for (size_t i = 0; i < n; ++i) {
        double acc = 0;
        for (int j = 0; j < rk.s; ++j) acc += rk.e[j] * F[j * n + i];
        e[i] = acc;
      }
      err = step.absh * err_norm(p, e, y, ynew);
      if (err <= p.rtol && !p.nonneg.empty()) err = std::max(err, p.nonneg_error(ynew));
      if (err <= p.rtol) break;
      ++nfailed;
      if (!step.can_reduce(t)) return out.finish(nsteps, nfailed);
      step.reject(err, nofailed, pow, 0.1);
      h = p.tdir * step.absh;
    }
    ++nsteps;
    p.project(ynew);
    const double tt = t, hh = h;
    const Vec yy = y, FF = F;
    auto interp = [&](double tau) { return rk_interp(rk, tt, yy, hh, FF, tau); };
    if (out.step(t, y, tnew, ynew, F, interp, h) || step.done) break;
    if (nofailed) step.grow(err, pow);
    t = tnew;
    y = ynew;
    std::copy(F.begin() + (rk.s - 1) * n, F.end(), F.begin());  // FSAL
  }
  return out.finish(nsteps, nfailed);
}

/// [t, y, te, ye, ie] = ode45(odefun, tspan, y0, options, ...) | sol = ode45(...).
Outputs bi_ode45(CallContext& ctx, Args args, int nargout) { return run_rk(ctx, args, nargout, dp45()); }
/// ode23: Bogacki-Shampine, same forms as ode45 (Refine 1).
Outputs bi_ode23(CallContext& ctx, Args args, int nargout) { return run_rk(ctx, args, nargout, bs23()); }

const std::vector<std::string>& ode_fields() {
  static const std::vector<std::string> f{
      "AbsTol",    "BDF",       "Events",      "InitialStep", "Jacobian",  "JConstant",
      "JPattern",  "Mass",      "MassSingular", "MaxOrder",   "MaxStep",   "NonNegative",
      "NormControl", "OutputFcn", "OutputSel", "Refine",      "RelTol",    "Stats",
      "Vectorized", "MStateDependence", "MvPattern", "InitialSlope"};
  return f;
}

/// options = odeset(name, value, ...) | odeset(oldopts, name, value, ...) | odeset(old, new).
/// Every field of MATLAB's odeset struct, [] unless set. Names match case-insensitively and by
/// unique prefix; unknown names raise MATLAB:odeset:InvalidPropName.
Outputs bi_odeset(CallContext& ctx, Args args, int nargout) {
  if (args.empty() && nargout == 0) {
    std::ostream& os = *ctx.session().out;
    for (const auto& f : ode_fields()) os << "  " << f << "\n";
    return {};
  }
  return {set_options(args, ode_fields(), "MATLAB:odeset", "odeset")};
}

/// v = odeget(options, name) | odeget(options, name, default): the field (case-insensitive,
/// unique prefix) or default when it is [].
Outputs bi_odeget(CallContext&, Args args, int nargout) {
  check_nargin(args, 2, 4);
  check_nargout(nargout, 1);
  if (!absent(args[0]) && !args[0].is_struct())
    throw_error("MATLAB:odeget:OptsNotStruct",
                "First argument must be an options structure created with ODESET.");
  std::string name = args[1].to_text("name");
  // Resolve a prefix to the full name (unknown names raise as odeset does).
  int f = find_option(ode_fields(), name);
  if (f < 0)
    throw_error("MATLAB:odeget:InvalidPropName", "Unrecognized property name '%s'.",
                name.c_str());
  const std::string& resolved = ode_fields()[static_cast<size_t>(f)];
  Value v = opt(args[0], resolved);
  if (absent(v) && args.size() > 2) return {args[2]};
  return {v};
}

/// [sxint, spxint] = deval(sol, xint, idx) | deval(xint, sol, idx): the solution of an ODE
/// solver's sol struct at points xint (inside [sol.x(1), sol.x(end)]), using the solver's
/// continuous extension. sxint: numel(idx) x numel(xint). Errors: MATLAB:deval:SolOutsideInterval.
Outputs bi_deval(CallContext& ctx, Args args, int nargout) {
  check_nargin(args, 2, 3);
  check_nargout(nargout, 2);
  Value sol = args[0], xv = args[1];
  if (!sol.is_struct()) std::swap(sol, xv);
  if (!sol.is_struct())
    throw_error("MATLAB:deval:InvalidSolStruct", "The sol argument must be a structure "
                "returned by an ODE solver.");
  std::string solver = opt(sol, "solver").to_text("solver");
  Vec x = reals(opt(sol, "x"), "deval");
  Tensor Y = opt(sol, "y").tensor();
  const int64_t ny = Y.dims()[0];
  Vec xi = reals(xv, "deval");
  Vec idx;
  if (args.size() > 2) idx = reals(args[2], "deval");
  else
    for (int64_t i = 0; i < ny; ++i) idx.push_back(static_cast<double>(i + 1));
  Value idata = opt(sol, "idata");
  Tensor F3 = opt(idata, "f3d").tensor();
  Vec hs = reals(opt(idata, "h"), "deval");
  int64_t nst = F3.dims()[1];
  // The solvers integrate [real(y); imag(y)] for complex y: n real rows.
  const bool cx = Y.is_complex();
  const int64_t n = cx ? 2 * ny : ny;
  auto ycol = [&](int64_t c) {
    Vec v(static_cast<size_t>(n));
    for (int64_t i = 0; i < ny; ++i) {
      std::complex<double> z = Y.get_complex(c * ny + i);
      v[i] = z.real();
      if (cx) v[i + ny] = z.imag();
    }
    return v;
  };
  const RKPair* rk = solver == "ode45" ? &dp45() : solver == "ode23" ? &bs23() : nullptr;
  double tdir = x.back() >= x.front() ? 1 : -1;
  int64_t m = static_cast<int64_t>(xi.size()), k = static_cast<int64_t>(idx.size());
  Tensor S = Tensor::uninit(ClassId::Double, Dims(k, m), cx),
         SP = Tensor::uninit(ClassId::Double, Dims(k, m), cx);
  for (int64_t q = 0; q < m; ++q) {
    double tau = xi[q];
    if (tdir * (tau - x.front()) < 0 || tdir * (tau - x.back()) > 0)
      throw_error("MATLAB:deval:SolOutsideInterval",
                  "Attempting to interpolate a solution at %g outside the interval "
                  "[%g, %g] where it is defined.", tau, x.front(), x.back());
    size_t s = 0;
    while (s + 2 < x.size() && tdir * (tau - x[s + 1]) > 0) ++s;
    Vec y0 = ycol(static_cast<int64_t>(s)), F(static_cast<size_t>(n * nst));
    for (int64_t i = 0; i < n * nst; ++i) F[i] = F3.get_double(static_cast<int64_t>(s) * n * nst + i);
    Vec yv, yp;
    if (x.size() >= 2 && (solver == "ode113" || solver == "ode15s")) {
      // Multistep solvers interpolate from the step's end point x(s+1).
      Vec y1 = ycol(static_cast<int64_t>(s + 1));
      Tensor A = opt(idata, "aux").tensor();
      int64_t na = A.dims()[0];
      Vec aux(static_cast<size_t>(na));
      for (int64_t i = 0; i < na; ++i) aux[i] = A.get_double(static_cast<int64_t>(s) * na + i);
      int k = static_cast<int>(aux[0]);
      if (solver == "ode113")
        adams_interp(x[s + 1], y1, k, aux.data() + 1, F.data(), tau, yv, yp);
      else
        ndf_interp(x[s + 1], y1, hs[s], k, F.data(), tau, yv, yp);
    } else if (x.size() < 2) {
      yv = y0;
      yp.assign(static_cast<size_t>(n), 0.0);
    } else if (rk) {
      yv = rk_interp(*rk, x[s], y0, hs[s], F, tau);
      yp = rk_interp_deriv(*rk, x[s], y0, hs[s], F, tau);
    } else {
      // Rosenbrock (ode23s) continuous extension, stages k1, k2 (Shampine-Reichelt 1997).
      const double d = 1 / (2 + std::sqrt(2.0));
      double h = hs[s], sv = (tau - x[s]) / h;
      double s1 = sv * (1 - sv) / (1 - 2 * d), s2 = sv * (sv - 2 * d) / (1 - 2 * d);
      double ds1 = (1 - 2 * sv) / (1 - 2 * d), ds2 = (2 * sv - 2 * d) / (1 - 2 * d);
      yv = y0;
      yp.assign(static_cast<size_t>(n), 0.0);
      for (int64_t i = 0; i < n; ++i) {
        yv[i] += h * (F[i] * s1 + F[n + i] * s2);
        yp[i] = F[i] * ds1 + F[n + i] * ds2;
      }
    }
    for (int64_t r = 0; r < k; ++r) {
      int64_t c = static_cast<int64_t>(idx[r]) - 1;
      if (c < 0 || c >= ny)
        throw_error("MATLAB:badsubscript", "Index exceeds the number of array elements. Index "
                    "must not exceed %lld.", static_cast<long long>(ny));
      if (cx) {
        S.set_complex(q * k + r, {yv[c], yv[c + ny]});
        SP.set_complex(q * k + r, {yp[c], yp[c + ny]});
      } else {
        S.set_double(q * k + r, yv[c]);
        SP.set_double(q * k + r, yp[c]);
      }
    }
  }
  (void)ctx;
  return {Value(S), Value(SP)};
}

}  // namespace

}  // namespace matfuse::num

namespace matfuse {
void register_ode(Registry& r) {
  r.add("ode45", num::bi_ode45);
  r.add("ode23", num::bi_ode23);
  r.add("odeset", num::bi_odeset);
  r.add("odeget", num::bi_odeget);
  r.add("deval", num::bi_deval);
  num::register_ode_stiff(r);
  num::register_ode_adams(r);
}
}  // namespace matfuse
