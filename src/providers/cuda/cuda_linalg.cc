// Dense linear algebra of the CUDA provider (provider.h, LibraryCall::Solve): cuSOLVER's dense
// legacy API for the factorizations, cuBLAS trsm/geam, and small NVRTC kernels of our own for
// the matrix maps LAPACK has no device routine for (analyze, fill, permute_rows, and the row
// permutation of getrf's interchanges).
//
// getrs and potrs run as cuBLAS triangular solves (with the row permutation for getrs) rather
// than cusolverDn?getrs/potrs: on an H100 (CUDA 13, n = 8192) getrs took 2.8 ms for one
// right-hand side and 5.8 ms for 64, two trsm 0.9 ms and 3.1 ms. The one-column solves of the
// RCOND estimate (linalg_device.cc) run several times per solve, so this is most of the gap.
//
// Every call runs on the device stream, after the kernels queued before it. Workspaces come
// from the stream-ordered pool (Device::allocate, matfuse:gpuOutOfMemory when it cannot) and
// are freed in stream order when the call returns. Calls that report LAPACK's info read it back
// (one wait for the stream, counted as a fault check); the others never wait.
#include <algorithm>
#include <cstring>
#include <limits>
#include <memory>
#include <mutex>

#include "providers/cuda/cuda_compile.h"
#include "providers/cuda/cuda_provider.h"
#include "runtime/error.h"

