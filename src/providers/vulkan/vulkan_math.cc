// GLSL ports of runtime/mf_math.inc and runtime/philox.inc (see vulkan_math.h).
//
// Translation rules (each function below names the C function it ports; the algorithms, their
// sources and error bounds are documented there):
//   - MF_FMA / MF_FMAF stay macros: GLSL fma() where the probe found the device's fma fused,
//     else the exact software fma below (kFmaEmulation); MF_SQRT -> sqrt() (gated on correctly
//     rounded sqrt), double and float division as written (gated likewise);
//   - MF_D2U / MF_U2D / MF_F2U / MF_U2F -> doubleBitsToUint64 / uint64BitsToDouble /
//     floatBitsToUint / uintBitsToFloat (macros of the same names); hexadecimal floating
//     constants, which GLSL lacks, -> their IEEE codes; constant quotients of philox.inc
//     (1.0 / 23.0, 1/17!, ...) -> the codes of the correctly rounded quotients the C compiler
//     folds them to;
//   - `x != x` -> isnan(x) (the shaders run with SignedZeroInfNanPreserve where the device has
//     it; isnan states the intent for every compiler);
//   - pointer out-parameters -> `out`; int flags used as conditions -> bool; the host's
//     branch-free form (MF_BRANCHES undefined: both paths evaluated, one selected) where the
//     C text has two forms (they give the same bits);
//   - every floating temporary is `precise` and every returned floating expression is first
//     assigned to one, so that no compiler contracts a product into an add (SPIR-V
//     NoContraction) or reassociates.
#include "providers/vulkan/vulkan_math.h"

#include <vector>

#include "providers/vulkan/vulkan_codegen.h"

namespace matfuse::vk {
namespace {

enum Part : MathParts {
  kHelpF = 1u << 0,      // float helpers and constants
  kHelpD = 1u << 1,      // double helpers and constants, mf_div_fast_
  kExpF = 1u << 2,       // mf_expf
  kExpm1 = 1u << 3,      // mf_expm1f
  kLogSpecial = 1u << 4, // mf_log_special_
  kLogF = 1u << 5,       // mf_logf
  kLogD = 1u << 6,       // mf_log_series_, mf_log_split_
  kLog1p = 1u << 7,
  kLog2 = 1u << 8,
  kLog10 = 1u << 9,
  kTrig = 1u << 10,      // mf_sinf, mf_cosf, mf_tanf
  kSinhCosh = 1u << 11,
  kTanh = 1u << 12,
  kAtanD = 1u << 13,     // mf_atan_d_
  kAtan = 1u << 14,
  kAsin = 1u << 15,
  kAcos = 1u << 16,
  kAtan2 = 1u << 17,
  kHypot = 1u << 18,
  kPow = 1u << 19,
  kPhilox = 1u << 20,    // mf_philox4x32_10, mf_word
  kRandF = 1u << 21,
  kRandD = 1u << 22,
  kRandnF = 1u << 23,
  kRandnD = 1u << 24,
  kModF = 1u << 25,      // mf_Mod / mf_Rem (float) over fmodf
  kModD = 1u << 26,      // mf_Mod / mf_Rem (double) over fmod
};

/// What a part needs of the device.
enum Need : uint32_t {
  kF64 = 1u << 0,
  kFma32 = 1u << 1,
  kFma64 = 1u << 2,
  kDiv32 = 1u << 3,
  kDiv64 = 1u << 4,
  kSqrt32 = 1u << 5,
  kSqrt64 = 1u << 6,
  kCvt = 1u << 7,  // double -> float and 64-bit integer -> double round to nearest
};

struct PartText {
  Part part;
  MathParts deps;  // parts this text calls (emitted before it)
  uint32_t needs;
  const char* text;
};

// Exact fused multiply-add for devices whose fma() is a product and a sum (Vulkan allows it;
// Mesa's lavapipe is one where LLVM does not fuse): a*b + c rounded once to nearest even.
//   - mf_fmaf_sw (single): the product of two floats is exact in double; p + c is rounded to
//     double with its error e from Knuth's TwoSum (exact), then rounded to odd (the last bit
//     set when e != 0, by one step toward e) and rounded to float: rounding to odd at 53 bits
//     followed by rounding to nearest at 24 <= 53 - 2 bits is the correctly rounded result
//     (S. Boldo, G. Melquiond, "Emulation of FMA and correctly rounded sums: proved algorithms
//     using rounding to odd", IEEE Trans. Computers 57(4), 2008, theorem 3). Needs double
//     precision and a round-to-nearest double -> float conversion.
//   - mf_fma64_sw (double): integer arithmetic on the significands (as soft-float libraries do,
//     e.g. J. Hauser's Berkeley SoftFloat f64_mulAdd): the 106-bit product in 128 bits, the
//     addend aligned to it with a sticky bit for the bits shifted out, the sum or difference,
//     then one rounding to nearest even at 53 bits, or at the subnormal position, with
//     overflow to infinity. Zero and non-finite operands take a*b + c, which is fma's value
//     there (an infinite c with finite a, b gives c).
const char* kFmaF = R"GLSL(
float mf_fmaf_sw(float a, float b, float c) {
  precise double p = double(a) * double(b);
  precise double cd = double(c);
  precise double s = p + cd;
  precise double bb = s - p;
  precise double e = (p - (s - bb)) + (cd - bb);
  uint64_t u = MF_D2U(s);
  if (!(e == 0.0LF) && !isnan(e) && (u & 1UL) == 0UL)
    u = (e > 0.0LF) == (s > 0.0LF) ? u + 1UL : u - 1UL;
  precise float r = float(MF_U2D(u));
  return r;
}
)GLSL";
const char* kFmaD = R"GLSL(
int mf_msb64_(uint64_t x) {
  const uint h = uint(x >> 32);
  return h != 0u ? 32 + findMSB(h) : findMSB(uint(x));
}
void mf_shr_jam128_(inout uint64_t h, inout uint64_t l, int n) {
  if (n <= 0) return;
  if (n >= 128) {
    l = (h | l) != 0UL ? 1UL : 0UL;
    h = 0UL;
    return;
  }
  uint64_t lost;
  if (n >= 64) {
    lost = n == 64 ? l : (l | (h << (128 - n)));
    l = n == 64 ? h : (h >> (n - 64));
    h = 0UL;
  } else {
    lost = l << (64 - n);
    l = (l >> n) | (h << (64 - n));
    h = h >> n;
  }
  if (lost != 0UL) l |= 1UL;
}
double mf_fma64_sw(double a, double b, double c) {
  if (isnan(a) || isinf(a) || isnan(b) || isinf(b) || isnan(c) || isinf(c) || a == 0.0LF ||
      b == 0.0LF) {
    if (isinf(c) && !(isnan(a) || isinf(a) || isnan(b) || isinf(b))) return c;
    precise double r = a * b + c;
    return r;
  }
  if (c == 0.0LF) {
    precise double r = a * b;
    return r;
  }
  const uint64_t ua = MF_D2U(a), ub = MF_D2U(b), uc = MF_D2U(c);
  const uint64_t sp = (ua ^ ub) >> 63, sc = uc >> 63;
  int ea = int((ua >> 52) & 0x7ffUL), eb = int((ub >> 52) & 0x7ffUL);
  int ec = int((uc >> 52) & 0x7ffUL);
  uint64_t ma = ua & 0xfffffffffffffUL, mb = ub & 0xfffffffffffffUL, mc = uc & 0xfffffffffffffUL;
  // value = m * 2^(e - 1075) with bit 52 of m set (subnormals normalised)
  if (ea == 0) { const int s = 52 - mf_msb64_(ma); ma <<= s; ea = 1 - s; } else ma |= 1UL << 52;
  if (eb == 0) { const int s = 52 - mf_msb64_(mb); mb <<= s; eb = 1 - s; } else mb |= 1UL << 52;
  if (ec == 0) { const int s = 52 - mf_msb64_(mc); mc <<= s; ec = 1 - s; } else mc |= 1UL << 52;
  // ma * mb (< 2^106) in 128 bits from 32-bit halves
  const uint64_t al = ma & 0xffffffffUL, ah = ma >> 32, bl = mb & 0xffffffffUL, bh = mb >> 32;
  const uint64_t ll = al * bl, mid = al * bh + ah * bl, hh = ah * bh;
  uint64_t pl = ll + (mid << 32);
  uint64_t ph = hh + (mid >> 32) + (pl < ll ? 1UL : 0UL);
  // both in [2^124, 2^126): the product shifted up by 20 bits, the addend by 73
  ph = (ph << 20) | (pl >> 44);
  pl <<= 20;
  const int ep = ea + eb - 2150 - 20, ecc = ec - 1075 - 73;
  uint64_t ch = mc << 9, cl = 0UL;
  int e;
  if (ep >= ecc) {
    mf_shr_jam128_(ch, cl, ep - ecc);
    e = ep;
  } else {
    mf_shr_jam128_(ph, pl, ecc - ep);
    e = ecc;
  }
  uint64_t sh, sl, sg;
  if (sp == sc) {
    sl = pl + cl;
    sh = ph + ch + (sl < pl ? 1UL : 0UL);
    sg = sp;
  } else if (ph > ch || (ph == ch && pl >= cl)) {
    sl = pl - cl;
    sh = ph - ch - (pl < cl ? 1UL : 0UL);
    sg = sp;
  } else {
    sl = cl - pl;
    sh = ch - ph - (cl < pl ? 1UL : 0UL);
    sg = sc;
  }
  if ((sh | sl) == 0UL) return 0.0LF;  // exact cancellation: +0
  // round (sh, sl) * 2^e to 53 bits (or to the subnormal position), to nearest even
  const int lead = sh != 0UL ? 64 + mf_msb64_(sh) : mf_msb64_(sl);
  int shr = lead - 52;
  int biased = e + shr + 1075;
  if (biased < 1) {
    shr += 1 - biased;
    biased = 1;
  }
  uint64_t m;
  if (shr <= 0) {
    m = sl << (-shr);
  } else {
    // (sh, sl) >> (shr - 2) with the bits below jammed: m, then the round and sticky bits
    uint64_t th = sh, tl = sl;
    if (shr == 1) {
      th = (th << 1) | (tl >> 63);
      tl <<= 1;
    } else {
      mf_shr_jam128_(th, tl, shr - 2);
    }
    m = (tl >> 2) | (th << 62);
    if ((tl & 2UL) != 0UL && ((tl & 1UL) != 0UL || (m & 1UL) != 0UL)) m += 1UL;
  }
  uint64_t bits = (uint64_t(biased - 1) << 52) + m;  // a carry out of m raises the exponent
  if (bits >= 0x7ff0000000000000UL) bits = 0x7ff0000000000000UL;
  return MF_U2D(bits | (sg << 63));
}
)GLSL";

