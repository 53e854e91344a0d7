// Generated copy of src/runtime/philox.inc for the CUDA device prelude (the unit test
// providers_cuda_codegen checks that it equals the file byte for byte; regenerate with
//   { sed -n 1,6p codegen_philox.cc; printf "%s" "R\"MFPHILOX("; cat ../../runtime/philox.inc; echo ")MFPHILOX\";"; echo "}  // namespace matfuse::cuda"; }
// after changing philox.inc).
namespace matfuse::cuda {
extern const char* const kPhiloxText =
R"MFPHILOX(// Philox4x32-10 and the per-element transforms of rand/randn/randi (DESIGN.md decision 7).
//
// THIS TEXT IS SHARED BY THE HOST AND THE CUDA CODE GENERATOR. It is written in the common
// subset of C++ and CUDA C: plain `static inline` functions over uint32_t/uint64_t/float/double,
// no std::, no <cmath>, no library log/sin/cos (glibc's and CUDA's differ in the last bits).
//
// The includer provides:
//   - the types uint32_t, uint64_t, int64_t (<cstdint> on the host; typedefs under NVRTC);
//   - MF_HD: `__host__ __device__` (or `__device__`) for CUDA, empty on the host (default empty);
//   - optionally MF_SQRT(x) / MF_SQRTF(x): correctly rounded IEEE square roots. Defaults are
//     __builtin_sqrt / __builtin_sqrtf (host). The CUDA includer must define them as
//     __dsqrt_rn(x) / __fsqrt_rn(x) (sqrt is correctly rounded in IEEE 754, so both sides agree).
//   - optionally MF_MULHILO (below): the 32x32->64-bit product split into words.
//
// Bitwise reproducibility rules this text obeys, which the includer must keep:
//   - Every floating operation is written out explicitly (+ - * / sqrt) in a fixed order. No
//     fused multiply-add may be formed: the host build uses -ffp-contract=off; the device build
//     MUST use `--fmad=false` (NVRTC option) or the results differ in the last bits.
//     Checked on an H200 (nvcc, --fmad=false): rand/randn/randi, double and single, bitwise
//     equal to the host for 4M consecutive counters; with FMA contraction about 1% of randn
//     values differ in the last bits.
//   - No fast-math / flush-to-zero (the values here are never subnormal except the log input
//     domain tests, which the range reduction handles exactly).
//   - Conversions float<->int are truncations of nonnegative values below 2^53, identical on
//     both sides.
//
// Stream model (runtime/rng.h): element i of a call uses counter (offset + i) as the low 64 bits
// of the 128-bit Philox counter (words c0 = low 32 bits, c1 = high 32 bits, c2 = c3 = 0); the
// key is the 64-bit value mf_rng_key_from_seed(seed) (k0 = low word, k1 = high word).
//
// Reference: J. K. Salmon, M. A. Moraes, R. O. Dror, D. E. Shaw, "Parallel random numbers: as
// easy as 1, 2, 3", SC'11 (Philox round function, multipliers and Weyl key increments).

#ifndef MF_PHILOX_INC
#define MF_PHILOX_INC

#ifndef MF_HD
#define MF_HD
#endif
#ifndef MF_SQRT
#define MF_SQRT(x) __builtin_sqrt(x)
#endif
#ifndef MF_SQRTF
#define MF_SQRTF(x) __builtin_sqrtf(x)
#endif
// MF_MULHILO(a, b, hi, lo): the high and low words of the 64-bit product of two uint32_t. The
// CUDA includer may define it with __umulhi(a, b) and a * b (the same bits, 32-bit operations).
#ifndef MF_MULHILO
#define MF_MULHILO(a, b, hi, lo)                           \
  do {                                                     \
    const uint64_t p_ = (uint64_t)(a) * (uint64_t)(b);     \
    (hi) = (uint32_t)(p_ >> 32);                           \
    (lo) = (uint32_t)p_;                                   \
  } while (0)
#endif

// ---- generator ------------------------------------------------------------------------------

/// Philox key of rng(seed): the SplitMix64 finalizer of (seed + golden-ratio increment), so that
/// nearby seeds give unrelated keys. rng(0) (the default state) is key mf_rng_key_from_seed(0).
static inline MF_HD uint64_t mf_rng_key_from_seed(uint64_t seed) {
  uint64_t z = seed + 0x9E3779B97F4A7C15ull;
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

/// Philox4x32 with 10 rounds: out[0..3] = bijection of the 128-bit counter (counter, 0) under key.
static inline MF_HD void mf_philox4x32_10(uint64_t counter, uint64_t key, uint32_t out[4]) {
  uint32_t c0 = (uint32_t)counter, c1 = (uint32_t)(counter >> 32), c2 = 0u, c3 = 0u;
  uint32_t k0 = (uint32_t)key, k1 = (uint32_t)(key >> 32);
  for (int r = 0; r < 10; ++r) {
    if (r > 0) {
      k0 += 0x9E3779B9u;  // Weyl increments of the key schedule
      k1 += 0xBB67AE85u;
    }
    uint32_t hi0, lo0, hi1, lo1;
    MF_MULHILO(0xD2511F53u, c0, hi0, lo0);
    MF_MULHILO(0xCD9E8D57u, c2, hi1, lo1);
    c0 = hi1 ^ c1 ^ k0;
    c1 = lo1;
    c2 = hi0 ^ c3 ^ k1;
    c3 = lo0;
  }
  out[0] = c0;
  out[1] = c1;
  out[2] = c2;
  out[3] = c3;
}

// ---- uniforms -------------------------------------------------------------------------------

/// Uniform double in the open interval (0,1) with 53 random bits: m = (a>>5)*2^26 + (b>>6) in
/// [0, 2^53); result m * 2^-53, except m == 0 which gives 2^-54. Range [2^-54, 1 - 2^-53];
/// every value is exact (no rounding).
static inline MF_HD double mf_u01_double(uint32_t a, uint32_t b) {
  uint64_t m = ((uint64_t)(a >> 5) << 26) | (uint64_t)(b >> 6);
  if (m == 0) return 5.5511151231257827e-17;  // 2^-54
  return (double)m * 1.1102230246251565e-16;  // 2^-53
}

/// Uniform single in (0,1) with 24 random bits: (a>>8) * 2^-24, 0 mapped to 2^-25.
/// Branch free (a select) so that host loops over it vectorise; m < 2^24 converts exactly.
static inline MF_HD float mf_u01_float(uint32_t a) {
  int m = (int)(a >> 8);
  float v = (float)m * 5.9604644775390625e-8f;   // 2^-24
  return m == 0 ? 2.98023223876953125e-8f : v;   // 0 -> 2^-25
}

// ---- natural logarithm ----------------------------------------------------------------------
// log(x) for finite x > 0: exact power-of-two scaling to m in [sqrt(1/2), sqrt(2)) with exponent
// e, then log(x) = e*ln2 + 2*atanh(s), s = (m-1)/(m+1), |s| <= 0.1716, with the odd series
// 2*(s + s^3/3 + s^5/5 + ...) truncated where the next term is below half an ulp. ln2 is split
// (hi part with 32 significant bits, so e*ln2_hi is exact). Relative error about 2e-16.

static inline MF_HD double mf_log_d(double x) {
  int e = 0;
  // Exact scaling by powers of two (multiplications by 2^k never round for normal results).
  while (x < 5.421010862427522e-20) { x *= 1.8446744073709552e19; e -= 64; }   // 2^-64, 2^64
  while (x >= 1.8446744073709552e19) { x *= 5.421010862427522e-20; e += 64; }
  if (x < 2.3283064365386963e-10) { x *= 4294967296.0; e -= 32; }
  if (x >= 4294967296.0) { x *= 2.3283064365386963e-10; e += 32; }
  if (x < 1.52587890625e-05) { x *= 65536.0; e -= 16; }
  if (x >= 65536.0) { x *= 1.52587890625e-05; e += 16; }
  if (x < 0.00390625) { x *= 256.0; e -= 8; }
  if (x >= 256.0) { x *= 0.00390625; e += 8; }
  if (x < 0.0625) { x *= 16.0; e -= 4; }
  if (x >= 16.0) { x *= 0.0625; e += 4; }
  if (x < 0.25) { x *= 4.0; e -= 2; }
  if (x >= 4.0) { x *= 0.25; e += 2; }
  if (x < 0.5) { x *= 2.0; e -= 1; }
  if (x >= 2.0) { x *= 0.5; e += 1; }
  // now x in [0.5, 2)
  if (x < 0.70710678118654752) { x *= 2.0; e -= 1; }
  if (x >= 1.4142135623730951) { x *= 0.5; e += 1; }
  double s = (x - 1.0) / (x + 1.0);
  double s2 = s * s;
  // Horner over 1/(2k+1), k = 0..11.
  double p = 1.0 / 23.0;
  p = p * s2 + 1.0 / 21.0;
  p = p * s2 + 1.0 / 19.0;
  p = p * s2 + 1.0 / 17.0;
  p = p * s2 + 1.0 / 15.0;
  p = p * s2 + 1.0 / 13.0;
  p = p * s2 + 1.0 / 11.0;
  p = p * s2 + 1.0 / 9.0;
  p = p * s2 + 1.0 / 7.0;
  p = p * s2 + 1.0 / 5.0;
  p = p * s2 + 1.0 / 3.0;
  double lm = 2.0 * s + 2.0 * s * (s2 * p);  // 2s + 2s*(s^2/3 + s^4/5 + ...)
  double de = (double)e;
  const double ln2_hi = 6.93147180369123816490e-01;  // 32 significant bits
  const double ln2_lo = 1.90821492927058770002e-10;
  return de * ln2_hi + (de * ln2_lo + lm);
}

// Single: the scaling steps are written as straight-line conditionals (no loops), so that host
// loops over randn vectorise. Two steps of 2^64 cover the smallest subnormal (2^-149 -> 2^-21)
// and one covers the largest finite value (< 2^128), which is what the loops did.
static inline MF_HD float mf_log_f(float x) {
  int e = 0;
  if (x < 5.421010862e-20f) { x *= 1.8446744074e19f; e -= 64; }
  if (x < 5.421010862e-20f) { x *= 1.8446744074e19f; e -= 64; }
  if (x >= 1.8446744074e19f) { x *= 5.421010862e-20f; e += 64; }
  if (x < 2.3283064365e-10f) { x *= 4294967296.0f; e -= 32; }
  if (x >= 4294967296.0f) { x *= 2.3283064365e-10f; e += 32; }
  if (x < 1.52587890625e-05f) { x *= 65536.0f; e -= 16; }
  if (x >= 65536.0f) { x *= 1.52587890625e-05f; e += 16; }
  if (x < 0.00390625f) { x *= 256.0f; e -= 8; }
  if (x >= 256.0f) { x *= 0.00390625f; e += 8; }
  if (x < 0.0625f) { x *= 16.0f; e -= 4; }
  if (x >= 16.0f) { x *= 0.0625f; e += 4; }
  if (x < 0.25f) { x *= 4.0f; e -= 2; }
  if (x >= 4.0f) { x *= 0.25f; e += 2; }
  if (x < 0.5f) { x *= 2.0f; e -= 1; }
  if (x >= 2.0f) { x *= 0.5f; e += 1; }
  if (x < 0.707106781f) { x *= 2.0f; e -= 1; }
  if (x >= 1.414213562f) { x *= 0.5f; e += 1; }
  float s = (x - 1.0f) / (x + 1.0f);
  float s2 = s * s;
  float p = 1.0f / 11.0f;
  p = p * s2 + 1.0f / 9.0f;
  p = p * s2 + 1.0f / 7.0f;
  p = p * s2 + 1.0f / 5.0f;
  p = p * s2 + 1.0f / 3.0f;
  float lm = 2.0f * s + 2.0f * s * (s2 * p);
  float de = (float)e;
  const float ln2_hi = 0.693145752f;      // 0x3F317180: 16 significant bits, e*ln2_hi exact
  const float ln2_lo = 1.42860677e-06f;
  return de * ln2_hi + (de * ln2_lo + lm);
}

// ---- sine and cosine ------------------------------------------------------------------------
// Kernels on |t| <= pi/4 by the Taylor series of sin and cos in Horner form (truncation error
// below 3e-19 for double, 2e-9 for single), and sin/cos of 2*pi*u for u in [0, 1] by exact
// quadrant reduction: 4u = k + f with k the nearest integer (exact), t = f * pi/2.

static inline MF_HD double mf_sin_kernel_d(double t) {
  double t2 = t * t;
  double p = 1.0 / 355687428096000.0;  // 1/17!
  p = p * t2 - 1.0 / 1307674368000.0;  // 1/15!
  p = p * t2 + 1.0 / 6227020800.0;    // 1/13!
  p = p * t2 - 1.0 / 39916800.0;      // 1/11!
  p = p * t2 + 1.0 / 362880.0;        // 1/9!
  p = p * t2 - 1.0 / 5040.0;          // 1/7!
  p = p * t2 + 1.0 / 120.0;           // 1/5!
  p = p * t2 - 1.0 / 6.0;             // 1/3!
  return t + t * (t2 * p);
}

static inline MF_HD double mf_cos_kernel_d(double t) {
  double t2 = t * t;
  double p = 1.0 / 20922789888000.0;  // 1/16!
  p = p * t2 - 1.0 / 87178291200.0;   // 1/14!
  p = p * t2 + 1.0 / 479001600.0;     // 1/12!
  p = p * t2 - 1.0 / 3628800.0;       // 1/10!
  p = p * t2 + 1.0 / 40320.0;         // 1/8!
  p = p * t2 - 1.0 / 720.0;           // 1/6!
  p = p * t2 + 1.0 / 24.0;            // 1/4!
  // 1 - t^2/2 + t^4*p: form 1 - t^2/2 carefully (t^2/2 <= 0.31, so the subtraction is benign).
  return (1.0 - 0.5 * t2) + (t2 * t2) * p;
}

static inline MF_HD float mf_sin_kernel_f(float t) {
  float t2 = t * t;
  float p = 1.0f / 362880.0f;
  p = p * t2 - 1.0f / 5040.0f;
  p = p * t2 + 1.0f / 120.0f;
  p = p * t2 - 1.0f / 6.0f;
  return t + t * (t2 * p);
}

static inline MF_HD float mf_cos_kernel_f(float t) {
  float t2 = t * t;
  float p = -1.0f / 3628800.0f;  // -1/10!
  p = p * t2 + 1.0f / 40320.0f;  // 1/8!
  p = p * t2 - 1.0f / 720.0f;    // 1/6!
  p = p * t2 + 1.0f / 24.0f;     // 1/4!
  return (1.0f - 0.5f * t2) + (t2 * t2) * p;
}

/// *s = sin(2*pi*u), *c = cos(2*pi*u) for u in [0, 1].
static inline MF_HD void mf_sincos2pi_d(double u, double* s, double* c) {
  double x = 4.0 * u;                 // exact
  int k = (int)(x + 0.5);             // nearest quadrant, 0..4
  double f = x - (double)k;           // exact, |f| <= 0.5
  double t = f * 1.5707963267948966;  // pi/2
  double st = mf_sin_kernel_d(t), ct = mf_cos_kernel_d(t);
  switch (k & 3) {
    case 0: *s = st; *c = ct; break;
    case 1: *s = ct; *c = -st; break;
    case 2: *s = -st; *c = -ct; break;
    default: *s = -ct; *c = st; break;
  }
}

static inline MF_HD void mf_sincos2pi_f(float u, float* s, float* c) {
  float x = 4.0f * u;
  int k = (int)(x + 0.5f);
  float f = x - (float)k;
  float t = f * 1.57079632679f;
  float st = mf_sin_kernel_f(t), ct = mf_cos_kernel_f(t);
  // Quadrant k&3: 0: (st, ct), 1: (ct, -st), 2: (-st, -ct), 3: (-ct, st); written as selects
  // (negation is exact) so that host loops vectorise.
  int q = k & 3;
  float sv = (q & 1) ? ct : st;
  float cv = (q & 1) ? st : ct;
  *s = (q & 2) ? -sv : sv;
  *c = (q == 1 || q == 2) ? -cv : cv;
}

// ---- per-element values ---------------------------------------------------------------------
// Each takes the key and the element's counter and returns the element's value.

/// rand, double: mf_u01_double(w0, w1).
static inline MF_HD double mf_rand_d(uint64_t key, uint64_t counter) {
  uint32_t w[4];
  mf_philox4x32_10(counter, key, w);
  return mf_u01_double(w[0], w[1]);
}

/// rand, single: mf_u01_float(w0).
static inline MF_HD float mf_rand_f(uint64_t key, uint64_t counter) {
  uint32_t w[4];
  mf_philox4x32_10(counter, key, w);
  return mf_u01_float(w[0]);
}

/// randn, double: Box-Muller, cosine branch: u1 = u01(w0,w1), u2 = u01(w2,w3),
/// z = sqrt(-2 log u1) * cos(2 pi u2).
static inline MF_HD double mf_randn_d(uint64_t key, uint64_t counter) {
  uint32_t w[4];
  mf_philox4x32_10(counter, key, w);
  double u1 = mf_u01_double(w[0], w[1]);
  double u2 = mf_u01_double(w[2], w[3]);
  double r = MF_SQRT(-2.0 * mf_log_d(u1));
  double s, c;
  mf_sincos2pi_d(u2, &s, &c);
  return r * c;
}

/// randn, single: Box-Muller in single precision: u1 = u01f(w0), u2 = u01f(w1),
/// z = sqrt(-2 log u1) * cos(2 pi u2).
static inline MF_HD float mf_randn_f(uint64_t key, uint64_t counter) {
  uint32_t w[4];
  mf_philox4x32_10(counter, key, w);
  float u1 = mf_u01_float(w[0]);
  float u2 = mf_u01_float(w[1]);
  float r = MF_SQRTF(-2.0f * mf_log_f(u1));
  float s, c;
  mf_sincos2pi_f(u2, &s, &c);
  return r * c;
}

/// randi over [lo, lo + n - 1] (n >= 1, n <= 2^53): lo + floor(u * n) with u = mf_rand_d; the
/// product never rounds up to n (u <= 1 - 2^-53), clamped anyway.
static inline MF_HD double mf_randi_d(uint64_t key, uint64_t counter, double lo, double n) {
  double u = mf_rand_d(key, counter);
  double v = u * n;
  double fl = (double)(int64_t)v;  // v >= 0: truncation is floor
  if (fl > n - 1.0) fl = n - 1.0;
  return lo + fl;
}

#endif  // MF_PHILOX_INC
)MFPHILOX";
}  // namespace matfuse::cuda