namespace matfuse::cuda {
namespace {

cusolverDnHandle_t solver_handle(Device& dev) {
  static cusolverDnHandle_t h = [&dev] {
    if (!have_cusolver())
      throw_error("matfuse:notAvailable", "GPU linear algebra needs cuSOLVER (libcusolver.so), "
                  "which is not installed.");
    cusolverDnHandle_t handle = nullptr;
    const Api& a = dev.api();
    if (a.cusolverDnCreate(&handle) != 0)
      throw_error("matfuse:cudaError", "cusolverDnCreate failed.");
    a.cusolverDnSetStream(handle, dev.stream());
    return handle;
  }();
  return h;
}

void check_solver(cusolverStatus_t st, const char* what) {
  if (st == CUSOLVER_STATUS_ALLOC_FAILED)
    throw_error("matfuse:gpuOutOfMemory", "Out of memory on the GPU in %s.", what);
  if (st != 0) throw_error("matfuse:cudaError", "%s failed (status %d).", what, st);
}

int to_int(int64_t v, const char* what) {
  if (v > 2147483647)
    throw_error("matfuse:notAvailable", "%s: the GPU solver takes dimensions below 2^31.", what);
  return static_cast<int>(v);
}
int ld(int64_t v) { return to_int(v < 1 ? 1 : v, "leading dimension"); }

CUdeviceptr dp(const void* p) { return reinterpret_cast<CUdeviceptr>(p); }

// The matrix-map kernels (T = float or double; no prelude needed). Flags of analyze:
// 0 not upper, 1 not lower, 2 not symmetric, 3 not positive diagonal, 4 zero diagonal,
// 5 non-finite, 6 NaN; then the 1-norm as the bits of a non-negative double (atomicMax on the
// bits orders non-negative doubles correctly).
const char* kSource = R"CUDA(
template <class T>
__device__ void la_analyze(const T* a, long long m, long long n, long long lda, int* flags,
                           unsigned long long* norm) {
  __shared__ double part[256];
  const long long j = blockIdx.x;
  double s = 0;
  int f[7] = {0, 0, 0, 0, 0, 0, 0};
  // The symmetry test reads A transposed (uncoalesced): once any block has found an asymmetric
  // pair, later blocks skip it.
  const bool check_sym = m == n && !*(volatile int*)(flags + 2);
  for (long long i = threadIdx.x; i < m; i += blockDim.x) {
    const T v = a[j * lda + i];
    const double d = (double)v;
    if (d - d != 0) f[5] = 1;
    if (d != d) f[6] = 1;
    s += d < 0 ? -d : d;
    if (i > j && v != (T)0) f[0] = 1;
    if (i < j && v != (T)0) f[1] = 1;
    if (i == j) {
      if (!(v > (T)0)) f[3] = 1;
      if (v == (T)0) f[4] = 1;
    }
    if (check_sym && !f[2] && i > j && v != a[i * lda + j]) {
      f[2] = 1;
      atomicOr(flags + 2, 1);
    }
  }
  for (int q = 0; q < 7; ++q)
    if (f[q]) atomicOr(flags + q, 1);
  part[threadIdx.x] = s;
  __syncthreads();
  for (int w = blockDim.x / 2; w > 0; w >>= 1) {
    if (threadIdx.x < w) part[threadIdx.x] += part[threadIdx.x + w];
    __syncthreads();
  }
  if (threadIdx.x == 0) {
    double t = part[0];
    if (t != t) t = 0;  // NaN columns are reported by flag 6
    atomicMax(norm, (unsigned long long)__double_as_longlong(t));
  }
}

template <class T>
__device__ void la_fill(T* a, long long m, long long n, long long lda, int kind, long long k,
                        const T* v, double value) {
  const long long total = m * n;
  for (long long idx = blockIdx.x * (long long)blockDim.x + threadIdx.x; idx < total;
       idx += (long long)gridDim.x * blockDim.x) {
    const long long i = idx % m, j = idx / m;
    T& x = a[j * lda + i];
    switch (kind) {
      case 0: if (j - i < k) x = (T)0; break;
      case 1: if (j - i > k) x = (T)0; break;
      case 2: if (i == j) x = (T)1; break;
      case 3: x = i == j ? (v ? v[i] : (T)value) : (T)0; break;
      case 4: x = v[j] > (T)value ? x / v[j] : (T)0; break;
    }
  }
}

template <class T>
__device__ void la_permute(const T* a, long long m, long long n, long long lda, const int* perm,
                           T* c, long long ldc, int inverse) {
  const long long total = m * n;
  for (long long idx = blockIdx.x * (long long)blockDim.x + threadIdx.x; idx < total;
       idx += (long long)gridDim.x * blockDim.x) {
    const long long i = idx % m, j = idx / m;
    if (inverse) c[j * ldc + perm[i]] = a[j * lda + i];
    else c[j * ldc + i] = a[j * lda + perm[i]];
  }
}

// getrf's interchanges (ipiv, 1-based, applied in order to rows 0..n-1) as one permutation:
// row i of P'*B is row perm[i] of B. One block: the swaps are sequential, so they run in shared
// memory (n ints, the launch's dynamic shared size) on one thread.
extern "C" __global__ void mf_la_ipiv_perm(const int* ipiv, long long n, int* perm) {
  extern __shared__ int s[];
  for (long long i = threadIdx.x; i < n; i += blockDim.x) s[i] = (int)i;
  __syncthreads();
  if (threadIdx.x == 0) {
    for (long long i = 0; i < n; ++i) {
      const int p = ipiv[i] - 1;
      const int t = s[i];
      s[i] = s[p];
      s[p] = t;
    }
  }
  __syncthreads();
  for (long long i = threadIdx.x; i < n; i += blockDim.x) perm[i] = s[i];
}

#define MF_LA_ENTRIES(T, s)                                                                    \
  extern "C" __global__ void mf_la_analyze_##s(const T* a, long long m, long long n,           \
                                               long long lda, int* flags,                      \
                                               unsigned long long* norm) {                     \
    la_analyze<T>(a, m, n, lda, flags, norm);                                                  \
  }                                                                                            \
  extern "C" __global__ void mf_la_fill_##s(T* a, long long m, long long n, long long lda,      \
                                            int kind, long long k, const T* v, double value) { \
    la_fill<T>(a, m, n, lda, kind, k, v, value);                                               \
  }                                                                                            \
  extern "C" __global__ void mf_la_permute_##s(const T* a, long long m, long long n,           \
                                               long long lda, const int* perm, T* c,           \
                                               long long ldc, int inverse) {                   \
    la_permute<T>(a, m, n, lda, perm, c, ldc, inverse);                                        \
  }
