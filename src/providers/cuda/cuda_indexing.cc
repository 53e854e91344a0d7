// The CUDA provider's indexing library calls (provider.h IndexCall, MaskCall): gathers,
// scatters and stream compaction on the device, so that indexing a device-resident array
// never copies it to the host.
//
// One NVRTC program (compiled once, kernel cache as every other program) holds every kernel:
// - mf_gather_B / mf_scatter_B (B = element bytes 1, 2, 4, 8, 16): one thread per selection
//   element (grid-stride), its base offset from the column-major decomposition of its index
//   over the subscript counts (the IndexArgs struct, passed by value).
// - Stream compaction in three launches (the classic count / scan / scatter decomposition,
//   e.g. Billeter, Olsson and Assarsson, "Efficient stream compaction on wide SIMD many-core
//   architectures", HPG 2009): mf_tile_counts counts the true mask bytes of each tile of
//   kTile elements (256 threads x 16 consecutive elements); mf_scan_counts (one block) turns
//   the tile counts into exclusive offsets and writes the total after them; mf_compact_B /
//   mf_mscatter_B / mf_find rescan their tile in shared memory and move the selected
//   elements in order. A scalar masked store (X(mask) = v) needs no offsets: mf_mfill_B.
#include <cstring>
#include <mutex>
#include <string>
#include <unordered_map>

#include "providers/cuda/cuda_provider.h"
#include "runtime/error.h"

