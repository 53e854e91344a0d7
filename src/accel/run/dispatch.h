// Choosing a provider for a lowered fusion group and launching it there (DESIGN.md decisions 13
// to 15), through the provider interface only.
//
// choose_provider() prices the kernel on every usable provider that supports it
// (Provider::estimate_seconds, with the bytes each provider lacks from Provider::resident) and
// picks the cheapest (ties: registration order, so the host wins them); MATFUSE_DEVICE=cpu|gpu
// (--device) restricts the choice to host-memory or device providers. The fallback is the
// host-memory provider (the executable specification) when the first choice is a device:
// the executor runs it there when the device raises (codegen gap, compiler, device memory).
// launch() binds the inputs (uploading once; copies stay with their storage), allocates the
// outputs in the provider's memory (device results stay resident until a host access gathers
// them) and runs the kernel.
#pragma once

#include <string>
#include <vector>

#include "accel/emit/kernel_ir.h"
#include "accel/run/provider.h"
#include "runtime/tensor.h"

namespace matfuse::accel {

/// Class and size of one kernel output.
struct OutputSpec {
  ClassId cls;
  Dims dims;
  bool complex = false;  ///< an interleaved complex buffer (LoweredGroup::output_imag)
  /// >= 0: this output writes the buffer of output `share` (the imaginary part of a complex
  /// output shares its real part's buffer) and yields the same tensor.
  int share = -1;
};

struct ProviderChoice {
  Provider* first = nullptr;     ///< null when no usable provider supports the kernel
  Provider* fallback = nullptr;  ///< the host-memory provider when first is a device, else null
  std::string reason;            ///< "cheaper on gpu", "forced cpu (...)", "no gpu: ..."
  double est_host_seconds = 0;   ///< best host-memory estimate (0 when none)
  double est_device_seconds = 0; ///< best device estimate (0 when none)
};

/// The placement between the cheapest host-memory provider and the cheapest device provider
/// (either may be null) with their estimates: MATFUSE_DEVICE / --device first, then the lower
/// estimate. first, fallback (the host when a device goes first) and reason as in
/// ProviderChoice. Library calls (FFT, windows, linear algebra) place themselves with it too.
ProviderChoice decide_placement(Provider* host, Provider* dev, double est_host_seconds,
                                double est_device_seconds);

/// See the file comment. inputs[i] is the value of kernel input i; to_host[i] marks outputs a
/// host sink reads right away (a device prices their download); to_device[i] outputs a device
/// consumer reads right away (indexing on the device: the host prices their upload).
ProviderChoice choose_provider(const Kernel& k, const std::vector<Tensor>& inputs,
                               const std::vector<OutputSpec>& outs,
                               const std::vector<bool>& to_host,
                               const std::vector<bool>& to_device = {},
                               const std::string* text = nullptr);

/// Runs `kernel` on p (see the file comment): `outputs` receives the results (unspecified when
/// the result is not ok); *copied_bytes (when given) the bytes bound inputs moved. Raises
/// MatlabError when p cannot run the kernel. `text` is kernel.text().
RunResult launch(Provider& p, const Kernel& kernel, const std::string& text,
                 const std::vector<Tensor>& inputs, const std::vector<OutputSpec>& outs,
                 const std::vector<ParamValue>& params, std::vector<Tensor>& outputs,
                 int64_t* copied_bytes = nullptr);

/// Deferred fault checks of one evaluation (RAII; may nest). While one is enabled, a device
/// kernel that may fault (sqrt, log, pow ... of data that might leave the real domain) does not
/// wait for its fault flag (RunResult::fault_deferred), and check() later reads every flag kept
/// since this object's construction with one wait per provider. So the host prepares and
/// launches the next groups while the kernel runs. The caller must re-run, with immediate
/// checks, every group from the first deferred one when check() reports a fault (those groups
/// may have read its wrong values). Flags not checked are dropped by the destructor.
class DeferredFaults {
public:
  explicit DeferredFaults(bool enable);
  ~DeferredFaults();
  DeferredFaults(const DeferredFaults&) = delete;
  DeferredFaults& operator=(const DeferredFaults&) = delete;
  /// Reads the kept flags and turns deferral off; the first fault's message, or "" when none
  /// faulted (or nothing was deferred).
  std::string check();
  /// Whether kernels are deferring their checks now (a device is in use and check() has not
  /// run).
  bool enabled() const { return enabled_; }

private:
  bool enabled_ = false, prev_ = false;
  std::vector<std::pair<Provider*, size_t>> marks_;
};

/// Enables timed launches on every provider (--profile, --trace).
void set_device_timing(bool on);

/// Whether a device provider is usable in this process (runs the registered factories, which
/// may load a device library, on first call).
bool device_available();

}  // namespace matfuse::accel
