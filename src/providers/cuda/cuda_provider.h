// The CUDA provider (DESIGN.md decision 10): runs kernel IR as generated CUDA kernels.
//
// run() takes KernelArgs whose pointers are DEVICE addresses (cuda_device.h device_pointer /
// device_tensor), renders the kernel once per canonical text (codegen.h), compiles it through
// the kernel cache (cuda_compile.h), runs cuBLAS gemm first for matrix-product kernels (no TF32
// unless MATFUSE_ALLOW_TF32=1), then launches the program's entry points in order on the
// device stream. Nothing waits for the device unless the program may fault (the fault flag is
// read back) or timing is on (set_timing: CUDA events around the launches, for --profile).
#pragma once

#include <cstdint>
#include <string>

#include "providers/cuda/cuda_compile.h"
#include "providers/provider.h"

namespace matfuse::cuda {

/// What the last run() did (telemetry).
struct LaunchRecord {
  CacheSource cache = CacheSource::Memory;
  double compile_seconds = 0;
  double device_seconds = -1;  ///< CUDA-event time of the launches (-1 when timing is off)
  int launches = 0;
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
  Device& device() { return dev_; }

private:
  Device& dev_;
  LaunchRecord last_;
  bool timing_ = false;
};

/// The process-wide CUDA provider, or null when no device is usable.
CudaProvider* cuda_provider();

}  // namespace matfuse::cuda
