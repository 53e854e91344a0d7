// Chunk evaluation of kernel IR on the host (see host_eval.h). Every instruction is one loop
// over the chunk with the scalar functor of runtime/scalar_ops.h inlined (the same functors as
// the eager engine), so the compiler vectorises the simple ones and results match the eager
// engine bit for bit.
#include "providers/host/host_eval.h"

#include <cmath>
#include <cstring>
#include <mutex>
#include <type_traits>

#ifdef MATFUSE_HAVE_SLEEF
#include <immintrin.h>
#include <sleef.h>
// sleef.h declares its 8-lane dispatchers only where the including file is compiled for AVX;
// this one is not (only the loops that call them are), so they are declared here, for AVX
// callers (their __m256 arguments are passed in AVX registers).
extern "C" {
#define MF_SLEEF8(f, u) __attribute__((target("avx2,fma"))) __m256 Sleef_##f##f8_##u(__m256);
MF_SLEEF8(sin, u35) MF_SLEEF8(cos, u35) MF_SLEEF8(tan, u35) MF_SLEEF8(asin, u10)
MF_SLEEF8(acos, u10) MF_SLEEF8(atan, u10) MF_SLEEF8(exp, u10)
#undef MF_SLEEF8
}
#endif

#include "runtime/error.h"
#include "runtime/scalar_ops.h"

#include "runtime/philox.inc"

namespace matfuse::host {

using accel::Access;
using accel::IKind;
using accel::Instr;
using accel::VType;

void Fault::raise(const char* why) {
  bool expected = false;
  if (raised.compare_exchange_strong(expected, true)) reason = why;
}

Scratch& thread_scratch() {
  thread_local Scratch s;
  return s;
}

// Batch loops cloned for AVX-512 and AVX2 (no FMA contraction: -ffp-contract=off; the same
// IEEE operations give the same bits in every clone and in the scalar functors).
#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__)
#define MF_HOST_CLONES __attribute__((target_clones("arch=x86-64-v4", "arch=x86-64-v3", "default")))
#else
#define MF_HOST_CLONES
#endif

// Single-precision transcendental batches o[j] = f(a[j]) over the branch-free functions of
// runtime/mf_math.inc (vectorised; the same bits as scalar_ops.h and the CUDA prelude).
// sin/cos/tan run the |x| < 2^19 path vectorised, then redo the other elements exactly.
#define MF_F32_BATCH(fn)                                                              \
  MF_HOST_CLONES void fn##_run(const float* __restrict a, float* __restrict o, int n) { \
    for (int j = 0; j < n; ++j) o[j] = fn(a[j]);                                      \
  }
MF_F32_BATCH(mf_expf)
MF_F32_BATCH(mf_expm1f)
MF_F32_BATCH(mf_logf)
MF_F32_BATCH(mf_log1pf)
MF_F32_BATCH(mf_log2f)
MF_F32_BATCH(mf_log10f)
MF_F32_BATCH(mf_sinhf)
MF_F32_BATCH(mf_coshf)
MF_F32_BATCH(mf_tanhf)
MF_F32_BATCH(mf_atanf)
MF_F32_BATCH(mf_asinf)
MF_F32_BATCH(mf_acosf)
#undef MF_F32_BATCH
#define MF_F32_TRIG_BATCH(fn)                                                         \
  MF_HOST_CLONES void fn##_run(const float* __restrict a, float* __restrict o, int n) { \
    for (int j = 0; j < n; ++j) o[j] = fn##_small(a[j]);                              \
    for (int j = 0; j < n; ++j)                                                       \
      if (!mf_trig_small(a[j])) o[j] = fn(a[j]);                                      \
  }
MF_F32_TRIG_BATCH(mf_sinf)
MF_F32_TRIG_BATCH(mf_cosf)
MF_F32_TRIG_BATCH(mf_tanf)
#undef MF_F32_TRIG_BATCH

PhaseCtx::PhaseCtx(const accel::Kernel& kernel, const std::vector<Instr>& c, const Dims& s,
                   const KernelArgs& a, Fault& f)
    : k(&kernel), code(&c), space(s), args(&a), fault(&f) {
  const int nd = space.ndims();
  auto st = strides_of(space);
  for (const Access& ac : kernel.accesses) {
    AccessPlan p;
    p.base = ac.base;
    for (auto& [slot, coef] : ac.param_terms)
      p.base += coef * static_cast<int64_t>(a.params[slot].f);
    if (static_cast<int>(ac.strides.size()) == nd) {
      p.uniform = true;
      p.contiguous = true;
      for (int d = 0; d < nd; ++d) {
        p.uniform &= ac.strides[d] == 0;
        p.contiguous &= ac.strides[d] == (space[d] == 1 ? 0 : st[d]);
      }
      // Leading dimensions laid out as in the space, the rest broadcast: periodic.
      int k = 0;
      while (k < nd && ac.strides[k] == (space[k] == 1 ? 0 : st[k])) ++k;
      bool rest_zero = k > 0;
      for (int d = k; d < nd; ++d) rest_zero &= ac.strides[d] == 0;
      if (!p.uniform && !p.contiguous && rest_zero) {
        p.period = 1;
        for (int d = 0; d < k; ++d) p.period *= space[d];
      }
    }
    access.push_back(p);
  }
}