MF_LA_ENTRIES(float, f)
MF_LA_ENTRIES(double, d)
)CUDA";

enum Entry { kAnalyzeF, kAnalyzeD, kFillF, kFillD, kPermuteF, kPermuteD, kIpivPerm };

/// Largest n whose permutation fits the default 48 KB of dynamic shared memory of
/// mf_la_ipiv_perm; larger getrs calls use cusolverDn?getrs.
constexpr int64_t kIpivPermMax = 12288;

const CompiledProgram& la_program(Device& dev) {
  return library_program(dev, kSource, {"mf_la_analyze_f", "mf_la_analyze_d", "mf_la_fill_f",
                                        "mf_la_fill_d", "mf_la_permute_f", "mf_la_permute_d",
                                        "mf_la_ipiv_perm"});
}

void launch(Device& dev, Entry e, unsigned grid, unsigned block, std::vector<void*> params,
            unsigned shared_bytes = 0) {
  if (grid == 0) return;
  const CompiledProgram& p = la_program(dev);
  dev.check(dev.api().cuLaunchKernel(p.functions[e], grid, 1, 1, block, 1, 1, shared_bytes,
                                     dev.stream(), params.data(), nullptr),
            "cuLaunchKernel (linear algebra map)");
}

unsigned grid_for(int64_t total) {
  const int64_t blocks = (total + 255) / 256;
  return static_cast<unsigned>(blocks > 65535 ? 65535 : blocks);
}

/// Workspace of `count` elements of the call's type (at least one).
std::unique_ptr<DeviceCopy> workspace(Device& dev, int count, bool f32) {
  return dev.allocate(static_cast<size_t>(count > 0 ? count : 1) * (f32 ? 4 : 8));
}

}  // namespace

const char* linalg_kernel_source() { return kSource; }

bool CudaProvider::supports(LibraryCall c) const {
  return c == LibraryCall::Gemm || c == LibraryCall::Syrk || c == LibraryCall::Window ||
         c == LibraryCall::Scan ||
         c == LibraryCall::Index || c == LibraryCall::Sort ||
         (c == LibraryCall::Fft && have_cufft()) ||
         (c == LibraryCall::Solve && have_cusolver());
}

MatrixTraits CudaProvider::analyze(const AnalyzeCall& c) {
  MatrixTraits t;
  auto buf = dev_.allocate(64);
  const CUdeviceptr b = dp(buf->device_ptr());
  dev_.check(dev_.api().cuMemsetD32Async(b, 0, 16, dev_.stream()), "cuMemsetD32Async");
  CUdeviceptr a = dp(c.a), flags = b, norm = b + 32;
  long long m = c.m, n = c.n, lda = c.lda;
  if (m > 0)
    launch(dev_, c.f32 ? kAnalyzeF : kAnalyzeD, static_cast<unsigned>(n), 256,
           {&a, &m, &n, &lda, &flags, &norm});
  int32_t host[10] = {};
  dev_.download(host, b, 40);
  t.upper = !host[0];
  t.lower = !host[1];
  t.symmetric = c.m == c.n && !host[2];
  t.pos_diag = std::min(c.m, c.n) > 0 && !host[3];
  t.zero_diag = host[4] != 0;
  t.finite = !host[5];
  uint64_t bits = 0;
  std::memcpy(&bits, host + 8, 8);
  std::memcpy(&t.norm1, &bits, 8);
  if (host[6]) t.norm1 = std::numeric_limits<double>::quiet_NaN();
  return t;
}

