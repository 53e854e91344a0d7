// Builtins of the "elementwise" family: the function forms of the operators (plus, minus, ...,
// eq, and, not), elementary math (sin ... sqrt), rounding, mod/rem/atan2/hypot, real/imag/conj/
// angle, isnan/isinf/isfinite, complex, and round(x, n).
//
// Every op of runtime/ops.def except max/min (the reductions family owns those builtins) is
// registered from the table. Scalar fast paths (Builtin::scalar1/scalar2) are set only for ops
// whose result is a real double for every real double input (no kRealToComplex, no logical
// result), so they always agree with the full function.
#include <cmath>
#include <string>

#include "accel/capture/capture.h"
#include "builtins/operators.h"
#include "builtins/registry.h"
#include "runtime/elementwise.h"
#include "runtime/error.h"
#include "runtime/scalar_ops.h"

namespace matfuse {
namespace {

const Tensor arg_tensor(const Value& v, std::string_view fname) {
  if (!v.is_tensor())
    throw_error("MATLAB:UndefinedFunction", "Undefined function '%s' for input arguments of type '%s'.",
                std::string(fname).c_str(), v.class_name().c_str());
  return v.tensor();
}

/// Operator-backed ops go through binary_op/unary_op (scalar fast path, string arrays).
bool operator_of(OpId op, ast::BinOp& out) {
  using B = ast::BinOp;
  switch (op) {
    case OpId::Add: out = B::Add; return true;
    case OpId::Sub: out = B::Sub; return true;
    case OpId::Mul: out = B::EMul; return true;
    case OpId::Div: out = B::EDiv; return true;
    case OpId::LDiv: out = B::ELDiv; return true;
    case OpId::Pow: out = B::EPow; return true;
    case OpId::Eq: out = B::Eq; return true;
    case OpId::Ne: out = B::Ne; return true;
    case OpId::Lt: out = B::Lt; return true;
    case OpId::Le: out = B::Le; return true;
    case OpId::Gt: out = B::Gt; return true;
    case OpId::Ge: out = B::Ge; return true;
    case OpId::And: out = B::And; return true;
    case OpId::Or: out = B::Or; return true;
    default: return false;
  }
}

template <OpId op, class Fn> Outputs binary_builtin(CallContext&, Args args, int nargout) {
  check_nargin(args, 2, 2);
  check_nargout(nargout, 1);
  ast::BinOp bop;
  if (operator_of(op, bop)) return {binary_op(bop, args[0], args[1])};
  if constexpr (!op_has(op, kLogicalOut) && !op_has(op, kRealToComplex)) {
    if (args[0].is_scalar_double() && args[1].is_scalar_double())
      return {Value(Fn::apply(args[0].scalar(), args[1].scalar()))};
  }
  Tensor a = arg_tensor(args[0], op_name(op)), b = arg_tensor(args[1], op_name(op));
  if constexpr (op == OpId::Hypot) {
    // hypot of complex operands is the hypot of their magnitudes (MATLAB).
    if (a.is_complex()) a = apply_unary(OpId::Abs, a);
    if (b.is_complex()) b = apply_unary(OpId::Abs, b);
  }
  if (auto lazy = accel::capture_binary(op, a, b)) return {Value(std::move(*lazy))};
  return {Value(apply_binary(op, a, b))};
}

template <OpId op, class Fn> Outputs unary_builtin(CallContext&, Args args, int nargout) {
  check_nargin(args, 1, 1);
  check_nargout(nargout, 1);
  if constexpr (op == OpId::Neg) return {unary_op(ast::UnOp::Neg, args[0])};
  if constexpr (op == OpId::UPlus) return {unary_op(ast::UnOp::Plus, args[0])};
  if constexpr (op == OpId::Not) return {unary_op(ast::UnOp::Not, args[0])};
  if (args[0].is_scalar_double()) {
    const double x = args[0].scalar();
    if constexpr (op_has(op, kLogicalOut)) {
      return {Value::logical(Fn::apply(x))};
    } else if constexpr (requires { Fn::real_ok(x); }) {
      if (Fn::real_ok(x)) return {Value(Fn::apply(x))};
    } else {
      return {Value(Fn::apply(x))};
    }
  }
  const Tensor a = arg_tensor(args[0], op_name(op));
  if (auto lazy = accel::capture_unary(op, a)) return {Value(std::move(*lazy))};
  return {Value(apply_unary(op, a))};
}

template <class Fn> double scalar1_fast(double x) { return Fn::apply(x); }
template <class Fn> double scalar2_fast(double x, double y) { return Fn::apply(x, y); }

/// round(x), round(x, n), round(x, n, 'decimals'|'significant').
Outputs round_builtin(CallContext&, Args args, int nargout) {
  check_nargin(args, 1, 3);
  check_nargout(nargout, 1);
  if (args.size() == 1) {
    if (args[0].is_scalar_double()) return {Value(std::round(args[0].scalar()))};
    const Tensor a = arg_tensor(args[0], "round");
    if (auto lazy = accel::capture_unary(OpId::Round, a)) return {Value(std::move(*lazy))};
    return {Value(apply_unary(OpId::Round, a))};
  }
  const Value& nv = args[1];
  if (!nv.is_tensor() || nv.numel() != 1 || nv.is_char())
    throw_error("MATLAB:round:invalidDigits", "N must be a scalar integer.");
  const double nd = nv.to_double("N");
  if (nd != std::floor(nd) || !std::isfinite(nd))
    throw_error("MATLAB:round:invalidDigits", "N must be a scalar integer.");
  bool significant = false;
  if (args.size() == 3) {
    std::string mode = args[2].to_text("type");
    if (mode == "significant") significant = true;
    else if (mode != "decimals")
      throw_error("MATLAB:round:invalidType", "Rounding type must be 'decimals' or 'significant'.");
  }
  Tensor x = arg_tensor(args[0], "round");
  if (!is_float_class(x.cls())) {
    if (is_integer_class(x.cls()) && !significant && nd >= 0) return {Value(x)};
    x = x.to_class(ClassId::Double);
  }
  if (x.is_complex()) throw_error("matfuse:notAvailable", "round(x, n) of complex values is not supported.");
  const bool single = x.cls() == ClassId::Single;
  Tensor r = x.to_class(ClassId::Double);
  double* o = r.mutable_data<double>();
  for (int64_t i = 0; i < r.numel(); ++i) {
    const double v = o[i];
    if (!std::isfinite(v) || v == 0) continue;
    double digits = nd;
    if (significant) digits = nd - std::ceil(std::log10(std::fabs(v)));
    if (digits >= 0) {
      const double s = std::pow(10.0, digits);
      const double y = std::round(v * s) / s;
      o[i] = std::isfinite(y) ? y : v;
    } else {
      const double s = std::pow(10.0, -digits);
      o[i] = std::round(v / s) * s;
    }
  }
  if (single) r = r.to_class(ClassId::Single);
  return {Value(r)};
}

/// complex(a) and complex(a, b): complex result kept even when the imaginary part is zero.
Outputs complex_builtin(CallContext&, Args args, int nargout) {
  check_nargin(args, 1, 2);
  check_nargout(nargout, 1);
  Tensor a = arg_tensor(args[0], "complex");
  Tensor b = args.size() == 2 ? arg_tensor(args[1], "complex") : Tensor::zeros(a.cls(), a.dims());
  if (a.is_complex() || b.is_complex())
    throw_error("MATLAB:complex:invalidRealPartInput", "Input A must be real.");
  if (a.cls() == ClassId::Char || b.cls() == ClassId::Char || a.cls() == ClassId::Logical ||
      b.cls() == ClassId::Logical)
    throw_error("MATLAB:complex:invalidRealPartInput", "Inputs must be numeric.");
  const ClassId rc = class_of_binary(a.cls(), b.cls());
  if (!is_float_class(rc))
    throw_error("matfuse:notAvailable", "complex() of integer classes is not supported.");
  Dims out;
  if (a.dims() == b.dims()) out = a.dims();
  else if (a.numel() == 1) out = b.dims();
  else if (b.numel() == 1) out = a.dims();
  else throw_error("MATLAB:complex:mismatchedDimensions", "Input arguments must be the same size or scalars.");
  Tensor r = Tensor::uninit(rc, out, true);
  const int64_t n = out.numel();
  const bool as = a.numel() == 1 && n != 1, bs = b.numel() == 1 && n != 1;
  for (int64_t i = 0; i < n; ++i)
    r.set_complex(i, {a.get_double(as ? 0 : i), b.get_double(bs ? 0 : i)});
  return {Value(r)};
}

}  // namespace

void register_elementwise(Registry& r) {
#define MF_OP(id, name, arity, cat, flags, identity, cost, sign)                                   \
  if constexpr (OpId::id != OpId::Max && OpId::id != OpId::Min && OpId::id != OpId::Round) {       \
    constexpr bool fast = !op_has(OpId::id, kLogicalOut) && !op_has(OpId::id, kRealToComplex);     \
    if constexpr (arity == 1) {                                                                    \
      double (*s1)(double) = nullptr;                                                              \
      if constexpr (fast) s1 = &scalar1_fast<scalar::id>;                                          \
      r.add(name, &unary_builtin<OpId::id, scalar::id>, s1, nullptr);                              \
    } else {                                                                                       \
      double (*s2)(double, double) = nullptr;                                                      \
      if constexpr (fast) s2 = &scalar2_fast<scalar::id>;                                          \
      r.add(name, &binary_builtin<OpId::id, scalar::id>, nullptr, s2);                             \
    }                                                                                              \
  }
#include "runtime/ops.def"
#undef MF_OP
  r.add("round", &round_builtin, &scalar1_fast<scalar::Round>, nullptr);
  r.add("complex", &complex_builtin);
}

}  // namespace matfuse