// Bit casts (mf_math.inc's MF_D2U ... and philox.inc's MF_F2U_ / MF_U2F_).
const char* kDefs = R"GLSL(
#define MF_D2U(d) doubleBitsToUint64(d)
#define MF_U2D(u) uint64BitsToDouble(u)
#define MF_F2U(f) floatBitsToUint(f)
#define MF_U2F(u) uintBitsToFloat(u)
)GLSL";

// The parts in dependency order (a part only calls parts listed before it).
const PartText kParts[] = {
    // mf_math.inc: float constants (MF_F_*), mf_nanf_, mf_copysignf_.
    {kHelpF, 0, 0, R"GLSL(
#define MF_F_SHIFT MF_U2F(0x4b400000u)
#define MF_F_LOG2E MF_U2F(0x3fb8aa3bu)
#define MF_F_LN2_1 MF_U2F(0x3f317218u)
#define MF_F_LN2_2 MF_U2F(0xb102e308u)
#define MF_F_LN2_H16 MF_U2F(0x3f317200u)
#define MF_F_LN2_L16 MF_U2F(0x35bfbe8eu)
#define MF_F_2_PI MF_U2F(0x3f22f983u)
#define MF_F_PIO2_1 MF_U2F(0x3fc90fdbu)
#define MF_F_PIO2_2 MF_U2F(0xb33bbd2eu)
#define MF_F_PIO2_3 MF_U2F(0xa6f72cedu)
float mf_nanf_() { return MF_U2F(0x7fc00000u); }
float mf_copysignf_(float f, float s) {
  return MF_U2F((MF_F2U(f) & 0x7fffffffu) | (MF_F2U(s) & 0x80000000u));
}
)GLSL"},
    // mf_math.inc: double constants (MF_M_*), mf_infd_, mf_fabsd_, mf_i2d_, mf_div_fast_.
    {kHelpD, 0, kF64 | kFma64 | kDiv32 | kCvt, R"GLSL(
#define MF_M_SHIFT MF_U2D(0x4338000000000000UL)
#define MF_M_LN2_HI MF_U2D(0x3fe62e42fefa3800UL)
#define MF_M_LN2_LO MF_U2D(0x3d2ef35793c76730UL)
#define MF_M_INV_LN2 MF_U2D(0x3ff71547652b82feUL)
#define MF_M_INV_LN10 MF_U2D(0x3fdbcb7b1526e50eUL)
#define MF_M_LOG10_2 MF_U2D(0x3fd34413509f79ffUL)
#define MF_M_PI MF_U2D(0x400921fb54442d18UL)
#define MF_M_PI_2 MF_U2D(0x3ff921fb54442d18UL)
#define MF_M_PI_3 MF_U2D(0x3ff0c152382d7366UL)
#define MF_M_PI_6 MF_U2D(0x3fe0c152382d7366UL)
#define MF_M_SQRT3 MF_U2D(0x3ffbb67ae8584caaUL)
#define MF_M_TAN_PI12 MF_U2D(0x3fd126145e9ecd56UL)
#define MF_M_COT_PI12 MF_U2D(0x400ddb3d742c2655UL)
#define MF_M_2_PI MF_U2D(0x3fe45f306dc9c883UL)
#define MF_M_PIO2_1 MF_U2D(0x3ff921fb54400000UL)
#define MF_M_PIO2_2 MF_U2D(0x3dd0b4611a600000UL)
#define MF_M_PIO2_3 MF_U2D(0x3ba3198a2e037073UL)
double mf_infd_() { return MF_U2D(0x7ff0000000000000UL); }
double mf_fabsd_(double x) { return MF_U2D(MF_D2U(x) & 0x7fffffffffffffffUL); }
double mf_i2d_(int64_t i) {
  precise double r = MF_U2D(MF_D2U(MF_M_SHIFT) + uint64_t(i)) - MF_M_SHIFT;
  return r;
}
double mf_div_fast_(double a, double b) {
  precise double r0 = double(1.0 / float(b));
  precise double q0 = a * r0;
  precise double r = MF_FMA(MF_FMA(-q0, b, a), r0, q0);
  return r;
}
)GLSL"},
    // mf_math.inc: mf_exp_f_, mf_expf.
    {kExpF, kHelpF, kFma32, R"GLSL(
float mf_exp_f_(float x) {
  x = x < -104.0 ? -104.0 : x;
  x = x > 89.0 ? 89.0 : x;
  precise float kb = MF_FMAF(x, MF_F_LOG2E, MF_F_SHIFT);
  precise float kf = kb - MF_F_SHIFT;
  int k = int(MF_F2U(kb) - MF_F2U(MF_F_SHIFT));
  precise float r1 = MF_FMAF(-kf, MF_F_LN2_1, x);
  precise float r = MF_FMAF(-kf, MF_F_LN2_2, r1);
  precise float rl = MF_FMAF(-kf, MF_F_LN2_2, r1 - r);
  precise float p = MF_U2F(0x3951658eu);
  p = MF_FMAF(p, r, MF_U2F(0x3ab69847u));
  p = MF_FMAF(p, r, MF_U2F(0x3c0887e4u));
  p = MF_FMAF(p, r, MF_U2F(0x3d2aaa80u));
  p = MF_FMAF(p, r, MF_U2F(0x3e2aaaabu));
  p = MF_FMAF(p, r, 0.5);
  precise float q = r + MF_FMAF(r * r, p, rl);
  const bool lo = k < -149, hi = k > 127;
  q = lo ? (q - 1.0) * 0.5 : q;
  k = lo ? -149 : k;
  k = hi ? 127 : k;
  const uint sh = uint(k + 149) & 31u;
  precise float s = k >= -126 ? MF_U2F(uint(k + 127) << 23) : MF_U2F(1u << sh);
  precise float v = MF_FMAF(s, q, s);
  precise float res = hi ? v * 2.0 : v;
  return res;
}
float mf_expf(float x) {
  precise float r = mf_exp_f_(x);
  return isnan(x) ? x : r;
}
)GLSL"},
    // mf_math.inc: mf_expm1_poly_, mf_exp_parts_, mf_expm1_d_, mf_expm1f.
    {kExpm1, kHelpD, kF64 | kFma64 | kCvt, R"GLSL(
double mf_expm1_poly_(double r) {
  precise double p = MF_U2D(0x3e92880411bad1aaUL);
  p = MF_FMA(p, r, MF_U2D(0x3ec72c72ca338df0UL));
  p = MF_FMA(p, r, MF_U2D(0x3efa019c9a5652d3UL));
  p = MF_FMA(p, r, MF_U2D(0x3f2a019ada3609f3UL));
  p = MF_FMA(p, r, MF_U2D(0x3f56c16c1738ff55UL));
  p = MF_FMA(p, r, MF_U2D(0x3f81111111c478ebUL));
  p = MF_FMA(p, r, MF_U2D(0x3fa5555555554cb7UL));
  p = MF_FMA(p, r, MF_U2D(0x3fc5555555553b78UL));
  p = MF_FMA(p, r, 0.5LF);
  precise double res = MF_FMA(r * r, p, r);
  return res;
}
void mf_exp_parts_(double t, out double s, out double q, double tl) {
  t = t < -110.0LF ? -110.0LF : t;
  t = t > 100.0LF ? 100.0LF : t;
  precise double kb = MF_FMA(t, MF_M_INV_LN2, MF_M_SHIFT);
  precise double kd = kb - MF_M_SHIFT;
  precise double r = MF_FMA(-kd, MF_M_LN2_LO, MF_FMA(-kd, MF_M_LN2_HI, t)) + tl;
  s = MF_U2D((MF_D2U(kb) + 1023UL) << 52);
  q = mf_expm1_poly_(r);
}
double mf_expm1_d_(double t) {
  double s, q;
  mf_exp_parts_(t, s, q, 0.0LF);
  precise double res = MF_FMA(s, q, s - 1.0LF);
  return res;
}
float mf_expm1f(float x) {
  precise float r = float(mf_expm1_d_(double(x)));
  return (isnan(x) || x == 0.0) ? x : r;
}
)GLSL"},
    // mf_math.inc: mf_log_special_ (inf as its float code: (float)mf_infd_() is that value).
    {kLogSpecial, kHelpF, 0, R"GLSL(
float mf_log_special_(float x, float r) {
  const float inf = MF_U2F(0x7f800000u);
  r = x == inf ? inf : r;
  r = x == 0.0 ? -inf : r;
  r = x < 0.0 ? mf_nanf_() : r;
  return isnan(x) ? x : r;
}
)GLSL"},
    // mf_math.inc: mf_log_f_, mf_logf.
    {kLogF, kHelpF | kLogSpecial, kFma32, R"GLSL(
float mf_log_f_(float x) {
  const bool sub = x < MF_U2F(0x00800000u);
  precise float xs = sub ? x * MF_U2F(0x4b000000u) : x;
  const uint bx = MF_F2U(xs);
  const int k = int(bx - 0x3f3504f3u) >> 23;
  precise float t = MF_U2F(bx - (uint(k) << 23)) - 1.0;
  precise float kf = float(k - (sub ? 23 : 0));
  precise float p = MF_U2F(0x3d8e355eu);
  p = MF_FMAF(p, t, MF_U2F(0xbdeecc0fu));
  p = MF_FMAF(p, t, MF_U2F(0x3df1756fu));
  p = MF_FMAF(p, t, MF_U2F(0xbdfdff62u));
  p = MF_FMAF(p, t, MF_U2F(0x3e11be67u));
  p = MF_FMAF(p, t, MF_U2F(0xbe2aafbfu));
  p = MF_FMAF(p, t, MF_U2F(0x3e4cd0a4u));
  p = MF_FMAF(p, t, MF_U2F(0xbe7ffffau));
  p = MF_FMAF(p, t, MF_U2F(0x3eaaaaa7u));
  p = MF_FMAF(p, t, -0.5);
  precise float a = kf * MF_F_LN2_H16;
  precise float s = a + t;
  precise float e = (a - s) + t;
  precise float res = s + (e + MF_FMAF(t * t, p, kf * MF_F_LN2_L16));
  return res;
}
float mf_logf(float x) {
  precise float r = mf_log_f_(x);
  return mf_log_special_(x, r);
}
)GLSL"},
    // mf_math.inc: mf_log_series_, mf_log_split_.
    {kLogD, kHelpD, kF64 | kFma64, R"GLSL(
double mf_log_series_(double f) {
  precise double z = f * f;
  precise double p = MF_U2D(0x3fb546adfbbda333UL);
  p = MF_FMA(p, z, MF_U2D(0x3fb7382d06f0c1deUL));
  p = MF_FMA(p, z, MF_U2D(0x3fbc71fcd1ced0aeUL));
  p = MF_FMA(p, z, MF_U2D(0x3fc2492462aa8c89UL));
  p = MF_FMA(p, z, MF_U2D(0x3fc9999999b86b7cUL));
  p = MF_FMA(p, z, MF_U2D(0x3fd55555555553b8UL));
  precise double f2 = f + f;
  precise double res = MF_FMA(f2, z * p, f2);
  return res;
}
double mf_log_split_(double u, out double num, out double den) {
  const uint64_t b = MF_D2U(u);
  const uint64_t ix = b - 0x3fe6a09e667f3bcdUL;
  precise double kd = MF_U2D(0x4330000000000000UL + ((ix >> 52) ^ 0x800UL)) -
                      (MF_U2D(0x4330000000000000UL) + 2048.0LF);
  precise double m = MF_U2D(b - (ix & 0xfff0000000000000UL));
  precise double nm = m - 1.0LF, dn = m + 1.0LF;
  num = nm;
  den = dn;
  return kd;
}
)GLSL"},
    // mf_math.inc: mf_log1pf.
    {kLog1p, kLogD | kLogSpecial, kF64 | kFma64 | kCvt, R"GLSL(
float mf_log1pf(float x) {
  precise double xd = double(x);
  double num, den;
  precise double x1d = 1.0LF + xd;
  precise double kd = mf_log_split_(x1d, num, den);
  const bool nr = mf_fabsd_(xd) < 0.25LF;
  kd = nr ? 0.0LF : kd;
  num = nr ? xd : num;
  precise double den2 = nr ? 2.0LF + xd : den;
  precise double f = mf_div_fast_(num, den2);
  precise float r = float(MF_FMA(kd, MF_M_LN2_HI, MF_FMA(kd, MF_M_LN2_LO, mf_log_series_(f))));
  precise float x1 = x + 1.0;
  return (isnan(x) || x == 0.0) ? x : mf_log_special_(x1, r);
}
)GLSL"},
    // mf_math.inc: mf_log2f.
    {kLog2, kLogD | kLogSpecial, kF64 | kFma64 | kCvt, R"GLSL(
float mf_log2f(float x) {
  double num, den;
  precise double kd = mf_log_split_(double(x), num, den);
  precise float r = float(MF_FMA(mf_log_series_(mf_div_fast_(num, den)), MF_M_INV_LN2, kd));
  return mf_log_special_(x, r);
}
)GLSL"},
    // mf_math.inc: mf_log10f.
    {kLog10, kLogD | kLogSpecial, kF64 | kFma64 | kCvt, R"GLSL(
float mf_log10f(float x) {
  double num, den;
  precise double kd = mf_log_split_(double(x), num, den);
  precise float r =
      float(MF_FMA(kd, MF_M_LOG10_2, mf_log_series_(mf_div_fast_(num, den)) * MF_M_INV_LN10));
  return mf_log_special_(x, r);
}
)GLSL"},
    // mf_math.inc: mf_sin_poly_, mf_cos_poly_, mf_rem_pio2_small_, mf_2opi_word_ (as a table),
    // mf_rem_pio2_big_ (Payne-Hanek), mf_sin_quadrant_, mf_tan_quadrant_, mf_rem_pio2_f_,
    // mf_sc_poly_f_, mf_sin_fin_f_, mf_cos_fin_f_, mf_sin_quadrant_f_, mf_sinf_small,
    // mf_cosf_small, mf_tanf_small, mf_trig_small, mf_trig_big_, mf_sinf, mf_cosf, mf_tanf.
    {kTrig, kHelpF | kHelpD, kF64 | kFma32 | kFma64 | kCvt | kDiv32, R"GLSL(
#define MF_SIN_S5 MF_U2D(0x3de5e0af18733f9eUL)
#define MF_SIN_S4 MF_U2D(0xbe5ae600a926df9aUL)
#define MF_SIN_S3 MF_U2D(0x3ec71de37961e4dcUL)
#define MF_SIN_S2 MF_U2D(0xbf2a01a019e8357dUL)
#define MF_SIN_S1 MF_U2D(0x3f81111111110bb1UL)
#define MF_SIN_S0 MF_U2D(0xbfc5555555555555UL)
#define MF_COS_C5 MF_U2D(0xbda907d7aec5a8a3UL)
#define MF_COS_C4 MF_U2D(0x3e21eeb68b109cf5UL)
#define MF_COS_C3 MF_U2D(0xbe927e4fa17a41bfUL)
#define MF_COS_C2 MF_U2D(0x3efa01a019f4e867UL)
#define MF_COS_C1 MF_U2D(0xbf56c16c16c16966UL)
#define MF_COS_C0 MF_U2D(0x3fa5555555555555UL)
double mf_sin_poly_(double r) {
  precise double z = r * r;
  precise double p = MF_SIN_S5;
  p = MF_FMA(p, z, MF_SIN_S4);
  p = MF_FMA(p, z, MF_SIN_S3);
  p = MF_FMA(p, z, MF_SIN_S2);
  p = MF_FMA(p, z, MF_SIN_S1);
  p = MF_FMA(p, z, MF_SIN_S0);
  precise double res = MF_FMA(r * z, p, r);
  return res;
}
double mf_cos_poly_(double r) {
  precise double z = r * r;
  precise double p = MF_COS_C5;
  p = MF_FMA(p, z, MF_COS_C4);
  p = MF_FMA(p, z, MF_COS_C3);
  p = MF_FMA(p, z, MF_COS_C2);
  p = MF_FMA(p, z, MF_COS_C1);
  p = MF_FMA(p, z, MF_COS_C0);
  precise double res = MF_FMA(z * z, p, MF_FMA(-0.5LF, z, 1.0LF));
  return res;
}
double mf_rem_pio2_small_(double x, out uint q) {
  precise double kb = MF_FMA(x, MF_M_2_PI, MF_M_SHIFT);
  precise double kd = kb - MF_M_SHIFT;
  q = uint(MF_D2U(kb)) & 3u;
  precise double r =
      MF_FMA(-kd, MF_M_PIO2_3, MF_FMA(-kd, MF_M_PIO2_2, MF_FMA(-kd, MF_M_PIO2_1, x)));
  return r;
}
const uint64_t mf_2opi_words_[9] = uint64_t[9](0UL, 0xA2F9836EUL, 0x4E441529UL, 0xFC2757D1UL,
    0xF534DDC0UL, 0xDB629599UL, 0x3C439041UL, 0xFE5163ABUL, 0xDEBBC561UL);
uint64_t mf_2opi_word_(int i) { return i >= 1 && i <= 8 ? mf_2opi_words_[i] : 0UL; }
double mf_rem_pio2_big_(float x, out uint q) {
  const uint bx = MF_F2U(x);
  const int e = int((bx >> 23) & 0xffu) - 150;
  const uint64_t M = uint64_t((bx & 0x7fffffu) | 0x800000u);
  const int pt = e + 30;
  const int wi = pt >> 5, sh = pt & 31;
  uint64_t w[4];
  for (int k = 0; k < 4; ++k) {
    const uint64_t two = (mf_2opi_word_(wi + k) << 32) | mf_2opi_word_(wi + k + 1);
    w[k] = (two >> (32 - sh)) & 0xffffffffUL;
  }
  const uint64_t p3 = M * w[3], p2 = M * w[2], p1 = M * w[1], p0 = M * w[0];
  const uint64_t lo = p3 + (p2 << 32);
  const uint64_t carry = lo < p3 ? 1UL : 0UL;
  const uint64_t hi = p1 + (p2 >> 32) + (p0 << 32) + carry;
  uint quad = uint(hi >> 62);
  const uint64_t mask = 0x3fffffffffffffffUL;
  uint64_t fh = hi & mask, fl = lo;
  precise double sg = 1.0LF;
  if ((fh >> 61) != 0UL) {
    fl = ~lo + 1UL;
    fh = ((~hi) & mask) + (lo == 0UL ? 1UL : 0UL);
    quad += 1u;
    sg = -1.0LF;
  }
  precise double f =
      double(fh) * MF_U2D(0x3c10000000000000UL) + double(fl) * MF_U2D(0x3810000000000000UL);
  precise double r = sg * (f * MF_M_PI_2);
  if (x < 0.0) {
    r = -r;
    quad = 0u - quad;
  }
  q = quad & 3u;
  return r;
}
double mf_sin_quadrant_(double r, uint q) {
  const bool c = (q & 1u) != 0u;
  precise double z = r * r;
  precise double p = c ? MF_COS_C5 : MF_SIN_S5;
  p = MF_FMA(p, z, c ? MF_COS_C4 : MF_SIN_S4);
  p = MF_FMA(p, z, c ? MF_COS_C3 : MF_SIN_S3);
  p = MF_FMA(p, z, c ? MF_COS_C2 : MF_SIN_S2);
  p = MF_FMA(p, z, c ? MF_COS_C1 : MF_SIN_S1);
  p = MF_FMA(p, z, c ? MF_COS_C0 : MF_SIN_S0);
  precise double a = c ? MF_FMA(-0.5LF, z, 1.0LF) : r;
  precise double b = c ? z * z : r * z;
  precise double v = MF_FMA(b, p, a);
  return (q & 2u) != 0u ? -v : v;
}
double mf_tan_quadrant_(double r, uint q) {
  precise double s = mf_sin_poly_(r), c = mf_cos_poly_(r);
  return (q & 1u) != 0u ? mf_div_fast_(-c, s) : mf_div_fast_(s, c);
}
float mf_rem_pio2_f_(float x, out float rl, out uint q) {
  precise float kb = MF_FMAF(x, MF_F_2_PI, MF_F_SHIFT);
  precise float kf = kb - MF_F_SHIFT;
  q = MF_F2U(kb) & 3u;
  precise float r1 = MF_FMAF(-kf, MF_F_PIO2_1, x);
  precise float th = kf * MF_F_PIO2_2;
  precise float tl = MF_FMAF(kf, MF_F_PIO2_2, -th);
  precise float s = r1 - th;
  precise float bb = s - r1;
  precise float e = (r1 - (s - bb)) + (-th - bb);
  precise float l = MF_FMAF(-kf, MF_F_PIO2_3, e - tl);
  rl = l;
  return s;
}
float mf_sc_poly_f_(float z, float c3, float c2, float c1, float c0) {
  precise float p = c3;
  p = MF_FMAF(p, z, c2);
  p = MF_FMAF(p, z, c1);
  precise float res = MF_FMAF(p, z, c0);
  return res;
}
float mf_sin_fin_f_(float rh, float rl, float z, float p) {
  precise float res = rh + MF_FMAF(rh * z, p, rl);
  return res;
}
float mf_cos_fin_f_(float rh, float rl, float z, float p) {
  precise float hz = 0.5 * z;
  precise float w = 1.0 - hz;
  precise float corr = MF_FMAF(0.5, MF_FMAF(rh, rh, -z), rh * rl);
  precise float res = w + (((1.0 - w) - hz) + MF_FMAF(z * z, p, -corr));
  return res;
}
float mf_sin_quadrant_f_(float rh, float rl, uint q) {
  const bool c = (q & 1u) != 0u;
  precise float z = rh * rh;
  precise float p = mf_sc_poly_f_(z, c ? MF_U2F(0xb4a9c5fdu) : MF_U2F(0x36428788u),
                                  c ? MF_U2F(0x37d072eeu) : MF_U2F(0xb9503e23u),
                                  c ? MF_U2F(0xbab60be5u) : MF_U2F(0x3c0888cau),
                                  c ? MF_U2F(0x3d2aaaabu) : MF_U2F(0xbe2aaaabu));
  precise float vs = mf_sin_fin_f_(rh, rl, z, p), vc = mf_cos_fin_f_(rh, rl, z, p);
  precise float v = c ? vc : vs;
  return (q & 2u) != 0u ? -v : v;
}
float mf_sinf_small(float x) {
  uint q;
  float rl;
  precise float rh = mf_rem_pio2_f_(x, rl, q);
  precise float v = mf_sin_quadrant_f_(rh, rl, q);
  return x == 0.0 ? x : v;
}
float mf_cosf_small(float x) {
  uint q;
  float rl;
  precise float rh = mf_rem_pio2_f_(x, rl, q);
  return mf_sin_quadrant_f_(rh, rl, q + 1u);
}
float mf_tanf_small(float x) {
  uint q;
  precise double r = mf_rem_pio2_small_(double(x), q);
  precise float v = float(mf_tan_quadrant_(r, q));
  return x == 0.0 ? x : v;
}
bool mf_trig_small(float x) { return x < 524288.0 && x > -524288.0; }
float mf_trig_big_(float x, int fn) {
  if (isnan(x)) return x;
  if (x == MF_U2F(0x7f800000u) || x == MF_U2F(0xff800000u)) return mf_nanf_();
  uint q;
  precise double r = mf_rem_pio2_big_(x, q);
  precise float res =
      fn == 2 ? float(mf_tan_quadrant_(r, q)) : float(mf_sin_quadrant_(r, q + uint(fn)));
  return res;
}
float mf_sinf(float x) { return mf_trig_small(x) ? mf_sinf_small(x) : mf_trig_big_(x, 0); }
float mf_cosf(float x) { return mf_trig_small(x) ? mf_cosf_small(x) : mf_trig_big_(x, 1); }
float mf_tanf(float x) { return mf_trig_small(x) ? mf_tanf_small(x) : mf_trig_big_(x, 2); }
)GLSL"},
    // mf_math.inc: mf_sinhcosh_f_, mf_sinhf, mf_coshf.
    {kSinhCosh, kHelpF, kFma32, R"GLSL(
float mf_sinhcosh_f_(float a, bool want_sinh) {
  a = a > MF_U2F(0x42b30000u) ? MF_U2F(0x42b30000u) : a;
  precise float kb = MF_FMAF(a, MF_F_LOG2E, MF_F_SHIFT);
  const bool lo = want_sinh && a < MF_U2F(0x3f0ccccdu);
  precise float kf = lo ? 0.0 : kb - MF_F_SHIFT;
  const int k = lo ? 0 : int(MF_F2U(kb) - MF_F2U(MF_F_SHIFT));
  precise float r1 = MF_FMAF(-kf, MF_F_LN2_1, a);
  precise float r = MF_FMAF(-kf, MF_F_LN2_2, r1);
  precise float rl = MF_FMAF(-kf, MF_F_LN2_2, r1 - r);
  precise float z = r * r;
  precise float c = MF_U2F(0x37d1651fu);
  c = MF_FMAF(c, z, MF_U2F(0x3ab60a75u));
  c = MF_FMAF(c, z, MF_U2F(0x3d2aaaabu));
  precise float cl = z * MF_FMAF(c, z, 0.5);
  precise float p = MF_U2F(0x395175f0u);
  p = MF_FMAF(p, z, MF_U2F(0x3c0887cbu));
  p = MF_FMAF(p, z, MF_U2F(0x3e2aaaabu));
  precise float shl = MF_FMAF(r * z, p, rl);
  precise float sh = r + shl;
  const bool ex = k <= 11;
  const int kk = k < 30 ? k : 30;
  precise float s = MF_U2F(uint(k + 125) << 23);
  precise float si = MF_U2F(uint(125 - kk) << 23);
  precise float ha = ex ? s + si : s;
  precise float hb = ex ? s - si : s;
  precise float cc = ex ? 0.0 : MF_FMAF(si, cl - sh, si);
  cc = want_sinh ? -cc : cc;
  precise float u = want_sinh ? ha : hb;
  precise float w = want_sinh ? hb : ha;
  precise float v = 2.0 * (w + MF_FMAF(u, r, MF_FMAF(u, shl, MF_FMAF(w, cl, cc))));
  return (want_sinh && k == 0) ? sh : v;
}
float mf_sinhf(float x) {
  precise float r = mf_sinhcosh_f_(MF_U2F(MF_F2U(x) & 0x7fffffffu), true);
  return isnan(x) ? x : mf_copysignf_(r, x);
}
float mf_coshf(float x) {
  precise float r = mf_sinhcosh_f_(MF_U2F(MF_F2U(x) & 0x7fffffffu), false);
  return isnan(x) ? x : r;
}
)GLSL"},
    // mf_math.inc: mf_tanh_lo_, mf_tanh_hi_, mf_tanhf.
    {kTanh, kHelpF, kFma32 | kDiv32, R"GLSL(
float mf_tanh_lo_(float ax) {
  precise float z = ax * ax;
  precise float p = MF_U2F(0xbbd80053u);
  p = MF_FMAF(p, z, MF_U2F(0x3cae75f0u));
  p = MF_FMAF(p, z, MF_U2F(0xbd5cccefu));
  p = MF_FMAF(p, z, MF_U2F(0x3e0887e3u));
  p = MF_FMAF(p, z, MF_U2F(0xbeaaaaaau));
  precise float res = MF_FMAF(ax * z, p, ax);
  return res;
}
float mf_tanh_hi_(float ax) {
  precise float a = ax > MF_U2F(0x4111999au) ? MF_U2F(0x4111999au) : ax;
  precise float t = a + a;
  precise float kb = MF_FMAF(t, MF_F_LOG2E, MF_F_SHIFT);
  precise float kf = kb - MF_F_SHIFT;
  const uint k = MF_F2U(kb) - MF_F2U(MF_F_SHIFT);
  precise float r = MF_FMAF(-kf, MF_F_LN2_2, MF_FMAF(-kf, MF_F_LN2_1, t));
  precise float e = MF_U2F(0x3ab69847u);
  e = MF_FMAF(e, r, MF_U2F(0x3c09061cu));
  e = MF_FMAF(e, r, MF_U2F(0x3d2aaa80u));
  e = MF_FMAF(e, r, MF_U2F(0x3e2aaa6eu));
  e = MF_FMAF(e, r, 0.5);
  precise float q = MF_FMAF(r * r, e, r);
  precise float s = MF_U2F((k + 127u) << 23);
  precise float res = 1.0 - 2.0 / MF_FMAF(s, q, s + 1.0);
  return res;
}
float mf_tanhf(float x) {
  precise float ax = MF_U2F(MF_F2U(x) & 0x7fffffffu);
  precise float vs = mf_tanh_lo_(ax), vl = mf_tanh_hi_(ax);
  precise float v = ax < MF_U2F(0x3f0ccccdu) ? vs : vl;
  return isnan(x) ? x : mf_copysignf_(v, x);
}
)GLSL"},
    // mf_math.inc: mf_atan_d_.
    {kAtanD, kHelpD, kF64 | kFma64, R"GLSL(
double mf_atan_d_(double x) {
  precise double ax = mf_fabsd_(x);
  ax = ax > MF_U2D(0x4270000000000000UL) ? MF_U2D(0x4270000000000000UL) : ax;
  const bool c1 = ax > MF_M_TAN_PI12, c2 = ax > 1.0LF, c3 = ax > MF_M_COT_PI12;
  precise double n = c1 ? MF_FMA(ax, MF_M_SQRT3, -1.0LF) : ax;
  n = c2 ? MF_M_SQRT3 - ax : n;
  n = c3 ? 1.0LF : n;
  precise double d = c1 ? MF_M_SQRT3 + ax : 1.0LF;
  d = c2 ? MF_FMA(ax, MF_M_SQRT3, 1.0LF) : d;
  d = c3 ? ax : d;
  precise double t = mf_div_fast_(n, d);
  precise double z = t * t;
  precise double p = MF_U2D(0x3fa770ea858ed9f5UL);
  p = MF_FMA(p, z, MF_U2D(0xbfb0b241dcb3e0f0UL));
  p = MF_FMA(p, z, MF_U2D(0x3fb3ab9c1a60e691UL));
  p = MF_FMA(p, z, MF_U2D(0xbfb745a1afc4c811UL));
  p = MF_FMA(p, z, MF_U2D(0x3fbc71c63ec93d82UL));
  p = MF_FMA(p, z, MF_U2D(0xbfc24924914bbc44UL));
  p = MF_FMA(p, z, MF_U2D(0x3fc999999998bc56UL));
  p = MF_FMA(p, z, MF_U2D(0xbfd5555555555545UL));
  precise double a = MF_FMA(t * z, p, t);
  precise double base = c1 ? MF_M_PI_6 : 0.0LF;
  base = c2 ? MF_M_PI_3 : base;
  base = c3 ? MF_M_PI_2 : base;
  precise double v = base + (c2 ? -a : a);
  return x < 0.0LF ? -v : v;
}
)GLSL"},
    // mf_math.inc: mf_atanf.
    {kAtan, kAtanD, kCvt, R"GLSL(
float mf_atanf(float x) {
  precise float r = float(mf_atan_d_(double(x)));
  return (isnan(x) || x == 0.0) ? x : r;
}
)GLSL"},
    // mf_math.inc: mf_asinf.
    {kAsin, kAtanD | kHelpF, kCvt | kSqrt64 | kDiv64, R"GLSL(
float mf_asinf(float x) {
  precise double xd = double(x);
  precise float r = float(mf_atan_d_(xd / sqrt((1.0LF - xd) * (1.0LF + xd))));
  return (isnan(x) || x == 0.0) ? x : (x > 1.0 || x < -1.0) ? mf_nanf_() : r;
}
)GLSL"},
    // mf_math.inc: mf_acosf.
    {kAcos, kAtanD | kHelpF, kCvt | kSqrt64 | kDiv64, R"GLSL(
float mf_acosf(float x) {
  precise double xd = double(x);
  precise float r = float(2.0LF * mf_atan_d_(sqrt((1.0LF - xd) / (1.0LF + xd))));
  return isnan(x) ? x : (x > 1.0 || x < -1.0) ? mf_nanf_() : r;
}
)GLSL"},
    // mf_math.inc: mf_atan2f.
    {kAtan2, kAtanD | kHelpF, kCvt | kDiv64, R"GLSL(
float mf_atan2f(float y, float x) {
  precise double ay = mf_fabsd_(double(y)), ax = mf_fabsd_(double(x));
  precise double t = ay / ax;
  t = ay == 0.0LF ? 0.0LF : t;
  t = (ay == mf_infd_() && ax == mf_infd_()) ? 1.0LF : t;
  precise double a = mf_atan_d_(t);
  a = (MF_F2U(x) >> 31) != 0u ? MF_M_PI - a : a;
  precise float r = mf_copysignf_(float(a), y);
  return isnan(y) ? y : isnan(x) ? x : r;
}
)GLSL"},
    // mf_math.inc: mf_hypotf (inf as its float code, the value of (float)mf_infd_()).
    {kHypot, 0, kF64 | kCvt | kSqrt64, R"GLSL(
float mf_hypotf(float a, float b) {
  precise double ad = double(a), bd = double(b);
  precise float r = float(sqrt(ad * ad + bd * bd));
  const float inf = MF_U2F(0x7f800000u);
  return (a == inf || a == -inf || b == inf || b == -inf) ? inf : isnan(a) ? a : isnan(b) ? b : r;
}
)GLSL"},
    // mf_math.inc: mf_pow_poly_, mf_pow_log2t_, mf_pow_exp2t_ (as IEEE codes), mf_powf_pos_ok_,
    // mf_powf_pos_, mf_powf_special_, mf_powf.
    {kPow, kHelpF | kHelpD, kF64 | kFma64 | kCvt, R"GLSL(
const uint64_t mf_pow_poly_[10] = uint64_t[10](
    0xbfce2230e09b99a5UL, 0x3fd27867f0f83f05UL, 0xbfd7154e04152deeUL, 0x3fdec709d729099bUL,
    0xbfe71547651deb10UL, 0x3ff71547652b8463UL,
    0x3f83b2b07c215ed2UL, 0x3fac6b13c3d5815cUL, 0x3fcebfbdff8223f9UL, 0x3fe62e42fef8dc43UL);
#define MF_POW_SHIFT MF_U2D(0x42e8000000000000UL)
const uint64_t mf_pow_log2t_[64] = uint64_t[64](
    0x3ff6a13ce15452a8UL, 0xbfe001435363e046UL, 0x3ff623fa86530321UL, 0xbfddfdd8dd3ac25eUL,
    0x3ff5ac0579aebea1UL, 0xbfdc0438986b3253UL, 0x3ff53909570751cdUL, 0xbfda152f5165ef99UL,
    0x3ff4cab894a81a5eUL, 0xbfd8304dccbf401eUL, 0x3ff460cbd4eff328UL, 0xbfd6552b8464e05cUL,
    0x3ff3fb014c29d65aUL, 0xbfd48366203ca073UL, 0x3ff3991c38192d74UL, 0xbfd2baa0fbd833cbUL,
    0x3ff33ae466e61847UL, 0xbfd0fa84b7c12a1bUL, 0x3ff2e025cb6dcd27UL, 0xbfce857daa23564cUL,
    0x3ff288b01d44be0aUL, 0xbfcb2602b471e03aUL, 0x3ff2345682f5f3c7UL, 0xbfc7d604ffdd8458UL,
    0x3ff1e2ef453f2003UL, 0xbfc494f8caf0e58fUL, 0x3ff194538a34eadfUL, 0xbfc1625996f93f29UL,
    0x3ff1485f176055ecUL, 0xbfbc7b5352e917f1UL, 0x3ff0fef01a05cf31UL, 0xbfb64ce3302f0de0UL,
    0x3ff0b7e6f4e1a598UL, 0xbfb0387fbcbf4633UL, 0x3ff0732612bcbc2fUL, 0xbfa47aa1ef0de43cUL,
    0x3ff03091bd50398bUL, 0xbf916a24cd753918UL, 0x3ff0000000000000UL, 0x0000000000000000UL,
    0x3feecc07d0a5902fUL, 0x3fac4df7f226a58cUL, 0x3fede5d6ffe78ef3UL, 0x3fb918a01534f2e2UL,
    0x3fed0cb5a9cdceacUL, 0x3fc1dcd0efb18dffUL, 0x3fec3f8f1ab3b187UL, 0x3fc7074231eb460aUL,
    0x3feb7d6c5577c5dfUL, 0x3fcc0db62f35e224UL, 0x3feac570312b0887UL, 0x3fd0790a8e71586aUL,
    0x3fea16d40ebf73d1UL, 0x3fd2db10b1069464UL, 0x3fe970e50c46ac8fUL, 0x3fd52dbdb2e458eaUL,
    0x3fe8d301a0720a92UL, 0x3fd771d272de4f3cUL, 0x3fe83c978d0e14deUL, 0x3fd9a801f32f783aUL,
    0x3fe7ad221a657675UL, 0x3fdbd0f2a596d479UL, 0x3fe72428900301daUL, 0x3fdded3f917cb458UL);
const uint64_t mf_pow_exp2t_[32] = uint64_t[32](
    0x3ff0000000000000UL, 0x3ff059b0d3158574UL, 0x3ff0b5586cf9890fUL, 0x3ff11301d0125b51UL,
    0x3ff172b83c7d517bUL, 0x3ff1d4873168b9aaUL, 0x3ff2387a6e756238UL, 0x3ff29e9df51fdee1UL,
    0x3ff306fe0a31b715UL, 0x3ff371a7373aa9cbUL, 0x3ff3dea64c123422UL, 0x3ff44e086061892dUL,
    0x3ff4bfdad5362a27UL, 0x3ff5342b569d4f82UL, 0x3ff5ab07dd485429UL, 0x3ff6247eb03a5585UL,
    0x3ff6a09e667f3bcdUL, 0x3ff71f75e8ec5f74UL, 0x3ff7a11473eb0187UL, 0x3ff82589994cce13UL,
    0x3ff8ace5422aa0dbUL, 0x3ff93737b0cdc5e5UL, 0x3ff9c49182a3f090UL, 0x3ffa5503b23e255dUL,
    0x3ffae89f995ad3adUL, 0x3ffb7f76f2fb5e47UL, 0x3ffc199bdd85529cUL, 0x3ffcb720dcef9069UL,
    0x3ffd5818dcfba487UL, 0x3ffdfc97337b9b5fUL, 0x3ffea4afa2a490daUL, 0x3fff50765b6e4540UL);
bool mf_powf_pos_ok_(float x, float y) {
  return (MF_F2U(x) < 0x7f800000u) && ((MF_F2U(y) & 0x7fffffffu) < 0x7f800000u);
}
float mf_powf_pos_(float x, float y) {
  const bool sub = x < MF_U2F(0x00800000u);
  precise float xs = sub ? x * MF_U2F(0x4b000000u) : x;
  const uint ux = MF_F2U(xs);
  const uint tmp = ux - 0x3f330000u;
  const int i = int((tmp >> 18) & 31u);
  const int k = (int(tmp) >> 23) - (sub ? 23 : 0);
  precise double z =
      MF_U2D((uint64_t(ux - (tmp & 0xff800000u)) << 29) + (uint64_t(1023 - 127) << 52));
  precise double r = MF_FMA(z, MF_U2D(mf_pow_log2t_[2 * i]), -1.0LF);
  precise double p = MF_U2D(mf_pow_poly_[0]);
  p = MF_FMA(p, r, MF_U2D(mf_pow_poly_[1]));
  p = MF_FMA(p, r, MF_U2D(mf_pow_poly_[2]));
  p = MF_FMA(p, r, MF_U2D(mf_pow_poly_[3]));
  p = MF_FMA(p, r, MF_U2D(mf_pow_poly_[4]));
  p = MF_FMA(p, r, MF_U2D(mf_pow_poly_[5]));
  precise double kd0 = x == 0.0 ? MF_U2D(0xfe70000000000000UL) : mf_i2d_(int64_t(k));
  precise double l = MF_FMA(r, p, kd0 + MF_U2D(mf_pow_log2t_[2 * i + 1]));
  precise double yl = double(y) * l;
  const uint64_t tb = MF_D2U(yl), tm = tb & 0x7fffffffffffffffUL;
  const uint64_t b200 = 0x4069000000000000UL;
  precise double t = MF_U2D((tm < b200 ? tm : b200) | (tb & 0x8000000000000000UL));
  precise double kd = t + MF_POW_SHIFT;
  const uint64_t n = MF_D2U(kd);
  precise double r2 = t - (kd - MF_POW_SHIFT);
  precise double q = MF_U2D(mf_pow_poly_[6]);
  q = MF_FMA(q, r2, MF_U2D(mf_pow_poly_[7]));
  q = MF_FMA(q, r2, MF_U2D(mf_pow_poly_[8]));
  q = MF_FMA(q, r2, MF_U2D(mf_pow_poly_[9]));
  precise double s = MF_U2D(mf_pow_exp2t_[uint(n & 31UL)] + ((n >> 5) << 52));
  precise float res = float(MF_FMA(s, r2 * q, s));
  return res;
}
float mf_powf_special_(float x, float y) {
  const float inf = MF_U2F(0x7f800000u);
  const float ax = MF_U2F(MF_F2U(x) & 0x7fffffffu), ay = MF_U2F(MF_F2U(y) & 0x7fffffffu);
  if (x == 1.0 || y == 0.0) return 1.0;
  if (isnan(y)) return y;
  if (isnan(x)) return x;
  if (ay == inf) return ax == 1.0 ? 1.0 : ((ax > 1.0) == (y > 0.0)) ? inf : 0.0;
  precise float mag = ax == inf ? (y > 0.0 ? inf : 0.0) : mf_powf_pos_(ax, y);
  const bool y_big = ay >= MF_U2F(0x4b800000u);
  const int yi = int(y_big ? 0.0 : y);
  const bool y_int = y_big || float(yi) == y;
  if (!y_int && x < 0.0 && x != -inf) return mf_nanf_();
  return ((MF_F2U(x) >> 31) != 0u && !y_big && y_int && (yi & 1) != 0) ? -mag : mag;
}
float mf_powf(float x, float y) {
  return mf_powf_pos_ok_(x, y) ? mf_powf_pos_(x, y) : mf_powf_special_(x, y);
}
)GLSL"},
    // philox.inc: mf_philox4x32_10 (MF_MULHILO as umulExtended: the same words), mf_word.
    {kPhilox, 0, 0, R"GLSL(
void mf_philox4x32_10(uint64_t counter, uint64_t key, out uint o[4]) {
  uint c0 = uint(counter), c1 = uint(counter >> 32), c2 = 0u, c3 = 0u;
  uint k0 = uint(key), k1 = uint(key >> 32);
  for (int r = 0; r < 10; ++r) {
    if (r > 0) {
      k0 += 0x9E3779B9u;
      k1 += 0xBB67AE85u;
    }
    uint hi0, lo0, hi1, lo1;
    umulExtended(0xD2511F53u, c0, hi0, lo0);
    umulExtended(0xCD9E8D57u, c2, hi1, lo1);
    c0 = hi1 ^ c1 ^ k0;
    c1 = lo1;
    c2 = hi0 ^ c3 ^ k1;
    c3 = lo0;
  }
  o[0] = c0;
  o[1] = c1;
  o[2] = c2;
  o[3] = c3;
}
uint mf_word(uint w[4], uint l) {
  const uint lo = (l & 1u) != 0u ? w[1] : w[0], hi = (l & 1u) != 0u ? w[3] : w[2];
  return (l & 2u) != 0u ? hi : lo;
}
)GLSL"},
    // philox.inc: mf_u01_float, mf_rand_f.
    {kRandF, kPhilox, 0, R"GLSL(
float mf_u01_float(uint a) {
  const int m = int(a >> 8);
  precise float v = float(m) * MF_U2F(0x33800000u);
  return m == 0 ? MF_U2F(0x33000000u) : v;
}
float mf_rand_f(uint64_t key, uint64_t g) {
  uint w[4];
  mf_philox4x32_10(g >> 2, key, w);
  return mf_u01_float(mf_word(w, uint(g) & 3u));
}
)GLSL"},
    // philox.inc: mf_u01_double, mf_rand_d.
    {kRandD, kPhilox, kF64, R"GLSL(
double mf_u01_double(uint a, uint b) {
  const uint64_t m = (uint64_t(a >> 5) << 26) | uint64_t(b >> 6);
  if (m == 0UL) return MF_U2D(0x3c90000000000000UL);
  precise double v = double(m) * MF_U2D(0x3ca0000000000000UL);
  return v;
}
double mf_rand_d(uint64_t key, uint64_t g) {
  uint w[4];
  mf_philox4x32_10(g >> 1, key, w);
  return (g & 1UL) != 0UL ? mf_u01_double(w[2], w[3]) : mf_u01_double(w[0], w[1]);
}
)GLSL"},
    // philox.inc: mf_log_f, mf_sinq_f, mf_2piu_reduce_f, mf_bm_f, mf_randn_f.
    {kRandnF, kRandF, kFma32 | kSqrt32, R"GLSL(
float mf_log_f(float x) {
  const bool sub = x < MF_U2F(0x00800000u);
  precise float xs = sub ? x * MF_U2F(0x4b000000u) : x;
  const uint bx = MF_F2U(xs);
  const int k = int(bx - 0x3f3504f3u) >> 23;
  precise float t = MF_U2F(bx - (uint(k) << 23)) - 1.0;
  precise float kf = float(k - (sub ? 23 : 0));
  precise float p = MF_U2F(0x3d8e355eu);
  p = MF_FMAF(p, t, MF_U2F(0xbdeecc0fu));
  p = MF_FMAF(p, t, MF_U2F(0x3df1756fu));
  p = MF_FMAF(p, t, MF_U2F(0xbdfdff62u));
  p = MF_FMAF(p, t, MF_U2F(0x3e11be67u));
  p = MF_FMAF(p, t, MF_U2F(0xbe2aafbfu));
  p = MF_FMAF(p, t, MF_U2F(0x3e4cd0a4u));
  p = MF_FMAF(p, t, MF_U2F(0xbe7ffffau));
  p = MF_FMAF(p, t, MF_U2F(0x3eaaaaa7u));
  p = MF_FMAF(p, t, -0.5);
  precise float a = kf * MF_U2F(0x3f317200u);
  precise float s = a + t;
  precise float e = (a - s) + t;
  precise float res = s + (e + MF_FMAF(t * t, p, kf * MF_U2F(0x35bfbe8eu)));
  return res;
}
float mf_sinq_f(float rh, float rl, uint q) {
  const bool c = (q & 1u) != 0u;
  precise float z = rh * rh;
  precise float p = c ? MF_U2F(0xb4a9c5fdu) : MF_U2F(0x36428788u);
  p = MF_FMAF(p, z, c ? MF_U2F(0x37d072eeu) : MF_U2F(0xb9503e23u));
  p = MF_FMAF(p, z, c ? MF_U2F(0xbab60be5u) : MF_U2F(0x3c0888cau));
  p = MF_FMAF(p, z, c ? MF_U2F(0x3d2aaaabu) : MF_U2F(0xbe2aaaabu));
  precise float vs = rh + MF_FMAF(rh * z, p, rl);
  precise float hz = 0.5 * z;
  precise float w = 1.0 - hz;
  precise float corr = MF_FMAF(0.5, MF_FMAF(rh, rh, -z), rh * rl);
  precise float vc = w + (((1.0 - w) - hz) + MF_FMAF(z * z, p, -corr));
  precise float v = c ? vc : vs;
  return (q & 2u) != 0u ? -v : v;
}
float mf_2piu_reduce_f(float u, out float tl, out uint q) {
  precise float x = 4.0 * u;
  precise float xh = x + 0.5;
  const int k = int(xh);
  precise float f = x - float(k);
  precise float th = f * MF_U2F(0x3fc90fdbu);
  precise float l = MF_FMAF(f, MF_U2F(0xb33bbd2eu), MF_FMAF(f, MF_U2F(0x3fc90fdbu), -th));
  tl = l;
  q = uint(k) & 3u;
  return th;
}
float mf_bm_f(uint a, uint b, uint sine) {
  precise float r = sqrt(-2.0 * mf_log_f(mf_u01_float(a)));
  float tl;
  uint q;
  precise float th = mf_2piu_reduce_f(mf_u01_float(b), tl, q);
  precise float res = r * mf_sinq_f(th, tl, q + 1u - sine);
  return res;
}
float mf_randn_f(uint64_t key, uint64_t g) {
  uint w[4];
  mf_philox4x32_10(g >> 2, key, w);
  const uint pair = uint(g) & 2u;
  return mf_bm_f(mf_word(w, pair), mf_word(w, pair + 1u), uint(g) & 1u);
}
)GLSL"},
    // philox.inc: mf_log_d, mf_sin_kernel_d, mf_cos_kernel_d, mf_sincos2pi_d, mf_bm2_d,
    // mf_randn2_d, mf_randn_d. The constant quotients 1.0 / 23.0 ... and 1/17! ... as the codes
    // of their correctly rounded values (what the C compiler folds them to).
    {kRandnD, kRandD, kF64 | kDiv64 | kSqrt64, R"GLSL(
double mf_log_d(double x) {
  int e = 0;
  precise double y = x;
  while (y < MF_U2D(0x3bf0000000000000UL)) { y *= MF_U2D(0x43f0000000000000UL); e -= 64; }
  while (y >= MF_U2D(0x43f0000000000000UL)) { y *= MF_U2D(0x3bf0000000000000UL); e += 64; }
  if (y < MF_U2D(0x3df0000000000000UL)) { y *= MF_U2D(0x41f0000000000000UL); e -= 32; }
  if (y >= MF_U2D(0x41f0000000000000UL)) { y *= MF_U2D(0x3df0000000000000UL); e += 32; }
  if (y < MF_U2D(0x3ef0000000000000UL)) { y *= 65536.0LF; e -= 16; }
  if (y >= 65536.0LF) { y *= MF_U2D(0x3ef0000000000000UL); e += 16; }
  if (y < MF_U2D(0x3f70000000000000UL)) { y *= 256.0LF; e -= 8; }
  if (y >= 256.0LF) { y *= MF_U2D(0x3f70000000000000UL); e += 8; }
  if (y < MF_U2D(0x3fb0000000000000UL)) { y *= 16.0LF; e -= 4; }
  if (y >= 16.0LF) { y *= MF_U2D(0x3fb0000000000000UL); e += 4; }
  if (y < 0.25LF) { y *= 4.0LF; e -= 2; }
  if (y >= 4.0LF) { y *= 0.25LF; e += 2; }
  if (y < 0.5LF) { y *= 2.0LF; e -= 1; }
  if (y >= 2.0LF) { y *= 0.5LF; e += 1; }
  if (y < MF_U2D(0x3fe6a09e667f3bcdUL)) { y *= 2.0LF; e -= 1; }
  if (y >= MF_U2D(0x3ff6a09e667f3bcdUL)) { y *= 0.5LF; e += 1; }
  precise double s = (y - 1.0LF) / (y + 1.0LF);
  precise double s2 = s * s;
  precise double p = MF_U2D(0x3fa642c8590b2164UL);
  p = p * s2 + MF_U2D(0x3fa8618618618618UL);
  p = p * s2 + MF_U2D(0x3faaf286bca1af28UL);
  p = p * s2 + MF_U2D(0x3fae1e1e1e1e1e1eUL);
  p = p * s2 + MF_U2D(0x3fb1111111111111UL);
  p = p * s2 + MF_U2D(0x3fb3b13b13b13b14UL);
  p = p * s2 + MF_U2D(0x3fb745d1745d1746UL);
  p = p * s2 + MF_U2D(0x3fbc71c71c71c71cUL);
  p = p * s2 + MF_U2D(0x3fc2492492492492UL);
  p = p * s2 + MF_U2D(0x3fc999999999999aUL);
  p = p * s2 + MF_U2D(0x3fd5555555555555UL);
  precise double lm = 2.0LF * s + 2.0LF * s * (s2 * p);
  precise double de = double(e);
  precise double res = de * MF_U2D(0x3fe62e42fee00000UL) + (de * MF_U2D(0x3dea39ef35793c76UL) + lm);
  return res;
}
double mf_sin_kernel_d(double t) {
  precise double t2 = t * t;
  precise double p = MF_U2D(0x3ce952c77030ad4aUL);
  p = p * t2 - MF_U2D(0x3d6ae7f3e733b81fUL);
  p = p * t2 + MF_U2D(0x3de6124613a86d09UL);
  p = p * t2 - MF_U2D(0x3e5ae64567f544e4UL);
  p = p * t2 + MF_U2D(0x3ec71de3a556c734UL);
  p = p * t2 - MF_U2D(0x3f2a01a01a01a01aUL);
  p = p * t2 + MF_U2D(0x3f81111111111111UL);
  p = p * t2 - MF_U2D(0x3fc5555555555555UL);
  precise double res = t + t * (t2 * p);
  return res;
}
double mf_cos_kernel_d(double t) {
  precise double t2 = t * t;
  precise double p = MF_U2D(0x3d2ae7f3e733b81fUL);
  p = p * t2 - MF_U2D(0x3da93974a8c07c9dUL);
  p = p * t2 + MF_U2D(0x3e21eed8eff8d898UL);
  p = p * t2 - MF_U2D(0x3e927e4fb7789f5cUL);
  p = p * t2 + MF_U2D(0x3efa01a01a01a01aUL);
  p = p * t2 - MF_U2D(0x3f56c16c16c16c17UL);
  p = p * t2 + MF_U2D(0x3fa5555555555555UL);
  precise double res = (1.0LF - 0.5LF * t2) + (t2 * t2) * p;
  return res;
}
void mf_sincos2pi_d(double u, out double s, out double c) {
  precise double x = 4.0LF * u;
  precise double xh = x + 0.5LF;
  const int k = int(xh);
  precise double f = x - double(k);
  precise double t = f * MF_U2D(0x3ff921fb54442d18UL);
  precise double st = mf_sin_kernel_d(t), ct = mf_cos_kernel_d(t);
  switch (k & 3) {
    case 0: s = st; c = ct; break;
    case 1: s = ct; c = -st; break;
    case 2: s = -st; c = -ct; break;
    default: s = -ct; c = st; break;
  }
}
void mf_bm2_d(double u1, double u2, out double z0, out double z1) {
  precise double r = sqrt(-2.0LF * mf_log_d(u1));
  double s, c;
  mf_sincos2pi_d(u2, s, c);
  precise double a = r * c, b = r * s;
  z0 = a;
  z1 = b;
}
double mf_randn_d(uint64_t key, uint64_t g) {
  uint w[4];
  mf_philox4x32_10(g >> 1, key, w);
  double z0, z1;
  mf_bm2_d(mf_u01_double(w[0], w[1]), mf_u01_double(w[2], w[3]), z0, z1);
  return (g & 1UL) != 0UL ? z1 : z0;
}
)GLSL"},
    // scalar_ops.inc: mf_Mod, mf_Rem (float) over fmodf. fmodf is exact (its result is always
    // representable), so every correct algorithm gives the C library's bits; this one is the
    // classic shift-and-subtract on the significands (fdlibm's e_fmodf.c, as glibc has it; the
    // structure of musl's src/math/fmodf.c), integer operations only; |x| = |y| gives 0 with
    // x's sign (fdlibm's Zero[sx]). The invalid cases (y = 0, x infinite, y NaN) return
    // (x*y)/(x*y) in both C libraries; its bits on the x86-64 host (SSE: the first NaN operand
    // quieted, else the default NaN, sign bit set) are written out as integers, because a
    // device's arithmetic may change a NaN's sign or payload.
    {kModF, 0, 0, R"GLSL(
float mf_fmodf(float x, float y) {
  uint uxi = MF_F2U(x), uyi = MF_F2U(y);
  int ex = int((uxi >> 23) & 0xffu), ey = int((uyi >> 23) & 0xffu);
  const uint sx = uxi & 0x80000000u;
  uint i;
  if ((uyi << 1) == 0u || isnan(y) || ex == 0xff)
    return isnan(x)   ? MF_U2F(uxi | 0x400000u)
           : isnan(y) ? MF_U2F(uyi | 0x400000u)
                      : MF_U2F(0xffc00000u);
  if ((uxi << 1) <= (uyi << 1)) return (uxi << 1) == (uyi << 1) ? MF_U2F(sx) : x;
  if (ex == 0) {
    for (i = uxi << 9; (i >> 31) == 0u; i <<= 1) ex--;
    uxi <<= uint(-ex + 1);
  } else {
    uxi &= 0xffffffffu >> 9;
    uxi |= 1u << 23;
  }
  if (ey == 0) {
    for (i = uyi << 9; (i >> 31) == 0u; i <<= 1) ey--;
    uyi <<= uint(-ey + 1);
  } else {
    uyi &= 0xffffffffu >> 9;
    uyi |= 1u << 23;
  }
  for (; ex > ey; ex--) {
    i = uxi - uyi;
    if ((i >> 31) == 0u) {
      if (i == 0u) return MF_U2F(sx);
      uxi = i;
    }
    uxi <<= 1;
  }
  i = uxi - uyi;
  if ((i >> 31) == 0u) {
    if (i == 0u) return MF_U2F(sx);
    uxi = i;
  }
  for (; (uxi >> 23) == 0u; uxi <<= 1) ex--;
  if (ex > 0) {
    uxi -= 1u << 23;
    uxi |= uint(ex) << 23;
  } else {
    uxi >>= uint(-ex + 1);
  }
  return MF_U2F(uxi | sx);
}
float mf_modf_(float a, float m) {
  if (m == 0.0) return a;
  if (isinf(m) || !(abs(a) <= MF_U2F(0x7f7fffffu))) return MF_U2F(0x7fc00000u);
  precise float r = mf_fmodf(a, m);
  if (!(r == 0.0) && ((r < 0.0) != (m < 0.0))) r += m;
  return r == 0.0 ? 0.0 : r;
}
float mf_remf_(float a, float m) { return isinf(m) ? MF_U2F(0x7fc00000u) : mf_fmodf(a, m); }
)GLSL"},
    // scalar_ops.inc: mf_Mod, mf_Rem (double) over fmod: as kModF in 64 bits (fdlibm's
    // e_fmod.c / musl's src/math/fmod.c).
    {kModD, 0, kF64, R"GLSL(
double mf_fmod(double x, double y) {
  uint64_t uxi = MF_D2U(x), uyi = MF_D2U(y);
  int ex = int((uxi >> 52) & 0x7ffUL), ey = int((uyi >> 52) & 0x7ffUL);
  const uint64_t sx = uxi & 0x8000000000000000UL;
  uint64_t i;
  if ((uyi << 1) == 0UL || isnan(y) || ex == 0x7ff)
    return isnan(x) ? MF_U2D(uxi | 0x8000000000000UL) : isnan(y) ? MF_U2D(uyi | 0x8000000000000UL)
                    : MF_U2D(0xfff8000000000000UL);
  if ((uxi << 1) <= (uyi << 1)) return (uxi << 1) == (uyi << 1) ? MF_U2D(sx) : x;
  if (ex == 0) {
    for (i = uxi << 12; (i >> 63) == 0UL; i <<= 1) ex--;
    uxi <<= uint(-ex + 1);
  } else {
    uxi &= 0xffffffffffffffffUL >> 12;
    uxi |= 1UL << 52;
  }
  if (ey == 0) {
    for (i = uyi << 12; (i >> 63) == 0UL; i <<= 1) ey--;
    uyi <<= uint(-ey + 1);
  } else {
    uyi &= 0xffffffffffffffffUL >> 12;
    uyi |= 1UL << 52;
  }
  for (; ex > ey; ex--) {
    i = uxi - uyi;
    if ((i >> 63) == 0UL) {
      if (i == 0UL) return MF_U2D(sx);
      uxi = i;
    }
    uxi <<= 1;
  }
  i = uxi - uyi;
  if ((i >> 63) == 0UL) {
    if (i == 0UL) return MF_U2D(sx);
    uxi = i;
  }
  for (; (uxi >> 52) == 0UL; uxi <<= 1) ex--;
  if (ex > 0) {
    uxi -= 1UL << 52;
    uxi |= uint64_t(ex) << 52;
  } else {
    uxi >>= uint(-ex + 1);
  }
  return MF_U2D(uxi | sx);
}
double mf_mod_(double a, double m) {
  if (m == 0.0LF) return a;
  if (isinf(m) || !(abs(a) <= MF_U2D(0x7fefffffffffffffUL))) return MF_U2D(0x7ff8000000000000UL);
  precise double r = mf_fmod(a, m);
  if (!(r == 0.0LF) && ((r < 0.0LF) != (m < 0.0LF))) r += m;
  return r == 0.0LF ? 0.0LF : r;
}
double mf_rem_(double a, double m) {
  return isinf(m) ? MF_U2D(0x7ff8000000000000UL) : mf_fmod(a, m);
}
)GLSL"},
};

