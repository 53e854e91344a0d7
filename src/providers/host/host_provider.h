// The host provider: runs kernel IR on the CPU (DESIGN.md decision 10). It is the executable
// specification of the kernel IR: chunked (host_eval.h), multithreaded over a fixed pool
// (thread_pool.h), deterministic (fixed chunk partition and combine order, independent of the
// thread count; reductions follow the eager summation order), gemm by OpenBLAS.
#pragma once

#include "accel/run/provider.h"

namespace matfuse::host {

class HostProvider final : public Provider {
public:
  std::string_view name() const override { return "host"; }
  bool host_memory() const override { return true; }
  /// Every kernel of the IR.
  bool supports(const accel::Kernel&, const std::string*) const override { return true; }
  bool supports(LibraryCall c) const override {
    return c == LibraryCall::Gemm || c == LibraryCall::Syrk || c == LibraryCall::Solve ||
           c == LibraryCall::Fft || c == LibraryCall::Index || c == LibraryCall::Sort;
  }
  /// Calibrated host throughputs (accel/plan/placement.h): bytes touched over host bandwidth, flops
  /// over host gemm rate, ops over host op rate, plus a gather of inputs held only on a device
  /// (their bytes over the download rate and Calibration::host_sync_us for the wait) and the
  /// upload of outputs a device consumer reads right away.
  double estimate_seconds(const KernelCost& c) const override;
  /// Whether t has a host copy (not device-only).
  bool resident(const Tensor& t) const override { return !t.device_only(); }
  /// t's host elements (a device-only tensor is gathered).
  const void* bind_input(const Tensor& t, int64_t* copied_bytes = nullptr) override;
  Tensor new_output(ClassId cls, const Dims& dims, void** address,
                    bool complex = false) override;
  RunResult run(const accel::Kernel& k, const KernelArgs& args) override;
  /// OpenBLAS sgemm/dgemm; sgemv/dgemv for a matrix-vector form (n == 1 or m == 1).
  void gemm(const GemmCall& g) override;
  /// Indexing library calls (host_indexing.cc): plain loops, the reference for the device's.
  void index_gather(const IndexCall& c) override;
  void index_scatter(const IndexCall& c) override;
  int64_t mask_count(const void* mask, int64_t n) override;
  void mask_compact(const MaskCall& c) override;
  void mask_scatter(const MaskCall& c) override;
  void mask_find(const MaskCall& c) override;
  void copy(void* dst, const void* src, size_t bytes) override;
  int64_t count_nan(const SelectCall& c) override;
  double select_kth(const SelectCall& c) override;
  // Dense linear algebra through LAPACKE/OpenBLAS (host_linalg.cc).
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
  /// OpenBLAS ssyrk/dsyrk, lower triangle.
  void syrk(const SyrkCall& s) override;
  /// FFTW plans cached by shape (host_fft.cc); matfuse:notAvailable in builds without FFTW.
  void fft(const FftCall& f) override;
};

/// The process-wide host provider.
HostProvider& host_provider();

}  // namespace matfuse::host
