// Generated copy of src/runtime/mf_math.inc for the CUDA device prelude (the unit test
// providers_cuda_codegen checks that it equals the file byte for byte; regenerate with
//   { sed -n 1,6p codegen_math.cc; printf "%s" "R\"MFMATH("; cat ../../runtime/mf_math.inc; echo ")MFMATH\";"; echo "}  // namespace matfuse::cuda"; }
// after changing mf_math.inc).
namespace matfuse::cuda {
extern const char* const kMathText =
R"MFMATH(// Single-precision elementary functions with the same bits on the host and on the GPU.
//
// THIS TEXT IS SHARED BY THE HOST AND THE CUDA CODE GENERATOR (copy for the device prelude:
// src/providers/cuda/codegen_math.cc, checked equal by a unit test). Same rules as philox.inc:
// the common subset of C++ and CUDA C, plain `static inline MF_HD` functions, no std::, no
// library calls, every floating operation written out in a fixed order, no FMA contraction
// (host: -ffp-contract=off; device: NVRTC --fmad=false), no fast-math / flush-to-zero.
//
// Method: the float argument is widened to double (exact), the function is evaluated in double
// arithmetic with relative error of a few 1e-16, and the result is rounded to float once. So
// every result is within 1 ulp of the correctly rounded float (nearly always equal to it);
// overflow, underflow and subnormal results come from that final rounding. Special values
// follow C99 Annex F / glibc (NaN in gives the NaN in back, signed zeros, infinities). NaNs
// produced from non-NaN inputs are the canonical quiet NaN 0x7fc00000 on both sides.
//
// The includer provides:
//   - the types uint32_t, uint64_t, int64_t;
//   - MF_HD (default empty), MF_SQRT(x) (default __builtin_sqrt; CUDA: __dsqrt_rn);
//   - optionally the bit casts MF_D2U(d) / MF_U2D(u) (double <-> uint64_t) and MF_F2U(f) /
//     MF_U2F(u) (float <-> uint32_t); defaults __builtin_bit_cast (GCC/Clang C++). The CUDA
//     includer defines them with __double_as_longlong / __longlong_as_double / __float_as_uint /
//     __uint_as_float.
//
// Algorithms (the coefficients are Taylor coefficients, exact rationals rounded to double; the
// double working precision leaves ample margin for a float result):
//   - rounding to an integer: adding and subtracting 1.5*2^52 (round to nearest even), whose
//     low mantissa bits are then the integer itself (two's complement);
//   - exp, expm1, sinh, cosh, tanh, pow: additive range reduction x = k*ln2 + r, |r| <= ln2/2,
//     with ln2 split in two (Cody & Waite, "Software Manual for the Elementary Functions",
//     1980), expm1(r) by its Taylor series to r^13, 2^k assembled in the exponent field
//     (J.-M. Muller, "Elementary Functions: Algorithms and Implementation", 3rd ed., ch. 11);
//     expm1 = 2^k*expm1(r) + (2^k - 1) keeps full relative accuracy near 0 (as in P. T. P.
//     Tang, "Table-driven implementation of the expm1 function", TOMS 18(2), 1992, without
//     the table);
//   - log, log1p, log2, log10: x = 2^k*m with m in [sqrt(1/2), sqrt(2)), log(m) = 2*atanh(f),
//     f = (m-1)/(m+1), |f| <= 0.1716, by its series to f^21 (Muller ch. 11); log1p near 0 uses
//     f = x/(2+x) directly so no information in x is lost forming 1+x;
//   - sin, cos, tan: reduction modulo pi/2 by Cody-Waite with pi/2 split in three parts (33 +
//     33 + 53 bits, exact products for |x| < 2^19) and by Payne-Hanek for larger |x|
//     (M. Payne, R. Hanek, "Radian reduction for trigonometric functions", SIGNUM Newsletter
//     18(1), 1983): the 24-bit significand times a 128-bit window of the bits of 2/pi in 64-bit
//     integer arithmetic; then Taylor series of sin and cos on |r| <= pi/4;
//   - atan, atan2, asin, acos: atan by argument reduction 1/x (|x| > 1) and
//     (t*sqrt3 - 1)/(sqrt3 + t) (t > tan(pi/12)) to |t| <= 0.268, then its series to t^31;
//     asin(x) = atan(x/sqrt((1-x)(1+x))), acos(x) = 2*atan(sqrt((1-x)/(1+x)));
//   - hypot: sqrt(a^2 + b^2) in double (the squares are exact, no overflow possible);
//   - pow: exp(y*log|x|) in double plus the IEEE 754 / C99 special cases.
//
// The functions mf_sinf_small / mf_cosf_small / mf_tanf_small are the branch-free
// |x| < 2^19 paths (garbage outside), for vectorised loops that patch the other elements with
// the full functions afterwards (providers/host/host_eval.cc).

#ifndef MF_MATH_INC
#define MF_MATH_INC

#ifndef MF_HD
#define MF_HD
#endif
#ifndef MF_SQRT
#define MF_SQRT(x) __builtin_sqrt(x)
#endif
#ifndef MF_D2U
#define MF_D2U(d) __builtin_bit_cast(uint64_t, (double)(d))
#define MF_U2D(u) __builtin_bit_cast(double, (uint64_t)(u))
#define MF_F2U(f) __builtin_bit_cast(uint32_t, (float)(f))
#define MF_U2F(u) __builtin_bit_cast(float, (uint32_t)(u))
#endif

// ---- helpers --------------------------------------------------------------------------------

#define MF_M_SHIFT 0x1.8p52
#define MF_M_LN2 0x1.62e42fefa39efp-1
#define MF_M_LN2_HI 0x1.62e42fefa3800p-1  /* 42 bits: k*LN2_HI exact for |k| < 2^11 */
#define MF_M_LN2_LO 0x1.ef35793c76730p-45
#define MF_M_INV_LN2 0x1.71547652b82fep+0
#define MF_M_INV_LN10 0x1.bcb7b1526e50ep-2
#define MF_M_LOG10_2 0x1.34413509f79ffp-2
#define MF_M_PI 0x1.921fb54442d18p+1
#define MF_M_PI_2 0x1.921fb54442d18p+0
#define MF_M_PI_6 0x1.0c152382d7366p-1
#define MF_M_SQRT3 0x1.bb67ae8584caap+0
#define MF_M_TAN_PI12 0x1.126145e9ecd56p-2
#define MF_M_2_PI 0x1.45f306dc9c883p-1
#define MF_M_PIO2_1 0x1.921fb54400000p+0  /* pi/2 = P1 + P2 + P3, P1 and P2 of 33 bits */
#define MF_M_PIO2_2 0x1.0b4611a600000p-34
#define MF_M_PIO2_3 0x1.3198a2e037073p-69

static inline MF_HD float mf_nanf_() { return MF_U2F(0x7fc00000u); }
static inline MF_HD double mf_infd_() { return MF_U2D(0x7ff0000000000000ull); }
static inline MF_HD double mf_fabsd_(double x) { return MF_U2D(MF_D2U(x) & 0x7fffffffffffffffull); }
/// |x| < 2^51: x rounded to the nearest integer (ties to even).
static inline MF_HD double mf_rintd_(double x) { return (x + MF_M_SHIFT) - MF_M_SHIFT; }
/// f with the sign bit of s.
static inline MF_HD float mf_copysignf_(float f, float s) {
  return MF_U2F((MF_F2U(f) & 0x7fffffffu) | (MF_F2U(s) & 0x80000000u));
}

/// expm1(r) for |r| <= 0.35 (Taylor series to r^13, relative error < 1e-16).
static inline MF_HD double mf_expm1_poly_(double r) {
  double p = 1.0 / 6227020800.0;
  p = p * r + 1.0 / 479001600.0;
  p = p * r + 1.0 / 39916800.0;
  p = p * r + 1.0 / 3628800.0;
  p = p * r + 1.0 / 362880.0;
  p = p * r + 1.0 / 40320.0;
  p = p * r + 1.0 / 5040.0;
  p = p * r + 1.0 / 720.0;
  p = p * r + 1.0 / 120.0;
  p = p * r + 1.0 / 24.0;
  p = p * r + 1.0 / 6.0;
  p = p * r + 0.5;
  return r + (r * r) * p;
}

/// e^t = s * (1 + q) with s = 2^k, for t clamped to [-110, 100] (NaN passes through).
static inline MF_HD void mf_exp_parts_(double t, double* s, double* q) {
  t = t < -110.0 ? -110.0 : t;
  t = t > 100.0 ? 100.0 : t;
  const double kb = t * MF_M_INV_LN2 + MF_M_SHIFT;
  const double kd = kb - MF_M_SHIFT;
  const double r = (t - kd * MF_M_LN2_HI) - kd * MF_M_LN2_LO;
  *s = MF_U2D((MF_D2U(kb) + 1023ull) << 52);
  *q = mf_expm1_poly_(r);
}
/// e^t in double for the float range (t > 100 gives e^100, t < -110 gives e^-110).
static inline MF_HD double mf_exp_d_(double t) {
  double s, q;
  mf_exp_parts_(t, &s, &q);
  return s * q + s;
}
/// e^t - 1 in double, same clamping.
static inline MF_HD double mf_expm1_d_(double t) {
  double s, q;
  mf_exp_parts_(t, &s, &q);
  return s * q + (s - 1.0);
}

/// 2*atanh(f) for |f| <= 0.1716 (series to f^21).
static inline MF_HD double mf_log_series_(double f) {
  const double z = f * f;
  double p = 1.0 / 21.0;
  p = p * z + 1.0 / 19.0;
  p = p * z + 1.0 / 17.0;
  p = p * z + 1.0 / 15.0;
  p = p * z + 1.0 / 13.0;
  p = p * z + 1.0 / 11.0;
  p = p * z + 1.0 / 9.0;
  p = p * z + 1.0 / 7.0;
  p = p * z + 1.0 / 5.0;
  p = p * z + 1.0 / 3.0;
  return (f + f) + (f + f) * (z * p);
}
/// u = 2^k * m with m in [sqrt(1/2), sqrt(2)) for a positive normal double u: returns k (as a
/// double) and m - 1, m + 1.
static inline MF_HD double mf_log_split_(double u, double* num, double* den) {
  const uint64_t b = MF_D2U(u);
  const uint64_t ix = b - 0x3fe6a09e667f3bcdull;
  const double kd = MF_U2D(0x4330000000000000ull + ((ix >> 52) ^ 0x800ull)) -
                    (0x1p52 + 2048.0);
  const double m = MF_U2D(b - (ix & 0xfff0000000000000ull));
  *num = m - 1.0;
  *den = m + 1.0;
  return kd;
}
/// log(u) in double for positive normal u.
static inline MF_HD double mf_log_d_(double u) {
  double num, den;
  const double kd = mf_log_split_(u, &num, &den);
  return kd * MF_M_LN2_HI + (kd * MF_M_LN2_LO + mf_log_series_(num / den));
}

/// atan(t) in double for every double t (inf gives pi/2), sign preserved.
static inline MF_HD double mf_atan_d_(double x) {
  const double ax = mf_fabsd_(x);
  const int inv = ax > 1.0;
  double t = inv ? 1.0 / ax : ax;
  const int red = t > MF_M_TAN_PI12;
  t = red ? (t * MF_M_SQRT3 - 1.0) / (MF_M_SQRT3 + t) : t;
  const double z = t * t;
  double p = -1.0 / 31.0;
  p = p * z + 1.0 / 29.0;
  p = p * z - 1.0 / 27.0;
  p = p * z + 1.0 / 25.0;
  p = p * z - 1.0 / 23.0;
  p = p * z + 1.0 / 21.0;
  p = p * z - 1.0 / 19.0;
  p = p * z + 1.0 / 17.0;
  p = p * z - 1.0 / 15.0;
  p = p * z + 1.0 / 13.0;
  p = p * z - 1.0 / 11.0;
  p = p * z + 1.0 / 9.0;
  p = p * z - 1.0 / 7.0;
  p = p * z + 1.0 / 5.0;
  p = p * z - 1.0 / 3.0;
  double a = t + t * (z * p);
  a = red ? MF_M_PI_6 + a : a;
  a = inv ? MF_M_PI_2 - a : a;
  return x < 0.0 ? -a : a;
}

/// sin(r) and cos(r) for |r| <= pi/4 + tiny (Taylor series to r^19 / r^20).
static inline MF_HD double mf_sin_poly_(double r) {
  const double z = r * r;
  double p = -1.0 / 121645100408832000.0;
  p = p * z + 1.0 / 355687428096000.0;
  p = p * z - 1.0 / 1307674368000.0;
  p = p * z + 1.0 / 6227020800.0;
  p = p * z - 1.0 / 39916800.0;
  p = p * z + 1.0 / 362880.0;
  p = p * z - 1.0 / 5040.0;
  p = p * z + 1.0 / 120.0;
  p = p * z - 1.0 / 6.0;
  return r + r * (z * p);
}
static inline MF_HD double mf_cos_poly_(double r) {
  const double z = r * r;
  double p = 1.0 / 2432902008176640000.0;
  p = p * z - 1.0 / 6402373705728000.0;
  p = p * z + 1.0 / 20922789888000.0;
  p = p * z - 1.0 / 87178291200.0;
  p = p * z + 1.0 / 479001600.0;
  p = p * z - 1.0 / 3628800.0;
  p = p * z + 1.0 / 40320.0;
  p = p * z - 1.0 / 720.0;
  p = p * z + 1.0 / 24.0;
  return (1.0 - 0.5 * z) + (z * z) * p;
}

/// Cody-Waite reduction for |x| < 2^19: x = q*pi/2 + r, returns r, *q the quadrant (0..3).
static inline MF_HD double mf_rem_pio2_small_(double x, uint32_t* q) {
  const double kb = x * MF_M_2_PI + MF_M_SHIFT;
  const double kd = kb - MF_M_SHIFT;
  *q = (uint32_t)MF_D2U(kb) & 3u;
  return ((x - kd * MF_M_PIO2_1) - kd * MF_M_PIO2_2) - kd * MF_M_PIO2_3;
}

/// Word i (0-based, 32 bits each) of the binary expansion of 2/pi after a zero word: word 1 is
/// the first 32 bits after the binary point (0.A2F9836E...).
static inline MF_HD uint64_t mf_2opi_word_(int i) {
  switch (i) {
    case 1: return 0xA2F9836Eull;
    case 2: return 0x4E441529ull;
    case 3: return 0xFC2757D1ull;
    case 4: return 0xF534DDC0ull;
    case 5: return 0xDB629599ull;
    case 6: return 0x3C439041ull;
    case 7: return 0xFE5163ABull;
    case 8: return 0xDEBBC561ull;
    default: return 0ull;
  }
}

/// Payne-Hanek reduction of a finite float x with |x| >= 2^19: x = q*pi/2 + r, |r| <= pi/4.
static inline MF_HD double mf_rem_pio2_big_(float x, uint32_t* q) {
  const uint32_t bx = MF_F2U(x);
  const int e = (int)((bx >> 23) & 0xffu) - 150;  // x = +-M * 2^e, M a 24-bit integer
  const uint64_t M = (uint64_t)((bx & 0x7fffffu) | 0x800000u);
  // 128-bit window of 2/pi starting at bit e - 1 (bit 1 = first after the point), which is
  // bit e + 30 of the table with its leading zero word.
  const int pt = e + 30;
  const int wi = pt >> 5, sh = pt & 31;
  uint64_t w[4];
  for (int k = 0; k < 4; ++k) {
    const uint64_t two = (mf_2opi_word_(wi + k) << 32) | mf_2opi_word_(wi + k + 1);
    w[k] = (two >> (32 - sh)) & 0xffffffffull;
  }
  // P = M * W mod 2^128; bits 126..127 are x*2/pi mod 4, the rest its fraction.
  const uint64_t p3 = M * w[3], p2 = M * w[2], p1 = M * w[1], p0 = M * w[0];
  const uint64_t lo = p3 + (p2 << 32);
  const uint64_t carry = lo < p3 ? 1ull : 0ull;
  const uint64_t hi = p1 + (p2 >> 32) + (p0 << 32) + carry;
  uint32_t quad = (uint32_t)(hi >> 62);
  const uint64_t mask = 0x3fffffffffffffffull;
  uint64_t fh = hi & mask, fl = lo;
  double sign = 1.0;
  if (fh >> 61) {  // fraction >= 1/2: take 1 - fraction, next quadrant
    fl = ~lo + 1ull;
    fh = ((~hi) & mask) + (lo == 0ull ? 1ull : 0ull);
    quad += 1u;
    sign = -1.0;
  }
  const double f = (double)fh * 0x1p-62 + (double)fl * 0x1p-126;
  double r = sign * (f * MF_M_PI_2);
  if (x < 0.0f) {
    r = -r;
    quad = 0u - quad;
  }
  *q = quad & 3u;
  return r;
}

static inline MF_HD double mf_sin_quadrant_(double r, uint32_t q) {
  const double s = mf_sin_poly_(r), c = mf_cos_poly_(r);
  const double v = (q & 1u) ? c : s;
  return (q & 2u) ? -v : v;
}
static inline MF_HD double mf_tan_quadrant_(double r, uint32_t q) {
  const double s = mf_sin_poly_(r), c = mf_cos_poly_(r);
  return (q & 1u) ? -c / s : s / c;
}

/// The log family's special cases: NaN gives x, x < 0 NaN, +-0 -inf, +inf inf, else r.
static inline MF_HD float mf_log_special_(float x, float r) {
  const float inf = (float)mf_infd_();
  r = x == inf ? inf : r;
  r = x == 0.0f ? -inf : r;
  r = x < 0.0f ? mf_nanf_() : r;
  return x != x ? x : r;
}

// ---- public functions -------------------------------------------------------------------------

/// e^x.
static inline MF_HD float mf_expf(float x) {
  const float r = (float)mf_exp_d_((double)x);
  return x != x ? x : r;
}
/// e^x - 1 (full relative accuracy near 0; expm1(-0) = -0).
static inline MF_HD float mf_expm1f(float x) {
  const float r = (float)mf_expm1_d_((double)x);
  return (x != x || x == 0.0f) ? x : r;
}
/// Natural logarithm: log(0) = -inf, log(x < 0) = NaN, log(inf) = inf.
static inline MF_HD float mf_logf(float x) {
  const float r = (float)mf_log_d_((double)x);
  return mf_log_special_(x, r);
}
/// log(1 + x) (full relative accuracy near 0; log1p(-1) = -inf, x < -1 gives NaN).
static inline MF_HD float mf_log1pf(float x) {
  const double xd = (double)x;
  double num, den;
  double kd = mf_log_split_(1.0 + xd, &num, &den);
  const int near = mf_fabsd_(xd) < 0.25;
  kd = near ? 0.0 : kd;
  num = near ? xd : num;
  den = near ? 2.0 + xd : den;
  const float r = (float)(kd * MF_M_LN2_HI + (kd * MF_M_LN2_LO + mf_log_series_(num / den)));
  return (x != x || x == 0.0f) ? x : mf_log_special_(x + 1.0f, r);  // x + 1 is exact near -1
}
/// Base-2 logarithm (exact at powers of two).
static inline MF_HD float mf_log2f(float x) {
  double num, den;
  const double kd = mf_log_split_((double)x, &num, &den);
  const float r = (float)(kd + mf_log_series_(num / den) * MF_M_INV_LN2);
  return mf_log_special_(x, r);
}
/// Base-10 logarithm.
static inline MF_HD float mf_log10f(float x) {
  double num, den;
  const double kd = mf_log_split_((double)x, &num, &den);
  const float r = (float)(kd * MF_M_LOG10_2 + mf_log_series_(num / den) * MF_M_INV_LN10);
  return mf_log_special_(x, r);
}

/// sin for |x| < 2^19 only (branch free).
static inline MF_HD float mf_sinf_small(float x) {
  uint32_t q;
  const double r = mf_rem_pio2_small_((double)x, &q);
  const float v = (float)mf_sin_quadrant_(r, q);
  return x == 0.0f ? x : v;
}
static inline MF_HD float mf_cosf_small(float x) {
  uint32_t q;
  const double r = mf_rem_pio2_small_((double)x, &q);
  return (float)mf_sin_quadrant_(r, q + 1u);
}
static inline MF_HD float mf_tanf_small(float x) {
  uint32_t q;
  const double r = mf_rem_pio2_small_((double)x, &q);
  const float v = (float)mf_tan_quadrant_(r, q);
  return x == 0.0f ? x : v;
}
/// True when |x| < 2^19 (the *_small domain); false for NaN and inf.
static inline MF_HD int mf_trig_small(float x) { return x < 524288.0f && x > -524288.0f; }

/// Sine (argument reduction exact for every float; sin(inf) = NaN).
static inline MF_HD float mf_sinf(float x) {
  if (mf_trig_small(x)) return mf_sinf_small(x);
  if (x != x) return x;
  if (x == (float)mf_infd_() || x == -(float)mf_infd_()) return mf_nanf_();
  uint32_t q;
  const double r = mf_rem_pio2_big_(x, &q);
  return (float)mf_sin_quadrant_(r, q);
}
/// Cosine.
static inline MF_HD float mf_cosf(float x) {
  if (mf_trig_small(x)) return mf_cosf_small(x);
  if (x != x) return x;
  if (x == (float)mf_infd_() || x == -(float)mf_infd_()) return mf_nanf_();
  uint32_t q;
  const double r = mf_rem_pio2_big_(x, &q);
  return (float)mf_sin_quadrant_(r, q + 1u);
}
/// Tangent.
static inline MF_HD float mf_tanf(float x) {
  if (mf_trig_small(x)) return mf_tanf_small(x);
  if (x != x) return x;
  if (x == (float)mf_infd_() || x == -(float)mf_infd_()) return mf_nanf_();
  uint32_t q;
  const double r = mf_rem_pio2_big_(x, &q);
  return (float)mf_tan_quadrant_(r, q);
}

/// Hyperbolic sine: (E + E/(E+1))/2 with E = expm1(|x|).
static inline MF_HD float mf_sinhf(float x) {
  const double e = mf_expm1_d_(mf_fabsd_((double)x));
  const float r = (float)(0.5 * (e + e / (e + 1.0)));
  return (x != x || x == 0.0f) ? x : mf_copysignf_(r, x);
}
/// Hyperbolic cosine: (e^|x| + e^-|x|)/2.
static inline MF_HD float mf_coshf(float x) {
  const double e = mf_exp_d_(mf_fabsd_((double)x));
  const float r = (float)(0.5 * (e + 1.0 / e));
  return x != x ? x : r;
}
/// Hyperbolic tangent: E/(E+2) with E = expm1(2|x|).
static inline MF_HD float mf_tanhf(float x) {
  const double e = mf_expm1_d_(2.0 * mf_fabsd_((double)x));
  const float r = (float)(e / (e + 2.0));
  return (x != x || x == 0.0f) ? x : mf_copysignf_(r, x);
}

/// Arctangent.
static inline MF_HD float mf_atanf(float x) {
  const float r = (float)mf_atan_d_((double)x);
  return (x != x || x == 0.0f) ? x : r;
}
/// Arcsine: NaN outside [-1, 1].
static inline MF_HD float mf_asinf(float x) {
  const double xd = (double)x;
  const float r = (float)mf_atan_d_(xd / MF_SQRT((1.0 - xd) * (1.0 + xd)));
  return (x != x || x == 0.0f) ? x : (x > 1.0f || x < -1.0f) ? mf_nanf_() : r;
}
/// Arccosine: NaN outside [-1, 1].
static inline MF_HD float mf_acosf(float x) {
  const double xd = (double)x;
  const float r = (float)(2.0 * mf_atan_d_(MF_SQRT((1.0 - xd) / (1.0 + xd))));
  return x != x ? x : (x > 1.0f || x < -1.0f) ? mf_nanf_() : r;
}
/// Four-quadrant arctangent of y/x with the IEEE special cases (atan2(+-0, -0) = +-pi, ...).
static inline MF_HD float mf_atan2f(float y, float x) {
  const double ay = mf_fabsd_((double)y), ax = mf_fabsd_((double)x);
  double t = ay / ax;
  t = ay == 0.0 ? 0.0 : t;
  t = (ay == mf_infd_() && ax == mf_infd_()) ? 1.0 : t;
  double a = mf_atan_d_(t);
  a = (MF_F2U(x) >> 31) ? MF_M_PI - a : a;
  const float r = mf_copysignf_((float)a, y);
  return y != y ? y : x != x ? x : r;
}
/// sqrt(a^2 + b^2) without undue overflow; hypot(+-inf, NaN) = inf.
static inline MF_HD float mf_hypotf(float a, float b) {
  const double ad = (double)a, bd = (double)b;
  const float r = (float)MF_SQRT(ad * ad + bd * bd);
  const float inf = (float)mf_infd_();
  return (a == inf || a == -inf || b == inf || b == -inf) ? inf : a != a ? a : b != b ? b : r;
}

/// x^y with the IEEE 754 / C99 special cases: x^+-0 = 1 and 1^y = 1 (even for NaN), negative
/// x with integer y (sign from the parity of y), NaN for negative x with non-integer finite y,
/// zeros and infinities with signs.
static inline MF_HD float mf_powf(float x, float y) {
  const float inf = (float)mf_infd_();
  const double ax = mf_fabsd_((double)x), yd = (double)y, ay = mf_fabsd_(yd);
  const int y_big = ay >= 16777216.0;  // every float this large is an even integer
  const double yr = y_big ? 0.0 : mf_rintd_(yd);
  const int y_int = y_big || yr == yd;
  const int y_odd = !y_big && y_int && (MF_D2U(yr + MF_M_SHIFT) & 1ull);
  double l = mf_log_d_(ax);
  l = ax == 0.0 ? -mf_infd_() : l;
  l = ax == mf_infd_() ? mf_infd_() : l;
  double t = yd * l;
  t = ax == 1.0 ? 0.0 : t;  // (-1)^+-inf handled below; avoids 0*inf
  const float mag = (float)mf_exp_d_(t);
  const int neg = (MF_F2U(x) >> 31) && y_odd;
  float r = neg ? -mag : mag;
  r = (x < 0.0f && x != -inf && y_int == 0 && ay != mf_infd_()) ? mf_nanf_() : r;
  r = (x == -1.0f && (y == inf || y == -inf)) ? 1.0f : r;
  r = x != x ? x : r;
  r = y != y ? y : r;
  r = (x == 1.0f || y == 0.0f) ? 1.0f : r;
  return r;
}

#endif  // MF_MATH_INC
)MFMATH";
}  // namespace matfuse::cuda
