// Fast sorting kernels for real numeric arrays (sort, unique, ismember, mode, median helpers).
//
// sort_lane sorts one lane of a real array of any MATLAB numeric class (double, single,
// logical, char, int8 ... uint64) with MATLAB's order: stable (equal values keep their original
// order, also with 'descend'), -0 equal to 0, NaN placed first or last in its original order.
// It is an LSD radix sort on order-preserving unsigned keys (floating-point keys flip every bit
// of negative numbers and the sign bit of the others: M. Herf, "Radix Tricks", 2001;
// P. Terdiman, "Radix Sort Revisited", 2000), 11-bit digits, one histogram pass for all digits,
// and digit passes skipped where every key shares the digit. Short lanes use std::stable_sort.
#pragma once

#include <cstdint>

#include "runtime/tensor.h"

namespace matfuse::data::fast {

/// Sorts the n elements x[0], x[stride], ... x[(n-1)*stride] of element type T.
/// out (may be null): n sorted values, contiguous. idx (may be null): the 0-based lane positions
/// of the sorted values (stable). descend: largest first. nan_first: NaNs before the numbers
/// (MATLAB: 'descend' or 'MissingPlacement','first'), else after. Integer types have no NaN.
template <class T>
void sort_lane(const T* x, int64_t n, int64_t stride, bool descend, bool nan_first, T* out,
               int64_t* idx);

/// True for classes sort_lane handles (every real numeric, logical and char class).
inline bool fast_sortable(const Tensor& t) { return !t.is_complex() && !t.is_lazy(); }

}  // namespace matfuse::data::fast
