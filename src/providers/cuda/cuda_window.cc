// The CUDA provider's moving-window statistics (provider.h WindowCall) and cumulative sums
// (ScanCall: one thread per lane, in order, in the data's precision: the host loop's bits).
//
// One NVRTC program, compiled once per process through the kernel cache. Each thread owns a run
// of kRun consecutive outputs of one lane (threads ordered lane-position first, so the threads
// of a warp read neighbouring addresses when the lanes are interleaved, stride > 1) and slides
// its window along the run: sums keep the finite values' double sum and count NaN, +Inf and
// -Inf apart (so Inf - Inf never poisons the next window); var/std keep double sums of the
// deviations from a reference value of the run (the run's first finite element), which keeps
// the shifted second moment accurate (the host's shift technique, builtins/data_mov.cc); a
// window holding NaN or Inf gives NaN. max/min scan each window (NaN wins: 'includenan').
#include <algorithm>
#include <mutex>

#include "providers/cuda/cuda_provider.h"
#include "runtime/error.h"

namespace matfuse::cuda {
namespace {

constexpr long long kRun = 32;

const char* kWindowKernels = R"(
#define MF_RUN 32
__device__ inline bool mf_isnan(double v) { return v != v; }
__device__ inline bool mf_isinf(double v) { return v - v != v - v && v == v; }
__device__ inline long long mf_lmax(long long a, long long b) { return a > b ? a : b; }
__device__ inline long long mf_lmin(long long a, long long b) { return a < b ? a : b; }
template <class T>
__device__ void mf_window(const T* x, T* y, int kind, long long kb, long long kf, int w,
                          long long n, long long stride, long long outer) {
  const long long runs = (n + MF_RUN - 1) / MF_RUN;
  const long long total = stride * runs * outer;
  const double nan = __longlong_as_double(0x7ff8000000000000LL);
  const double inf = __longlong_as_double(0x7ff0000000000000LL);
  for (long long t = blockIdx.x * (long long)blockDim.x + threadIdx.x; t < total;
       t += (long long)gridDim.x * blockDim.x) {
    const long long p = t % stride, r = t / stride, c = r % runs, q = r / runs;
    const T* xl = x + q * n * stride + p;
    T* yl = y + q * n * stride + p;
    const long long k0 = c * MF_RUN, k1 = mf_lmin(k0 + MF_RUN, n);
    if (kind >= 4) {  // max (4), min (5)
      for (long long k = k0; k < k1; ++k) {
        const long long lo = mf_lmax(k - kb, 0LL), hi = mf_lmin(k + kf, n - 1);
        double m = (double)xl[lo * stride];
        bool isn = mf_isnan(m);
        for (long long j = lo + 1; j <= hi; ++j) {
          const double v = (double)xl[j * stride];
          isn |= mf_isnan(v);
          m = kind == 4 ? (v > m ? v : m) : (v < m ? v : m);
        }
        yl[k * stride] = (T)(isn ? nan : m);
      }
      continue;
    }
    double ref = 0;
    if (kind >= 2) {
      const double v = (double)xl[k0 * stride];
      if (!mf_isnan(v) && !mf_isinf(v)) ref = v;
    }
    double s1 = 0, s2 = 0;
    long long nn = 0, pi = 0, ni = 0;
    auto add = [&](double v, double sg) {
      if (mf_isnan(v)) nn += (long long)sg;
      else if (mf_isinf(v)) (v > 0 ? pi : ni) += (long long)sg;
      else {
        const double d = v - ref;
        s1 += sg * d;
        s2 += sg * d * d;
      }
    };
    long long lo = mf_lmax(k0 - kb, 0LL), hi = mf_lmin(k0 + kf, n - 1);
    for (long long j = lo; j <= hi; ++j) add((double)xl[j * stride], 1);
    for (long long k = k0; k < k1; ++k) {
      if (k > k0) {
        const long long nlo = mf_lmax(k - kb, 0LL), nhi = mf_lmin(k + kf, n - 1);
        if (nhi > hi) add((double)xl[nhi * stride], 1);
        if (nlo > lo) add((double)xl[lo * stride], -1);
        lo = nlo;
        hi = nhi;
      }
      const double cnt = (double)(hi - lo + 1);
      double out;
      if (kind <= 1) {
        if (nn > 0 || (pi > 0 && ni > 0)) out = nan;
        else if (pi > 0) out = inf;
        else if (ni > 0) out = -inf;
        else out = kind == 1 ? s1 / cnt : s1;
      } else if (nn > 0 || pi > 0 || ni > 0) {
        out = nan;
      } else {
        // One element deviates by nothing (no rounding residue of the slide).
        const double den = cnt - 1 + w;
        double var = den > 0 && cnt > 1 ? (s2 - s1 * s1 / cnt) / den : 0;
        if (var < 0) var = 0;
        out = kind == 3 ? sqrt(var) : var;
      }
      yl[k * stride] = (T)out;
    }
  }
}
template <class T>
__device__ void mf_cumsum(const T* x, T* y, long long n, long long stride, long long outer,
                          int reverse, int omit) {
  const long long lanes = stride * outer;
  for (long long t = blockIdx.x * (long long)blockDim.x + threadIdx.x; t < lanes;
       t += (long long)gridDim.x * blockDim.x) {
    const long long p = t % stride, q = t / stride;
    const T* xl = x + q * n * stride + p;
    T* yl = y + q * n * stride + p;
    T s = (T)0;
    for (long long jj = 0; jj < n; ++jj) {
      const long long j = reverse ? n - 1 - jj : jj;
      const T v = xl[j * stride];
      if (!(omit && v != v)) s = s + v;
      yl[j * stride] = s;
    }
  }
}
extern "C" __global__ void mf_cumsum_f(const float* x, float* y, long long n, long long stride,
                                       long long outer, int reverse, int omit) {
  mf_cumsum(x, y, n, stride, outer, reverse, omit);
}
extern "C" __global__ void mf_cumsum_d(const double* x, double* y, long long n,
                                       long long stride, long long outer, int reverse,
                                       int omit) {
  mf_cumsum(x, y, n, stride, outer, reverse, omit);
}
extern "C" __global__ void mf_window_f(const float* x, float* y, int kind, long long kb,
                                       long long kf, int w, long long n, long long stride,
                                       long long outer) {
  mf_window(x, y, kind, kb, kf, w, n, stride, outer);
}
extern "C" __global__ void mf_window_d(const double* x, double* y, int kind, long long kb,
                                       long long kf, int w, long long n, long long stride,
                                       long long outer) {
  mf_window(x, y, kind, kb, kf, w, n, stride, outer);
}
)";

const CompiledProgram& window_kernels(Device& dev) {
  return library_program(dev, kWindowKernels,
                         {"mf_window_f", "mf_window_d", "mf_cumsum_f", "mf_cumsum_d"});
}

}  // namespace