namespace matfuse::cuda {
namespace {

constexpr int kThreads = 256;
constexpr int kItems = 16;
constexpr int64_t kTile = int64_t{kThreads} * kItems;

/// Host mirror of the device's IndexArgs: every member 8 bytes, so both layouts agree.
struct IndexArgs {
  int64_t ndims;
  int64_t count;
  int64_t dcount[kMaxIndexDims];
  int64_t start[kMaxIndexDims];
  const int64_t* list[kMaxIndexDims];
  int64_t stride[kMaxIndexDims];
};
static_assert(sizeof(IndexArgs) == 8 * (2 + 4 * kMaxIndexDims), "IndexArgs has padding");

const char* kSource = R"CUDA(
typedef long long i64;
typedef unsigned long long u64;
struct __align__(16) mf_e16 { u64 a, b; };
#define MF_MAXD 12
#define MF_T 256
#define MF_ITEMS 16
#define MF_TILE (MF_T * MF_ITEMS)
struct IndexArgs {
  i64 ndims;
  i64 count;
  i64 dcount[MF_MAXD];
  i64 start[MF_MAXD];
  const i64* list[MF_MAXD];
  i64 stride[MF_MAXD];
};

__device__ __forceinline__ i64 mf_offset(const IndexArgs& a, i64 j) {
  i64 off = 0;
  const int n = (int)a.ndims;
  for (int d = 0; d < n; ++d) {
    i64 k = j;
    if (d < n - 1) {
      const i64 c = a.dcount[d];
      k = j % c;
      j = j / c;
    }
    const i64 p = a.list[d] ? a.list[d][k] : a.start[d] + k;
    off += p * a.stride[d];
  }
  return off;
}

template <class T>
__device__ __forceinline__ void mf_gather(const T* __restrict__ base, T* __restrict__ out,
                                          const IndexArgs& a) {
  const i64 step = (i64)gridDim.x * blockDim.x;
  for (i64 j = (i64)blockIdx.x * blockDim.x + threadIdx.x; j < a.count; j += step)
    out[j] = base[mf_offset(a, j)];
}

template <class T>
__device__ __forceinline__ void mf_scatter(T* __restrict__ base, const T* __restrict__ vals,
                                           const IndexArgs& a, int scalar) {
  const i64 step = (i64)gridDim.x * blockDim.x;
  for (i64 j = (i64)blockIdx.x * blockDim.x + threadIdx.x; j < a.count; j += step)
    base[mf_offset(a, j)] = vals[scalar ? 0 : j];
}

// The mask bytes of this thread's MF_ITEMS consecutive elements, their count returned.
__device__ __forceinline__ int mf_load_mask(const unsigned char* __restrict__ m, i64 n, i64 first,
                                            unsigned char* mk) {
  int c = 0;
#pragma unroll
  for (int k = 0; k < MF_ITEMS; ++k) {
    const i64 i = first + k;
    mk[k] = (i < n && m[i] != 0) ? 1 : 0;
    c += mk[k];
  }
  return c;
}

// Exclusive prefix of c over the block's threads (Hillis-Steele in shared memory).
__device__ __forceinline__ int mf_block_exclusive(int c) {
  __shared__ int s[MF_T];
  const int t = threadIdx.x;
  s[t] = c;
  __syncthreads();
  for (int off = 1; off < MF_T; off <<= 1) {
    const int v = t >= off ? s[t - off] : 0;
    __syncthreads();
    s[t] += v;
    __syncthreads();
  }
  return s[t] - c;
}

extern "C" __global__ void mf_tile_counts(const unsigned char* __restrict__ m, i64 n,
                                          i64* __restrict__ counts) {
  __shared__ int s[MF_T];
  unsigned char mk[MF_ITEMS];
  const int t = threadIdx.x;
  s[t] = mf_load_mask(m, n, (i64)blockIdx.x * MF_TILE + (i64)t * MF_ITEMS, mk);
  __syncthreads();
  for (int w = MF_T / 2; w > 0; w >>= 1) {
    if (t < w) s[t] += s[t + w];
    __syncthreads();
  }
  if (t == 0) counts[blockIdx.x] = s[0];
}

// One block of 1024 threads: counts[0 .. nb) becomes exclusive offsets, counts[nb] the total.
extern "C" __global__ void mf_scan_counts(i64* __restrict__ counts, i64 nb) {
  __shared__ i64 s[1024];
  const int t = threadIdx.x;
  const i64 per = (nb + 1023) / 1024;
  const i64 b0 = (i64)t * per;
  const i64 b1 = b0 + per < nb ? b0 + per : nb;
  i64 sum = 0;
  for (i64 i = b0; i < b1; ++i) sum += counts[i];
  s[t] = sum;
  __syncthreads();
  for (int off = 1; off < 1024; off <<= 1) {
    const i64 v = t >= off ? s[t - off] : 0;
    __syncthreads();
    s[t] += v;
    __syncthreads();
  }
  i64 run = s[t] - sum;
  for (i64 i = b0; i < b1; ++i) {
    const i64 c = counts[i];
    counts[i] = run;
    run += c;
  }
  if (t == 1023) counts[nb] = s[1023];
}

template <class T>
__device__ __forceinline__ void mf_compact(const unsigned char* __restrict__ m, i64 n,
                                           const i64* __restrict__ offs, const T* __restrict__ src,
                                           T* __restrict__ dst) {
  unsigned char mk[MF_ITEMS];
  const i64 first = (i64)blockIdx.x * MF_TILE + (i64)threadIdx.x * MF_ITEMS;
  const int c = mf_load_mask(m, n, first, mk);
  i64 o = offs[blockIdx.x] + mf_block_exclusive(c);
#pragma unroll
  for (int k = 0; k < MF_ITEMS; ++k)
    if (mk[k]) dst[o++] = src[first + k];
}

template <class T>
__device__ __forceinline__ void mf_mscatter(const unsigned char* __restrict__ m, i64 n,
                                            const i64* __restrict__ offs, T* __restrict__ base,
                                            const T* __restrict__ vals) {
  unsigned char mk[MF_ITEMS];
  const i64 first = (i64)blockIdx.x * MF_TILE + (i64)threadIdx.x * MF_ITEMS;
  const int c = mf_load_mask(m, n, first, mk);
  i64 o = offs[blockIdx.x] + mf_block_exclusive(c);
#pragma unroll
  for (int k = 0; k < MF_ITEMS; ++k)
    if (mk[k]) base[first + k] = vals[o++];
}

template <class T>
__device__ __forceinline__ void mf_mfill(const unsigned char* __restrict__ m, i64 n,
                                         T* __restrict__ base, const T* __restrict__ val) {
  const T v = val[0];
  const i64 step = (i64)gridDim.x * blockDim.x;
  for (i64 i = (i64)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += step)
    if (m[i]) base[i] = v;
}

extern "C" __global__ void mf_find(const unsigned char* __restrict__ m, i64 n,
                                   const i64* __restrict__ offs, double* __restrict__ dst) {
  unsigned char mk[MF_ITEMS];
  const i64 first = (i64)blockIdx.x * MF_TILE + (i64)threadIdx.x * MF_ITEMS;
  const int c = mf_load_mask(m, n, first, mk);
  i64 o = offs[blockIdx.x] + mf_block_exclusive(c);
#pragma unroll
  for (int k = 0; k < MF_ITEMS; ++k)
    if (mk[k]) dst[o++] = (double)(first + k + 1);
}

#define MF_INDEX_KERNELS(B, T)                                                                  \
  extern "C" __global__ void mf_gather_##B(const T* base, T* out, IndexArgs a) {               \
    mf_gather<T>(base, out, a);                                                                 \
  }                                                                                             \
  extern "C" __global__ void mf_scatter_##B(T* base, const T* vals, IndexArgs a, int scalar) { \
    mf_scatter<T>(base, vals, a, scalar);                                                       \
  }                                                                                             \
  extern "C" __global__ void mf_compact_##B(const unsigned char* m, i64 n, const i64* offs,    \
                                            const T* src, T* dst) {                            \
    mf_compact<T>(m, n, offs, src, dst);                                                        \
  }                                                                                             \
  extern "C" __global__ void mf_mscatter_##B(const unsigned char* m, i64 n, const i64* offs,   \
                                             T* base, const T* vals) {                         \
    mf_mscatter<T>(m, n, offs, base, vals);                                                     \
  }                                                                                             \
  extern "C" __global__ void mf_mfill_##B(const unsigned char* m, i64 n, T* base,              \
                                          const T* val) {                                      \
    mf_mfill<T>(m, n, base, val);                                                               \
  }

