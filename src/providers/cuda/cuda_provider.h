// The CUDA provider (DESIGN.md decision 10): runs kernel IR as generated CUDA kernels.
//
// run() takes KernelArgs whose pointers are DEVICE addresses (cuda_device.h device_pointer /
// device_tensor), renders the kernel once per canonical text (codegen.h), compiles it through
// the kernel cache (cuda_compile.h), runs cuBLAS gemm first for matrix-product kernels (no TF32
// unless MATFUSE_ALLOW_TF32=1), then launches the program's entry points in order on the
// device stream. Nothing waits for the device unless the program may fault (the fault flag is
// read back) or timing is on (set_timing: CUDA events around the launches, for --profile).
// With set_defer_faults, a program's fault flag is kept instead of read back: the caller
// collects every kept flag later with one synchronisation (take_deferred_faults), so the host
// prepares the next kernels while this one runs.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "providers/cuda/cuda_compile.h"
#include "accel/run/provider.h"

namespace matfuse::cuda {

class CudaProvider final : public Provider {
public:
  explicit CudaProvider(Device& dev) : dev_(dev) {}
  std::string_view name() const override { return "cuda"; }
  bool host_memory() const override { return false; }
  /// Every kernel may be tried: a construct the code generator lacks raises matfuse:codegen
  /// from run() and the executor runs the group on the next provider.
  bool supports(const accel::Kernel&, const std::string*) const override { return true; }
  /// Gemm, Syrk, Window, Index, Sort, Fft when cuFFT was found (have_cufft) and Solve when
  /// cuSOLVER was found (have_cusolver).
  bool supports(LibraryCall c) const override;
  /// Calibrated device throughputs (accel/plan/placement.h): launch latency, bytes touched over
  /// device bandwidth, flops over the cuBLAS rate, ops over the device op rate, uploads of
  /// inputs without a device copy, downloads of outputs a host sink reads now.
  double estimate_seconds(const KernelCost& c) const override;
  /// Whether t has a copy on this device (or lives only there).
  bool resident(const Tensor& t) const override;
  /// Device address of t (uploaded once, cuda_device.h device_pointer).
  const void* bind_input(const Tensor& t, int64_t* copied_bytes = nullptr) override;
  /// A device-only tensor (cuda_device.h device_tensor).
  Tensor new_output(ClassId cls, const Dims& dims, void** address,
                    bool complex = false) override;
  /// Raises MatlabError for codegen, NVRTC, launch or memory failures (the caller falls back to
  /// the host provider); returns ok=false on a kernel fault (the caller re-runs the group with
  /// the eager engine). Pointers in args are DEVICE addresses.
  RunResult run(const accel::Kernel& k, const KernelArgs& args) override;
  /// cuBLAS sgemm/dgemm on the device stream (no TF32 unless MATFUSE_ALLOW_TF32=1); sgemv /
  /// dgemv for the matrix-vector forms. Raises matfuse:notAvailable without cuBLAS.
  void gemm(const GemmCall& g) override;
  /// Indexing library calls (cuda_indexing.cc): NVRTC-compiled gather, scatter and stream
  /// compaction kernels on the device stream; mask_count reads 8 bytes back (a size read).
  void index_gather(const IndexCall& c) override;
  void index_scatter(const IndexCall& c) override;
  int64_t mask_count(const void* mask, int64_t n) override;
  void mask_compact(const MaskCall& c) override;
  void mask_scatter(const MaskCall& c) override;
  void mask_find(const MaskCall& c) override;
  /// Radix selection (cuda_select.cc); reads 16 KB histograms and the last candidates back.
  int64_t count_nan(const SelectCall& c) override;
  double select_kth(const SelectCall& c) override;
  /// CUB radix sorts through the plugin libmatfuse_cub.so (cuda_sort.cc); raises
  /// matfuse:notAvailable where the plugin was not built or cannot be opened.
  void sort(const SortCall& c) override;
  /// Cumulative sums, one thread per lane in order (cuda_window.cc).
  void scan(const ScanCall& c) override;
  /// cuMemcpyDtoDAsync on the device stream.
  void copy(void* dst, const void* src, size_t bytes) override;
  // Dense linear algebra (cuda_linalg.cc): cuSOLVER, cuBLAS trsm/geam, NVRTC matrix maps.
  MatrixTraits analyze(const AnalyzeCall& c) override;
  int getrf(const GetrfCall& c) override;
  void getrs(const GetrsCall& c) override;
  int potrf(const PotrfCall& c) override;
  void potrs(const PotrsCall& c) override;
  void geqrf(const GeqrfCall& c) override;
  void ormqr(const OrmqrCall& c) override;
  void orgqr(const OrgqrCall& c) override;
  int syevd(const SyevdCall& c) override;
  int gesvd(const GesvdCall& c) override;
  void trsm(const TrsmCall& c) override;
  void geam(const GeamCall& c) override;
  void fill(const FillCall& c) override;
  void permute_rows(const PermuteRowsCall& c) override;
  /// cuBLAS ssyrk/dsyrk (lower triangle); gemm where the library lacks syrk.
  void syrk(const SyrkCall& s) override;
  /// cuFFT plans cached by layout (cuda_fft.cc) on the device stream; the real-to-complex
  /// conjugate fill and the 1/n scaling of inverses run as small NVRTC kernels on the same
  /// stream. Raises matfuse:notAvailable without cuFFT.
  void fft(const FftCall& f) override;
  /// Moving-window statistics by an NVRTC kernel (cuda_window.cc): each thread slides over a
  /// run of consecutive outputs of one lane with double running sums (var/std: sums of
  /// deviations from a reference value of the run); max/min scan each window.
  void window(const WindowCall& w) override;
  void synchronize() override { dev_.synchronize(); }
  /// Times every run with CUDA events (synchronises after each kernel).
  void set_timing(bool on) override { timing_ = on; }
  /// While on, run() keeps the fault flag of a program that may fault
  /// (RunResult::fault_deferred) and returns ok without waiting for the kernel.
  void set_defer_faults(bool on) override { defer_faults_ = on; }
  size_t deferred_fault_mark() const override { return deferred_.size(); }
  /// Reads the fault flags kept since `mark` (one stream synchronisation), releases them and
  /// returns the message of the first nonzero fault code in launch order, or "".
  std::string take_deferred_faults(size_t mark) override;
  std::optional<DeviceProperties> device_properties() override;
  /// The message of fault code `code` (kernel_ir.h FaultCode).
  static std::string fault_message(int code);
  Device& device() { return dev_; }

private:
  Device& dev_;
  bool timing_ = false;
  bool defer_faults_ = false;
  std::vector<std::unique_ptr<DeviceCopy>> deferred_;
};

/// The CUDA source of the indexing kernels (cuda_indexing.cc), for tests that compile it.
const char* indexing_source();
/// The CUDA source of the selection kernels (cuda_select.cc).
const char* select_source();
/// The process-wide cuBLAS handle on dev's stream (created on first call; pedantic math, TF32
/// only with MATFUSE_ALLOW_TF32=1). Raises matfuse:notAvailable without cuBLAS.
cublasHandle_t cublas_handle(Device& dev);

/// The NVRTC source of the provider's matrix-map kernels (analyze, fill, permute_rows; compiled
/// with the options of cuda_compile.h nvrtc_options).
const char* linalg_kernel_source();

/// The process-wide CUDA provider, or null when no device is usable (loads CUDA on first
/// call; cuda_device.h Device::unavailable_reason says why).
CudaProvider* cuda_provider();

}  // namespace matfuse::cuda
