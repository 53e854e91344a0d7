// The size check of every allocating constructor (tensors, cell arrays, char rows).
#pragma once

#include "runtime/dims.h"

namespace matfuse {

/// Raises MATLAB:array:SizeLimitExceeded when an array of these dims with elements of
/// elem_bytes bytes would exceed Tensor::max_array_bytes() (computed in double, so no int64
/// overflow), and MATLAB:badDimension for a negative extent (tensor.cc).
void check_array_size(const Dims& dims, double elem_bytes);

}  // namespace matfuse
