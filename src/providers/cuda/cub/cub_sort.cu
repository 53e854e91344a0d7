// The CUB sort plugin (libmatfuse_cub.so): MATLAB's sort of contiguous lanes on the device through
// CUB's radix sorts (cub::DeviceRadixSort for one lane, cub::DeviceSegmentedRadixSort for
// several), built with nvcc where a CUDA compiler is found at build time and opened at run time
// by the CUDA provider (cuda_sort.cc), so matfuse builds and runs without it (sort then runs on
// the host).
//
// Order (provider.h SortCall): every element becomes an order-preserving unsigned key of its
// width W (floating point: every bit of a negative number flipped, the sign bit of the others
// set; M. Herf, "Radix Tricks", 2001; -0 keyed as +0; NaN keyed 0 or 2^W - 1 for first or last;
// signed integers: the sign bit flipped); 'descend' keys are 2^W - 1 - key, so one stable
// ascending radix sort gives MATLAB's stable descending order with equal values (and NaNs) in
// their original order. The sorted lane positions then gather the values, so -0 stays -0.
//
// C interface (extern "C", all in the caller's CUDA context and stream; no allocation):
//   size_t mfcub_sort_scratch(int elem_bytes, long long lanes, long long len)
//       bytes of device scratch mfcub_sort needs, or 0 when the sizes are not supported
//       (more than 2^31 - 1 elements).
//   int mfcub_sort(int kind, int elem_bytes, int descend, int nan_first, long long lanes,
//                  long long len, const void* x, void* values, double* index, void* scratch,
//                  size_t scratch_bytes, void* stream)
//       kind 0 floating point (elem_bytes 4 or 8), 1 signed, 2 unsigned integer (1, 2, 4 or 8
//       bytes; logical and char are unsigned). index may be null. Returns 0 or a cudaError_t.
#include <cub/device/device_radix_sort.cuh>
#include <cub/device/device_segmented_radix_sort.cuh>

#include <climits>
#include <cstdint>
#include <cstring>

