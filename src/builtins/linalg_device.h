// Internal to the linalg families: the dense linear algebra builtins on the provider that holds
// their data (accel/run/library.h: cuSOLVER on a device, LAPACK on the host). Each function
// returns nullopt when the call is not for this path (operands not real single/double, the
// cost model prefers the builtin's own host code, a case the path leaves to the host such as a
// rank-deficient rectangular solve, or a device workspace that does not fit); the builtin then
// runs its host code. Operands are already checked (class, 2-D, sizes) by the builtin.
//
// Results are matrices in the provider's memory (device-only tensors on a device) of the
// operands' class; scalar results (det, rank, norm, cond) are host values. MATLAB's warnings
// are those of the host code: singular and nearly singular matrices (RCOND from the 1-norm
// estimate of N. J. Higham, "FORTRAN codes for estimating the one-norm of a real or complex
// matrix, with applications to condition estimation", ACM TOMS 14(4):381-396, 1988, the
// algorithm of LAPACK's xLACN2), rank deficiency. Numbers agree with the host's LAPACK within
// the backward error of the factorization (tests/gpu/gpu_linalg.cc: relative 1e-9 in double,
// 2e-3 in single for well-conditioned inputs); factors are unique up to the signs of
// eigenvectors and singular vectors.
#pragma once

#include <optional>
#include <vector>

#include "builtins/registry.h"
#include "runtime/value.h"

namespace matfuse::linalg_device {

/// A \ B (square: triangular, Cholesky or LU by structure; m > n: QR least squares).
std::optional<Value> mldivide(const Tensor& a, const Tensor& b);
/// B / A = (A.' \ B.').'
std::optional<Value> mrdivide(const Tensor& b, const Tensor& a);
/// linsolve(A, B, opts) for square A with opts LT/UT/POSDEF (others as mldivide); rc receives
/// the reciprocal condition estimate. warn: print MATLAB's warnings.
std::optional<Value> linsolve(const Tensor& a, const Tensor& b, bool lt, bool ut, bool posdef,
                              bool warn, double* rc);
std::optional<Value> inv(const Tensor& a);
std::optional<Value> det(const Tensor& a);
/// lu(A) with 1, 2 or 3 outputs (vec: P as a row vector).
std::optional<Outputs> lu(const Tensor& a, int nargout, bool vec);
/// qr(A) without column pivoting: R, or [Q, R] (econ: economy size).
std::optional<Outputs> qr(const Tensor& a, int nargout, bool econ);
/// chol(A) / chol(A,'lower'), [R, p] = chol(...).
std::optional<Outputs> chol(const Tensor& a, int nargout, bool lower);
/// eig(A) of a symmetric A: e, or [V, D] (dmat: D as a matrix). nullopt for non-symmetric A.
std::optional<Outputs> eig(const Tensor& a, int nargout, bool dmat);
/// svd(A): s, or [U, S, V] (econ; form 1 = 'vector', 2 = 'matrix').
std::optional<Outputs> svd(const Tensor& a, int nargout, bool econ, int form);
/// The singular values of A, descending, on the host (rank, norm, cond).
std::optional<std::vector<double>> singular_values(const Tensor& a);
/// pinv(A) with tolerance tol (< 0: default max(m,n) * eps(max(s))).
std::optional<Value> pinv(const Tensor& a, double tol);
/// null(A) (want_null) or orth(A).
std::optional<Value> null_orth(const Tensor& a, bool want_null);

}  // namespace matfuse::linalg_device
