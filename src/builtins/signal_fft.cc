// Builtins of the "signal" family: fft, ifft, fft2, ifft2 (FFTW, double and single precision)
// and fftshift, ifftshift (any value kind, any dimension).
//
// fft(X), fft(X, n), fft(X, n, dim): discrete Fourier transform along dim (default: first
// non-singleton), zero-padded or truncated to n points ([] keeps the length). ifft scales by
// 1/n; its result is real when the input slices are conjugate symmetric or 'symmetric' is given
// ('nonsymmetric' keeps it complex). Integer, logical and char inputs are transformed in double;
// single stays single. Results whose imaginary parts are all zero are real, like the rest of
// matfuse. Builds without FFTW raise matfuse:notAvailable.
#include <algorithm>
#include <cmath>
#include <cstring>
#include <map>
#include <mutex>
#include <thread>
#include <tuple>
#include <vector>

#include "builtins/shape_util.h"
#include "builtins/signal_detail.h"

#ifdef MATFUSE_HAVE_FFTW
#include <fftw3.h>
#endif

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

bool conj_symmetric(const Tensor& x, int dim) {
  const Dims& d = x.dims();
  int64_t n = d[dim], stride = 1, outer = 1;
  for (int k = 0; k < dim; ++k) stride *= d[k];
  for (int k = dim + 1; k < d.ndims(); ++k) outer *= d[k];
  auto check = [&](auto tag) {
    using R = decltype(tag);
    const std::complex<R>* p = x.data<std::complex<R>>();
    for (int64_t q = 0; q < outer; ++q)
      for (int64_t k = 0; k < n; ++k) {
        const std::complex<R>* a = p + (q * n + k) * stride;
        const std::complex<R>* b = p + (q * n + (n - k) % n) * stride;
        for (int64_t i = 0; i < stride; ++i)
          if (a[i] != std::conj(b[i])) return false;
      }
    return true;
  };
  return x.cls() == ClassId::Single ? check(float{}) : check(double{});
}

#ifdef MATFUSE_HAVE_FFTW
enum class FftKind { Forward, Backward, R2C, C2R };

/// FFTW's functions for one precision.
template <class R>
struct Fftw;
template <>
struct Fftw<double> {
  using plan = fftw_plan;
  using cplx = fftw_complex;
  using iodim = fftw_iodim64;
  static plan c2c(const iodim* d, const iodim* h, cplx* i, cplx* o, int sign, unsigned f) {
    return fftw_plan_guru64_dft(1, d, 2, h, i, o, sign, f);
  }
  static plan r2c(const iodim* d, const iodim* h, double* i, cplx* o, unsigned f) {
    return fftw_plan_guru64_dft_r2c(1, d, 2, h, i, o, f);
  }
  static plan c2r(const iodim* d, const iodim* h, cplx* i, double* o, unsigned f) {
    return fftw_plan_guru64_dft_c2r(1, d, 2, h, i, o, f);
  }
  static void run_c2c(plan p, cplx* i, cplx* o) { fftw_execute_dft(p, i, o); }
  static void run_r2c(plan p, double* i, cplx* o) { fftw_execute_dft_r2c(p, i, o); }
  static void run_c2r(plan p, cplx* i, double* o) { fftw_execute_dft_c2r(p, i, o); }
  static int align(const void* p) {
    return fftw_alignment_of(static_cast<double*>(const_cast<void*>(p)));
  }
#ifdef MATFUSE_HAVE_FFTW_THREADS
  static void threads(int n) {
    static bool init = fftw_init_threads() != 0;
    if (init) fftw_plan_with_nthreads(n);
  }
#else
  static void threads(int) {}
#endif
};
template <>
struct Fftw<float> {
  using plan = fftwf_plan;
  using cplx = fftwf_complex;
  using iodim = fftwf_iodim64;
  static plan c2c(const iodim* d, const iodim* h, cplx* i, cplx* o, int sign, unsigned f) {
    return fftwf_plan_guru64_dft(1, d, 2, h, i, o, sign, f);
  }
  static plan r2c(const iodim* d, const iodim* h, float* i, cplx* o, unsigned f) {
    return fftwf_plan_guru64_dft_r2c(1, d, 2, h, i, o, f);
  }
  static plan c2r(const iodim* d, const iodim* h, cplx* i, float* o, unsigned f) {
    return fftwf_plan_guru64_dft_c2r(1, d, 2, h, i, o, f);
  }
  static void run_c2c(plan p, cplx* i, cplx* o) { fftwf_execute_dft(p, i, o); }
  static void run_r2c(plan p, float* i, cplx* o) { fftwf_execute_dft_r2c(p, i, o); }
  static void run_c2r(plan p, cplx* i, float* o) { fftwf_execute_dft_c2r(p, i, o); }
  static int align(const void* p) {
    return fftwf_alignment_of(static_cast<float*>(const_cast<void*>(p)));
  }
#ifdef MATFUSE_HAVE_FFTW_THREADS
  static void threads(int n) {
    static bool init = fftwf_init_threads() != 0;
    if (init) fftwf_plan_with_nthreads(n);
  }
#else
  static void threads(int) {}
#endif
};

