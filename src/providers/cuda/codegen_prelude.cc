// The device prelude of every generated CUDA program (see codegen.h): integer typedefs and the
// macros of the shared texts, the Philox text of runtime/philox.inc, the single-precision math
// of runtime/mf_math.inc, the op functions of runtime/scalar_ops.inc (one device function per op
// of runtime/ops.def in double and single precision, the very text the host's scalar_ops.h
// functors call), then the device-only helpers. Single-precision transcendentals (sin ... pow,
// atan2, hypot) call the mf_math.inc functions, so they give the host's bits (the program must
// be compiled with --fmad=false); double ones use CUDA's IEEE math functions (within 2 ulp;
// sqrt correctly rounded), never the __sinf-style intrinsics.
#include <string>

#include "providers/cuda/codegen.h"

namespace matfuse::cuda {

extern const char* const kPhiloxText;  // generated device_texts.cc (CMakeLists.txt)
extern const char* const kMathText;    // generated device_texts.cc
extern const char* const kScalarOpsText;  // generated device_texts.cc

namespace {

const char* const kHead = R"MFCUDA(// ---- matfuse device prelude ----
typedef unsigned int uint32_t;
typedef unsigned long long uint64_t;
typedef long long int64_t;
#define MF_HD __device__
#define MF_COLD __noinline__
#define MF_BRANCHES 1
#define MF_TAB __device__
#define MF_CONST __constant__
#define MF_SQRT(x) __dsqrt_rn(x)
#define MF_SQRTF(x) __fsqrt_rn(x)
#define MF_FMA(a, b, c) __fma_rn((a), (b), (c))
#define MF_FMAF(a, b, c) __fmaf_rn((a), (b), (c))
#define MF_MULHILO(a, b, hi, lo) \
  do { const uint32_t a_ = (a), b_ = (b); (hi) = __umulhi(a_, b_); (lo) = a_ * b_; } while (0)
#define MF_D2U(d) ((uint64_t)__double_as_longlong((double)(d)))
#define MF_U2D(u) __longlong_as_double((long long)(u))
#define MF_F2U(f) ((uint32_t)__float_as_uint((float)(f)))
#define MF_U2F(u) __uint_as_float((unsigned)(u))
#define MF_DI static __device__ __forceinline__
)MFCUDA";

// Device helpers after the op functions: reciprocal division, saturation, faults, vector
// moves, reductions, grouped random numbers.
const char* const kHelpers = R"MFCUDA(
// a / b for a divisor b fixed per thread, given mf_rcp_setup(b) (rb = 1/b in IEEE arithmetic,
// lo = the least |a| for which the multiplicative path is used). Always the bits of a / b.
// Two residual steps q1 = q0 + (a - b*q0)*rb and q2 = q1 + (a - b*q1)*rb, each one FMA after one
// FMA for the residual: q0 = a*rb is within 1.5 ulp of a/b only, while after the first step q1
// is within half an ulp plus a term of order 2^-p ulp, so q1 is within one ulp of a/b and
// Markstein's theorem (rb within half an ulp of 1/b and q within one ulp of a/b make the
// residual exact and q + (a - b*q)*rb round to a/b; P. W. Markstein, IBM J. Res. Dev. 34(1),
// 1990; J.-M. Muller et al., "Handbook of Floating-Point Arithmetic", 2nd ed., sec. 4.7) makes
// q2 the correctly rounded quotient. The theorem needs no underflow or overflow on the way:
// the path is taken for lo <= |a| <= 2^E and 2^-E <= |b| <= 2^E (E = 300 for double, 40 for
// float: the quotient and the residuals stay normal); elsewhere (zeros, infinities, NaN,
// extreme magnitudes) it is the division itself. 1 multiplication and 4 FMAs instead of a
// division's reciprocal approximation, refinement and range check.
struct mf_rcp_d { double r, lo; };
struct mf_rcp_f { float r, lo; };
MF_DI mf_rcp_d mf_rcp_setup(double b) {
  const double m = fabs(b);
  const double inf = __longlong_as_double(0x7ff0000000000000LL);
  return {1.0 / b, (m >= 0x1p-300 && m <= 0x1p300) ? 0x1p-300 : inf};
}
MF_DI mf_rcp_f mf_rcp_setup(float b) {
  const float m = fabsf(b);
  return {1.0f / b, (m >= 0x1p-40f && m <= 0x1p40f) ? 0x1p-40f : __int_as_float(0x7f800000)};
}
// The two residual steps alone, for callers that know a and b to be in range.
MF_DI double mf_div_rcp2(double a, double b, double rb) {
  const double q0 = a * rb;
  const double q1 = __fma_rn(__fma_rn(-q0, b, a), rb, q0);
  return __fma_rn(__fma_rn(-q1, b, a), rb, q1);
}
MF_DI float mf_div_rcp2(float a, float b, float rb) {
  const float q0 = a * rb;
  const float q1 = __fmaf_rn(__fmaf_rn(-q0, b, a), rb, q0);
  return __fmaf_rn(__fmaf_rn(-q1, b, a), rb, q1);
}
MF_DI double mf_div_rcp(double a, double b, mf_rcp_d rb) {
  const double m = fabs(a);
  return m >= rb.lo && m <= 0x1p300 ? mf_div_rcp2(a, b, rb.r) : a / b;
}
MF_DI float mf_div_rcp(float a, float b, mf_rcp_f rb) {
  const float m = fabsf(a);
  return m >= rb.lo && m <= 0x1p40f ? mf_div_rcp2(a, b, rb.r) : a / b;
}
// Round half away from zero and saturate to [lo, hi]; NaN gives 0 (saturate_round and
// saturate_cast of runtime/scalar_ops.h and runtime/dtype.h).
MF_DI double mf_satr(double v, double lo, double hi) {
  if (v != v) return 0.0;
  double r = round(v);
  return r <= lo ? lo : r >= hi ? hi : r;
}
// Records the first fault code (integer atomics only).
MF_DI void mf_fault(int* f, int code) { if (*f == 0) atomicCAS(f, 0, code); }

// V consecutive elements moved by one vector load or store (16 bytes; 32 for the groups of 4
// doubles of rand/randn kernels, moved as two 16-byte halves).
template <class T, int V> struct alignas(sizeof(T) * V) mf_vec { T v[V]; };
// A group of cnt <= V elements (V in the usual case) read or written as one vector when `al`
// (p aligned to the vector) and the group is whole, else element by element; missing lanes
// read as zero. al and cnt are uniform over all but the last group, so the branch rarely diverges.
template <class T, int V> MF_DI mf_vec<T, V> mf_ldv(const T* p, bool al, int cnt) {
  if (al && cnt == V) return *(const mf_vec<T, V>*)p;
  mf_vec<T, V> r;
#pragma unroll
  for (int l = 0; l < V; ++l) r.v[l] = l < cnt ? p[l] : T(0);
  return r;
}
template <class T, int V> MF_DI void mf_stv(T* p, const mf_vec<T, V>& x, bool al, int cnt) {
  if (al && cnt == V) {
    *(mf_vec<T, V>*)p = x;
    return;
  }
#pragma unroll
  for (int l = 0; l < V; ++l)
    if (l < cnt) p[l] = x.v[l];
}

// ---- reductions (ReduceKind codes: 0 sum, 1 prod, 2 mean, 3 min, 4 max, 5 any, 6 all) ----
// Partial state in the accumulation type A: v (sum, product, min/max value), nan/nan_v (the
// first NaN met, returned as is by min/max), count (non-NaN terms, for mean omitnan), found.
template <class A> struct mf_part { A v; A nan_v; long long count; int found; int nan; };
template <int K, class A> MF_DI mf_part<A> mf_init() {
  mf_part<A> p;
  p.v = K == 1 ? A(1) : A(0);
  p.nan_v = A(0);
  p.count = 0;
  p.found = K == 6 ? 1 : 0;
  p.nan = 0;
  return p;
}
// Folds one term x (left to right).
template <int K, bool OMIT, class A, class X> MF_DI void mf_fold(mf_part<A>& p, X x) {
  if (K == 0 || K == 2) {
    if (OMIT && mf_isnan(x)) return;
    p.v = p.v + (A)x;
    p.count += 1;
  } else if (K == 1) {
    if (OMIT && mf_isnan(x)) return;
    p.v = p.v * (A)x;
  } else if (K == 3 || K == 4) {
    if (mf_isnan(x)) {
      if (!p.nan) p.nan_v = (A)x;
      p.nan = 1;
      return;
    }
    const A d = (A)x;
    if (!p.found || (K == 4 ? d > p.v : d < p.v)) { p.v = d; p.found = 1; }
  } else if (K == 5) {
    if (!mf_isnan(x) && x != X(0)) p.found = 1;
  } else {
    if (x == X(0)) p.found = 0;
  }
}
// Combines partial b of the terms after those of a (order preserving).
template <int K, class A> MF_DI mf_part<A> mf_combine(mf_part<A> a, const mf_part<A>& b) {
  if (K == 0 || K == 2) { a.v = a.v + b.v; a.count += b.count; }
  else if (K == 1) a.v = a.v * b.v;
  else if (K == 3 || K == 4) {
    if (!a.nan && b.nan) a.nan_v = b.nan_v;
    a.nan |= b.nan;
    if (b.found && (!a.found || (K == 4 ? b.v > a.v : b.v < a.v))) { a.v = b.v; a.found = 1; }
  } else if (K == 5) a.found |= b.found;
  else a.found &= b.found;
  return a;
}
// Final value of a sum/prod/mean/min/max over n terms (any/all read `found`).
template <int K, bool OMIT, class A> MF_DI A mf_finish(const mf_part<A>& p, long long n) {
  if (K == 2) return p.v / (A)(OMIT ? p.count : n);
  if (K == 3 || K == 4) return (p.nan && (!OMIT || !p.found)) ? p.nan_v : p.v;
  return p.v;
}
// The host's pairwise summation tree (kernel_ir.h): a lane's n terms are cut into 2^D leaves,
// D the least depth where floor(n / 2^D) <= 128, by halving (a range [lo, lo+len) splits at
// lo + len/2). mf_leaf_lo(k) is the start of leaf k (mf_leaf_lo(2^D) = n). A leaf holds <= 129
// terms; one of 129 is itself summed as (64 terms) + (65 terms).
MF_DI long long mf_leaf_lo(long long k, long long n, int D) {
  if (k >> D) return n;
  long long lo = 0, len = n;
  for (int d = D - 1; d >= 0; --d) {
    const long long h = len / 2;
    if ((k >> d) & 1) { lo += h; len -= h; } else { len = h; }
  }
  return lo;
}
// Balanced pairwise tree over values pushed in order; the count pushed must be a power of two
// (N = log2(count) + 1), the result is then s[0].
template <class A, int N> struct mf_tree {
  A s[N]; int sp; long long m;
  __device__ __forceinline__ void push(A x) {
    s[sp++] = x;
    for (long long t = ++m; !(t & 1); t >>= 1) { s[sp - 2] = s[sp - 2] + s[sp - 1]; --sp; }
  }
};
// The same tree over partials of reduce kind K (order preserving for every kind): the CNT
// partials src[(base + m) * pre + ri], m = 0..CNT-1 (CNT a power of two). All loads are issued
// before the first combine, and the unrolled levels keep the partials in registers (a pass over
// 16 partials per thread waits for one memory latency, not 16).
template <int K, class A, int CNT> MF_DI mf_part<A> mf_load_tree(const mf_part<A>* src,
                                                                long long base, long long pre,
                                                                long long ri) {
  mf_part<A> L[CNT];
#pragma unroll
  for (int m = 0; m < CNT; ++m) L[m] = src[(base + m) * pre + ri];
#pragma unroll
  for (int s = 1; s < CNT; s *= 2) {
#pragma unroll
    for (int m = 0; m < CNT; m += 2 * s) L[m] = mf_combine<K>(L[m], L[m + s]);
  }
  return L[0];
}
// Out-of-line rand/randn (same code as the inline ones, so the same bits): a loop kernel may call
// them dozens of times, and inlining every call multiplies NVRTC's compile time.
static __device__ __noinline__ double mf_rand_d_ni(uint64_t k, uint64_t c) { return mf_rand_d(k, c); }
static __device__ __noinline__ float mf_rand_f_ni(uint64_t k, uint64_t c) { return mf_rand_f(k, c); }
static __device__ __noinline__ double mf_randn_d_ni(uint64_t k, uint64_t c) { return mf_randn_d(k, c); }
static __device__ __noinline__ float mf_randn_f_ni(uint64_t k, uint64_t c) { return mf_randn_f(k, c); }
// Values at the 4 consecutive stream positions g0 .. g0+3, for a thread that computes 4
// elements: the Philox blocks covering them (philox.inc's stream model: 1 block of 4 single
// lanes or 2 of 2 double lanes when g0 is a multiple of L, one more otherwise), picked by
// selects so that everything stays in registers. The same bits as the per-position functions.
template <int N, class T> MF_DI T mf_pick(const T* b, unsigned j) {
  T x = b[0];
#pragma unroll
  for (unsigned m = 1; m < N; ++m) x = j == m ? b[m] : x;
  return x;
}
template <int L, class T, void (*Block)(uint64_t, uint64_t, T*)>
MF_DI mf_vec<T, 4> mf_rng_x4(uint64_t k, uint64_t g0) {
  T b[8];
  const uint64_t c = g0 / L;
  const unsigned s = (unsigned)(g0 % L);
#pragma unroll
  for (int m = 0; m < 4 / L; ++m) Block(k, c + m, b + m * L);
  mf_vec<T, 4> r;
  if (s == 0) {
#pragma unroll
    for (int l = 0; l < 4; ++l) r.v[l] = b[l];
    return r;
  }
  Block(k, c + 4 / L, b + 4);
#pragma unroll
  for (int l = 0; l < 4; ++l) r.v[l] = mf_pick<4 + L>(b, s + l);
  return r;
}
static __device__ __noinline__ mf_vec<double, 4> mf_rand_d_x4(uint64_t k, uint64_t g0) {
  return mf_rng_x4<MF_RNG_LANES_D, double, mf_rand2_d>(k, g0);
}
static __device__ __noinline__ mf_vec<float, 4> mf_rand_f_x4(uint64_t k, uint64_t g0) {
  return mf_rng_x4<MF_RNG_LANES_F, float, mf_rand4_f>(k, g0);
}
static __device__ __noinline__ mf_vec<double, 4> mf_randn_d_x4(uint64_t k, uint64_t g0) {
  return mf_rng_x4<MF_RNG_LANES_D, double, mf_randn2_d>(k, g0);
}
static __device__ __noinline__ mf_vec<float, 4> mf_randn_f_x4(uint64_t k, uint64_t g0) {
  return mf_rng_x4<MF_RNG_LANES_F, float, mf_randn4_f>(k, g0);
}
)MFCUDA";

