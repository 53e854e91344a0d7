// The provider interface: the one seam between the acceleration layer and the machines that run
// its kernels (DESIGN.md decision 15). It belongs to the acceleration layer, which includes no
// providers/ file; the host provider (providers/host/) is the executable specification, the CUDA provider
// (providers/cuda/) renders the same kernel IR to CUDA C. Adding a provider means implementing
// Provider and registering it (register_provider, called by the CLI at start): accel is not
// edited.
//
// Contract of a provider
// - Capabilities: supports(kernel) says whether run() may be tried at all (run may still fail
//   with a MatlabError, e.g. a codegen gap; the executor then tries the next provider);
//   supports(LibraryCall) names the library entries it implements.
// - Cost: estimate_seconds(cost) is the provider's estimate of the launch, transfers included
//   (the caller states the bytes this provider lacks, from resident()). Placement compares the
//   estimates of the providers that support a kernel.
// - Binding: bind_input() returns the address of a tensor's elements in the provider's memory,
//   copying them there once (the copy stays with the tensor's storage: residency);
//   new_output() allocates a result tensor whose elements live in the provider's memory (a
//   device provider's outputs are device-only tensors, gathered on first host access).
// - Launch: run() runs one kernel with bound buffers; ok false means the kernel faulted (a value
//   left the real domain, NaN to logical) and the caller re-runs the group with the eager
//   engine. The other RunResult fields are outcomes for telemetry.
// - Library calls: gemm(); the dense linear algebra of LibraryCall::Solve (factorizations,
//   solves, eigen and singular value decompositions, and the few matrix kernels they need,
//   section "dense linear algebra" below); fft(), window(); sort/scan are named extension points
//   (LibraryCall) that later entries fill.
// - Synchronisation and faults: a provider may defer the fault check of a kernel
//   (set_defer_faults); take_deferred_faults(mark) then reads every flag kept since mark.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "accel/emit/kernel_ir.h"
#include "runtime/tensor.h"

