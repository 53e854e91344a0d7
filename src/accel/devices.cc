// The device query API (see devices.h).
#include "accel/devices.h"

namespace matfuse::accel {

bool device_present() { return device_provider() != nullptr; }

std::string device_absent_reason() { return device_unavailable_reason(); }

std::optional<DeviceProperties> device_info() {
  Provider* p = device_provider();
  return p ? p->device_properties() : std::nullopt;
}

void device_synchronize() {
  if (Provider* p = device_provider()) p->synchronize();
}

void device_upload(const Tensor& t) {
  if (Provider* p = device_provider())
    if (!t.is_lazy() && t.numel() > 0) p->bind_input(t);
}

}  // namespace matfuse::accel
