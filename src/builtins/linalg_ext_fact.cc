// Builtins of the "linalg_ext" family, part 2: the factorizations chol, lu and qr (LAPACK
// potrf, getrf, geqrf/geqp3 + orgqr/ungqr), in the operand's precision, real or complex.
#include <algorithm>
#include <numeric>

#include "builtins/linalg_device.h"
#include "builtins/linalg_ext_lapack.h"
#include "builtins/registry.h"

namespace matfuse {

void register_linalg_ext_fact(Registry& r);

namespace {

using namespace lx;

template <class T> Value out_mat(const Mat<T>& m) { return Value(to_tensor(m).drop_zero_imag()); }

Value perm_row(const std::vector<int64_t>& perm) {
  Tensor t = Tensor::uninit(ClassId::Double, Dims(1, static_cast<int64_t>(perm.size())));
  for (size_t i = 0; i < perm.size(); ++i) t.set_double(static_cast<int64_t>(i), perm[i] + 1.0);
  return Value(t);
}

// ---------------------------------------------------------------------------------------------
// chol

/// chol(A) / chol(A,'upper') -> R with R'*R = A (upper triangle of A used);
/// chol(A,'lower') -> L with L*L' = A (lower triangle used). Not positive definite:
/// MATLAB:posdef "Matrix must be positive definite." unless [R,p] = chol(...) is requested,
/// which returns p > 0 (the failing column) and the factor of the leading (p-1)x(p-1) block.
Outputs bi_chol(CallContext&, Args args, int nargout) {
  check_nargin(args, 1, 2);
  check_nargout(nargout, 2);
  Tensor a = float_matrix(args[0], "chol");
  require_square(a);
  bool lower = false;
  if (args.size() == 2) {
    std::string s = option_text(args[1]);
    if (s == "lower") lower = true;
    else if (s != "upper")
      throw_error("MATLAB:chol:invalidTriangularFlag",
                  "Triangular flag must be 'upper' or 'lower'.");
  }
  if (auto r = linalg_device::chol(a, nargout, lower)) return *r;
  return dispatch_float(a, [&](auto tag) -> Outputs {
    using T = decltype(tag);
    Mat<T> f = to_mat<T>(a);
    int64_t n = f.n;
    lapack_int info = n == 0 ? 0 : potrf(lower ? 'L' : 'U', static_cast<lapack_int>(n), f.data(), f.ld());
    if (info < 0) info = 1;
    if (info > 0 && nargout < 2)
      throw_error("MATLAB:posdef", "Matrix must be positive definite.");
    int64_t keep = info > 0 ? info - 1 : n;
    Mat<T> r(keep, keep);
    for (int64_t j = 0; j < keep; ++j)
      for (int64_t i = 0; i < keep; ++i)
        if (lower ? i >= j : i <= j) r(i, j) = f(i, j);
    Outputs out{out_mat(r)};
    if (nargout > 1) out.push_back(Value(static_cast<double>(info)));
    return out;
  });
}

// ---------------------------------------------------------------------------------------------
// lu

/// Y = lu(A): the getrf factors in one matrix (L strictly below the diagonal, U on and above);
/// [L,U] = lu(A): L = P'*L0 (permuted unit lower), U upper; [L,U,P] = lu(A): P*A = L*U with P a
/// permutation matrix, or a row vector with lu(A,'vector'). A may be rectangular (m x n):
/// L is m x min(m,n), U is min(m,n) x n.
Outputs bi_lu(CallContext&, Args args, int nargout) {
  check_nargin(args, 1, 2);
  check_nargout(nargout, 3);
  Tensor a = float_matrix(args[0], "lu");
  bool vec = false;
  if (args.size() == 2) {
    std::string s = option_text(args[1]);
    if (s == "vector") vec = true;
    else if (s != "matrix")
      throw_error("MATLAB:lu:invalidOutputType", "Output type must be 'matrix' or 'vector'.");
  }
  if (auto r = linalg_device::lu(a, nargout, vec)) return *r;
  return dispatch_float(a, [&](auto tag) -> Outputs {
    using T = decltype(tag);
    Mat<T> f = to_mat<T>(a);
    int64_t m = f.m, n = f.n, k = std::min(m, n);
    std::vector<lapack_int> ipiv(static_cast<size_t>(std::max<int64_t>(k, 1)));
    if (k > 0) getrf(static_cast<lapack_int>(m), static_cast<lapack_int>(n), f.data(), f.ld(), ipiv.data());
    if (nargout <= 1) return {out_mat(f)};
    std::vector<int64_t> perm(static_cast<size_t>(m));
    std::iota(perm.begin(), perm.end(), 0);
    for (int64_t i = 0; i < k; ++i) std::swap(perm[i], perm[ipiv[i] - 1]);
    Mat<T> Lm(m, k), U(k, n);
    for (int64_t j = 0; j < k; ++j) {
      Lm(j, j) = T(1);
      for (int64_t i = j + 1; i < m; ++i) Lm(i, j) = f(i, j);
    }
    for (int64_t j = 0; j < n; ++j)
      for (int64_t i = 0; i <= std::min(j, k - 1); ++i) U(i, j) = f(i, j);
    if (nargout == 2) {
      Mat<T> pl(m, k);  // row perm[i] of P'*L is row i of L
      for (int64_t j = 0; j < k; ++j)
        for (int64_t i = 0; i < m; ++i) pl(perm[i], j) = Lm(i, j);
      return {out_mat(pl), out_mat(U)};
    }
    Value P;
    if (vec) {
      P = perm_row(perm);
    } else {
      Tensor pm = Tensor::zeros(ClassId::Double, Dims(m, m));
      for (int64_t i = 0; i < m; ++i) pm.set_double(perm[i] * m + i, 1.0);
      P = Value(pm);
    }
    return {out_mat(Lm), out_mat(U), P};
  });
}

// ---------------------------------------------------------------------------------------------
// qr

/// R = qr(A) (upper-triangular factor only), [Q,R] = qr(A) (Q m x m unitary, R m x n),
/// economy forms qr(A,0) and qr(A,'econ') (Q m x min(m,n), R min(m,n) x n), and column
/// pivoting [Q,R,P] = qr(A,...) with A*P = Q*R (geqp3): P is a permutation matrix, except a row
/// vector for qr(A,0) and qr(A,'vector') (A(:,P) = Q*R).
Outputs bi_qr(CallContext&, Args args, int nargout) {
  check_nargin(args, 1, 3);
  check_nargout(nargout, 3);
  Tensor a = float_matrix(args[0], "qr");
  bool econ = false, vec = false;
  for (size_t i = 1; i < args.size(); ++i) {
    std::string s = option_text(args[i]);
    if (s == "econ") econ = true;
    else if (s == "vector") vec = true;
    else if (s == "matrix") vec = false;
    else if (s == "real") continue;
    else if (s.empty() && args[i].is_tensor() && args[i].numel() == 1 && args[i].to_double() == 0) {
      econ = true;
      vec = true;
    } else {
      throw_error("MATLAB:qr:invalidInput", "Use qr(X,0) or qr(X,\"econ\") for economy size decomposition.");
    }
  }
  if (nargout < 3)
    if (auto r = linalg_device::qr(a, nargout, econ)) return *r;
  return dispatch_float(a, [&](auto tag) -> Outputs {
    using T = decltype(tag);
    Mat<T> f = to_mat<T>(a);
    int64_t m = f.m, n = f.n, k = std::min(m, n);
    std::vector<T> tau(static_cast<size_t>(std::max<int64_t>(k, 1)));
    std::vector<lapack_int> jp(static_cast<size_t>(std::max<int64_t>(n, 1)), 0);
    bool pivot = nargout >= 3;
    if (k > 0) {
      if (pivot) geqp3(static_cast<lapack_int>(m), static_cast<lapack_int>(n), f.data(), f.ld(), jp.data(), tau.data());
      else geqrf(static_cast<lapack_int>(m), static_cast<lapack_int>(n), f.data(), f.ld(), tau.data());
    } else {
      for (int64_t j = 0; j < n; ++j) jp[j] = static_cast<lapack_int>(j + 1);
    }
    int64_t rrows = econ ? k : m;
    Mat<T> R(rrows, n);
    for (int64_t j = 0; j < n; ++j)
      for (int64_t i = 0; i <= std::min(j, rrows - 1); ++i) R(i, j) = f(i, j);
    if (nargout <= 1) return {out_mat(R)};
    int64_t qc = econ ? k : m;
    Mat<T> Q(m, qc);
    if (k == 0) {
      Q = Mat<T>::eye(m, qc);
    } else {
      for (int64_t j = 0; j < std::min(qc, n); ++j)
        for (int64_t i = 0; i < m; ++i) Q(i, j) = f(i, j);
      ungqr(static_cast<lapack_int>(m), static_cast<lapack_int>(qc), static_cast<lapack_int>(k),
            Q.data(), Q.ld(), tau.data());
    }
    Outputs out{out_mat(Q), out_mat(R)};
    if (nargout >= 3) {
      std::vector<int64_t> perm(static_cast<size_t>(n));
      for (int64_t j = 0; j < n; ++j) perm[j] = jp[j] - 1;
      if (vec) {
        out.push_back(perm_row(perm));
      } else {
        Tensor pm = Tensor::zeros(ClassId::Double, Dims(n, n));
        for (int64_t j = 0; j < n; ++j) pm.set_double(j * n + perm[j], 1.0);
        out.push_back(Value(pm));
      }
    }
    return out;
  });
}

}  // namespace

void register_linalg_ext_fact(Registry& r) {
  r.add("chol", bi_chol);
  r.add("lu", bi_lu);
  r.add("qr", bi_qr);
}

}  // namespace matfuse