MF_INDEX_KERNELS(1, unsigned char)
MF_INDEX_KERNELS(2, unsigned short)
MF_INDEX_KERNELS(4, unsigned int)
MF_INDEX_KERNELS(8, u64)
MF_INDEX_KERNELS(16, mf_e16)
)CUDA";

const int kSizes[] = {1, 2, 4, 8, 16};

/// The compiled indexing program and its entry points by name.
struct IndexKernels {
  const CompiledProgram* compiled = nullptr;
  std::unordered_map<std::string, CUfunction> fn;
  CUfunction get(const std::string& name) const {
    auto it = fn.find(name);
    MF_ASSERT(it != fn.end(), "missing indexing kernel");
    return it->second;
  }
};

const IndexKernels& kernels(Device& dev) {
  static std::mutex mu;
  static IndexKernels* k = nullptr;
  std::lock_guard<std::mutex> l(mu);
  if (k) return *k;
  Program p;
  p.source = kSource;
  for (const char* e : {"mf_tile_counts", "mf_scan_counts", "mf_find"}) p.launches.push_back({e});
  for (int b : kSizes)
    for (const char* e : {"mf_gather_", "mf_scatter_", "mf_compact_", "mf_mscatter_", "mf_mfill_"})
      p.launches.push_back({e + std::to_string(b)});
  const CompileResult cr = compile(dev, p);
  auto* out = new IndexKernels();
  out->compiled = cr.program;
  for (size_t i = 0; i < p.launches.size(); ++i)
    out->fn[p.launches[i].entry] = cr.program->functions[i];
  k = out;
  return *k;
}

void check_bytes(int b) {
  if (b != 1 && b != 2 && b != 4 && b != 8 && b != 16)
    throw_error("matfuse:cudaError",
                "Indexing kernels move 1, 2, 4, 8 or 16-byte elements, not %d.", b);
}

IndexArgs index_args(const IndexCall& c) {
  if (c.ndims < 1 || c.ndims > kMaxIndexDims)
    throw_error("matfuse:cudaError", "Indexing kernels take 1 to %d subscripts.", kMaxIndexDims);
  IndexArgs a{};
  a.ndims = c.ndims;
  a.count = c.count;
  for (int d = 0; d < c.ndims; ++d) {
    a.dcount[d] = c.dims[d].count;
    a.start[d] = c.dims[d].start;
    a.list[d] = c.dims[d].list;
    a.stride[d] = c.dims[d].stride;
  }
  return a;
}

CUdeviceptr dptr(const void* p) { return reinterpret_cast<CUdeviceptr>(p); }

}  // namespace

namespace {

/// Grid of a grid-stride kernel over n elements.
unsigned stride_grid(const Device& dev, int64_t n) {
  const int64_t want = (n + kThreads - 1) / kThreads;
  const int64_t cap = int64_t{dev.info().sm_count > 0 ? dev.info().sm_count : 132} * 16;
  return static_cast<unsigned>(want < 1 ? 1 : want < cap ? want : cap);
}

void launch(Device& dev, CUfunction f, unsigned grid, unsigned block, void** params) {
  if (grid == 0) return;
  dev.check(dev.api().cuLaunchKernel(f, grid, 1, 1, block, 1, 1, 0, dev.stream(), params,
                                     nullptr),
            "cuLaunchKernel (indexing)");
}

/// Tile count and the device buffer of tile offsets (nb + 1 entries, the last the total) of
/// mask m over n elements.
struct TileOffsets {
  int64_t nb = 0;
  std::unique_ptr<DeviceCopy> buf;
  const void* ptr() const { return buf->device_ptr(); }
};

TileOffsets tile_offsets(Device& dev, const IndexKernels& k, const void* mask, int64_t n) {
  TileOffsets t;
  t.nb = (n + kTile - 1) / kTile;
  if (t.nb > 0x7fffffff)
    throw_error("matfuse:cudaError", "Mask of %lld elements is too long for one launch.",
                static_cast<long long>(n));
  t.buf = dev.allocate(static_cast<size_t>(t.nb + 1) * sizeof(int64_t));
  CUdeviceptr m = dptr(mask), counts = dptr(t.buf->device_ptr());
  long long nn = n, nb = t.nb;
  void* p1[] = {&m, &nn, &counts};
  launch(dev, k.get("mf_tile_counts"), static_cast<unsigned>(t.nb), kThreads, p1);
  void* p2[] = {&counts, &nb};
  launch(dev, k.get("mf_scan_counts"), 1, 1024, p2);
  return t;
}

}  // namespace

