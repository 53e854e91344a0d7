// Indexed reads: base(idx...), base{idx...}, base.name (MATLAB subsref).
#include <cstring>
#include <optional>
#include <string>

#include "interp/indexing.h"
#include "runtime/sparse.h"
#include "interp/indexing_internal.h"
#include "runtime/element_array.h"
#include "runtime/value_object.h"
#include "accel/capture/lazy.h"
#include "accel/run/indexing.h"
#include "builtins/gpu.h"
#include "interp/indexing_slice.h"

namespace matfuse {

using indexing_detail::Sub;

namespace {

/// Result dims of a one-subscript read A(idx): A(:) is a column; a vector indexed by a vector
/// keeps A's orientation; otherwise the result has the index's shape.
Dims linear_result_dims(const Dims& a, const Sub& s) {
  if (s.is_colon()) return Dims(s.count, 1);
  if (a.is_vector() && !a.is_scalar() && s.shape.is_vector())
    return a.is_row() ? Dims(1, s.count) : Dims(s.count, 1);
  return s.shape;
}

/// Element off of a tensor value as a 1x1 Value (fast path: no index vectors).
Value tensor_element(const Value& base, int64_t off) {
  if (base.kind() == Value::Kind::Scalar) return base;
  const Tensor t = base.tensor();
  if (t.cls() == ClassId::Double && !t.is_complex()) return Value(t.data<double>()[off]);
  Tensor r = Tensor::uninit(t.cls(), Dims::scalar(), t.is_complex());
  const int eb = t.elem_bytes();
  std::memcpy(r.mutable_raw(), static_cast<const char*>(t.raw()) + off * eb, eb);
  return Value(std::move(r));
}

/// Element `off` of a device-only array of at least kDeviceElementBytes, read on the device
/// (accel::device_gather of that element; one small download) for its first
/// kDeviceElementReads element reads in a row: reading s(k) of a sorted 400 MB array then moves
/// 8 bytes, not the array. Later reads of the same array in a row (an element loop) return
/// nullopt, so the array is gathered once and read on the host.
std::optional<Value> device_element(const Value& base, int64_t off) {
  constexpr int64_t kDeviceElementBytes = 1 << 24;
  constexpr int kDeviceElementReads = 16;
  const Tensor* bt = base.array_tensor();
  if (!bt) return std::nullopt;
  // A lazy base already forced reads its stored value; a pending one is left to the graph.
  const Tensor v = accel::settled_value(*bt);
  const Tensor* t = &v;
  if (!t->device_only() || t->numel() * t->elem_bytes() < kDeviceElementBytes)
    return std::nullopt;
  thread_local const void* last = nullptr;
  thread_local int reads = 0;
  const void* id = t->storage().get();
  reads = id == last ? reads + 1 : 1;
  last = id;
  if (reads > kDeviceElementReads) return std::nullopt;
  const int64_t eff[1] = {t->numel()};
  const accel::IndexSub sub{1, off, nullptr};
  std::optional<Tensor> r = accel::device_gather(*t, eff, std::span<const accel::IndexSub>(&sub, 1),
                                                 Dims::scalar());
  if (!r) return std::nullopt;
  return tensor_element(Value(std::move(*r)), 0);
}

/// Linear offset when every index is a real double scalar within bounds; -1 otherwise
/// (the general path then reports errors with MATLAB's wording).
int64_t scalar_offset(const Dims& d, std::span<const Value> idx) {
  const int n = static_cast<int>(idx.size());
  int64_t off = 0, stride = 1;
  for (int k = 0; k < n; ++k) {
    if (idx[k].kind() != Value::Kind::Scalar) return -1;
    const double v = idx[k].scalar();
    const int64_t ext = end_index(d, k, n);
    if (!(v >= 1) || v > static_cast<double>(ext)) return -1;
    const int64_t i = static_cast<int64_t>(v);
    if (static_cast<double>(i) != v) return -1;
    off += (i - 1) * stride;
    stride *= ext;
  }
  return off;
}

/// A(mask) with a logical mask of A's element count: one compaction pass, no index list.
/// Returns nullopt when the general path must run (other index kinds or counts).
template <int B>
struct Bytes {
  unsigned char b[B];
};

template <int B>
void compact(const void* src, const bool* m, int64_t n, void* dst) {
  const auto* s = static_cast<const Bytes<B>*>(src);
  auto* d = static_cast<Bytes<B>*>(dst);
  int64_t j = 0;
  for (int64_t i = 0; i < n; ++i) {
    d[j] = s[i];  // written unconditionally, kept only where m[i] (dst has room: j < count)
    j += m[i];
  }
}

/// Dims of A(mask) with cnt selected elements: the mask's orientation, or A's for a vector A.
Dims mask_result_dims(const Dims& a, const Dims& mask, int64_t cnt) {
  Dims shape = mask.is_row() ? Dims(1, cnt) : Dims(cnt, 1);
  if (a.is_vector() && !a.is_scalar() && shape.is_vector())
    shape = a.is_row() ? Dims(1, cnt) : Dims(cnt, 1);
  return shape;
}

std::optional<Value> mask_read(const Value& base, const Value& idx) {
  if (!base.is_tensor() || !idx.is_tensor() || idx.kind() == Value::Kind::Scalar) return {};
  if (idx.cls() != ClassId::Logical || idx.numel() != base.numel()) return {};
  const Tensor mt = idx.tensor();
  const Tensor t = base.tensor();
  if (indexing_detail::maybe_on_device(base)) {
    // Stream compaction on the device: neither the array nor the mask comes to the host.
    if (std::optional<Tensor> r = accel::device_mask_read(t, mt)) {
      const int64_t cnt = r->numel();
      return Value(r->reshaped(mask_result_dims(t.dims(), mt.dims(), cnt)));
    }
  }
  if (base.numel() < 64) return {};
  const bool* m = mt.data<bool>();
  const int64_t n = t.numel();
  int64_t cnt = 0;
  for (int64_t i = 0; i < n; ++i) cnt += m[i];
  const Dims shape = mask_result_dims(t.dims(), mt.dims(), cnt);
  Tensor r = Tensor::uninit(t.cls(), shape, t.is_complex());
  if (cnt == 0) return Value(std::move(r));
  // The last selected element bounds the unconditional writes: stop there.
  int64_t end = n;
  while (!m[end - 1]) --end;
  void* dst = r.mutable_raw();
  switch (t.elem_bytes()) {
    case 1:
      compact<1>(t.raw(), m, end, dst);
      break;
    case 2:
      compact<2>(t.raw(), m, end, dst);
      break;
    case 4:
      compact<4>(t.raw(), m, end, dst);
      break;
    case 8:
      compact<8>(t.raw(), m, end, dst);
      break;
    case 16:
      compact<16>(t.raw(), m, end, dst);
      break;
    default:
      return {};
  }
  return Value(std::move(r));
}

}  // namespace

static Value index_paren_host(const Value& base, std::span<const Value> idx) {
  accel::SinkScope sink(accel::SinkReason::IndexByData);
  using namespace indexing_detail;
  const int n = static_cast<int>(idx.size());
  if (n == 0) return base;
  if (ElementArrayObject* e = as_element_array(base)) {
    // Subscripts the element numbers, then gathers (runtime/element_array.h).
    Value pos = index_paren_host(Value(element_numbers(base.dims())), idx);
    return e->gather(pos.tensor(), nullptr);
  }
  if (IndexableObject* o = as_indexable(base)) {
    Value r;
    if (o->paren_read(idx, r)) return r;
  }
  const Dims d = base.dims();
  // The first element reads of a large device-only array move that element only (before the
  // graph takes a one-element slice of it, which a host group would compute from a gather).
  const int64_t off = base.is_tensor() ? scalar_offset(d, idx) : -1;
  if (off >= 0)
    if (std::optional<Value> r = device_element(base, off)) return std::move(*r);
  if (base.is_tensor()) {
    // Affine slices of lazy or large arrays stay in the graph (no forcing).
    if (std::optional<Value> r = affine_slice_read(base, idx)) return std::move(*r);
  }
  // One element: the host path (a device-only array is gathered once and then read on the
  // host, so a loop of element reads does not synchronise per element).
  if (off >= 0) return tensor_element(base, off);
  if (n == 1) {
    if (std::optional<Value> r = mask_read(base, idx[0])) return std::move(*r);
    const int64_t numel = d.numel();
    Sub s = make_sub(idx[0], numel, 0, 1);
    if (s.max1 > numel) throw_out_of_range(0, 1, numel);
    const int64_t eff[1] = {numel};
    const Dims out = linear_result_dims(d, s);
    return gather(base, eff, std::span<const Sub>(&s, 1), out);
  }
  const std::vector<int64_t> eff = folded_dims(d, n);
  std::vector<Sub> subs;
  subs.reserve(n);
  std::vector<int64_t> counts(n);
  for (int k = 0; k < n; ++k) {
    subs.push_back(make_sub(idx[k], eff[k], k, n));
    if (subs[k].max1 > eff[k]) throw_out_of_range(k, n, eff[k]);
    counts[k] = subs[k].count;
  }
  return gather(base, eff, subs, dims_from(counts));
}

// Indexing a gpuArray gives a gpuArray (the base keeps its flag so capture prefers the device).
Value index_paren(const Value& base, std::span<const Value> idx) {
  if (any_sparse(idx)) [[unlikely]] {
    // Sparse subscripts (a sparse logical mask, S(k) values) index as their full arrays.
    const std::vector<Value> full = densify_all(idx);
    return index_paren(base, full);
  }
  if (base.is_gpu_array()) [[unlikely]] return mark_gpu(index_paren_host(base, idx));
  return index_paren_host(base, idx);
}

std::vector<Value> index_brace(const Value& base, std::span<const Value> idx) {
  accel::SinkScope sink(accel::SinkReason::IndexByData);
  if (base.is_cell()) {
    if (idx.size() == 1 && idx[0].kind() == Value::Kind::Scalar) {
      const double v = idx[0].scalar();
      const CellArray& c = base.cell();
      if (v >= 1 && v <= static_cast<double>(c.numel()) && v == static_cast<double>(int64_t(v)))
        return {c[static_cast<int64_t>(v) - 1]};
    }
    Value sel = index_paren(base, idx);
    return sel.cell().elems();
  }
  if (base.is_string()) {
    Value sel = index_paren(base, idx);
    const StringArray& s = sel.string_array();
    std::vector<Value> out;
    out.reserve(s.numel());
    for (int64_t i = 0; i < s.numel(); ++i) {
      if (!s[i])
        throw_error("MATLAB:string:MissingToCharConversion",
                    "Conversion from <missing> to character vector is not supported.");
      out.push_back(Value::from_chars(*s[i]));
    }
    return out;
  }
  if (ValueObject* o = as_value_object(base)) {
    std::vector<Value> out;
    if (o->brace_read(idx, out)) return out;
  }
  throw_error("MATLAB:cellRefFromNonCell",
              "Brace indexing is not supported for variables of this type.");
}

std::vector<Value> get_field(const Value& base, std::string_view name) {
  if (IndexableObject* o = as_indexable(base)) {
    Value r;
    if (o->get_property(name, r)) return {r};
  }
  if (!base.is_struct())
    throw_error("MATLAB:structRefFromNonStruct",
                "Dot indexing is not supported for variables of this type.");
  const StructArray& s = base.struct_array();
  const int f = s.field_index(name);
  if (f < 0)
    throw_error("MATLAB:nonExistentField", "Unrecognized field name \"%.*s\".",
                static_cast<int>(name.size()), name.data());
  std::vector<Value> out;
  out.reserve(s.numel());
  for (int64_t i = 0; i < s.numel(); ++i) out.push_back(s.get(i, f));
  return out;
}

}  // namespace matfuse
