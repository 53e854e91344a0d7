// The CUDA provider's order statistics (provider.h SelectCall): radix selection on the device.
//
// select_kth finds the k-th smallest value digit by digit of an order-preserving key (the bit
// pattern with every bit flipped for negative numbers and the sign bit set otherwise: Herf,
// "Radix Tricks", 2001), most significant first (radix select, e.g. Alabi et al., "Fast
// k-selection algorithms for graphics processing units", JEA 2012): each round one launch
// builds the 2048-bin histogram of the next 11-bit digit of the keys that share the digits
// found so far (shared-memory counters per block, then global atomics), and 16 KB are read
// back to pick the bin holding rank k. Once the candidates number at most kGatherMax, one
// launch copies them out (unordered, an atomic counter) and the host selects among them; when
// every digit is known the value is the key itself. A 1e8-element search costs two or three
// passes over the data and as many small reads.
#include <algorithm>
#include <cmath>
#include <cstring>
#include <memory>
#include <mutex>
#include <vector>

#include "providers/cuda/cuda_provider.h"
#include "runtime/error.h"

namespace matfuse::cuda {
namespace {

constexpr int kDigit = 11;
constexpr int kBins = 1 << kDigit;
constexpr int64_t kGatherMax = 1 << 16;

const char* kSelectSource = R"CUDA(
typedef long long i64;
typedef unsigned long long u64;
#define MF_BINS 2048

__device__ __forceinline__ unsigned mf_key(float v) {
  const unsigned u = __float_as_uint(v);
  return u ^ ((0u - (u >> 31)) | 0x80000000u);
}
__device__ __forceinline__ u64 mf_key(double v) {
  const u64 u = (u64)__double_as_longlong(v);
  return u ^ ((0ull - (u >> 63)) | 0x8000000000000000ull);
}

// Histogram of digit (key >> shift) & mask over the keys whose top `known` bits equal prefix;
// NaNs counted into *nans when count_nans.
template <class T, class U>
__device__ __forceinline__ void mf_hist(const T* __restrict__ x, i64 n, U prefix, int known,
                                        int shift, unsigned mask, int count_nans,
                                        u64* __restrict__ hist, u64* __restrict__ nans) {
  __shared__ unsigned sh[MF_BINS];
  for (int i = threadIdx.x; i < MF_BINS; i += blockDim.x) sh[i] = 0;
  __syncthreads();
  const int bits = (int)sizeof(U) * 8;
  unsigned my_nans = 0;
  const i64 step = (i64)gridDim.x * blockDim.x;
  // Every lane of a warp runs the same iterations (blockDim is a multiple of 32), so the
  // warp-aggregated increment below may use the full mask: lanes with the same bin add once.
  for (i64 base = (i64)blockIdx.x * blockDim.x; base < n; base += step) {
    const i64 i = base + threadIdx.x;
    unsigned bin = 0xffffffffu;
    if (i < n) {
      const T v = x[i];
      if (v != v) {
        ++my_nans;
      } else {
        const U key = mf_key(v);
        if (known == 0 || (key >> (bits - known)) == prefix) bin = (unsigned)(key >> shift) & mask;
      }
    }
    const unsigned peers = __match_any_sync(0xffffffffu, bin);
    if (bin != 0xffffffffu && (int)(threadIdx.x & 31) == __ffs(peers) - 1)
      atomicAdd(&sh[bin], (unsigned)__popc(peers));
  }
  if (count_nans && my_nans) atomicAdd(nans, (u64)my_nans);
  __syncthreads();
  for (int i = threadIdx.x; i < MF_BINS; i += blockDim.x)
    if (sh[i]) atomicAdd(&hist[i], (u64)sh[i]);
}

// Copies the values whose top `known` bits equal prefix to out (unordered; at most cap).
template <class T, class U>
__device__ __forceinline__ void mf_take(const T* __restrict__ x, i64 n, U prefix, int known,
                                        T* __restrict__ out, u64* __restrict__ count, i64 cap) {
  const int bits = (int)sizeof(U) * 8;
  const i64 step = (i64)gridDim.x * blockDim.x;
  for (i64 i = (i64)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += step) {
    const T v = x[i];
    if (v != v) continue;
    if ((mf_key(v) >> (bits - known)) != prefix) continue;
    const u64 j = atomicAdd(count, 1ull);
    if ((i64)j < cap) out[j] = v;
  }
}

extern "C" __global__ void mf_hist_f32(const float* x, i64 n, unsigned prefix, int known,
                                       int shift, unsigned mask, int count_nans, u64* hist,
                                       u64* nans) {
  mf_hist<float, unsigned>(x, n, prefix, known, shift, mask, count_nans, hist, nans);
}
extern "C" __global__ void mf_hist_f64(const double* x, i64 n, u64 prefix, int known,
                                       int shift, unsigned mask, int count_nans, u64* hist,
                                       u64* nans) {
  mf_hist<double, u64>(x, n, prefix, known, shift, mask, count_nans, hist, nans);
}
extern "C" __global__ void mf_take_f32(const float* x, i64 n, unsigned prefix, int known,
                                       float* out, u64* count, i64 cap) {
  mf_take<float, unsigned>(x, n, prefix, known, out, count, cap);
}
extern "C" __global__ void mf_take_f64(const double* x, i64 n, u64 prefix, int known,
                                       double* out, u64* count, i64 cap) {
  mf_take<double, u64>(x, n, prefix, known, out, count, cap);
}
)CUDA";

struct SelectKernels {
  CUfunction hist_f32, hist_f64, take_f32, take_f64;
};

SelectKernels select_kernels(Device& dev) {
  const CompiledProgram& p =
      library_program(dev, kSelectSource, {"mf_hist_f32", "mf_hist_f64", "mf_take_f32",
                                           "mf_take_f64"});
  return {p.functions[0], p.functions[1], p.functions[2], p.functions[3]};
}

unsigned grid_for(const Device& dev, int64_t n) {
  const int64_t want = (n + 255) / 256;
  const int64_t cap = int64_t{dev.info().sm_count > 0 ? dev.info().sm_count : 132} * 8;
  return static_cast<unsigned>(std::max<int64_t>(1, std::min(want, cap)));
}

/// Value of a complete key.
template <class T, class U>
double from_key(U key) {
  constexpr int bits = static_cast<int>(sizeof(U)) * 8;
  const U sign = U{1} << (bits - 1);
  const U u = (key & sign) ? static_cast<U>(key ^ sign) : static_cast<U>(~key);
  T v;
  std::memcpy(&v, &u, sizeof v);
  return static_cast<double>(v);
}

/// One histogram round; returns the 2048 counts (and *nans when count_nans).
template <class U>
std::vector<uint64_t> histogram(Device& dev, CUfunction f, const void* x, int64_t n, U prefix,
                                int known, int digit, bool count_nans, int64_t* nans) {
  constexpr int bits = static_cast<int>(sizeof(U)) * 8;
  std::unique_ptr<DeviceCopy> buf = dev.allocate((kBins + 1) * sizeof(uint64_t));
  CUdeviceptr hist = reinterpret_cast<CUdeviceptr>(buf->device_ptr());
  dev.check(dev.api().cuMemsetD32Async(hist, 0, (kBins + 1) * 2, dev.stream()), "cuMemsetD32Async");
  CUdeviceptr xp = reinterpret_cast<CUdeviceptr>(x), np = hist + kBins * sizeof(uint64_t);
  long long nn = n;
  int kn = known, shift = bits - known - digit, cn = count_nans ? 1 : 0;
  unsigned mask = (1u << digit) - 1;
  void* params[] = {&xp, &nn, &prefix, &kn, &shift, &mask, &cn, &hist, &np};
  dev.check(dev.api().cuLaunchKernel(f, grid_for(dev, n), 1, 1, 256, 1, 1, 0, dev.stream(), params,
                                     nullptr),
            "cuLaunchKernel (select)");
  std::vector<uint64_t> h(kBins + 1);
  dev.read_back(h.data(), hist, h.size() * sizeof(uint64_t));
  if (nans) *nans = static_cast<int64_t>(h[kBins]);
  h.resize(kBins);
  return h;
}

template <class T, class U>
double select(Device& dev, const SelectKernels& k, const SelectCall& c) {
  constexpr int bits = static_cast<int>(sizeof(U)) * 8;
  const bool f64 = sizeof(T) == 8;
  CUfunction hist_f = f64 ? k.hist_f64 : k.hist_f32, take_f = f64 ? k.take_f64 : k.take_f32;
  U prefix = 0;
  int known = 0;
  int64_t rank = c.k;
  for (;;) {
    const int digit = std::min(kDigit, bits - known);
    const std::vector<uint64_t> h =
        histogram<U>(dev, hist_f, c.x, c.n, prefix, known, digit, false, nullptr);
    int b = 0;
    int64_t cum = 0;
    for (; b < (1 << digit); ++b) {
      if (cum + static_cast<int64_t>(h[b]) > rank) break;
      cum += static_cast<int64_t>(h[b]);
    }
    if (b == (1 << digit))
      throw_error("matfuse:cudaError", "Order statistic %lld is out of range.",
                  static_cast<long long>(c.k));
    rank -= cum;
    prefix = static_cast<U>((prefix << digit) | static_cast<U>(b));
    known += digit;
    const int64_t count = static_cast<int64_t>(h[b]);
    if (known == bits) return from_key<T, U>(prefix);
    if (count <= kGatherMax) {
      std::unique_ptr<DeviceCopy> out = dev.allocate(static_cast<size_t>(count) * sizeof(T) + 8);
      std::unique_ptr<DeviceCopy> ctr = dev.allocate(sizeof(uint64_t));
      CUdeviceptr cp = reinterpret_cast<CUdeviceptr>(ctr->device_ptr());
      dev.check(dev.api().cuMemsetD32Async(cp, 0, 2, dev.stream()), "cuMemsetD32Async");
      CUdeviceptr xp = reinterpret_cast<CUdeviceptr>(c.x),
                  op = reinterpret_cast<CUdeviceptr>(out->device_ptr());
      long long nn = c.n, cap = count;
      int kn = known;
      void* params[] = {&xp, &nn, &prefix, &kn, &op, &cp, &cap};
      dev.check(dev.api().cuLaunchKernel(take_f, grid_for(dev, c.n), 1, 1, 256, 1, 1, 0,
                                         dev.stream(), params, nullptr),
                "cuLaunchKernel (select)");
      std::vector<T> v(static_cast<size_t>(count));
      dev.read_back(v.data(), op, v.size() * sizeof(T));
      // Same key order as the device (-0 before +0).
      auto less = [](T a, T b) {
        return a < b || (a == 0 && b == 0 && std::signbit(a) && !std::signbit(b));
      };
      std::nth_element(v.begin(), v.begin() + rank, v.end(), less);
      return static_cast<double>(v[static_cast<size_t>(rank)]);
    }
  }
}

}  // namespace

int64_t CudaProvider::count_nan(const SelectCall& c) {
  if (c.n <= 0) return 0;
  const SelectKernels k = select_kernels(dev_);
  int64_t nans = 0;
  if (c.f64)
    histogram<uint64_t>(dev_, k.hist_f64, c.x, c.n, 0, 0, kDigit, true, &nans);
  else
    histogram<uint32_t>(dev_, k.hist_f32, c.x, c.n, 0, 0, kDigit, true, &nans);
  return nans;
}

double CudaProvider::select_kth(const SelectCall& c) {
  const SelectKernels k = select_kernels(dev_);
  return c.f64 ? select<double, uint64_t>(dev_, k, c) : select<float, uint32_t>(dev_, k, c);
}

const char* select_source() { return kSelectSource; }

}  // namespace matfuse::cuda