void CudaProvider::index_gather(const IndexCall& c) {
  check_bytes(c.elem_bytes);
  if (c.count <= 0) return;
  const IndexKernels& k = kernels(dev_);
  IndexArgs a = index_args(c);
  CUdeviceptr base = dptr(c.base), out = dptr(c.values);
  void* params[] = {&base, &out, &a};
  launch(dev_, k.get("mf_gather_" + std::to_string(c.elem_bytes)), stride_grid(dev_, c.count),
         kThreads, params);
}

void CudaProvider::index_scatter(const IndexCall& c) {
  check_bytes(c.elem_bytes);
  if (c.count <= 0) return;
  const IndexKernels& k = kernels(dev_);
  IndexArgs a = index_args(c);
  CUdeviceptr base = dptr(c.base), vals = dptr(c.values);
  int scalar = c.scalar ? 1 : 0;
  void* params[] = {&base, &vals, &a, &scalar};
  launch(dev_, k.get("mf_scatter_" + std::to_string(c.elem_bytes)), stride_grid(dev_, c.count),
         kThreads, params);
}

int64_t CudaProvider::mask_count(const void* mask, int64_t n) {
  if (n <= 0) return 0;
  const TileOffsets t = tile_offsets(dev_, kernels(dev_), mask, n);
  return dev_.read_size(dptr(t.ptr()) + static_cast<CUdeviceptr>(t.nb) * sizeof(int64_t));
}

void CudaProvider::mask_compact(const MaskCall& c) {
  check_bytes(c.elem_bytes);
  if (c.n <= 0) return;
  const IndexKernels& k = kernels(dev_);
  const TileOffsets t = tile_offsets(dev_, k, c.mask, c.n);
  CUdeviceptr m = dptr(c.mask), offs = dptr(t.ptr()), src = dptr(c.base), dst = dptr(c.values);
  long long n = c.n;
  void* params[] = {&m, &n, &offs, &src, &dst};
  launch(dev_, k.get("mf_compact_" + std::to_string(c.elem_bytes)), static_cast<unsigned>(t.nb),
         kThreads, params);
}

void CudaProvider::mask_scatter(const MaskCall& c) {
  check_bytes(c.elem_bytes);
  if (c.n <= 0) return;
  const IndexKernels& k = kernels(dev_);
  CUdeviceptr m = dptr(c.mask), base = dptr(c.base), vals = dptr(c.values);
  long long n = c.n;
  if (c.scalar) {
    void* params[] = {&m, &n, &base, &vals};
    launch(dev_, k.get("mf_mfill_" + std::to_string(c.elem_bytes)), stride_grid(dev_, c.n),
           kThreads, params);
    return;
  }
  const TileOffsets t = tile_offsets(dev_, k, c.mask, c.n);
  CUdeviceptr offs = dptr(t.ptr());
  void* params[] = {&m, &n, &offs, &base, &vals};
  launch(dev_, k.get("mf_mscatter_" + std::to_string(c.elem_bytes)), static_cast<unsigned>(t.nb),
         kThreads, params);
}

void CudaProvider::mask_find(const MaskCall& c) {
  if (c.n <= 0) return;
  const IndexKernels& k = kernels(dev_);
  const TileOffsets t = tile_offsets(dev_, k, c.mask, c.n);
  CUdeviceptr m = dptr(c.mask), offs = dptr(t.ptr()), dst = dptr(c.values);
  long long n = c.n;
  void* params[] = {&m, &n, &offs, &dst};
  launch(dev_, k.get("mf_find"), static_cast<unsigned>(t.nb), kThreads, params);
}

void CudaProvider::copy(void* dst, const void* src, size_t bytes) {
  if (!bytes) return;
  dev_.check(dev_.api().cuMemcpyDtoDAsync(dptr(dst), dptr(src), bytes, dev_.stream()),
             "cuMemcpyDtoDAsync");
}

/// The indexing program's source (tests compile it with NVRTC without a device).
const char* indexing_source() { return kSource; }

}  // namespace matfuse::cuda
