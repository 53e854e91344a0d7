// Internal helpers shared by indexing.cc, indexing_read.cc and indexing_assign.cc.
//
// A subscript argument is resolved into a Sub: the list of selected 0-based positions along one
// (possibly folded) dimension. The "effective dims" E of an n-subscript access are the base dims
// folded to n entries (the last entry is the product of the remaining dims; entries past ndims
// are 1). Element (i0, i1, ...) of the selection lives at linear offset sum(sub_k.at(i_k) *
// stride_k) of the base, where stride_k are the column-major strides of E.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "accel/run/indexing.h"
#include "runtime/value.h"

namespace matfuse::indexing_detail {

struct Sub {
  enum class Kind : uint8_t { Colon, Scalar, List };
  Kind kind = Kind::Colon;
  int64_t count = 0;        ///< number of selected positions
  int64_t max1 = 0;         ///< largest selected position + 1 (0 when none)
  int64_t start = 0;        ///< first position when contiguous
  bool contiguous = true;   ///< positions are start, start+1, ..., start+count-1
  bool logical = false;     ///< came from a logical mask
  Dims shape;               ///< shape of the index argument (linear-index result rules)
  std::vector<int64_t> list;  ///< 0-based positions (Kind::List)

  int64_t at(int64_t i) const {
    return kind == Kind::List ? list[i] : kind == Kind::Scalar ? start : i;
  }
  bool is_colon() const { return kind == Kind::Colon; }
  static Sub colon(int64_t extent);
  static Sub from_list(std::vector<int64_t> positions, const Dims& shape);
};

/// Resolves index argument `v` (':' char, logical mask, positive integer-valued numeric array)
/// for a dimension of size `extent` (only used by ':'). pos/nsubs select the error wording.
/// Throws MATLAB:badsubscript for zero, negative, fractional, NaN or non-numeric indices.
Sub make_sub(const Value& v, int64_t extent, int pos, int nsubs);

/// Base dims folded to n >= 1 entries.
std::vector<int64_t> folded_dims(const Dims& d, int n);
/// Dims from a vector of extents (normalised).
Dims dims_from(std::span<const int64_t> e);
/// Column-major strides of the extents e.
std::vector<int64_t> strides_from(std::span<const int64_t> e);

[[noreturn]] void throw_bad_index(int pos, int nsubs);
[[noreturn]] void throw_out_of_range(int pos, int nsubs, int64_t limit);

/// Calls f(base_offset, selection_offset, run_length) for every run of consecutive selected
/// elements (runs are longer than 1 only when subs[0] is contiguous). Selection offsets follow
/// column-major order of the selection.
template <class F>
void for_each_run(std::span<const Sub> subs, std::span<const int64_t> strides, F&& f) {
  const int n = static_cast<int>(subs.size());
  for (const Sub& s : subs)
    if (s.count == 0) return;
  const Sub& s0 = subs[0];
  int64_t sel = 0;
  auto runs_at = [&](int64_t off) {
    if (s0.contiguous) {
      f(off + s0.start, sel, s0.count);
      sel += s0.count;
    } else {
      for (int64_t i = 0; i < s0.count; ++i) f(off + s0.list[i], sel++, int64_t{1});
    }
  };
  if (n == 1) {
    runs_at(0);
    return;
  }
  // Dimension 1 in a tight loop over the offset of dimensions 2.. (an odometer): A(k, :) and
  // A(b, rows, :) are runs of one element each.
  const Sub& s1 = subs[1];
  const int64_t st1 = strides[1];
  std::vector<int64_t> ctr(n, 0);
  for (;;) {
    int64_t rest = 0;
    for (int k = 2; k < n; ++k) rest += subs[k].at(ctr[k]) * strides[k];
    if (s1.kind == Sub::Kind::List) {
      for (int64_t j = 0; j < s1.count; ++j) runs_at(rest + s1.list[j] * st1);
    } else {
      for (int64_t j = 0; j < s1.count; ++j) runs_at(rest + s1.at(j) * st1);
    }
    int k = 2;
    while (k < n) {
      if (++ctr[k] < subs[k].count) break;
      ctr[k] = 0;
      ++k;
    }
    if (k >= n) break;
  }
}

/// Whether v is a numeric/logical/char array that may be served by the device's indexing calls:
/// pending (lazy) or holding a device copy (cheap; never forces).
bool maybe_on_device(const Value& v);
/// The subscripts in the device layer's form (accel/run/indexing.h); views into subs.
std::vector<accel::IndexSub> device_subs(std::span<const Sub> subs);

/// Gathers the selection of base (any array kind) into a new Value of dims `out`
/// (out.numel() must equal the selection count). A device-resident array is gathered on the
/// device (accel::device_gather): the result stays there.
Value gather(const Value& base, std::span<const int64_t> eff, std::span<const Sub> subs,
             const Dims& out);

/// Calls f with std::integral_constant<int, bytes> for element sizes 1, 2, 4, 8, 16.
template <class F>
void dispatch_elem_bytes(int bytes, F&& f) {
  switch (bytes) {
    case 1: f(std::integral_constant<int, 1>{}); break;
    case 2: f(std::integral_constant<int, 2>{}); break;
    case 4: f(std::integral_constant<int, 4>{}); break;
    case 8: f(std::integral_constant<int, 8>{}); break;
    default: f(std::integral_constant<int, 16>{}); break;
  }
}

}  // namespace matfuse::indexing_detail
