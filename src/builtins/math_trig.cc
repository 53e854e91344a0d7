// Trigonometric extras of the "math" family: sinpi cospi, degree-based sind cosd tand asind
// acosd atand secd cscd cotd, deg2rad rad2deg, and the reciprocal functions sec csc cot asec
// acsc acot sech csch coth asech acsch acoth.
//
// The reciprocal and inverse-degree forms are compositions of the elementwise builtins
// (sec(x) = 1./cos(x), asind(x) = 180/pi*asin(x), ...), so they share their class rules
// (single stays single), complex results and lazy capture. sinpi/cospi/sind/cosd/tand reduce
// the argument exactly first, so integer multiples give exact results (sind(180) == 0,
// cospi(0.5) == 0, tand(45) == 1).
#include <cmath>
#include <complex>
#include <limits>

#include "builtins/math_util.h"
#include "builtins/registry.h"
#include "runtime/error.h"

namespace matfuse {
namespace {

using namespace mathutil;

constexpr double kPi = 3.14159265358979323846;
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

double sinpi1(double x) {
  if (!std::isfinite(x)) return kNaN;
  const double r = std::remainder(x, 2.0);  // [-1, 1], exact
  const double a = std::fabs(r);
  double s;
  if (a <= 0.25) s = std::sin(kPi * a);
  else if (a <= 0.75) s = std::cos(kPi * (a - 0.5));
  else s = std::sin(kPi * (1 - a));
  return r < 0 ? -s : s;
}

double cospi1(double x) {
  if (!std::isfinite(x)) return kNaN;
  const double a = std::fabs(std::remainder(x, 2.0));
  if (a <= 0.25) return std::cos(kPi * a);
  if (a <= 0.75) return std::sin(kPi * (0.5 - a));
  return -std::cos(kPi * (1 - a));
}

/// Degrees: reduce to [-180, 180], then to the nearest multiple n of 90 and a remainder in
/// [-45, 45] (all exact), and pick sin/cos of the remainder by n mod 4.
double sind1(double x) {
  if (!std::isfinite(x)) return kNaN;
  double r = std::remainder(x, 360.0);
  const double n = std::nearbyint(r / 90);
  r -= 90 * n;
  const double z = kPi / 180 * r;
  switch ((static_cast<int>(n) % 4 + 4) % 4) {
    case 0: return r == 0 ? 0.0 : std::sin(z);
    case 1: return std::cos(z);
    case 2: return r == 0 ? 0.0 : -std::sin(z);
    default: return -std::cos(z);
  }
}

double cosd1(double x) {
  if (!std::isfinite(x)) return kNaN;
  double r = std::remainder(x, 360.0);
  const double n = std::nearbyint(r / 90);
  r -= 90 * n;
  const double z = kPi / 180 * r;
  switch ((static_cast<int>(n) % 4 + 4) % 4) {
    case 0: return std::cos(z);
    case 1: return r == 0 ? 0.0 : -std::sin(z);
    case 2: return -std::cos(z);
    default: return r == 0 ? 0.0 : std::sin(z);
  }
}

/// tand: exact 0, +-1 and +-Inf at multiples of 45 degrees.
double tand1(double x) {
  if (!std::isfinite(x)) return kNaN;
  const double r = std::remainder(x, 180.0);  // [-90, 90]
  if (r == 0) return 0.0;
  if (r == 45) return 1.0;
  if (r == -45) return -1.0;
  if (r == 90) return std::numeric_limits<double>::infinity();
  if (r == -90) return -std::numeric_limits<double>::infinity();
  return std::tan(kPi / 180 * r);
}

/// Real float inputs go through F; complex input through the composition `fallback`.
template <double (*F)(double)>
Value exact_or(CallContext& ctx, const Value& x, const char* name, Value (*fallback)(CallContext&, const Value&)) {
  if (x.is_char()) undefined_for(name, x);
  const Tensor t = float_arg(x, name, true);
  if (t.is_complex()) return fallback(ctx, Value(t));
  return Value(map_real(t, F));
}

Value c_sinpi(CallContext& c, const Value& x) { return call1(c, "sin", {call1(c, "times", {Value(kPi), x})}); }
Value c_cospi(CallContext& c, const Value& x) { return call1(c, "cos", {call1(c, "times", {Value(kPi), x})}); }
/// Complex sind/cosd with the real part reduced exactly (sind1/cosd1), so integer multiples of
/// 180 (sind) and odd multiples of 90 (cosd) give exact zero real or imaginary parts:
/// sin(a+ib) = sin(a)cosh(b) + i cos(a)sinh(b), cos(a+ib) = cos(a)cosh(b) - i sin(a)sinh(b).
Value complex_trig_deg(const Value& x, bool is_sin) {
  Tensor t = x.tensor();
  Tensor r = Tensor::uninit(t.cls(), t.dims(), true);
  for (int64_t i = 0; i < t.numel(); ++i) {
    std::complex<double> z = t.get_complex(i);
    double s = sind1(z.real()), c = cosd1(z.real()), b = kPi / 180 * z.imag();
    double ch = std::cosh(b), sh = std::sinh(b);
    std::complex<double> w = is_sin ? std::complex<double>(s * ch, c * sh)
                                    : std::complex<double>(c * ch, -s * sh);
    if (!std::isfinite(z.real())) w = {kNaN, kNaN};
    r.set_complex(i, w);
  }
  return Value(r);
}
Value c_sind(CallContext&, const Value& x) { return complex_trig_deg(x, true); }
Value c_cosd(CallContext&, const Value& x) { return complex_trig_deg(x, false); }
Value c_tand(CallContext& c, const Value& x) { return call1(c, "tan", {call1(c, "times", {Value(kPi / 180), x})}); }

#define MF_EXACT(fname, F, FB)                                                                     \
  Outputs bi_##fname(CallContext& c, Args a, int n) {                                              \
    check_nargin(a, 1, 1);                                                                         \
    check_nargout(n, 1);                                                                           \
    return {exact_or<F>(c, a[0], #fname, FB)};                                                     \
  }
MF_EXACT(sinpi, sinpi1, c_sinpi)
MF_EXACT(cospi, cospi1, c_cospi)
MF_EXACT(sind, sind1, c_sind)
MF_EXACT(cosd, cosd1, c_cosd)
MF_EXACT(tand, tand1, c_tand)
#undef MF_EXACT

/// 1 ./ inner(x): sec csc cot sech csch coth (and secd cscd cotd through the exact forms).
template <const char* const* Inner> Outputs recip(CallContext& ctx, Args args, int nargout) {
  check_nargin(args, 1, 1);
  check_nargout(nargout, 1);
  return {call1(ctx, "rdivide", {Value(1.0), call1(ctx, *Inner, {args[0]})})};
}
/// outer(1 ./ x): asec acsc acot asech acsch acoth.
template <const char* const* Outer> Outputs inv_recip(CallContext& ctx, Args args, int nargout) {
  check_nargin(args, 1, 1);
  check_nargout(nargout, 1);
  return {call1(ctx, *Outer, {call1(ctx, "rdivide", {Value(1.0), args[0]})})};
}
/// 180/pi * inner(x): asind acosd atand.
template <const char* const* Inner> Outputs to_degrees(CallContext& ctx, Args args, int nargout) {
  check_nargin(args, 1, 1);
  check_nargout(nargout, 1);
  if (args[0].is_tensor() && is_integer_class(args[0].cls())) undefined_for(*Inner, args[0]);
  return {call1(ctx, "times", {Value(180 / kPi), call1(ctx, *Inner, {args[0]})})};
}

constexpr const char* kCos = "cos";
constexpr const char* kSin = "sin";
constexpr const char* kTan = "tan";
constexpr const char* kCosh = "cosh";
constexpr const char* kSinh = "sinh";
constexpr const char* kTanh = "tanh";
constexpr const char* kAcos = "acos";
constexpr const char* kAsin = "asin";
constexpr const char* kAtan = "atan";
constexpr const char* kAcosh = "acosh";
constexpr const char* kAsinh = "asinh";
constexpr const char* kAtanh = "atanh";
constexpr const char* kCosd = "cosd";
constexpr const char* kSind = "sind";
constexpr const char* kTand = "tand";

/// deg2rad(x) = (pi/180)*x, rad2deg(x) = (180/pi)*x; floating-point input only.
template <bool ToRad> Outputs angle_conv(CallContext& ctx, Args args, int nargout) {
  check_nargin(args, 1, 1);
  check_nargout(nargout, 1);
  const char* name = ToRad ? "deg2rad" : "rad2deg";
  if (!args[0].is_tensor() || !is_float_class(args[0].cls()))
    throw_error(ToRad ? "MATLAB:deg2rad:nonFloatInput" : "MATLAB:rad2deg:nonFloatInput",
                "Input must be floating point.");
  (void)name;
  return {call1(ctx, "times", {Value(ToRad ? kPi / 180 : 180 / kPi), args[0]})};
}

}  // namespace

/// Registers the functions of this file (called from register_math).
void register_math_trig(Registry& r) {
  r.add("sinpi", bi_sinpi, &sinpi1);
  r.add("cospi", bi_cospi, &cospi1);
  r.add("sind", bi_sind, &sind1);
  r.add("cosd", bi_cosd, &cosd1);
  r.add("tand", bi_tand, &tand1);
  r.add("asind", to_degrees<&kAsin>);
  r.add("acosd", to_degrees<&kAcos>);
  r.add("atand", to_degrees<&kAtan>);
  r.add("sec", recip<&kCos>);
  r.add("csc", recip<&kSin>);
  r.add("cot", recip<&kTan>);
  r.add("secd", recip<&kCosd>);
  r.add("cscd", recip<&kSind>);
  r.add("cotd", recip<&kTand>);
  r.add("sech", recip<&kCosh>);
  r.add("csch", recip<&kSinh>);
  r.add("coth", recip<&kTanh>);
  r.add("asec", inv_recip<&kAcos>);
  r.add("acsc", inv_recip<&kAsin>);
  r.add("acot", inv_recip<&kAtan>);
  r.add("asech", inv_recip<&kAcosh>);
  r.add("acsch", inv_recip<&kAsinh>);
  r.add("acoth", inv_recip<&kAtanh>);
  r.add("deg2rad", angle_conv<true>);
  r.add("rad2deg", angle_conv<false>);
}

}  // namespace matfuse