namespace matfuse {

/// Run-time value of one kernel parameter slot (`u` for u64 slots, `f` for double slots).
struct ParamValue {
  double f = 0;
  uint64_t u = 0;
};

/// Buffers and parameter values of one kernel launch, in the provider's memory (bind_input /
/// new_output). inputs[i] points at the elements of a tensor of kernel.inputs[i].cls;
/// outputs[i] at room for the output's elements (class kernel.outputs[i].cls, out_space or
/// space elements).
struct KernelArgs {
  std::vector<const void*> inputs;
  std::vector<ParamValue> params;
  std::vector<void*> outputs;
  /// The kernel's canonical text (Kernel::text()) when the caller already computed it, so a
  /// provider that caches by text does not build it again; null otherwise.
  const std::string* text = nullptr;
};

/// What one run() did. ok false: the kernel faulted (`fault` says why); outputs are then
/// unspecified. The other fields are outcomes for telemetry only.
struct RunResult {
  bool ok = true;
  std::string fault;
  bool fault_deferred = false;  ///< the fault check waits for take_deferred_faults
  double device_seconds = -1;   ///< timed launch (set_timing), -1 when not timed
  double compile_seconds = 0;   ///< compile or kernel-cache load time
  std::string kernel_cache;     ///< "memory", "disk", "compiled", or "" (no compiled kernels)
};

/// Work and transfers of one launch, as a provider prices it (seconds from bytes, flops, ops).
struct KernelCost {
  int64_t bytes_in = 0;        ///< materialised inputs read
  int64_t bytes_out = 0;       ///< outputs written
  double flops = 0;            ///< 2mnk of matrix products
  double ops = 0;              ///< weighted SSA ops x points
  int launches = 1;            ///< device launches the kernel needs
  int64_t bytes_to_bind = 0;   ///< inputs without a valid copy in this provider's memory
  int64_t bytes_to_host = 0;   ///< outputs a host sink reads right away (0 for host memory)
  int64_t bytes_to_device = 0; ///< outputs a device consumer reads right away (host memory only)
};

/// Library entries a provider may implement. Gemm (with its gemv form), Syrk, Solve, Fft,
/// Window, Index (gathers, scatters, stream compaction) and Sort (order statistics) are served
/// today; Scan is a named extension point.
enum class LibraryCall : uint8_t { Gemm, Syrk, Solve, Fft, Sort, Scan, Window, Index };

// ---- Gemm: matrix products -------------------------------------------------------------------

/// C = alpha * op(A) * op(B) + beta * C: column-major, C is m x n with leading dimension m,
/// inner dimension k; op(X) is X or X.' (trans_*). Pointers are in the provider's memory; f32
/// selects single, else double (both computed in their own precision: no TF32 unless asked).
/// A provider runs a matrix-vector form (n == 1, or m == 1) as gemv. beta 0: C is not read.
struct GemmCall {
  bool f32 = false;
  bool trans_a = false, trans_b = false;
  int64_t m = 0, n = 0, k = 0;
  const void* a = nullptr;
  int64_t lda = 1;
  const void* b = nullptr;
  int64_t ldb = 1;
  void* c = nullptr;
  double alpha = 1, beta = 0;
};

/// The lower triangle of C = alpha * op(A) * op(A).' + beta * C (BLAS syrk): C is n x n with
/// leading dimension n; trans false: A is n x k (C = A*A.'), trans true: A is k x n (C =
/// A.'*A), leading dimension lda. The strict upper triangle of C is left unspecified (callers
/// read C(i,j) for i < j at (j,i)). f32 as GemmCall.
struct SyrkCall {
  bool f32 = false;
  bool trans = false;
  int64_t n = 0, k = 0;
  const void* a = nullptr;
  int64_t lda = 1;
  void* c = nullptr;
  double alpha = 1, beta = 0;
};

// ---- dense linear algebra (LibraryCall::Solve) ---------------------------------------------
//
// LAPACK's routines, one struct per call (the host provider runs LAPACKE/OpenBLAS, the CUDA
// provider cuSOLVER/cuBLAS). Common rules:
// - Matrices are real and column-major in the provider's memory: f32 selects single, otherwise
//   double. A leading dimension is at least max(1, rows).
// - Pivot vectors (ipiv) are int32 in the provider's memory, 1-based as in LAPACK.
// - A call that returns `int info` waits for the device and returns LAPACK's info (0: success;
//   > 0: the routine's documented failure, e.g. a zero pivot of getrf or the order of the
//   leading minor that is not positive definite for potrf). Other calls are queued in order.
// - Workspaces are the provider's: a device provider raises matfuse:gpuOutOfMemory (a
//   MatlabError) when it cannot allocate one, before any output is written.

/// Structure and 1-norm of an m x n matrix (analyze). upper/lower: every entry below/above the
/// main diagonal is zero; symmetric: square and A(i,j) == A(j,i) exactly; pos_diag: every
/// diagonal entry > 0; zero_diag: some diagonal entry == 0; finite: no NaN or Inf; norm1: the
/// largest column sum of |A| (NaN when A holds a NaN).
struct MatrixTraits {
  bool upper = false, lower = false, symmetric = false;
  bool pos_diag = false, zero_diag = false, finite = true;
  double norm1 = 0;
};
struct AnalyzeCall {
  bool f32 = false;
  int64_t m = 0, n = 0;
  const void* a = nullptr;
  int64_t lda = 1;
};
/// LU with partial pivoting, A = P*L*U in place (getrf); ipiv holds min(m, n) pivots.
struct GetrfCall {
  bool f32 = false;
  int64_t m = 0, n = 0;
  void* a = nullptr;
  int64_t lda = 1;
  int32_t* ipiv = nullptr;
};
/// Solves op(A) X = B with getrf's factors (getrs); B (n x nrhs) is overwritten by X.
struct GetrsCall {
  bool f32 = false, trans = false;
  int64_t n = 0, nrhs = 0;
  const void* a = nullptr;
  int64_t lda = 1;
  const int32_t* ipiv = nullptr;
  void* b = nullptr;
  int64_t ldb = 1;
};
/// Cholesky factor of a symmetric positive definite A in place (potrf): upper A = R'*R (the
/// upper triangle is read and written), else A = L*L' (lower). The other triangle is left as
/// it was.
struct PotrfCall {
  bool f32 = false, upper = true;
  int64_t n = 0;
  void* a = nullptr;
  int64_t lda = 1;
};
/// Solves A X = B with potrf's factor (potrs); B (n x nrhs) is overwritten by X.
struct PotrsCall {
  bool f32 = false, upper = true;
  int64_t n = 0, nrhs = 0;
  const void* a = nullptr;
  int64_t lda = 1;
  void* b = nullptr;
  int64_t ldb = 1;
};
/// QR factorization A = Q*R in place (geqrf): R on and above the diagonal, the Householder
/// vectors below it, their min(m, n) scalars in tau.
struct GeqrfCall {
  bool f32 = false;
  int64_t m = 0, n = 0;
  void* a = nullptr;
  int64_t lda = 1;
  void* tau = nullptr;
};
/// C = op(Q) * C (ormqr, side left) with Q (m x m) given by geqrf's k reflectors in a (m x k)
/// and tau; C is m x n.
struct OrmqrCall {
  bool f32 = false, trans = false;
  int64_t m = 0, n = 0, k = 0;
  const void* a = nullptr;
  int64_t lda = 1;
  const void* tau = nullptr;
  void* c = nullptr;
  int64_t ldc = 1;
};
/// The first n columns of Q from geqrf's k reflectors, in place of a (m x n, m >= n >= k)
/// (orgqr).
struct OrgqrCall {
  bool f32 = false;
  int64_t m = 0, n = 0, k = 0;
  void* a = nullptr;
  int64_t lda = 1;
  const void* tau = nullptr;
};
/// Eigenvalues (ascending, into w) and, when vectors, orthonormal eigenvectors (in place of a)
/// of the symmetric n x n matrix whose lower triangle is in a (syevd).
struct SyevdCall {
  bool f32 = false, vectors = false;
  int64_t n = 0;
  void* a = nullptr;
  int64_t lda = 1;
  void* w = nullptr;
};
/// Singular value decomposition A = U*diag(s)*VT of an m x n matrix with m >= n (gesvd; a is
/// destroyed): job 'A' (U m x m, VT n x n), 'S' (U m x n, VT n x n) or 'N' (values only; u
/// and vt unused). s receives the n singular values in descending order.
struct GesvdCall {
  bool f32 = false;
  char job = 'N';
  int64_t m = 0, n = 0;
  void* a = nullptr;
  int64_t lda = 1;
  void* s = nullptr;
  void* u = nullptr;
  int64_t ldu = 1;
  void* vt = nullptr;
  int64_t ldvt = 1;
};
/// B = op(A) \ B for triangular A (trsm, side left, alpha 1); A is m x m, B m x n.
struct TrsmCall {
  bool f32 = false, upper = true, trans = false, unit_diag = false;
  int64_t m = 0, n = 0;
  const void* a = nullptr;
  int64_t lda = 1;
  void* b = nullptr;
  int64_t ldb = 1;
};
/// C = alpha * op(A) with C m x n (geam): copies between leading dimensions, transposes,
/// scales. C must not overlap A.
struct GeamCall {
  bool f32 = false, trans = false;
  int64_t m = 0, n = 0;
  double alpha = 1;
  const void* a = nullptr;
  int64_t lda = 1;
  void* c = nullptr;
  int64_t ldc = 1;
};
/// In-place element maps of an m x n matrix a (leading dimension lda), by kind:
/// - Triu: a(i,j) = 0 where j - i < k (MATLAB's triu(a, k));
/// - Tril: a(i,j) = 0 where j - i > k (tril(a, k));
/// - UnitDiag: a(i,i) = 1;
/// - Diag: a(i,j) = 0 off the main diagonal, a(i,i) = v ? v[i] : value (v: min(m,n) values);
/// - ScaleCols: a(:,j) *= (v[j] > value ? 1 / v[j] : 0) (v: n values; pinv's V * inv(S)).
struct FillCall {
  enum class Kind : uint8_t { Triu, Tril, UnitDiag, Diag, ScaleCols };
  bool f32 = false;
  Kind kind = Kind::Triu;
  int64_t m = 0, n = 0;
  void* a = nullptr;
  int64_t lda = 1;
  int64_t k = 0;
  const void* v = nullptr;
  double value = 0;
};
/// Row permutation of an m x n matrix (c != a): c(i,:) = a(perm[i],:), or c(perm[i],:) =
/// a(i,:) when inverse; perm holds m 0-based int32 row numbers in the provider's memory.
struct PermuteRowsCall {
  bool f32 = false, inverse = false;
  int64_t m = 0, n = 0;
  const void* a = nullptr;
  int64_t lda = 1;
  const int32_t* perm = nullptr;
  void* c = nullptr;
  int64_t ldc = 1;
};

// ---- FFT (LibraryCall::Fft) -----------------------------------------------------------------

/// Batched one-dimensional discrete Fourier transforms along one dimension of an array laid out
/// as (stride, n, outer): element (p, k, q) of the input and of the output sits at linear index
/// p + stride*(k + n*q) (column-major, the transformed dimension of length n in the middle).
/// Pointers are in the provider's memory; `in` is never written (a provider whose library
/// overwrites its input copies it first). f32 selects single, else double precision.
/// Kinds (X the input lane, Y the output lane, 0 <= k < n):
/// - Forward: complex to complex, Y(k) = Σ_j X(j) e^{-2πi jk/n} (MATLAB's fft).
/// - Inverse: complex to complex, Y(k) = (1/n) Σ_j X(j) e^{+2πi jk/n} (MATLAB's ifft).
/// - RealForward: real X to the full complex spectrum; the upper half Y(k), k > n/2, is
///   conj(Y(n-k)) exactly (a real-to-complex transform, then the conjugate fill).
/// - SymmetricInverse: complex X treated as conjugate symmetric (only X(k), k <= n/2, read) to
///   a real Y scaled by 1/n (MATLAB's ifft(X, 'symmetric')).
struct FftCall {
  enum class Kind : uint8_t { Forward, Inverse, RealForward, SymmetricInverse };
  Kind kind = Kind::Forward;
  bool f32 = false;
  int64_t n = 0, stride = 1, outer = 1;
  const void* in = nullptr;
  void* out = nullptr;
};

// ---- moving-window statistics (LibraryCall::Window) -------------------------------------------

/// movsum/movmean/movvar/movstd/movmax/movmin along one dimension of an array laid out as
/// (stride, n, outer) (as FftCall), MATLAB's defaults: the window of output k holds the input
/// elements max(0, k - kb) .. min(n - 1, k + kf) (cut at the ends, 'shrink'), and a NaN in the
/// window gives NaN ('includenan'). Input and output have one class (f32: single, else double)
/// and the same layout; sums and moments accumulate in double. Var/Std divide the squared
/// deviations from the window mean by count - 1 (w = 0; a one-element window gives 0) or by
/// count (w = 1). Pointers are in the provider's memory.
struct WindowCall {
  enum class Kind : uint8_t { Sum, Mean, Var, Std, Max, Min };
  Kind kind = Kind::Mean;
  bool f32 = false;
  int64_t kb = 0, kf = 0;
  int w = 0;
  int64_t n = 0, stride = 1, outer = 1;
  const void* in = nullptr;
  void* out = nullptr;
};

/// MATLAB's cumsum along the middle dimension of an (stride, n, outer) array (LibraryCall::Scan):
/// each lane is summed in order (reverse: from its last element) in the data's precision from
/// +0, as the host's loop does, so the bits are the host's; omitnan skips NaN terms.
/// f32 selects single, else double. Pointers are in the provider's memory.
struct ScanCall {
  bool f32 = false, reverse = false, omitnan = false;
  int64_t n = 0, stride = 1, outer = 1;
  const void* in = nullptr;
  void* out = nullptr;
};

// ---- indexing library calls (LibraryCall::Index) -------------------------------------------
//
// Gathers and scatters over a selection of an array held in the provider's memory, and stream
// compaction by a logical mask, so that indexing a device-resident array never copies it to the
// host (issue 18 item 5). Elements are moved as opaque bytes (elem_bytes 1, 2, 4, 8 or 16), so
// one entry serves every class; class conversion happens before the call.

/// Most subscripts of one IndexCall (the interpreter folds trailing dims into the last one).
constexpr int kMaxIndexDims = 12;

/// One subscript of a selection: 0-based positions start, start+1, ..., start+count-1 when list
/// is null, else list[0 .. count) (int64, in the provider's memory). stride: the base's stride
/// of this dimension in elements.
struct IndexDim {
  int64_t count = 0;
  int64_t start = 0;
  const int64_t* list = nullptr;
  int64_t stride = 1;
};

/// A selection of `base`: selection element j (column-major over dims[0 .. ndims)) is
/// base[sum_d pos_d(j_d) * dims[d].stride]. Gather: values[j] = base[...] for every j < count.
/// Scatter: base[...] = values[scalar ? 0 : j]; positions must be distinct unless scalar (the
/// order in which duplicates are written is unspecified).
struct IndexCall {
  int elem_bytes = 0;
  int ndims = 0;
  IndexDim dims[kMaxIndexDims];
  int64_t count = 0;        ///< product of dims[d].count (> 0)
  void* base = nullptr;     ///< gather: read; scatter: written in place
  void* values = nullptr;   ///< gather: count elements written; scatter: read
  bool scalar = false;      ///< scatter: values holds one element written everywhere
};

/// Masked operations over n elements: mask holds n logical bytes (0 or 1) in the provider's
/// memory; the k-th true position i_k (in increasing order) pairs base[i_k] with values[k].
/// Compact: values[k] = base[i_k]. Scatter: base[i_k] = values[scalar ? 0 : k]. Find: values
/// (doubles) [k] = i_k + 1 (MATLAB's 1-based linear indices).
struct MaskCall {
  int elem_bytes = 0;
  int64_t n = 0;
  const void* mask = nullptr;
  void* base = nullptr;
  void* values = nullptr;
  bool scalar = false;
};

/// Order statistics of n real values x (double when f64, else single) in the provider's memory
/// (LibraryCall::Sort): count_nan gives the number of NaNs; select_kth the k-th smallest
/// (0-based) of the values that are not NaN (k < n - NaNs; -0 orders before +0).
struct SelectCall {
  bool f64 = false;
  const void* x = nullptr;
  int64_t n = 0;
  int64_t k = 0;
};

/// MATLAB's sort of `lanes` contiguous lanes of `len` real values each (lane b is
/// x[b*len .. (b+1)*len)) in the provider's memory (LibraryCall::Sort): stable (equal values
/// keep their order, also when descending), -0 equal to 0, NaN first when nan_first else last,
/// in their original order. cls: any real numeric class, logical or char. values receives the
/// sorted values (x's class, same layout); index, when not null, the 1-based positions of the
/// sorted values within their lane, as doubles.
struct SortCall {
  ClassId cls = ClassId::Double;
  bool descend = false, nan_first = false;
  int64_t lanes = 0, len = 0;
  const void* x = nullptr;
  void* values = nullptr;
  double* index = nullptr;
};

/// Properties of a device provider's device (gpuDevice, accel-info).
struct DeviceProperties {
  std::string name;
  int ordinal = 0;
  int cc_major = 0, cc_minor = 0;
  int multiprocessors = 0;
  int max_threads_per_block = 0;
  size_t total_memory = 0;   ///< bytes
  size_t free_memory = 0;    ///< bytes, when queried
  int driver_version = 0;    ///< e.g. 13000
  int compiler_major = 0, compiler_minor = 0;  ///< run-time compiler (NVRTC) version
};

class Provider {
public:
  virtual ~Provider() = default;
  /// "host", "cuda" ... (telemetry, --profile).
  virtual std::string_view name() const = 0;
  /// Whether the provider's memory is the host's (plain host pointers, no transfers).
  virtual bool host_memory() const = 0;

