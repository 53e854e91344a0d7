// Test helper: the math and device modes of the acceleration layer set for a scope.
#pragma once

#include <cmath>

#include "accel/emit/fast_math.h"
#include "accel/plan/placement.h"
#include "runtime/ops.h"

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

/// A single-precision function of fast mode and its documented bound (docs/math-modes.md).
struct FastBound {
  OpId op;
  double ulp;     ///< max error in ulp of the exact result (results normal or zero)
  double lo, hi;  ///< the real domain tested: inputs outside are folded into it
};

/// The bounds of fast mode's single-precision functions, the same on every provider.
inline constexpr FastBound kFastBounds[] = {
    {OpId::Sin, 2, -INFINITY, INFINITY},  {OpId::Cos, 2, -INFINITY, INFINITY},
    {OpId::Tan, 3, -INFINITY, INFINITY},  {OpId::Asin, 1, -1, 1},
    {OpId::Acos, 1, -1, 1},               {OpId::Atan, 1, -INFINITY, INFINITY},
    {OpId::Sinh, 3, -INFINITY, INFINITY}, {OpId::Cosh, 2, -INFINITY, INFINITY},
    {OpId::Tanh, 2, -INFINITY, INFINITY}, {OpId::Exp, 2, -INFINITY, INFINITY},
    {OpId::Log, 2, 0, INFINITY},          {OpId::Log2, 1, 0, INFINITY},
    {OpId::Log10, 2, 0, INFINITY},        {OpId::Log1p, 2, -1, INFINITY},
    {OpId::Expm1, 1, -INFINITY, INFINITY},
};

}  // namespace matfuse::test