MathParts closure(MathParts p) {
  // Parts only depend on earlier ones: one pass from the last part down adds every dependency.
  for (size_t i = sizeof kParts / sizeof kParts[0]; i-- > 0;)
    if (p & kParts[i].part) p |= kParts[i].deps;
  return p;
}

uint32_t needs_of(MathParts parts) {
  uint32_t needs = 0;
  parts = closure(parts);
  for (const PartText& p : kParts)
    if (parts & p.part) needs |= p.needs;
  return needs;
}

}  // namespace

std::string math_function(OpId op, bool single, MathParts* parts) {
  if (op == OpId::Mod || op == OpId::Rem) {
    *parts |= single ? kModF : kModD;
    return op == OpId::Mod ? (single ? "mf_modf_" : "mf_mod_") : (single ? "mf_remf_" : "mf_rem_");
  }
  if (!single) return "";
  struct Fn {
    OpId op;
    Part part;
    const char* name;
  };
  static const Fn fns[] = {
      {OpId::Sin, kTrig, "mf_sinf"},        {OpId::Cos, kTrig, "mf_cosf"},
      {OpId::Tan, kTrig, "mf_tanf"},        {OpId::Asin, kAsin, "mf_asinf"},
      {OpId::Acos, kAcos, "mf_acosf"},      {OpId::Atan, kAtan, "mf_atanf"},
      {OpId::Sinh, kSinhCosh, "mf_sinhf"},  {OpId::Cosh, kSinhCosh, "mf_coshf"},
      {OpId::Tanh, kTanh, "mf_tanhf"},      {OpId::Exp, kExpF, "mf_expf"},
      {OpId::Expm1, kExpm1, "mf_expm1f"},   {OpId::Log, kLogF, "mf_logf"},
      {OpId::Log2, kLog2, "mf_log2f"},      {OpId::Log10, kLog10, "mf_log10f"},
      {OpId::Log1p, kLog1p, "mf_log1pf"},   {OpId::Pow, kPow, "mf_powf"},
      {OpId::Atan2, kAtan2, "mf_atan2f"},   {OpId::Hypot, kHypot, "mf_hypotf"},
  };
  for (const Fn& f : fns)
    if (f.op == op) {
      *parts |= f.part;
      return f.name;
    }
  return "";
}

