// Sparse linear solvers: mldivide with MATLAB's choice of method, lu, chol, qr of sparse
// matrices, the incomplete factorizations ichol and ilu, and the Krylov solvers pcg, gmres,
// bicgstab and minres.
//
// Direct methods (SuiteSparse, T. A. Davis; optional, MATFUSE_HAVE_SUITESPARSE): for sparse
// square A, x = A\b takes, in MATLAB's order ("mldivide" documentation, sparse flowchart):
// a triangular solve when A is triangular; LAPACK's tridiagonal solver (dgtsv) when A is
// tridiagonal; CHOLMOD (supernodal Cholesky with AMD/METIS ordering) when A is symmetric with
// a positive diagonal, falling back to UMFPACK when the factorization finds A not positive
// definite; UMFPACK (unsymmetric multifrontal LU) otherwise. Rectangular A: SPQR (multifrontal
// QR, least squares / basic solution). Without SuiteSparse, sparse systems up to 5000
// unknowns (and 2.5e7 matrix elements) are solved with the dense LAPACK path on full(A); larger
// ones raise matfuse:notAvailable.
//
// Iterative methods follow the algorithms of R. Barrett et al., "Templates for the Solution of
// Linear Systems: Building Blocks for Iterative Methods", SIAM 1994 (pcg: preconditioned
// conjugate gradients; bicgstab: van der Vorst's BiCGSTAB; gmres: restarted GMRES of Saad and
// Schultz with Givens rotations), and C. C. Paige and M. A. Saunders, "Solution of sparse
// indefinite systems of linear equations", SIAM J. Numer. Anal. 12, 1975 (minres), with
// MATLAB's signatures, flags (0 converged, 1 maxit reached, 2 preconditioner ill-conditioned,
// 3 stagnated, 4 a scalar quantity became too small or too large), relres, iter and resvec.
// ichol (IC(0), 'nofill', optionally modified) and ilu (ILU(0), 'nofill') follow Y. Saad,
// "Iterative Methods for Sparse Linear Systems", 2nd ed., SIAM 2003, section 10.3 (algorithm
// 10.4 for ILU(0)); the 'ict', 'crout' and 'ilutp' types raise matfuse:notAvailable.
#include <algorithm>
#include <cmath>
#include <complex>
#include <cstdio>
#include <cstring>
#include <functional>
#include <numeric>
#include <optional>

#include "builtins/lapack_inc.h"
#include "builtins/math_util.h"
#include "builtins/methods.h"
#include "builtins/numutil.h"
#include "builtins/sparse_util.h"

#ifdef MATFUSE_HAVE_SUITESPARSE
#include <suitesparse/SuiteSparseQR_C.h>
#include <suitesparse/cholmod.h>
#include <suitesparse/umfpack.h>
#endif

