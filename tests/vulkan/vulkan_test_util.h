// Helpers shared by the Vulkan provider tests (ctest label `vulkan`).
#pragma once

#include <gtest/gtest.h>

#include "accel/capture/lazy.h"
#include "accel/run/provider.h"
#include "providers/vulkan/vulkan_device.h"

/// Skips the test where no Vulkan provider is usable (no loader or device, or MATFUSE_DEVICE
/// is not vulkan); captures arrays from 1000 elements on, so the tests stay small.
#define MATFUSE_REQUIRE_VULKAN()                                                                \
  do {                                                                                          \
    if (!::matfuse::find_provider("vulkan"))                                                    \
      GTEST_SKIP() << "no Vulkan provider: " << ::matfuse::vk::Device::unavailable_reason();    \
    ::matfuse::accel::lazy_config().min_numel = 1000;                                           \
  } while (0)
