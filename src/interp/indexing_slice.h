// Affine slices of lazy or large arrays (DESIGN.md decisions 1 and 8): X(:, t), X(i:j),
// X(:, k:k+m) read through the acceleration graph instead of forcing X.
#pragma once

#include <optional>
#include <span>

#include "runtime/value.h"

namespace matfuse {

/// base(idx...) as a lazy accel::slice when every subscript is ':', a real double scalar or a
/// real double vector of evenly spaced integers (an affine range), base is a real numeric
/// tensor that is lazy or large (see accel::capture_slice), and the selection has one start per
/// dimension of base: as many subscripts as dims (extra trailing subscripts equal to 1 are
/// allowed), or one subscript on a vector. Scalar subscripts become per-trace Params (role
/// LoopIndex). Returns nullopt otherwise (indexing by array data, logical masks, out-of-range
/// positions): the caller then runs the general (forcing) path, which also raises the errors.
std::optional<Value> affine_slice_read(const Value& base, std::span<const Value> idx);

}  // namespace matfuse
