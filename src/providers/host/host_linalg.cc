// Dense linear algebra of the host provider (provider.h, LibraryCall::Solve): LAPACKE and
// OpenBLAS in the caller's precision, and plain loops for the matrix maps (analyze, geam, fill,
// permute_rows). This is the executable specification the CUDA provider's cuSOLVER path is
// compared with (tests/gpu/gpu_linalg.cc).
#include <cblas.h>
#include <lapacke.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

#include "providers/host/host_provider.h"
#include "runtime/error.h"

namespace matfuse::host {
namespace {

static_assert(sizeof(lapack_int) == sizeof(int32_t), "pivot vectors are int32 (LP64 LAPACK)");
constexpr int L = LAPACK_COL_MAJOR;

lapack_int li(int64_t v) { return static_cast<lapack_int>(v); }
lapack_int ld(int64_t v) { return static_cast<lapack_int>(std::max<int64_t>(v, 1)); }

template <class T> MatrixTraits analyze_t(const AnalyzeCall& c) {
  const T* a = static_cast<const T*>(c.a);
  MatrixTraits t;
  t.upper = t.lower = true;
  t.symmetric = c.m == c.n;
  t.pos_diag = true;
  double norm = 0;
  bool nan = false;
  for (int64_t j = 0; j < c.n; ++j) {
    double colsum = 0;
    for (int64_t i = 0; i < c.m; ++i) {
      const T v = a[j * c.lda + i];
      if (!std::isfinite(v)) t.finite = false;
      if (v != v) nan = true;
      colsum += std::abs(static_cast<double>(v));
      if (i > j && v != T(0)) t.upper = false;
      if (i < j && v != T(0)) t.lower = false;
      if (i == j) {
        if (!(v > T(0))) t.pos_diag = false;
        if (v == T(0)) t.zero_diag = true;
      }
      if (t.symmetric && i > j && v != a[i * c.lda + j]) t.symmetric = false;
    }
    norm = std::max(norm, colsum);
  }
  if (std::min(c.m, c.n) == 0) t.pos_diag = false;
  t.norm1 = nan ? std::numeric_limits<double>::quiet_NaN() : norm;
  return t;
}

template <class T> void geam_t(const GeamCall& c) {
  const T* a = static_cast<const T*>(c.a);
  T* o = static_cast<T*>(c.c);
  const T al = static_cast<T>(c.alpha);
  for (int64_t j = 0; j < c.n; ++j)
    for (int64_t i = 0; i < c.m; ++i)
      o[j * c.ldc + i] = al * (c.trans ? a[i * c.lda + j] : a[j * c.lda + i]);
}

template <class T> void fill_t(const FillCall& c) {
  T* a = static_cast<T*>(c.a);
  const T* v = static_cast<const T*>(c.v);
  using K = FillCall::Kind;
  for (int64_t j = 0; j < c.n; ++j)
    for (int64_t i = 0; i < c.m; ++i) {
      T& x = a[j * c.lda + i];
      switch (c.kind) {
        case K::Triu: if (j - i < c.k) x = T(0); break;
        case K::Tril: if (j - i > c.k) x = T(0); break;
        case K::UnitDiag: if (i == j) x = T(1); break;
        case K::Diag: x = i == j ? (v ? v[i] : static_cast<T>(c.value)) : T(0); break;
        case K::ScaleCols: x = v[j] > static_cast<T>(c.value) ? x / v[j] : T(0); break;
      }
    }
}

template <class T> void permute_t(const PermuteRowsCall& c) {
  const T* a = static_cast<const T*>(c.a);
  T* o = static_cast<T*>(c.c);
  for (int64_t j = 0; j < c.n; ++j)
    for (int64_t i = 0; i < c.m; ++i) {
      if (c.inverse) o[j * c.ldc + c.perm[i]] = a[j * c.lda + i];
      else o[j * c.ldc + i] = a[j * c.lda + c.perm[i]];
    }
}

}  // namespace

MatrixTraits HostProvider::analyze(const AnalyzeCall& c) {
  return c.f32 ? analyze_t<float>(c) : analyze_t<double>(c);
}

int HostProvider::getrf(const GetrfCall& c) {
  if (std::min(c.m, c.n) == 0) return 0;
  return c.f32 ? LAPACKE_sgetrf(L, li(c.m), li(c.n), static_cast<float*>(c.a), ld(c.lda), c.ipiv)
               : LAPACKE_dgetrf(L, li(c.m), li(c.n), static_cast<double*>(c.a), ld(c.lda), c.ipiv);
}

void HostProvider::getrs(const GetrsCall& c) {
  if (c.n == 0 || c.nrhs == 0) return;
  const char tr = c.trans ? 'T' : 'N';
  if (c.f32)
    LAPACKE_sgetrs(L, tr, li(c.n), li(c.nrhs), static_cast<const float*>(c.a), ld(c.lda), c.ipiv,
                   static_cast<float*>(c.b), ld(c.ldb));
  else
    LAPACKE_dgetrs(L, tr, li(c.n), li(c.nrhs), static_cast<const double*>(c.a), ld(c.lda), c.ipiv,
                   static_cast<double*>(c.b), ld(c.ldb));
}

int HostProvider::potrf(const PotrfCall& c) {
  if (c.n == 0) return 0;
  const char u = c.upper ? 'U' : 'L';
  return c.f32 ? LAPACKE_spotrf(L, u, li(c.n), static_cast<float*>(c.a), ld(c.lda))
               : LAPACKE_dpotrf(L, u, li(c.n), static_cast<double*>(c.a), ld(c.lda));
}

void HostProvider::potrs(const PotrsCall& c) {
  if (c.n == 0 || c.nrhs == 0) return;
  const char u = c.upper ? 'U' : 'L';
  if (c.f32)
    LAPACKE_spotrs(L, u, li(c.n), li(c.nrhs), static_cast<const float*>(c.a), ld(c.lda),
                   static_cast<float*>(c.b), ld(c.ldb));
  else
    LAPACKE_dpotrs(L, u, li(c.n), li(c.nrhs), static_cast<const double*>(c.a), ld(c.lda),
                   static_cast<double*>(c.b), ld(c.ldb));
}

void HostProvider::geqrf(const GeqrfCall& c) {
  if (std::min(c.m, c.n) == 0) return;
  if (c.f32)
    LAPACKE_sgeqrf(L, li(c.m), li(c.n), static_cast<float*>(c.a), ld(c.lda),
                   static_cast<float*>(c.tau));
  else
    LAPACKE_dgeqrf(L, li(c.m), li(c.n), static_cast<double*>(c.a), ld(c.lda),
                   static_cast<double*>(c.tau));
}

void HostProvider::ormqr(const OrmqrCall& c) {
  if (c.m == 0 || c.n == 0 || c.k == 0) return;
  const char tr = c.trans ? 'T' : 'N';
  if (c.f32)
    LAPACKE_sormqr(L, 'L', tr, li(c.m), li(c.n), li(c.k), static_cast<const float*>(c.a),
                   ld(c.lda), static_cast<const float*>(c.tau), static_cast<float*>(c.c),
                   ld(c.ldc));
  else
    LAPACKE_dormqr(L, 'L', tr, li(c.m), li(c.n), li(c.k), static_cast<const double*>(c.a),
                   ld(c.lda), static_cast<const double*>(c.tau), static_cast<double*>(c.c),
                   ld(c.ldc));
}

void HostProvider::orgqr(const OrgqrCall& c) {
  if (c.m == 0 || c.n == 0) return;
  if (c.f32)
    LAPACKE_sorgqr(L, li(c.m), li(c.n), li(c.k), static_cast<float*>(c.a), ld(c.lda),
                   static_cast<const float*>(c.tau));
  else
    LAPACKE_dorgqr(L, li(c.m), li(c.n), li(c.k), static_cast<double*>(c.a), ld(c.lda),
                   static_cast<const double*>(c.tau));
}

int HostProvider::syevd(const SyevdCall& c) {
  if (c.n == 0) return 0;
  const char job = c.vectors ? 'V' : 'N';
  return c.f32 ? LAPACKE_ssyevd(L, job, 'L', li(c.n), static_cast<float*>(c.a), ld(c.lda),
                                static_cast<float*>(c.w))
               : LAPACKE_dsyevd(L, job, 'L', li(c.n), static_cast<double*>(c.a), ld(c.lda),
                                static_cast<double*>(c.w));
}

int HostProvider::gesvd(const GesvdCall& c) {
  if (c.n == 0) return 0;
  MF_ASSERT(c.m >= c.n, "gesvd needs m >= n");
  const char j = c.job;
  if (c.f32) {
    std::vector<float> superb(static_cast<size_t>(c.n));
    float dummy = 0;
    return LAPACKE_sgesvd(L, j, j, li(c.m), li(c.n), static_cast<float*>(c.a), ld(c.lda),
                          static_cast<float*>(c.s), j == 'N' ? &dummy : static_cast<float*>(c.u),
                          ld(c.ldu), j == 'N' ? &dummy : static_cast<float*>(c.vt), ld(c.ldvt),
                          superb.data());
  }
  std::vector<double> superb(static_cast<size_t>(c.n));
  double dummy = 0;
  return LAPACKE_dgesvd(L, j, j, li(c.m), li(c.n), static_cast<double*>(c.a), ld(c.lda),
                        static_cast<double*>(c.s), j == 'N' ? &dummy : static_cast<double*>(c.u),
                        ld(c.ldu), j == 'N' ? &dummy : static_cast<double*>(c.vt), ld(c.ldvt),
                        superb.data());
}

void HostProvider::trsm(const TrsmCall& c) {
  if (c.m == 0 || c.n == 0) return;
  const auto up = c.upper ? CblasUpper : CblasLower;
  const auto tr = c.trans ? CblasTrans : CblasNoTrans;
  const auto dg = c.unit_diag ? CblasUnit : CblasNonUnit;
  if (c.f32)
    cblas_strsm(CblasColMajor, CblasLeft, up, tr, dg, li(c.m), li(c.n), 1.0f,
                static_cast<const float*>(c.a), ld(c.lda), static_cast<float*>(c.b), ld(c.ldb));
  else
    cblas_dtrsm(CblasColMajor, CblasLeft, up, tr, dg, li(c.m), li(c.n), 1.0,
                static_cast<const double*>(c.a), ld(c.lda), static_cast<double*>(c.b),
                ld(c.ldb));
}

void HostProvider::geam(const GeamCall& c) { c.f32 ? geam_t<float>(c) : geam_t<double>(c); }

void HostProvider::fill(const FillCall& c) { c.f32 ? fill_t<float>(c) : fill_t<double>(c); }

void HostProvider::permute_rows(const PermuteRowsCall& c) {
  c.f32 ? permute_t<float>(c) : permute_t<double>(c);
}

}  // namespace matfuse::host
