// Builtins of the "linalg_ext" family, part 3: eig, svd and expm.
//
// eig: Hermitian (exactly, including a real diagonal) -> syev/heev, real ascending eigenvalues
// and orthonormal eigenvectors; otherwise geev (balanced), complex eigenvalues when any is
// non-real. eig(A,B): Hermitian A with Hermitian positive definite B -> sygv/hegv (V'*B*V = I),
// otherwise ggev with unit 2-norm eigenvectors.
// svd: gesdd, singular values descending.
// expm: scaling and squaring with Pade approximants of degree 3, 5, 7, 9, 13 chosen by the
// 1-norm, following N. J. Higham, "The scaling and squaring method for the matrix exponential
// revisited", SIAM J. Matrix Anal. Appl. 26(4):1179-1193, 2005 (Algorithm 2.3, theta_m from
// Table 2.3). Computed in double precision; single input gives a single result.
#include <algorithm>
#include <cmath>

#include "builtins/linalg_detail.h"
#include "builtins/linalg_device.h"
#include "builtins/linalg_ext_lapack.h"
#include "builtins/registry.h"

namespace matfuse {

void register_linalg_ext_eig(Registry& r);

namespace {

using namespace lx;

template <class T> Value out_mat(const Mat<T>& m) { return Value(to_tensor(m).drop_zero_imag()); }

template <class T> bool is_hermitian(const Mat<T>& a) {
  if (a.m != a.n) return false;
  for (int64_t j = 0; j < a.n; ++j) {
    if (std::imag(a(j, j)) != 0) return false;
    for (int64_t i = j + 1; i < a.n; ++i)
      if (a(i, j) != conj_of(a(j, i))) return false;
  }
  return true;
}

/// Column vector or diagonal matrix of values.
template <class V> Value values_out(const std::vector<V>& w, bool as_matrix) {
  int64_t n = static_cast<int64_t>(w.size());
  Mat<V> d = as_matrix ? Mat<V>(n, n) : Mat<V>(n, 1);
  for (int64_t i = 0; i < n; ++i) (as_matrix ? d(i, i) : d(i, 0)) = w[i];
  return out_mat(d);
}

// ---------------------------------------------------------------------------------------------
// eig

/// e = eig(A), [V,D] = eig(A), [V,D,W] = eig(A) (W: left eigenvectors, W'*A = D*W'),
/// eig(A,B) and [V,D] = eig(A,B); options 'vector' / 'matrix' (form of D), 'balance' /
/// 'nobalance', 'chol' / 'qz' accepted. NaN/Inf input: MATLAB:eig:matrixWithNaNInf.
Outputs bi_eig(CallContext&, Args args, int nargout) {
  check_nargin(args, 1, 4);
  check_nargout(nargout, 3);
  Tensor a = float_matrix(args[0], "eig");
  Tensor b;
  bool gen = false;
  int form = 0;  // 0 default, 1 vector, 2 matrix
  for (size_t i = 1; i < args.size(); ++i) {
    std::string s = option_text(args[i]);
    if (s == "vector") form = 1;
    else if (s == "matrix") form = 2;
    else if (s == "balance" || s == "nobalance" || s == "chol" || s == "qz") continue;
    else if (i == 1 && !args[i].is_text()) {
      b = float_matrix(args[i], "eig");
      gen = true;
    } else {
      throw_error("MATLAB:eig:unknownOption", "Invalid option.");
    }
  }
  if (a.dims().rows() != a.dims().cols())
    throw_error("MATLAB:eig:inputMustBeSquare", "Input matrix must be square.");
  if (gen && b.dims() != a.dims())
    throw_error("MATLAB:eig:inputSizeMismatch", "Input matrices must have the same size.");
  if (!gen && nargout <= 2)
    if (auto r = linalg_device::eig(a, nargout, form == 2 || (form == 0 && nargout >= 2)))
      return *r;
  if (has_nonfinite(a) || (gen && has_nonfinite(b)))
    throw_error("MATLAB:eig:matrixWithNaNInf", "Input to EIG must not contain NaN or Inf.");
  if (gen && nargout > 2)
    throw_error("MATLAB:TooManyOutputs", "Too many output arguments.");
  bool dmat = form == 2 || (form == 0 && nargout >= 2);
  if (gen) {
    ClassId c = linalg_detail::float_class_of(a, b);
    bool cplx = a.is_complex() || b.is_complex();
    a = linalg_detail::prepare(a, c, cplx);
    b = linalg_detail::prepare(b, c, cplx);
  }
  return dispatch_float(a, [&](auto tag) -> Outputs {
    using T = decltype(tag);
    using R = real_t<T>;
    using C = std::complex<R>;
    Mat<T> A = to_mat<T>(a);
    lapack_int n = static_cast<lapack_int>(A.n);
    bool want_v = nargout >= 2;
    if (gen) {
      Mat<T> B = to_mat<T>(b);
      if (is_hermitian(A) && is_hermitian(B) && n > 0) {
        Mat<T> v = A, bb = B;
        std::vector<R> w(n);
        if (hegv(n, v.data(), v.ld(), bb.data(), bb.ld(), w.data()) == 0) {
          if (!want_v) return {values_out(w, dmat)};
          return {out_mat(v), values_out(w, dmat)};
        }
      }
      std::vector<C> w;
      Mat<C> vr;
      ggev_c(A, B, w, want_v ? &vr : nullptr);
      if (!want_v) return {values_out(w, dmat)};
      return {out_mat(vr), values_out(w, dmat)};
    }
    if (is_hermitian(A)) {
      std::vector<R> w(n);
      Mat<T> v = A;
      if (n > 0 && heev(want_v ? 'V' : 'N', n, v.data(), v.ld(), w.data()) > 0)
        throw_error("MATLAB:eig:NoConvergence", "EIG did not converge.");
      if (!want_v) return {values_out(w, dmat)};
      Outputs out{out_mat(v), values_out(w, dmat)};
      if (nargout > 2) out.push_back(out_mat(v));
      return out;
    }
    std::vector<C> w;
    Mat<C> vr, vl;
    if (geev_c(A, w, want_v ? &vr : nullptr, nargout > 2 ? &vl : nullptr) > 0)
      throw_error("MATLAB:eig:NoConvergence", "EIG did not converge.");
    if (!want_v) return {values_out(w, dmat)};
    Outputs out{out_mat(vr), values_out(w, dmat)};
    if (nargout > 2) out.push_back(out_mat(vl));
    return out;
  });
}

// ---------------------------------------------------------------------------------------------
// svd

/// s = svd(A) (column, descending), [U,S,V] = svd(A) (A = U*S*V'), svd(A,'econ') (k = min(m,n)
/// columns), svd(A,0) (economy only when m > n), options 'vector' / 'matrix' for S.
/// NaN/Inf input: MATLAB:svd:matrixWithNaNInf.
Outputs bi_svd(CallContext&, Args args, int nargout) {
  check_nargin(args, 1, 3);
  check_nargout(nargout, 3);
  Tensor a = float_matrix(args[0], "svd");
  bool econ = false;
  int form = 0;
  for (size_t i = 1; i < args.size(); ++i) {
    std::string s = option_text(args[i]);
    if (s == "econ") econ = true;
    else if (s == "vector") form = 1;
    else if (s == "matrix") form = 2;
    else if (s.empty() && args[i].is_tensor() && args[i].numel() == 1 && args[i].to_double() == 0)
      econ = a.dims().rows() > a.dims().cols();
    else
      throw_error("MATLAB:svd:unknownOption", "Use svd(X,0) or svd(X,\"econ\") for economy size decomposition.");
  }
  if (auto r = linalg_device::svd(a, nargout, econ, form)) return *r;
  if (has_nonfinite(a))
    throw_error("MATLAB:svd:matrixWithNaNInf", "Input to SVD must not contain NaN or Inf.");
  return dispatch_float(a, [&](auto tag) -> Outputs {
    using T = decltype(tag);
    using R = real_t<T>;
    Mat<T> A = to_mat<T>(a);
    if (nargout <= 1) {
      std::vector<R> s = singular_values(A);
      Mat<R> col(static_cast<int64_t>(s.size()), 1);
      col.a = s;
      if (form == 2) return {values_out(s, true)};
      return {out_mat(col)};
    }
    Mat<T> U, V;
    std::vector<R> s;
    svd_full(A, econ, U, s, V);
    Value S;
    if (form == 1) {
      Mat<R> col(static_cast<int64_t>(s.size()), 1);
      col.a = s;
      S = out_mat(col);
    } else {
      Mat<R> sm(U.n, V.n);
      for (size_t i = 0; i < s.size(); ++i) sm(i, i) = s[i];
      S = out_mat(sm);
    }
    Outputs out{out_mat(U), S};
    if (nargout > 2) out.push_back(out_mat(V));
    return out;
  });
}

// ---------------------------------------------------------------------------------------------
// expm (Higham 2005)

template <class T> void add_scaled(Mat<T>& y, const Mat<T>& x, double c) {
  for (size_t i = 0; i < y.a.size(); ++i) y.a[i] += x.a[i] * c;
}

/// Pade approximant r_m(A) = (V - U) \ (V + U) with U odd and V even in A.
template <class T> Mat<T> pade(const Mat<T>& A, int m) {
  static const double b3[] = {120, 60, 12, 1};
  static const double b5[] = {30240, 15120, 3360, 420, 30, 1};
  static const double b7[] = {17297280, 8648640, 1995840, 277200, 25200, 1512, 56, 1};
  static const double b9[] = {17643225600., 8821612800., 2075673600., 302702400., 30270240.,
                              2162160., 110880., 3960., 90., 1.};
  static const double b13[] = {64764752532480000., 32382376266240000., 7771770303897600.,
                               1187353796428800.,  129060195264000.,   10559470521600.,
                               670442572800.,      33522128640.,       1323241920.,
                               40840800.,          960960.,            16380.,
                               182.,               1.};
  int64_t n = A.n;
  Mat<T> I = Mat<T>::eye(n, n);
  Mat<T> A2 = matmul(A, A);
  Mat<T> U(n, n), V(n, n);
  if (m == 13) {
    const double* b = b13;
    Mat<T> A4 = matmul(A2, A2), A6 = matmul(A4, A2);
    Mat<T> t(n, n);
    add_scaled(t, A6, b[13]);
    add_scaled(t, A4, b[11]);
    add_scaled(t, A2, b[9]);
    Mat<T> u = matmul(A6, t);
    add_scaled(u, A6, b[7]);
    add_scaled(u, A4, b[5]);
    add_scaled(u, A2, b[3]);
    add_scaled(u, I, b[1]);
    U = matmul(A, u);
    Mat<T> t2(n, n);
    add_scaled(t2, A6, b[12]);
    add_scaled(t2, A4, b[10]);
    add_scaled(t2, A2, b[8]);
    V = matmul(A6, t2);
    add_scaled(V, A6, b[6]);
    add_scaled(V, A4, b[4]);
    add_scaled(V, A2, b[2]);
    add_scaled(V, I, b[0]);
  } else {
    const double* b = m == 3 ? b3 : m == 5 ? b5 : m == 7 ? b7 : b9;
    Mat<T> u(n, n);
    Mat<T> pw = I;  // A^(2j)
    for (int j = 0; 2 * j <= m; ++j) {
      if (j > 0) pw = matmul(pw, A2);
      add_scaled(V, pw, b[2 * j]);
      if (2 * j + 1 <= m) add_scaled(u, pw, b[2 * j + 1]);
    }
    U = matmul(A, u);
  }
  Mat<T> P = V, Q = V;
  add_scaled(P, U, 1.0);
  add_scaled(Q, U, -1.0);
  std::vector<lapack_int> ipiv(n);
  getrf(static_cast<lapack_int>(n), static_cast<lapack_int>(n), Q.data(), Q.ld(), ipiv.data());
  getrs('N', static_cast<lapack_int>(n), static_cast<lapack_int>(n), Q.data(), Q.ld(), ipiv.data(),
        P.data(), P.ld());
  return P;
}

template <class T> Mat<T> expm_impl(Mat<T> A) {
  static const double theta[] = {1.495585217958292e-2, 2.539398330063230e-1, 9.504178996162932e-1,
                                 2.097847961257068e0, 5.371920351148152e0};
  static const int degree[] = {3, 5, 7, 9, 13};
  int64_t n = A.n;
  if (n == 0) return A;
  for (const T& v : A.a)
    if (!std::isfinite(std::real(v)) || !std::isfinite(std::imag(v))) {
      std::fill(A.a.begin(), A.a.end(), T(NAN));
      return A;
    }
  double nrm = lange('1', static_cast<lapack_int>(n), static_cast<lapack_int>(n), A.data(), A.ld());
  for (int i = 0; i < 4; ++i)
    if (nrm <= theta[i]) return pade(A, degree[i]);
  int s = 0;
  if (nrm > theta[4]) s = static_cast<int>(std::ceil(std::log2(nrm / theta[4])));
  if (s > 0)
    for (T& v : A.a) v = v * std::ldexp(1.0, -s);
  Mat<T> X = pade(A, 13);
  for (int i = 0; i < s; ++i) X = matmul(X, X);
  return X;
}

/// expm(A): matrix exponential of a square matrix (real or complex, single or double).
Outputs bi_expm(CallContext&, Args args, int nargout) {
  check_nargin(args, 1, 1);
  check_nargout(nargout, 1);
  Tensor a = float_matrix(args[0], "expm");
  require_square(a);
  return {Value(linalg_detail::expm_tensor(a))};
}

}  // namespace

Tensor linalg_detail::expm_tensor(const Tensor& a) {
  bool single = a.cls() == ClassId::Single;
  Tensor ad = single ? a.to_class(ClassId::Double) : a;
  Tensor r;
  if (ad.is_complex()) r = to_tensor(expm_impl(to_mat<cd>(ad)));
  else r = to_tensor(expm_impl(to_mat<double>(ad)));
  if (single) r = r.to_class(ClassId::Single);
  return r.drop_zero_imag();
}

void register_linalg_ext_eig(Registry& r) {
  r.add("eig", bi_eig);
  r.add("svd", bi_svd);
  r.add("expm", bi_expm);
}

}  // namespace matfuse
