// Test helper: the math and device modes of the acceleration layer set for a scope.
#pragma once

#include "accel/emit/fast_math.h"
#include "accel/plan/placement.h"

namespace matfuse::test {

/// Sets the math mode and the device mode for a scope; restores the math mode and Auto placement.
struct ScopedModes {
  ScopedModes(accel::MathMode m, accel::DeviceMode d) : prev(accel::math_mode()) {
    accel::set_math_mode(m);
    accel::set_device_mode(d);
  }
  ~ScopedModes() {
    accel::set_math_mode(prev);
    accel::set_device_mode(accel::DeviceMode::Auto);
  }
  accel::MathMode prev;
};

}  // namespace matfuse::test
