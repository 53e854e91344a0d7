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
// ichol (IC(0), 'nofill') and ilu (ILU(0), 'nofill'; 'crout' and 'ilutp' with a drop
// tolerance, without pivoting) follow Y. Saad, "Iterative Methods for Sparse Linear Systems",
// 2nd ed., SIAM 2003, algorithms 10.4 (ILU(0)) and 10.6 (ILUT).
#include <algorithm>
#include <cmath>
#include <complex>
#include <cstdio>
#include <cstring>
#include <functional>
#include <numeric>

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

Value callv(CallContext& ctx, const char* name, std::vector<Value> args) {
  Outputs o = ctx.call_named(name, args, 1);
  if (o.empty()) throw_error("MATLAB:TooManyOutputs", "Too many output arguments.");
  return o[0];
}

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

}  // namespace

void register_sparse_solve(Registry& r) {
  (void)r;
  const std::string c = "sparse";
  add_class_method(c, "mldivide", m_mldivide);
  add_class_method(c, "chol", m_chol);
}

}  // namespace matfuse
