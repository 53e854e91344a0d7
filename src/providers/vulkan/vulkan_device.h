// The Vulkan device (issue 23, DESIGN.md decisions 10 and 12 on a portable API): loader,
// instance, one compute queue, memory, transfers, submission and the SPIR-V compiler.
//
// - The loader (libvulkan.so.1) is opened at run time (dlopen), so the binary runs where no
//   Vulkan loader is installed; every entry point is fetched through vkGetInstanceProcAddr /
//   vkGetDeviceProcAddr. Device: the first discrete GPU, else the first integrated or virtual
//   one, else the first (a CPU implementation such as Mesa's lavapipe), or
//   MATFUSE_VULKAN_DEVICE (an index into vkEnumeratePhysicalDevices' list).
// - Required: Vulkan 1.2 with bufferDeviceAddress and shaderInt64 (kernels address buffers as
//   64-bit device addresses, so a DeviceCopy's device_ptr() is that address, as on CUDA) and
//   timelineSemaphore. shaderFloat64, 8- and 16-bit storage are capabilities: kernels that need
//   a missing one are not run here (the executor runs them on the host).
// - Memory: host-visible, host-coherent memory (device-local too where the device has such a
//   type), mapped once. Blocks up to 32 MiB are carved from 64 MiB chunks by power-of-two size
//   classes and reused; larger ones get their own allocation. A freed block is reused only
//   once the queue has finished every submission made before the free.
// - Submission: every command buffer signals the next value of one timeline semaphore; nothing
//   waits until the host reads device data (download, a fault flag) or calls synchronize().
//   Each command buffer starts with a barrier that orders it after the earlier ones' shader
//   writes and ends with one that makes its writes visible to host reads.
// - Kernels: GLSL compute shaders compiled to SPIR-V by glslang (in memory, and on disk in the
//   kernel cache folder keyed by the source hash, the device and driver, written atomically).
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "runtime/tensor.h"

namespace matfuse::vk {

struct DeviceInfo {
  std::string name;
  std::string driver;          ///< driverName (e.g. "llvmpipe", "NVIDIA")
  uint32_t api_version = 0;
  uint32_t driver_version = 0;
  uint32_t vendor_id = 0, device_id = 0;
  bool cpu = false;            ///< VK_PHYSICAL_DEVICE_TYPE_CPU (lavapipe)
  bool float64 = false;        ///< shaderFloat64
  bool storage8 = false;       ///< storageBuffer8BitAccess + shaderInt8
  bool storage16 = false;      ///< storageBuffer16BitAccess + shaderInt16
  /// Float controls (SPIR-V execution modes kernels request): denormals preserved and
  /// signed zeros, infinities and NaNs preserved, for 32- and 64-bit floats.
  bool denorm_preserve32 = false, denorm_preserve64 = false;
  bool nan_preserve32 = false, nan_preserve64 = false;
  uint32_t max_group_count_x = 65535;
  size_t device_memory = 0;    ///< bytes of the largest device-local heap
};

/// A compiled compute pipeline (one kernel entry point).
struct Pipeline;

class Device {
public:
  /// The device, initialised on first call; null when no usable Vulkan device exists (no
  /// loader, no device, a required feature missing). Never throws.
  static Device* get();
  /// Why get() is null ("" otherwise).
  static const std::string& unavailable_reason();

  const DeviceInfo& info() const { return info_; }

  /// Device memory of `bytes` (freed when the returned copy is destroyed; reused once the
  /// submissions before the free have finished). Raises matfuse:gpuOutOfMemory.
  std::unique_ptr<DeviceCopy> allocate(size_t bytes);
  /// Host address of the device address range [addr, addr + bytes) (memory is mapped).
  void* host_address(uint64_t addr, size_t bytes) const;
  /// Copies host -> device memory of a block no pending submission uses (a fresh block).
  void upload(uint64_t dst, const void* src, size_t bytes);
  /// Copies device -> host, waiting for every submission first.
  void download(void* dst, uint64_t src, size_t bytes);
  /// Copies between device addresses, ordered after earlier submissions.
  void copy(uint64_t dst, uint64_t src, size_t bytes);

  /// The pipeline of GLSL compute source `glsl` (entry main, push constants: one 64-bit
  /// address), compiled once per source. Raises matfuse:codegen on a compile error.
  const Pipeline& pipeline(const std::string& glsl, double* compile_seconds, std::string* cache);
  /// Submits one dispatch of `groups` workgroups of p with the 64-bit push constant `args`;
  /// returns the timeline value its completion signals. timed: measures the dispatch with
  /// timestamps and waits (seconds into *seconds).
  uint64_t dispatch(const Pipeline& p, uint32_t groups, uint64_t args, bool timed = false,
                    double* seconds = nullptr);
  /// One dispatch of a multi-dispatch kernel.
  struct Step {
    const Pipeline* pipeline = nullptr;
    uint32_t groups = 1;
  };
  /// Submits the dispatches of `steps` in order in one command buffer, each after a barrier
  /// that makes the previous ones' shader writes visible to it, all with the push constant
  /// `args`; returns the timeline value their completion signals. timed as above (all steps).
  uint64_t dispatch(const std::vector<Step>& steps, uint64_t args, bool timed = false,
                    double* seconds = nullptr);
  /// Waits until the timeline reaches `value` (every submission up to it has finished).
  void wait(uint64_t value);
  /// Waits for every submission. Raises MatlabError on a device loss.
  void synchronize();

  struct Impl;  // the Vulkan objects (vulkan_device.cc)

private:
  Device() = default;
  bool init(std::string* why);
  std::shared_ptr<Impl> impl_;
  DeviceInfo info_;
};

/// Device address of t's elements (uploads t's host copy once and keeps the device copy with
/// t's storage). t is forced when lazy.
uint64_t device_address(Device& dev, const Tensor& t);
/// Whether t (materialised) has a copy in Vulkan device memory (never forces, never uploads).
bool on_vulkan(const Tensor& t);
/// A device-only tensor of class cls and dims (kernel output; complex: interleaved parts).
Tensor device_tensor(Device& dev, ClassId cls, const Dims& dims, bool complex = false);

}  // namespace matfuse::vk
