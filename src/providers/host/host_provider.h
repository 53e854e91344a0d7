// The host provider: runs kernel IR on the CPU (DESIGN.md decision 10). It is the executable
// specification of the kernel IR: chunked (host_eval.h), multithreaded over a fixed pool
// (thread_pool.h), deterministic (fixed chunk partition and combine order, independent of the
// thread count; reductions follow the eager summation order), gemm by OpenBLAS.
#pragma once

#include "providers/provider.h"

namespace matfuse::host {

class HostProvider final : public Provider {
public:
  std::string_view name() const override { return "host"; }
  bool host_memory() const override { return true; }
  /// Every kernel of the IR.
  bool supports(const accel::Kernel& k) const override { return true; }
  bool supports(LibraryCall c) const override {
    return c == LibraryCall::Gemm || c == LibraryCall::Index || c == LibraryCall::Sort;
  }
  /// Calibrated host throughputs (accel/plan/placement.h): bytes touched over host bandwidth, flops
  /// over host gemm rate, ops over host op rate, plus a gather of inputs held only on a device
  /// and the upload of outputs a device consumer reads right away.
  double estimate_seconds(const KernelCost& c) const override;
  /// Whether t has a host copy (not device-only).
  bool resident(const Tensor& t) const override { return !t.device_only(); }
  /// t's host elements (a device-only tensor is gathered).
  const void* bind_input(const Tensor& t, int64_t* copied_bytes = nullptr) override;
  Tensor new_output(ClassId cls, const Dims& dims, void** address) override;
  RunResult run(const accel::Kernel& k, const KernelArgs& args) override;
  /// OpenBLAS sgemm/dgemm (alpha 1, beta 0).
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
};

/// The process-wide host provider.
HostProvider& host_provider();

}  // namespace matfuse::host
