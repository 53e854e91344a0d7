// Reductions (sum prod mean min max any all cumsum) as C++ entry points (norm: builtins/norm.h).
//
// Semantics contract (MATLAB):
// - `dims` are 0-based dimension indices, sorted or not, duplicates not allowed; a dimension past
//   ndims() is a singleton (reducing over it changes only the class). The reduced dimensions
//   become 1 in the result (for min/max a reduced dimension of length 0 stays 0, so
//   max(zeros(0,3)) is 0x3 like GNU Octave).
// - Classes: sum/prod/cumsum keep double and single and give double for integer, logical and
//   char inputs (MATLAB's 'default' outtype); OutType::Double forces double, OutType::Native
//   keeps the input class (integers saturate). mean gives double for integer/logical/char unless
//   Native. min/max keep the class (char gives double). any/all give logical.
// - NaN: sum/prod/mean/cumsum include NaN unless NanFlag::Omit; min/max omit NaN unless
//   NanFlag::Include (an all-NaN slice gives NaN with the index of its first NaN); any ignores
//   NaN, all counts NaN as nonzero.
// - Complex results whose imaginary parts are all zero become real (Tensor::drop_zero_imag).
//
// Summation order (deterministic, documented for the device provider): sums are accumulated in
// the result's floating type (single sums in float, everything else in double; integers are
// summed in double and saturated once at the end). Along a contiguous slice (reducing the first
// non-singleton storage dimension) the slice is summed pairwise: blocks of at most 128
// elements are summed left to right, and a longer range [0,n) is split at n/2 and its halves'
// sums added. Along a strided dimension every output lane follows the same pairwise order
// (rows blocked and split identically), so results do not depend on the memory layout.
// prod and cumsum always run left to right (cumsum 'reverse' right to left).
#pragma once

#include <vector>

#include "runtime/tensor.h"
#include "runtime/value.h"

namespace matfuse {

enum class NanFlag : uint8_t { Include, Omit };
enum class OutType : uint8_t { Default, Double, Native };
/// max/min 'ComparisonMethod': Auto orders real values by value and complex values by abs,
/// then angle; Abs orders every value by abs, then angle (a negative real has angle pi);
/// Real orders by real part, then imaginary part.
enum class MinMaxCompare : uint8_t { Auto, Abs, Real };

/// 0-based index of the first dimension whose size is not 1 (0 when every dimension is 1).
int first_nonsingleton_dim(const Dims& d);

/// sum over the dimensions `dims` (0-based). See the contract above.
Tensor sum_dims(const Tensor& x, const std::vector<int>& dims, OutType out = OutType::Default,
                NanFlag nan = NanFlag::Include);
/// sum along one 0-based dimension.
Tensor sum_dim(const Tensor& x, int dim, OutType out = OutType::Default,
               NanFlag nan = NanFlag::Include);
Tensor prod_dims(const Tensor& x, const std::vector<int>& dims, OutType out = OutType::Default,
                 NanFlag nan = NanFlag::Include);
/// mean; an empty slice gives NaN (mean([]) is NaN, mean(zeros(0,3)) is NaN(1,3)).
Tensor mean_dims(const Tensor& x, const std::vector<int>& dims, OutType out = OutType::Default,
                 NanFlag nan = NanFlag::Include);
/// min (is_max false) or max over dims. When index is non-null it receives the 1-based
/// position (double) of the first extreme element within each reduced slice (with several
/// reduced dimensions: the linear position within the slice). Complex values compare by
/// abs, then by angle, unless cmp says otherwise.
Tensor minmax_dims(const Tensor& x, const std::vector<int>& dims, bool is_max,
                   NanFlag nan = NanFlag::Omit, Tensor* index = nullptr,
                   MinMaxCompare cmp = MinMaxCompare::Auto);
/// any / all over dims; logical result.
Tensor any_dims(const Tensor& x, const std::vector<int>& dims);
Tensor all_dims(const Tensor& x, const std::vector<int>& dims);
/// Cumulative sum along a 0-based dimension; same dims as x; class as for sum.
Tensor cumsum_dim(const Tensor& x, int dim, bool reverse = false,
                  NanFlag nan = NanFlag::Include);
/// max(a, b) / min(a, b) with implicit expansion (MATLAB:sizeDimensionsMustMatch), NaN
/// ignored unless NanFlag::Include. Class: class_of_binary, except logical with logical stays
/// logical and char gives double.
/// cmp as for minmax_dims (of two equal values under cmp, a is kept).
Tensor minmax_binary(const Tensor& a, const Tensor& b, bool is_max, NanFlag nan = NanFlag::Omit,
                     MinMaxCompare cmp = MinMaxCompare::Auto);

/// sum(x) with MATLAB's default dimension (sum([]) is 0), for callers holding a Value.
Value reduce_sum(const Value& x);

}  // namespace matfuse
