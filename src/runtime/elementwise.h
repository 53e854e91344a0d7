// The eager broadcasting engine: applies an op of runtime/ops.def to whole Tensors.
//
// Semantics (MATLAB)
// - Implicit expansion over any number of dimensions: each dimension of the two operands must be
//   equal or 1, else MATLAB:sizeDimensionsMustMatch ("Arrays have incompatible sizes for this
//   operation.").
// - Result class of arithmetic: class_of_binary (integer wins and saturates, rounding half away
//   from zero; mixing two integer classes raises MATLAB:mixedIntegerTypes; single wins over
//   double; char and logical become double). Unary ops keep double/single/integer classes and
//   turn char/logical into double. int64/uint64 are computed in long double (exact for every
//   int64 value).
// - Comparisons and logical ops return logical arrays; logical ops on NaN raise
//   MATLAB:nologicalnan. Ordering comparisons of complex values compare real parts; == and ~=
//   compare both parts.
// - Complex: results drop all-zero imaginary parts. kRealToComplex ops (sqrt, log, power, asin,
//   acos, acosh, atanh, log2, log10, log1p) return complex results when any real input lies
//   outside the real domain (sqrt(-4) == 2i, (-8).^(1/3) == 1+1.7321i).
// - Ops without kIntOk (sin, exp, atan2, ...) raise MATLAB:UndefinedFunction for integer inputs;
//   ops without kComplexOk (mod, rem, atan2, hypot, max, min) raise it for complex inputs.
#pragma once

#include "runtime/ops.h"
#include "runtime/tensor.h"

namespace matfuse {

/// a OP b elementwise with implicit expansion. op must be binary.
Tensor apply_binary(OpId op, const Tensor& a, const Tensor& b);
/// OP a elementwise. op must be unary.
Tensor apply_unary(OpId op, const Tensor& a);

}  // namespace matfuse
