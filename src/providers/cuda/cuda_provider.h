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
#include <string>
#include <vector>

#include "providers/cuda/cuda_compile.h"
#include "providers/provider.h"

namespace matfuse::cuda {

/// What the last run() did (telemetry).
struct LaunchRecord {
  CacheSource cache = CacheSource::Memory;
  double compile_seconds = 0;
  double device_seconds = -1;  ///< CUDA-event time of the launches (-1 when timing is off)
  int launches = 0;
  bool fault_deferred = false;  ///< the fault flag was kept (set_defer_faults), not read
};

class CudaProvider final : public Provider {
public:
  explicit CudaProvider(Device& dev) : dev_(dev) {}
  std::string_view name() const override { return "cuda"; }
  /// Raises MatlabError for codegen, NVRTC, launch or memory failures (the caller falls back to
  /// the host provider); returns ok=false on a kernel fault (the caller re-runs the group with
  /// the eager engine).
  RunResult run(const accel::Kernel& k, const KernelArgs& args) override;
  const LaunchRecord& last() const { return last_; }
  /// Times every run with CUDA events (synchronises after each kernel).
  void set_timing(bool on) { timing_ = on; }
  /// While on, run() keeps the fault flag of a program that may fault (last().fault_deferred)
  /// and returns ok without waiting for the kernel.
  void set_defer_faults(bool on) { defer_faults_ = on; }
  /// Number of fault flags kept so far (a mark for take_deferred_faults).
  size_t deferred_faults() const { return deferred_.size(); }
  /// Reads the fault flags kept since `mark` (one stream synchronisation), releases them and
  /// returns the first nonzero fault code in launch order, or 0.
  int take_deferred_faults(size_t mark);
  /// The message of fault code `code` (kernel_ir.h FaultCode).
  static std::string fault_message(int code);
  Device& device() { return dev_; }

private:
  Device& dev_;
  LaunchRecord last_;
  bool timing_ = false;
  bool defer_faults_ = false;
  std::vector<std::unique_ptr<DeviceCopy>> deferred_;
};

/// The process-wide CUDA provider, or null when no device is usable.
CudaProvider* cuda_provider();

}  // namespace matfuse::cuda