  // ---- capabilities
  /// Whether run(k) may be tried (it may still raise; see the contract). `text`, when given, is
  /// k.text() (the caller has it: a provider keyed by it need not render it again).
  virtual bool supports(const accel::Kernel& k, const std::string* text = nullptr) const = 0;
  /// Why supports(k) is false, for --profile ("" when it is true or no reason is known).
  virtual std::string why_unsupported(const accel::Kernel& k,
                                      const std::string* text = nullptr) const {
    return "";
  }
  virtual bool supports(LibraryCall c) const { return false; }

  // ---- cost
  /// Estimated seconds of one launch with costs c (transfers included).
  virtual double estimate_seconds(const KernelCost& c) const = 0;

  // ---- binding and residency
  /// Whether t (materialised) has a valid copy in this provider's memory (never forces, never
  /// copies).
  virtual bool resident(const Tensor& t) const = 0;
  /// Address of t's elements in this provider's memory, copied there once when needed
  /// (*copied_bytes, when given, receives the bytes moved). Raises MatlabError on failure.
  virtual const void* bind_input(const Tensor& t, int64_t* copied_bytes = nullptr) = 0;
  /// A fresh tensor of class cls and dims (complex: interleaved real and imaginary parts,
  /// twice the bytes) whose elements live in this provider's memory; *address receives their
  /// address.
  virtual Tensor new_output(ClassId cls, const Dims& dims, void** address,
                            bool complex = false) = 0;

