// Builtins of the "construct" family: zeros ones eye linspace colon repmat cat horzcat vertcat,
// and (through register_shape, shape.cc) the shape functions. Concatenation itself lives in
// concat.cc (construct.h); size-list parsing in argparse.h.
#include <cmath>
#include <complex>
#include <vector>

#include "accel/capture/capture.h"
#include "builtins/argparse.h"
#include "builtins/construct.h"
#include "builtins/operators.h"
#include "builtins/registry.h"
#include "builtins/shape_util.h"

namespace matfuse {

namespace {

bool not_char(ClassId c) { return c != ClassId::Char; }

/// Fills every element of t (real part for complex) with v converted to t's class.
void fill(Tensor& t, double v) {
  if (t.numel() == 0) return;
  dispatch_class(t.cls(), [&](auto tag) {
    using T = decltype(tag);
    T x = saturate_cast<T>(v);
    T* d = t.mutable_data<T>();
    const int64_t n = t.numel();
    if (t.is_complex()) {
      for (int64_t i = 0; i < n; ++i) {
        d[2 * i] = x;
        d[2 * i + 1] = T{};
      }
    } else {
      for (int64_t i = 0; i < n; ++i) d[i] = x;
    }
  });
}

/// zeros(sz..., CLASS | 'like', p): all-zero array.
Outputs bi_zeros(CallContext&, Args args, int nargout) {
  check_nargout(nargout, 1);
  SizeClassArgs a = parse_size_class(args, "zeros", ClassId::Double, not_char);
  if (accel::capture_generator(a.dims.numel(), a.cls, a.complex))
    return {Value(accel::lazy_generator(accel::zeros(a.dims, a.cls)))};
  return {Value(Tensor::zeros(a.cls, a.dims, a.complex))};
}

/// ones(sz..., CLASS | 'like', p): all-one array.
Outputs bi_ones(CallContext&, Args args, int nargout) {
  check_nargout(nargout, 1);
  SizeClassArgs a = parse_size_class(args, "ones", ClassId::Double, not_char);
  if (accel::capture_generator(a.dims.numel(), a.cls, a.complex))
    return {Value(accel::lazy_generator(accel::ones(a.dims, a.cls)))};
  Tensor t = Tensor::uninit(a.cls, a.dims, a.complex);
  fill(t, 1.0);
  return {Value(std::move(t))};
}

/// eye(n), eye(m, n), eye([m n]), with CLASS or 'like', p: identity (2-D only).
Outputs bi_eye(CallContext&, Args args, int nargout) {
  check_nargout(nargout, 1);
  SizeClassArgs a = parse_size_class(args, "eye", ClassId::Double, not_char);
  if (a.dims.ndims() > 2)
    throw_error("MATLAB:eye:NDArrayNotSupported", "N-dimensional arrays are not supported.");
  Tensor t = Tensor::zeros(a.cls, a.dims, a.complex);
  const int64_t m = a.dims.rows(), n = a.dims.cols(), k = std::min(m, n);
  for (int64_t i = 0; i < k; ++i) t.set_double(i + i * m, 1.0);
  return {Value(std::move(t))};
}

/// linspace(a, b) (100 points), linspace(a, b, n): row vector from a to b with exact
/// endpoints; y(i) = a + (i-1)*(b-a)/(n-1). Single when an input is single; n < 1 gives 1x0,
/// n == 1 gives b. Complex endpoints give a complex row.
Outputs bi_linspace(CallContext&, Args args, int nargout) {
  check_nargin(args, 2, 3);
  check_nargout(nargout, 1);
  for (size_t i = 0; i < args.size(); ++i)
    if (!args[i].is_tensor() || args[i].numel() != 1)
      throw_error("MATLAB:linspace:scalarInputs", "Inputs must be scalars.");
  double nd = 100;
  if (args.size() == 3) {
    nd = args[2].to_double();
    if (std::isnan(nd)) throw_error("MATLAB:linspace:NaNInput", "N must not be NaN.");
    nd = std::floor(nd);
  }
  const int64_t n = nd < 1 ? 0 : static_cast<int64_t>(std::min(nd, 1e15));
  const bool single = args[0].cls() == ClassId::Single || args[1].cls() == ClassId::Single;
  const ClassId cls = single ? ClassId::Single : ClassId::Double;
  Tensor ta = args[0].tensor(), tb = args[1].tensor();
  const bool cx = ta.is_complex() || tb.is_complex();
  if (!cx && accel::capture_generator(n, cls)) {
    const double a = ta.get_double(0), b = tb.get_double(0);
    if (std::isfinite(a) && std::isfinite(b))
      return {Value(accel::lazy_generator(accel::linspace(a, b, n, cls)))};
  }
  Tensor out = Tensor::uninit(ClassId::Double, Dims(1, n), cx);
  if (n > 0) {
    std::complex<double> a = ta.get_complex(0), b = tb.get_complex(0);
    if (single) {  // endpoints are rounded to single first
      a = {static_cast<float>(a.real()), static_cast<float>(a.imag())};
      b = {static_cast<float>(b.real()), static_cast<float>(b.imag())};
    }
    const double n1 = static_cast<double>(n - 1);
    auto point = [&](double ar, double br, int64_t i) {
      if (i == n - 1) return br;
      if (i == 0) return ar;
      double diff = br - ar;
      if (std::isinf(diff)) return ar + (br / n1) * i - (ar / n1) * i;
      return ar + (static_cast<double>(i) * diff) / n1;
    };
    for (int64_t i = 0; i < n; ++i) {
      if (cx)
        out.set_complex(i, {point(a.real(), b.real(), i), point(a.imag(), b.imag(), i)});
      else
        out.set_double(i, point(a.real(), b.real(), i));
    }
  }
  if (single) out = out.to_class(ClassId::Single);
  return {Value(cls == ClassId::Double ? out.drop_zero_imag() : out)};
}

/// colon(a, b) and colon(a, step, b): the function form of a:b and a:step:b.
Outputs bi_colon(CallContext&, Args args, int nargout) {
  check_nargin(args, 2, 3);
  check_nargout(nargout, 1);
  if (args.size() == 2) return {colon_op(args[0], nullptr, args[1])};
  return {colon_op(args[0], &args[1], args[2])};
}

/// repmat(A, n), repmat(A, m, n, ...), repmat(A, [m n ...]): tiles A (any kind).
Outputs bi_repmat(CallContext&, Args args, int nargout) {
  check_nargin(args, 2, 1 + Dims::kMaxDims);
  check_nargout(nargout, 1);
  const Value& a = args[0];
  Dims reps = parse_size_list(args.subspan(1), "repmat");
  const Dims in = a.dims();
  const int nd = std::max(in.ndims(), reps.ndims());
  Dims out(in[0] * reps[0], in[1] * reps[1]);
  for (int j = 2; j < nd; ++j) out.push_back(in[j] * reps[j]);
  if (reps.numel() == 1) return {a};  // every count is 1
  double want = 1;  // in double: the int64 product may overflow
  for (int j = 0; j < nd; ++j) want *= static_cast<double>(out[j]);
  if (want > static_cast<double>(uint64_t(1) << 59))
    throw_error("MATLAB:array:SizeLimitExceeded",
                "Requested array exceeds maximum array size preference.");
  auto st = strides_of(in);
  const int64_t total = out.numel();
  std::vector<int64_t> idx(static_cast<size_t>(total));
  std::vector<int64_t> ctr(nd, 0);
  for (int64_t i = 0; i < total; ++i) {
    int64_t s = 0;
    for (int j = 0; j < nd; ++j) s += (ctr[j] % in[j]) * (j < in.ndims() ? st[j] : 0);
    idx[static_cast<size_t>(i)] = s;
    for (int j = 0; j < nd; ++j) {
      if (++ctr[j] < out[j]) break;
      ctr[j] = 0;
    }
  }
  out.normalize();
  return {gather_elements(a, out, idx)};
}

/// cat(dim, A, B, ...).
Outputs bi_cat(CallContext&, Args args, int nargout) {
  check_nargin(args, 1, static_cast<size_t>(-1));
  check_nargout(nargout, 1);
  double d = args[0].is_tensor() && args[0].numel() == 1 ? args[0].to_double() : 0;
  if (!(d >= 1) || d != std::floor(d) || std::isinf(d))
    throw_error("MATLAB:catenate:invalidDimension",
                "Dimension argument must be a real, positive, integer scalar.");
  return {cat_dim(static_cast<int>(std::min(d, 1e6)), args.subspan(1))};
}

Outputs bi_horzcat(CallContext&, Args args, int nargout) {
  check_nargout(nargout, 1);
  return {horzcat(args)};
}

Outputs bi_vertcat(CallContext&, Args args, int nargout) {
  check_nargout(nargout, 1);
  return {vertcat(args)};
}

}  // namespace

void register_construct(Registry& r) {
  r.add("zeros", bi_zeros);
  r.add("ones", bi_ones);
  r.add("eye", bi_eye);
  r.add("linspace", bi_linspace);
  r.add("colon", bi_colon);
  r.add("repmat", bi_repmat);
  r.add("cat", bi_cat);
  r.add("horzcat", bi_horzcat);
  r.add("vertcat", bi_vertcat);
  register_shape(r);
}

}  // namespace matfuse