int CudaProvider::getrf(const GetrfCall& c) {
  if (std::min(c.m, c.n) == 0) return 0;
  cusolverDnHandle_t h = solver_handle(dev_);
  const Api& a = dev_.api();
  const int m = to_int(c.m, "getrf"), n = to_int(c.n, "getrf"), lda = ld(c.lda);
  int lwork = 0;
  auto info = dev_.allocate(sizeof(int));
  int* pi = static_cast<int*>(info->device_ptr());
  if (c.f32) {
    float* A = static_cast<float*>(c.a);
    check_solver(a.cusolverDnSgetrf_bufferSize(h, m, n, A, lda, &lwork), "cusolverDnSgetrf");
    auto w = workspace(dev_, lwork, true);
    check_solver(a.cusolverDnSgetrf(h, m, n, A, lda, static_cast<float*>(w->device_ptr()), c.ipiv,
                                    pi),
                 "cusolverDnSgetrf");
  } else {
    double* A = static_cast<double*>(c.a);
    check_solver(a.cusolverDnDgetrf_bufferSize(h, m, n, A, lda, &lwork), "cusolverDnDgetrf");
    auto w = workspace(dev_, lwork, false);
    check_solver(a.cusolverDnDgetrf(h, m, n, A, lda, static_cast<double*>(w->device_ptr()),
                                    c.ipiv, pi),
                 "cusolverDnDgetrf");
  }
  return dev_.read_fault_flag(dp(pi));
}

void CudaProvider::getrs(const GetrsCall& c) {
  if (c.n == 0 || c.nrhs == 0) return;
  if (c.n <= kIpivPermMax && c.ldb == c.n) {
    // A = P*L*U: A x = b is L U x = P'b; A' x = b is U' L' (P'x) = b.
    const size_t elem = c.f32 ? 4 : 8;
    const size_t bytes = static_cast<size_t>(c.n) * static_cast<size_t>(c.nrhs) * elem;
    auto perm = dev_.allocate(static_cast<size_t>(c.n) * sizeof(int32_t));
    auto tmp = dev_.allocate(bytes);
    CUdeviceptr ip = dp(c.ipiv), pp = dp(perm->device_ptr());
    long long n = c.n;
    launch(dev_, kIpivPerm, 1, 256, {&ip, &n, &pp}, static_cast<unsigned>(n * sizeof(int32_t)));
    dev_.check(dev_.api().cuMemcpyDtoDAsync(dp(tmp->device_ptr()), dp(c.b), bytes, dev_.stream()),
               "cuMemcpyDtoDAsync");
    auto tri = [&](bool upper, bool trans, bool unit) {
      TrsmCall t;
      t.f32 = c.f32;
      t.upper = upper;
      t.trans = trans;
      t.unit_diag = unit;
      t.m = c.n;
      t.n = c.nrhs;
      t.a = c.a;
      t.lda = c.lda;
      t.b = c.trans ? tmp->device_ptr() : c.b;
      t.ldb = c.n;
      trsm(t);
    };
    PermuteRowsCall pr;
    pr.f32 = c.f32;
    pr.m = c.n;
    pr.n = c.nrhs;
    pr.lda = pr.ldc = c.n;
    pr.perm = static_cast<const int32_t*>(perm->device_ptr());
    if (!c.trans) {
      pr.a = tmp->device_ptr();  // b = P'b
      pr.c = c.b;
      permute_rows(pr);
      tri(false, false, true);
      tri(true, false, false);
    } else {
      tri(true, true, false);
      tri(false, true, true);
      pr.inverse = true;  // b = P (P'x)
      pr.a = tmp->device_ptr();
      pr.c = c.b;
      permute_rows(pr);
    }
    return;
  }
  cusolverDnHandle_t h = solver_handle(dev_);
  const Api& a = dev_.api();
  const int n = to_int(c.n, "getrs"), k = to_int(c.nrhs, "getrs");
  auto info = dev_.allocate(sizeof(int));
  int* pi = static_cast<int*>(info->device_ptr());
  const int op = c.trans ? CUBLAS_OP_T : CUBLAS_OP_N;
  if (c.f32)
    check_solver(a.cusolverDnSgetrs(h, op, n, k, static_cast<const float*>(c.a), ld(c.lda), c.ipiv,
                                    static_cast<float*>(c.b), ld(c.ldb), pi),
                 "cusolverDnSgetrs");
  else
    check_solver(a.cusolverDnDgetrs(h, op, n, k, static_cast<const double*>(c.a), ld(c.lda),
                                    c.ipiv, static_cast<double*>(c.b), ld(c.ldb), pi),
                 "cusolverDnDgetrs");
}