  // ---- launch
  /// Runs kernel k (asynchronously on a device; see set_defer_faults). Raises MatlabError
  /// when the provider cannot run it (codegen, compiler, memory); ok false on a kernel fault.
  virtual RunResult run(const accel::Kernel& k, const KernelArgs& args) = 0;

  // ---- library calls (LibraryCall); each raises matfuse:notAvailable unless supported
  virtual void gemm(const GemmCall& g);
  /// Indexing (LibraryCall::Index): see IndexCall and MaskCall. Ordered after earlier launches;
  /// nothing waits for the device except mask_count, which returns the number of true mask
  /// bytes (the size of a compaction's result) and so reads 8 bytes back.
  virtual void index_gather(const IndexCall& c);
  virtual void index_scatter(const IndexCall& c);
  virtual int64_t mask_count(const void* mask, int64_t n);
  virtual void mask_compact(const MaskCall& c);
  virtual void mask_scatter(const MaskCall& c);
  virtual void mask_find(const MaskCall& c);
  /// Order statistics (SelectCall); each reads a few bytes back (the result).
  virtual int64_t count_nan(const SelectCall& c);
  virtual double select_kth(const SelectCall& c);
  /// Sorts lanes (SortCall); nothing waits for the device.
  virtual void sort(const SortCall& c);
  /// Cumulative sums (ScanCall, LibraryCall::Scan); nothing waits for the device.
  virtual void scan(const ScanCall& c);
  /// Copies `bytes` bytes between two buffers of this provider's memory (copy-on-write clones).
  virtual void copy(void* dst, const void* src, size_t bytes);
  // Dense linear algebra (LibraryCall::Solve; see the section above).
  virtual MatrixTraits analyze(const AnalyzeCall& c);
  virtual int getrf(const GetrfCall& c);
  virtual void getrs(const GetrsCall& c);
  virtual int potrf(const PotrfCall& c);
  virtual void potrs(const PotrsCall& c);
  virtual void geqrf(const GeqrfCall& c);
  virtual void ormqr(const OrmqrCall& c);
  virtual void orgqr(const OrgqrCall& c);
  virtual int syevd(const SyevdCall& c);
  virtual int gesvd(const GesvdCall& c);
  virtual void trsm(const TrsmCall& c);
  virtual void geam(const GeamCall& c);
  virtual void fill(const FillCall& c);
  virtual void permute_rows(const PermuteRowsCall& c);
  virtual void syrk(const SyrkCall& s);
  /// The transforms of f (FftCall), queued like a kernel launch (a device does not wait).
  virtual void fft(const FftCall& f);
  /// The window statistics of w (WindowCall), queued like a kernel launch.
  virtual void window(const WindowCall& w);

