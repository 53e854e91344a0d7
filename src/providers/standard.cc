// Registration of the providers this build ships (see standard.h).
#include "providers/standard.h"

#include "providers/cuda/cuda_device.h"
#include "providers/cuda/cuda_provider.h"
#include "providers/host/host_provider.h"
#include "runtime/options.h"
#ifdef MATFUSE_HAVE_VULKAN
#include "providers/vulkan/vulkan_provider.h"
#endif

namespace matfuse {

void register_standard_providers() {
  register_provider("host", [](std::string*) -> Provider* { return &host::host_provider(); });
  register_provider("cuda", [](std::string* why) -> Provider* {
    cuda::CudaProvider* p = cuda::cuda_provider();
    if (!p && why) *why = cuda::Device::unavailable_reason();
    return p;
  });
  // Vulkan when CUDA is not usable or when asked for (--device vulkan): one device provider
  // at a time, CUDA first.
  register_provider("vulkan", [](std::string* why) -> Provider* {
#ifdef MATFUSE_HAVE_VULKAN
    if (options().device != DeviceOption::Vulkan && cuda::cuda_provider()) {
      if (why) *why = "the CUDA provider is in use";
      return nullptr;
    }
    // A CPU implementation (Mesa's lavapipe) only when asked for: it tests the provider, it
    // does not speed anything up.
    vk::Device* d = vk::Device::get();
    if (d && d->info().cpu && options().device != DeviceOption::Vulkan) {
      if (why) *why = "the only Vulkan device is a CPU implementation (" + d->info().name + ")";
      return nullptr;
    }
    vk::VulkanProvider* p = vk::vulkan_provider();
    if (!p && why) *why = vk::Device::unavailable_reason();
    return p;
#else
    if (why) *why = "built without Vulkan (Debian: libvulkan-dev, glslang-dev)";
    return nullptr;
#endif
  });
}

}  // namespace matfuse