/// Transforms of length n along one dimension of an array laid out as (stride, n, outer),
/// through FFTW plans cached by (kind, n, stride, outer, in-place, alignments): a plan is made
/// once (FFTW_ESTIMATE; threads for arrays of 2^18 elements and more) and then executed on
/// each call's arrays with FFTW's new-array execute functions. FFTW's planner is not
/// thread-safe: one mutex guards planning and the cache.
template <class R>
void fftw_lanes(FftKind kind, int64_t n, int64_t stride, int64_t outer, void* in, void* out) {
  using F = Fftw<R>;
  using Key = std::tuple<int, int64_t, int64_t, int64_t, bool, int, int>;
  static std::mutex mu;
  static std::map<Key, typename F::plan> cache;
  Key key{static_cast<int>(kind), n, stride, outer, in == out, F::align(in), F::align(out)};
  typename F::plan plan;
  {
    std::lock_guard<std::mutex> lock(mu);
    auto it = cache.find(key);
    if (it == cache.end()) {
      typename F::iodim d{n, stride, stride};
      typename F::iodim h[2] = {{stride, 1, 1}, {outer, stride * n, stride * n}};
      int hw = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
      F::threads(n * stride * outer >= (int64_t{1} << 18) ? hw : 1);
      unsigned flags = FFTW_ESTIMATE;
      auto* ci = static_cast<typename F::cplx*>(in);
      auto* co = static_cast<typename F::cplx*>(out);
      switch (kind) {
        case FftKind::Forward:
          plan = F::c2c(&d, h, ci, co, FFTW_FORWARD, flags);
          break;
        case FftKind::Backward:
          plan = F::c2c(&d, h, ci, co, FFTW_BACKWARD, flags);
          break;
        case FftKind::R2C:
          plan = F::r2c(&d, h, static_cast<R*>(in), co, flags);
          break;
        case FftKind::C2R:
          plan = F::c2r(&d, h, ci, static_cast<R*>(out), flags);
          break;
      }
      if (!plan)
        throw_error("matfuse:fftw", "FFTW could not plan a transform of length %lld.",
                    static_cast<long long>(n));
      it = cache.emplace(key, plan).first;
    }
    plan = it->second;
  }
  switch (kind) {
    case FftKind::Forward:
    case FftKind::Backward:
      F::run_c2c(plan, static_cast<typename F::cplx*>(in), static_cast<typename F::cplx*>(out));
      break;
    case FftKind::R2C:
      F::run_r2c(plan, static_cast<R*>(in), static_cast<typename F::cplx*>(out));
      break;
    case FftKind::C2R:
      F::run_c2r(plan, static_cast<typename F::cplx*>(in), static_cast<R*>(out));
      break;
  }
}
#endif

/// Layout (stride, n, outer) of dim in d.
void lane_layout(const Dims& d, int dim, int64_t& n, int64_t& stride, int64_t& outer) {
  n = d[dim];
  stride = 1;
  outer = 1;
  for (int k = 0; k < dim; ++k) stride *= d[k];
  for (int k = dim + 1; k < d.ndims(); ++k) outer *= d[k];
}

/// In-place transform of complex x (class double or single) along dim; inverse scales by 1/n.
void transform(Tensor& x, int dim, bool inverse, const char* fname) {
#ifdef MATFUSE_HAVE_FFTW
  int64_t n, stride, outer;
  lane_layout(x.dims(), dim, n, stride, outer);
  if (x.numel() == 0) return;
  FftKind k = inverse ? FftKind::Backward : FftKind::Forward;
  void* p = x.mutable_raw();
  if (x.cls() == ClassId::Single) {
    fftw_lanes<float>(k, n, stride, outer, p, p);
    if (inverse) {
      float* f = x.mutable_data<float>();
      const float s = 1.0f / static_cast<float>(n);
      for (int64_t i = 0; i < 2 * x.numel(); ++i) f[i] *= s;
    }
  } else {
    fftw_lanes<double>(k, n, stride, outer, p, p);
    if (inverse) {
      double* f = x.mutable_data<double>();
      for (int64_t i = 0; i < 2 * x.numel(); ++i) f[i] /= static_cast<double>(n);
    }
  }
#else
  (void)x, (void)dim, (void)inverse;
  not_available(fname, "FFTW");
#endif
}

