// Index resolution shared by reads and assignments, and the generic gather used by both.
// See indexing.h for the MATLAB semantics and indexing_internal.h for the Sub model.
#include <cmath>
#include <cstring>
#include <optional>
#include <string>

#include "interp/indexing.h"
#include "interp/indexing_internal.h"

namespace matfuse {

int64_t end_index(const Dims& d, int k, int n) {
  if (n <= 1) return d.numel();
  if (k < n - 1) return d[k];
  int64_t p = 1;
  for (int j = k; j < d.ndims(); ++j) p *= d[j];
  return p;
}

namespace indexing_detail {

void throw_bad_index(int pos, int nsubs) {
  if (nsubs <= 1)
    throw_error("MATLAB:badsubscript", "Array indices must be positive integers or logical values.");
  throw_error("MATLAB:badsubscript",
              "Index in position %d is invalid. Array indices must be positive integers or "
              "logical values.",
              pos + 1);
}

void throw_out_of_range(int pos, int nsubs, int64_t limit) {
  if (nsubs <= 1)
    throw_error("MATLAB:badsubscript",
                "Index exceeds the number of array elements. Index must not exceed %lld.",
                static_cast<long long>(limit));
  throw_error("MATLAB:badsubscript",
              "Index in position %d exceeds array bounds. Index must not exceed %lld.", pos + 1,
              static_cast<long long>(limit));
}

Sub Sub::colon(int64_t extent) {
  Sub s;
  s.kind = Kind::Colon;
  s.count = extent;
  s.max1 = extent;
  s.start = 0;
  s.contiguous = true;
  s.shape = Dims(extent, 1);
  return s;
}

Sub Sub::from_list(std::vector<int64_t> positions, const Dims& shape) {
  Sub s;
  s.kind = Kind::List;
  s.count = static_cast<int64_t>(positions.size());
  s.shape = shape;
  s.contiguous = true;
  s.start = positions.empty() ? 0 : positions[0];
  int64_t mx = 0;
  for (int64_t i = 0; i < s.count; ++i) {
    int64_t p = positions[i];
    if (p + 1 > mx) mx = p + 1;
    if (p != s.start + i) s.contiguous = false;
  }
  s.max1 = mx;
  s.list = std::move(positions);
  return s;
}

namespace {

// 2^53: beyond this doubles no longer address distinct elements; larger indices are surely
// out of range anyway.
constexpr double kMaxIndex = 9007199254740992.0;

Sub scalar_sub(double d, int pos, int nsubs) {
  if (!(d >= 1) || d != std::floor(d)) throw_bad_index(pos, nsubs);
  if (d > kMaxIndex) d = kMaxIndex;
  Sub s;
  s.kind = Sub::Kind::Scalar;
  s.count = 1;
  s.start = static_cast<int64_t>(d) - 1;
  s.max1 = s.start + 1;
  s.contiguous = true;
  s.shape = Dims(1, 1);
  return s;
}

const char* kind_name(const Value& v) {
  switch (v.kind()) {
    case Value::Kind::Cell: return "cell";
    case Value::Kind::Struct: return "struct";
    case Value::Kind::String: return "string";
    case Value::Kind::Function: return "function_handle";
    default: return "object";
  }
}

}  // namespace

Sub make_sub(const Value& v, int64_t extent, int pos, int nsubs) {
  if (v.kind() == Value::Kind::Scalar) return scalar_sub(v.scalar(), pos, nsubs);
  if (!v.is_tensor())
    throw_error("MATLAB:badsubscript", "Unable to use a value of type %s as an index.",
                kind_name(v));
  Tensor t = v.tensor();
  const int64_t n = t.numel();
  if (t.cls() == ClassId::Char && n == 1 && t.data<char16_t>()[0] == u':')
    return Sub::colon(extent);
  if (t.cls() == ClassId::Logical) {
    const bool* m = t.data<bool>();
    std::vector<int64_t> pos_list;
    for (int64_t i = 0; i < n; ++i)
      if (m[i]) pos_list.push_back(i);
    const int64_t cnt = static_cast<int64_t>(pos_list.size());
    Dims shape = t.dims().is_row() ? Dims(1, cnt) : Dims(cnt, 1);
    Sub s = Sub::from_list(std::move(pos_list), shape);
    s.logical = true;
    return s;
  }
  if (n == 1) {
    Sub s = scalar_sub(t.get_double(0), pos, nsubs);
    return s;
  }
  std::vector<int64_t> list(static_cast<size_t>(n));
  auto check = [&](double d, int64_t i) {
    if (!(d >= 1) || d != std::floor(d)) throw_bad_index(pos, nsubs);
    if (d > kMaxIndex) d = kMaxIndex;
    list[i] = static_cast<int64_t>(d) - 1;
  };
  if (t.cls() == ClassId::Double && !t.is_complex()) {
    const double* p = t.data<double>();
    for (int64_t i = 0; i < n; ++i) check(p[i], i);
  } else {
    for (int64_t i = 0; i < n; ++i) check(t.get_double(i), i);
  }
  return Sub::from_list(std::move(list), t.dims());
}

std::vector<int64_t> folded_dims(const Dims& d, int n) {
  std::vector<int64_t> e(static_cast<size_t>(n), 1);
  if (n == 0) return e;  // no subscripts: nothing to fold into
  if (n == 1) {
    e[0] = d.numel();
    return e;
  }
  for (int k = 0; k < n - 1; ++k) e[k] = d[k];
  int64_t p = 1;
  for (int j = n - 1; j < d.ndims(); ++j) p *= d[j];
  e[n - 1] = p;
  return e;
}

Dims dims_from(std::span<const int64_t> e) {
  if (e.size() == 1) return Dims(e[0], 1);
  Dims d(e[0], e[1]);
  const int n = static_cast<int>(e.size());
  int last = n - 1;
  while (last >= 2 && e[last] == 1) --last;
  if (last >= Dims::kMaxDims)
    throw_error("matfuse:tooManyDims", "Arrays with more than %d dimensions are not supported.",
                Dims::kMaxDims);
  for (int k = 2; k <= last; ++k) d.set(k, e[k]);
  d.normalize();
  return d;
}

std::vector<int64_t> strides_from(std::span<const int64_t> e) {
  std::vector<int64_t> s(e.size());
  int64_t acc = 1;
  for (size_t k = 0; k < e.size(); ++k) {
    s[k] = acc;
    acc *= e[k];
  }
  return s;
}

bool maybe_on_device(const Value& v) {
  const Tensor* t = v.array_tensor();
  if (!t) return false;
  return t->is_lazy() || (!t->is_empty() && t->storage()->device() != nullptr);
}

std::vector<accel::IndexSub> device_subs(std::span<const Sub> subs) {
  std::vector<accel::IndexSub> out;
  out.reserve(subs.size());
  for (const Sub& s : subs) {
    accel::IndexSub d;
    d.count = s.count;
    if (s.kind == Sub::Kind::List && !s.contiguous)
      d.list = &s.list;
    else
      d.start = s.kind == Sub::Kind::Colon ? 0 : s.start;
    out.push_back(d);
  }
  return out;
}

Value gather(const Value& base, std::span<const int64_t> eff, std::span<const Sub> subs,
             const Dims& out) {
  if (out.numel() > 0 && maybe_on_device(base)) {
    const std::vector<accel::IndexSub> ds = device_subs(subs);
    if (std::optional<Tensor> r = accel::device_gather(base.tensor(), eff, ds, out))
      return Value(std::move(*r));
  }
  const std::vector<int64_t> st = strides_from(eff);
  switch (base.kind()) {
    case Value::Kind::Scalar:
    case Value::Kind::Array: {
      const Tensor t = base.tensor();
      Tensor r = Tensor::uninit(t.cls(), out, t.is_complex());
      if (r.numel() == 0) return Value(std::move(r));
      const char* src = static_cast<const char*>(t.raw());
      char* dst = static_cast<char*>(r.mutable_raw());
      dispatch_elem_bytes(t.elem_bytes(), [&](auto nb) {
        constexpr int B = decltype(nb)::value;
        for_each_run(subs, st, [&](int64_t bo, int64_t so, int64_t len) {
          if (len == 1)
            std::memcpy(dst + so * B, src + bo * B, B);
          else
            std::memcpy(dst + so * B, src + bo * B, static_cast<size_t>(len) * B);
        });
      });
      return Value(std::move(r));
    }
    case Value::Kind::Cell: {
      const CellArray& c = base.cell();
      CellArray r(out);
      if (r.numel() == 0) return Value(std::move(r));
      std::vector<Value>& dst = r.mutable_elems();
      const std::vector<Value>& src = c.elems();
      for_each_run(subs, st, [&](int64_t bo, int64_t so, int64_t len) {
        for (int64_t i = 0; i < len; ++i) dst[so + i] = src[bo + i];
      });
      return Value(std::move(r));
    }
    case Value::Kind::String: {
      const StringArray& s = base.string_array();
      StringArray r(out);
      for_each_run(subs, st, [&](int64_t bo, int64_t so, int64_t len) {
        for (int64_t i = 0; i < len; ++i) r.at(so + i) = s[bo + i];
      });
      return Value(std::move(r));
    }
    case Value::Kind::Struct: {
      const StructArray& s = base.struct_array();
      StructArray r(out);
      for (const std::string& f : s.fields()) r.add_field(f);
      const int nf = static_cast<int>(s.fields().size());
      if (nf == 0) return Value(std::move(r));
      for_each_run(subs, st, [&](int64_t bo, int64_t so, int64_t len) {
        for (int64_t i = 0; i < len; ++i)
          for (int f = 0; f < nf; ++f) r.at(so + i, f) = s.get(bo + i, f);
      });
      return Value(std::move(r));
    }
    case Value::Kind::Function:
    case Value::Kind::Object: {
      // A 1x1 handle: every valid selection is the value itself.
      if (out.numel() == 1) return base;
      throw_error("MATLAB:index:nonScalarHandle",
                  "Nonscalar arrays of function handles are not allowed; use cell arrays "
                  "instead.");
    }
  }
  return Value();
}

}  // namespace indexing_detail
}  // namespace matfuse