int CudaProvider::potrf(const PotrfCall& c) {
  if (c.n == 0) return 0;
  cusolverDnHandle_t h = solver_handle(dev_);
  const Api& a = dev_.api();
  const int n = to_int(c.n, "potrf"), lda = ld(c.lda);
  const int uplo = c.upper ? CUBLAS_FILL_MODE_UPPER : CUBLAS_FILL_MODE_LOWER;
  int lwork = 0;
  auto info = dev_.allocate(sizeof(int));
  int* pi = static_cast<int*>(info->device_ptr());
  if (c.f32) {
    float* A = static_cast<float*>(c.a);
    check_solver(a.cusolverDnSpotrf_bufferSize(h, uplo, n, A, lda, &lwork), "cusolverDnSpotrf");
    auto w = workspace(dev_, lwork, true);
    check_solver(a.cusolverDnSpotrf(h, uplo, n, A, lda, static_cast<float*>(w->device_ptr()),
                                    lwork, pi),
                 "cusolverDnSpotrf");
  } else {
    double* A = static_cast<double*>(c.a);
    check_solver(a.cusolverDnDpotrf_bufferSize(h, uplo, n, A, lda, &lwork), "cusolverDnDpotrf");
    auto w = workspace(dev_, lwork, false);
    check_solver(a.cusolverDnDpotrf(h, uplo, n, A, lda, static_cast<double*>(w->device_ptr()),
                                    lwork, pi),
                 "cusolverDnDpotrf");
  }
  return dev_.read_fault_flag(dp(pi));
}

void CudaProvider::potrs(const PotrsCall& c) {
  if (c.n == 0 || c.nrhs == 0) return;
  // A = R'*R (upper) or L*L' (lower): two triangular solves in place.
  TrsmCall t;
  t.f32 = c.f32;
  t.upper = c.upper;
  t.m = c.n;
  t.n = c.nrhs;
  t.a = c.a;
  t.lda = c.lda;
  t.b = c.b;
  t.ldb = c.ldb;
  t.trans = c.upper;  // R' y = b, or L y = b
  trsm(t);
  t.trans = !c.upper;  // R x = y, or L' x = y
  trsm(t);
}

void CudaProvider::geqrf(const GeqrfCall& c) {
  if (std::min(c.m, c.n) == 0) return;
  cusolverDnHandle_t h = solver_handle(dev_);
  const Api& a = dev_.api();
  const int m = to_int(c.m, "geqrf"), n = to_int(c.n, "geqrf"), lda = ld(c.lda);
  int lwork = 0;
  auto info = dev_.allocate(sizeof(int));
  int* pi = static_cast<int*>(info->device_ptr());
  if (c.f32) {
    float* A = static_cast<float*>(c.a);
    check_solver(a.cusolverDnSgeqrf_bufferSize(h, m, n, A, lda, &lwork), "cusolverDnSgeqrf");
    auto w = workspace(dev_, lwork, true);
    check_solver(a.cusolverDnSgeqrf(h, m, n, A, lda, static_cast<float*>(c.tau),
                                    static_cast<float*>(w->device_ptr()), lwork, pi),
                 "cusolverDnSgeqrf");
  } else {
    double* A = static_cast<double*>(c.a);
    check_solver(a.cusolverDnDgeqrf_bufferSize(h, m, n, A, lda, &lwork), "cusolverDnDgeqrf");
    auto w = workspace(dev_, lwork, false);
    check_solver(a.cusolverDnDgeqrf(h, m, n, A, lda, static_cast<double*>(c.tau),
                                    static_cast<double*>(w->device_ptr()), lwork, pi),
                 "cusolverDnDgeqrf");
  }
}

