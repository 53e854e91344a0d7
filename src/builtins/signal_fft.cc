// Builtins of the "signal" family: fft, ifft, fft2, ifft2, fftn, ifftn (double and single
// precision; the transforms run through accel::fft_lanes: FFTW on the host, cuFFT on a GPU)
// and fftshift, ifftshift (any value kind, any dimension).
//
// fft(X), fft(X, n), fft(X, n, dim): discrete Fourier transform along dim (default: first
// non-singleton), zero-padded or truncated to n points ([] keeps the length). ifft scales by
// 1/n; its result is real when the input slices are conjugate symmetric or 'symmetric' is given
// ('nonsymmetric' keeps it complex). Integer, logical and char inputs are transformed in double;
// single stays single. Results whose imaginary parts are all zero are real, like the rest of
// matfuse (a result left on the GPU stays complex). Builds without FFTW and without a GPU raise
// matfuse:notAvailable.
#include <algorithm>
#include <cmath>
#include <cstring>
#include <vector>

#include "accel/run/fft.h"
#include "builtins/shape_util.h"
#include "builtins/signal_detail.h"
#include "runtime/array_size.h"

namespace matfuse::sig {

namespace {

/// x resized along dim to n (truncated or zero-padded), of class c; complex unless
/// !complex and x is real.
Tensor resize_along(const Tensor& x, int dim, int64_t n, ClassId c, bool complex = true) {
  Tensor src = x.cls() == c ? x : x.to_class(c);
  if (complex) src = src.to_complex();
  const Dims& d = src.dims();
  if (d[dim] == n) return src;
  Dims od = d;
  od.set(dim, n);
  od.normalize();
  Tensor out = Tensor::zeros(c, od, src.is_complex());
  int64_t stride = 1, outer = 1;
  for (int k = 0; k < dim; ++k) stride *= d[k];
  for (int k = dim + 1; k < d.ndims(); ++k) outer *= d[k];
  int64_t m = std::min(n, d[dim]);
  int eb = src.elem_bytes();
  const char* s = static_cast<const char*>(src.raw());
  char* o = static_cast<char*>(out.mutable_raw());
  for (int64_t q = 0; q < outer; ++q)
    for (int64_t i = 0; i < m; ++i)
      std::memcpy(o + ((q * n + i) * stride) * eb, s + ((q * d[dim] + i) * stride) * eb,
                  static_cast<size_t>(stride) * eb);
  return out;
}

int64_t length_arg(const Value& v, const char* fname) {
  double n = v.is_tensor() && v.numel() == 1 && !v.is_char() ? v.tensor().get_double(0) : -1;
  if (!(n >= 0) || n != std::floor(n) || std::isinf(n))
    throw_error("MATLAB:fftfcn:lengthNotNonNegInt",
                "Transform length must be a nonnegative integer scalar.");
  return clamp_count(n);  // 1e300: the size check fails (no undefined cast)
}

/// A transform's result as matfuse returns it: all-zero imaginary parts dropped (MATLAB's
/// display of such results), except for a device-resident result, which stays complex rather
/// than being gathered to look at its imaginary parts.
Tensor finish(const Tensor& y) { return y.device_only() ? y : y.drop_zero_imag(); }

/// One-dimensional transform with MATLAB's argument handling; symmetric: -1 auto, 0 no, 1 yes.
/// The transforms run through accel::fft_lanes (FFTW on the host, cuFFT on a device, placed by
/// cost and residency); padding, truncation and class conversion happen on the host, and an
/// input already of the transform's class and length goes to the transform as it is (a
/// device-resident value is not gathered).
Tensor fft_dim(const Tensor& x0, const Value* nv, int dim, bool inverse, int symmetric,
               const char* fname) {
  ClassId c = x0.cls() == ClassId::Single ? ClassId::Single : ClassId::Double;
  int64_t n = x0.dims()[dim];
  if (nv && !nv->is_empty()) n = length_arg(*nv, fname);
  const bool as_is = n == x0.dims()[dim] && x0.cls() == c;
  if (!inverse && !x0.is_complex() && n > 0) {
    Tensor xr = as_is ? x0 : resize_along(x0, dim, n, c, false);
    if (xr.numel() == 0) return Tensor::uninit(c, xr.dims(), true).drop_zero_imag();
    return finish(accel::fft_lanes(accel::FftKind::RealForward, xr, dim));
  }
  Tensor x = as_is && x0.is_complex() ? x0 : resize_along(x0, dim, n, c);
  if (x.numel() == 0 || n == 0) return x.drop_zero_imag();
  bool make_real =
      inverse && (symmetric == 1 || (symmetric == -1 && accel::fft_conj_symmetric(x, dim)));
  if (make_real) return accel::fft_lanes(accel::FftKind::SymmetricInverse, x, dim);
  return finish(
      accel::fft_lanes(inverse ? accel::FftKind::Inverse : accel::FftKind::Forward, x, dim));
}

Outputs fft_common(Args args, int nargout, bool inverse, const char* fname) {
  check_nargin(args, 1, 4);
  check_nargout(nargout, 1);
  Tensor x = operand(args[0], fname);
  int symmetric = -1;
  size_t nargs = args.size();
  if (nargs > 1 && args[nargs - 1].is_text()) {
    std::string s = lower_text(args[nargs - 1]);
    if (inverse && s == "symmetric") symmetric = 1;
    else if (inverse && s == "nonsymmetric") symmetric = 0;
    else throw_error("MATLAB:fftfcn:invalidOption", "Invalid option.");
    --nargs;
  }
  if (nargs > 3) throw_error("MATLAB:TooManyInputs", "Too many input arguments.");
  if (nargs < 3 && x.dims().ndims() == 2 && x.dims().rows() == 0 && x.dims().cols() == 0 &&
      (nargs < 2 || args[1].is_empty()))
    return {Value(Tensor::zeros(x.cls() == ClassId::Single ? ClassId::Single : ClassId::Double, Dims(0, 0)))};
  int dim = nargs == 3 ? dim_arg(args[2]) : default_dim(x.dims());
  return {Value(fft_dim(x, nargs >= 2 ? &args[1] : nullptr, dim, inverse, symmetric, fname))};
}

Outputs bi_fft(CallContext&, Args args, int nargout) { return fft_common(args, nargout, false, "fft"); }
Outputs bi_ifft(CallContext&, Args args, int nargout) { return fft_common(args, nargout, true, "ifft"); }

/// fft2(X), fft2(X, m, n); ifft2(X [, m, n] [, 'symmetric']): transforms along dims 1 and 2.
Outputs fft2_common(Args args, int nargout, bool inverse, const char* fname) {
  check_nargin(args, 1, 4);
  check_nargout(nargout, 1);
  Tensor x = operand(args[0], fname);
  int symmetric = -1;
  size_t nargs = args.size();
  if (nargs > 1 && args[nargs - 1].is_text()) {
    std::string s = lower_text(args[nargs - 1]);
    if (inverse && s == "symmetric") symmetric = 1;
    else if (inverse && s == "nonsymmetric") symmetric = 0;
    else throw_error("MATLAB:fftfcn:invalidOption", "Invalid option.");
    --nargs;
  }
  if (nargs == 2 || nargs > 3) throw_error("MATLAB:fftfcn:invalidSizeArgs", "Specify both M and N.");
  const Value* mv = nargs == 3 ? &args[1] : nullptr;
  const Value* nv = nargs == 3 ? &args[2] : nullptr;
  Tensor y = fft_dim(x, mv, 0, inverse, 0, fname);
  y = fft_dim(y, nv, 1, inverse, 0, fname);
  bool real = symmetric == 1;
  if (inverse && symmetric == -1 && x.dims().ndims() == 2 && !mv) {
    // Conjugate symmetric input X(i,j) == conj(X(mod(-i,m), mod(-j,n))) gives a real result.
    int64_t m = x.dims().rows(), n = x.dims().cols();
    real = true;
    for (int64_t j = 0; j < n && real; ++j)
      for (int64_t i = 0; i < m && real; ++i)
        if (x.get_complex(j * m + i) != std::conj(x.get_complex(((n - j) % n) * m + (m - i) % m)))
          real = false;
  }
  if (real && y.is_complex()) {
    Tensor r = Tensor::uninit(y.cls(), y.dims());
    for (int64_t i = 0; i < y.numel(); ++i) r.set_double(i, y.get_double(i));
    y = r;
  }
  return {Value(y)};
}

Outputs bi_fft2(CallContext&, Args args, int nargout) { return fft2_common(args, nargout, false, "fft2"); }
Outputs bi_ifft2(CallContext&, Args args, int nargout) { return fft2_common(args, nargout, true, "ifft2"); }

/// fftn(X), fftn(X, sz); ifftn(X [, sz] [, 'symmetric'|'nonsymmetric']): transforms along
/// every dimension (sz: one length per dimension, zero-padding or truncating; trailing
/// dimensions beyond ndims(X) are singleton). ifftn with 'symmetric' runs the inverse along
/// the first dimension last as a complex-to-real transform (FFTW's multidimensional c2r
/// convention), so a conjugate symmetric X gives its real inverse.
Outputs fftn_common(Args args, int nargout, bool inverse, const char* fname) {
  check_nargin(args, 1, 3);
  check_nargout(nargout, 1);
  Tensor x = operand(args[0], fname);
  int symmetric = -1;
  size_t nargs = args.size();
  if (nargs > 1 && args[nargs - 1].is_text()) {
    std::string s = lower_text(args[nargs - 1]);
    if (inverse && s == "symmetric")
      symmetric = 1;
    else if (inverse && s == "nonsymmetric")
      symmetric = 0;
    else
      throw_error("MATLAB:fftfcn:invalidOption", "Invalid option.");
    --nargs;
  }
  std::vector<int64_t> sz;
  int nd = x.dims().ndims();
  if (nargs == 2) {
    Tensor st = operand(args[1], fname);
    if (!st.dims().is_vector() && !st.is_empty())
      throw_error("MATLAB:fftfcn:invalidSizeVector", "Size vector must be a vector.");
    if (st.numel() < nd)
      throw_error("MATLAB:fftfcn:invalidSizeVector",
                  "Size vector must have at least as many elements as the input has dimensions.");
    for (int64_t k = 0; k < st.numel(); ++k)
      sz.push_back(length_arg(Value(st.get_double(k)), fname));
    nd = static_cast<int>(st.numel());
    // The complex result must fit (checked before any transform runs).
    double total = 16;
    for (int64_t v : sz) total *= static_cast<double>(v);
    if (total > Tensor::max_array_bytes())
      throw_error("MATLAB:array:SizeLimitExceeded",
                  "Requested array exceeds the maximum possible variable size.");
  }
  Tensor y = x;
  // Dimensions from the last to the first, so that a symmetric inverse ends with dim 1.
  for (int k = nd - 1; k >= 0; --k) {
    Value nv(sz.empty() ? static_cast<double>(y.dims()[k]) : static_cast<double>(sz[k]));
    y = fft_dim(y, &nv, k, inverse, k == 0 ? symmetric : 0, fname);
  }
  return {Value(y)};
}

Outputs bi_fftn(CallContext&, Args args, int nargout) {
  return fftn_common(args, nargout, false, "fftn");
}
Outputs bi_ifftn(CallContext&, Args args, int nargout) {
  return fftn_common(args, nargout, true, "ifftn");
}

/// fftshift(X) swaps halves along every dimension (circular shift by floor(n/2));
/// fftshift(X, dim) along one dimension. ifftshift undoes it (shift by ceil(n/2)).
Outputs shift_common(Args args, int nargout, bool inverse) {
  check_nargin(args, 1, 2);
  check_nargout(nargout, 1);
  const Value& x = args[0];
  Dims d = x.dims();
  int nd = d.ndims();
  std::vector<int> dims;
  if (args.size() == 2) {
    int k = dim_arg(args[1]);
    dims.push_back(k);
  } else {
    for (int k = 0; k < nd; ++k) dims.push_back(k);
  }
  std::vector<int64_t> shift(static_cast<size_t>(std::max(nd, dims.back() + 1)), 0);
  for (int k : dims) {
    int64_t n = d[k];
    shift[k] = inverse ? (n + 1) / 2 : n / 2;
  }
  int64_t total = d.numel();
  std::vector<int64_t> src(static_cast<size_t>(total));
  auto st = strides_of(d);
  for (int64_t j = 0; j < total; ++j) {
    int64_t rem = j, s = 0;
    for (int k = 0; k < nd; ++k) {
      int64_t i = rem % d[k];
      rem /= d[k];
      int64_t si = (i - shift[k] % d[k] + d[k]) % d[k];
      s += si * st[k];
    }
    src[j] = s;
  }
  return {gather_elements(x, d, src)};
}

Outputs bi_fftshift(CallContext&, Args args, int nargout) { return shift_common(args, nargout, false); }
Outputs bi_ifftshift(CallContext&, Args args, int nargout) { return shift_common(args, nargout, true); }

}  // namespace

void register_fft(Registry& r) {
  r.add("fft", bi_fft);
  r.add("ifft", bi_ifft);
  r.add("fft2", bi_fft2);
  r.add("ifft2", bi_ifft2);
  r.add("fftn", bi_fftn);
  r.add("ifftn", bi_ifftn);
  r.add("fftshift", bi_fftshift);
  r.add("ifftshift", bi_ifftshift);
}

}  // namespace matfuse::sig
