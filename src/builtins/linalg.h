// Matrix operations (OpenBLAS/LAPACKE).
#pragma once

#include "runtime/value.h"

namespace matfuse {

/// a * b (scalar operands fall back to elementwise times). MATLAB:innerdim on size mismatch.
Value mtimes(const Value& a, const Value& b);
/// a \ b: LU for square, QR least squares for rectangular, with MATLAB's singular warning.
Value mldivide(const Value& a, const Value& b);
/// a / b = (b' \ a')'.
Value mrdivide(const Value& a, const Value& b);
/// a ^ b for square matrix and scalar exponent (integer powers by repeated squaring).
Value mpower(const Value& a, const Value& b);
/// a.' and a' (any class; cell arrays transpose too).
Value transpose_value(const Value& a, bool conjugate);
/// diag(v, k): vector -> square matrix with v on diagonal k; matrix -> column of diagonal k.
Value diag_value(const Value& v, int64_t k = 0);

struct Session;
/// Session whose err stream, warning switches and lastwarn receive the warnings of mldivide /
/// mrdivide / mpower ("Warning: Matrix is singular to working precision."). Until set (and for
/// threads that never set it) warnings go to std::cerr. The linalg builtins set it for the
/// duration of their call; the interpreter should call this once with its session.
void linalg_set_session(Session* s);

}  // namespace matfuse