void CudaProvider::ormqr(const OrmqrCall& c) {
  if (c.m == 0 || c.n == 0 || c.k == 0) return;
  cusolverDnHandle_t h = solver_handle(dev_);
  const Api& a = dev_.api();
  const int m = to_int(c.m, "ormqr"), n = to_int(c.n, "ormqr"), k = to_int(c.k, "ormqr");
  const int op = c.trans ? CUBLAS_OP_T : CUBLAS_OP_N;
  int lwork = 0;
  auto info = dev_.allocate(sizeof(int));
  int* pi = static_cast<int*>(info->device_ptr());
  if (c.f32) {
    const float* A = static_cast<const float*>(c.a);
    const float* tau = static_cast<const float*>(c.tau);
    float* C = static_cast<float*>(c.c);
    check_solver(a.cusolverDnSormqr_bufferSize(h, CUBLAS_SIDE_LEFT, op, m, n, k, A, ld(c.lda),
                                               tau, C, ld(c.ldc), &lwork),
                 "cusolverDnSormqr");
    auto w = workspace(dev_, lwork, true);
    check_solver(a.cusolverDnSormqr(h, CUBLAS_SIDE_LEFT, op, m, n, k, A, ld(c.lda), tau, C,
                                    ld(c.ldc), static_cast<float*>(w->device_ptr()), lwork, pi),
                 "cusolverDnSormqr");
  } else {
    const double* A = static_cast<const double*>(c.a);
    const double* tau = static_cast<const double*>(c.tau);
    double* C = static_cast<double*>(c.c);
    check_solver(a.cusolverDnDormqr_bufferSize(h, CUBLAS_SIDE_LEFT, op, m, n, k, A, ld(c.lda),
                                               tau, C, ld(c.ldc), &lwork),
                 "cusolverDnDormqr");
    auto w = workspace(dev_, lwork, false);
    check_solver(a.cusolverDnDormqr(h, CUBLAS_SIDE_LEFT, op, m, n, k, A, ld(c.lda), tau, C,
                                    ld(c.ldc), static_cast<double*>(w->device_ptr()), lwork, pi),
                 "cusolverDnDormqr");
  }
}

void CudaProvider::orgqr(const OrgqrCall& c) {
  if (c.m == 0 || c.n == 0) return;
  cusolverDnHandle_t h = solver_handle(dev_);
  const Api& a = dev_.api();
  const int m = to_int(c.m, "orgqr"), n = to_int(c.n, "orgqr"), k = to_int(c.k, "orgqr");
  int lwork = 0;
  auto info = dev_.allocate(sizeof(int));
  int* pi = static_cast<int*>(info->device_ptr());
  if (c.f32) {
    float* A = static_cast<float*>(c.a);
    const float* tau = static_cast<const float*>(c.tau);
    check_solver(a.cusolverDnSorgqr_bufferSize(h, m, n, k, A, ld(c.lda), tau, &lwork),
                 "cusolverDnSorgqr");
    auto w = workspace(dev_, lwork, true);
    check_solver(a.cusolverDnSorgqr(h, m, n, k, A, ld(c.lda), tau,
                                    static_cast<float*>(w->device_ptr()), lwork, pi),
                 "cusolverDnSorgqr");
  } else {
    double* A = static_cast<double*>(c.a);
    const double* tau = static_cast<const double*>(c.tau);
    check_solver(a.cusolverDnDorgqr_bufferSize(h, m, n, k, A, ld(c.lda), tau, &lwork),
                 "cusolverDnDorgqr");
    auto w = workspace(dev_, lwork, false);
    check_solver(a.cusolverDnDorgqr(h, m, n, k, A, ld(c.lda), tau,
                                    static_cast<double*>(w->device_ptr()), lwork, pi),
                 "cusolverDnDorgqr");
  }
}

