// Internal to the reduce family: the (pre, n, post) view of a reduction.
//
// A reduction over a set of dimensions is run on a 3-d view of the data: `pre` contiguous
// lanes, `n` reduced positions (stride `pre`) and `post` independent blocks. When the reduced
// dimensions are not adjacent in memory the input is first permuted so that they are.
#pragma once

#include <vector>

#include "runtime/tensor.h"

namespace matfuse::reduce_detail {

struct Layout {
  Tensor src;       ///< input, possibly permuted
  int64_t pre = 1;  ///< stride of the reduced axis, number of lanes per block
  int64_t n = 1;    ///< reduced length
  int64_t post = 1; ///< number of blocks
  Dims out;         ///< result dims (reduced dims set to 1)
};

/// dims (0-based, any order) sorted ascending; raises MATLAB:getdimarg:invalidDim for a negative
/// one and MATLAB:getdimarg:vecdimsMustBeUniquePositiveIntegers for duplicates. Shared by the
/// eager reductions and the acceleration graph, so both raise the same errors.
std::vector<int> sorted_reduce_dims(const std::vector<int>& dims);

/// Builds the layout; dims are 0-based, any order, may exceed ndims.
/// Throws MATLAB:getdimarg:vecdimsMustBeUniquePositiveIntegers on duplicates.
Layout make_layout(const Tensor& x, const std::vector<int>& dims);

/// Generic N-d permutation (order[k] = source dimension of result dimension k).
Tensor permute_tensor(const Tensor& x, const std::vector<int>& order);

inline bool is_nan_v(double v) { return v != v; }
inline bool is_nan_v(float v) { return v != v; }
template <class T> bool is_nan_v(const std::complex<T>& v) {
  return v.real() != v.real() || v.imag() != v.imag();
}

/// Accumulation class of sum/prod/cumsum for input class c and outtype.
ClassId sum_result_class(ClassId c, int outtype /*OutType*/);

}  // namespace matfuse::reduce_detail