namespace matfuse {

namespace {

using namespace sparse_detail;
using mathutil::call1;

std::vector<double> column_of(const Value& v, const char* fname) {
  const Value d = densify(v);
  if (!d.is_tensor()) mathutil::undefined_for(fname, v);
  const Tensor t = d.tensor();
  if (t.is_complex())
    throw_error("MATLAB:sparse:complexNotSupported", "%s: complex values are not supported.", fname);
  std::vector<double> r(static_cast<size_t>(t.numel()));
  for (int64_t k = 0; k < t.numel(); ++k) r[k] = t.get_double(k);
  return r;
}

Tensor dense_of(const std::vector<double>& v, int64_t m, int64_t n) {
  Tensor t = Tensor::uninit(ClassId::Double, Dims(m, n));
  std::copy(v.begin(), v.end(), t.mutable_data<double>());
  return t;
}

// --- structure tests and simple solvers ------------------------------------------------------

bool is_lower(const Csc& a) {
  for (int64_t c = 0; c < a.n; ++c)
    for (int64_t p = a.jc[c]; p < a.jc[c + 1]; ++p)
      if (a.ir[p] < c) return false;
  return true;
}
bool is_upper(const Csc& a) {
  for (int64_t c = 0; c < a.n; ++c)
    for (int64_t p = a.jc[c]; p < a.jc[c + 1]; ++p)
      if (a.ir[p] > c) return false;
  return true;
}
bool is_tridiagonal(const Csc& a) {
  for (int64_t c = 0; c < a.n; ++c)
    for (int64_t p = a.jc[c]; p < a.jc[c + 1]; ++p)
      if (std::abs(a.ir[p] - c) > 1) return false;
  return true;
}
bool is_symmetric_posdiag(const Csc& a) {
  if (a.m != a.n) return false;
  for (int64_t c = 0; c < a.n; ++c) {
    bool diag = false;
    for (int64_t p = a.jc[c]; p < a.jc[c + 1]; ++p) {
      const int64_t r = a.ir[p];
      if (r == c) {
        if (!(a.x[p] > 0)) return false;
        diag = true;
        continue;
      }
      // a(c, r) must equal a(r, c)
      auto b = a.ir.begin() + a.jc[r], e = a.ir.begin() + a.jc[r + 1];
      auto it = std::lower_bound(b, e, c);
      if (it == e || *it != c || a.x[it - a.ir.begin()] != a.x[p]) return false;
    }
    if (!diag) return false;
  }
  return true;
}

double diag_of(const Csc& a, int64_t c) {
  auto b = a.ir.begin() + a.jc[c], e = a.ir.begin() + a.jc[c + 1];
  auto it = std::lower_bound(b, e, c);
  return it != e && *it == c ? a.x[it - a.ir.begin()] : 0.0;
}

/// Solves the triangular system in place for one right-hand side (column-oriented
/// substitution). Returns false on a zero pivot.
bool tri_solve(const Csc& a, bool lower, bool transpose, double* x) {
  const int64_t n = a.n;
  if (!transpose) {
    if (lower) {
      for (int64_t c = 0; c < n; ++c) {
        const double d = diag_of(a, c);
        if (d == 0) return false;
        x[c] /= d;
        for (int64_t p = a.jc[c]; p < a.jc[c + 1]; ++p)
          if (a.ir[p] > c) x[a.ir[p]] -= a.x[p] * x[c];
      }
    } else {
      for (int64_t c = n - 1; c >= 0; --c) {
        const double d = diag_of(a, c);
        if (d == 0) return false;
        x[c] /= d;
        for (int64_t p = a.jc[c]; p < a.jc[c + 1]; ++p)
          if (a.ir[p] < c) x[a.ir[p]] -= a.x[p] * x[c];
      }
    }
    return true;
  }
  // A' x = b: row-oriented over the columns of A.
  if (lower) {  // A' is upper
    for (int64_t c = n - 1; c >= 0; --c) {
      double s = x[c], d = 0;
      for (int64_t p = a.jc[c]; p < a.jc[c + 1]; ++p) {
        if (a.ir[p] == c) d = a.x[p];
        else if (a.ir[p] > c) s -= a.x[p] * x[a.ir[p]];
      }
      if (d == 0) return false;
      x[c] = s / d;
    }
  } else {
    for (int64_t c = 0; c < n; ++c) {
      double s = x[c], d = 0;
      for (int64_t p = a.jc[c]; p < a.jc[c + 1]; ++p) {
        if (a.ir[p] == c) d = a.x[p];
        else if (a.ir[p] < c) s -= a.x[p] * x[a.ir[p]];
      }
      if (d == 0) return false;
      x[c] = s / d;
    }
  }
  return true;
}

/// y = A*x for a real CSC A.
void spmv(const Csc& a, const double* x, double* y) {
  std::fill(y, y + a.m, 0.0);
  for (int64_t c = 0; c < a.n; ++c) {
    const double xc = x[c];
    if (xc == 0) continue;
    for (int64_t p = a.jc[c]; p < a.jc[c + 1]; ++p) y[a.ir[p]] += a.x[p] * xc;
  }
}

constexpr int64_t kDenseFallbackMax = 5000;

Value dense_fallback(CallContext& ctx, const Value& a, const Value& b, const char* what) {
  const Dims d = a.dims();
  if (d[0] > kDenseFallbackMax || d[1] > kDenseFallbackMax)
    throw_error("matfuse:notAvailable",
                "%s of a sparse matrix larger than %lld-by-%lld needs SuiteSparse, which this "
                "build does not include (Debian: libsuitesparse-dev).",
                what, static_cast<long long>(kDenseFallbackMax), static_cast<long long>(kDenseFallbackMax));
  return call1(ctx, "mldivide", {densify(a), densify(b)});
}

#ifdef MATFUSE_HAVE_SUITESPARSE

/// One BLAS thread while SuiteSparse factorizes: CHOLMOD, UMFPACK and SPQR make many small
/// BLAS calls on their frontal matrices, and OpenBLAS's thread start and synchronisation per
/// call dominates them (measured: the W19 Poisson solve, n = 1e6, takes 38 s with OpenBLAS's
/// default threads on a 2-core machine and 7.9 s with one). The caller's setting is restored.
class OneBlasThread {
public:
  OneBlasThread() : prev_(openblas_get_num_threads()) { openblas_set_num_threads(1); }
  ~OneBlasThread() { openblas_set_num_threads(prev_); }
  OneBlasThread(const OneBlasThread&) = delete;
  OneBlasThread& operator=(const OneBlasThread&) = delete;

private:
  int prev_;
};

/// A cholmod_common started for long indices, finished on scope exit.
struct Cholmod {
  cholmod_common c;
  Cholmod() { cholmod_l_start(&c); c.print = 0; }
  ~Cholmod() { cholmod_l_finish(&c); }
  Cholmod(const Cholmod&) = delete;
  Cholmod& operator=(const Cholmod&) = delete;
};

cholmod_sparse view(Csc& a, int stype) {
  cholmod_sparse s{};
  s.nrow = static_cast<size_t>(a.m);
  s.ncol = static_cast<size_t>(a.n);
  s.nzmax = std::max<size_t>(a.x.size(), 1);
  s.p = a.jc.data();
  s.i = a.ir.data();
  s.x = a.x.data();
  s.stype = stype;
  s.itype = CHOLMOD_LONG;
  s.xtype = CHOLMOD_REAL;
  s.dtype = CHOLMOD_DOUBLE;
  s.sorted = 1;
  s.packed = 1;
  return s;
}

Csc csc_of(const cholmod_sparse* s) {
  Csc c;
  c.m = static_cast<int64_t>(s->nrow);
  c.n = static_cast<int64_t>(s->ncol);
  const auto* p = static_cast<const SuiteSparse_long*>(s->p);
  const auto* i = static_cast<const SuiteSparse_long*>(s->i);
  const auto* x = static_cast<const double*>(s->x);
  c.jc.assign(p, p + c.n + 1);
  // Packed and sorted (cholmod_l_sort where needed by the callers).
  c.ir.assign(i, i + c.jc.back());
  c.x.assign(x, x + c.jc.back());
  return c;
}

/// x = A\B by CHOLMOD; false when A is not positive definite.
bool cholmod_solve(Csc& a, std::vector<double>& b, int64_t nrhs, std::vector<double>& x) {
  OneBlasThread one_thread;
  Cholmod cm;
  cholmod_sparse A = view(a, -1);
  cholmod_factor* L = cholmod_l_analyze(&A, &cm.c);
  if (!L) return false;
  cholmod_l_factorize(&A, L, &cm.c);
  if (cm.c.status == CHOLMOD_NOT_POSDEF || L->minor < L->n) {
    cholmod_l_free_factor(&L, &cm.c);
    return false;
  }
  cholmod_dense B{};
  B.nrow = static_cast<size_t>(a.m);
  B.ncol = static_cast<size_t>(nrhs);
  B.nzmax = B.nrow * B.ncol;
  B.d = B.nrow;
  B.x = b.data();
  B.xtype = CHOLMOD_REAL;
  B.dtype = CHOLMOD_DOUBLE;
  cholmod_dense* X = cholmod_l_solve(CHOLMOD_A, L, &B, &cm.c);
  cholmod_l_free_factor(&L, &cm.c);
  if (!X) return false;
  const auto* xs = static_cast<const double*>(X->x);
  x.assign(xs, xs + a.m * nrhs);
  cholmod_l_free_dense(&X, &cm.c);
  return true;
}

/// x = A\B by UMFPACK; warns when A is singular (the result then holds Inf/NaN as MATLAB's).
void umfpack_solve(CallContext& ctx, Csc& a, const std::vector<double>& b, int64_t nrhs,
                   std::vector<double>& x) {
  OneBlasThread one_thread;
  double control[UMFPACK_CONTROL], info[UMFPACK_INFO];
  umfpack_dl_defaults(control);
  void *sym = nullptr, *num = nullptr;
  const SuiteSparse_long n = a.n;
  auto* Ap = reinterpret_cast<SuiteSparse_long*>(a.jc.data());
  auto* Ai = reinterpret_cast<SuiteSparse_long*>(a.ir.data());
  SuiteSparse_long st = umfpack_dl_symbolic(n, n, Ap, Ai, a.x.data(), &sym, control, info);
  if (st < 0) throw_error("MATLAB:nomem", "Out of memory (UMFPACK symbolic analysis, status %ld).", static_cast<long>(st));
  st = umfpack_dl_numeric(Ap, Ai, a.x.data(), sym, &num, control, info);
  umfpack_dl_free_symbolic(&sym);
  if (st == UMFPACK_WARNING_singular_matrix)
    num::warn(ctx, "MATLAB:singularMatrix", "Matrix is singular to working precision.");
  else if (st < 0) {
    umfpack_dl_free_numeric(&num);
    throw_error("MATLAB:nomem", "Out of memory (UMFPACK factorization, status %ld).", static_cast<long>(st));
  } else if (info[UMFPACK_RCOND] < 1e-16 || std::isnan(info[UMFPACK_RCOND])) {
    char buf[200];
    std::snprintf(buf, sizeof buf,
                  "Matrix is close to singular or badly scaled. Results may be inaccurate. "
                  "RCOND = %e.", info[UMFPACK_RCOND]);
    num::warn(ctx, "MATLAB:nearlySingularMatrix", buf);
  }
  x.assign(static_cast<size_t>(n * nrhs), 0.0);
  for (int64_t k = 0; k < nrhs; ++k)
    umfpack_dl_solve(UMFPACK_A, Ap, Ai, a.x.data(), x.data() + k * n, b.data() + k * n, num, control, info);
  umfpack_dl_free_numeric(&num);
}

/// x = A\B for rectangular A by SPQR (least squares for overdetermined systems, a basic
/// solution for underdetermined ones).
void spqr_solve(Csc& a, std::vector<double>& b, int64_t nrhs, std::vector<double>& x) {
  OneBlasThread one_thread;
  Cholmod cm;
  cholmod_sparse A = view(a, 0);
  cholmod_dense B{};
  B.nrow = static_cast<size_t>(a.m);
  B.ncol = static_cast<size_t>(nrhs);
  B.nzmax = B.nrow * B.ncol;
  B.d = B.nrow;
  B.x = b.data();
  B.xtype = CHOLMOD_REAL;
  B.dtype = CHOLMOD_DOUBLE;
  cholmod_dense* X = SuiteSparseQR_C_backslash_default(&A, &B, &cm.c);
  if (!X) throw_error("MATLAB:nomem", "Out of memory (SPQR).");
  const auto* xs = static_cast<const double*>(X->x);
  x.assign(xs, xs + a.n * nrhs);
  cholmod_l_free_dense(&X, &cm.c);
}

#endif  // MATFUSE_HAVE_SUITESPARSE

/// x = A \ b with sparse A or b.
Outputs m_mldivide(CallContext& ctx, Args args, int nargout) {
  check_nargin(args, 2, 2);
  check_nargout(nargout, 1);
  const Value &av = args[0], &bv = args[1];
  if (av.numel() == 1) return {callv(ctx, "ldivide", {av, bv})};
  if (!as_sparse(av)) return {callv(ctx, "mldivide", {av, densify(bv)})};
  const SparseMatrix& s = sp(av);
  const bool b_sparse = as_sparse(bv) != nullptr;
  const Value bd = densify(bv);
  if (!bd.is_tensor()) mathutil::undefined_for("mldivide", bv);
  if (bd.dims().ndims() > 2 || bd.dims()[0] != s.rows())
    throw_error("MATLAB:dimagree",
                "Matrix dimensions must agree.");
  auto out = [&](Value x) -> Outputs { return {b_sparse ? to_sparse(x) : x}; };
  if (s.is_complex() || bd.tensor().is_complex()) return out(dense_fallback(ctx, av, bd, "Complex mldivide"));
  Csc a = real_csc(s, "mldivide");
  const int64_t m = a.m, n = a.n, nrhs = bd.dims()[1];
  std::vector<double> b = column_of(bd, "mldivide"), x;
  if (m == n && n > 0) {
    const bool lo = is_lower(a), up = is_upper(a);
    if (lo || up) {
      x = b;
      bool ok = true;
      for (int64_t k = 0; k < nrhs && ok; ++k) ok = tri_solve(a, lo, false, x.data() + k * n);
      if (ok) return out(Value(dense_of(x, n, nrhs)));
      num::warn(ctx, "MATLAB:singularMatrix", "Matrix is singular to working precision.");
      return out(call1(ctx, "mldivide", {densify(av), bd}));
    }
    if (is_tridiagonal(a)) {
      std::vector<double> dl(static_cast<size_t>(n - 1)), d(static_cast<size_t>(n)), du(static_cast<size_t>(n - 1));
      for (int64_t c = 0; c < n; ++c)
        for (int64_t p = a.jc[c]; p < a.jc[c + 1]; ++p) {
          const int64_t r = a.ir[p];
          if (r == c) d[c] = a.x[p];
          else if (r == c + 1) dl[c] = a.x[p];
          else du[r] = a.x[p];
        }
      x = b;
      const lapack_int info = LAPACKE_dgtsv(LAPACK_COL_MAJOR, static_cast<lapack_int>(n),
                                            static_cast<lapack_int>(nrhs), dl.data(), d.data(),
                                            du.data(), x.data(), static_cast<lapack_int>(n));
      if (info == 0) return out(Value(dense_of(x, n, nrhs)));
      // Singular: the general path gives MATLAB's warning and Inf/NaN result.
    }
  }
#ifdef MATFUSE_HAVE_SUITESPARSE
  if (m == 0 || n == 0 || nrhs == 0) return out(Value(Tensor::zeros(ClassId::Double, Dims(n, nrhs))));
  if (m == n) {
    if (is_symmetric_posdiag(a) && cholmod_solve(a, b, nrhs, x)) return out(Value(dense_of(x, n, nrhs)));
    umfpack_solve(ctx, a, b, nrhs, x);
    return out(Value(dense_of(x, n, nrhs)));
  }
  spqr_solve(a, b, nrhs, x);
  return out(Value(dense_of(x, n, nrhs)));
#else
  return out(dense_fallback(ctx, av, bd, "mldivide"));
#endif
}

// --- factorizations --------------------------------------------------------------------------

/// A sparse Value of a real CSC (rows sorted).
Value sparse_value(Csc c) { return from_csc(std::move(c)); }

/// A permutation as a sparse matrix P with P(k, perm[k]) = 1 (rows) or a 1-based row vector.
Value perm_value(const std::vector<int64_t>& perm, bool vector, bool columns) {
  const int64_t n = static_cast<int64_t>(perm.size());
  if (vector) {
    Tensor t = Tensor::uninit(ClassId::Double, Dims(1, n));
    for (int64_t k = 0; k < n; ++k) t.set_double(k, static_cast<double>(perm[k] + 1));
    return Value(std::move(t));
  }
  std::vector<int64_t> ii(static_cast<size_t>(n)), jj(static_cast<size_t>(n));
  for (int64_t k = 0; k < n; ++k) {
    ii[k] = (columns ? perm[k] : k) + 1;
    jj[k] = (columns ? k : perm[k]) + 1;
  }
  Tensor v = Tensor::uninit(ClassId::Double, Dims(n, 1));
  std::fill_n(v.mutable_data<double>(), n, 1.0);
  return sparse_from_triplets(n, n, ii, jj, v);
}

/// R = chol(S), chol(S, 'lower'), [R, p] = chol(S), [R, p, P] = chol(S[, 'vector'|'matrix']):
/// sparse Cholesky factors (R'*R = S, or R'*R = P'*S*P with a fill-reducing ordering for three
/// outputs). Only the upper triangle of S is used, as in MATLAB.
Outputs m_chol(CallContext& ctx, Args args, int nargout) {
  check_nargin(args, 1, 3);
  check_nargout(nargout, 3);
  bool lower = false, vec = false;
  for (size_t k = 1; k < args.size(); ++k) {
    const std::string o = args[k].is_text() ? args[k].to_text() : "";
    if (o == "lower") lower = true;
    else if (o == "upper") lower = false;
    else if (o == "vector") vec = true;
    else if (o == "matrix") vec = false;
    else throw_error("MATLAB:chol:invalidInput", "Invalid option to chol.");
  }
  const SparseMatrix& s = sp(args[0]);
  if (s.rows() != s.cols()) throw_error("MATLAB:square", "Matrix must be square.");
#ifdef MATFUSE_HAVE_SUITESPARSE
  Csc a = real_csc(s, "chol");
  // The upper triangle (lower for 'lower') defines the symmetric matrix.
  OneBlasThread one_thread;
  Cholmod cm;
  cholmod_sparse A = view(a, lower ? -1 : 1);
  if (nargout < 3) {
    cm.c.nmethods = 1;
    cm.c.method[0].ordering = CHOLMOD_NATURAL;
    cm.c.postorder = 0;
  }
  cm.c.final_asis = 0;
  cm.c.final_super = 0;
  cm.c.final_ll = 1;
  cm.c.final_pack = 1;
  cm.c.final_monotonic = 1;
  cm.c.quick_return_if_not_posdef = 1;
  cholmod_factor* L = cholmod_l_analyze(&A, &cm.c);
  if (!L) throw_error("MATLAB:nomem", "Out of memory (CHOLMOD).");
  cholmod_l_factorize(&A, L, &cm.c);
  const int64_t n = s.rows();
  const int64_t minor = static_cast<int64_t>(L->minor);
  if (minor < n && nargout < 2) {
    cholmod_l_free_factor(&L, &cm.c);
    throw_error("MATLAB:posdef", "Matrix must be positive definite.");
  }
  std::vector<int64_t> perm(static_cast<size_t>(n));
  const auto* pp = static_cast<const SuiteSparse_long*>(L->Perm);
  for (int64_t k = 0; k < n; ++k) perm[k] = pp ? pp[k] : k;
  cholmod_sparse* Ls = cholmod_l_factor_to_sparse(L, &cm.c);
  cholmod_l_free_factor(&L, &cm.c);
  if (!Ls) throw_error("MATLAB:nomem", "Out of memory (CHOLMOD).");
  cholmod_l_sort(Ls, &cm.c);
  Csc l = csc_of(Ls);
  cholmod_l_free_sparse(&Ls, &cm.c);
  if (minor < n) {
    // [R, p] = chol(S): p is the failing column; R the factor of the leading (p-1)-by-(p-1)
    // block.
    Csc t;
    t.m = t.n = minor;
    t.jc.assign(static_cast<size_t>(minor) + 1, 0);
    for (int64_t c = 0; c < minor; ++c) {
      for (int64_t q = l.jc[c]; q < l.jc[c + 1]; ++q)
        if (l.ir[q] < minor) {
          t.ir.push_back(l.ir[q]);
          t.x.push_back(l.x[q]);
        }
      t.jc[c + 1] = static_cast<int64_t>(t.ir.size());
    }
    l = std::move(t);
  }
  Value F = sparse_value(std::move(l));
  if (!lower) F = sparse_transpose(sp(F), false);
  Outputs r{F};
  if (nargout >= 2) r.push_back(Value(minor < n ? static_cast<double>(minor + 1) : 0.0));
  if (nargout >= 3) r.push_back(perm_value(perm, vec, true));
  return r;
#else
  (void)lower, (void)vec;
  Outputs r = ctx.call_named("chol", densify_all(args), std::max(nargout, 1));
  for (auto& v : r) v = to_sparse(v);
  return r;
#endif
}


#ifdef MATFUSE_HAVE_SUITESPARSE
/// [L, U, P, Q] = lu(S) (P*S*Q = L*U) and [L, U, P, Q, R] = lu(S) (P*(R\S)*Q = L*U) by UMFPACK,
/// as MATLAB computes them for sparse S.
Outputs umfpack_lu(const SparseMatrix& s, int nargout) {
  OneBlasThread one_thread;
  Csc a = real_csc(s, "lu");
  if (a.m != a.n) throw_error("MATLAB:square", "Matrix must be square.");
  const SuiteSparse_long n = a.n;
  double control[UMFPACK_CONTROL], info[UMFPACK_INFO];
  umfpack_dl_defaults(control);
  if (nargout < 5) control[UMFPACK_SCALE] = UMFPACK_SCALE_NONE;
  void *sym = nullptr, *num = nullptr;
  auto* Ap = reinterpret_cast<SuiteSparse_long*>(a.jc.data());
  auto* Ai = reinterpret_cast<SuiteSparse_long*>(a.ir.data());
  if (umfpack_dl_symbolic(n, n, Ap, Ai, a.x.data(), &sym, control, info) < 0)
    throw_error("MATLAB:nomem", "Out of memory (UMFPACK).");
  const SuiteSparse_long st = umfpack_dl_numeric(Ap, Ai, a.x.data(), sym, &num, control, info);
  umfpack_dl_free_symbolic(&sym);
  if (st < 0) throw_error("MATLAB:nomem", "Out of memory (UMFPACK).");
  SuiteSparse_long lnz, unz, nr, nc, nzud;
  umfpack_dl_get_lunz(&lnz, &unz, &nr, &nc, &nzud, num);
  std::vector<SuiteSparse_long> Lp(n + 1), Lj(lnz), Up(n + 1), Ui(unz), P(n), Q(n);
  std::vector<double> Lx(lnz), Ux(unz), Rs(n);
  SuiteSparse_long recip = 0;
  umfpack_dl_get_numeric(Lp.data(), Lj.data(), Lx.data(), Up.data(), Ui.data(), Ux.data(),
                         P.data(), Q.data(), nullptr, &recip, Rs.data(), num);
  umfpack_dl_free_numeric(&num);
  // L comes by rows: its transpose's CSC is L's CSR.
  Csc lt;
  lt.m = lt.n = n;
  lt.jc.assign(Lp.begin(), Lp.end());
  lt.ir.assign(Lj.begin(), Lj.end());
  lt.x = Lx;
  const Value Lrows = from_csc(std::move(lt));
  Value L = sparse_transpose(sp(Lrows), false);
  Csc u;
  u.m = u.n = n;
  u.jc.assign(Up.begin(), Up.end());
  u.ir.assign(Ui.begin(), Ui.end());
  u.x = Ux;
  // UMFPACK's columns may be unsorted: rebuild through triplets.
  std::vector<int64_t> ii, jj;
  for (int64_t c = 0; c < n; ++c)
    for (int64_t q = u.jc[c]; q < u.jc[c + 1]; ++q) {
      ii.push_back(u.ir[q] + 1);
      jj.push_back(c + 1);
    }
  Tensor ux = Tensor::uninit(ClassId::Double, Dims(static_cast<int64_t>(Ux.size()), 1));
  std::copy(Ux.begin(), Ux.end(), ux.mutable_data<double>());
  Value U = sparse_from_triplets(n, n, ii, jj, ux);
  std::vector<int64_t> pv(P.begin(), P.end()), qv(Q.begin(), Q.end());
  Outputs r{L, U, perm_value(pv, false, false), perm_value(qv, false, true)};
  if (nargout >= 5) {
    std::vector<int64_t> di(static_cast<size_t>(n)), dj(static_cast<size_t>(n));
    Tensor rv = Tensor::uninit(ClassId::Double, Dims(n, 1));
    for (int64_t k = 0; k < n; ++k) {
      di[k] = dj[k] = k + 1;
      rv.set_double(k, recip ? 1.0 / Rs[k] : Rs[k]);
    }
    r.push_back(sparse_from_triplets(n, n, di, dj, rv));
  }
  return r;
}
#endif

/// lu(S): [L, U, P, Q(, R)] = lu(S) by UMFPACK (four or five outputs); Y = lu(S), [L, U] =
/// lu(S) and [L, U, P] = lu(S) use partial pivoting (threshold 1), computed on full S and
/// returned sparse.
Outputs m_lu(CallContext& ctx, Args args, int nargout) {
  check_nargin(args, 1, 3);
  check_nargout(nargout, 5);
  const SparseMatrix& s = sp(args[0]);
#ifdef MATFUSE_HAVE_SUITESPARSE
  if (nargout >= 4 && args.size() == 1) return umfpack_lu(s, nargout);
#endif
  if (s.rows() > kDenseFallbackMax || s.cols() > kDenseFallbackMax)
    throw_error("matfuse:notAvailable",
                "lu with fewer than four outputs of a sparse matrix larger than %lld-by-%lld is "
                "not supported; use [L, U, P, Q] = lu(S).",
                static_cast<long long>(kDenseFallbackMax), static_cast<long long>(kDenseFallbackMax));
  std::vector<Value> dargs = densify_all(args);
  Outputs r = ctx.call_named("lu", dargs, std::max(nargout, 1));
  for (auto& v : r) v = to_sparse(v);
  return r;
}

// --- incomplete factorizations ---------------------------------------------------------------

/// The options struct of ichol/ilu: field values by name (missing fields: not present).
const Value* opt_field(const Value& opts, const char* name) {
  if (!opts.is_struct() || opts.numel() != 1) return nullptr;
  const StructArray& sa = opts.struct_array();
  const int f = sa.field_index(name);
  return f < 0 ? nullptr : &sa.get(0, f);
}

std::string opt_text(const Value& opts, const char* name, const char* dflt) {
  const Value* v = opt_field(opts, name);
  return v && v->is_text() ? v->to_text() : std::string(dflt);
}

/// L = ichol(A), ichol(A, opts): the zero-fill incomplete Cholesky factor (L*L' ~ A on the
/// pattern of tril(A); Saad, section 10.3.2) of a symmetric positive definite sparse A; only
/// the lower triangle of A is read. opts.type 'nofill' (the default); opts.michol 'on' adds the
/// dropped fill to the diagonal (modified IC); opts.diagcomp alpha factors A + alpha*diag(diag(A));
/// opts.shape 'upper' returns L'. Errors: MATLAB:ichol:Breakdown on a nonpositive pivot.
Outputs bi_ichol(CallContext&, Args args, int nargout) {
  check_nargin(args, 1, 2);
  check_nargout(nargout, 1);
  if (!as_sparse(args[0]))
    throw_error("MATLAB:ichol:SparseInput", "A must be a sparse matrix.");
  const Value opts = args.size() == 2 ? args[1] : Value();
  const std::string type = opt_text(opts, "type", "nofill");
  if (type != "nofill")
    throw_error("matfuse:notAvailable", "ichol: only the 'nofill' type is supported.");
  const bool michol = opt_text(opts, "michol", "off") == "on";
  double diagcomp = 0;
  if (const Value* d = opt_field(opts, "diagcomp")) diagcomp = densify(*d).tensor().get_double(0);
  const std::string shape = opt_text(opts, "shape", "lower");
  const SparseMatrix& s = sp(args[0]);
  if (s.rows() != s.cols()) throw_error("MATLAB:ichol:SquareMatrix", "A must be a square matrix.");
  Csc a = real_csc(s, "ichol");
  const int64_t n = a.n;
  // L = tril(A) (+ diagcomp on the diagonal), then right-looking IC(0).
  Csc L;
  L.m = L.n = n;
  L.jc.assign(static_cast<size_t>(n) + 1, 0);
  for (int64_t c = 0; c < n; ++c) {
    bool has_diag = false;
    for (int64_t p = a.jc[c]; p < a.jc[c + 1]; ++p) {
      if (a.ir[p] < c) continue;
      if (a.ir[p] == c) has_diag = true;
      L.ir.push_back(a.ir[p]);
      L.x.push_back(a.ir[p] == c ? a.x[p] * (1 + diagcomp) : a.x[p]);
    }
    if (!has_diag) throw_error("MATLAB:ichol:Breakdown", "Encountered nonpositive pivot.");
    L.jc[c + 1] = static_cast<int64_t>(L.ir.size());
  }
  std::vector<int64_t> pos(static_cast<size_t>(n), -1);
  for (int64_t k = 0; k < n; ++k) {
    const int64_t dk = L.jc[k];  // the diagonal leads each column (rows sorted, >= k)
    if (!(L.x[dk] > 0)) throw_error("MATLAB:ichol:Breakdown", "Encountered nonpositive pivot.");
    const double piv = std::sqrt(L.x[dk]);
    L.x[dk] = piv;
    for (int64_t p = dk + 1; p < L.jc[k + 1]; ++p) L.x[p] /= piv;
    for (int64_t p = dk + 1; p < L.jc[k + 1]; ++p) {
      const int64_t j = L.ir[p];
      for (int64_t q = L.jc[j]; q < L.jc[j + 1]; ++q) pos[L.ir[q]] = q;
      for (int64_t t = p; t < L.jc[k + 1]; ++t) {
        const int64_t i = L.ir[t];
        const double upd = L.x[t] * L.x[p];
        if (pos[i] >= 0) L.x[pos[i]] -= upd;
        else if (michol) {
          // Dropped fill goes to the diagonals of its row and column (row sums kept).
          L.x[L.jc[j]] -= upd;
          L.x[L.jc[i]] -= upd;
        }
      }
      for (int64_t q = L.jc[j]; q < L.jc[j + 1]; ++q) pos[L.ir[q]] = -1;
    }
  }
  Value r = from_csc(std::move(L));
  if (shape == "upper") r = sparse_transpose(sp(r), false);
  return {r};
}

/// [L, U] = ilu(A), ilu(A, opts) with opts.type 'nofill' (the default): the zero-fill
/// incomplete LU factorization (L unit lower, U upper, L*U ~ A on the pattern of A; Saad,
/// algorithm 10.4). W = ilu(A) returns L + U - speye(n). Errors: MATLAB:ilu:ZeroPivot.
Outputs bi_ilu(CallContext&, Args args, int nargout) {
  check_nargin(args, 1, 2);
  check_nargout(nargout, 2);
  if (!as_sparse(args[0])) throw_error("MATLAB:ilu:SparseInput", "A must be sparse.");
  const Value opts = args.size() == 2 ? args[1] : Value();
  const std::string type = opt_text(opts, "type", "nofill");
  if (type != "nofill")
    throw_error("matfuse:notAvailable", "ilu: only the 'nofill' type is supported.");
  const SparseMatrix& s = sp(args[0]);
  if (s.rows() != s.cols()) throw_error("MATLAB:ilu:SquareMatrix", "A must be square.");
  // Rows of A: the CSC of A' holds A's rows.
  const Value at = sparse_transpose(s, false);
  Csc r = real_csc(sp(at), "ilu");
  const int64_t n = r.n;
  std::vector<int64_t> pos(static_cast<size_t>(n), -1), diag(static_cast<size_t>(n), -1);
  for (int64_t i = 0; i < n; ++i)
    for (int64_t p = r.jc[i]; p < r.jc[i + 1]; ++p)
      if (r.ir[p] == i) diag[i] = p;
  for (int64_t i = 0; i < n; ++i) {
    for (int64_t p = r.jc[i]; p < r.jc[i + 1]; ++p) pos[r.ir[p]] = p;
    for (int64_t p = r.jc[i]; p < r.jc[i + 1] && r.ir[p] < i; ++p) {
      const int64_t k = r.ir[p];
      if (diag[k] < 0 || r.x[diag[k]] == 0)
        throw_error("MATLAB:ilu:ZeroPivot", "There is a zero pivot at row %lld.", static_cast<long long>(k + 1));
      r.x[p] /= r.x[diag[k]];
      for (int64_t q = diag[k] + 1; q < r.jc[k + 1]; ++q)
        if (pos[r.ir[q]] >= 0) r.x[pos[r.ir[q]]] -= r.x[p] * r.x[q];
    }
    for (int64_t p = r.jc[i]; p < r.jc[i + 1]; ++p) pos[r.ir[p]] = -1;
    if (diag[i] < 0 || r.x[diag[i]] == 0)
      throw_error("MATLAB:ilu:ZeroPivot", "There is a zero pivot at row %lld.", static_cast<long long>(i + 1));
  }
  // Split the rows into L (unit diagonal) and U; transpose back to columns.
  Csc lr, ur;
  lr.m = lr.n = ur.m = ur.n = n;
  lr.jc.assign(static_cast<size_t>(n) + 1, 0);
  ur.jc.assign(static_cast<size_t>(n) + 1, 0);
  for (int64_t i = 0; i < n; ++i) {
    for (int64_t p = r.jc[i]; p < r.jc[i + 1]; ++p) {
      if (r.ir[p] < i) {
        lr.ir.push_back(r.ir[p]);
        lr.x.push_back(r.x[p]);
      } else {
        if (r.ir[p] == i) {
          lr.ir.push_back(i);
          lr.x.push_back(1.0);
        }
        ur.ir.push_back(r.ir[p]);
        ur.x.push_back(r.x[p]);
      }
    }
    lr.jc[i + 1] = static_cast<int64_t>(lr.ir.size());
    ur.jc[i + 1] = static_cast<int64_t>(ur.ir.size());
  }
  if (nargout <= 1) {
    // W = L + U - I: the factors in one matrix (the rows as computed).
    return {sparse_transpose(sp(from_csc(std::move(r))), false)};
  }
  const Value Lt = from_csc(std::move(lr)), Ut = from_csc(std::move(ur));
  return {sparse_transpose(sp(Lt), false), sparse_transpose(sp(Ut), false)};
}

// --- Krylov solvers --------------------------------------------------------------------------

double dot(const std::vector<double>& a, const std::vector<double>& b) {
  double s = 0;
  for (size_t k = 0; k < a.size(); ++k) s += a[k] * b[k];
  return s;
}
double nrm(const std::vector<double>& a) { return std::sqrt(dot(a, a)); }
bool finite_all(const std::vector<double>& a) {
  for (double v : a)
    if (!std::isfinite(v)) return false;
  return true;
}

/// A matrix operand (sparse or full) or a function handle, applied as y = A*x, or, for a
/// preconditioner, y = M\x (a handle computes M\x itself).
struct Operator {
  CallContext* ctx = nullptr;
  Value v;
  bool present = false, handle = false, sparse = false;
  Csc a;
  int tri = 0;  // 1 lower, 2 upper triangular sparse preconditioner
  void init(CallContext& c, const Value& val, bool precond, int64_t n, const char* fname) {
    ctx = &c;
    v = val;
    // [] means "no preconditioner"; the matrix A is always checked.
    present = !precond || !(val.is_tensor() && val.is_empty());
    if (!present) return;
    handle = val.is_function() || val.is_text();
    if (handle) return;
    const Dims d = val.dims();
    if (d.ndims() != 2 || d[0] != n || d[1] != n)
      throw_error(precond ? "MATLAB:pcg:WrongPrecondSize" : "MATLAB:pcg:NonSquareMatrix",
                  precond ? "%s: the preconditioner must be a square matrix of the size of A."
                          : "%s: A must be a square matrix.", fname);
    if (const SparseMatrix* s = as_sparse(val)) {
      sparse = true;
      a = real_csc(*s, fname);
      tri = is_lower(a) ? 1 : is_upper(a) ? 2 : 0;
    }
  }
  std::vector<double> call_handle(const std::vector<double>& x) const {
    Value xv(dense_of(x, static_cast<int64_t>(x.size()), 1));
    Outputs o = ctx->call(v, std::span<const Value>(&xv, 1), 1);
    if (o.empty()) throw_error("MATLAB:TooManyOutputs", "Too many output arguments.");
    std::vector<double> y = column_of(o[0], "iterative solver");
    if (y.size() != x.size())
      throw_error("MATLAB:dimagree", "The function must return a vector of the size of b.");
    return y;
  }
  std::vector<double> mul(const std::vector<double>& x) const {
    if (handle) return call_handle(x);
    if (sparse) {
      std::vector<double> y(x.size());
      spmv(a, x.data(), y.data());
      return y;
    }
    std::vector<double> y = column_of(callv(*ctx, "mtimes", {v, Value(dense_of(x, static_cast<int64_t>(x.size()), 1))}), "mtimes");
    if (y.size() != x.size()) throw_error("MATLAB:dimagree", "Matrix dimensions must agree.");
    return y;
  }
  std::vector<double> solve(const std::vector<double>& x) const {
    if (!present) return x;
    if (handle) return call_handle(x);
    if (sparse && tri) {
      std::vector<double> y = x;
      if (!tri_solve(a, tri == 1, false, y.data())) std::fill(y.begin(), y.end(), INFINITY);
      return y;
    }
    std::vector<double> y = column_of(callv(*ctx, "mldivide", {v, Value(dense_of(x, static_cast<int64_t>(x.size()), 1))}), "mldivide");
    if (y.size() != x.size()) throw_error("MATLAB:dimagree", "Matrix dimensions must agree.");
    return y;
  }
};

struct KrylovArgs {
  Operator A, M1, M2;
  std::vector<double> b, x;
  double tol = 1e-6;
  int64_t maxit = 0, n = 0;
  /// b - A*x.
  std::vector<double> residual(const std::vector<double>& at) const {
    std::vector<double> r = b;
    const std::vector<double> Ax = A.mul(at);
    for (int64_t i = 0; i < n; ++i) r[i] -= Ax[i];
    return r;
  }
};

/// Parses (A, b, tol, maxit, M1, M2, x0) from position `first` of tol (gmres has restart
/// before tol).
KrylovArgs krylov_args(CallContext& ctx, Args args, size_t tol_at, const char* fname) {
  KrylovArgs k;
  k.b = column_of(args[1], fname);
  k.n = static_cast<int64_t>(k.b.size());
  if (args[1].dims().ndims() != 2 || args[1].dims()[1] != 1)
    throw_error("MATLAB:pcg:RHSnotColumn", "Right hand side must be a column vector.");
  k.A.init(ctx, args[0], false, k.n, fname);
  auto has = [&](size_t i) { return args.size() > i && !(args[i].is_tensor() && args[i].is_empty()); };
  if (has(tol_at)) {
    k.tol = densify(args[tol_at]).tensor().get_double(0);
    if (!(k.tol > 0)) k.tol = 1e-6;
  }
  k.maxit = std::min<int64_t>(k.n, 20);
  if (has(tol_at + 1)) k.maxit = count_option(args[tol_at + 1], fname, "maxit");
  if (args.size() > tol_at + 2) k.M1.init(ctx, args[tol_at + 2], true, k.n, fname);
  if (args.size() > tol_at + 3) k.M2.init(ctx, args[tol_at + 3], true, k.n, fname);
  k.x.assign(static_cast<size_t>(k.n), 0.0);
  if (has(tol_at + 4)) {
    k.x = column_of(args[tol_at + 4], fname);
    if (static_cast<int64_t>(k.x.size()) != k.n)
      throw_error("MATLAB:pcg:WrongInitGuessSize", "Initial guess must be a column vector of length %lld.", static_cast<long long>(k.n));
  }
  return k;
}

std::vector<double> precond(const KrylovArgs& k, const std::vector<double>& r) {
  return k.M2.solve(k.M1.solve(r));
}

/// MATLAB's report when the caller asked for x only: the converged text, or a warning with
/// the reason.
void report(CallContext& ctx, const char* fname, int flag, double iter, double relres,
            double tol, int64_t imax, bool half = false) {
  char it[64];
  if (half || iter != std::floor(iter)) std::snprintf(it, sizeof it, "%.1f", iter);
  else std::snprintf(it, sizeof it, "%lld", static_cast<long long>(iter));
  char buf[600];
  if (flag == 0) {
    std::snprintf(buf, sizeof buf, "%s converged at iteration %s to a solution with relative residual %0.2g.",
                  fname, it, relres);
    *ctx.session().out << buf << "\n";
    return;
  }
  static const char* reasons[] = {"", "because the maximum number of iterations was reached.",
                                  "because the system involving the preconditioner was ill conditioned.",
                                  "because the method stagnated.",
                                  "because a scalar quantity became too small or too large to continue computing."};
  std::snprintf(buf, sizeof buf,
                "%s stopped at iteration %lld without converging to the desired tolerance %0.2g\n%s\n"
                "The iterate returned (number %s) has relative residual %0.2g.",
                fname, static_cast<long long>(imax), tol, reasons[flag], it, relres);
  num::warn(ctx, "MATLAB:pcg:tooSmallTolerance", buf);
}

Outputs krylov_out(CallContext& ctx, const char* fname, const KrylovArgs& k, int nargout, int flag,
                   double relres, Value iter, const std::vector<double>& resvec, double it_report,
                   int64_t imax);

/// The start shared by pcg, bicgstab and minres: n2b = norm(b), tolb = tol*n2b, the initial
/// residual r = b - A*x0 and its norm (resvec's first entry).
struct KrylovStart {
  double n2b = 0, tolb = 0, normr = 0;
  std::vector<double> r, resvec;
};
/// Fills s; returns the outputs when they are known before any iteration (b == 0: x = 0; x0
/// within the tolerance), as MATLAB does.
std::optional<Outputs> krylov_start(CallContext& ctx, const char* fname, KrylovArgs& k,
                                    int nargout, KrylovStart& s) {
  s.n2b = nrm(k.b);
  if (s.n2b == 0) {
    std::fill(k.x.begin(), k.x.end(), 0.0);
    return krylov_out(ctx, fname, k, nargout, 0, 0.0, Value(0.0), {0.0}, 0, 0);
  }
  s.tolb = k.tol * s.n2b;
  s.r = k.residual(k.x);
  s.normr = nrm(s.r);
  s.resvec = {s.normr};
  if (s.normr <= s.tolb)
    return krylov_out(ctx, fname, k, nargout, 0, s.normr / s.n2b, Value(0.0), s.resvec, 0, 0);
  return std::nullopt;
}

Outputs krylov_out(CallContext& ctx, const char* fname, const KrylovArgs& k, int nargout, int flag,
                   double relres, Value iter, const std::vector<double>& resvec, double it_report,
                   int64_t imax) {
  if (nargout < 2) report(ctx, fname, flag, it_report, relres, k.tol, imax);
  Outputs r{Value(dense_of(k.x, k.n, 1))};
  if (nargout >= 2) r.push_back(Value(static_cast<double>(flag)));
  if (nargout >= 3) r.push_back(Value(relres));
  if (nargout >= 4) r.push_back(iter);
  if (nargout >= 5) r.push_back(Value(dense_of(resvec, static_cast<int64_t>(resvec.size()), 1)));
  return r;
}

/// [x, flag, relres, iter, resvec] = pcg(A, b, tol, maxit, M1, M2, x0): preconditioned
/// conjugate gradients for symmetric positive definite A (Barrett et al., Templates, fig. 2.5),
/// with MATLAB's stagnation checks and its choice of the returned iterate.
Outputs bi_pcg(CallContext& ctx, Args args, int nargout) {
  check_nargin(args, 2, 7);
  check_nargout(nargout, 5);
  KrylovArgs k = krylov_args(ctx, args, 2, "pcg");
  KrylovStart st;
  if (std::optional<Outputs> done = krylov_start(ctx, "pcg", k, nargout, st)) return *done;
  const double n2b = st.n2b, tolb = st.tolb;
  std::vector<double> r = std::move(st.r), resvec = std::move(st.resvec);
  double normr = st.normr, normr_act = normr;
  std::vector<double> xmin = k.x, p(static_cast<size_t>(k.n)), q;
  double normrmin = normr, rho = 1;
  int64_t imin = 0, ii = 0, stag = 0, moresteps = 0;
  const int64_t maxmsteps = std::max<int64_t>(0, std::min<int64_t>({k.n / 50, 5, k.n - k.maxit}));
  const int64_t maxstagsteps = 3;
  int flag = 1;
  for (ii = 1; ii <= k.maxit; ++ii) {
    const std::vector<double> y = k.M1.solve(r);
    if (!finite_all(y)) { flag = 2; break; }
    const std::vector<double> z = k.M2.solve(y);
    if (!finite_all(z)) { flag = 2; break; }
    const double rho1 = rho;
    rho = dot(r, z);
    if (rho == 0 || std::isinf(rho)) { flag = 4; break; }
    if (ii == 1) p = z;
    else {
      const double beta = rho / rho1;
      if (beta == 0 || std::isinf(beta)) { flag = 4; break; }
      for (int64_t i = 0; i < k.n; ++i) p[i] = z[i] + beta * p[i];
    }
    q = k.A.mul(p);
    const double pq = dot(p, q);
    if (pq <= 0 || std::isinf(pq)) { flag = 4; break; }
    const double alpha = rho / pq;
    if (std::isinf(alpha)) { flag = 4; break; }
    if (nrm(p) * std::abs(alpha) < 2.220446049250313e-16 * nrm(k.x)) ++stag;
    else stag = 0;
    for (int64_t i = 0; i < k.n; ++i) {
      k.x[i] += alpha * p[i];
      r[i] -= alpha * q[i];
    }
    normr = nrm(r);
    normr_act = normr;
    resvec.push_back(normr);
    if (normr <= tolb || stag >= maxstagsteps || moresteps) {
      r = k.residual(k.x);
      normr_act = nrm(r);
      resvec.back() = normr_act;
      if (normr_act <= tolb) { flag = 0; break; }
      if (stag >= maxstagsteps && moresteps == 0) stag = 0;
      ++moresteps;
      if (moresteps >= maxmsteps) { flag = 3; break; }
    }
    if (normr_act < normrmin) {
      normrmin = normr_act;
      xmin = k.x;
      imin = ii;
    }
    if (stag >= maxstagsteps) { flag = 3; break; }
  }
  const int64_t last = std::min(ii, k.maxit);
  double relres, iter;
  if (flag == 0) {
    relres = normr_act / n2b;
    iter = static_cast<double>(ii);
  } else {
    const std::vector<double> rc = k.residual(xmin);
    if (nrm(rc) <= normr_act) {
      k.x = xmin;
      iter = static_cast<double>(imin);
      relres = nrm(rc) / n2b;
    } else {
      iter = static_cast<double>(last);
      relres = normr_act / n2b;
    }
  }
  return krylov_out(ctx, "pcg", k, nargout, flag, relres, Value(iter), resvec, iter, last);
}

/// [x, flag, relres, iter, resvec] = bicgstab(A, b, tol, maxit, M1, M2, x0): van der Vorst's
/// BiCGSTAB (Templates, fig. 2.10); iter counts half iterations (e.g. 2.5), resvec holds the
/// residual norm after every half iteration.
Outputs bi_bicgstab(CallContext& ctx, Args args, int nargout) {
  check_nargin(args, 2, 7);
  check_nargout(nargout, 5);
  KrylovArgs k = krylov_args(ctx, args, 2, "bicgstab");
  KrylovStart st;
  if (std::optional<Outputs> done = krylov_start(ctx, "bicgstab", k, nargout, st)) return *done;
  const double n2b = st.n2b, tolb = st.tolb;
  std::vector<double> r = std::move(st.r), resvec = std::move(st.resvec);
  double normr = st.normr;
  const std::vector<double> rt = r;
  std::vector<double> p(static_cast<size_t>(k.n), 0.0), v(static_cast<size_t>(k.n), 0.0), xmin = k.x;
  double rho = 1, alpha = 1, omega = 1, normrmin = normr, imin = 0;
  int flag = 1;
  double iter = 0;
  int64_t ii;
  for (ii = 1; ii <= k.maxit; ++ii) {
    const double rho1 = rho;
    rho = dot(rt, r);
    if (rho == 0 || std::isinf(rho)) { flag = 4; break; }
    if (ii == 1) p = r;
    else {
      const double beta = (rho / rho1) * (alpha / omega);
      if (beta == 0 || std::isinf(beta)) { flag = 4; break; }
      for (int64_t i = 0; i < k.n; ++i) p[i] = r[i] + beta * (p[i] - omega * v[i]);
    }
    const std::vector<double> ph = precond(k, p);
    if (!finite_all(ph)) { flag = 2; break; }
    v = k.A.mul(ph);
    const double rtv = dot(rt, v);
    if (rtv == 0 || std::isinf(rtv)) { flag = 4; break; }
    alpha = rho / rtv;
    if (std::isinf(alpha)) { flag = 4; break; }
    std::vector<double> xh = k.x, s = r;
    for (int64_t i = 0; i < k.n; ++i) {
      xh[i] += alpha * ph[i];
      s[i] -= alpha * v[i];
    }
    normr = nrm(k.residual(xh));
    resvec.push_back(normr);
    if (normr <= tolb) {
      k.x = xh;
      iter = static_cast<double>(ii) - 0.5;
      flag = 0;
      break;
    }
    if (normr < normrmin) { normrmin = normr; xmin = xh; imin = static_cast<double>(ii) - 0.5; }
    const std::vector<double> sh = precond(k, s);
    if (!finite_all(sh)) { flag = 2; break; }
    const std::vector<double> t = k.A.mul(sh);
    const double tt = dot(t, t);
    if (tt == 0 || std::isinf(tt)) { flag = 4; break; }
    omega = dot(t, s) / tt;
    if (omega == 0 || std::isinf(omega)) { flag = 4; break; }
    for (int64_t i = 0; i < k.n; ++i) {
      k.x[i] = xh[i] + omega * sh[i];
      r[i] = s[i] - omega * t[i];
    }
    normr = nrm(k.residual(k.x));
    resvec.push_back(normr);
    if (normr <= tolb) {
      iter = static_cast<double>(ii);
      flag = 0;
      break;
    }
    if (normr < normrmin) { normrmin = normr; xmin = k.x; imin = static_cast<double>(ii); }
  }
  const int64_t last = std::min(ii, k.maxit);
  double relres;
  if (flag == 0) relres = normr / n2b;
  else {
    k.x = xmin;
    iter = imin;
    relres = normrmin / n2b;
  }
  return krylov_out(ctx, "bicgstab", k, nargout, flag, relres, Value(iter), resvec, iter, last);
}

/// [x, flag, relres, iter, resvec] = gmres(A, b, restart, tol, maxit, M1, M2, x0): restarted
/// GMRES (Saad and Schultz 1986; Templates, fig. 2.6) with left preconditioning M = M1*M2,
/// modified Gram-Schmidt Arnoldi and Givens rotations. iter = [outer inner]; relres and resvec
/// are the preconditioned relative residual norm(M\(b-A*x))/norm(M\b) and residual norms.
Outputs bi_gmres(CallContext& ctx, Args args, int nargout) {
  check_nargin(args, 2, 8);
  check_nargout(nargout, 5);
  KrylovArgs k = krylov_args(ctx, args, 3, "gmres");
  int64_t restart = k.n;
  if (args.size() > 2 && !(args[2].is_tensor() && args[2].is_empty()))
  {
    // restart = min(n, r), compared in double first (r may be Inf, NaN or past int64).
    const double r = densify(args[2]).tensor().get_double(0);
    restart = r >= static_cast<double>(k.n) ? k.n : r >= 1 ? static_cast<int64_t>(r) : 1;
  }
  if (restart < 1) restart = 1;
  const bool maxit_given = args.size() > 4 && !(args[4].is_tensor() && args[4].is_empty());
  if (!maxit_given) k.maxit = std::min<int64_t>((k.n + restart - 1) / restart, 10);
  auto outer_iter = [](int64_t o, int64_t i) {
    Tensor t = Tensor::uninit(ClassId::Double, Dims(1, 2));
    t.set_double(0, static_cast<double>(o));
    t.set_double(1, static_cast<double>(i));
    return Value(std::move(t));
  };
  const std::vector<double> Mb = precond(k, k.b);
  const double n2b = nrm(Mb);
  if (nrm(k.b) == 0) {
    std::fill(k.x.begin(), k.x.end(), 0.0);
    return krylov_out(ctx, "gmres", k, nargout, 0, 0.0, outer_iter(0, 0), {0.0}, 0, 0);
  }
  const int64_t n = k.n, m = restart;
  std::vector<double> resvec;
  int flag = 1;
  int64_t outer = 0, inner = 0;
  double relres = 1;
  for (outer = 1; outer <= k.maxit; ++outer) {
    std::vector<double> r = precond(k, k.residual(k.x));
    if (!finite_all(r)) { flag = 2; break; }
    const double beta = nrm(r);
    if (resvec.empty()) resvec.push_back(beta);
    relres = beta / n2b;
    if (relres <= k.tol) { flag = 0; inner = 0; --outer; break; }
    std::vector<std::vector<double>> V(1, r);
    for (double& e : V[0]) e /= beta;
    std::vector<std::vector<double>> H(static_cast<size_t>(m), std::vector<double>(static_cast<size_t>(m) + 1, 0.0));
    std::vector<double> cs(static_cast<size_t>(m)), sn(static_cast<size_t>(m)), g(static_cast<size_t>(m) + 1, 0.0);
    g[0] = beta;
    int64_t j;
    bool done = false;
    for (j = 0; j < m; ++j) {
      std::vector<double> w = precond(k, k.A.mul(V[j]));
      for (int64_t i = 0; i <= j; ++i) {
        H[j][i] = dot(w, V[i]);
        for (int64_t t = 0; t < n; ++t) w[t] -= H[j][i] * V[i][t];
      }
      H[j][j + 1] = nrm(w);
      for (int64_t i = 0; i < j; ++i) {
        const double tmp = cs[i] * H[j][i] + sn[i] * H[j][i + 1];
        H[j][i + 1] = -sn[i] * H[j][i] + cs[i] * H[j][i + 1];
        H[j][i] = tmp;
      }
      const double den = std::hypot(H[j][j], H[j][j + 1]);
      cs[j] = den == 0 ? 1 : H[j][j] / den;
      sn[j] = den == 0 ? 0 : H[j][j + 1] / den;
      const double hnext = H[j][j + 1];
      H[j][j] = den;
      H[j][j + 1] = 0;
      g[j + 1] = -sn[j] * g[j];
      g[j] = cs[j] * g[j];
      resvec.push_back(std::abs(g[j + 1]));
      if (std::abs(g[j + 1]) / n2b <= k.tol || hnext == 0) { ++j; done = true; break; }
      V.push_back(w);
      for (double& e : V.back()) e /= hnext;
    }
    // x += V(:,1:j) * (H(1:j,1:j) \ g(1:j))
    std::vector<double> yv(static_cast<size_t>(j));
    for (int64_t i = j - 1; i >= 0; --i) {
      double s = g[i];
      for (int64_t t = i + 1; t < j; ++t) s -= H[t][i] * yv[t];
      yv[i] = H[i][i] == 0 ? 0 : s / H[i][i];
    }
    for (int64_t i = 0; i < j; ++i)
      for (int64_t t = 0; t < n; ++t) k.x[t] += yv[i] * V[i][t];
    relres = nrm(precond(k, k.residual(k.x))) / n2b;
    inner = j;
    if (relres <= k.tol) { flag = 0; break; }
    if (done && relres > k.tol && j < m) { flag = 3; break; }
  }
  if (outer > k.maxit) outer = k.maxit;
  return krylov_out(ctx, "gmres", k, nargout, flag, relres, outer_iter(outer, inner), resvec,
                    static_cast<double>(outer), outer);
}

/// [x, flag, relres, iter, resvec] = minres(A, b, tol, maxit, M1, M2, x0): MINRES of Paige and
/// Saunders for symmetric A (preconditioner M = M1*M2 symmetric positive definite), in the
/// formulation of their SOL implementation; relres uses the true residual.
Outputs bi_minres(CallContext& ctx, Args args, int nargout) {
  check_nargin(args, 2, 7);
  check_nargout(nargout, 5);
  KrylovArgs k = krylov_args(ctx, args, 2, "minres");
  KrylovStart st;
  if (std::optional<Outputs> done = krylov_start(ctx, "minres", k, nargout, st)) return *done;
  const double n2b = st.n2b, tolb = st.tolb;
  const int64_t n = k.n;
  std::vector<double> r1 = std::move(st.r), resvec = std::move(st.resvec);
  double normr = st.normr;
  std::vector<double> y = precond(k, r1);
  double beta1 = dot(r1, y);
  if (beta1 <= 0 || !std::isfinite(beta1))
    return krylov_out(ctx, "minres", k, nargout, 2, normr / n2b, Value(0.0), resvec, 0, 0);
  beta1 = std::sqrt(beta1);
  double oldb = 0, beta = beta1, dbar = 0, epsln = 0, phibar = beta1, cs = -1, sn = 0;
  std::vector<double> w(static_cast<size_t>(n), 0.0), w2 = w, r2 = r1, xmin = k.x;
  double normrmin = normr, imin = 0, iter = 0;
  int flag = 1;
  int64_t it;
  for (it = 1; it <= k.maxit; ++it) {
    const double s = 1 / beta;
    std::vector<double> v(static_cast<size_t>(n));
    for (int64_t i = 0; i < n; ++i) v[i] = s * y[i];
    y = k.A.mul(v);
    if (it >= 2)
      for (int64_t i = 0; i < n; ++i) y[i] -= (beta / oldb) * r1[i];
    const double alfa = dot(v, y);
    for (int64_t i = 0; i < n; ++i) y[i] -= (alfa / beta) * r2[i];
    r1 = r2;
    r2 = y;
    y = precond(k, r2);
    oldb = beta;
    const double bb = dot(r2, y);
    if (bb < 0 || !std::isfinite(bb)) { flag = 2; break; }
    beta = std::sqrt(bb);
    const double oldeps = epsln;
    const double delta = cs * dbar + sn * alfa;
    const double gbar = sn * dbar - cs * alfa;
    epsln = sn * beta;
    dbar = -cs * beta;
    const double gamma = std::max(std::hypot(gbar, beta), 2.220446049250313e-16);
    cs = gbar / gamma;
    sn = beta / gamma;
    const double phi = cs * phibar;
    phibar = sn * phibar;
    const std::vector<double> w1 = w2;
    w2 = w;
    for (int64_t i = 0; i < n; ++i) {
      w[i] = (v[i] - oldeps * w1[i] - delta * w2[i]) / gamma;
      k.x[i] += phi * w[i];
    }
    normr = nrm(k.residual(k.x));
    resvec.push_back(normr);
    if (normr <= tolb) { flag = 0; iter = static_cast<double>(it); break; }
    if (normr < normrmin) { normrmin = normr; xmin = k.x; imin = static_cast<double>(it); }
    if (beta == 0) { flag = 4; break; }
  }
  const int64_t last = std::min(it, k.maxit);
  double relres = normr / n2b;
  if (flag != 0) {
    k.x = xmin;
    iter = imin;
    relres = normrmin / n2b;
  }
  return krylov_out(ctx, "minres", k, nargout, flag, relres, Value(iter), resvec, iter, last);
}

}  // namespace

void register_sparse_solve(Registry& r) {
  const std::string c = "sparse";
  add_class_method(c, "mldivide", m_mldivide);
  add_class_method(c, "chol", m_chol);
  add_class_method(c, "lu", m_lu);
  r.add("ichol", bi_ichol);
  r.add("ilu", bi_ilu);
  r.add("pcg", bi_pcg);
  r.add("bicgstab", bi_bicgstab);
  r.add("gmres", bi_gmres);
  r.add("minres", bi_minres);
}

}  // namespace matfuse