int CudaProvider::syevd(const SyevdCall& c) {
  if (c.n == 0) return 0;
  cusolverDnHandle_t h = solver_handle(dev_);
  const Api& a = dev_.api();
  const int n = to_int(c.n, "syevd"), lda = ld(c.lda);
  const int job = c.vectors ? CUSOLVER_EIG_MODE_VECTOR : CUSOLVER_EIG_MODE_NOVECTOR;
  int lwork = 0;
  auto info = dev_.allocate(sizeof(int));
  int* pi = static_cast<int*>(info->device_ptr());
  if (c.f32) {
    float* A = static_cast<float*>(c.a);
    float* W = static_cast<float*>(c.w);
    check_solver(a.cusolverDnSsyevd_bufferSize(h, job, CUBLAS_FILL_MODE_LOWER, n, A, lda, W,
                                               &lwork),
                 "cusolverDnSsyevd");
    auto w = workspace(dev_, lwork, true);
    check_solver(a.cusolverDnSsyevd(h, job, CUBLAS_FILL_MODE_LOWER, n, A, lda, W,
                                    static_cast<float*>(w->device_ptr()), lwork, pi),
                 "cusolverDnSsyevd");
  } else {
    double* A = static_cast<double*>(c.a);
    double* W = static_cast<double*>(c.w);
    check_solver(a.cusolverDnDsyevd_bufferSize(h, job, CUBLAS_FILL_MODE_LOWER, n, A, lda, W,
                                               &lwork),
                 "cusolverDnDsyevd");
    auto w = workspace(dev_, lwork, false);
    check_solver(a.cusolverDnDsyevd(h, job, CUBLAS_FILL_MODE_LOWER, n, A, lda, W,
                                    static_cast<double*>(w->device_ptr()), lwork, pi),
                 "cusolverDnDsyevd");
  }
  return dev_.read_fault_flag(dp(pi));
}

int CudaProvider::gesvd(const GesvdCall& c) {
  if (c.n == 0) return 0;
  if (c.m < c.n) throw_error("matfuse:cudaError", "cusolverDnXgesvd needs m >= n.");
  cusolverDnHandle_t h = solver_handle(dev_);
  const Api& a = dev_.api();
  const int m = to_int(c.m, "gesvd"), n = to_int(c.n, "gesvd"), lda = ld(c.lda);
  const signed char job = static_cast<signed char>(c.job);
  int lwork = 0;
  auto info = dev_.allocate(sizeof(int));
  int* pi = static_cast<int*>(info->device_ptr());
  const int ldu = ld(c.ldu), ldvt = ld(c.ldvt);
  if (c.f32) {
    check_solver(a.cusolverDnSgesvd_bufferSize(h, m, n, &lwork), "cusolverDnSgesvd");
    auto w = workspace(dev_, lwork, true);
    auto rw = workspace(dev_, n, true);
    check_solver(a.cusolverDnSgesvd(h, job, job, m, n, static_cast<float*>(c.a), lda,
                                    static_cast<float*>(c.s), static_cast<float*>(c.u), ldu,
                                    static_cast<float*>(c.vt), ldvt,
                                    static_cast<float*>(w->device_ptr()), lwork,
                                    static_cast<float*>(rw->device_ptr()), pi),
                 "cusolverDnSgesvd");
    return dev_.read_fault_flag(dp(pi));
  }
  check_solver(a.cusolverDnDgesvd_bufferSize(h, m, n, &lwork), "cusolverDnDgesvd");
  auto w = workspace(dev_, lwork, false);
  auto rw = workspace(dev_, n, false);
  check_solver(a.cusolverDnDgesvd(h, job, job, m, n, static_cast<double*>(c.a), lda,
                                  static_cast<double*>(c.s), static_cast<double*>(c.u), ldu,
                                  static_cast<double*>(c.vt), ldvt,
                                  static_cast<double*>(w->device_ptr()), lwork,
                                  static_cast<double*>(rw->device_ptr()), pi),
               "cusolverDnDgesvd");
  return dev_.read_fault_flag(dp(pi));
}

