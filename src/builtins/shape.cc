// Shape builtins for every Value kind: reshape permute squeeze size numel ndims length isempty
// isscalar isvector isrow iscolumn ismatrix; plus the shape_util.h helpers.
#include <cmath>
#include <cstring>
#include <string>
#include <vector>

#include "builtins/argparse.h"
#include "builtins/registry.h"
#include "builtins/shape_util.h"
#include "runtime/array_size.h"

namespace matfuse {

// ---- shape_util.h ---------------------------------------------------------------------------

namespace {

template <class E>
void gather_pod(const void* src, void* dst, const std::vector<int64_t>& idx) {
  const E* s = static_cast<const E*>(src);
  E* d = static_cast<E*>(dst);
  for (size_t j = 0; j < idx.size(); ++j) d[j] = s[idx[j]];
}

struct Pair8 {
  uint64_t a, b;
};

}  // namespace

Value gather_elements(const Value& v, const Dims& out, const std::vector<int64_t>& src) {
  MF_ASSERT(static_cast<int64_t>(src.size()) == out.numel(), "gather_elements: index count");
  switch (v.kind()) {
    case Value::Kind::Scalar:
    case Value::Kind::Array: {
      Tensor t = v.tensor();
      Tensor r = Tensor::uninit(t.cls(), out, t.is_complex());
      if (r.numel() == 0) return Value(std::move(r));
      const void* s = t.raw();
      void* d = r.mutable_raw();
      switch (t.elem_bytes()) {
        case 1: gather_pod<uint8_t>(s, d, src); break;
        case 2: gather_pod<uint16_t>(s, d, src); break;
        case 4: gather_pod<uint32_t>(s, d, src); break;
        case 8: gather_pod<uint64_t>(s, d, src); break;
        default: gather_pod<Pair8>(s, d, src); break;
      }
      return Value(std::move(r));
    }
    case Value::Kind::Cell: {
      const CellArray& c = v.cell();
      CellArray r(out);
      std::vector<Value>& e = r.mutable_elems();
      for (size_t j = 0; j < src.size(); ++j) e[j] = c[src[j]];
      return Value(std::move(r));
    }
    case Value::Kind::String: {
      const StringArray& s = v.string_array();
      StringArray r(out);
      for (size_t j = 0; j < src.size(); ++j) r.at(static_cast<int64_t>(j)) = s[src[j]];
      return Value(std::move(r));
    }
    case Value::Kind::Struct: {
      const StructArray& s = v.struct_array();
      StructArray r(out);
      for (const std::string& f : s.fields()) r.add_field(f);
      const int nf = static_cast<int>(s.fields().size());
      for (size_t j = 0; j < src.size(); ++j)
        for (int f = 0; f < nf; ++f) r.at(static_cast<int64_t>(j), f) = s.get(src[j], f);
      return Value(std::move(r));
    }
    default:
      if (out.numel() == 1) return v;
      throw_error("MATLAB:catenate:functionHandleOrObject",
                  "Nonscalar arrays of %s are not allowed; use cell arrays instead.",
                  v.class_name().c_str());
  }
}

Value reshape_value(const Value& v, const Dims& d) {
  MF_ASSERT(d.numel() == v.numel(), "reshape_value: numel must not change");
  switch (v.kind()) {
    case Value::Kind::Scalar:
    case Value::Kind::Array: return Value(v.tensor().reshaped(d));
    case Value::Kind::Cell: return Value(v.cell().reshaped(d));
    case Value::Kind::Struct: return Value(v.struct_array().reshaped(d));
    case Value::Kind::String: return Value(v.string_array().reshaped(d));
    default: return v;
  }
}

std::vector<int64_t> permute_index(const Dims& in, const std::vector<int>& perm, Dims* out) {
  const int n = static_cast<int>(perm.size());
  Dims od(in[perm[0]], n > 1 ? in[perm[1]] : 1);
  for (int j = 2; j < n; ++j) od.push_back(in[perm[j]]);
  auto in_strides = strides_of(in);
  // Stride in the source of each output dimension.
  std::vector<int64_t> st(n), ext(n);
  for (int j = 0; j < n; ++j) {
    st[j] = perm[j] < in.ndims() ? in_strides[perm[j]] : 0;
    ext[j] = od[j];
  }
  int64_t total = od.numel();
  std::vector<int64_t> idx(static_cast<size_t>(total));
  std::vector<int64_t> ctr(n, 0);
  int64_t s = 0;
  for (int64_t i = 0; i < total; ++i) {
    idx[static_cast<size_t>(i)] = s;
    for (int j = 0; j < n; ++j) {  // odometer increment
      if (++ctr[j] < ext[j]) {
        s += st[j];
        break;
      }
      s -= st[j] * (ext[j] - 1);
      ctr[j] = 0;
    }
  }
  od.normalize();
  *out = od;
  return idx;
}

// ---- builtins -------------------------------------------------------------------------------

namespace {

Value logical_value(bool b) { return Value::logical(b); }

/// reshape(A, m, n, ...), reshape(A, [m n ...]); one size may be [] (computed).
Outputs bi_reshape(CallContext&, Args args, int nargout) {
  check_nargin(args, 2, 2 + Dims::kMaxDims);
  check_nargout(nargout, 1);
  const Value& a = args[0];
  const int64_t n = a.numel();
  std::vector<int64_t> sz;
  int unknown = -1;
  if (args.size() == 2) {
    const Value& s = args[1];
    if (!s.is_tensor()) throw_error("MATLAB:getReshapeDims:sizeVector",
                                    "Size vector must be a row vector with integer elements.");
    Tensor t = s.tensor();
    if (t.numel() < 2)
      throw_error("MATLAB:getReshapeDims:sizeVector", "Size vector must have at least two elements.");
    for (int64_t i = 0; i < t.numel(); ++i) {
      double d = t.get_double(i);
      if (d != std::floor(d) || std::isinf(d) || d < 0)
        throw_error("MATLAB:getReshapeDims:sizeVector",
                    "Size vector elements should be nonnegative integers.");
      sz.push_back(clamp_count(d));  // 1e300: the element count mismatches (no undefined cast)
    }
  } else {
    for (size_t i = 1; i < args.size(); ++i) {
      const Value& s = args[i];
      if (s.is_tensor() && s.dims() == Dims(0, 0)) {
        if (unknown >= 0)
          throw_error("MATLAB:getReshapeDims:unknownDim",
                      "Size can only have one unknown dimension.");
        unknown = static_cast<int>(i - 1);
        sz.push_back(1);
        continue;
      }
      if (!s.is_tensor() || s.numel() != 1)
        throw_error("MATLAB:getReshapeDims:notScalar", "Size arguments must be integer scalars.");
      double d = s.to_double();
      if (d != std::floor(d) || std::isinf(d) || d < 0)
        throw_error("MATLAB:getReshapeDims:notScalar",
                    "Size arguments must be nonnegative integer scalars.");
      sz.push_back(clamp_count(d));  // 1e300: the element count mismatches (no undefined cast)
    }
  }
  if (sz.size() > static_cast<size_t>(Dims::kMaxDims))
    throw_error("matfuse:tooManyDims", "Arrays of more than %d dimensions are not supported.",
                Dims::kMaxDims);
  if (unknown >= 0) {
    int64_t known = 1;
    for (size_t i = 0; i < sz.size(); ++i)
      if (static_cast<int>(i) != unknown) known *= sz[i];
    if (known == 0 || n % known != 0)
      throw_error("MATLAB:getReshapeDims:notDivisible",
                  "Product of known dimensions, %lld, not divisible into total number of "
                  "elements, %lld.",
                  static_cast<long long>(known), static_cast<long long>(n));
    sz[static_cast<size_t>(unknown)] = n / known;
  }
  Dims d(sz[0], sz[1]);
  for (size_t i = 2; i < sz.size(); ++i) d.push_back(sz[i]);
  if (d.numel() != n)
    throw_error("MATLAB:getReshapeDims:notSameNumel",
                "Number of elements must not change. Use [] as one of the size inputs to "
                "automatically calculate the appropriate size for that dimension.");
  d.normalize();
  return {reshape_value(a, d)};
}

/// permute(A, order): order a permutation of 1..N, N >= ndims(A).
Outputs bi_permute(CallContext&, Args args, int nargout) {
  check_nargin(args, 2, 2);
  check_nargout(nargout, 1);
  const Value& a = args[0];
  if (!args[1].is_tensor())
    throw_error("MATLAB:permute:badIndex", "ORDER contains an invalid permutation index.");
  Tensor o = args[1].tensor();
  const Dims in = a.dims();
  const int n = static_cast<int>(o.numel());
  if (n < in.ndims())
    throw_error("MATLAB:permute:tooFewIndices",
                "ORDER must have at least N elements for an N-D array.");
  if (n > Dims::kMaxDims)
    throw_error("matfuse:tooManyDims", "Arrays of more than %d dimensions are not supported.",
                Dims::kMaxDims);
  std::vector<int> perm(n);
  std::vector<bool> seen(n, false);
  for (int j = 0; j < n; ++j) {
    double d = o.get_double(j);
    if (d != std::floor(d) || d < 1 || d > n || seen[static_cast<int>(d) - 1])
      throw_error("MATLAB:permute:badIndex", "ORDER contains an invalid permutation index.");
    perm[j] = static_cast<int>(d) - 1;
    seen[perm[j]] = true;
  }
  Dims out;
  std::vector<int64_t> idx = permute_index(in, perm, &out);
  return {gather_elements(a, out, idx)};
}

/// squeeze(A): removes singleton dimensions of N-D arrays (2-D arrays unchanged).
Outputs bi_squeeze(CallContext&, Args args, int nargout) {
  check_nargin(args, 1, 1);
  check_nargout(nargout, 1);
  const Value& a = args[0];
  Dims d = a.dims();
  if (d.ndims() <= 2) return {a};
  std::vector<int64_t> keep;
  for (int64_t v : d)
    if (v != 1) keep.push_back(v);
  while (keep.size() < 2) keep.push_back(1);
  if (keep.size() == 2 && keep[0] == 1) std::swap(keep[0], keep[1]);  // 1x1xN -> Nx1
  Dims nd(keep[0], keep[1]);
  for (size_t i = 2; i < keep.size(); ++i) nd.push_back(keep[i]);
  return {reshape_value(a, nd)};
}

double dim_arg(const Value& v) {
  double d = v.is_tensor() && v.numel() == 1 ? v.to_double() : -1;
  if (!(d >= 1) || d != std::floor(d) || std::isinf(d))
    throw_error("MATLAB:getdimarg:dimensionMustBePositiveInteger",
                "Dimension argument must be a positive integer scalar or a vector of unique "
                "positive integers.");
  return d;
}

/// size(A), size(A, dim), size(A, [d1 d2 ...]), size(A, d1, d2, ...), [m, n, ...] = size(A).
Outputs bi_size(CallContext&, Args args, int nargout) {
  check_nargin(args, 1, 1 + Dims::kMaxDims);
  const Dims d = args[0].dims();
  auto dimsz = [&](double k) -> double {
    return k > Dims::kMaxDims ? 1.0 : static_cast<double>(d[static_cast<int>(k) - 1]);
  };
  std::vector<double> sel;
  if (args.size() == 1) {
    if (nargout <= 1) {
      Tensor t = Tensor::uninit(ClassId::Double, Dims(1, d.ndims()));
      for (int j = 0; j < d.ndims(); ++j) t.mutable_data<double>()[j] = static_cast<double>(d[j]);
      return {Value(std::move(t))};
    }
    Outputs out;
    for (int j = 0; j < nargout; ++j) {
      if (j == nargout - 1) {
        double p = 1;
        for (int k = j; k < d.ndims(); ++k) p *= static_cast<double>(d[k]);
        out.push_back(Value(p));
      } else {
        out.push_back(Value(static_cast<double>(d[j])));
      }
    }
    return out;
  }
  if (args.size() == 2) {
    if (!args[1].is_tensor() || args[1].numel() == 0) dim_arg(Value(0.0));
    Tensor t = args[1].tensor();
    for (int64_t i = 0; i < t.numel(); ++i) sel.push_back(dim_arg(Value(t.get_double(i))));
  } else {
    for (size_t i = 1; i < args.size(); ++i) sel.push_back(dim_arg(args[i]));
  }
  if (nargout <= 1) {
    Tensor t = Tensor::uninit(ClassId::Double, Dims(1, static_cast<int64_t>(sel.size())));
    for (size_t j = 0; j < sel.size(); ++j) t.mutable_data<double>()[j] = dimsz(sel[j]);
    return {Value(std::move(t))};
  }
  if (static_cast<size_t>(nargout) != sel.size())
    throw_error("MATLAB:TooManyOutputs", "Too many output arguments.");
  Outputs out;
  for (double k : sel) out.push_back(Value(dimsz(k)));
  return out;
}

Outputs bi_numel(CallContext&, Args args, int nargout) {
  check_nargin(args, 1, 1);
  check_nargout(nargout, 1);
  return {Value(static_cast<double>(args[0].numel()))};
}

Outputs bi_ndims(CallContext&, Args args, int nargout) {
  check_nargin(args, 1, 1);
  check_nargout(nargout, 1);
  return {Value(static_cast<double>(args[0].dims().ndims()))};
}

Outputs bi_length(CallContext&, Args args, int nargout) {
  check_nargin(args, 1, 1);
  check_nargout(nargout, 1);
  const Dims d = args[0].dims();
  int64_t m = 0;
  if (d.numel() > 0)
    for (int64_t v : d) m = std::max(m, v);
  return {Value(static_cast<double>(m))};
}

template <bool (*Pred)(const Dims&)>
Outputs shape_pred(CallContext&, Args args, int nargout) {
  check_nargin(args, 1, 1);
  check_nargout(nargout, 1);
  return {logical_value(Pred(args[0].dims()))};
}

bool p_empty(const Dims& d) { return d.numel() == 0; }
bool p_scalar(const Dims& d) { return d.is_scalar(); }
bool p_vector(const Dims& d) { return d.is_vector(); }
bool p_row(const Dims& d) { return d.is_row(); }
bool p_column(const Dims& d) { return d.is_column(); }
bool p_matrix(const Dims& d) { return d.is_matrix(); }

}  // namespace

/// Registers the shape builtins (called from register_construct).
void register_shape(Registry& r) {
  r.add("reshape", bi_reshape);
  r.add("permute", bi_permute);
  r.add("squeeze", bi_squeeze);
  r.add("size", bi_size);
  r.add("numel", bi_numel);
  r.add("ndims", bi_ndims);
  r.add("length", bi_length);
  r.add("isempty", shape_pred<p_empty>);
  r.add("isscalar", shape_pred<p_scalar>);
  r.add("isvector", shape_pred<p_vector>);
  r.add("isrow", shape_pred<p_row>);
  r.add("iscolumn", shape_pred<p_column>);
  r.add("ismatrix", shape_pred<p_matrix>);
}

}  // namespace matfuse
