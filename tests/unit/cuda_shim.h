// Lets the host g++ compile (and run, one CUDA thread per call) the CUDA C that
// providers/cuda/codegen renders: CUDA keywords, built-in variables and device functions mapped
// to <math.h>. Tests use it as `g++ -std=c++17 -include cuda_shim.h`. Not a CUDA emulator: only
// what the generated code uses. __syncthreads() calls a function the test sets (a barrier over
// the threads of one block run as host threads); __shared__ arrays are function statics, so
// blocks that synchronise must run one at a time.
#pragma once

#include <math.h>

// The generated prelude typedefs its own integer types (NVRTC has no <cstdint>); give them
// fresh names so they cannot clash with the C library's.
#define uint32_t mf_shim_u32
#define uint64_t mf_shim_u64
#define int64_t mf_shim_i64

#define __global__
#define __device__
#define __forceinline__ inline
#define __noinline__ __attribute__((noinline))
#define __shared__ static
#define __constant__

struct mf_shim_dim3 {
  unsigned x = 0, y = 1, z = 1;
};
inline thread_local mf_shim_dim3 threadIdx, blockIdx;
inline mf_shim_dim3 blockDim, gridDim;
inline void (*mf_shim_sync)() = nullptr;

inline void __syncthreads() {
  if (mf_shim_sync) mf_shim_sync();
}
// Warp shuffle over the threads of the block run as host threads (every thread of the block
// must call it, as in the generated code: two barriers around an exchange slot per thread).
template <class T> T __shfl_sync(unsigned, T v, int src) {
  static T slot[1024];
  slot[threadIdx.x] = v;
  __syncthreads();
  const T r = slot[(threadIdx.x & ~31u) + (unsigned)src];
  __syncthreads();
  return r;
}
template <class T> T __shfl_down_sync(unsigned, T v, unsigned delta) {
  static T slot[1024];
  slot[threadIdx.x] = v;
  __syncthreads();
  const T r = (threadIdx.x & 31u) + delta < 32u ? slot[threadIdx.x + delta] : v;
  __syncthreads();
  return r;
}
inline double __longlong_as_double(long long b) {
  double d;
  __builtin_memcpy(&d, &b, 8);
  return d;
}
inline float __int_as_float(int b) {
  float f;
  __builtin_memcpy(&f, &b, 4);
  return f;
}
inline long long __double_as_longlong(double d) {
  long long b;
  __builtin_memcpy(&b, &d, 8);
  return b;
}
inline unsigned __float_as_uint(float f) {
  unsigned b;
  __builtin_memcpy(&b, &f, 4);
  return b;
}
inline float __uint_as_float(unsigned b) {
  float f;
  __builtin_memcpy(&f, &b, 4);
  return f;
}
inline int min(int a, int b) { return a < b ? a : b; }
inline int max(int a, int b) { return a > b ? a : b; }
inline double __dsqrt_rn(double x) { return sqrt(x); }
inline float __fsqrt_rn(float x) { return sqrtf(x); }
inline double __fma_rn(double a, double b, double c) { return fma(a, b, c); }
inline float __fmaf_rn(float a, float b, float c) { return fmaf(a, b, c); }
// Fast mode's hardware reciprocal division (2 ulp on the device; exact here).
inline float __fdividef(float a, float b) { return a / b; }
inline unsigned __umulhi(unsigned a, unsigned b) {
  return (unsigned)(((unsigned long long)a * b) >> 32);
}
inline int atomicCAS(int* p, int expected, int desired) {
  __atomic_compare_exchange_n(p, &expected, desired, false, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST);
  return expected;
}