// Fast mode (accel::MathMode::Fast): single-precision functions from CUDA's math library and
// hardware approximations, prepended only to fast programs (exact programs keep their text).
// Their measured error bounds are in docs/math-modes.md. NaN and Inf behave as in exact mode.
#define MF_FAST_OPS(X) X(Sin, sinf) X(Cos, cosf) X(Tan, tanf) X(Asin, asinf) X(Acos, acosf) \
  X(Atan, atanf) X(Sinh, sinhf) X(Cosh, coshf) X(Tanh, tanhf) X(Exp, expf) X(Log, logf) \
  X(Log2, log2f) X(Log10, log10f) X(Log1p, log1pf) X(Expm1, expm1f)
#define MF_STR_(x) #x
#define MF_FAST_TEXT(N, F) "MF_DI float mf_fast_" MF_STR_(N) "(float a) { return " MF_STR_(F) "(a); }\n"
const char* const kFastOps =
    "\n// ---- fast mode (docs/math-modes.md) ----\n"
    MF_FAST_OPS(MF_FAST_TEXT)
    // a / b by the hardware reciprocal (2 ulp) while |b| < 2^126, else IEEE division.
    "MF_DI float mf_fast_Div(float a, float b) {\n"
    "  return fabsf(b) < 0x1p126f ? __fdividef(a, b) : a / b;\n}\n"
    "MF_DI float mf_fast_LDiv(float a, float b) { return mf_fast_Div(b, a); }\n";

}  // namespace

bool has_fast_op(OpId op) {
  switch (op) {
#define MF_FAST_CASE(N, F) case OpId::N:
    MF_FAST_OPS(MF_FAST_CASE)
#undef MF_FAST_CASE
    case OpId::Div:
    case OpId::LDiv: return true;
    default: return false;
  }
}

const std::string& fast_prelude() {
  static const std::string text = kFastOps;
  return text;
}

const std::string& device_prelude() {
  static const std::string text = std::string(kHead) + kPhiloxText + kMathText + kScalarOpsText + kHelpers;
  return text;
}

}  // namespace matfuse::cuda
