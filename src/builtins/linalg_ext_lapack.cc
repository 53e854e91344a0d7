// LAPACKE/CBLAS wrappers and shared helpers of the linalg_ext family (see linalg_ext_lapack.h).
#include "builtins/linalg_ext_lapack.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>

#include "builtins/linalg_detail.h"

namespace matfuse::lx {

namespace {
constexpr int L = LAPACK_COL_MAJOR;
}

#define MF_LX_DEF(T, R, p, org, ev, gv)                                                        \
  lapack_int getrf(lapack_int m, lapack_int n, T* a, lapack_int lda, lapack_int* ip) {        \
    return LAPACKE_##p##getrf_work(L, m, n, a, lda, ip);                                            \
  }                                                                                            \
  lapack_int getri(lapack_int n, T* a, lapack_int lda, const lapack_int* ip) {                \
    return LAPACKE_##p##getri(L, n, a, lda, ip);                                               \
  }                                                                                            \
  lapack_int getrs(char tr, lapack_int n, lapack_int k, const T* a, lapack_int lda,           \
                   const lapack_int* ip, T* b, lapack_int ldb) {                              \
    return LAPACKE_##p##getrs(L, tr, n, k, a, lda, ip, b, ldb);                                \
  }                                                                                            \
  lapack_int gecon(lapack_int n, const T* a, lapack_int lda, R anorm, R* rc) {                \
    return LAPACKE_##p##gecon(L, '1', n, a, lda, anorm, rc);                                   \
  }                                                                                            \
  R lange(char norm, lapack_int m, lapack_int n, const T* a, lapack_int lda) {                \
    return LAPACKE_##p##lange(L, norm, m, n, a, lda);                                          \
  }                                                                                            \
  lapack_int potrf(char uplo, lapack_int n, T* a, lapack_int lda) {                           \
    return LAPACKE_##p##potrf_work(L, uplo, n, a, lda);                                             \
  }                                                                                            \
  lapack_int potrs(char uplo, lapack_int n, lapack_int k, const T* a, lapack_int lda, T* b,   \
                   lapack_int ldb) {                                                          \
    return LAPACKE_##p##potrs(L, uplo, n, k, a, lda, b, ldb);                                  \
  }                                                                                            \
  lapack_int geqrf(lapack_int m, lapack_int n, T* a, lapack_int lda, T* tau) {                \
    return LAPACKE_##p##geqrf(L, m, n, a, lda, tau);                                           \
  }                                                                                            \
  lapack_int geqp3(lapack_int m, lapack_int n, T* a, lapack_int lda, lapack_int* jp, T* tau) { \
    return LAPACKE_##p##geqp3(L, m, n, a, lda, jp, tau);                                       \
  }                                                                                            \
  lapack_int ungqr(lapack_int m, lapack_int n, lapack_int k, T* a, lapack_int lda,            \
                   const T* tau) {                                                            \
    return LAPACKE_##org(L, m, n, k, a, lda, tau);                                             \
  }                                                                                            \
  lapack_int gesdd(char job, lapack_int m, lapack_int n, T* a, lapack_int lda, R* s, T* u,    \
                   lapack_int ldu, T* vt, lapack_int ldvt) {                                  \
    return LAPACKE_##p##gesdd(L, job, m, n, a, lda, s, u, ldu, vt, ldvt);                      \
  }                                                                                            \
  lapack_int heev(char job, lapack_int n, T* a, lapack_int lda, R* w) {                       \
    return LAPACKE_##ev(L, job, 'U', n, a, lda, w);                                            \
  }                                                                                            \
  lapack_int hegv(lapack_int n, T* a, lapack_int lda, T* b, lapack_int ldb, R* w) {           \
    return LAPACKE_##gv(L, 1, 'V', 'U', n, a, lda, b, ldb, w);                                 \
  }                                                                                            \
  lapack_int trcon(char uplo, lapack_int n, const T* a, lapack_int lda, R* rc) {              \
    return LAPACKE_##p##trcon(L, '1', uplo, 'N', n, a, lda, rc);                               \
  }

MF_LX_DEF(float, float, s, sorgqr, ssyevd, ssygv)
MF_LX_DEF(double, double, d, dorgqr, dsyevd, dsygv)
MF_LX_DEF(cf, float, c, cungqr, cheevd, chegv)
MF_LX_DEF(cd, double, z, zungqr, zheevd, zhegv)
#undef MF_LX_DEF

namespace {
CBLAS_UPLO up(bool u) { return u ? CblasUpper : CblasLower; }
CBLAS_TRANSPOSE trn(bool t, bool cplx) {
  return t ? (cplx ? CblasConjTrans : CblasTrans) : CblasNoTrans;
}
}  // namespace

void trsm(bool upper, bool t, lapack_int n, lapack_int k, const float* a, lapack_int lda, float* b,
          lapack_int ldb) {
  cblas_strsm(CblasColMajor, CblasLeft, up(upper), trn(t, false), CblasNonUnit, n, k, 1.0f, a,
              lda, b, ldb);
}
void trsm(bool upper, bool t, lapack_int n, lapack_int k, const double* a, lapack_int lda,
          double* b, lapack_int ldb) {
  cblas_dtrsm(CblasColMajor, CblasLeft, up(upper), trn(t, false), CblasNonUnit, n, k, 1.0, a, lda,
              b, ldb);
}
void trsm(bool upper, bool t, lapack_int n, lapack_int k, const cf* a, lapack_int lda, cf* b,
          lapack_int ldb) {
  cf one(1);
  cblas_ctrsm(CblasColMajor, CblasLeft, up(upper), trn(t, true), CblasNonUnit, n, k, &one, a, lda,
              b, ldb);
}
void trsm(bool upper, bool t, lapack_int n, lapack_int k, const cd* a, lapack_int lda, cd* b,
          lapack_int ldb) {
  cd one(1);
  cblas_ztrsm(CblasColMajor, CblasLeft, up(upper), trn(t, true), CblasNonUnit, n, k, &one, a, lda,
              b, ldb);
}

// ---------------------------------------------------------------------------------------------
// matmul

template <class T> static Mat<T> matmul_impl(const Mat<T>& a, const Mat<T>& b) {
  Mat<T> c(a.m, b.n);
  if (a.m == 0 || b.n == 0 || a.n == 0) return c;
  int m = static_cast<int>(a.m), n = static_cast<int>(b.n), k = static_cast<int>(a.n);
  if constexpr (std::is_same_v<T, float>)
    cblas_sgemm(CblasColMajor, CblasNoTrans, CblasNoTrans, m, n, k, 1.0f, a.data(), a.ld(),
                b.data(), b.ld(), 0.0f, c.data(), c.ld());
  else if constexpr (std::is_same_v<T, double>)
    cblas_dgemm(CblasColMajor, CblasNoTrans, CblasNoTrans, m, n, k, 1.0, a.data(), a.ld(),
                b.data(), b.ld(), 0.0, c.data(), c.ld());
  else if constexpr (std::is_same_v<T, cf>) {
    cf one(1), zero(0);
    cblas_cgemm(CblasColMajor, CblasNoTrans, CblasNoTrans, m, n, k, &one, a.data(), a.ld(),
                b.data(), b.ld(), &zero, c.data(), c.ld());
  } else {
    cd one(1), zero(0);
    cblas_zgemm(CblasColMajor, CblasNoTrans, CblasNoTrans, m, n, k, &one, a.data(), a.ld(),
                b.data(), b.ld(), &zero, c.data(), c.ld());
  }
  return c;
}
Mat<float> matmul(const Mat<float>& a, const Mat<float>& b) { return matmul_impl(a, b); }
Mat<double> matmul(const Mat<double>& a, const Mat<double>& b) { return matmul_impl(a, b); }
Mat<cf> matmul(const Mat<cf>& a, const Mat<cf>& b) { return matmul_impl(a, b); }
Mat<cd> matmul(const Mat<cd>& a, const Mat<cd>& b) { return matmul_impl(a, b); }

// ---------------------------------------------------------------------------------------------
// operand helpers

Tensor float_matrix(const Value& v, const char* fname) {
  Tensor t = linalg_detail::numeric_operand(v, fname);
  if (t.dims().ndims() > 2)
    throw_error((std::string("MATLAB:") + fname + ":inputMustBe2D").c_str(),
                "Input must be 2-D.");
  if (is_integer_class(t.cls()))
    throw_error((std::string("MATLAB:") + fname + ":integerNotSupported").c_str(),
                "Invalid data type. Input matrix must be double or single.");
  if (t.cls() == ClassId::Logical || t.cls() == ClassId::Char) t = t.to_class(ClassId::Double);
  return t;
}

void require_square(const Tensor& t) {
  if (t.dims().rows() != t.dims().cols()) throw_error("MATLAB:square", "Matrix must be square.");
}

bool has_nonfinite(const Tensor& t) {
  int64_t n = t.numel() * (t.is_complex() ? 2 : 1);
  if (t.cls() == ClassId::Single) {
    const float* p = t.data<float>();
    for (int64_t i = 0; i < n; ++i)
      if (!std::isfinite(p[i])) return true;
  } else if (t.cls() == ClassId::Double) {
    const double* p = t.data<double>();
    for (int64_t i = 0; i < n; ++i)
      if (!std::isfinite(p[i])) return true;
  }
  return false;
}

std::string option_text(const Value& v) {
  if (!v.is_text()) return "";
  std::string s = v.to_text();
  for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

void warn_singular() {
  linalg_detail::warn("MATLAB:singularMatrix", "Matrix is singular to working precision.");
}

void warn_nearly_singular(double rcond) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%13.6e", rcond);
  linalg_detail::warn("MATLAB:nearlySingularMatrix",
                      std::string("Matrix is close to singular or badly scaled. Results may be "
                                  "inaccurate. RCOND = ") +
                          buf + ".");
}

// ---------------------------------------------------------------------------------------------
// SVD

template <class T> std::vector<real_t<T>> singular_values(Mat<T> x) {
  int64_t k = std::min(x.m, x.n);
  std::vector<real_t<T>> s(static_cast<size_t>(k));
  if (k == 0) return s;
  T du(0), dv(0);
  lapack_int info = gesdd('N', static_cast<lapack_int>(x.m), static_cast<lapack_int>(x.n),
                          x.data(), x.ld(), s.data(), &du, 1, &dv, 1);
  if (info > 0) throw_error("MATLAB:svd:svdNoConvergence", "SVD did not converge.");
  return s;
}

template <class T>
void svd_full(Mat<T> x, bool econ, Mat<T>& U, std::vector<real_t<T>>& s, Mat<T>& V) {
  int64_t m = x.m, n = x.n, k = std::min(m, n);
  s.assign(static_cast<size_t>(k), real_t<T>(0));
  int64_t uc = econ ? k : m, vr = econ ? k : n;
  U = Mat<T>(m, uc);
  Mat<T> vt(vr, n);
  if (k == 0) {
    U = Mat<T>::eye(m, uc);
    V = Mat<T>::eye(n, vr);
    return;
  }
  lapack_int info = gesdd(econ ? 'S' : 'A', static_cast<lapack_int>(m), static_cast<lapack_int>(n),
                          x.data(), x.ld(), s.data(), U.data(), U.ld(), vt.data(), vt.ld());
  if (info > 0) throw_error("MATLAB:svd:svdNoConvergence", "SVD did not converge.");
  V = ctrans(vt);
}

#define MF_LX_SVD(T)                                                                         \
  template std::vector<real_t<T>> singular_values<T>(Mat<T>);                               \
  template void svd_full<T>(Mat<T>, bool, Mat<T>&, std::vector<real_t<T>>&, Mat<T>&);
MF_LX_SVD(float)
MF_LX_SVD(double)
MF_LX_SVD(cf)
MF_LX_SVD(cd)
#undef MF_LX_SVD

// ---------------------------------------------------------------------------------------------
// eigen

namespace {

/// Real LAPACK eigenvector storage -> complex columns: a complex pair (w_j, conj w_j) stores
/// Re in column j and Im in column j+1.
template <class R>
Mat<std::complex<R>> pack_real_vectors(const Mat<R>& v, const std::vector<R>& wi) {
  int64_t n = v.n;
  Mat<std::complex<R>> out(v.m, n);
  for (int64_t j = 0; j < n; ++j) {
    if (wi[j] != 0 && j + 1 < n) {
      for (int64_t i = 0; i < v.m; ++i) {
        out(i, j) = {v(i, j), v(i, j + 1)};
        out(i, j + 1) = {v(i, j), -v(i, j + 1)};
      }
      ++j;
    } else {
      for (int64_t i = 0; i < v.m; ++i) out(i, j) = v(i, j);
    }
  }
  return out;
}

template <class C> void normalize_columns(Mat<C>& v) {
  for (int64_t j = 0; j < v.n; ++j) {
    double s = 0;
    for (int64_t i = 0; i < v.m; ++i) s += std::norm(std::complex<double>(v(i, j)));
    s = std::sqrt(s);
    if (s > 0)
      for (int64_t i = 0; i < v.m; ++i) v(i, j) /= static_cast<typename C::value_type>(s);
  }
}

}  // namespace

template <class T>
lapack_int geev_c(Mat<T> a, std::vector<std::complex<real_t<T>>>& w,
                  Mat<std::complex<real_t<T>>>* vr, Mat<std::complex<real_t<T>>>* vl) {
  using R = real_t<T>;
  lapack_int n = static_cast<lapack_int>(a.n);
  char jr = vr ? 'V' : 'N', jl = vl ? 'V' : 'N';
  Mat<T> VR(vr ? n : 1, vr ? n : 1), VL(vl ? n : 1, vl ? n : 1);
  lapack_int ldr = std::max<lapack_int>(1, vr ? n : 1), ldl = std::max<lapack_int>(1, vl ? n : 1);
  w.assign(static_cast<size_t>(n), {});
  lapack_int info;
  if constexpr (!is_cplx_v<T>) {
    std::vector<R> wr(n), wi(n);
    if constexpr (std::is_same_v<T, float>)
      info = LAPACKE_sgeev(LAPACK_COL_MAJOR, jl, jr, n, a.data(), a.ld(), wr.data(), wi.data(),
                           VL.data(), ldl, VR.data(), ldr);
    else
      info = LAPACKE_dgeev(LAPACK_COL_MAJOR, jl, jr, n, a.data(), a.ld(), wr.data(), wi.data(),
                           VL.data(), ldl, VR.data(), ldr);
    for (lapack_int i = 0; i < n; ++i) w[i] = {wr[i], wi[i]};
    if (vr) *vr = pack_real_vectors(VR, wi);
    if (vl) *vl = pack_real_vectors(VL, wi);
  } else {
    if constexpr (std::is_same_v<T, cf>)
      info = LAPACKE_cgeev(LAPACK_COL_MAJOR, jl, jr, n, a.data(), a.ld(), w.data(), VL.data(), ldl,
                           VR.data(), ldr);
    else
      info = LAPACKE_zgeev(LAPACK_COL_MAJOR, jl, jr, n, a.data(), a.ld(), w.data(), VL.data(), ldl,
                           VR.data(), ldr);
    if (vr) *vr = VR;
    if (vl) *vl = VL;
  }
  return info;
}

template <class T>
lapack_int ggev_c(Mat<T> a, Mat<T> b, std::vector<std::complex<real_t<T>>>& w,
                  Mat<std::complex<real_t<T>>>* vr) {
  using R = real_t<T>;
  lapack_int n = static_cast<lapack_int>(a.n);
  char jr = vr ? 'V' : 'N';
  Mat<T> VR(vr ? n : 1, vr ? n : 1), VL(1, 1);
  lapack_int ldr = std::max<lapack_int>(1, vr ? n : 1);
  w.assign(static_cast<size_t>(n), {});
  lapack_int info;
  if constexpr (!is_cplx_v<T>) {
    std::vector<R> ar(n), ai(n), be(n);
    if constexpr (std::is_same_v<T, float>)
      info = LAPACKE_sggev(LAPACK_COL_MAJOR, 'N', jr, n, a.data(), a.ld(), b.data(), b.ld(),
                           ar.data(), ai.data(), be.data(), VL.data(), 1, VR.data(), ldr);
    else
      info = LAPACKE_dggev(LAPACK_COL_MAJOR, 'N', jr, n, a.data(), a.ld(), b.data(), b.ld(),
                           ar.data(), ai.data(), be.data(), VL.data(), 1, VR.data(), ldr);
    for (lapack_int i = 0; i < n; ++i) w[i] = std::complex<R>(ar[i], ai[i]) / be[i];
    if (vr) *vr = pack_real_vectors(VR, ai);
  } else {
    std::vector<T> al(n), be(n);
    if constexpr (std::is_same_v<T, cf>)
      info = LAPACKE_cggev(LAPACK_COL_MAJOR, 'N', jr, n, a.data(), a.ld(), b.data(), b.ld(),
                           al.data(), be.data(), VL.data(), 1, VR.data(), ldr);
    else
      info = LAPACKE_zggev(LAPACK_COL_MAJOR, 'N', jr, n, a.data(), a.ld(), b.data(), b.ld(),
                           al.data(), be.data(), VL.data(), 1, VR.data(), ldr);
    for (lapack_int i = 0; i < n; ++i) {
      if (be[i] == T(0)) {
        R inf = std::numeric_limits<R>::infinity();
        w[i] = al[i] == T(0) ? std::complex<R>(std::numeric_limits<R>::quiet_NaN(), 0)
                             : std::complex<R>(inf, 0);
      } else {
        w[i] = al[i] / be[i];
      }
    }
    if (vr) *vr = VR;
  }
  if (vr) normalize_columns(*vr);
  return info;
}

#define MF_LX_EIG(T)                                                                           \
  template lapack_int geev_c<T>(Mat<T>, std::vector<std::complex<real_t<T>>>&,                \
                                Mat<std::complex<real_t<T>>>*, Mat<std::complex<real_t<T>>>*); \
  template lapack_int ggev_c<T>(Mat<T>, Mat<T>, std::vector<std::complex<real_t<T>>>&,         \
                                Mat<std::complex<real_t<T>>>*);
MF_LX_EIG(float)
MF_LX_EIG(double)
MF_LX_EIG(cf)
MF_LX_EIG(cd)
#undef MF_LX_EIG

}  // namespace matfuse::lx
