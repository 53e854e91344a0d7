// The provider interface (DESIGN.md decisions 9 and 10): something that runs kernels of the
// kernel IR (accel/kernel_ir.h) on buffers. The host provider (providers/host/) is the
// executable specification; a CUDA provider renders the same IR to CUDA C.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "accel/kernel_ir.h"

namespace matfuse {

/// Run-time value of one kernel parameter slot (`u` for u64 slots, `f` for double slots).
struct ParamValue {
  double f = 0;
  uint64_t u = 0;
};

/// Buffers and parameter values of one kernel launch. inputs[i] points at the host layout of a
/// tensor of kernel.inputs[i].cls; outputs[i] at room for the output's elements (class
/// kernel.outputs[i].cls, out_space or space elements).
struct KernelArgs {
  std::vector<const void*> inputs;
  std::vector<ParamValue> params;
  std::vector<void*> outputs;
  /// The kernel's canonical text (Kernel::text()) when the caller already computed it, so a
  /// provider that caches by text does not build it again; null otherwise.
  const std::string* text = nullptr;
};

/// ok false: the kernel faulted (`fault` says why: a value left the real domain, NaN to logical);
/// outputs are then unspecified and the caller re-runs the group with the eager engine.
struct RunResult {
  bool ok = true;
  std::string fault;
};

class Provider {
public:
  virtual ~Provider() = default;
  /// "host", "cuda" ... (telemetry).
  virtual std::string_view name() const = 0;
  /// Runs the kernel synchronously.
  virtual RunResult run(const accel::Kernel& k, const KernelArgs& args) = 0;
};

}  // namespace matfuse
