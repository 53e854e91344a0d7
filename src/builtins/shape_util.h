// Element-rearranging helpers that work on every Value kind (numeric/char/logical arrays, cells,
// struct arrays, string arrays). Used by repmat, permute, reshape, squeeze and concatenation;
// other builtin families may reuse them.
#pragma once

#include <cstdint>
#include <vector>

#include "builtins/registry.h"
#include "runtime/value.h"

namespace matfuse {

/// A value of the same kind and class as v with dims `out`, whose element j is v's element
/// src[j] (linear, 0-based, column-major). src.size() must equal out.numel(). Function handles
/// and objects are accepted only as 1x1 -> 1x1 (MATLAB has no arrays of them).
Value gather_elements(const Value& v, const Dims& out, const std::vector<int64_t>& src);

/// v with new dims (same numel; MF_ASSERT otherwise); storage is shared, no copy.
Value reshape_value(const Value& v, const Dims& d);

/// Source index map of permute: out dims = in dims reordered by perm (0-based, a permutation of
/// 0..n-1, n >= in.ndims()).
std::vector<int64_t> permute_index(const Dims& in, const std::vector<int>& perm, Dims* out);

/// Registers reshape, permute, squeeze, size, numel, ndims, length and the is* shape predicates
/// (shape.cc; called from register_construct).
void register_shape(Registry& r);

}  // namespace matfuse
