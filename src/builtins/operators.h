// MATLAB operators on Values, used by the interpreter for expressions and by the builtins that
// share their names (plus, minus, times, rdivide, ldivide, power, mtimes, ...).
//
// Semantics: implicit expansion for elementwise operators (MATLAB:sizeDimensionsMustMatch when
// sizes are incompatible), MATLAB class-combination rules (class_of_binary), integer saturation
// with round-half-away-from-zero, complex results where MATLAB gives them (sqrt(-1) is i,
// (-8)^(1/3) is complex), comparisons and logical operators return logical arrays.
#pragma once

#include "lang/ast.h"
#include "runtime/value.h"

namespace matfuse {

/// a OP b for every binary operator except && and || (the interpreter short-circuits those).
/// Mul/Div/LDiv/Pow are the matrix operators (mtimes, mrdivide, mldivide, mpower).
Value binary_op(ast::BinOp op, const Value& a, const Value& b);
/// -a, +a, ~a.
Value unary_op(ast::UnOp op, const Value& a);
/// a' (conjugate = true) or a.' (conjugate = false).
Value transpose_op(const Value& a, bool conjugate);
/// a:b or a:step:b (step may be null). Result is a row vector of the combined class.
Value colon_op(const Value& a, const Value* step, const Value& b);

}  // namespace matfuse
