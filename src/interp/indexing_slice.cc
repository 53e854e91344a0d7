// Affine slices of lazy or large arrays (see indexing_slice.h).
#include "interp/indexing_slice.h"

#include <cmath>
#include <vector>

#include "accel/capture/capture.h"

namespace matfuse {
namespace {

/// Subscript v over a dimension of `extent` as an affine SliceSub; false when v is not ':',
/// a real double scalar or an evenly spaced real double integer vector.
bool affine_sub(const Value& v, int64_t extent, accel::SliceSub& out) {
  if (v.kind() == Value::Kind::Scalar) {
    out = {v.scalar(), 1, 1, true};
    return true;
  }
  if (!v.is_tensor()) return false;
  const Tensor t = v.tensor();
  if (t.is_lazy() || t.is_complex()) return false;
  const int64_t n = t.numel();
  if (t.cls() == ClassId::Char) {
    if (n == 1 && t.data<char16_t>()[0] == u':') {
      out = {1, 1, extent, false};
      return true;
    }
    return false;
  }
  if (t.cls() != ClassId::Double || n < 1 || !t.dims().is_vector()) return false;
  const double* p = t.data<double>();
  if (!(p[0] >= 1) || p[0] != std::floor(p[0])) return false;
  const double step = n > 1 ? p[1] - p[0] : 1;
  if (step == 0 || step != std::floor(step) || std::fabs(step) > 9.0e15) return false;
  for (int64_t i = 1; i < n; ++i)
    if (p[i] != p[0] + static_cast<double>(i) * step) return false;
  out = {p[0], static_cast<int64_t>(step), n, false};
  return true;
}

bool is_colon_char(const Value& v) {
  if (v.kind() != Value::Kind::Array || v.cls() != ClassId::Char || v.numel() != 1) return false;
  return v.tensor().data<char16_t>()[0] == u':';
}

}  // namespace

std::optional<Value> affine_slice_read(const Value& base, std::span<const Value> idx) {
  if (base.kind() != Value::Kind::Array || !base.is_tensor() || idx.empty()) return std::nullopt;
  const Tensor x = base.tensor();
  if (!x.is_lazy() && x.numel() < accel::lazy_config().min_numel) return std::nullopt;
  const Dims& d = x.dims();
  const int nd = d.ndims();
  const int n = static_cast<int>(idx.size());
  std::vector<accel::SliceSub> subs(nd);
  if (n == 1 && is_colon_char(idx[0])) {
    // x(:) is every element as a column: the same storage (and residency) under new dims. A
    // pending value stays pending when it already is a column.
    if (x.is_lazy() && d.ndims() == 2 && d.cols() == 1 && d.rows() >= 2) {
      for (int k = 0; k < nd; ++k) subs[k] = {1, 1, d[k], false};
      if (std::optional<Tensor> r = accel::capture_slice(x, subs)) return Value(std::move(*r));
    }
    return Value(x.reshaped(Dims(x.numel(), 1)));
  }
  if (n == 1) {
    // Linear subscript on a vector: it runs along the one non-singleton dimension.
    if (!d.is_vector()) return std::nullopt;
    const int along = d.rows() != 1 ? 0 : 1;
    for (int k = 0; k < nd; ++k) subs[k] = {1, 1, 1, false};
    if (!affine_sub(idx[0], d[along], subs[along])) return std::nullopt;
    if (idx[0].kind() == Value::Kind::Scalar) return std::nullopt;  // one element
  } else {
    if (n < nd) return std::nullopt;  // folded trailing dimensions
    for (int k = 0; k < n; ++k) {
      accel::SliceSub s;
      if (!affine_sub(idx[k], k < nd ? d[k] : 1, s)) return std::nullopt;
      if (k < nd) {
        subs[k] = s;
      } else if (s.start != 1 || s.count != 1) {
        return std::nullopt;  // out of range: the general path raises the error
      }
    }
  }
  std::optional<Tensor> r = accel::capture_slice(x, subs);
  if (!r) return std::nullopt;
  return Value(std::move(*r));
}

}  // namespace matfuse