void CudaProvider::window(const WindowCall& wc) {
  if (wc.n <= 0 || wc.stride <= 0 || wc.outer <= 0) return;
  const long long runs = (wc.n + kRun - 1) / kRun;
  const long long work = wc.stride * runs * wc.outer;
  const long long blocks =
      std::min<long long>((work + 255) / 256, std::max(1, dev_.info().sm_count) * 32LL);
  const void* in = wc.in;
  void* out = wc.out;
  int kind = static_cast<int>(wc.kind), w = wc.w;
  long long kb = wc.kb, kf = wc.kf, n = wc.n, stride = wc.stride, outer = wc.outer;
  void* params[] = {&in, &out, &kind, &kb, &kf, &w, &n, &stride, &outer};
  dev_.check(dev_.api().cuLaunchKernel(window_kernels(dev_).functions[wc.f32 ? 0 : 1],
                                       static_cast<unsigned>(blocks), 1, 1, 256, 1, 1, 0,
                                       dev_.stream(), params, nullptr),
             "cuLaunchKernel");
}

void CudaProvider::scan(const ScanCall& sc) {
  if (sc.n <= 0 || sc.stride <= 0 || sc.outer <= 0) return;
  const long long lanes = sc.stride * sc.outer;
  const long long blocks =
      std::min<long long>((lanes + 255) / 256, std::max(1, dev_.info().sm_count) * 32LL);
  const void* in = sc.in;
  void* out = sc.out;
  long long n = sc.n, stride = sc.stride, outer = sc.outer;
  int reverse = sc.reverse ? 1 : 0, omit = sc.omitnan ? 1 : 0;
  void* params[] = {&in, &out, &n, &stride, &outer, &reverse, &omit};
  dev_.check(dev_.api().cuLaunchKernel(window_kernels(dev_).functions[sc.f32 ? 2 : 3],
                                       static_cast<unsigned>(blocks), 1, 1, 256, 1, 1, 0,
                                       dev_.stream(), params, nullptr),
             "cuLaunchKernel");
}

}  // namespace matfuse::cuda
