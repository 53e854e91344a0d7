// The Vulkan provider (issue 23): runs kernel IR as GLSL compute shaders on any Vulkan 1.2
// device (AMD, Intel, NVIDIA, Apple through MoltenVK, or the CPU through Mesa's lavapipe).
//
// - Kernels: vulkan_codegen.h says which kernels render; supports() renders once per canonical
//   text and says no to the others, so the executor runs them on the host provider and
//   --profile says why (why_unsupported).
// - Exactness: at start a probe kernel divides and takes square roots of 2^14 random and
//   special operands in single and double precision and compares the bits with the host's
//   (NaNs compared as NaNs); division or sqrt of a precision is rendered only when every probe
//   matched (Vulkan allows 2.5 ulp), so results are the host's bits.
// - Memory and residency as the CUDA provider's (vulkan_device.h): inputs are uploaded once and
//   keep their device copy; outputs are device-only tensors gathered on first host access.
// - Library calls: none yet (gemm and syrk calls outside fused kernels, FFT, sort, indexing,
//   solves run where the data is gathered to: the host); fused matrix products run as GLSL
//   (vulkan_reduce.cc).
#pragma once

#include <mutex>
#include <optional>
#include <string>
#include <unordered_map>

#include "accel/run/provider.h"
#include "providers/vulkan/vulkan_codegen.h"
#include "providers/vulkan/vulkan_device.h"

namespace matfuse::vk {

class VulkanProvider final : public Provider {
public:
  explicit VulkanProvider(Device& dev);
  std::string_view name() const override { return "vulkan"; }
  bool host_memory() const override { return false; }
  /// Whether k renders for this device (cached by canonical text).
  bool supports(const accel::Kernel& k, const std::string* text) const override;
  std::string why_unsupported(const accel::Kernel& k, const std::string* text) const override;
  /// The CUDA provider's calibrated throughputs (placement.h); a CPU device (lavapipe) is
  /// priced like the host without its threads, so automatic placement keeps work on the host.
  double estimate_seconds(const KernelCost& c) const override;
  bool resident(const Tensor& t) const override;
  const void* bind_input(const Tensor& t, int64_t* copied_bytes = nullptr) override;
  Tensor new_output(ClassId cls, const Dims& dims, void** address,
                    bool complex = false) override;
  /// Raises matfuse:codegen for a kernel supports() rejects, MatlabError for device failures;
  /// ok false on a kernel fault (the flag is read back unless deferred).
  RunResult run(const accel::Kernel& k, const KernelArgs& args) override;
  void copy(void* dst, const void* src, size_t bytes) override;
  void synchronize() override { dev_.synchronize(); }
  void set_timing(bool on) override { timing_ = on; }
  void set_defer_faults(bool on) override { defer_faults_ = on; }
  size_t deferred_fault_mark() const override { return deferred_.size(); }
  std::string take_deferred_faults(size_t mark) override;
  std::optional<DeviceProperties> device_properties() override;
  /// The capabilities kernels are rendered for (features and the exactness probe).
  const Caps& caps() const { return caps_; }

private:
  struct Rendered {
    std::optional<Shader> shader;
    std::string why;  // codegen message when not renderable
  };
  const Rendered& rendered(const accel::Kernel& k, const std::string* text) const;
  void probe();

  Device& dev_;
  Caps caps_;
  bool timing_ = false;
  bool defer_faults_ = false;
  std::vector<std::unique_ptr<DeviceCopy>> deferred_;
  mutable std::mutex mu_;
  mutable std::unordered_map<std::string, Rendered> rendered_;
};

/// The process-wide Vulkan provider, or null when no Vulkan device is usable (opens the loader
/// on first call; Device::unavailable_reason says why).
VulkanProvider* vulkan_provider();

}  // namespace matfuse::vk
