// Internal to the linalg_ext family: a small column-major matrix type, Tensor conversions,
// operand checks and overloaded LAPACKE/CBLAS wrappers (one set per element type: float,
// double, std::complex<float>, std::complex<double>), so that each factorization is written once
// as a template over the element type T (R = real type of T).
#pragma once

#include <complex>
#include <cstdint>
#include <limits>
#include <string>
#include <type_traits>
#include <vector>

#include "builtins/lapack_inc.h"
#include "builtins/registry.h"
#include "runtime/value.h"

namespace matfuse::lx {

using cf = std::complex<float>;
using cd = std::complex<double>;

template <class T> struct real_of { using type = T; };
template <class R> struct real_of<std::complex<R>> { using type = R; };
template <class T> using real_t = typename real_of<T>::type;
template <class T> constexpr bool is_cplx_v = !std::is_floating_point_v<T>;
template <class T> constexpr ClassId cls_of_v =
    std::is_same_v<real_t<T>, float> ? ClassId::Single : ClassId::Double;

template <class T> T conj_of(const T& v) {
  if constexpr (is_cplx_v<T>) return std::conj(v);
  else return v;
}
template <class T> real_t<T> eps_of() { return std::numeric_limits<real_t<T>>::epsilon(); }

/// Dense column-major m x n matrix.
template <class T> struct Mat {
  int64_t m = 0, n = 0;
  std::vector<T> a;
  Mat() = default;
  Mat(int64_t rows, int64_t cols) : m(rows), n(cols), a(static_cast<size_t>(rows * cols), T(0)) {}
  T& operator()(int64_t i, int64_t j) { return a[static_cast<size_t>(j * m + i)]; }
  const T& operator()(int64_t i, int64_t j) const { return a[static_cast<size_t>(j * m + i)]; }
  T* data() { return a.data(); }
  const T* data() const { return a.data(); }
  int ld() const { return static_cast<int>(m > 0 ? m : 1); }
  static Mat eye(int64_t r, int64_t c) {
    Mat e(r, c);
    for (int64_t i = 0; i < std::min(r, c); ++i) e(i, i) = T(1);
    return e;
  }
};

/// Copies t (already of T's class and complexity, 2-D) into a Mat.
template <class T> Mat<T> to_mat(const Tensor& t) {
  Mat<T> r;
  r.m = t.dims().rows();
  r.n = t.dims().cols();
  r.a.assign(t.data<T>(), t.data<T>() + t.numel());
  return r;
}

/// A Tensor of T's class (complex for complex T; imaginary parts kept).
template <class T> Tensor to_tensor(const Mat<T>& x) {
  Tensor t = Tensor::uninit(cls_of_v<T>, Dims(x.m, x.n), is_cplx_v<T>);
  if (!x.a.empty()) std::copy(x.a.begin(), x.a.end(), t.mutable_data<T>());
  return t;
}

/// Conjugate transpose.
template <class T> Mat<T> ctrans(const Mat<T>& x) {
  Mat<T> r(x.n, x.m);
  for (int64_t j = 0; j < x.n; ++j)
    for (int64_t i = 0; i < x.m; ++i) r(j, i) = conj_of(x(i, j));
  return r;
}

/// Matrix product through BLAS gemm (any sizes, including empty).
Mat<float> matmul(const Mat<float>& a, const Mat<float>& b);
Mat<double> matmul(const Mat<double>& a, const Mat<double>& b);
Mat<cf> matmul(const Mat<cf>& a, const Mat<cf>& b);
Mat<cd> matmul(const Mat<cd>& a, const Mat<cd>& b);

/// Operand check for the factorization builtins: numeric/logical/char 2-D matrix (cell etc. ->
/// MATLAB:UndefinedFunction; N-d -> MATLAB:<fname>:inputMustBe2D; integer classes ->
/// MATLAB:<fname>:integerNotSupported ... wording "Invalid data type. Input matrix must be double
/// or single."). Logical and char are converted to double.
Tensor float_matrix(const Value& v, const char* fname);
/// Throws MATLAB:square "Matrix must be square." unless t is square.
void require_square(const Tensor& t);
/// True when any element is NaN or Inf.
bool has_nonfinite(const Tensor& t);
/// Calls f(T{}) with T = float, double, cf or cd per t's class and complexity.
template <class F> decltype(auto) dispatch_float(const Tensor& t, F&& f) {
  if (t.cls() == ClassId::Single) return t.is_complex() ? f(cf{}) : f(float{});
  return t.is_complex() ? f(cd{}) : f(double{});
}
/// Lower-cased text of an option argument, or "" when v is not text.
std::string option_text(const Value& v);

/// Singular values (descending) of x; x is overwritten. Empty result for empty x.
template <class T> std::vector<real_t<T>> singular_values(Mat<T> x);
/// Full or economy SVD: x = U * diag(s) * V'. econ: U m x k, V n x k (k = min(m, n)).
template <class T> void svd_full(Mat<T> x, bool econ, Mat<T>& U, std::vector<real_t<T>>& s, Mat<T>& V);

// Overloaded LAPACKE wrappers (column-major, leading dimension = rows, at least 1).
#define MF_LX_DECL(T, R)                                                                       \
  lapack_int getrf(lapack_int m, lapack_int n, T* a, lapack_int lda, lapack_int* ip);         \
  lapack_int getri(lapack_int n, T* a, lapack_int lda, const lapack_int* ip);                 \
  lapack_int getrs(char tr, lapack_int n, lapack_int k, const T* a, lapack_int lda,           \
                   const lapack_int* ip, T* b, lapack_int ldb);                               \
  lapack_int gecon(lapack_int n, const T* a, lapack_int lda, R anorm, R* rc);                 \
  R lange(char norm, lapack_int m, lapack_int n, const T* a, lapack_int lda);                 \
  lapack_int potrf(char uplo, lapack_int n, T* a, lapack_int lda);                            \
  lapack_int potrs(char uplo, lapack_int n, lapack_int k, const T* a, lapack_int lda, T* b,   \
                   lapack_int ldb);                                                           \
  lapack_int geqrf(lapack_int m, lapack_int n, T* a, lapack_int lda, T* tau);                 \
  lapack_int geqp3(lapack_int m, lapack_int n, T* a, lapack_int lda, lapack_int* jp, T* tau); \
  lapack_int ungqr(lapack_int m, lapack_int n, lapack_int k, T* a, lapack_int lda,            \
                   const T* tau);                                                             \
  lapack_int gesdd(char job, lapack_int m, lapack_int n, T* a, lapack_int lda, R* s, T* u,    \
                   lapack_int ldu, T* vt, lapack_int ldvt);                                   \
  lapack_int heev(char job, lapack_int n, T* a, lapack_int lda, R* w);                        \
  lapack_int hegv(lapack_int n, T* a, lapack_int lda, T* b, lapack_int ldb, R* w);            \
  lapack_int trcon(char uplo, lapack_int n, const T* a, lapack_int lda, R* rc);               \
  void trsm(bool upper, bool trans, lapack_int n, lapack_int k, const T* a, lapack_int lda,   \
            T* b, lapack_int ldb);
MF_LX_DECL(float, float)
MF_LX_DECL(double, double)
MF_LX_DECL(cf, float)
MF_LX_DECL(cd, double)
#undef MF_LX_DECL

/// General eigenproblem through geev: eigenvalues w (complex), right (vr) and left (vl)
/// eigenvectors as complex columns when requested (null pointers skip them). Returns info.
template <class T>
lapack_int geev_c(Mat<T> a, std::vector<std::complex<real_t<T>>>& w,
                  Mat<std::complex<real_t<T>>>* vr, Mat<std::complex<real_t<T>>>* vl);
/// Generalized eigenproblem through ggev: alpha ./ beta (complex) and right eigenvectors
/// normalized to unit 2-norm when vr is non-null. Returns info.
template <class T>
lapack_int ggev_c(Mat<T> a, Mat<T> b, std::vector<std::complex<real_t<T>>>& w,
                  Mat<std::complex<real_t<T>>>* vr);

/// Prints MATLAB's warnings through linalg_detail::warn.
void warn_singular();
void warn_nearly_singular(double rcond);

}  // namespace matfuse::lx