/// Forward transform of real x (class c, already of length n along dim) by a real-to-complex
/// FFT; the upper half of each spectrum is filled in as the conjugate of the lower half.
Tensor real_forward(const Tensor& x, int dim, const char* fname) {
  Tensor out = Tensor::uninit(x.cls(), x.dims(), true);
#ifdef MATFUSE_HAVE_FFTW
  int64_t n, stride, outer;
  lane_layout(x.dims(), dim, n, stride, outer);
  if (x.numel() == 0) return out;
  auto run = [&](auto tag) {
    using R = decltype(tag);
    Tensor src = x;  // FFTW's r2c does not write its input (out of place)
    fftw_lanes<R>(FftKind::R2C, n, stride, outer, const_cast<void*>(src.raw()), out.mutable_raw());
    auto* o = out.mutable_data<std::complex<R>>();
    for (int64_t q = 0; q < outer; ++q)
      for (int64_t k = n / 2 + 1; k < n; ++k) {
        std::complex<R>* dst = o + (q * n + k) * stride;
        const std::complex<R>* srcp = o + (q * n + (n - k)) * stride;
        for (int64_t p = 0; p < stride; ++p) dst[p] = std::conj(srcp[p]);
      }
  };
  if (x.cls() == ClassId::Single)
    run(float{});
  else
    run(double{});
#else
  not_available(fname, "FFTW");
#endif
  return out;
}

/// Inverse transform of complex x (length n along dim) treated as conjugate symmetric: a
/// complex-to-real FFT of its lower half, scaled by 1/n (MATLAB's ifft(..., 'symmetric')).
Tensor symmetric_inverse(const Tensor& x, int dim, const char* fname) {
  Tensor out = Tensor::uninit(x.cls(), x.dims());
#ifdef MATFUSE_HAVE_FFTW
  int64_t n, stride, outer;
  lane_layout(x.dims(), dim, n, stride, outer);
  if (x.numel() == 0) return out;
  auto run = [&](auto tag) {
    using R = decltype(tag);
    Tensor scratch = x;  // c2r overwrites its input
    fftw_lanes<R>(FftKind::C2R, n, stride, outer, scratch.mutable_raw(), out.mutable_raw());
    R* o = out.mutable_data<R>();
    const R s = R(1) / static_cast<R>(n);
    for (int64_t i = 0; i < out.numel(); ++i) o[i] *= s;
  };
  if (x.cls() == ClassId::Single)
    run(float{});
  else
    run(double{});
#else
  not_available(fname, "FFTW");
#endif
  return out;
}

int64_t length_arg(const Value& v, const char* fname) {
  double n = v.is_tensor() && v.numel() == 1 && !v.is_char() ? v.tensor().get_double(0) : -1;
  if (!(n >= 0) || n != std::floor(n) || std::isinf(n))
    throw_error("MATLAB:fftfcn:lengthNotNonNegInt",
                "Transform length must be a nonnegative integer scalar.");
  return static_cast<int64_t>(n);
}

/// One-dimensional transform with MATLAB's argument handling; symmetric: -1 auto, 0 no, 1 yes.
Tensor fft_dim(const Tensor& x0, const Value* nv, int dim, bool inverse, int symmetric,
               const char* fname) {
  ClassId c = x0.cls() == ClassId::Single ? ClassId::Single : ClassId::Double;
  int64_t n = x0.dims()[dim];
  if (nv && !nv->is_empty()) n = length_arg(*nv, fname);
  if (!inverse && !x0.is_complex() && n > 0) {
    Tensor xr = resize_along(x0, dim, n, c, false);
    return real_forward(xr, dim, fname).drop_zero_imag();
  }
  Tensor x = resize_along(x0, dim, n, c);
  bool make_real = inverse && (symmetric == 1 || (symmetric == -1 && conj_symmetric(x, dim)));
  if (make_real && n > 0) return symmetric_inverse(x, dim, fname);
  transform(x, dim, inverse, fname);
  return x.drop_zero_imag();
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
    if (st.numel() < nd)
      throw_error("MATLAB:fftfcn:invalidSizeVector",
                  "Size vector must have at least as many elements as the input has dimensions.");
    for (int64_t k = 0; k < st.numel(); ++k)
      sz.push_back(length_arg(Value(st.get_double(k)), fname));
    nd = static_cast<int>(st.numel());
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
