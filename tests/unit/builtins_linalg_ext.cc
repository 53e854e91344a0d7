// Linear-algebra extension builtins through the interpreter: chol, det, eig, expm, linsolve, lu,
// orth, pinv, qr, svd. Factorizations are checked by their defining identities and by MATLAB's
// values where the sign convention is LAPACK's.
#include "builtins_check.h"

namespace matfuse::test {
namespace {

TEST(BuiltinsLinalgExt, Chol) {
  Snippet s;
  check(s, "chol([4 2; 2 3])", "[2 1; 0 sqrt(2)]", 1e-14);
  check(s, "chol([4 2; 2 3], 'lower')", "[2 0; 1 sqrt(2)]", 1e-14);
  check(s, "chol([4 2; 2 3], 'upper')", "[2 1; 0 sqrt(2)]", 1e-14);
  check(s, "chol(single(4))", "single(2)", 1e-6);
  s("[R, p] = chol([1 2; 2 1]);");  // not positive definite: p > 0, R the leading block
  check(s, "p", "2");
  check(s, "R", "1");
  s("[R, p] = chol([4 2; 2 3]);");
  check(s, "p", "0");
  check(s, "chol([])", "[]");
  check_error(s, "chol([1 2; 3 -4])", "MATLAB:posdef");
  check_error(s, "chol([1 2 3])", "MATLAB:square");
}

TEST(BuiltinsLinalgExt, Det) {
  Snippet s;
  check(s, "det([1 2; 3 4])", "-2", 1e-14);
  check(s, "det(magic(3))", "-360", 1e-13);
  check(s, "det([])", "1");
  check(s, "det(single([2 0; 0 3]))", "single(6)", 1e-6);
  check(s, "det([1 2; 2 4])", "0");
  check(s, "det([1i 0; 0 2])", "2i", 1e-14);
  check_error(s, "det([1 2 3])", "MATLAB:square");
}

TEST(BuiltinsLinalgExt, Eig) {
  Snippet s;
  check(s, "eig([2 0; 0 1])", "[1; 2]");
  check(s, "eig([1 2; 2 1])", "[-1; 3]", 1e-14);
  check(s, "eig([0 1; -1 0])", "[1i; -1i]", 1e-14);
  s("A = [2 1; 1 3]; [V, D] = eig(A);");
  check(s, "norm(A*V - V*D)", "0", 1e-13);
  check(s, "diag(D)", "[(5-sqrt(5))/2; (5+sqrt(5))/2]", 1e-13);
  check(s, "V'*V", "eye(2)", 1e-13);  // symmetric: orthonormal eigenvectors
  s("[V2, D2] = eig([2 0; 0 1]);");
  check(s, "D2", "[1 0; 0 2]");
  check(s, "abs(V2)", "[0 1; 1 0]");
  // Generalized problem A*v = lambda*B*v.
  check(s, "eig([2 0; 0 6], [1 0; 0 2])", "[2; 3]", 1e-13);
  check(s, "eig(single([1 2; 2 1]))", "single([-1; 3])", 1e-5);
  check(s, "eig([])", "zeros(0, 1)");
  check_error(s, "eig([1 2 3])", "MATLAB:eig:inputMustBeSquare");
}

TEST(BuiltinsLinalgExt, Expm) {
  Snippet s;
  check(s, "expm([0 1; 0 0])", "[1 1; 0 1]", 1e-14);
  check(s, "expm(zeros(2))", "eye(2)");
  check(s, "expm([1 2; 3 4])",
        "[51.968956198705 74.7365645670032; 112.104846850505 164.07380304921]", 1e-12);
  check(s, "expm(diag([1 2]))", "diag(exp([1 2]))", 1e-14);
  check(s, "expm([0 -pi; pi 0])", "-eye(2)", 1e-13);  // rotation by pi
  check(s, "expm([])", "[]");
  check_error(s, "expm([1 2 3])", "MATLAB:square");
}

TEST(BuiltinsLinalgExt, Linsolve) {
  Snippet s;
  check(s, "linsolve([2 0; 0 4], [2; 4])", "[1; 1]");
  check(s, "linsolve([1 2; 3 4], [5 6; 7 8])", "[-3 -4; 4 5]", 1e-13);
  s("opts.UT = true; x = linsolve([2 1; 0 4], [3; 4], opts);");
  check(s, "x", "[1; 1]");
  s("o2.LT = true; y = linsolve([2 0; 1 4], [2; 5], o2);");
  check(s, "y", "[1; 1]");
  s("[x1, r] = linsolve([2 0; 0 4], [2; 4]);");  // r = reciprocal condition number
  check(s, "r", "0.5");
  // Least squares for a tall system.
  check(s, "linsolve([1; 1; 1], [1; 2; 6])", "3", 1e-14);
  check_error(s, "linsolve([1 2; 3 4], [1; 2; 3])", "MATLAB:dimagree");
}

TEST(BuiltinsLinalgExt, Lu) {
  Snippet s;
  s("A = [1 2; 3 4]; [L, U, P] = lu(A);");
  check(s, "L", "[1 0; 1/3 1]", 1e-14);
  check(s, "U", "[3 4; 0 2/3]", 1e-14);
  check(s, "P", "[0 1; 1 0]");
  s("[L2, U2] = lu(A);");  // L2 = P'*L, permuted lower triangular
  check(s, "L2", "[1/3 1; 1 0]", 1e-14);
  check(s, "L2*U2", "A", 1e-14);
  s("[L3, U3, p] = lu(A, 'vector');");
  check(s, "p", "[2 1]");
  check(s, "L3", "[1 0; 1/3 1]", 1e-14);
  s("B = magic(4); [L4, U4, P4] = lu(B);");
  check(s, "norm(P4*B - L4*U4)", "0", 1e-12);
  check(s, "isequal(triu(U4), U4) && isequal(tril(L4), L4)", "true");
  s("[L5, U5, P5] = lu([1 2 3; 4 5 6]);");  // rectangular
  check(s, "size(L5)", "[2 2]");
  check(s, "size(U5)", "[2 3]");
  check(s, "norm(P5*[1 2 3; 4 5 6] - L5*U5)", "0", 1e-13);
  check_error(s, "lu([1 2 3], 'x')", "MATLAB:lu:invalidOutputType");
}

TEST(BuiltinsLinalgExt, Qr) {
  Snippet s;
  s("[Q, R] = qr([3 0; 4 5]);");
  check(s, "Q", "[-0.6 -0.8; -0.8 0.6]", 1e-14);
  check(s, "R", "[-5 -4; 0 3]", 1e-14);
  s("A = [1 2; 3 4; 5 6]; [Q0, R0] = qr(A, 0);");  // economy size
  check(s, "size(Q0)", "[3 2]");
  check(s, "size(R0)", "[2 2]");
  check(s, "norm(Q0*R0 - A)", "0", 1e-13);
  check(s, "Q0'*Q0", "eye(2)", 1e-14);
  s("[Qe, Re] = qr(A, 'econ');");
  check(s, "size(Qe)", "[3 2]");
  s("[Qf, Rf] = qr(A);");
  check(s, "size(Qf)", "[3 3]");
  check(s, "Rf(3, :)", "[0 0]");
  s("[Q1, R1, E1] = qr([1 2; 3 4]);");  // column pivoting: A*E = Q*R
  check(s, "E1", "[0 1; 1 0]");
  check(s, "norm([1 2; 3 4]*E1 - Q1*R1)", "0", 1e-13);
  s("[Q2, R2, e2] = qr([1 2; 3 4], 'vector');");
  check(s, "e2", "[2 1]");
  check(s, "abs(qr([3 0; 4 5]))", "[5 4; 0 3]", 1e-14);  // one output: R
}

TEST(BuiltinsLinalgExt, Svd) {
  Snippet s;
  check(s, "svd([3 0; 0 4])", "[4; 3]");
  check(s, "svd([1 2; 3 4; 5 6])", "[9.52551809156511; 0.514300580658644]", 1e-13);
  check(s, "svd(single([3 0; 0 4]))", "single([4; 3])", 1e-6);
  s("A = [1 2; 3 4; 5 6]; [U, S, V] = svd(A);");
  check(s, "size(U)", "[3 3]");
  check(s, "size(S)", "[3 2]");
  check(s, "norm(U*S*V' - A)", "0", 1e-13);
  s("[Ue, Se, Ve] = svd(A, 'econ');");
  check(s, "size(Ue)", "[3 2]");
  check(s, "size(Se)", "[2 2]");
  s("[U0, S0, V0] = svd(A, 0);");
  check(s, "size(U0)", "[3 2]");
  check(s, "svd([])", "zeros(0, 1)");
}

TEST(BuiltinsLinalgExt, PinvOrth) {
  Snippet s;
  check(s, "pinv([1 2; 2 4])", "[0.04 0.08; 0.08 0.16]", 1e-14);
  check(s, "pinv([1 2; 3 4; 5 6])", "[-4/3 -1/3 2/3; 13/12 1/3 -5/12]", 1e-13);
  check(s, "pinv([1 2; 3 4])", "inv([1 2; 3 4])", 1e-13);
  check(s, "pinv([1 0; 0 1e-20], 1e-10)", "[1 0; 0 0]");  // tolerance drops tiny values
  check(s, "pinv(zeros(2, 3))", "zeros(3, 2)");
  check(s, "abs(orth([1 1; 1 1]))", "[1; 1]/sqrt(2)", 1e-14);
  s("Q = orth([1 0 1; 0 1 1; 1 1 2]);");  // rank 2
  check(s, "size(Q)", "[3 2]");
  check(s, "Q'*Q", "eye(2)", 1e-14);
  check(s, "orth(zeros(2))", "zeros(2, 0)");
}

}  // namespace
}  // namespace matfuse::test
