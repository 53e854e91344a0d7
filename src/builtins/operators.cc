// MATLAB operators on Values (see operators.h): scalar fast paths, dispatch to the broadcasting
// engine (runtime/elementwise.h) or to the matrix operators (builtins/linalg.h), string-array
// + and comparisons, and transpose. The colon operator is in colon.cc.
#include "builtins/operators.h"
#include "builtins/text_util.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>

#include "accel/capture/capture.h"
#include "builtins/gpu.h"
#include "builtins/linalg.h"
#include "runtime/elementwise.h"
#include "runtime/error.h"
#include "runtime/scalar_ops.h"

namespace matfuse {

namespace {

const char* op_text(ast::BinOp op) {
  using B = ast::BinOp;
  switch (op) {
    case B::Add: return "+";
    case B::Sub: return "-";
    case B::Mul: return "*";
    case B::Div: return "/";
    case B::LDiv: return "\\";
    case B::Pow: return "^";
    case B::EMul: return ".*";
    case B::EDiv: return "./";
    case B::ELDiv: return ".\\";
    case B::EPow: return ".^";
    case B::Eq: return "==";
    case B::Ne: return "~=";
    case B::Lt: return "<";
    case B::Le: return "<=";
    case B::Gt: return ">";
    case B::Ge: return ">=";
    case B::And: return "&";
    case B::Or: return "|";
    case B::AndAnd: return "&&";
    case B::OrOr: return "||";
  }
  return "?";
}

/// The elementwise op behind an operator (Mul/Div/LDiv/Pow map to their elementwise forms, used
/// when an operand is scalar).
OpId elementwise_of(ast::BinOp op) {
  using B = ast::BinOp;
  switch (op) {
    case B::Add: return OpId::Add;
    case B::Sub: return OpId::Sub;
    case B::Mul: case B::EMul: return OpId::Mul;
    case B::Div: case B::EDiv: return OpId::Div;
    case B::LDiv: case B::ELDiv: return OpId::LDiv;
    case B::Pow: case B::EPow: return OpId::Pow;
    case B::Eq: return OpId::Eq;
    case B::Ne: return OpId::Ne;
    case B::Lt: return OpId::Lt;
    case B::Le: return OpId::Le;
    case B::Gt: return OpId::Gt;
    case B::Ge: return OpId::Ge;
    case B::And: case B::AndAnd: return OpId::And;
    case B::Or: case B::OrOr: return OpId::Or;
  }
  return OpId::Add;
}

[[noreturn]] void throw_operator_type(const char* text, const Value& v) {
  throw_error("MATLAB:UndefinedFunction", "Operator '%s' is not supported for operands of type '%s'.",
              text, v.class_name().c_str());
}

/// Truth of one operand of && / ||: must be a logical-convertible scalar.
bool logical_scalar_operand(const Value& v) {
  if (v.is_scalar_double()) {
    double x = v.scalar();
    if (x != x) throw_error("MATLAB:nologicalnan", "NaN's cannot be converted to logicals.");
    return x != 0;
  }
  if (!v.is_tensor() || v.numel() != 1)
    throw_error("MATLAB:nonLogicalConditional",
                "Operands to the logical AND (&&) and OR (||) operators must be convertible to "
                "logical scalar values. Use the ANY or ALL functions to reduce operands to logical "
                "scalar values.");
  Tensor t = apply_unary(OpId::Not, v.tensor());  // raises nologicalnan for NaN
  return !t.data<bool>()[0];
}

// ---- string arrays: s1 + s2 (concatenation) and ==, ~=, <, ... (lexicographic) ---------------

StringArray as_string_array(const Value& v, const char* text) {
  if (v.is_string()) return v.string_array();
  if (v.is_char() && (v.dims().rows() <= 1 && v.dims().ndims() == 2))
    return StringArray::scalar(v.tensor().to_utf8());
  if (v.is_char()) throw_error("MATLAB:string:MustBeCharRow", "Char array must be a row vector.");
  // Numbers, logicals and cellstr join a string operation as string(v) ("x" + 1 is "x1").
  if (v.is_tensor() || v.is_cell()) return to_string_value(v).string_array();
  throw_operator_type(text, v);
}

Value string_op(ast::BinOp op, const Value& a, const Value& b) {
  using B = ast::BinOp;
  const char* text = op_text(op);
  if (op != B::Add && op != B::Eq && op != B::Ne && op != B::Lt && op != B::Le && op != B::Gt &&
      op != B::Ge)
    throw_operator_type(text, a.is_string() ? a : b);
  StringArray sa = as_string_array(a, text), sb = as_string_array(b, text);
  Dims out;
  if (sa.dims() == sb.dims()) out = sa.dims();
  else if (sa.numel() == 1) out = sb.dims();
  else if (sb.numel() == 1) out = sa.dims();
  else throw_error("MATLAB:sizeDimensionsMustMatch", "Arrays have incompatible sizes for this operation.");
  const int64_t n = out.numel();
  auto at = [](const StringArray& s, int64_t i) -> const std::optional<std::string>& {
    return s[s.numel() == 1 ? 0 : i];
  };
  if (op == B::Add) {
    StringArray r(out);
    for (int64_t i = 0; i < n; ++i) {
      const auto &x = at(sa, i), &y = at(sb, i);
      if (x && y) r.at(i) = *x + *y;
      else r.at(i) = std::nullopt;
    }
    return Value(r);
  }
  Tensor r = Tensor::uninit(ClassId::Logical, out);
  bool* o = r.mutable_data<bool>();
  for (int64_t i = 0; i < n; ++i) {
    const auto &x = at(sa, i), &y = at(sb, i);
    if (!x || !y) {  // <missing> compares unequal to everything
      o[i] = op == B::Ne;
      continue;
    }
    int c = x->compare(*y);
    switch (op) {
      case B::Eq: o[i] = c == 0; break;
      case B::Ne: o[i] = c != 0; break;
      case B::Lt: o[i] = c < 0; break;
      case B::Le: o[i] = c <= 0; break;
      case B::Gt: o[i] = c > 0; break;
      default: o[i] = c >= 0; break;
    }
  }
  return Value(r);
}

}  // namespace

static Value binary_op_host(ast::BinOp op, const Value& a, const Value& b) {
  using B = ast::BinOp;
  // Fast path: two real double scalars, no allocation.
  if (a.is_scalar_double() && b.is_scalar_double()) {
    const double x = a.scalar(), y = b.scalar();
    switch (op) {
      case B::Add: return Value(x + y);
      case B::Sub: return Value(x - y);
      case B::Mul: case B::EMul: return Value(x * y);
      case B::Div: case B::EDiv: return Value(x / y);
      case B::LDiv: case B::ELDiv: return Value(y / x);
      case B::Pow: case B::EPow:
        if (scalar::Pow::real_ok(x, y)) return Value(scalar::Pow::apply(x, y));
        break;  // complex result: general path
      case B::Eq: return Value::logical(x == y);
      case B::Ne: return Value::logical(x != y);
      case B::Lt: return Value::logical(x < y);
      case B::Le: return Value::logical(x <= y);
      case B::Gt: return Value::logical(x > y);
      case B::Ge: return Value::logical(x >= y);
      case B::And: case B::Or: case B::AndAnd: case B::OrOr:
        if (x != x || y != y) throw_error("MATLAB:nologicalnan", "NaN's cannot be converted to logicals.");
        return Value::logical((op == B::And || op == B::AndAnd) ? (x != 0 && y != 0)
                                                                : (x != 0 || y != 0));
    }
  }
  if (op == B::AndAnd || op == B::OrOr) {
    bool x = logical_scalar_operand(a);
    if (op == B::AndAnd && !x) return Value::logical(false);
    if (op == B::OrOr && x) return Value::logical(true);
    return Value::logical(logical_scalar_operand(b));
  }
  if (a.is_string() || b.is_string()) return string_op(op, a, b);
  if (!a.is_tensor()) throw_operator_type(op_text(op), a);
  if (!b.is_tensor()) throw_operator_type(op_text(op), b);
  switch (op) {
    case B::Mul:
      if (a.numel() != 1 && b.numel() != 1) return mtimes(a, b);
      break;
    case B::Div:
      if (b.numel() != 1) return mrdivide(a, b);
      break;
    case B::LDiv:
      if (a.numel() != 1) return mldivide(a, b);
      break;
    case B::Pow:
      if (a.numel() != 1 || b.numel() != 1) return mpower(a, b);
      break;
    default: break;
  }
  const OpId eop = elementwise_of(op);
  const Tensor ta = a.tensor(), tb = b.tensor();
  if (auto lazy = accel::capture_binary(eop, ta, tb)) return Value(std::move(*lazy));
  return Value(apply_binary(eop, ta, tb));
}

static Value unary_op_host(ast::UnOp op, const Value& a) {
  using U = ast::UnOp;
  if (a.is_scalar_double()) {
    const double x = a.scalar();
    switch (op) {
      case U::Neg: return Value(-x);
      case U::Plus: return Value(x);
      case U::Not:
        if (x != x) throw_error("MATLAB:nologicalnan", "NaN's cannot be converted to logicals.");
        return Value::logical(x == 0);
    }
  }
  if (!a.is_tensor()) throw_operator_type(op == U::Neg ? "-" : op == U::Plus ? "+" : "~", a);
  const OpId id = op == U::Neg ? OpId::Neg : op == U::Plus ? OpId::UPlus : OpId::Not;
  const Tensor ta = a.tensor();
  if (auto lazy = accel::capture_unary(id, ta)) return Value(std::move(*lazy));
  return Value(apply_unary(id, ta));
}

static Value transpose_op_host(const Value& a, bool conjugate) {
  if (a.is_scalar_double()) return a;
  return transpose_value(a, conjugate);
}

// gpuArray operands make gpuArray results (gpu.h); the operands keep their flag so capture
// prefers the device for them.
Value binary_op(ast::BinOp op, const Value& a, const Value& b) {
  if (a.is_gpu_array() || b.is_gpu_array()) [[unlikely]]
    return mark_gpu(binary_op_host(op, a, b));
  return binary_op_host(op, a, b);
}

Value unary_op(ast::UnOp op, const Value& a) {
  if (a.is_gpu_array()) [[unlikely]] return mark_gpu(unary_op_host(op, a));
  return unary_op_host(op, a);
}

Value transpose_op(const Value& a, bool conjugate) {
  if (a.is_gpu_array()) [[unlikely]] return mark_gpu(transpose_op_host(a, conjugate));
  return transpose_op_host(a, conjugate);
}

}  // namespace matfuse
