// The device as MATLAB's GPU functions see it (gpuArray, gpuDevice, wait, gputimeit): a small
// query API over the registered device provider (accel/run/provider.h), for the layers above
// accel that must not know which provider serves the device.
#pragma once

#include <optional>
#include <string>

#include "accel/run/provider.h"
#include "runtime/tensor.h"

namespace matfuse::accel {

/// Whether a device provider is usable (independent of MATFUSE_DEVICE / --device placement).
bool device_present();
/// Why none is ("" when one is).
std::string device_absent_reason();
/// The device's properties (free memory queried now); nullopt without a device.
std::optional<DeviceProperties> device_info();
/// Waits for every queued device launch and copy (no-op without a device). May raise
/// MatlabError on an asynchronous device fault.
void device_synchronize();
/// Copies t's elements to the device now (kept with its storage); no-op without a device or
/// for a lazy or empty t. Raises matfuse:gpuOutOfMemory when the device cannot hold them.
void device_upload(const Tensor& t);

}  // namespace matfuse::accel