namespace {

template <class K>
__device__ K float_key(K u, K sign) {
  return (u & sign) ? static_cast<K>(~u) : static_cast<K>(u | sign);
}

/// keys[i] and lane positions idx[i] of x[i] (T the element type, K the key type).
template <class T, class K>
__global__ void make_keys(const T* __restrict__ x, K* __restrict__ keys, uint32_t* __restrict__ idx,
                          long long n, long long len, int kind, int width, int descend,
                          int nan_first) {
  const K mask = width == 8 * static_cast<int>(sizeof(K)) ? static_cast<K>(~K(0))
                                                          : static_cast<K>((K(1) << width) - 1);
  for (long long i = blockIdx.x * static_cast<long long>(blockDim.x) + threadIdx.x; i < n;
       i += static_cast<long long>(gridDim.x) * blockDim.x) {
    const T v = x[i];
    K k;
    if (kind == 0) {
      if (v != v) {
        k = (nan_first != descend) ? K(0) : mask;
      } else {
        const T z = v == T(0) ? T(0) : v;  // -0 keyed as +0
        K u = 0;
        memcpy(&u, &z, sizeof(T));
        k = float_key<K>(u, K(1) << (width - 1));
      }
    } else {
      K u = 0;
      memcpy(&u, &v, sizeof(T));
      k = u & mask;
      if (kind == 1) k ^= K(1) << (width - 1);
    }
    keys[i] = descend ? static_cast<K>(mask - k) : k;
    idx[i] = static_cast<uint32_t>(i % len);
  }
}

/// values[i] = x[lane start + idx[i]], index[i] = idx[i] + 1.
template <class T>
__global__ void gather_sorted(const T* __restrict__ x, const uint32_t* __restrict__ idx,
                              T* __restrict__ values, double* __restrict__ index, long long n,
                              long long len) {
  for (long long i = blockIdx.x * static_cast<long long>(blockDim.x) + threadIdx.x; i < n;
       i += static_cast<long long>(gridDim.x) * blockDim.x) {
    const uint32_t j = idx[i];
    values[i] = x[(i / len) * len + j];
    if (index) index[i] = static_cast<double>(j) + 1.0;
  }
}

__global__ void lane_offsets(int* off, long long lanes, long long len) {
  for (long long i = blockIdx.x * static_cast<long long>(blockDim.x) + threadIdx.x; i <= lanes;
       i += static_cast<long long>(gridDim.x) * blockDim.x)
    off[i] = static_cast<int>(i * len);
}

size_t align256(size_t b) { return (b + 255) / 256 * 256; }

unsigned grid_for(long long n) {
  const long long b = (n + 255) / 256;
  return static_cast<unsigned>(b < 1 ? 1 : b > 65535 ? 65535 : b);
}

/// Scratch layout: keys (2 buffers), positions (2 buffers), lane offsets, CUB's temporary.
struct Layout {
  size_t keys = 0, idx = 0, off = 0, temp = 0, total = 0;
};

template <class K>
size_t cub_temp(long long lanes, long long len) {
  const int n = static_cast<int>(lanes * len);
  cub::DoubleBuffer<K> kb(nullptr, nullptr);
  cub::DoubleBuffer<uint32_t> vb(nullptr, nullptr);
  size_t bytes = 0;
  if (lanes == 1)
    cub::DeviceRadixSort::SortPairs(nullptr, bytes, kb, vb, n);
  else
    cub::DeviceSegmentedRadixSort::SortPairs(nullptr, bytes, kb, vb, n,
                                             static_cast<int>(lanes), static_cast<const int*>(nullptr),
                                             static_cast<const int*>(nullptr));
  return bytes;
}

bool layout(int elem_bytes, long long lanes, long long len, Layout& L) {
  if (lanes < 1 || len < 1 || lanes > INT_MAX || len > INT_MAX || lanes * len > INT_MAX)
    return false;
  const size_t n = static_cast<size_t>(lanes * len);
  const size_t kb = elem_bytes == 8 ? 8 : 4;
  L.keys = align256(n * kb);
  L.idx = align256(n * 4);
  L.off = align256(static_cast<size_t>(lanes + 1) * 4);
  L.temp = kb == 8 ? cub_temp<uint64_t>(lanes, len) : cub_temp<uint32_t>(lanes, len);
  L.total = 2 * L.keys + 2 * L.idx + L.off + align256(L.temp);
  return true;
}

template <class T, class K>
int run(int kind, int descend, int nan_first, long long lanes, long long len, const void* x,
        void* values, double* index, char* scratch, const Layout& L, cudaStream_t s) {
  const long long n = lanes * len;
  K* k0 = reinterpret_cast<K*>(scratch);
  K* k1 = reinterpret_cast<K*>(scratch + L.keys);
  uint32_t* i0 = reinterpret_cast<uint32_t*>(scratch + 2 * L.keys);
  uint32_t* i1 = reinterpret_cast<uint32_t*>(scratch + 2 * L.keys + L.idx);
  int* off = reinterpret_cast<int*>(scratch + 2 * L.keys + 2 * L.idx);
  void* temp = scratch + 2 * L.keys + 2 * L.idx + L.off;
  const int width = 8 * static_cast<int>(sizeof(T));
  make_keys<T, K><<<grid_for(n), 256, 0, s>>>(static_cast<const T*>(x), k0, i0, n, len, kind,
                                              width, descend, nan_first);
  cub::DoubleBuffer<K> kb(k0, k1);
  cub::DoubleBuffer<uint32_t> vb(i0, i1);
  size_t tb = L.temp;
  cudaError_t e;
  if (lanes == 1) {
    e = cub::DeviceRadixSort::SortPairs(temp, tb, kb, vb, static_cast<int>(n), 0, width, s);
  } else {
    lane_offsets<<<grid_for(lanes + 1), 256, 0, s>>>(off, lanes, len);
    e = cub::DeviceSegmentedRadixSort::SortPairs(temp, tb, kb, vb, static_cast<int>(n),
                                                 static_cast<int>(lanes), off, off + 1, 0, width,
                                                 s);
  }
  if (e != cudaSuccess) return static_cast<int>(e);
  gather_sorted<T><<<grid_for(n), 256, 0, s>>>(static_cast<const T*>(x), vb.Current(),
                                               static_cast<T*>(values), index, n, len);
  return static_cast<int>(cudaGetLastError());
}

}  // namespace

extern "C" size_t mfcub_sort_scratch(int elem_bytes, long long lanes, long long len) {
  Layout L;
  return layout(elem_bytes, lanes, len, L) ? L.total : 0;
}

extern "C" int mfcub_sort(int kind, int elem_bytes, int descend, int nan_first, long long lanes,
                          long long len, const void* x, void* values, double* index,
                          void* scratch, size_t scratch_bytes, void* stream) {
  Layout L;
  if (!layout(elem_bytes, lanes, len, L) || scratch_bytes < L.total)
    return static_cast<int>(cudaErrorInvalidValue);
  char* sp = static_cast<char*>(scratch);
  cudaStream_t s = static_cast<cudaStream_t>(stream);
  if (kind == 0 && elem_bytes == 4)
    return run<float, uint32_t>(kind, descend, nan_first, lanes, len, x, values, index, sp, L, s);
  if (kind == 0 && elem_bytes == 8)
    return run<double, uint64_t>(kind, descend, nan_first, lanes, len, x, values, index, sp, L, s);
  switch (elem_bytes) {
    case 1: return run<uint8_t, uint32_t>(kind, descend, nan_first, lanes, len, x, values, index, sp, L, s);
    case 2: return run<uint16_t, uint32_t>(kind, descend, nan_first, lanes, len, x, values, index, sp, L, s);
    case 4: return run<uint32_t, uint32_t>(kind, descend, nan_first, lanes, len, x, values, index, sp, L, s);
    case 8: return run<uint64_t, uint64_t>(kind, descend, nan_first, lanes, len, x, values, index, sp, L, s);
  }
  return static_cast<int>(cudaErrorInvalidValue);
}