void CudaProvider::trsm(const TrsmCall& c) {
  if (c.m == 0 || c.n == 0) return;
  cublasHandle_t h = cublas_handle(dev_);
  const Api& a = dev_.api();
  const int m = to_int(c.m, "trsm"), n = to_int(c.n, "trsm");
  const int up = c.upper ? CUBLAS_FILL_MODE_UPPER : CUBLAS_FILL_MODE_LOWER;
  const int op = c.trans ? CUBLAS_OP_T : CUBLAS_OP_N;
  const int dg = c.unit_diag ? CUBLAS_DIAG_UNIT : CUBLAS_DIAG_NON_UNIT;
  int st;
  if (c.f32) {
    const float one = 1;
    st = a.cublasStrsm(h, CUBLAS_SIDE_LEFT, up, op, dg, m, n, &one,
                       static_cast<const float*>(c.a), ld(c.lda), static_cast<float*>(c.b),
                       ld(c.ldb));
  } else {
    const double one = 1;
    st = a.cublasDtrsm(h, CUBLAS_SIDE_LEFT, up, op, dg, m, n, &one,
                       static_cast<const double*>(c.a), ld(c.lda), static_cast<double*>(c.b),
                       ld(c.ldb));
  }
  if (st != 0) throw_error("matfuse:cudaError", "cuBLAS trsm failed (status %d).", st);
}

void CudaProvider::geam(const GeamCall& c) {
  if (c.m == 0 || c.n == 0) return;
  cublasHandle_t h = cublas_handle(dev_);
  const Api& a = dev_.api();
  const int m = to_int(c.m, "geam"), n = to_int(c.n, "geam");
  const int op = c.trans ? CUBLAS_OP_T : CUBLAS_OP_N;
  int st;
  // beta = 0 with B = C (the documented in-place form): C = alpha * op(A).
  if (c.f32) {
    const float al = static_cast<float>(c.alpha), zero = 0;
    st = a.cublasSgeam(h, op, CUBLAS_OP_N, m, n, &al, static_cast<const float*>(c.a), ld(c.lda),
                       &zero, static_cast<const float*>(c.c), ld(c.ldc), static_cast<float*>(c.c),
                       ld(c.ldc));
  } else {
    const double al = c.alpha, zero = 0;
    st = a.cublasDgeam(h, op, CUBLAS_OP_N, m, n, &al, static_cast<const double*>(c.a),
                       ld(c.lda), &zero, static_cast<const double*>(c.c), ld(c.ldc),
                       static_cast<double*>(c.c), ld(c.ldc));
  }
  if (st != 0) throw_error("matfuse:cudaError", "cuBLAS geam failed (status %d).", st);
}

void CudaProvider::fill(const FillCall& c) {
  if (c.m == 0 || c.n == 0) return;
  CUdeviceptr a = dp(c.a), v = dp(c.v);
  long long m = c.m, n = c.n, lda = c.lda, k = c.k;
  int kind = static_cast<int>(c.kind);
  double value = c.value;
  launch(dev_, c.f32 ? kFillF : kFillD, grid_for(c.m * c.n), 256,
         {&a, &m, &n, &lda, &kind, &k, &v, &value});
}

void CudaProvider::permute_rows(const PermuteRowsCall& c) {
  if (c.m == 0 || c.n == 0) return;
  CUdeviceptr a = dp(c.a), perm = dp(c.perm), o = dp(c.c);
  long long m = c.m, n = c.n, lda = c.lda, ldc = c.ldc;
  int inverse = c.inverse ? 1 : 0;
  launch(dev_, c.f32 ? kPermuteF : kPermuteD, grid_for(c.m * c.n), 256,
         {&a, &m, &n, &lda, &perm, &o, &ldc, &inverse});
}

}  // namespace matfuse::cuda
