// Builtins of the "signal" family: registration, shared helpers (signal_detail.h), and conv,
// deconv, filter. Polynomials are in signal_poly.cc, interp1 in signal_interp.cc, the FFT
// family in signal_fft.cc.
#include <algorithm>
#include <cctype>
#include <cmath>

#include "builtins/signal_detail.h"

#ifdef MATFUSE_HAVE_FFTW
#include <fftw3.h>
#endif

namespace matfuse {

namespace sig {

Tensor operand(const Value& v, const char* fname) {
  if (!v.is_tensor())
    throw_error("MATLAB:UndefinedFunction",
                "Undefined function '%s' for input arguments of type '%s'.", fname,
                v.class_name().c_str());
  return v.tensor();
}

ClassId result_class(std::initializer_list<const Tensor*> ts) {
  for (const Tensor* t : ts)
    if (t && t->cls() == ClassId::Single) return ClassId::Single;
  return ClassId::Double;
}

int dim_arg(const Value& v) {
  double d = v.is_tensor() && v.numel() == 1 && !v.is_char() && !v.tensor().is_complex()
                 ? v.tensor().get_double(0)
                 : 0;
  if (!(d >= 1) || d != std::floor(d) || d > 1e9)
    throw_error("MATLAB:getdimarg:dimensionMustBePositiveInteger",
                "Dimension argument must be a positive integer scalar within indexing range.");
  return static_cast<int>(d) - 1;
}

int default_dim(const Dims& d) {
  for (int k = 0; k < d.ndims(); ++k)
    if (d[k] != 1) return k;
  return 0;
}

std::string lower_text(const Value& v) {
  if (!v.is_text()) return "";
  std::string s = v.to_text();
  for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

void not_available(const char* fname, const char* lib) {
  throw_error("matfuse:notAvailable", "%s requires %s, which this build of matfuse does not include.",
              fname, lib);
}

}  // namespace sig

namespace {

using namespace sig;

bool any_complex(std::initializer_list<const Tensor*> ts) {
  for (const Tensor* t : ts)
    if (t && t->is_complex()) return true;
  return false;
}

// ---------------------------------------------------------------------------------------------
// conv

/// Full convolution of two sequences (length na + nb - 1, empty when either is empty).
template <class T> std::vector<T> conv_full(const std::vector<T>& u, const std::vector<T>& v) {
  if (u.empty() || v.empty()) return {};
  std::vector<T> c(u.size() + v.size() - 1, T(0));
  for (size_t i = 0; i < u.size(); ++i)
    for (size_t j = 0; j < v.size(); ++j) c[i + j] += u[i] * v[j];
  return c;
}

/// Smallest 2^a 3^b 5^c 7^d >= n (sizes FFTW transforms fastest).
int64_t fft_size(int64_t n) {
  int64_t best = 1;
  while (best < n) best *= 2;
  for (int64_t p7 = 1; p7 < best; p7 *= 7)
    for (int64_t p5 = p7; p5 < best; p5 *= 5)
      for (int64_t p3 = p5; p3 < best; p3 *= 3) {
        int64_t v = p3;
        while (v < n) v *= 2;
        best = std::min(best, v);
      }
  return best;
}

// Cloned for AVX2 (the project builds with -ffp-contract=off: the same products and sums, so
// the same bits in every clone).
#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__)
#define MF_CONV_CLONES __attribute__((target_clones("arch=x86-64-v3", "default")))
#else
#define MF_CONV_CLONES
#endif

/// The direct sums of conv_real (dst zeroed, nu >= nv): blocks of 4096 outputs, each block's
/// terms added kernel tap by kernel tap over contiguous data.
MF_CONV_CLONES void conv_direct(const double* u, int64_t nu, const double* v, int64_t nv,
                                int64_t o0, int64_t o1, double* dst) {
  constexpr int64_t kBlock = 4096;
  for (int64_t b0 = o0; b0 < o1; b0 += kBlock) {
    const int64_t b1 = std::min(o1, b0 + kBlock);
    double* __restrict cb = dst - o0;
    for (int64_t j = 0; j < nv; ++j) {
      const double vj = v[j];
      // outputs o in [b0, b1) with 0 <= o - j < nu
      const int64_t lo = std::max(b0, j), hi = std::min(b1, nu + j);
      const double* __restrict up = u - j;
      for (int64_t o = lo; o < hi; ++o) cb[o] += vj * up[o];
    }
  }
}

/// Outputs o0 <= o < o1 of the full convolution of real sequences u (nu) and v (nv), written to
/// dst[o - o0]: direct sums in blocks of outputs (each block's terms added kernel tap by kernel
/// tap, so the inner loop runs over contiguous data) when the shorter sequence has at most 64
/// elements, else through real FFTs of a 2^a 3^b 5^c 7^d length >= nu + nv - 1 (FFTW). The
/// FFT path rounds differently from the direct sums (errors of order eps * max|u| * sum|v|), as
/// MATLAB's and NumPy/SciPy's fast paths do.
void conv_real(const double* u, int64_t nu, const double* v, int64_t nv, int64_t o0, int64_t o1,
               double* dst) {
  std::fill(dst, dst + (o1 - o0), 0.0);
  if (nu == 0 || nv == 0) return;
  if (nu < nv) {
    std::swap(u, v);
    std::swap(nu, nv);
  }
  const int64_t n = nu + nv - 1;
  o1 = std::min(o1, n);
#ifdef MATFUSE_HAVE_FFTW
  if (nv > 64) {
    const int64_t m = fft_size(n), h = m / 2 + 1;
    double* a = fftw_alloc_real(static_cast<size_t>(m));
    double* b = fftw_alloc_real(static_cast<size_t>(m));
    fftw_complex* A = fftw_alloc_complex(static_cast<size_t>(h));
    fftw_complex* B = fftw_alloc_complex(static_cast<size_t>(h));
    fftw_plan pa = fftw_plan_dft_r2c_1d(static_cast<int>(m), a, A, FFTW_ESTIMATE);
    fftw_plan pb = fftw_plan_dft_r2c_1d(static_cast<int>(m), b, B, FFTW_ESTIMATE);
    fftw_plan pc = fftw_plan_dft_c2r_1d(static_cast<int>(m), A, a, FFTW_ESTIMATE);
    std::copy(u, u + nu, a);
    std::fill(a + nu, a + m, 0.0);
    std::copy(v, v + nv, b);
    std::fill(b + nv, b + m, 0.0);
    fftw_execute(pa);
    fftw_execute(pb);
    const double scale = 1.0 / static_cast<double>(m);
    for (int64_t k = 0; k < h; ++k) {
      double re = A[k][0] * B[k][0] - A[k][1] * B[k][1];
      double im = A[k][0] * B[k][1] + A[k][1] * B[k][0];
      A[k][0] = re * scale;
      A[k][1] = im * scale;
    }
    fftw_execute(pc);
    if (o1 > o0) std::copy(a + o0, a + o1, dst);
    fftw_destroy_plan(pa);
    fftw_destroy_plan(pb);
    fftw_destroy_plan(pc);
    fftw_free(a);
    fftw_free(b);
    fftw_free(A);
    fftw_free(B);
    return;
  }
#endif
  conv_direct(u, nu, v, nv, o0, o1, dst);
}

/// conv(u, v, shape) of two vectors: 'full' (length nu+nv-1), 'same' (the central
/// part, length nu), 'valid' (length max(nu-nv+1, 0)). Orientation as MATLAB: 'full' follows
/// the longer input (u on ties is not special: v when nu <= nv), 'same'/'valid' follow u.
/// Real double data is convolved straight into the result (only the outputs the shape keeps).
Value conv_value(const Tensor& u, const Tensor& v, const std::string& shape) {
  ClassId c = result_class({&u, &v});
  bool cplx = any_complex({&u, &v});
  int64_t nu = u.numel(), nv = v.numel();
  int64_t start = 0, len = nu + nv - 1;
  bool row = nu > nv ? u.dims().rows() == 1 : v.dims().rows() == 1;
  if (shape != "full") {
    row = u.dims().rows() == 1;
    if (shape == "same") {
      start = nv / 2;
      len = nu;
    } else {
      start = nv - 1;
      len = std::max<int64_t>(nu - nv + 1, 0);
    }
  }
  const Dims od = row ? Dims(1, len) : Dims(len, 1);
  if (!cplx) {
    Tensor ud = u.cls() == ClassId::Double ? u : u.to_class(ClassId::Double);
    Tensor vd = v.cls() == ClassId::Double ? v : v.to_class(ClassId::Double);
    Tensor out = Tensor::uninit(ClassId::Double, od);
    conv_real(ud.data<double>(), nu, vd.data<double>(), nv, start, start + len,
              out.mutable_data<double>());
    return Value(c == ClassId::Double ? out : out.to_class(c));
  }
  std::vector<cd> full = conv_full(elems<cd>(u), elems<cd>(v));
  std::vector<cd> out(static_cast<size_t>(len));
  for (int64_t i = 0; i < len; ++i)
    out[i] = start + i < static_cast<int64_t>(full.size()) ? full[start + i] : cd(0);
  return Value(make(od, out, c));
}

bool is_vec(const Tensor& t) { return t.dims().ndims() == 2 && (t.dims().rows() == 1 || t.dims().cols() == 1) && t.numel() >= 1; }

Outputs bi_conv(CallContext&, Args args, int nargout) {
  check_nargin(args, 2, 3);
  check_nargout(nargout, 1);
  Tensor u = operand(args[0], "conv"), v = operand(args[1], "conv");
  if (!is_vec(u) || !is_vec(v))
    throw_error("MATLAB:conv:AorBNotVector", "A and B must be vectors.");
  std::string shape = "full";
  if (args.size() == 3) {
    shape = lower_text(args[2]);
    if (shape != "full" && shape != "same" && shape != "valid")
      throw_error("MATLAB:conv:unknownShapeParameter",
                  "Shape must be 'full', 'same', or 'valid'.");
  }
  return {conv_value(u, v, shape)};
}

// ---------------------------------------------------------------------------------------------
// filter

struct FilterResult {
  Tensor y, zf;
};

/// Direct form II transposed IIR filter along 0-based dimension dim:
///   a(1) y(n) = b(1) x(n) + ... + b(nb) x(n-nb+1) - a(2) y(n-1) - ... - a(na) y(n-na+1).
/// zi: empty, or (L-1) values per slice (L = max(na, nb)); zf has dims (L-1) x (other dims).
template <class T>
FilterResult filter_impl(const Tensor& bt, const Tensor& at, const Tensor& xt, const Tensor* zit,
                         int dim, ClassId c) {
  std::vector<T> b = elems<T>(bt), a = elems<T>(at);
  size_t L = std::max(a.size(), b.size());
  T a0 = a[0];
  b.resize(L, T(0));
  a.resize(L, T(0));
  for (size_t k = 0; k < L; ++k) {
    b[k] /= a0;
    a[k] /= a0;
  }
  const Dims& d = xt.dims();
  int64_t n = d[dim], stride = 1, outer = 1;
  for (int k = 0; k < dim; ++k) stride *= d[k];
  for (int k = dim + 1; k < d.ndims(); ++k) outer *= d[k];
  int64_t nslices = stride * outer;
  std::vector<T> x = elems<T>(xt), y(x.size());
  std::vector<T> zall(static_cast<size_t>((L - 1) * nslices), T(0));
  if (zit && zit->numel() > 0) {
    std::vector<T> zi = elems<T>(*zit);
    for (size_t i = 0; i < zall.size(); ++i) zall[i] = zi[i];
  }
  for (int64_t q = 0; q < outer; ++q)
    for (int64_t p = 0; p < stride; ++p) {
      T* z = zall.data() + (q * stride + p) * static_cast<int64_t>(L - 1);
      int64_t base = q * stride * n + p;
      for (int64_t i = 0; i < n; ++i) {
        T xi = x[base + i * stride];
        T yi = b[0] * xi + (L > 1 ? z[0] : T(0));
        for (size_t k = 0; k + 1 < L; ++k)
          z[k] = b[k + 1] * xi + (k + 2 < L ? z[k + 1] : T(0)) - a[k + 1] * yi;
        y[base + i * stride] = yi;
      }
    }
  FilterResult r;
  r.y = make(d, y, c);
  Dims zd(static_cast<int64_t>(L - 1), 1);
  std::vector<int64_t> rest;
  for (int k = 0; k < std::max(d.ndims(), dim + 1); ++k)
    if (k != dim) rest.push_back(d[k]);
  if (!rest.empty()) {
    Dims z2(static_cast<int64_t>(L - 1), rest[0]);
    for (size_t k = 1; k < rest.size(); ++k) z2.push_back(rest[k]);
    zd = z2.normalize();
  }
  r.zf = make(zd, zall, c);
  return r;
}

/// Direct form II transposed over G lanes at once (lane g starts at x + off[g], elements
/// `stride` apart): the lanes' recursions are independent, so interleaving them hides the
/// latency of each one's chain. b, a: L normalized coefficients; z: (L-1) x G states.
template <int G>
void df2t_lanes(const double* b, const double* a, int64_t L, const double* x, double* y,
                const int64_t* off, int64_t n, int64_t stride, double* z) {
  double zz[16][G];
  for (int64_t k = 0; k + 1 < L; ++k)
    for (int g = 0; g < G; ++g) zz[k][g] = z[k * G + g];
  for (int64_t i = 0; i < n; ++i) {
    double xi[G], yi[G];
    for (int g = 0; g < G; ++g) xi[g] = x[off[g] + i * stride];
    for (int g = 0; g < G; ++g) yi[g] = b[0] * xi[g] + (L > 1 ? zz[0][g] : 0.0);
    for (int64_t k = 0; k + 2 < L; ++k)
      for (int g = 0; g < G; ++g) zz[k][g] = b[k + 1] * xi[g] + zz[k + 1][g] - a[k + 1] * yi[g];
    if (L > 1)
      for (int g = 0; g < G; ++g) zz[L - 2][g] = b[L - 1] * xi[g] - a[L - 1] * yi[g];
    for (int g = 0; g < G; ++g) y[off[g] + i * stride] = yi[g];
  }
  for (int64_t k = 0; k + 1 < L; ++k)
    for (int g = 0; g < G; ++g) z[k * G + g] = zz[k][g];
}

/// filter of real double data with at most 17 coefficients: the slices in groups of four
/// (df2t_lanes), reading x and writing y in place of copies.
FilterResult filter_real(const Tensor& bt, const Tensor& at, const Tensor& xt, const Tensor* zit,
                         int dim, ClassId c) {
  std::vector<double> b = elems<double>(bt), a = elems<double>(at);
  const int64_t L = static_cast<int64_t>(std::max(a.size(), b.size()));
  const double a0 = a[0];
  b.resize(L, 0.0);
  a.resize(L, 0.0);
  for (int64_t k = 0; k < L; ++k) {
    b[k] /= a0;
    a[k] /= a0;
  }
  const Dims& d = xt.dims();
  int64_t n = d[dim], stride = 1, outer = 1;
  for (int k = 0; k < dim; ++k) stride *= d[k];
  for (int k = dim + 1; k < d.ndims(); ++k) outer *= d[k];
  const int64_t nslices = stride * outer;
  Tensor xd = xt.cls() == ClassId::Double ? xt : xt.to_class(ClassId::Double);
  const double* x = xd.data<double>();
  Tensor yt = Tensor::uninit(ClassId::Double, d);
  double* y = yt.mutable_data<double>();
  std::vector<double> zall(static_cast<size_t>((L - 1) * nslices), 0.0);
  if (zit && zit->numel() > 0) zall = elems<double>(*zit);
  constexpr int G = 4;
  std::vector<int64_t> off(G);
  std::vector<double> zg(static_cast<size_t>(std::max<int64_t>(L - 1, 1) * G));
  for (int64_t s0 = 0; s0 < nslices; s0 += G) {
    const int64_t g = std::min<int64_t>(G, nslices - s0);
    for (int64_t j = 0; j < G; ++j) {
      int64_t sl = s0 + std::min(j, g - 1);  // a short group repeats its last slice
      int64_t q = sl / stride, p = sl % stride;
      off[j] = q * stride * n + p;
      for (int64_t k = 0; k + 1 < L; ++k) zg[k * G + j] = zall[sl * (L - 1) + k];
    }
    if (g == G) {
      df2t_lanes<G>(b.data(), a.data(), L, x, y, off.data(), n, stride, zg.data());
    } else {
      for (int64_t j = 0; j < g; ++j) {
        double z1[16];
        for (int64_t k = 0; k + 1 < L; ++k) z1[k] = zg[k * G + j];
        df2t_lanes<1>(b.data(), a.data(), L, x, y, &off[j], n, stride, z1);
        for (int64_t k = 0; k + 1 < L; ++k) zg[k * G + j] = z1[k];
      }
    }
    for (int64_t j = 0; j < g; ++j)
      for (int64_t k = 0; k + 1 < L; ++k) zall[(s0 + j) * (L - 1) + k] = zg[k * G + j];
  }
  FilterResult r;
  r.y = c == ClassId::Double ? yt : yt.to_class(c);
  Dims zd(L - 1, 1);
  std::vector<int64_t> rest;
  for (int k = 0; k < std::max(d.ndims(), dim + 1); ++k)
    if (k != dim) rest.push_back(d[k]);
  if (!rest.empty()) {
    Dims z2(L - 1, rest[0]);
    for (size_t k = 1; k < rest.size(); ++k) z2.push_back(rest[k]);
    zd = z2.normalize();
  }
  r.zf = make(zd, zall, c);
  return r;
}

/// y = filter(b, a, x), filter(b, a, x, zi), filter(b, a, x, zi, dim), [y, zf] = filter(...).
/// Default dim: first non-singleton dimension of x. Errors: a(1) == 0
/// ("First denominator filter coefficient must be non-zero."), bad zi size.
Outputs bi_filter(CallContext&, Args args, int nargout) {
  check_nargin(args, 3, 5);
  check_nargout(nargout, 2);
  Tensor b = operand(args[0], "filter"), a = operand(args[1], "filter"),
         x = operand(args[2], "filter");
  Tensor zi;
  bool has_zi = args.size() >= 4;
  if (has_zi) zi = operand(args[3], "filter");
  if (!is_vec(b) || !is_vec(a))
    throw_error("MATLAB:filter:invalidInputs", "Filter coefficients must be vectors.");
  if (a.get_complex(0) == std::complex<double>(0))
    throw_error("MATLAB:filter:firstCoeffZero",
                "First denominator filter coefficient must be non-zero.");
  int dim = args.size() == 5 ? dim_arg(args[4]) : default_dim(x.dims());
  int64_t L = std::max(a.numel(), b.numel());
  int64_t nslices = x.dims()[dim] == 0 ? 0 : x.numel() / x.dims()[dim];
  if (x.dims()[dim] == 0) {
    nslices = 1;
    for (int k = 0; k < std::max(x.dims().ndims(), dim + 1); ++k)
      if (k != dim) nslices *= x.dims()[k];
  }
  if (has_zi && zi.numel() != 0 && zi.numel() != (L - 1) * nslices)
    throw_error("MATLAB:filter:invalidInitialConditions",
                "Initial conditions must be a vector of length max(length(a),length(b))-1, or an "
                "array with the leading dimension of size max(length(a),length(b))-1 and with "
                "remaining dimensions matching those of x.");
  ClassId c = result_class({&b, &a, &x, has_zi ? &zi : nullptr});
  bool cplx = any_complex({&b, &a, &x, has_zi ? &zi : nullptr});
  FilterResult r = cplx      ? filter_impl<cd>(b, a, x, has_zi ? &zi : nullptr, dim, c)
                   : L <= 17 ? filter_real(b, a, x, has_zi ? &zi : nullptr, dim, c)
                             : filter_impl<double>(b, a, x, has_zi ? &zi : nullptr, dim, c);
  Outputs out{Value(r.y)};
  if (nargout > 1) out.push_back(Value(r.zf));
  return out;
}

// ---------------------------------------------------------------------------------------------
// deconv

/// [q, r] = deconv(y, a): polynomial division y = conv(a, q) + r, by filtering an impulse.
/// q has length ny - na + 1 (0 when na > ny); r has y's size. a(1) == 0 raises
/// MATLAB:deconv:ZeroCoef1.
Outputs bi_deconv(CallContext&, Args args, int nargout) {
  check_nargin(args, 2, 2);
  check_nargout(nargout, 2);
  Tensor y = operand(args[0], "deconv"), a = operand(args[1], "deconv");
  if (!is_vec(y) || !is_vec(a))
    throw_error("MATLAB:deconv:NotVector", "Input arguments must be vectors.");
  if (a.get_complex(0) == std::complex<double>(0))
    throw_error("MATLAB:deconv:ZeroCoef1", "First coefficient of A must be non-zero.");
  ClassId c = result_class({&y, &a});
  bool cplx = any_complex({&y, &a});
  int64_t ny = y.numel(), na = a.numel();
  auto run = [&](auto tag) -> Outputs {
    using T = decltype(tag);
    std::vector<T> yv = elems<T>(y), av = elems<T>(a);
    if (na > ny) {
      Outputs o{Value(make(Dims(1, 1), std::vector<T>{T(0)}, c))};
      if (nargout > 1) o.push_back(Value(make(y.dims(), yv, c)));
      return o;
    }
    int64_t nq = ny - na + 1;
    // Long division: q(k) = (y(k) - sum_{j>=1} a(j) q(k-j)) / a(0).
    std::vector<T> q(nq), rem = yv;
    for (int64_t k = 0; k < nq; ++k) {
      q[k] = rem[k] / av[0];
      for (int64_t j = 0; j < na; ++j) rem[k + j] -= q[k] * av[j];
      rem[k] = T(0);
    }
    bool row = y.dims().rows() == 1;
    Outputs o{Value(make(row ? Dims(1, nq) : Dims(nq, 1), q, c))};
    if (nargout > 1) o.push_back(Value(make(y.dims(), rem, c)));
    return o;
  };
  return cplx ? run(cd{}) : run(double{});
}

}  // namespace

void register_signal(Registry& r) {
  r.add("conv", bi_conv);
  r.add("filter", bi_filter);
  r.add("deconv", bi_deconv);
  sig::register_poly(r);
  sig::register_interp(r);
  sig::register_fft(r);
  sig::register_pp(r);
  sig::register_conv2(r);
}

}  // namespace matfuse
