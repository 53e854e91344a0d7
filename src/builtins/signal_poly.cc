// Builtins of the "signal" family, polynomials: polyfit, polyval, roots.
#include <algorithm>
#include <cmath>

#include "builtins/lapack_inc.h"
#include "builtins/linalg.h"
#include "builtins/linalg_detail.h"
#include "builtins/signal_detail.h"
#include "runtime/array_size.h"

namespace matfuse::sig {

namespace {

/// Least squares fit of real data: V p = y by Householder QR of the m x k Vandermonde matrix
/// V (m >= k): p = R \ (Q' y). R (k x k) is returned for S.R.
std::vector<double> qr_lsq(std::vector<double> V, int64_t m, int64_t k, std::vector<double> y,
                           std::vector<double>& R) {
  std::vector<double> tau(static_cast<size_t>(k));
  int ld = static_cast<int>(std::max<int64_t>(m, 1));
  LAPACKE_dgeqrf(LAPACK_COL_MAJOR, static_cast<int>(m), static_cast<int>(k), V.data(), ld, tau.data());
  LAPACKE_dormqr(LAPACK_COL_MAJOR, 'L', 'T', static_cast<int>(m), 1, static_cast<int>(k), V.data(), ld,
                 tau.data(), y.data(), ld);
  R.assign(static_cast<size_t>(k * k), 0.0);
  for (int64_t j = 0; j < k; ++j)
    for (int64_t i = 0; i <= j; ++i) R[j * k + i] = V[j * m + i];
  std::vector<double> p(y.begin(), y.begin() + k);
  cblas_dtrsv(CblasColMajor, CblasUpper, CblasNoTrans, CblasNonUnit, static_cast<int>(k), R.data(),
              static_cast<int>(std::max<int64_t>(k, 1)), p.data(), 1);
  return p;
}

/// p = polyfit(x, y, n): least-squares polynomial of degree n (row vector, highest power
/// first) through QR of the Vandermonde matrix. [p, S] adds S.R (triangular factor), S.df
/// (degrees of freedom) and S.normr (residual norm); [p, S, mu] centers and scales x first
/// (mu = [mean(x); std(x)]). Errors: MATLAB:polyfit:XYSizeMismatch. Degree >= number of points
/// warns MATLAB:polyfit:PolyNotUnique.
Outputs bi_polyfit(CallContext& ctx, Args args, int nargout) {
  check_nargin(args, 3, 3);
  check_nargout(nargout, 3);
  Tensor xt = operand(args[0], "polyfit"), yt = operand(args[1], "polyfit");
  if (xt.numel() != yt.numel())
    throw_error("MATLAB:polyfit:XYSizeMismatch",
                "The first two inputs must have the same number of elements.");
  double nd = args[2].to_double("N");
  if (!(nd >= 0) || nd != std::floor(nd))
    throw_error("MATLAB:polyfit:invalidN", "N must be a nonnegative integer.");
  // 1e300: the size check of the Vandermonde matrix fails (no undefined cast).
  int64_t n = clamp_count(nd), m = xt.numel(), k = n + 1;
  ClassId c = result_class({&xt, &yt});
  std::vector<double> x = elems<double>(xt);
  double mu1 = 0, mu2 = 1;
  if (nargout > 2) {
    for (double v : x) mu1 += v;
    mu1 = m ? mu1 / m : NAN;
    double ss = 0;
    for (double v : x) ss += (v - mu1) * (v - mu1);
    mu2 = m > 1 ? std::sqrt(ss / (m - 1)) : 0;
    for (double& v : x) v = (v - mu1) / mu2;
  }
  Tensor V = Tensor::uninit(ClassId::Double, Dims(m, k));
  for (int64_t i = 0; i < m; ++i) {
    double pw = 1;
    for (int64_t j = k - 1; j >= 0; --j) {
      V.set_double(j * m + i, pw);
      pw *= x[i];
    }
  }
  linalg_detail::SessionScope scope(&ctx.session());
  std::vector<double> R;
  Tensor p;
  if (yt.is_complex() || m < k) {
    if (m < k)
      linalg_detail::warn("MATLAB:polyfit:PolyNotUnique",
                          "Polynomial is not unique; degree >= number of data points.");
    Tensor ycol = yt.to_class(ClassId::Double).reshaped(Dims(m, 1));
    p = transpose_value(mldivide(Value(V), Value(ycol)), false).tensor();
  } else {
    std::vector<double> pv = qr_lsq(elems<double>(V), m, k, elems<double>(yt), R);
    p = make(Dims(1, k), pv, ClassId::Double);
  }
  Outputs out{Value(c == ClassId::Single ? p.to_class(c) : p)};
  if (nargout > 1) {
    // Residual norm ||y - V p||.
    double nr = 0;
    for (int64_t i = 0; i < m; ++i) {
      std::complex<double> s = 0;
      for (int64_t j = 0; j < k; ++j) s += V.get_double(j * m + i) * p.get_complex(j);
      nr += std::norm(yt.get_complex(i) - s);
    }
    StructArray S(Dims(1, 1));
    int64_t rk = static_cast<int64_t>(std::sqrt(static_cast<double>(R.size())));
    S.at(0, S.add_field("R")) = Value(make(Dims(rk, rk), R, c));
    S.at(0, S.add_field("df")) = Value(static_cast<double>(std::max<int64_t>(0, m - k)));
    S.at(0, S.add_field("normr")) = Value(Tensor::scalar(std::sqrt(nr), c));
    out.push_back(Value(S));
  }
  if (nargout > 2) out.push_back(Value(make(Dims(2, 1), std::vector<double>{mu1, mu2}, c)));
  return out;
}

/// y = polyval(p, x) (Horner, y has x's size), polyval(p, x, [], mu) evaluates at
/// (x - mu(1)) / mu(2). p must be a vector (or empty, giving zeros).
Outputs bi_polyval(CallContext&, Args args, int nargout) {
  check_nargin(args, 2, 4);
  check_nargout(nargout, 1);
  Tensor pt = operand(args[0], "polyval"), xt = operand(args[1], "polyval");
  if (!pt.dims().is_vector() && !pt.is_empty())
    throw_error("MATLAB:polyval:InvalidP", "Input argument must be a vector.");
  std::complex<double> mu1 = 0, mu2 = 1;
  if (args.size() == 4) {
    Tensor mu = operand(args[3], "polyval");
    if (mu.numel() < 2) throw_error("MATLAB:polyval:InvalidMu", "MU must be a two-element vector.");
    mu1 = mu.get_complex(0);
    mu2 = mu.get_complex(1);
  }
  ClassId c = result_class({&pt, &xt});
  bool cplx = pt.is_complex() || xt.is_complex() || mu1.imag() != 0 || mu2.imag() != 0;
  auto run = [&](auto tag) {
    using T = decltype(tag);
    std::vector<T> p = elems<T>(pt), x = elems<T>(xt), y(x.size());
    for (size_t i = 0; i < x.size(); ++i) {
      T xv = x[i];
      if constexpr (std::is_same_v<T, double>) xv = (xv - mu1.real()) / mu2.real();
      else xv = (xv - mu1) / mu2;
      T s(0);
      for (const T& c0 : p) s = s * xv + c0;
      y[i] = s;
    }
    return Value(make(xt.dims(), y, c));
  };
  return {cplx ? run(cd{}) : run(double{})};
}

/// r = roots(c): column of the roots of the polynomial with coefficients c (highest power
/// first), as eigenvalues of the companion matrix (LAPACK geev). Leading zeros are dropped;
/// trailing zeros give zero roots. Errors: MATLAB:roots:NonVectorInput,
/// MATLAB:roots:NonFiniteInput.
Outputs bi_roots(CallContext&, Args args, int nargout) {
  check_nargin(args, 1, 1);
  check_nargout(nargout, 1);
  Tensor ct = operand(args[0], "roots");
  if (!ct.dims().is_vector() && !ct.is_empty())
    throw_error("MATLAB:roots:NonVectorInput", "Input must be a vector.");
  std::vector<cd> c = elems<cd>(ct);
  for (const cd& v : c)
    if (!std::isfinite(v.real()) || !std::isfinite(v.imag()))
      throw_error("MATLAB:roots:NonFiniteInput", "Input to ROOTS must not contain NaN or Inf.");
  ClassId cls = result_class({&ct});
  size_t first = 0, last = c.size();
  while (first < last && c[first] == cd(0)) ++first;
  while (last > first && c[last - 1] == cd(0)) --last;
  size_t nzero = c.size() - last;
  if (first == last) nzero = 0;  // all zero: no roots
  std::vector<cd> core(c.begin() + first, c.begin() + last);
  std::vector<cd> r;
  if (core.size() > 1) {
    int n = static_cast<int>(core.size()) - 1;
    bool cplx = ct.is_complex();
    if (!cplx) {
      std::vector<double> A(static_cast<size_t>(n) * n, 0.0), wr(n), wi(n);
      for (int j = 0; j < n; ++j) A[j * n] = -core[j + 1].real() / core[0].real();
      for (int i = 1; i < n; ++i) A[(i - 1) * n + i] = 1.0;
      double dummy = 0;
      LAPACKE_dgeev(LAPACK_COL_MAJOR, 'N', 'N', n, A.data(), n, wr.data(), wi.data(), &dummy, 1,
                    &dummy, 1);
      for (int i = 0; i < n; ++i) r.emplace_back(wr[i], wi[i]);
    } else {
      std::vector<cd> A(static_cast<size_t>(n) * n, cd(0)), w(n);
      for (int j = 0; j < n; ++j) A[j * n] = -core[j + 1] / core[0];
      for (int i = 1; i < n; ++i) A[(i - 1) * n + i] = 1.0;
      cd dummy = 0;
      LAPACKE_zgeev(LAPACK_COL_MAJOR, 'N', 'N', n, A.data(), n, w.data(), &dummy, 1, &dummy, 1);
      r = w;
    }
  }
  for (size_t i = 0; i < nzero; ++i) r.emplace_back(0.0);
  int64_t nr = static_cast<int64_t>(r.size());
  if (ct.is_empty() && nr == 0) return {Value(Tensor::zeros(cls, Dims(0, 0)))};
  return {Value(make(Dims(nr, 1), r, cls))};
}

}  // namespace

void register_poly(Registry& r) {
  r.add("polyfit", bi_polyfit);
  r.add("polyval", bi_polyval);
  r.add("roots", bi_roots);
}

}  // namespace matfuse::sig
