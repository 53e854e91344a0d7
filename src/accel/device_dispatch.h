// Running a lowered fusion group on a device provider (DESIGN.md decisions 12 and 13).
//
// try_device() costs the group for host and device (placement.h, with the residency of its
// inputs), and when the device wins runs it on the CUDA provider: inputs are uploaded once
// (their device copies stay with their storage), outputs are device-only tensors that stay
// resident until a host access gathers them. It returns false, leaving `outputs` empty, when
// the group should run on the host: no device, the host is cheaper, or the device path failed
// (codegen, NVRTC, device memory), with the reason in the record's `placement`. A kernel fault
// (value left the real domain, NaN to logical) returns true with *faulted set: the caller
// re-runs the group with the eager engine.
#pragma once

#include <vector>

#include "accel/lower.h"
#include "accel/telemetry.h"
#include "providers/provider.h"
#include "runtime/tensor.h"

namespace matfuse::accel {

/// See the file comment. inputs[i] is the value of lg.input_nodes[i]; `download_outputs` marks
/// outputs a host sink reads right away (costed as a download).
/// `text` is lg.kernel.text(), computed once by the caller.
bool try_device(const LoweredGroup& lg, const std::string& text, const std::vector<Tensor>& inputs,
                const std::vector<bool>& download_outputs, std::vector<Tensor>& outputs,
                GroupRecord& rec, bool* faulted);

/// Class and size of one kernel output.
struct OutputSpec {
  ClassId cls;
  Dims dims;
};

/// Runs `kernel` on the CUDA provider without costing it (try_device after placement; loop
/// replay): uploads inputs that are not resident, allocates device outputs, fills the device
/// fields of rec. Same results as try_device; false when there is no device or it failed.
bool run_on_device(const Kernel& kernel, const std::string& text,
                   const std::vector<Tensor>& inputs, const std::vector<OutputSpec>& out_specs,
                   const std::vector<ParamValue>& params, std::vector<Tensor>& outputs,
                   GroupRecord& rec, bool* faulted);

/// Deferred fault checks of one evaluation (RAII; may nest). While one is enabled, a device
/// kernel that may fault (sqrt, log, pow ... of data that might leave the real domain) does not
/// wait for its fault flag: try_device/run_on_device return with rec.fault_deferred set, and
/// check() later reads every flag kept since this object's construction with one wait for the
/// device. So the host prepares and launches the next groups while the kernel runs. The caller
/// must re-run, with immediate checks, every group from the first deferred one when check()
/// reports a fault (those groups may have read its wrong values). Flags not checked are
/// dropped by the destructor.
class DeferredFaults {
public:
  explicit DeferredFaults(bool enable);
  ~DeferredFaults();
  DeferredFaults(const DeferredFaults&) = delete;
  DeferredFaults& operator=(const DeferredFaults&) = delete;
  /// Reads the kept flags (one synchronisation) and turns deferral off; the first fault's
  /// message, or "" when none faulted (or nothing was deferred).
  std::string check();
  /// Whether kernels are deferring their checks now (a device is in use and check() has not
  /// run).
  bool enabled() const { return enabled_; }

private:
  bool enabled_ = false, prev_ = false;
  size_t mark_ = 0;
};

/// Enables CUDA-event timing of device kernels (--profile, --trace).
void set_device_timing(bool on);

/// Whether a device provider is usable in this process (loads CUDA on first call).
bool device_available();

}  // namespace matfuse::accel
