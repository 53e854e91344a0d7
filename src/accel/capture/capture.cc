// Capture of array operations as lazy graph values (see capture.h).
#include "accel/capture/capture.h"

#include <algorithm>
#include <cmath>

namespace matfuse::accel {
namespace {

bool supported_class(ClassId c) {
  switch (c) {
    case ClassId::Int64:
    case ClassId::UInt64: return false;
    default: return true;
  }
}

/// Whether t can enter a graph: handled class, real (or lazy real-typed), not empty. With
/// complex_ok, complex single and double values enter too (ops with kComplexOk, sum, mean: the
/// fused kernels carry their real and imaginary parts, accel/emit/lower.cc).
bool capturable(const Tensor& t, bool complex_ok = false) {
  if (!supported_class(t.cls()) || t.numel() == 0) return false;
  const bool cx = t.is_lazy() ? t.node()->complex : t.is_complex();
  return !cx || (complex_ok && (t.cls() == ClassId::Double || t.cls() == ClassId::Single));
}

bool known_complex(const Tensor& t) { return t.is_lazy() ? t.node()->complex : t.is_complex(); }

bool float_cls(ClassId c) { return c == ClassId::Double || c == ClassId::Single; }

bool big(int64_t n) { return n >= lazy_config().min_numel; }

/// A gpuArray (Tensor::gpu_array) or a value that already has a device copy: captured below
/// the size threshold, so placement can keep its work on the device (its inputs cost no
/// upload there).
bool prefers_device(const Tensor& t) {
  if (t.gpu_array()) return true;
  if (t.is_lazy()) return false;
  const auto& s = t.storage();
  return s && s->device() != nullptr;
}
bool prefers_device(const Tensor& a, const Tensor& b) {
  return prefers_device(a) || prefers_device(b);
}

/// The node standing for operand t (see the capture rules).
NodeRef operand(const Tensor& t) {
  if (t.is_lazy()) return t.node();
  if (t.numel() == 1 && !t.is_complex()) {
    const double v = t.get_double(0);
    return t.cls() == ClassId::Double ? param(v) : constant(v, t.cls());
  }
  return input(t);
}

Tensor finish(const NodeRef& n, bool maybe_complex) {
  return check_limits(make_lazy(n, maybe_complex));
}

/// Whether every element of n's value is >= 0 or NaN (never negative), proved from its
/// structure: such operands keep sqrt/log/power real, so the result is not maybe_complex and
/// later real-only ops (max, comparisons) can still be captured. Conservative: false when unsure.
bool nonnegative(const Node* n, int depth = 0) {
  if (depth > 64) return false;
  auto nn = [&](int i) { return nonnegative(n->inputs[i].get(), depth + 1); };
  switch (n->kind) {
    case NodeKind::Constant:
    case NodeKind::Param: return !(n->value < 0);
    case NodeKind::Generator:
      return n->gen == GenKind::Rand || n->gen == GenKind::Zeros || n->gen == GenKind::Ones ||
             n->gen == GenKind::Eye;
    case NodeKind::Cast:
    case NodeKind::Transpose:
    case NodeKind::Slice:
    case NodeKind::Diag: return !n->inputs.empty() && nn(0);
    case NodeKind::Reduce:
      return n->reduce == ReduceKind::Any || n->reduce == ReduceKind::All || nn(0);
    case NodeKind::Elementwise:
      if (op_returns_logical(n->op)) return true;
      switch (n->op) {
        case OpId::Abs: case OpId::Exp: case OpId::Sqrt: case OpId::Hypot: return true;
        case OpId::Add: case OpId::Mul: case OpId::Div: case OpId::Min: return nn(0) && nn(1);
        case OpId::Max: return nn(0) || nn(1);
        case OpId::Floor: case OpId::Ceil: case OpId::Round: case OpId::Fix: case OpId::Real:
        case OpId::Log1p: case OpId::Expm1: case OpId::Sinh: case OpId::Tanh: case OpId::Atan:
          return nn(0);  // monotone, zero at zero
        case OpId::Pow: {
          if (nn(0)) return true;
          const Node* e = n->inputs[1].get();
          const bool scalar = e->kind == NodeKind::Constant || e->kind == NodeKind::Param;
          return scalar && std::fmod(e->value, 2.0) == 0;  // even integer exponent
        }
        default: return false;
      }
    default: return false;
  }
}

}  // namespace

std::optional<Tensor> capture_binary(OpId op, const Tensor& a, const Tensor& b) {
  const bool cx_ok = op_has(op, kComplexOk) && op_category(op) != OpCategory::Logical;
  if (!lazy_config().enabled || !capturable(a, cx_ok) || !capturable(b, cx_ok))
    return std::nullopt;
  if (!a.is_lazy() && !b.is_lazy() && !big(std::max(a.numel(), b.numel())) &&
      !(prefers_device(a, b) && std::max(a.numel(), b.numel()) > 1))
    return std::nullopt;
  const OpCategory cat = op_category(op);
  if (cat == OpCategory::Logical && (float_cls(a.cls()) || float_cls(b.cls())))
    return std::nullopt;
  const bool maybe = a.maybe_complex() || b.maybe_complex();
  if (maybe && !op_has(op, kComplexOk)) return std::nullopt;
  // Complex operands: only ops whose complex form the kernels compute (lower.cc); a complex
  // power or a complex integer mix stays eager.
  if ((known_complex(a) || known_complex(b)) &&
      (!complex_fusable(op) || !float_cls(a.cls()) || !float_cls(b.cls()) || maybe))
    return std::nullopt;
  if (op == OpId::Max || op == OpId::Min) {
    const auto odd = [](ClassId c) { return c == ClassId::Logical || c == ClassId::Char; };
    if (odd(a.cls()) || odd(b.cls())) return std::nullopt;  // minmax_binary's class rules
  }
  bool result_maybe = false;
  if (!op_returns_logical(op)) {
    result_maybe = maybe;
    if (op_has(op, kRealToComplex)) {
      bool safe = false;
      if (op == OpId::Pow && !b.is_lazy() && b.numel() == 1) {
        const double e = b.get_double(0);
        safe = std::isfinite(e) && e == std::floor(e);
      }
      // A nonnegative base keeps any real power real.
      if (op == OpId::Pow && !a.maybe_complex() && !b.maybe_complex())
        safe = safe || nonnegative(operand(a).get());
      result_maybe = result_maybe || !safe;
    }
  }
  // An integer result has no complex form: where it might need one (int16(-39) .^ 0.5) the
  // eager path raises the error now, at its own statement, not when a sink forces the graph.
  if (result_maybe && is_integer_class(class_of_binary(a.cls(), b.cls()))) return std::nullopt;
  return finish(binary(op, operand(a), operand(b)), result_maybe);
}

std::optional<Tensor> capture_unary(OpId op, const Tensor& a) {
  const bool cx_ok = op_has(op, kComplexOk) && !op_has(op, kRealToComplex) &&
                     op_category(op) != OpCategory::Logical;
  if (!lazy_config().enabled || !capturable(a, cx_ok)) return std::nullopt;
  if (known_complex(a) && !complex_fusable(op)) return std::nullopt;
  if (!a.is_lazy() && !big(a.numel()) && !(prefers_device(a) && a.numel() > 1))
    return std::nullopt;
  const OpCategory cat = op_category(op);
  if (cat == OpCategory::Logical && float_cls(a.cls())) return std::nullopt;
  if (a.maybe_complex() && !op_has(op, kComplexOk)) return std::nullopt;
  bool maybe = false;
  const NodeRef x = operand(a);
  if (!op_returns_logical(op) && !op_has(op, kRealOut)) {
    // sqrt, log, log2, log10 and log1p of a value proved nonnegative stay real (acos, asin,
    // acosh, atanh also need an upper bound, which is not tracked).
    const bool real_domain = (op == OpId::Sqrt || op == OpId::Log || op == OpId::Log2 ||
                              op == OpId::Log10 || op == OpId::Log1p) &&
                             !a.maybe_complex() && nonnegative(x.get());
    maybe = a.maybe_complex() || (op_has(op, kRealToComplex) && !real_domain);
  }
  return finish(unary(op, x), maybe);
}

std::optional<Tensor> capture_reduce(ReduceKind k, const Tensor& x, const std::vector<int>& dims,
                                     bool omitnan, ReduceOut out) {
  // Complex sum and mean fold the two parts separately ('omitnan' drops both parts of an
  // element together, so it stays eager).
  const bool cx_ok = (k == ReduceKind::Sum || k == ReduceKind::Mean) && !omitnan &&
                     !x.maybe_complex() && out != ReduceOut::Native;
  if (!lazy_config().enabled || !capturable(x, cx_ok)) return std::nullopt;
  if (!x.is_lazy() && !big(x.numel()) && !(prefers_device(x) && x.numel() > 1))
    return std::nullopt;
  const bool minmax = k == ReduceKind::Min || k == ReduceKind::Max;
  if (minmax && x.maybe_complex()) return std::nullopt;
  const bool maybe = x.maybe_complex() && k != ReduceKind::Any && k != ReduceKind::All;
  return finish(reduce(k, operand(x), dims, omitnan, out), maybe);
}

std::optional<Tensor> capture_cast(const Tensor& x, ClassId to) {
  if (!lazy_config().enabled || !float_cls(to) || !capturable(x, true)) return std::nullopt;
  if (!x.is_lazy() && !big(x.numel()) && !(prefers_device(x) && x.numel() > 1))
    return std::nullopt;
  if (x.cls() == to) return x;
  return finish(cast(operand(x), to), x.maybe_complex());
}

std::optional<Tensor> capture_matmul(const Tensor& a, const Tensor& b) {
  if (!lazy_config().enabled || (!a.is_lazy() && !b.is_lazy() && !prefers_device(a, b)))
    return std::nullopt;
  if (!capturable(a) || !capturable(b) || a.maybe_complex() || b.maybe_complex())
    return std::nullopt;
  if (!float_cls(a.cls()) || a.cls() != b.cls()) return std::nullopt;
  if (!a.dims().is_matrix() || !b.dims().is_matrix() || a.dims().cols() != b.dims().rows())
    return std::nullopt;
  return finish(matmul(operand(a), operand(b)), false);
}

std::optional<Tensor> capture_diag(const Tensor& a) {
  if (!lazy_config().enabled || !a.is_lazy() || !capturable(a) || a.maybe_complex())
    return std::nullopt;
  const Dims& d = a.dims();
  if (!d.is_matrix() || d.rows() < 2 || d.cols() < 2) return std::nullopt;
  return finish(diag(a.node()), false);
}

std::optional<Tensor> capture_transpose(const Tensor& a, bool conj) {
  if (!lazy_config().enabled || !a.is_lazy() || !capturable(a) || a.maybe_complex())
    return std::nullopt;
  if (!a.dims().is_matrix()) return std::nullopt;
  return finish(transpose(a.node(), conj), false);
}

std::optional<Tensor> capture_slice(const Tensor& x, const std::vector<SliceSub>& subs) {
  if (!lazy_config().enabled || !capturable(x) || x.maybe_complex()) return std::nullopt;
  const Dims& d = x.dims();
  if (static_cast<int>(subs.size()) != d.ndims()) return std::nullopt;
  int64_t numel = 1;
  for (int k = 0; k < d.ndims(); ++k) {
    const SliceSub& s = subs[k];
    if (s.count < 1 || !(s.start >= 1) || s.start != std::floor(s.start)) return std::nullopt;
    const double last = s.start + static_cast<double>(s.count - 1) * static_cast<double>(s.step);
    if (std::min(s.start, last) < 1 || std::max(s.start, last) > static_cast<double>(d[k]))
      return std::nullopt;
    numel *= s.count;
  }
  if (x.is_lazy() || prefers_device(x) ? numel < 2 : !big(numel)) return std::nullopt;
  std::vector<NodeRef> starts;
  std::vector<int64_t> steps, counts;
  for (const SliceSub& s : subs) {
    starts.push_back(s.per_trace ? param(s.start, ParamRole::LoopIndex) : constant(s.start));
    steps.push_back(s.count == 1 ? 1 : s.step);
    counts.push_back(s.count);
  }
  return finish(slice(operand(x), starts, steps, counts), false);
}

bool capture_generator(int64_t n, ClassId cls, bool complex) {
  // Sizes past the array size limit stay eager, so the request fails where MATLAB fails.
  return lazy_config().enabled && !complex && n > 0 && supported_class(cls) && big(n) &&
         static_cast<double>(n) * element_size(cls) <= Tensor::max_array_bytes();
}

Tensor lazy_generator(const NodeRef& g) { return finish(g, false); }

}  // namespace matfuse::accel
