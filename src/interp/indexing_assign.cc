// Indexed assignment: base(idx...) = rhs, base{idx...} = rhs, base.name = rhs, deletion
// (MATLAB subsasgn). Writes mutate the base's storage in place when it is not shared (the base
// Value is released before the write so copy-on-write does not clone).
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <optional>
#include <string>
#include <type_traits>

#include "interp/indexing.h"
#include "interp/indexing_internal.h"
#include "runtime/missing.h"
#include "runtime/sparse.h"
#include "runtime/object_index.h"
#include "runtime/element_array.h"
#include "runtime/value_object.h"
#include "accel/capture/lazy.h"
#include "builtins/gpu.h"

namespace matfuse {

using namespace indexing_detail;

namespace {

/// What an indexed assignment touches: the resolved subscripts over the (grown) base.
struct Plan {
  std::vector<Sub> subs;
  std::vector<int64_t> eff;  ///< effective dims of the grown base
  Dims new_dims;             ///< base dims after growth
  int64_t count = 0;         ///< number of assigned elements
};

[[noreturn]] void throw_ambiguous_growth() {
  throw_error("MATLAB:indexed_matrix_cannot_be_resized",
              "Attempt to grow array along ambiguous dimension.");
}

std::string by_string(std::span<const int64_t> e) {
  std::string s;
  for (size_t k = 0; k < e.size(); ++k) {
    if (k) s += "-by-";
    s += std::to_string(e[k]);
  }
  return s;
}

/// MATLAB's subscripted-assignment shape rule: the non-singleton extents of the selection
/// must equal the non-singleton extents of the right-hand side, in order.
bool shape_matches(std::span<const int64_t> counts, const Dims& rd) {
  size_t j = 0;
  std::vector<int64_t> r;
  for (int64_t v : rd)
    if (v != 1) r.push_back(v);
  for (int64_t c : counts) {
    if (c == 1) continue;
    if (j >= r.size() || r[j] != c) return false;
    ++j;
  }
  return j == r.size();
}

/// Resolves the subscripts of an assignment into a base of dims bd with a right-hand side of
/// dims rd, deciding growth. Throws MATLAB's errors for bad indices, ambiguous growth and
/// left/right size mismatches.
Plan plan_assign(const Dims& bd, std::span<const Value> idx, const Dims& rd) {
  const int n = static_cast<int>(idx.size());
  // A() = B and c{} = B (no subscripts) assign nothing: an error, as for A() = B in every form
  // (the folding below has no last dimension for them).
  if (n == 0)
    throw_error("MATLAB:badsubscript", "Array indices must be positive integers or logical values.");
  const bool rscalar = rd.numel() == 1;
  Plan p;
  if (n == 1) {
    const int64_t numel = bd.numel();
    Sub s = make_sub(idx[0], numel, 0, 1);
    Dims nd = bd;
    if (s.is_colon() && numel == 0 && !rscalar) {
      s = Sub::colon(rd.numel());  // A(:) = B on an empty A takes B's shape
      nd = rd;
    } else if (s.max1 > numel) {
      if (bd.ndims() == 2 && (bd.rows() == 1 || (bd.rows() == 0 && bd.cols() == 0)))
        nd = Dims(1, s.max1);
      else if (bd.ndims() == 2 && bd.cols() == 1)
        nd = Dims(s.max1, 1);
      else if (numel == 0)
        nd = Dims(1, s.max1);
      else
        throw_ambiguous_growth();
    }
    if (!rscalar && rd.numel() != s.count)
      throw_error("MATLAB:subsassignnumelmismatch",
                  "Unable to perform assignment because the left and right sides have a "
                  "different number of elements.");
    p.count = s.count;
    p.eff = {nd.numel()};
    p.new_dims = nd;
    p.subs.push_back(std::move(s));
    return p;
  }
  const std::vector<int64_t> e0 = folded_dims(bd, n);
  const bool empty_base = bd.numel() == 0;
  std::vector<int> free_colons;
  p.subs.reserve(n);
  for (int k = 0; k < n; ++k) {
    Sub s = make_sub(idx[k], e0[k], k, n);
    if (s.is_colon() && e0[k] == 0 && empty_base) {
      if (rscalar)
        s = Sub::colon(1);
      else
        free_colons.push_back(k);
    }
    p.subs.push_back(std::move(s));
  }
  std::vector<int64_t> counts(n);
  auto fill_counts = [&] {
    for (int k = 0; k < n; ++k) counts[k] = p.subs[k].count;
  };
  if (!free_colons.empty()) {
    // An empty base with ':' takes those extents from the right-hand side: first position by
    // position, else the right side's non-singleton extents in order.
    for (int k : free_colons) p.subs[k] = Sub::colon(rd[k]);
    fill_counts();
    if (!shape_matches(counts, rd)) {
      std::vector<int64_t> r;
      for (int64_t v : rd)
        if (v != 1) r.push_back(v);
      size_t j = 0;
      for (int k = 0; k < n; ++k) {
        const bool is_free =
            std::find(free_colons.begin(), free_colons.end(), k) != free_colons.end();
        if (is_free)
          p.subs[k] = Sub::colon(j < r.size() ? r[j++] : 1);
        else if (p.subs[k].count != 1)
          ++j;
      }
    }
  }
  fill_counts();
  if (!rscalar && !shape_matches(counts, rd)) {
    std::vector<int64_t> rv(rd.begin(), rd.end());
    throw_error("MATLAB:subsassigndimmismatch",
                "Unable to perform assignment because the size of the left side is %s and the "
                "size of the right side is %s.",
                by_string(counts).c_str(), by_string(rv).c_str());
  }
  std::vector<int64_t> ne = e0;
  for (int k = 0; k < n; ++k) ne[k] = std::max(e0[k], p.subs[k].max1);
  Dims nd;
  if (n < bd.ndims()) {
    if (ne[n - 1] > e0[n - 1]) throw_ambiguous_growth();
    nd = bd;
    for (int k = 0; k < n - 1; ++k) nd.set(k, ne[k]);
  } else {
    nd = dims_from(ne);
  }
  p.count = 1;
  for (int64_t c : counts) p.count *= c;
  p.eff = std::move(ne);
  p.new_dims = nd;
  return p;
}

/// Calls f(new_offset, old_offset, len) for the runs that carry an array of dims od into the
/// same subscripts of a grown array of dims nd (nd >= od in every dimension).
template <class F>
void for_each_kept_run(const Dims& od, const Dims& nd, F&& f) {
  const int m = std::max(od.ndims(), nd.ndims());
  std::vector<int64_t> eff(m);
  std::vector<Sub> subs;
  subs.reserve(m);
  for (int k = 0; k < m; ++k) {
    eff[k] = nd[k];
    subs.push_back(Sub::colon(od[k]));
  }
  const std::vector<int64_t> st = strides_from(eff);
  for_each_run(subs, st, f);
}

/// Growth that keeps every element at its linear position (vector appends, new last pages).
bool keeps_linear_positions(const Dims& od, const Dims& nd) {
  if (od.numel() == 0) return true;
  const int m = std::max(od.ndims(), nd.ndims());
  int top = -1;
  for (int k = 0; k < m; ++k)
    if (od[k] != nd[k]) top = k;
  for (int k = 0; k < m; ++k) {
    if (k == top) continue;
    if (od[k] != nd[k]) return false;
    if (k > top && od[k] != 1) return false;
  }
  return true;
}

/// Appending growth in place when Tensor offers it. Tensor has no capacity today, so each
/// append copies (quadratic for x(end+1) = v loops); once tensor.h gains
/// `void grow_linear(const Dims&)` (keep linear positions, zero-fill, geometric capacity) this
/// picks it up without further changes.
template <class T>
bool try_grow_linear(T& t, const Dims& nd) {
  if constexpr (requires { t.grow_linear(nd); }) {
    t.grow_linear(nd);
    return true;
  } else {
    return false;
  }
}

Tensor grow_tensor(Tensor t, const Dims& nd) {
  if (keeps_linear_positions(t.dims(), nd) && try_grow_linear(t, nd)) return t;
  Tensor r = Tensor::uninit(t.cls(), nd, t.is_complex());
  const int eb = t.elem_bytes();
  char* dst = static_cast<char*>(r.mutable_raw());
  const char* src = static_cast<const char*>(t.raw());
  const size_t total = static_cast<size_t>(r.numel()) * eb;
  if (keeps_linear_positions(t.dims(), nd)) {
    const size_t old = static_cast<size_t>(t.numel()) * eb;
    if (old) std::memcpy(dst, src, old);
    std::memset(dst + old, 0, total - old);
    return r;
  }
  std::memset(dst, 0, total);
  for_each_kept_run(t.dims(), nd, [&](int64_t no, int64_t oo, int64_t len) {
    std::memcpy(dst + no * eb, src + oo * eb, static_cast<size_t>(len) * eb);
  });
  return r;
}

/// base(mask) = scalar for a real base and a logical mask of its size: one pass that keeps or
/// replaces each element (no position list). False when the form does not apply.
bool try_mask_fill(Value& base, std::span<const Value> idx, const Tensor& rhs) {
  if (idx.size() != 1 || rhs.numel() != 1 || rhs.is_complex()) return false;
  const Value& i0 = idx[0];
  if (i0.kind() != Value::Kind::Array || i0.cls() != ClassId::Logical) return false;
  if (i0.numel() != base.numel() || base.kind() != Value::Kind::Array) return false;
  Tensor t = base.tensor();
  if (t.is_complex()) return false;
  const Tensor rc = rhs.cls() == t.cls() ? rhs : rhs.to_class(t.cls());
  const Tensor mt = i0.tensor();
  const bool* m = mt.data<bool>();
  const int64_t n = t.numel();
  base = Value();  // release the base's reference: the write stays in place when unshared
  char* dst = static_cast<char*>(t.mutable_raw());
  dispatch_elem_bytes(t.elem_bytes(), [&](auto nb) {
    constexpr int B = decltype(nb)::value;
    if constexpr (B == 1 || B == 2 || B == 4 || B == 8) {
      using U4 = std::conditional_t<B == 4, uint32_t, uint64_t>;
      using U = std::conditional_t<B == 1, uint8_t, std::conditional_t<B == 2, uint16_t, U4>>;
      U v;
      std::memcpy(&v, rc.raw(), B);
      U* d = reinterpret_cast<U*>(dst);
      for (int64_t i = 0; i < n; ++i) d[i] = m[i] ? v : d[i];
    } else {
      for (int64_t i = 0; i < n; ++i)
        if (m[i]) std::memcpy(dst + i * B, rc.raw(), B);
    }
  });
  base = Value(std::move(t));
  return true;
}

/// Result class of tensor(idx) = rhs: the left side's class wins (rhs converted, integers
/// saturate, NaN into logical is an error); a complex rhs makes the result complex.
void assign_tensor(Value& base, bool unset, std::span<const Value> idx, const Tensor& rhs) {
  if (!unset && try_mask_fill(base, idx, rhs)) return;
  const Dims bd = unset ? Dims(0, 0) : base.dims();
  Plan p = plan_assign(bd, idx, rhs.dims());
  Tensor t = unset ? Tensor() : base.tensor();
  const ClassId cls = unset ? rhs.cls() : t.cls();
  Tensor rc = rhs.cls() == cls ? rhs : rhs.to_class(cls);
  const bool complex = (!unset && t.is_complex()) || rc.is_complex();
  if (complex && !rc.is_complex()) rc = rc.to_complex();
  base = Value();  // release the base's reference: writes below stay in place when unshared
  if (unset) {
    t = Tensor::zeros(cls, p.new_dims, complex);
  } else {
    if (complex && !t.is_complex()) t = t.to_complex();
    if (t.dims() != p.new_dims) t = grow_tensor(std::move(t), p.new_dims);
  }
  if (p.count > 0) {
    const std::vector<int64_t> st = strides_from(p.eff);
    char* dst = static_cast<char*>(t.mutable_raw());
    const char* src = static_cast<const char*>(rc.raw());
    dispatch_elem_bytes(t.elem_bytes(), [&](auto nb) {
      constexpr int B = decltype(nb)::value;
      if (rc.numel() == 1) {
        for_each_run(p.subs, st, [&](int64_t bo, int64_t, int64_t len) {
          for (int64_t i = 0; i < len; ++i) std::memcpy(dst + (bo + i) * B, src, B);
        });
      } else {
        for_each_run(p.subs, st, [&](int64_t bo, int64_t so, int64_t len) {
          if (len == 1) std::memcpy(dst + bo * B, src + so * B, B);  // one move
          else std::memcpy(dst + bo * B, src + so * B, static_cast<size_t>(len) * B);
        });
      }
    });
  }
  base = Value(std::move(t));
}

CellArray grow_cell(CellArray c, const Dims& nd) {
  if (keeps_linear_positions(c.dims(), nd)) {
    c.resize(nd);  // amortised append when the payload is unshared
    return c;
  }
  CellArray r(nd);
  std::vector<Value>& dst = r.mutable_elems();
  const std::vector<Value>& src = c.elems();
  for_each_kept_run(c.dims(), nd, [&](int64_t no, int64_t oo, int64_t len) {
    for (int64_t i = 0; i < len; ++i) dst[no + i] = src[oo + i];
  });
  return r;
}

void assign_cells(Value& base, bool unset, std::span<const Value> idx, const CellArray& rc,
                  bool brace) {
  const Dims bd = unset ? Dims(0, 0) : base.dims();
  Plan p = plan_assign(bd, idx, brace ? Dims::scalar() : rc.dims());
  if (brace && p.count != 1) {
    if (p.count == 0) return;
    throw_error("MATLAB:needMoreRhsOutputs",
                "Insufficient number of outputs from right hand side of equal sign to satisfy "
                "assignment.");
  }
  CellArray c = unset ? CellArray(p.new_dims) : base.cell();
  base = Value();
  if (c.dims() != p.new_dims) c = grow_cell(std::move(c), p.new_dims);
  if (p.count > 0) {
    std::vector<Value>& dst = c.mutable_elems();
    const std::vector<Value>& src = rc.elems();
    const bool bcast = rc.numel() == 1;
    for_each_run(p.subs, strides_from(p.eff), [&](int64_t bo, int64_t so, int64_t len) {
      for (int64_t i = 0; i < len; ++i) dst[bo + i] = src[bcast ? 0 : so + i];
    });
  }
  base = Value(std::move(c));
}

// ---------------------------------------------------------------- strings

std::optional<std::string> number_to_string(double v) {
  if (std::isnan(v)) return std::nullopt;
  char buf[64];
  if (v == std::floor(v) && std::fabs(v) < 1e15)
    std::snprintf(buf, sizeof buf, "%lld", static_cast<long long>(v));
  else if (std::isinf(v))
    std::snprintf(buf, sizeof buf, "%s", v > 0 ? "Inf" : "-Inf");
  else
    std::snprintf(buf, sizeof buf, "%.5g", v);
  return std::string(buf);
}

/// MATLAB's conversion of an assigned value to the string class.
StringArray to_string_array(const Value& v) {
  if (v.is_string()) return v.string_array();
  if (v.is_char()) {
    Tensor t = v.tensor();
    const Dims d = t.dims();
    if (d.ndims() == 2 && d.rows() <= 1) return StringArray::scalar(t.to_utf8());
    // Each row of a char matrix becomes one string.
    StringArray r(Dims(d.rows(), 1));
    const int64_t rows = d.rows(), cols = d.numel() / std::max<int64_t>(rows, 1);
    for (int64_t i = 0; i < rows; ++i) {
      Tensor row = Tensor::uninit(ClassId::Char, Dims(1, cols));
      char16_t* rp = row.mutable_data<char16_t>();
      const char16_t* tp = t.data<char16_t>();
      for (int64_t j = 0; j < cols; ++j) rp[j] = tp[i + j * rows];
      r.at(i) = row.to_utf8();
    }
    return r;
  }
  if (v.is_cell()) {
    const CellArray& c = v.cell();
    StringArray r(c.dims());
    for (int64_t i = 0; i < c.numel(); ++i) {
      const Value& e = c[i];
      if (!(e.is_text() || (e.is_char() && e.is_empty())))
        throw_error("MATLAB:invalidConversion", "Conversion to string from cell is not possible.");
      r.at(i) = e.is_string() ? e.string_array()[0] : std::optional<std::string>(e.tensor().to_utf8());
    }
    return r;
  }
  if (v.is_tensor()) {
    Tensor t = v.tensor();
    StringArray r(t.dims());
    const bool lg = t.cls() == ClassId::Logical;
    for (int64_t i = 0; i < t.numel(); ++i) {
      const double x = t.get_double(i);
      r.at(i) = lg ? std::optional<std::string>(x != 0 ? "true" : "false") : number_to_string(x);
    }
    return r;
  }
  throw_error("MATLAB:invalidConversion", "Conversion to string from %s is not possible.",
              v.class_name().c_str());
}

StringArray grow_strings(StringArray s, const Dims& nd) {
  if (keeps_linear_positions(s.dims(), nd)) {
    s.resize(nd);  // new elements are <missing>; amortised append when unshared
    return s;
  }
  StringArray r(nd);
  for (int64_t i = 0; i < r.numel(); ++i) r.at(i) = std::nullopt;  // MATLAB fills <missing>
  for_each_kept_run(s.dims(), nd, [&](int64_t no, int64_t oo, int64_t len) {
    for (int64_t i = 0; i < len; ++i) r.at(no + i) = s[oo + i];
  });
  return r;
}

void assign_strings(Value& base, bool unset, std::span<const Value> idx, const StringArray& rs) {
  const Dims bd = unset ? Dims(0, 0) : base.dims();
  Plan p = plan_assign(bd, idx, rs.dims());
  StringArray s = unset ? StringArray(Dims(0, 0)) : base.string_array();
  base = Value();
  if (s.dims() != p.new_dims) s = grow_strings(std::move(s), p.new_dims);
  if (p.count > 0) {
    const bool bcast = rs.numel() == 1;
    for_each_run(p.subs, strides_from(p.eff), [&](int64_t bo, int64_t so, int64_t len) {
      for (int64_t i = 0; i < len; ++i) s.at(bo + i) = rs[bcast ? 0 : so + i];
    });
  }
  base = Value(std::move(s));
}

/// A string assigned into a numeric/char array is converted like double("..."): its numeric
/// value, NaN when it is not a number.
Tensor string_to_double(const StringArray& s) {
  Tensor t = Tensor::uninit(ClassId::Double, s.dims());
  double* p = t.mutable_data<double>();
  for (int64_t i = 0; i < s.numel(); ++i) {
    p[i] = NAN;
    if (!s[i]) continue;
    const char* b = s[i]->c_str();
    char* e = nullptr;
    double v = std::strtod(b, &e);
    while (e && *e == ' ') ++e;
    if (e != b && e && *e == '\0') p[i] = v;
  }
  return t;
}

// ---------------------------------------------------------------- structs

StructArray grow_struct(StructArray s, const Dims& nd) {
  if (keeps_linear_positions(s.dims(), nd)) {
    s.resize(nd);  // amortised append when the payload is unshared
    return s;
  }
  StructArray r(nd);
  for (const std::string& f : s.fields()) r.add_field(f);
  const int nf = static_cast<int>(s.fields().size());
  for_each_kept_run(s.dims(), nd, [&](int64_t no, int64_t oo, int64_t len) {
    for (int64_t i = 0; i < len; ++i)
      for (int f = 0; f < nf; ++f) r.at(no + i, f) = s.get(oo + i, f);
  });
  return r;
}

void assign_structs(Value& base, bool unset, std::span<const Value> idx, const StructArray& rs) {
  const Dims bd = unset ? Dims(0, 0) : base.dims();
  Plan p = plan_assign(bd, idx, rs.dims());
  StructArray s;
  if (unset) {
    s = StructArray(Dims(0, 0));
    for (const std::string& f : rs.fields()) s.add_field(f);
  } else {
    s = base.struct_array();
    if (s.numel() == 0 && s.fields().empty()) {
      for (const std::string& f : rs.fields()) s.add_field(f);
    } else {
      bool same = s.fields().size() == rs.fields().size();
      for (const std::string& f : rs.fields())
        if (s.field_index(f) < 0) same = false;
      if (!same)
        throw_error("MATLAB:heterogeneousStrucAssignment",
                    "Subscripted assignment between dissimilar structures.");
    }
  }
  base = Value();
  std::vector<int> map;
  for (const std::string& f : rs.fields()) map.push_back(s.field_index(f));
  if (s.dims() != p.new_dims) s = grow_struct(std::move(s), p.new_dims);
  if (p.count > 0 && !map.empty()) {
    const bool bcast = rs.numel() == 1;
    const int nf = static_cast<int>(map.size());
    for_each_run(p.subs, strides_from(p.eff), [&](int64_t bo, int64_t so, int64_t len) {
      for (int64_t i = 0; i < len; ++i)
        for (int f = 0; f < nf; ++f) s.at(bo + i, map[f]) = rs.get(bcast ? 0 : so + i, f);
    });
  }
  base = Value(std::move(s));
}

// ---------------------------------------------------------------- helpers

/// A defined `[]` (0x0 real double) behaves like an undefined variable: the result takes the
/// right-hand side's class and kind.
bool is_unset(const Value& base, bool defined) {
  if (!defined) return true;
  if (base.kind() != Value::Kind::Array) return false;
  const Dims d = base.dims();
  if (!(d.ndims() == 2 && d.rows() == 0 && d.cols() == 0)) return false;
  return base.cls() == ClassId::Double && !base.tensor().is_complex();
}

bool is_null_rhs(const Value& v) {
  if (v.kind() != Value::Kind::Array) return false;
  const Dims d = v.dims();
  return d.ndims() == 2 && d.rows() == 0 && d.cols() == 0 && v.cls() == ClassId::Double &&
         !v.tensor().is_complex();
}

/// Fast path: real double scalar written at in-bounds scalar subscripts of a numeric array.
bool try_scalar_store(Value& base, std::span<const Value> idx, const Value& rhs) {
  if (rhs.kind() != Value::Kind::Scalar || !base.is_tensor()) return false;
  const Dims d = base.dims();
  const int n = static_cast<int>(idx.size());
  int64_t off = 0, stride = 1;
  for (int k = 0; k < n; ++k) {
    if (idx[k].kind() != Value::Kind::Scalar) return false;
    const double v = idx[k].scalar();
    const int64_t ext = end_index(d, k, n);
    if (!(v >= 1) || v > static_cast<double>(ext)) return false;
    const int64_t i = static_cast<int64_t>(v);
    if (static_cast<double>(i) != v) return false;
    off += (i - 1) * stride;
    stride *= ext;
  }
  const double x = rhs.scalar();
  if (base.kind() == Value::Kind::Scalar) {
    base = rhs;
    return true;
  }
  Tensor t = base.tensor();
  if (t.cls() == ClassId::Logical && std::isnan(x))
    throw_error("MATLAB:nologicalnan", "NaN's cannot be converted to logicals.");
  base = Value();
  if (t.cls() == ClassId::Double && !t.is_complex())
    t.mutable_data<double>()[off] = x;
  else
    t.set_double(off, x);
  base = Value(std::move(t));
  return true;
}

/// Puts the base's tensor back into its Value on every exit (the device path releases the Value
/// so that an unshared storage is written in place).
struct RestoreBase {
  Value& base;
  Tensor& t;
  ~RestoreBase() { base = Value(std::move(t)); }
};

/// base(idx...) = rhs applied to the device copy of a device-resident base (no gather): block
/// assignments, index lists, and logical masks of base's size (a scalar rhs is broadcast).
/// false: the host path runs (host-resident base, element stores at scalar subscripts, growth,
/// complex data, repeated positions with a non-scalar rhs).
/// MATLAB's errors (bad subscripts, size mismatch, NaN into logical) are raised as on the host.
bool try_device_assign(Value& base, std::span<const Value> idx, const Value& rhs) {
  if (!maybe_on_device(base) || !rhs.is_tensor()) return false;
  // One element at scalar subscripts stays on the host path (one gather, then host writes):
  // a loop of element stores must not become a launch per element, nor force a pending
  // array onto the device.
  bool all_scalar = true;
  for (const Value& v : idx) all_scalar = all_scalar && v.kind() == Value::Kind::Scalar;
  if (all_scalar) return false;
  Tensor t = base.tensor();
  if (!accel::index_provider(t)) return false;
  Tensor r = rhs.tensor();
  if (r.is_complex()) return false;
  if (r.cls() != t.cls()) r = r.to_class(t.cls());
  const Value& i0 = idx[0];
  if (idx.size() == 1 && i0.kind() == Value::Kind::Array && i0.cls() == ClassId::Logical &&
      i0.numel() == t.numel()) {
    const Tensor mask = i0.tensor();
    const int64_t rn = r.numel();
    base = Value();
    RestoreBase restore{base, t};
    return accel::device_mask_assign(t, mask, r, [rn](int64_t k) {
      if (k != rn)
        throw_error("MATLAB:subsassignnumelmismatch",
                    "Unable to perform assignment because the left and right sides have a "
                    "different number of elements.");
    });
  }
  Plan p = plan_assign(t.dims(), idx, r.dims());
  if (p.new_dims != t.dims() || p.count == 0) return false;
  const std::vector<accel::IndexSub> subs = device_subs(p.subs);
  base = Value();
  RestoreBase restore{base, t};
  return accel::device_scatter(t, p.eff, subs, r);
}

}  // namespace

static void assign_paren_host(Value& base, bool base_defined, std::span<const Value> idx,
                              const Value& rhs_in);

/// base(idx) = rhs where base is an ElementArrayObject, or is unset and rhs is one: the
/// element numbers of base are assigned the negated element numbers of rhs (converted to
/// base's class) with the numeric rules (scalar expansion, growth with 0, size errors), then
/// the object gathers. False when neither side is an element array.
static bool assign_element_array(Value& base, bool base_defined, std::span<const Value> idx,
                                 const Value& rhs) {
  ElementArrayObject* e = base_defined ? as_element_array(base) : nullptr;
  const bool unset = is_unset(base, base_defined);
  if (!e && !(unset && as_element_array(rhs))) return false;
  if (e && is_null_rhs(rhs)) return false;  // deletion: delete_elements
  const Value src = e ? e->convert(rhs) : rhs;
  ElementArrayObject* s = as_element_array(src);
  MF_ASSERT(s != nullptr, "ElementArrayObject::convert must return its class");
  Tensor neg = element_numbers(src.dims());
  double* q = neg.mutable_data<double>();
  for (int64_t i = 0; i < neg.numel(); ++i) q[i] = -q[i];
  Value pos = e ? Value(element_numbers(base.dims())) : Value();
  assign_paren_host(pos, e != nullptr, idx, Value(std::move(neg)));
  base = (e ? e : s)->gather(pos.tensor(), s);
  return true;
}

static void assign_paren_host(Value& base, bool base_defined, std::span<const Value> idx,
                              const Value& rhs_in) {
  accel::SinkScope sink(accel::SinkReason::IndexByData);
  if (idx.empty())
    throw_error("MATLAB:badsubscript", "Array indices must be positive integers or logical values.");
  Value rhs = rhs_in;  // rhs may alias base
  if (assign_element_array(base, base_defined, idx, rhs)) return;
  if (as_sparse(rhs) && !(base_defined && as_sparse(base))) {
    // A sparse right side: an unset variable becomes sparse (as in MATLAB); a full array
    // stays full.
    if (is_unset(base, base_defined)) {
      base = make_sparse(0, 0, {0}, {}, Tensor::zeros(ClassId::Double, Dims(0, 1)));
      base_defined = true;
    } else {
      rhs = densify(rhs);
    }
  }
  if (ValueObject* o = base_defined ? as_value_object(base) : nullptr) {
    if (o->paren_assign(idx, rhs, base)) return;
  } else if (IndexableObject* h = base_defined ? as_indexable(base) : nullptr) {
    if (h->paren_assign(idx, rhs)) return;
  }
  if (is_missing_value(rhs) && !is_unset(base, base_defined)) {
    // x(i) = missing: the standard missing value of x's class.
    if (base.is_string()) {
      StringArray sa(Dims(1, 1));
      sa.at(0) = std::nullopt;
      rhs = Value(std::move(sa));
    } else if (base.is_tensor() && (base.cls() == ClassId::Double || base.cls() == ClassId::Single)) {
      rhs = Value(Tensor::scalar(std::nan(""), base.cls()));
    } else if (!base.is_cell()) {
      throw_error("MATLAB:invalidConversion", "Conversion to %s from missing is not possible.",
                  base.class_name().c_str());
    }
  }
  if (is_null_rhs(rhs)) {
    if (!base_defined) base = Value();
    delete_elements(base, idx);
    return;
  }
  if (base_defined && try_device_assign(base, idx, rhs)) return;
  if (base_defined && try_scalar_store(base, idx, rhs)) return;
  const bool unset = is_unset(base, base_defined);
  const Value::Kind target = unset ? rhs.kind() : base.kind();
  switch (target) {
    case Value::Kind::Scalar:
    case Value::Kind::Array:
      if (rhs.is_tensor()) return assign_tensor(base, unset, idx, rhs.tensor());
      if (rhs.is_string())
        return assign_tensor(base, unset, idx, string_to_double(rhs.string_array()));
      throw_error("MATLAB:invalidConversion", "Conversion to %s from %s is not possible.",
                  base.class_name().c_str(), rhs.class_name().c_str());
    case Value::Kind::Cell:
      if (!rhs.is_cell())
        throw_error("MATLAB:invalidConversion", "Conversion to cell from %s is not possible.",
                    rhs.class_name().c_str());
      return assign_cells(base, unset, idx, rhs.cell(), false);
    case Value::Kind::String:
      return assign_strings(base, unset, idx, to_string_array(rhs));
    case Value::Kind::Struct:
      if (!rhs.is_struct())
        throw_error("MATLAB:invalidConversion", "Conversion to struct from %s is not possible.",
                    rhs.class_name().c_str());
      return assign_structs(base, unset, idx, rhs.struct_array());
    case Value::Kind::Function:
    case Value::Kind::Object: {
      // A handle can only be stored as a 1x1 value (MATLAB has no handle arrays).
      const Dims bd = unset ? Dims(0, 0) : base.dims();
      Plan p = plan_assign(bd, idx, Dims::scalar());
      if (p.new_dims.is_scalar() && (unset || rhs.kind() == base.kind())) {
        if (p.count == 1) base = rhs;
        return;
      }
      throw_error("MATLAB:index:nonScalarHandle",
                  "Nonscalar arrays of function handles are not allowed; use cell arrays "
                  "instead.");
    }
  }
}

// Assigning into a gpuArray keeps it a gpuArray; assigning a gpuArray into a numeric array
// makes the result a gpuArray (MATLAB).
void assign_paren(Value& base, bool base_defined, std::span<const Value> idx, const Value& rhs_in) {
  if (any_sparse(idx)) [[unlikely]] {
    const std::vector<Value> full = densify_all(idx);
    return assign_paren(base, base_defined, full, rhs_in);
  }
  const bool gpu = (base_defined && base.is_gpu_array()) || rhs_in.is_gpu_array();
  assign_paren_host(base, base_defined, idx, rhs_in);
  if (gpu) [[unlikely]] base = mark_gpu(std::move(base));
}

void delete_elements(Value& base, std::span<const Value> idx) {
  accel::SinkScope sink(accel::SinkReason::IndexByData);
  const int n = static_cast<int>(idx.size());
  if (n == 0) return;
  if (ElementArrayObject* e = as_element_array(base)) {
    Value pos(element_numbers(base.dims()));
    delete_elements(pos, idx);
    base = e->gather(pos.tensor(), nullptr);
    return;
  }
  if (ValueObject* o = as_value_object(base)) {
    if (o->paren_assign(idx, Value(), base)) return;
  } else if (IndexableObject* h = as_indexable(base)) {
    if (h->paren_assign(idx, Value())) return;
  }
  const Dims d = base.dims();
  if (n == 1) {
    const int64_t numel = d.numel();
    Sub s = make_sub(idx[0], numel, 0, 1);
    if (s.is_colon()) {
      Sub none = Sub::from_list({}, Dims(0, 0));
      const int64_t eff[1] = {numel};
      base = gather(base, eff, std::span<const Sub>(&none, 1), Dims(0, 0));
      return;
    }
    if (s.max1 > numel)
      throw_error("MATLAB:subsdeldimmismatch", "Matrix index is out of range for deletion.");
    if (s.count == 0) return;
    std::vector<char> del(static_cast<size_t>(numel), 0);
    for (int64_t i = 0; i < s.count; ++i) del[s.at(i)] = 1;
    std::vector<int64_t> keep;
    keep.reserve(numel);
    for (int64_t i = 0; i < numel; ++i)
      if (!del[i]) keep.push_back(i);
    const int64_t k = static_cast<int64_t>(keep.size());
    const bool column = d.ndims() == 2 && d.cols() == 1 && d.rows() != 1;
    const Dims out = column ? Dims(k, 1) : Dims(1, k);
    Sub ks = Sub::from_list(std::move(keep), out);
    const int64_t eff[1] = {numel};
    base = gather(base, eff, std::span<const Sub>(&ks, 1), out);
    return;
  }
  std::vector<int64_t> eff = folded_dims(d, n);
  std::vector<Sub> subs;
  std::vector<int> noncolon;
  bool any_empty = false;
  for (int k = 0; k < n; ++k) {
    subs.push_back(make_sub(idx[k], eff[k], k, n));
    const Sub& s = subs.back();
    if (s.max1 > eff[k])
      throw_error("MATLAB:subsdeldimmismatch", "Matrix index is out of range for deletion.");
    if (s.is_colon()) continue;
    // A subscript that names every position of its dimension acts like ':'.
    std::vector<char> seen(static_cast<size_t>(eff[k]), 0);
    int64_t distinct = 0;
    for (int64_t i = 0; i < s.count; ++i)
      if (!seen[s.at(i)]++) ++distinct;
    if (distinct == eff[k] && eff[k] > 0) continue;
    if (s.count == 0) any_empty = true;
    noncolon.push_back(k);
  }
  if (noncolon.size() > 1) {
    if (any_empty) return;
    throw_error("MATLAB:subsdeldimmismatch",
                "A null assignment can have only one non-colon index.");
  }
  int p = 0;
  std::vector<int64_t> keep;
  if (noncolon.empty()) {
    p = 0;  // everything deleted: A(:,:) = [] leaves 0-by-N
  } else {
    p = noncolon[0];
    const Sub& s = subs[p];
    if (s.count == 0) return;
    std::vector<char> del(static_cast<size_t>(eff[p]), 0);
    for (int64_t i = 0; i < s.count; ++i) del[s.at(i)] = 1;
    for (int64_t i = 0; i < eff[p]; ++i)
      if (!del[i]) keep.push_back(i);
  }
  std::vector<Sub> ksubs;
  std::vector<int64_t> counts(eff);
  for (int k = 0; k < n; ++k) ksubs.push_back(Sub::colon(eff[k]));
  counts[p] = static_cast<int64_t>(keep.size());
  ksubs[p] = Sub::from_list(std::move(keep), Dims(counts[p], 1));
  base = gather(base, eff, ksubs, dims_from(counts));
}

void assign_brace(Value& base, bool base_defined, std::span<const Value> idx, const Value& rhs_in) {
  const Value rhs = rhs_in;  // rhs may alias base
  const bool unset = is_unset(base, base_defined);
  if (ValueObject* o = unset ? nullptr : as_value_object(base))
    if (o->brace_assign(idx, rhs, base)) return;
  if (!unset && base.is_string()) {
    StringArray s = to_string_array(rhs);
    if (s.numel() != 1)
      throw_error("MATLAB:invalidConversion",
                  "Conversion to string from %s is not possible.", rhs.class_name().c_str());
    const Dims bd = base.dims();
    Plan p = plan_assign(bd, idx, Dims::scalar());
    if (p.count > 1)
      throw_error("MATLAB:needMoreRhsOutputs",
                  "Insufficient number of outputs from right hand side of equal sign to satisfy "
                  "assignment.");
    return assign_strings(base, false, idx, s);
  }
  if (!unset && !base.is_cell())
    throw_error("MATLAB:cellAssToNonCell",
                "Unable to perform assignment because brace indexing is not supported for "
                "variables of this type.");
  CellArray one(Dims::scalar());
  one.at(0) = rhs;
  assign_cells(base, unset, idx, one, true);
}

void set_field(Value& base, bool base_defined, std::string_view name, const Value& rhs_in) {
  const Value rhs = rhs_in;  // rhs may alias base
  if (is_unset(base, base_defined)) {
    StructArray s(Dims::scalar());
    const int f = s.add_field(name);
    s.at(0, f) = rhs;
    base = Value(std::move(s));
    return;
  }
  if (IndexableObject* o = as_indexable(base)) {
    if (o->set_property(name, rhs, base)) return;
    throw_error("MATLAB:noPublicFieldForClass",
                "Unrecognized property '%.*s' for class '%s'.", static_cast<int>(name.size()),
                name.data(), base.class_name().c_str());
  }
  if (!base.is_struct())
    throw_error("MATLAB:index:assignmentDotNotSupported",
                "Unable to perform assignment because dot indexing is not supported for "
                "variables of this type.");
  StructArray s = base.struct_array();
  base = Value();
  if (s.numel() == 0) s.resize(Dims::scalar());
  if (s.numel() != 1) {
    base = Value(std::move(s));
    throw_error("MATLAB:index:scalarStructRequired",
                "Scalar structure required for this assignment.");
  }
  const int f = s.add_field(name);
  s.at(0, f) = rhs;
  base = Value(std::move(s));
}

}  // namespace matfuse