std::string rng_function(accel::GenKind gen, bool single, MathParts* parts) {
  const bool normal = gen == accel::GenKind::Randn;
  *parts |= single ? (normal ? kRandnF : kRandF) : (normal ? kRandnD : kRandD);
  return single ? (normal ? "mf_randn_f" : "mf_rand_f") : (normal ? "mf_randn_d" : "mf_rand_d");
}


std::string math_unsupported(MathParts parts, const Caps& caps) {
  uint32_t needs = needs_of(parts);
  // Without a fused fma, the software fma: the single one computes in double precision and
  // converts to float, the double one needs only double precision (integer arithmetic).
  if ((needs & kFma32) && !caps.fma32) needs |= kF64 | kCvt;
  if ((needs & kFma64) && !caps.fma64) needs |= kF64;
  if ((needs & kF64) && !caps.float64)
    return "it computes in double precision, which the device lacks";
  if (((needs & kDiv32) && !caps.div32) || ((needs & kDiv64) && !caps.div64))
    return "the device's division is not correctly rounded";
  if (((needs & kSqrt32) && !caps.sqrt32) || ((needs & kSqrt64) && !caps.sqrt64))
    return "the device's sqrt is not correctly rounded";
  if ((needs & kCvt) && !caps.cvt)
    return "the device's narrowing conversions do not round to nearest";
  return "";
}

