// mldivide (A\B) and mrdivide (B/A) with LAPACK.
//
// Square A (MATLAB's choice of solver, simplified):
//   triangular (all entries below or above the diagonal zero) -> triangular solve (trsm),
//       condition from trcon;
//   Hermitian with a positive real diagonal -> Cholesky (potrf/potrs), condition from pocon;
//       when the factorization fails it falls back to LU;
//   otherwise -> LU with partial pivoting (getrf/getrs), condition from gecon.
//   An exactly singular factor warns "Matrix is singular to working precision."
//   (MATLAB:singularMatrix); RCOND < eps(class) warns "Matrix is close to singular or badly
//   scaled. Results may be inaccurate. RCOND = %13.6e." (MATLAB:nearlySingularMatrix); a NaN
//   RCOND warns MATLAB:illConditionedMatrix. The solve still runs, so singular systems give
//   Inf/NaN entries as in MATLAB.
// Rectangular A -> least squares by complete orthogonal factorization (gelsy, tolerance
//   max(m,n)*eps). Rank deficiency warns "Rank deficient, rank = %d, tol = %13.6e."
//   (MATLAB:rankDeficientMatrix). Note: for rank-deficient or underdetermined systems gelsy
//   returns the minimum-norm solution, while MATLAB's QR returns a basic solution (with zeros).
#include <cmath>
#include <cstdio>
#include <limits>
#include <vector>

#include "builtins/lapack_inc.h"
#include "builtins/linalg.h"
#include "builtins/linalg_detail.h"
#include "builtins/linalg_device.h"
#include "builtins/operators.h"

