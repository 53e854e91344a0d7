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

}  // namespace matfuse
