// Registration of the providers this build ships (see standard.h).
#include "providers/standard.h"

#include "providers/cuda/cuda_device.h"
#include "providers/cuda/cuda_provider.h"
#include "providers/host/host_provider.h"

namespace matfuse {

void register_standard_providers() {
  register_provider("host", [](std::string*) -> Provider* { return &host::host_provider(); });
  register_provider("cuda", [](std::string* why) -> Provider* {
    cuda::CudaProvider* p = cuda::cuda_provider();
    if (!p && why) *why = cuda::Device::unavailable_reason();
    return p;
  });
}

}  // namespace matfuse