  // ---- synchronisation, faults, timing
  /// Waits until every queued launch and copy has finished.
  virtual void synchronize() {}
  /// While on, run() keeps the fault flag of a kernel that may fault instead of waiting for it
  /// (RunResult::fault_deferred).
  virtual void set_defer_faults(bool on) {}
  /// A mark for take_deferred_faults: the number of fault flags kept so far.
  virtual size_t deferred_fault_mark() const { return 0; }
  /// Reads the flags kept since mark (one synchronisation), releases them, and returns the
  /// first fault's message in launch order, or "".
  virtual std::string take_deferred_faults(size_t mark) { return {}; }
  /// Times every launch (--profile, --trace).
  virtual void set_timing(bool on) {}

  // ---- device description
  /// The device's properties (memory figures queried now); nullopt for the host.
  virtual std::optional<DeviceProperties> device_properties() { return std::nullopt; }
};

// ---- the provider registry ----------------------------------------------------------------
//
// The CLI registers the providers present at start (providers/standard.h). A factory runs on
// first use (so a device library is loaded only when a kernel needs it) and returns null with a
// reason when its provider is unusable on this machine. Registration order is the order of
// preference among providers of equal estimate.

using ProviderFactory = std::function<Provider*(std::string* why_unusable)>;

/// Adds a provider; a second registration of the same name replaces the first (tests).
void register_provider(std::string name, ProviderFactory factory);
/// The usable providers, in registration order (runs pending factories).
std::vector<Provider*> usable_providers();
/// The usable provider of that name, or null.
Provider* find_provider(std::string_view name);
/// The first usable provider whose memory is the host's, or null when none is registered.
Provider* host_memory_provider();
/// The first usable provider with its own (device) memory, or null.
Provider* device_provider();
/// Why no device provider is usable ("" when one is; "no device provider registered" when
/// none is registered).
std::string device_unavailable_reason();

}  // namespace matfuse