namespace {

template <class T> inline T* buf(Scratch& s, int i) {
  return reinterpret_cast<T*>(s.mem.data() + static_cast<size_t>(i) * kChunk * 8);
}
template <class T> inline const T* val(const Scratch& s, int i) {
  return static_cast<const T*>(s.vals[i]);
}

/// Visits the chunk [start, start + len) of the iteration space as runs along its first
/// dimension: f(j, off, run, s0) for points j .. j + run - 1 of the chunk, whose elements of
/// access a are off, off + s0, ... (s0 = a's stride along the first dimension).
template <class F>
void for_each_run(const Access& a, const Dims& space, int64_t base, int64_t start, int len, F&& f) {
  const int nd = space.ndims();
  int64_t idx[Dims::kMaxDims];
  int64_t rem = start, off = base;
  for (int d = 0; d < nd; ++d) {
    idx[d] = rem % space[d];
    rem /= space[d];
    off += idx[d] * a.strides[d];
  }
  const int64_t d0 = space[0], s0 = a.strides[0];
  int j = 0;
  while (j < len) {
    const int64_t run = std::min<int64_t>(len - j, d0 - idx[0]);
    f(j, off, run, s0);
    j += static_cast<int>(run);
    off += run * s0;
    idx[0] += run;
    if (idx[0] == d0) {
      off -= d0 * s0;
      idx[0] = 0;
      for (int d = 1; d < nd; ++d) {
        off += a.strides[d];
        if (++idx[d] < space[d]) break;
        off -= space[d] * a.strides[d];
        idx[d] = 0;
      }
    }
  }
}

/// Element offsets of access a for the chunk (general strides).
void offsets(const Access& a, const Dims& space, int64_t base, int64_t start, int len,
             int64_t* out) {
  for_each_run(a, space, base, start, len, [&](int j, int64_t off, int64_t run, int64_t s0) {
    for (int64_t r = 0; r < run; ++r) out[j + r] = off + r * s0;
  });
}

template <class Dst, class Src>
void load_typed(const PhaseCtx& c, const Instr& in, int vi, int64_t start, int len, Scratch& s) {
  const Src* p = static_cast<const Src*>(c.args->inputs[in.input]);
  const AccessPlan& ap = c.access[in.access];
  Dst* o = buf<Dst>(s, vi);
  if (ap.uniform) {
    o[0] = static_cast<Dst>(p[ap.base]);
  } else if (ap.contiguous) {
    const Src* q = p + ap.base + start;
    if constexpr (std::is_same_v<Dst, Src>) {
      s.vals[vi] = q;  // zero copy: values are read only
      return;
    } else {
      for (int j = 0; j < len; ++j) o[j] = static_cast<Dst>(q[j]);
    }
  } else if (ap.period > 0) {
    const Src* q = p + ap.base;
    int64_t r = start % ap.period;
    for (int j = 0; j < len; ++j) {
      o[j] = static_cast<Dst>(q[r]);
      if (++r == ap.period) r = 0;
    }
  } else {
    // Run by run along the first dimension: a broadcast run (stride 0, e.g. a column mean
    // read down its column) is one value filled, the others are read with their stride.
    for_each_run(c.k->accesses[in.access], c.space, ap.base, start, len,
                 [&](int j, int64_t off, int64_t run, int64_t s0) {
                   Dst* oj = o + j;
                   const Src* q = p + off;
                   if (s0 == 0) {
                     const Dst v = static_cast<Dst>(q[0]);
                     for (int64_t r = 0; r < run; ++r) oj[r] = v;
                   } else if (s0 == 1) {
                     for (int64_t r = 0; r < run; ++r) oj[r] = static_cast<Dst>(q[r]);
                   } else {
                     for (int64_t r = 0; r < run; ++r) oj[r] = static_cast<Dst>(q[r * s0]);
                   }
                 });
  }
  s.vals[vi] = o;
}

void eval_load(const PhaseCtx& c, const Instr& in, int vi, int64_t start, int len, Scratch& s) {
  const ClassId cls = c.k->inputs[in.input].cls;
  dispatch_class(cls, [&](auto tag) {
    using Src = decltype(tag);
    if constexpr (std::is_same_v<Src, float>) load_typed<float, float>(c, in, vi, start, len, s);
    else if constexpr (std::is_same_v<Src, bool>) load_typed<bool, bool>(c, in, vi, start, len, s);
    else if constexpr (std::is_same_v<Src, int64_t> || std::is_same_v<Src, uint64_t>)
      MF_ASSERT(false, "64-bit integer inputs are not lowered");
    else load_typed<double, Src>(c, in, vi, start, len, s);
  });
}

void eval_iota(const PhaseCtx& c, const Instr& in, int vi, int64_t start, int len, Scratch& s) {
  const AccessPlan& ap = c.access[in.access];
  double* o = buf<double>(s, vi);
  if (ap.uniform) {
    o[0] = static_cast<double>(ap.base);
  } else if (ap.contiguous) {
    for (int j = 0; j < len; ++j) o[j] = static_cast<double>(ap.base + start + j);
  } else {
    int64_t* off = s.offs.data();
    offsets(c.k->accesses[in.access], c.space, ap.base, start, len, off);
    for (int j = 0; j < len; ++j) o[j] = static_cast<double>(off[j]);
  }
  s.vals[vi] = o;
}

// ---- ops --------------------------------------------------------------------------------------

using F32Batch = void (*)(const float*, float*, int);

#ifdef MATFUSE_HAVE_SLEEF
// Fast mode (docs/math-modes.md): SLEEF's vectorised single-precision sin, cos, tan (its
// 3.5-ulp variants), asin, acos, atan and exp (1-ulp variants), each within fast mode's bound
// and faster than the exact batch; the other functions stay exact, as SLEEF's were not faster
// (N. Shibata and F. Petrogalli, "SLEEF: A Portable Vectorized Library of C Standard
// Mathematical Functions", IEEE TPDS 31(6), 2020).
// Eight lanes per call where the CPU has AVX2 (SLEEF's dispatcher picks AVX2/FMA code), else
// four (SSE2). A partial last group is padded, so every element goes through the same vector
// code whatever its position: the results do not depend on the chunking.
// sleef_<f>_run(a, o, n): o[j] = f(a[j]) by SLEEF's function f of accuracy u.
#define MF_SLEEF_RUN(f, u)                                                                   \
  __attribute__((target("avx2,fma"))) void sleef_##f##_run8(const float* __restrict a,       \
                                                            float* __restrict o, int n) {    \
    int j = 0;                                                                               \
    for (; j + 8 <= n; j += 8) _mm256_storeu_ps(o + j, Sleef_##f##f8_##u(_mm256_loadu_ps(a + j))); \
    if (j < n) {                                                                             \
      alignas(32) float t[8] = {};                                                           \
      std::memcpy(t, a + j, sizeof(float) * static_cast<size_t>(n - j));                    \
      _mm256_store_ps(t, Sleef_##f##f8_##u(_mm256_load_ps(t)));                             \
      std::memcpy(o + j, t, sizeof(float) * static_cast<size_t>(n - j));                    \
    }                                                                                        \
  }                                                                                          \
  void sleef_##f##_run(const float* __restrict a, float* __restrict o, int n) {              \
    if (sleef_avx2()) return sleef_##f##_run8(a, o, n);                                      \
    int j = 0;                                                                               \
    for (; j + 4 <= n; j += 4) _mm_storeu_ps(o + j, Sleef_##f##f4_##u(_mm_loadu_ps(a + j))); \
    if (j < n) {                                                                             \
      alignas(16) float t[4] = {};                                                           \
      std::memcpy(t, a + j, sizeof(float) * static_cast<size_t>(n - j));                    \
      _mm_store_ps(t, Sleef_##f##f4_##u(_mm_load_ps(t)));                                   \
      std::memcpy(o + j, t, sizeof(float) * static_cast<size_t>(n - j));                    \
    }                                                                                        \
  }
bool sleef_avx2() {
  static const bool yes = __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
  return yes;
}
MF_SLEEF_RUN(sin, u35) MF_SLEEF_RUN(cos, u35) MF_SLEEF_RUN(tan, u35) MF_SLEEF_RUN(asin, u10)
MF_SLEEF_RUN(acos, u10) MF_SLEEF_RUN(atan, u10) MF_SLEEF_RUN(exp, u10)
#undef MF_SLEEF_RUN
#endif

/// The float batch of op Op in fast mode (nullptr: the exact batch serves both modes).
template <class Op> constexpr F32Batch f32_fast_batch = nullptr;
#ifdef MATFUSE_HAVE_SLEEF
template <> constexpr F32Batch f32_fast_batch<scalar::Sin> = sleef_sin_run;
template <> constexpr F32Batch f32_fast_batch<scalar::Cos> = sleef_cos_run;
template <> constexpr F32Batch f32_fast_batch<scalar::Tan> = sleef_tan_run;
template <> constexpr F32Batch f32_fast_batch<scalar::Asin> = sleef_asin_run;
template <> constexpr F32Batch f32_fast_batch<scalar::Acos> = sleef_acos_run;
template <> constexpr F32Batch f32_fast_batch<scalar::Atan> = sleef_atan_run;
template <> constexpr F32Batch f32_fast_batch<scalar::Exp> = sleef_exp_run;
#undef MF_SLEEF
#endif

/// The float batch of op Op (nullptr when it has none).
template <class Op> constexpr F32Batch f32_batch = nullptr;
template <> constexpr F32Batch f32_batch<scalar::Exp> = mf_expf_run;
template <> constexpr F32Batch f32_batch<scalar::Expm1> = mf_expm1f_run;
template <> constexpr F32Batch f32_batch<scalar::Log> = mf_logf_run;
template <> constexpr F32Batch f32_batch<scalar::Log1p> = mf_log1pf_run;
template <> constexpr F32Batch f32_batch<scalar::Log2> = mf_log2f_run;
template <> constexpr F32Batch f32_batch<scalar::Log10> = mf_log10f_run;
template <> constexpr F32Batch f32_batch<scalar::Sinh> = mf_sinhf_run;
template <> constexpr F32Batch f32_batch<scalar::Cosh> = mf_coshf_run;
template <> constexpr F32Batch f32_batch<scalar::Tanh> = mf_tanhf_run;
template <> constexpr F32Batch f32_batch<scalar::Atan> = mf_atanf_run;
template <> constexpr F32Batch f32_batch<scalar::Asin> = mf_asinf_run;
template <> constexpr F32Batch f32_batch<scalar::Acos> = mf_acosf_run;
template <> constexpr F32Batch f32_batch<scalar::Sin> = mf_sinf_run;
template <> constexpr F32Batch f32_batch<scalar::Cos> = mf_cosf_run;
template <> constexpr F32Batch f32_batch<scalar::Tan> = mf_tanf_run;

// Binary float batches o[j] = Op(a[j*sa], b[j*sb]) (sa, sb: 0 for a uniform operand, else 1),
// cloned like the unary ones so that the FMAs of mf_math.inc become instructions.
using F32Batch2 = void (*)(const float*, int, const float*, int, float*, int);
#define MF_F32_BIN_BATCH(fn, expr)                                                        \
  MF_HOST_CLONES void fn(const float* __restrict a, int sa, const float* __restrict b, int sb, \
                         float* __restrict o, int n) {                                      \
    if (sa && sb) {                                                                         \
      for (int j = 0; j < n; ++j) {                                                         \
        const float x = a[j], y = b[j];                                                     \
        o[j] = expr;                                                                        \
      }                                                                                     \
    } else if (sa) {                                                                        \
      const float y = b[0];                                                                 \
      for (int j = 0; j < n; ++j) {                                                         \
        const float x = a[j];                                                               \
        o[j] = expr;                                                                        \
      }                                                                                     \
    } else {                                                                                \
      const float x = a[0];                                                                 \
      for (int j = 0; j < n; ++j) {                                                         \
        const float y = b[j * sb];                                                          \
        o[j] = expr;                                                                        \
      }                                                                                     \
    }                                                                                       \
  }
// The mf_* calls are inlined into each clone (the scalar functors would not be); the
// expressions are those of scalar::Pow / Atan2 / Hypot for float. Contiguous loops for each
// operand layout, so that they vectorise.
MF_F32_BIN_BATCH(mf_pow_pos_run, mf_powf_pos_(x, y))
/// pow as scalar::Pow: the branch-free mf_powf_pos_ over every element (vectorised; a select
/// of x*x inside the loop would make its table loads conditional), then the squares (exponent
/// 2) and the special cases (negative or infinite base, NaN, infinite exponent) redone.
void mf_pow_run(const float* __restrict a, int sa, const float* __restrict b, int sb,
                float* __restrict o, int n) {
  if (!sb && b[0] == 2.0f) {
    for (int j = 0; j < n; ++j) o[j] = a[j * sa] * a[j * sa];
    return;
  }
  mf_pow_pos_run(a, sa, b, sb, o, n);
  for (int j = 0; j < n; ++j) {
    const float x = a[j * sa], y = b[j * sb];
    if (y == 2.0f) o[j] = x * x;
    else if (!mf_powf_pos_ok_(x, y)) o[j] = mf_powf_special_(x, y);
  }
}
MF_F32_BIN_BATCH(mf_atan2_run, mf_atan2f(x, y))
MF_F32_BIN_BATCH(mf_hypot_run, mf_hypotf(x, y))
#undef MF_F32_BIN_BATCH
template <class Op> constexpr F32Batch2 f32_batch2 = nullptr;
template <> constexpr F32Batch2 f32_batch2<scalar::Pow> = mf_pow_run;
template <> constexpr F32Batch2 f32_batch2<scalar::Atan2> = mf_atan2_run;
template <> constexpr F32Batch2 f32_batch2<scalar::Hypot> = mf_hypot_run;

template <class Op, class W>
void op_w(const PhaseCtx& c, const Instr& in, int vi, int len, Scratch& s) {
  const int n = in.uniform ? 1 : len;
  const Instr* code = c.code->data();
  const bool ua = code[in.a].uniform;
  if constexpr (requires(W x) { Op::apply(x, x); }) {
    using R = decltype(Op::apply(W{}, W{}));
    const bool ub = code[in.b].uniform;
    const W* __restrict a = val<W>(s, in.a);
    const W* __restrict b = val<W>(s, in.b);
    R* __restrict o = buf<R>(s, vi);
    if constexpr (std::is_same_v<W, float> && f32_batch2<Op> != nullptr) {
      f32_batch2<Op>(a, ua ? 0 : 1, b, ub ? 0 : 1, o, ua && ub ? 1 : n);
    } else if (ua && ub) {
      o[0] = Op::apply(a[0], b[0]);
    } else if (ua) {
      const W x = a[0];
      for (int j = 0; j < n; ++j) o[j] = Op::apply(x, b[j]);
    } else if (ub) {
      const W y = b[0];
      for (int j = 0; j < n; ++j) o[j] = Op::apply(a[j], y);
    } else {
      for (int j = 0; j < n; ++j) o[j] = Op::apply(a[j], b[j]);
    }
    if constexpr (RealFloat<W> && requires(W x) { Op::real_ok(x, x); }) {
      if (in.check_real) {
        bool ok = true;
        if constexpr (std::is_same_v<Op, scalar::Pow>) {
          if (ub && !ua) {  // x.^1.8: complex only for negative x, when y is not an integer
            if (!Op::real_ok(W(-1), b[0]))
              for (int j = 0; j < n; ++j) ok &= !(a[j] < W(0));
          } else {
            for (int j = 0; j < n; ++j) ok &= Op::real_ok(a[ua ? 0 : j], b[ub ? 0 : j]);
          }
        } else {
          for (int j = 0; j < n; ++j) ok &= Op::real_ok(a[ua ? 0 : j], b[ub ? 0 : j]);
        }
        if (!ok) c.fault->raise("result is complex");
      }
    }
    s.vals[vi] = o;
  } else if constexpr (requires(W x) { Op::apply(x); }) {
    using R = decltype(Op::apply(W{}));
    const W* __restrict a = val<W>(s, in.a);
    R* __restrict o = buf<R>(s, vi);
    if constexpr (std::is_same_v<W, float> && f32_fast_batch<Op> != nullptr) {
      if (c.k->math == accel::MathMode::Fast) {
        f32_fast_batch<Op>(a, o, n);
      } else {
        f32_batch<Op>(a, o, n);
      }
    } else if constexpr (std::is_same_v<W, float> && f32_batch<Op> != nullptr) {
      f32_batch<Op>(a, o, n);
    } else {
      for (int j = 0; j < n; ++j) o[j] = Op::apply(a[j]);
    }
    if constexpr (RealFloat<W> && requires(W x) { Op::real_ok(x); }) {
      if (in.check_real) {
        bool ok = true;
        for (int j = 0; j < n; ++j) ok &= Op::real_ok(a[j]);
        if (!ok) c.fault->raise("result is complex");
      }
    }
    s.vals[vi] = o;
  } else {
    c.fault->raise("op not defined for the work type");
    s.vals[vi] = buf<double>(s, vi);
  }
}

template <class Op> void op_t(const PhaseCtx& c, const Instr& in, int vi, int len, Scratch& s) {
  switch ((*c.code)[in.a].type) {
    case VType::F64: return op_w<Op, double>(c, in, vi, len, s);
    case VType::F32: return op_w<Op, float>(c, in, vi, len, s);
    case VType::Bool: return op_w<Op, bool>(c, in, vi, len, s);
  }
}

void eval_op(const PhaseCtx& c, const Instr& in, int vi, int len, Scratch& s) {
  switch (in.op) {
#define MF_OP(id, ...) \
  case OpId::id: return op_t<scalar::id>(c, in, vi, len, s);
#include "runtime/ops.def"
#undef MF_OP
  }
}

// ---- conversions ------------------------------------------------------------------------------

/// Calls f(const T* src) with the source value's element type.
template <class F> void with_source(const Scratch& s, VType t, int i, F&& f) {
  switch (t) {
    case VType::F64: return f(val<double>(s, i));
    case VType::F32: return f(val<float>(s, i));
    case VType::Bool: return f(val<bool>(s, i));
  }
}

template <class S> inline bool is_nan_s(S v) {
  if constexpr (std::is_floating_point_v<S>) return v != v;
  else return false;
}

void eval_convert(const PhaseCtx& c, const Instr& in, int vi, int len, Scratch& s) {
  const int n = in.uniform ? 1 : len;
  const Instr& src = (*c.code)[in.a];
  with_source(s, src.type, in.a, [&](const auto* a) {
    using S = std::remove_cv_t<std::remove_pointer_t<decltype(a)>>;
    switch (in.type) {
      case VType::F64: {
        double* o = buf<double>(s, vi);
        for (int j = 0; j < n; ++j) o[j] = static_cast<double>(a[j]);
        s.vals[vi] = o;
        break;
      }
      case VType::F32: {
        float* o = buf<float>(s, vi);
        for (int j = 0; j < n; ++j) o[j] = static_cast<float>(a[j]);
        s.vals[vi] = o;
        break;
      }
      case VType::Bool: {
        bool* o = buf<bool>(s, vi);
        bool nan = false;
        for (int j = 0; j < n; ++j) {
          nan |= is_nan_s(a[j]);
          o[j] = a[j] != S{};
        }
        if (nan) c.fault->raise("NaN converted to logical");
        s.vals[vi] = o;
        break;
      }
    }
  });
}

template <class I> void saturate_loop(const double* a, double* o, int n) {
  for (int j = 0; j < n; ++j) o[j] = static_cast<double>(saturate_round<I>(a[j]));
}

void eval_saturate(const Instr& in, int vi, int len, Scratch& s) {
  const int n = in.uniform ? 1 : len;
  const double* a = val<double>(s, in.a);
  double* o = buf<double>(s, vi);
  switch (in.cls) {
    case ClassId::Int8: saturate_loop<int8_t>(a, o, n); break;
    case ClassId::UInt8: saturate_loop<uint8_t>(a, o, n); break;
    case ClassId::Int16: saturate_loop<int16_t>(a, o, n); break;
    case ClassId::UInt16: saturate_loop<uint16_t>(a, o, n); break;
    case ClassId::Int32: saturate_loop<int32_t>(a, o, n); break;
    case ClassId::UInt32: saturate_loop<uint32_t>(a, o, n); break;
    default: MF_ASSERT(false, "saturate to a non-integer class");
  }
  s.vals[vi] = o;
}

/// MATLAB class conversion (Tensor::to_class semantics) of the source to in.cls.
void eval_cast(const PhaseCtx& c, const Instr& in, int vi, int len, Scratch& s) {
  const int n = in.uniform ? 1 : len;
  const Instr& src = (*c.code)[in.a];
  with_source(s, src.type, in.a, [&](const auto* a) {
    using S = std::remove_cv_t<std::remove_pointer_t<decltype(a)>>;
    if (in.cls == ClassId::Logical) {
      bool* o = buf<bool>(s, vi);
      bool nan = false;
      for (int j = 0; j < n; ++j) {
        nan |= is_nan_s(a[j]);
        o[j] = a[j] != S{};
      }
      if (nan) c.fault->raise("NaN converted to logical");
      s.vals[vi] = o;
    } else if (in.cls == ClassId::Single) {
      float* o = buf<float>(s, vi);
      for (int j = 0; j < n; ++j) o[j] = static_cast<float>(a[j]);
      s.vals[vi] = o;
    } else if (in.cls == ClassId::Double) {
      double* o = buf<double>(s, vi);
      for (int j = 0; j < n; ++j) o[j] = static_cast<double>(a[j]);
      s.vals[vi] = o;
    } else {
      double* o = buf<double>(s, vi);
      dispatch_class(in.cls, [&](auto tag) {
        using T = decltype(tag);
        if constexpr (!std::is_floating_point_v<T> && !std::is_same_v<T, bool>)
          for (int j = 0; j < n; ++j)
            o[j] = static_cast<double>(saturate_cast<T>(static_cast<double>(a[j])));
      });
      s.vals[vi] = o;
    }
  });
}

// ---- generators -------------------------------------------------------------------------------

}  // namespace

// Batch generators over consecutive stream positions g0 + j (philox.inc's stream model): the
// whole Philox blocks by the per-block functions, the partial blocks at either end by the
// per-position ones (the same bits). Plain loops over branch-free functions (this file is
// compiled with -fno-math-errno and -fno-trapping-math so that they vectorise), cloned for
// AVX-512 and AVX2 (no FMA contraction: -ffp-contract=off; the same IEEE operations give the
// same bits in every clone).
template <int L, class T, void (*Block)(uint64_t, uint64_t, T*), T (*At)(uint64_t, uint64_t)>
inline __attribute__((always_inline)) void rng_run(uint64_t key, uint64_t g0, int n,
                                                   T* __restrict o) {
  int j = 0;
  for (; j < n && (g0 + static_cast<uint64_t>(j)) % L != 0; ++j) o[j] = At(key, g0 + j);
  const uint64_t b0 = (g0 + static_cast<uint64_t>(j)) / L;
  const int nb = (n - j) / L;
  T* __restrict ob = o + j;
  // Tiles of blocks: lane l of block b goes to z[l][b] (unit-stride stores, so the block loop
  // vectorises like a per-element loop), then the lanes are interleaved into the output.
  constexpr int kTile = 64;
  T z[L][kTile];
  for (int t = 0; t < nb; t += kTile) {
    const int m = std::min(kTile, nb - t);
    for (int b = 0; b < m; ++b) {
      T v[L];
      Block(key, b0 + static_cast<uint64_t>(t + b), v);
      for (int l = 0; l < L; ++l) z[l][b] = v[l];
    }
    for (int b = 0; b < m; ++b)
      for (int l = 0; l < L; ++l) ob[L * (t + b) + l] = z[l][b];
  }
  for (j += L * nb; j < n; ++j) o[j] = At(key, g0 + static_cast<uint64_t>(j));
}

/// o[j] = mf_randn_f(key, g0 + j) for j < n. Two loops per tile of whole blocks, each of which
/// GCC vectorises (one loop over both Box-Muller branches of a pair is not if-converted): the
/// Philox words of every block, spread to its 4 positions, then one branch per position (the
/// operations of mf_randn4_f's lanes, so the same bits).
MF_HOST_CLONES void randn_f_run(uint64_t key, uint64_t g0, int n, float* __restrict o) {
  int j = 0;
  for (; j < n && (g0 + static_cast<uint64_t>(j)) % 4 != 0; ++j) o[j] = mf_randn_f(key, g0 + j);
  const uint64_t b0 = (g0 + static_cast<uint64_t>(j)) / 4;
  const int nb = (n - j) / 4;
  float* __restrict ob = o + j;
  constexpr int kTile = 64;
  uint32_t wa[4 * kTile], wb[4 * kTile];  // per position: the words of u1 and u2
  for (int t = 0; t < nb; t += kTile) {
    const int m = std::min(kTile, nb - t);
    for (int b = 0; b < m; ++b) {
      uint32_t w[4];
      mf_philox4x32_10(b0 + static_cast<uint64_t>(t + b), key, w);
      wa[4 * b] = wa[4 * b + 1] = w[0];
      wb[4 * b] = wb[4 * b + 1] = w[1];
      wa[4 * b + 2] = wa[4 * b + 3] = w[2];
      wb[4 * b + 2] = wb[4 * b + 3] = w[3];
    }
    float* __restrict ot = ob + 4 * t;
    for (int e = 0; e < 4 * m; ++e) ot[e] = mf_bm_f(wa[e], wb[e], static_cast<uint32_t>(e) & 1u);
  }
  for (j += 4 * nb; j < n; ++j) o[j] = mf_randn_f(key, g0 + static_cast<uint64_t>(j));
}

/// o[j] = mf_rand_f(key, g0 + j) for j < n.
MF_HOST_CLONES void rand_f_run(uint64_t key, uint64_t g0, int n, float* __restrict o) {
  rng_run<MF_RNG_LANES_F, float, mf_rand4_f, mf_rand_f>(key, g0, n, o);
}

/// o[j] = mf_randn_d(key, g0 + j) for j < n.
MF_HOST_CLONES void randn_d_run(uint64_t key, uint64_t g0, int n, double* __restrict o) {
  rng_run<MF_RNG_LANES_D, double, mf_randn2_d, mf_randn_d>(key, g0, n, o);
}

/// o[j] = mf_rand_d(key, g0 + j) for j < n.
MF_HOST_CLONES void rand_d_run(uint64_t key, uint64_t g0, int n, double* __restrict o) {
  rng_run<MF_RNG_LANES_D, double, mf_rand2_d, mf_rand_d>(key, g0, n, o);
}

namespace {


void eval_rng(const PhaseCtx& c, const Instr& in, int vi, int64_t start, int len, Scratch& s) {
  const int n = in.uniform ? 1 : len;
  const uint64_t key = c.args->params[in.slot].u, off = c.args->params[in.slot2].u;
  const double* idx = val<double>(s, in.a);
  const Instr& src = (*c.code)[in.a];
  const bool ua = src.uniform;
  const bool normal = in.gen == accel::GenKind::Randn;
  if (!ua && src.kind == IKind::Iota && c.access[src.access].contiguous) {
    // Consecutive positions (the iota is base + start + j): the vectorised batch forms.
    const uint64_t g0 = off + static_cast<uint64_t>(c.access[src.access].base + start);
    if (in.type == VType::F32) {
      float* o = buf<float>(s, vi);
      if (normal) randn_f_run(key, g0, n, o);
      else rand_f_run(key, g0, n, o);
      s.vals[vi] = o;
    } else {
      double* o = buf<double>(s, vi);
      if (normal) randn_d_run(key, g0, n, o);
      else rand_d_run(key, g0, n, o);
      s.vals[vi] = o;
    }
    return;
  }
  if (in.type == VType::F32) {
    float* o = buf<float>(s, vi);
    for (int j = 0; j < n; ++j) {
      const uint64_t ctr = off + static_cast<uint64_t>(idx[ua ? 0 : j]);
      o[j] = normal ? mf_randn_f(key, ctr) : mf_rand_f(key, ctr);
    }
    s.vals[vi] = o;
  } else {
    double* o = buf<double>(s, vi);
    for (int j = 0; j < n; ++j) {
      const uint64_t ctr = off + static_cast<uint64_t>(idx[ua ? 0 : j]);
      o[j] = normal ? mf_randn_d(key, ctr) : mf_rand_d(key, ctr);
    }
    s.vals[vi] = o;
  }
}

template <class T> void store_gen(Scratch& s, int vi, int n, const double* v64, const float* v32) {
  (void)v32;
  T* o = buf<T>(s, vi);
  for (int j = 0; j < n; ++j) o[j] = static_cast<T>(v64[j]);
  s.vals[vi] = o;
}

void eval_gen(const PhaseCtx& c, const Instr& in, int vi, int len, Scratch& s) {
  const int n = in.uniform ? 1 : len;
  const double* idx = val<double>(s, in.a);
  const bool ua = (*c.code)[in.a].uniform;
  auto at = [&](int j) { return idx[ua ? 0 : j]; };
  // Generated in double (exact for eye; linspace computes in double as the eager builtin),
  // except colon ranges of class single, which step in single precision.
  double* tmp = s.tmp.data();
  if (in.gen == accel::GenKind::Colon && in.type == VType::F32) {
    const float a = static_cast<float>(c.args->params[in.slot].f);
    const float d = static_cast<float>(c.args->params[in.slot2].f);
    const float last = static_cast<float>(c.args->params[in.slot3].f);
    const int64_t num = static_cast<int64_t>(in.imm);
    float* o = buf<float>(s, vi);
    for (int j = 0; j < n; ++j) {
      const int64_t k = static_cast<int64_t>(at(j));
      o[j] = k == num - 1 ? last : a + static_cast<float>(k) * d;
    }
    s.vals[vi] = o;
    return;
  }
  if (in.gen == accel::GenKind::Linspace && in.type == VType::F32 &&
      c.k->math == accel::MathMode::Fast) {
    // Fast mode: single linspace in single precision, endpoints exact (docs/math-modes.md).
    const float a = static_cast<float>(c.args->params[in.slot].f);
    const float b = static_cast<float>(c.args->params[in.slot2].f);
    const int64_t num = static_cast<int64_t>(in.imm);
    const float step = num > 1 ? (b - a) / static_cast<float>(num - 1) : 0.0f;
    float* o = buf<float>(s, vi);
    for (int j = 0; j < n; ++j) {
      const int64_t k = static_cast<int64_t>(at(j));
      o[j] = k == num - 1 ? b : k == 0 ? a : a + static_cast<float>(k) * step;
    }
    s.vals[vi] = o;
    return;
  }
  switch (in.gen) {
    case accel::GenKind::Eye: {
      const int64_t rows = static_cast<int64_t>(in.imm);
      for (int j = 0; j < n; ++j) {
        const int64_t i = static_cast<int64_t>(at(j));
        tmp[j] = (i % rows) == (i / rows) ? 1.0 : 0.0;
      }
      break;
    }
    case accel::GenKind::Linspace: {
      const double a = c.args->params[in.slot].f, b = c.args->params[in.slot2].f;
      const int64_t num = static_cast<int64_t>(in.imm);
      const double n1 = static_cast<double>(num - 1), diff = b - a;
      for (int j = 0; j < n; ++j) {
        const int64_t i = static_cast<int64_t>(at(j));
        double v;
        if (i == num - 1) v = b;
        else if (i == 0) v = a;
        else if (std::isinf(diff)) v = a + (b / n1) * i - (a / n1) * i;
        else v = a + (static_cast<double>(i) * diff) / n1;
        tmp[j] = v;
      }
      break;
    }
    case accel::GenKind::Colon: {
      const double a = c.args->params[in.slot].f, d = c.args->params[in.slot2].f;
      const double last = c.args->params[in.slot3].f;
      const int64_t num = static_cast<int64_t>(in.imm);
      for (int j = 0; j < n; ++j) {
        const int64_t k = static_cast<int64_t>(at(j));
        tmp[j] = k == num - 1 ? last : a + static_cast<double>(k) * d;
      }
      break;
    }
    default: MF_ASSERT(false, "bad generator instruction");
  }
  switch (in.type) {
    case VType::F64: store_gen<double>(s, vi, n, tmp, nullptr); break;
    case VType::F32: store_gen<float>(s, vi, n, tmp, nullptr); break;
    case VType::Bool: store_gen<bool>(s, vi, n, tmp, nullptr); break;
  }
}

void eval_const(const Instr& in, int vi, Scratch& s) {
  switch (in.type) {
    case VType::F64: buf<double>(s, vi)[0] = in.imm; s.vals[vi] = buf<double>(s, vi); break;
    case VType::F32:
      buf<float>(s, vi)[0] = static_cast<float>(in.imm);
      s.vals[vi] = buf<float>(s, vi);
      break;
    case VType::Bool: buf<bool>(s, vi)[0] = in.imm != 0; s.vals[vi] = buf<bool>(s, vi); break;
  }
}

size_t type_size(VType t) { return t == VType::F64 ? 8 : t == VType::F32 ? 4 : 1; }

}  // namespace

void eval_chunk(const PhaseCtx& c, int64_t start, int len, Scratch& s) {
  const std::vector<Instr>& code = *c.code;
  const size_t nv = code.size();
  if (s.mem.size() < nv * kChunk * 8) s.mem.resize(nv * kChunk * 8);
  if (s.offs.size() < static_cast<size_t>(kChunk)) s.offs.resize(kChunk);
  if (s.tmp.size() < static_cast<size_t>(kChunk)) s.tmp.resize(kChunk);
  s.vals.assign(nv, nullptr);
  for (size_t i = 0; i < nv; ++i) {
    const Instr& in = code[i];
    const int vi = static_cast<int>(i);
    switch (in.kind) {
      case IKind::Load: eval_load(c, in, vi, start, len, s); break;
      case IKind::Const: eval_const(in, vi, s); break;
      case IKind::Param: {
        double* o = buf<double>(s, vi);
        o[0] = c.args->params[in.slot].f;
        s.vals[vi] = o;
        break;
      }
      case IKind::Iota: eval_iota(c, in, vi, start, len, s); break;
      case IKind::Convert: eval_convert(c, in, vi, len, s); break;
      case IKind::Op: eval_op(c, in, vi, len, s); break;
      case IKind::Saturate: eval_saturate(in, vi, len, s); break;
      case IKind::Cast: eval_cast(c, in, vi, len, s); break;
      case IKind::Rng: eval_rng(c, in, vi, start, len, s); break;
      case IKind::Gen: eval_gen(c, in, vi, len, s); break;
      case IKind::ReduceResult:
        s.vals[vi] = static_cast<const char*>(c.reduce_results[in.reduce]) +
                     start * type_size(in.type);
        break;
      case IKind::MatMulResult:
        s.vals[vi] = static_cast<const char*>(c.matmul_c) + start * type_size(in.type);
        break;
    }
  }
}

namespace {

template <class Dst, class V>
void store_typed(const PhaseCtx& c, const accel::KOutput& o, void* dst, const V* v, bool uni,
                 int64_t start, int len, Scratch& s) {
  Dst* p = static_cast<Dst*>(dst);
  const AccessPlan& ap = c.access[o.access];
  if (ap.contiguous) {
    Dst* q = p + ap.base + start;
    if (uni) {
      const Dst x = static_cast<Dst>(v[0]);
      for (int j = 0; j < len; ++j) q[j] = x;
    } else {
      for (int j = 0; j < len; ++j) q[j] = static_cast<Dst>(v[j]);
    }
  } else {
    int64_t* off = s.offs.data();
    offsets(c.k->accesses[o.access], c.space, ap.base, start, len, off);
    for (int j = 0; j < len; ++j) p[off[j]] = static_cast<Dst>(v[uni ? 0 : j]);
  }
}

}  // namespace

void store_outputs(const PhaseCtx& c, int64_t start, int len, Scratch& s) {
  const std::vector<Instr>& code = *c.code;
  // Reduction and matmul kernels: the body phase stores the in_body outputs, the epilogue the
  // others; elementwise kernels store every output from their body.
  const bool split = !c.k->reduces.empty() || c.k->matmul.has_value();
  const bool body_phase = c.code == &c.k->body;
  for (size_t i = 0; i < c.k->outputs.size(); ++i) {
    const accel::KOutput& o = c.k->outputs[i];
    if (split && o.in_body != body_phase) continue;
    const Instr& in = code[o.value];
    void* dst = c.args->outputs[i];
    with_source(s, in.type, o.value, [&](const auto* v) {
      dispatch_class(o.cls, [&](auto tag) {
        using Dst = decltype(tag);
        store_typed<Dst>(c, o, dst, v, in.uniform, start, len, s);
      });
    });
  }
}

}  // namespace matfuse::host
