// The size check of every allocating constructor (tensors, cell arrays, char rows).
#pragma once

#include "runtime/dims.h"

namespace matfuse {

/// Raises MATLAB:array:SizeLimitExceeded when an array of these dims with elements of
/// elem_bytes bytes would exceed Tensor::max_array_bytes() (computed in double, so no int64
/// overflow), and MATLAB:badDimension for a negative extent (tensor.cc).
void check_array_size(const Dims& dims, double elem_bytes);

/// A whole-number double (a count, length, order, offset or position; +-Inf allowed) as an
/// int64 clamped to +-2^62: the plain conversion is undefined from 2^63 on (1e300, Inf); a
/// size that large fails the size checks anyway, and adding small values to it cannot
/// overflow. NaN gives 0 (callers reject NaN first).
inline int64_t clamp_count(double d) {
  constexpr double kMax = 4611686018427387904.0;  // 2^62
  if (d != d) return 0;
  if (d >= kMax) return int64_t{1} << 62;
  if (d <= -kMax) return -(int64_t{1} << 62);
  return static_cast<int64_t>(d);
}

}  // namespace matfuse