std::string real_domain_violation(OpId op, const std::string& a, const std::string& b,
                                  const std::string& T) {
  const std::string zero = T + "(0)", one = T + "(1)";
  switch (op) {
    case OpId::Sqrt:
    case OpId::Log:
    case OpId::Log2:
    case OpId::Log10: return a + " < " + zero;
    case OpId::Log1p: return a + " < -" + one;
    case OpId::Asin:
    case OpId::Acos:
    case OpId::Atanh: return "(" + a + " < -" + one + " || " + a + " > " + one + ")";
    case OpId::Acosh: return a + " < " + one;
    case OpId::Pow:
      if (b.empty()) return "";
      return "(" + a + " < " + zero + " && !(isnan(" + b + ") || isinf(" + b + ")) && " + b +
             " != mf_floor(" + b + "))";
    default: return "";
  }
}

std::string math_prelude(MathParts parts, const Caps& caps) {
  if (!parts) return "";
  const uint32_t needs = needs_of(parts);
  parts = closure(parts);
  std::string s = kDefs;
  if (needs & kFma32) {
    if (caps.fma32) {
      s += "#define MF_FMAF(a, b, c) fma(a, b, c)\n";
    } else {
      s += kFmaF;
      s += "#define MF_FMAF(a, b, c) mf_fmaf_sw(a, b, c)\n";
    }
  }
  if (needs & kFma64) {
    if (caps.fma64) {
      s += "#define MF_FMA(a, b, c) fma(a, b, c)\n";
    } else {
      s += kFmaD;
      s += "#define MF_FMA(a, b, c) mf_fma64_sw(a, b, c)\n";
    }
  }
  for (const PartText& p : kParts)
    if (parts & p.part) s += p.text;
  return s;
}

std::string software_fma_glsl() { return std::string(kDefs) + kFmaF + kFmaD; }

}  // namespace matfuse::vk
