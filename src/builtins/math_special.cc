// Special functions and real-valued power/root functions of the "math" family:
// gamma gammaln erf erfc erfinv erfcinv cbrt nthroot realsqrt reallog realpow pow2 nextpow2.
//
// Class rules (MATLAB): double in -> double out, single in -> single out; char and logical act
// as double. gamma..erfcinv, cbrt and realsqrt/reallog reject integer classes
// (MATLAB:UndefinedFunction); nextpow2 keeps integer classes.
#include <cmath>
#include <limits>

#include "builtins/math_util.h"
#include "builtins/registry.h"
#include "runtime/error.h"

namespace matfuse {
namespace {

using namespace mathutil;

constexpr double kPi = 3.14159265358979323846;
constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

/// MATLAB gamma: Inf at 0 and the negative integers, NaN at -Inf.
double gamma1(double x) {
  if (x == 0) return std::signbit(x) ? -kInf : kInf;
  if (x < 0 && std::isfinite(x) && x == std::floor(x)) return kInf;
  if (x == -kInf) return kNaN;
  return std::tgamma(x);
}

/// Solves erfc(y) = c for c in (0, 1] (y >= 0) by Newton steps on log(erfc(y)) - log(c),
/// which stays well conditioned down to the smallest c. Starting point: Winitzki's closed-form
/// approximation of erfinv(1 - c), or the asymptotic erfc(y) ~ exp(-y^2) / (y sqrt(pi)) for
/// tiny c.
double erfcinv_upper(double c) {
  if (c == 1) return 0;
  double y;
  if (c > 1e-3) {
    const double a = 0.147, x = 1 - c;
    const double l = std::log((1 - x) * (1 + x));
    const double t = 2 / (kPi * a) + l / 2;
    y = std::sqrt(std::sqrt(t * t - l / a) - t);
  } else {
    y = std::sqrt(-std::log(c));
    for (int i = 0; i < 3; ++i) y = std::sqrt(-std::log(c) - std::log(y * std::sqrt(kPi)));
  }
  const double lc = std::log(c);
  for (int it = 0; it < 60; ++it) {
    const double e = std::erfc(y);
    if (e <= 0) break;
    const double h = std::log(e) - lc;
    const double dh = -2 / std::sqrt(kPi) * std::exp(-y * y) / e;
    const double step = h / dh;
    y -= step;
    if (std::fabs(step) <= 1e-16 * std::fabs(y)) break;
  }
  return y;
}

/// MATLAB erfcinv: domain [0, 2]; erfcinv(0) = Inf, erfcinv(2) = -Inf, NaN outside.
double erfcinv1(double c) {
  if (!(c >= 0 && c <= 2)) return kNaN;
  if (c == 0) return kInf;
  if (c == 2) return -kInf;
  if (c <= 1) return erfcinv_upper(c);
  return -erfcinv_upper(2 - c);
}

/// MATLAB erfinv: domain [-1, 1]. |x| < 0.5 uses Halley steps on erf directly (no
/// cancellation); larger |x| goes through erfcinv(1 - |x|), exact in that range.
double erfinv1(double x) {
  if (!(x >= -1 && x <= 1)) return kNaN;
  if (x == 1) return kInf;
  if (x == -1) return -kInf;
  if (std::fabs(x) >= 0.5) return std::copysign(erfcinv_upper(1 - std::fabs(x)), x);
  if (x == 0) return x;
  const double a = 0.147;
  const double l = std::log((1 - x) * (1 + x));
  const double t = 2 / (kPi * a) + l / 2;
  double y = std::copysign(std::sqrt(std::sqrt(t * t - l / a) - t), x);
  for (int it = 0; it < 4; ++it) {
    const double f = std::erf(y) - x;
    const double df = 2 / std::sqrt(kPi) * std::exp(-y * y);
    const double d = f / df;
    y -= d / (1 + y * d);
  }
  return y;
}

template <double (*F)(double)> Outputs real_fn(CallContext&, Args args, int nargout, const char* name) {
  check_nargin(args, 1, 1);
  check_nargout(nargout, 1);
  return {Value(map_real(float_arg(args[0], name), F))};
}

double d_erf(double x) { return std::erf(x); }
double d_erfc(double x) { return std::erfc(x); }
double d_cbrt(double x) { return std::cbrt(x); }

/// gammaln: log(gamma(x)) for x >= 0 (Inf at 0); MATLAB requires nonnegative real input.
double d_gammaln(double x) {
  if (x < 0) throw_error("MATLAB:gammaln:NegativeArg", "Input must be nonnegative.");
  return std::lgamma(x);
}

#define MF_REAL_FN(fname, F)                                                                       \
  Outputs bi_##fname(CallContext& c, Args a, int n) { return real_fn<F>(c, a, n, #fname); }
MF_REAL_FN(gamma, gamma1)
MF_REAL_FN(gammaln, d_gammaln)
MF_REAL_FN(erf, d_erf)
MF_REAL_FN(erfc, d_erfc)
MF_REAL_FN(erfinv, erfinv1)
MF_REAL_FN(erfcinv, erfcinv1)
MF_REAL_FN(cbrt, d_cbrt)
#undef MF_REAL_FN

/// nthroot(X, N): real n-th root with implicit expansion; X < 0 needs an odd integer N. One
/// Newton correction step makes exact roots exact (e.g. nthroot(-27, 3) == -3).
Outputs bi_nthroot(CallContext&, Args args, int nargout) {
  check_nargin(args, 2, 2);
  check_nargout(nargout, 1);
  for (const Value& v : args) {
    if (!v.is_tensor()) undefined_for("nthroot", v);
    if (v.tensor().is_complex())
      throw_error("MATLAB:nthroot:ComplexInput", "Both X and N must be real.");
  }
  const Tensor x = float_arg(args[0], "nthroot"), n = float_arg(args[1], "nthroot");
  const ClassId cls = (x.cls() == ClassId::Single || n.cls() == ClassId::Single) ? ClassId::Single
                                                                                 : ClassId::Double;
  const Dims out = broadcast_dims(x.dims(), n.dims());
  const auto mx = broadcast_map(x.dims(), out), mn = broadcast_map(n.dims(), out);
  Tensor r = Tensor::uninit(ClassId::Double, out);
  double* o = r.mutable_data<double>();
  for (size_t i = 0; i < mx.size(); ++i) {
    const double xv = x.get_double(mx[i]), nv = n.get_double(mn[i]);
    const bool odd = is_int_value(nv) && std::fmod(std::fabs(nv), 2.0) == 1.0;
    if (xv < 0 && !odd)
      throw_error("MATLAB:nthroot:NegXNotOddIntegerN", "If X is negative, N must be an odd integer.");
    double y = std::copysign(std::pow(std::fabs(xv), 1.0 / nv), xv);
    if (std::isfinite(y) && y != 0 && std::isfinite(xv) && nv != 0 && std::isfinite(nv)) {
      const double yn1 = std::pow(y, nv - 1);
      const double corr = (y * yn1 - xv) / (nv * yn1);
      if (std::isfinite(corr)) y -= corr;
    }
    o[i] = y;
  }
  return {Value(cls == ClassId::Single ? r.to_class(ClassId::Single) : r)};
}

/// realsqrt(X): sqrt of nonnegative real X; MATLAB:realsqrt:complexResult otherwise.
Outputs bi_realsqrt(CallContext&, Args args, int nargout) {
  check_nargin(args, 1, 1);
  check_nargout(nargout, 1);
  if (args[0].is_tensor() && args[0].tensor().is_complex())
    throw_error("MATLAB:realsqrt:complexResult", "Realsqrt produced complex result.");
  const Tensor x = float_arg(args[0], "realsqrt");
  return {Value(map_real(x, [](double v) {
    if (v < 0) throw_error("MATLAB:realsqrt:complexResult", "Realsqrt produced complex result.");
    return std::sqrt(v);
  }))};
}

/// reallog(X): log of nonnegative real X; MATLAB:reallog:complexResult otherwise.
Outputs bi_reallog(CallContext&, Args args, int nargout) {
  check_nargin(args, 1, 1);
  check_nargout(nargout, 1);
  if (args[0].is_tensor() && args[0].tensor().is_complex())
    throw_error("MATLAB:reallog:complexResult", "Reallog produced complex result.");
  const Tensor x = float_arg(args[0], "reallog");
  return {Value(map_real(x, [](double v) {
    if (v < 0) throw_error("MATLAB:reallog:complexResult", "Reallog produced complex result.");
    return std::log(v);
  }))};
}

/// realpow(X, Y): X.^Y that must be real (MATLAB:realpow:complexResult otherwise).
Outputs bi_realpow(CallContext& ctx, Args args, int nargout) {
  check_nargin(args, 2, 2);
  check_nargout(nargout, 1);
  for (const Value& v : args)
    if (v.is_tensor() && v.tensor().is_complex())
      throw_error("MATLAB:realpow:complexResult", "Realpow produced complex result.");
  Value r = call1(ctx, "power", {args[0], args[1]});
  if (r.is_tensor() && r.tensor().is_complex())
    throw_error("MATLAB:realpow:complexResult", "Realpow produced complex result.");
  return {r};
}

/// pow2(E) = 2.^E and pow2(F, E) = F .* 2.^E (through power/times: their class rules apply).
Outputs bi_pow2(CallContext& ctx, Args args, int nargout) {
  check_nargin(args, 1, 2);
  check_nargout(nargout, 1);
  if (args.size() == 1) return {call1(ctx, "power", {Value(2.0), args[0]})};
  return {call1(ctx, "times", {args[0], call1(ctx, "power", {Value(2.0), args[1]})})};
}

/// nextpow2(N): smallest P with 2^P >= abs(N) (0 for N == 0, Inf for Inf, NaN for NaN); the
/// result has N's class (integer classes included).
Outputs bi_nextpow2(CallContext&, Args args, int nargout) {
  check_nargin(args, 1, 1);
  check_nargout(nargout, 1);
  if (!args[0].is_tensor()) undefined_for("nextpow2", args[0]);
  Tensor x = args[0].tensor();
  const ClassId cls = (x.cls() == ClassId::Char || x.cls() == ClassId::Logical) ? ClassId::Double : x.cls();
  Tensor r = Tensor::uninit(ClassId::Double, x.dims());
  double* o = r.mutable_data<double>();
  for (int64_t i = 0; i < x.numel(); ++i) {
    const double v = std::fabs(x.get_double(i));
    if (v == 0) o[i] = 0;
    else if (!std::isfinite(v)) o[i] = v;
    else {
      int e = 0;
      const double f = std::frexp(v, &e);
      o[i] = f == 0.5 ? e - 1 : e;
    }
  }
  return {Value(cls == ClassId::Double ? r : r.to_class(cls))};
}

}  // namespace

/// Registers the functions of this file (called from register_math).
void register_math_special(Registry& r) {
  r.add("gamma", bi_gamma, &gamma1);
  r.add("gammaln", bi_gammaln);
  r.add("erf", bi_erf, &d_erf);
  r.add("erfc", bi_erfc, &d_erfc);
  r.add("erfinv", bi_erfinv, &erfinv1);
  r.add("erfcinv", bi_erfcinv, &erfcinv1);
  r.add("cbrt", bi_cbrt, &d_cbrt);
  r.add("nthroot", bi_nthroot);
  r.add("realsqrt", bi_realsqrt);
  r.add("reallog", bi_reallog);
  r.add("realpow", bi_realpow);
  r.add("pow2", bi_pow2);
  r.add("nextpow2", bi_nextpow2);
}

}  // namespace matfuse