namespace matfuse {

using namespace linalg_detail;

namespace {

using cf = std::complex<float>;
using cd = std::complex<double>;
constexpr int L = LAPACK_COL_MAJOR;

// Overloaded LAPACK/BLAS entry points: one set per element type.
#define MF_LAPACK_SET(T, R, p)                                                                  \
  lapack_int getrf(lapack_int n, T* a, lapack_int* ip) { return LAPACKE_##p##getrf(L, n, n, a, n, ip); } \
  lapack_int getrs(lapack_int n, lapack_int k, const T* a, const lapack_int* ip, T* b) {       \
    return LAPACKE_##p##getrs(L, 'N', n, k, a, n, ip, b, n);                                    \
  }                                                                                             \
  lapack_int gecon(lapack_int n, const T* a, R anorm, R* rc) {                                  \
    return LAPACKE_##p##gecon(L, '1', n, a, n, anorm, rc);                                      \
  }                                                                                             \
  R lange1(lapack_int n, const T* a) { return LAPACKE_##p##lange(L, '1', n, n, a, n); }        \
  lapack_int potrf(lapack_int n, T* a) { return LAPACKE_##p##potrf(L, 'U', n, a, n); }         \
  lapack_int potrs(lapack_int n, lapack_int k, const T* a, T* b) {                              \
    return LAPACKE_##p##potrs(L, 'U', n, k, a, n, b, n);                                        \
  }                                                                                             \
  lapack_int pocon(lapack_int n, const T* a, R anorm, R* rc) {                                  \
    return LAPACKE_##p##pocon(L, 'U', n, a, n, anorm, rc);                                      \
  }                                                                                             \
  lapack_int trcon(char uplo, lapack_int n, const T* a, R* rc) {                                \
    return LAPACKE_##p##trcon(L, '1', uplo, 'N', n, a, n, rc);                                  \
  }                                                                                             \
  lapack_int gelsy(lapack_int m, lapack_int n, lapack_int k, T* a, T* b, lapack_int ldb,       \
                   lapack_int* jp, R rcond, lapack_int* rank) {                                 \
    return LAPACKE_##p##gelsy(L, m, n, k, a, std::max<lapack_int>(1, m), b, ldb, jp, rcond, rank); \
  }

MF_LAPACK_SET(float, float, s)
MF_LAPACK_SET(double, double, d)
MF_LAPACK_SET(cf, float, c)
MF_LAPACK_SET(cd, double, z)
#undef MF_LAPACK_SET

void trsm(bool upper, int n, int k, const float* a, float* b) {
  cblas_strsm(CblasColMajor, CblasLeft, upper ? CblasUpper : CblasLower, CblasNoTrans,
              CblasNonUnit, n, k, 1.0f, a, n, b, n);
}
void trsm(bool upper, int n, int k, const double* a, double* b) {
  cblas_dtrsm(CblasColMajor, CblasLeft, upper ? CblasUpper : CblasLower, CblasNoTrans,
              CblasNonUnit, n, k, 1.0, a, n, b, n);
}
void trsm(bool upper, int n, int k, const cf* a, cf* b) {
  cf one(1);
  cblas_ctrsm(CblasColMajor, CblasLeft, upper ? CblasUpper : CblasLower, CblasNoTrans,
              CblasNonUnit, n, k, &one, a, n, b, n);
}
void trsm(bool upper, int n, int k, const cd* a, cd* b) {
  cd one(1);
  cblas_ztrsm(CblasColMajor, CblasLeft, upper ? CblasUpper : CblasLower, CblasNoTrans,
              CblasNonUnit, n, k, &one, a, n, b, n);
}

template <class T> struct real_of { using type = T; };
template <class R> struct real_of<std::complex<R>> { using type = R; };

template <class T> T conj_of(const T& v) {
  if constexpr (std::is_floating_point_v<T>) return v;
  else return std::conj(v);
}

std::string fmt_e(double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%13.6e", v);
  return buf;
}

template <class R>
void condition_warning(bool singular, R rcond) {
  if (singular) {
    warn("MATLAB:singularMatrix", "Matrix is singular to working precision.");
  } else if (rcond != rcond) {
    warn("MATLAB:illConditionedMatrix",
         "Matrix is singular, close to singular or badly scaled. Results may be inaccurate. "
         "RCOND = NaN.");
  } else if (rcond < std::numeric_limits<R>::epsilon()) {
    warn("MATLAB:nearlySingularMatrix",
         "Matrix is close to singular or badly scaled. Results may be inaccurate. RCOND = " +
             fmt_e(static_cast<double>(rcond)) + ".");
  }
}

/// Solves square A X = B in place of X (n x k, column-major).
template <class T>
void solve_square(std::vector<T>& a, T* x, lapack_int n, lapack_int k) {
  using R = typename real_of<T>::type;
  bool upper = true, lower = true;
  for (lapack_int j = 0; j < n && (upper || lower); ++j)
    for (lapack_int i = 0; i < n; ++i) {
      if (i > j && a[j * n + i] != T(0)) upper = false;
      if (i < j && a[j * n + i] != T(0)) lower = false;
    }
  if (upper || lower) {
    bool singular = false;
    for (lapack_int i = 0; i < n; ++i)
      if (a[i * n + i] == T(0)) singular = true;
    R rc = 0;
    if (!singular) trcon(upper ? 'U' : 'L', n, a.data(), &rc);
    condition_warning<R>(singular, rc);
    trsm(upper, n, k, a.data(), x);
    return;
  }
  bool herm = true;
  for (lapack_int j = 0; j < n && herm; ++j) {
    T d = a[j * n + j];
    if (!(std::real(d) > 0) || std::imag(d) != 0) herm = false;
    for (lapack_int i = j + 1; i < n && herm; ++i)
      if (a[j * n + i] != conj_of(a[i * n + j])) herm = false;
  }
  R anorm = lange1(n, a.data());
  if (herm) {
    std::vector<T> f = a;
    if (potrf(n, f.data()) == 0) {
      R rc = 0;
      pocon(n, f.data(), anorm, &rc);
      condition_warning<R>(false, rc);
      potrs(n, k, f.data(), x);
      return;
    }
  }
  std::vector<lapack_int> ipiv(n);
  lapack_int info = getrf(n, a.data(), ipiv.data());
  R rc = 0;
  if (info == 0) gecon(n, a.data(), anorm, &rc);
  if (anorm != anorm) rc = std::numeric_limits<R>::quiet_NaN();
  condition_warning<R>(info > 0, rc);
  getrs(n, k, a.data(), ipiv.data(), x);
}

template <class T>
Tensor solve_typed(const Tensor& A, const Tensor& B, ClassId c, bool cplx) {
  lapack_int m = static_cast<lapack_int>(A.dims().rows());
  lapack_int n = static_cast<lapack_int>(A.dims().cols());
  lapack_int k = static_cast<lapack_int>(B.dims().cols());
  std::vector<T> a(A.data<T>(), A.data<T>() + A.numel());
  if (m == n) {
    Tensor X = Tensor::uninit(c, Dims(n, k), cplx);
    T* x = X.mutable_data<T>();
    std::copy(B.data<T>(), B.data<T>() + B.numel(), x);
    solve_square(a, x, n, k);
    return X;
  }
  using R = typename real_of<T>::type;
  lapack_int ldb = std::max<lapack_int>(1, std::max(m, n));
  std::vector<T> b(static_cast<size_t>(ldb) * k, T(0));
  const T* bs = B.data<T>();
  for (lapack_int j = 0; j < k; ++j)
    for (lapack_int i = 0; i < m; ++i) b[j * ldb + i] = bs[j * m + i];
  std::vector<lapack_int> jp(n, 0);
  R rcond = static_cast<R>(std::max(m, n)) * std::numeric_limits<R>::epsilon();
  lapack_int rank = 0;
  gelsy(m, n, k, a.data(), b.data(), ldb, jp.data(), rcond, &rank);
  if (rank < std::min(m, n))
    warn("MATLAB:rankDeficientMatrix",
         "Rank deficient, rank = " + std::to_string(rank) +
             ", tol = " + fmt_e(static_cast<double>(rcond * std::abs(a[0]))) + ".");
  Tensor X = Tensor::uninit(c, Dims(n, k), cplx);
  T* x = X.mutable_data<T>();
  for (lapack_int j = 0; j < k; ++j)
    for (lapack_int i = 0; i < n; ++i) x[j * n + i] = b[j * ldb + i];
  return X;
}

[[noreturn]] void dim_mismatch() {
  throw_error("MATLAB:dimagree", "Matrix dimensions must agree.");
}

}  // namespace

Value mldivide(const Value& av, const Value& bv) {
  Tensor a = numeric_operand(av, "mldivide");
  Tensor b = numeric_operand(bv, "mldivide");
  if (a.is_scalar()) return binary_op(ast::BinOp::ELDiv, av, bv);
  if (a.dims().ndims() > 2 || b.dims().ndims() > 2)
    throw_error("MATLAB:mldivide:inputsMustBe2D", "Inputs must be 2-D, or at least one input must be scalar.");
  if (a.dims().rows() != b.dims().rows()) dim_mismatch();
  if (is_integer_class(a.cls()) || is_integer_class(b.cls()))
    throw_error("MATLAB:mldivide:integerNotSupported",
                "MLDIVIDE (\\) is not fully supported for integer classes. At least one argument "
                "must be scalar.");
  ClassId c = float_class_of(a, b);
  bool cplx = a.is_complex() || b.is_complex();
  int64_t n = a.dims().cols(), k = b.dims().cols();
  if (a.is_empty() || b.is_empty()) return Value(Tensor::zeros(c, Dims(n, k)));
  if (!cplx && a.cls() == c && b.cls() == c)
    if (auto x = linalg_device::mldivide(a, b)) return *x;
  Tensor A = prepare(a, c, cplx), B = prepare(b, c, cplx);
  Tensor X;
  if (c == ClassId::Single)
    X = cplx ? solve_typed<cf>(A, B, c, true) : solve_typed<float>(A, B, c, false);
  else
    X = cplx ? solve_typed<cd>(A, B, c, true) : solve_typed<double>(A, B, c, false);
  return Value(X.drop_zero_imag());
}

Value mrdivide(const Value& bv, const Value& av) {
  Tensor b = numeric_operand(bv, "mrdivide");
  Tensor a = numeric_operand(av, "mrdivide");
  if (a.is_scalar()) return binary_op(ast::BinOp::EDiv, bv, av);
  if (a.dims().ndims() > 2 || b.dims().ndims() > 2)
    throw_error("MATLAB:mrdivide:inputsMustBe2D", "Inputs must be 2-D, or at least one input must be scalar.");
  if (a.dims().cols() != b.dims().cols()) dim_mismatch();
  if (!is_integer_class(a.cls()) && !is_integer_class(b.cls())) {
    const ClassId c = float_class_of(a, b);
    if (a.cls() == c && b.cls() == c && !a.is_complex() && !b.is_complex())
      if (auto x = linalg_device::mrdivide(b, a)) return *x;
  }
  // B / A = (A.' \ B.').'
  Value xt = mldivide(transpose_value(av, false), transpose_value(bv, false));
  return transpose_value(xt, false);
}

}  // namespace matfuse
