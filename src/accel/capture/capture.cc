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

/// A lazy value still pending (not yet computed). A lazy tensor whose node was materialised by
/// an earlier force (a copy of it was forced) holds an Input node: it counts as materialised.
bool pending(const Tensor& t) { return t.is_lazy() && !t.node()->has_value(); }

/// The materialised value behind t (t itself, or the tensor of its materialised node).
const Tensor& materialised(const Tensor& t) { return t.is_lazy() ? t.node()->value_tensor() : t; }

bool known_complex(const Tensor& t) { return t.is_lazy() ? t.node()->complex : t.is_complex(); }

bool float_cls(ClassId c) { return c == ClassId::Double || c == ClassId::Single; }

bool big(int64_t n) { return n >= lazy_config().min_numel; }

/// A gpuArray (Tensor::gpu_array) or a value that already has a device copy: captured below
/// the size threshold, so placement can keep its work on the device (its inputs cost no
/// upload there).
bool prefers_device(const Tensor& t) {
  if (t.gpu_array()) return true;
  if (pending(t)) return false;
  const auto& s = materialised(t).storage();
  return s && s->device() != nullptr;
}
bool prefers_device(const Tensor& a, const Tensor& b) {
  return prefers_device(a) || prefers_device(b);
}

/// The node standing for operand t (see the capture rules).
NodeRef operand(const Tensor& t) {
  // A materialised 1x1 value enters as a Param or Constant when its host copy is valid; one
  // held only on the device stays a 1x1 Input (read there, never gathered for this).
  if (pending(t) || (t.is_lazy() && (t.numel() != 1 || materialised(t).device_only())))
    return t.node();
  if (t.numel() == 1 && !materialised(t).is_complex()) {
    const double v = materialised(t).get_double(0);
    return t.cls() == ClassId::Double ? param(v) : constant(v, t.cls());
  }
  return input(t);
}

Tensor finish(const NodeRef& n, bool maybe_complex) {
  return check_limits(make_lazy(n, maybe_complex));
}

}  // namespace

std::optional<Tensor> capture_binary(OpId op, const Tensor& a, const Tensor& b) {
  const bool cx_ok = op_has(op, kComplexOk) && op_category(op) != OpCategory::Logical;
  if (!lazy_config().enabled || !capturable(a, cx_ok) || !capturable(b, cx_ok))
    return std::nullopt;
  if (!pending(a) && !pending(b) && !big(std::max(a.numel(), b.numel())) &&
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
        safe = safe || known_nonnegative(operand(a).get(), true);
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
  if (!pending(a) && !big(a.numel()) && !(prefers_device(a) && a.numel() > 1))
    return std::nullopt;
  const OpCategory cat = op_category(op);
  if (cat == OpCategory::Logical && float_cls(a.cls())) return std::nullopt;
  if (a.maybe_complex() && !op_has(op, kComplexOk)) return std::nullopt;
  bool maybe = false;
  const NodeRef x = operand(a);
  if (!op_returns_logical(op) && !op_has(op, kRealOut)) {
    // sqrt, log, log2, log10 and log1p of a value proved nonnegative stay real (acos, asin,
    // acosh, atanh also need an upper bound, which is not tracked).
    const bool real_domain = op_has(op, kRealOnNonneg) && !a.maybe_complex() &&
                             known_nonnegative(x.get(), true);
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
  if (!pending(x) && !big(x.numel()) && !(prefers_device(x) && x.numel() > 1))
    return std::nullopt;
  const bool minmax = k == ReduceKind::Min || k == ReduceKind::Max;
  if (minmax && x.maybe_complex()) return std::nullopt;
  const bool maybe = x.maybe_complex() && k != ReduceKind::Any && k != ReduceKind::All;
  return finish(reduce(k, operand(x), dims, omitnan, out), maybe);
}

std::optional<Tensor> capture_cast(const Tensor& x, ClassId to) {
  if (!lazy_config().enabled || !float_cls(to) || !capturable(x, true)) return std::nullopt;
  if (!pending(x) && !big(x.numel()) && !(prefers_device(x) && x.numel() > 1))
    return std::nullopt;
  if (x.cls() == to) return x;
  return finish(cast(operand(x), to), x.maybe_complex());
}

std::optional<Tensor> capture_matmul(const Tensor& a, const Tensor& b) {
  // Captured with a lazy operand, a device-resident one, or enough work (m*n*k multiply-adds
  // at least min_numel^1.5) that placement may send it to a faster BLAS.
  const double work = static_cast<double>(a.dims().rows()) * static_cast<double>(b.dims().cols()) *
                      static_cast<double>(a.dims().cols());
  const double big_work = std::pow(static_cast<double>(lazy_config().min_numel), 1.5);
  if (!lazy_config().enabled ||
      (!pending(a) && !pending(b) && !prefers_device(a, b) && work < big_work))
    return std::nullopt;
  if (!capturable(a) || !capturable(b) || a.maybe_complex() || b.maybe_complex())
    return std::nullopt;
  if (!float_cls(a.cls()) || a.cls() != b.cls()) return std::nullopt;
  if (!a.dims().is_matrix() || !b.dims().is_matrix() || a.dims().cols() != b.dims().rows())
    return std::nullopt;
  return finish(matmul(operand(a), operand(b)), false);
}

namespace {

/// x.' without a Transpose of a Transpose: the operand itself.
NodeRef transposed(const NodeRef& x) {
  return x->kind == NodeKind::Transpose ? x->inputs[0] : transpose(x);
}

}  // namespace

std::optional<Tensor> capture_diag(const Tensor& a) {
  if (!lazy_config().enabled || !a.is_lazy() || !capturable(a) || a.maybe_complex())
    return std::nullopt;
  const Dims& d = a.dims();
  if (!d.is_matrix() || d.rows() < 2 || d.cols() < 2) return std::nullopt;
  const NodeRef& n = a.node();
  if (n->kind == NodeKind::MatMul && d.rows() == d.cols()) {
    // diag(A*B) of a square product: element i is sum_j A(i,j)*B(j,i), the column sums of
    // A.' .* B, so the m x m product is never formed (explained_variance). A.' of a product
    // Q'*G is the product G'*Q (both operands then read along columns).
    const NodeRef& A = n->inputs[0];
    const NodeRef& B = n->inputs[1];
    const NodeRef At = A->kind == NodeKind::MatMul
                           ? matmul(transposed(A->inputs[1]), transposed(A->inputs[0]))
                           : transposed(A);
    return finish(transpose(reduce(ReduceKind::Sum, binary(OpId::Mul, At, B), {0})), false);
  }
  return finish(diag(n), false);
}

/// The graph of cov(x) divided by n - w (see capture_cov), or null when it is not captured;
/// *vars receives the number of variables.
static NodeRef cov_graph(const Tensor& x, int w, int64_t* vars) {
  if (!lazy_config().enabled || !capturable(x) || x.maybe_complex() || !float_cls(x.cls()))
    return nullptr;
  if (!pending(x) && !big(x.numel()) && !(prefers_device(x) && x.numel() > 1)) return nullptr;
  const Dims& d = x.dims();
  if (!d.is_matrix()) return nullptr;
  NodeRef X = operand(x);
  if (d.rows() == 1) X = transpose(X);  // a row vector is one variable
  const int64_t n = X->dims.rows();
  if (n < 2) return nullptr;
  *vars = X->dims.cols();
  // Two passes: the column means, then the Gram matrix of the centred columns (never
  // X'*X - n*mu'*mu); label_patterns reports it as centered_gram.
  const NodeRef Xc = binary(OpId::Sub, X, reduce(ReduceKind::Mean, X, {0}));
  const NodeRef G = matmul(transpose(Xc), Xc);
  return binary(OpId::Div, G, constant(static_cast<double>(w == 1 ? n : n - 1)));
}

std::optional<Tensor> capture_cov(const Tensor& x, int w) {
  int64_t vars = 0;
  const NodeRef C = cov_graph(x, w, &vars);
  if (!C) return std::nullopt;
  return finish(C, false);
}

std::optional<Tensor> capture_corrcoef(const Tensor& x) {
  int64_t vars = 0;
  const NodeRef C = cov_graph(x, 0, &vars);
  if (!C || vars < 2) return std::nullopt;
  // C ./ sqrt(diag(C) .* diag(C).'): the diagonal is C(i,i) / |C(i,i)|, exactly 1
  // (sqrt(c*c) == |c| in IEEE arithmetic), NaN for a constant column.
  const NodeRef dg = diag(C);
  const NodeRef R = binary(OpId::Div, C, unary(OpId::Sqrt, binary(OpId::Mul, dg, transpose(dg))));
  // Rounding can leave |R| a little above 1: clamped to [-1, 1] with NaN kept (max/min would
  // replace NaN): R - (R > 1) .* (R - 1) is 1 exactly for R in (1, 2) (R - 1 is exact).
  const NodeRef one = constant(1), mone = constant(-1);
  const NodeRef hi = binary(OpId::Sub, R, binary(OpId::Mul, binary(OpId::Gt, R, one),
                                                 binary(OpId::Sub, R, one)));
  const NodeRef lo = binary(OpId::Add, hi, binary(OpId::Mul, binary(OpId::Lt, hi, mone),
                                                  binary(OpId::Sub, mone, hi)));
  return finish(lo, false);
}

std::optional<Tensor> capture_transpose(const Tensor& a, bool conj) {
  // A large materialised matrix is captured too: a product then reads it with a transpose
  // flag instead of a transposed copy being written.
  if (!lazy_config().enabled || !capturable(a) || a.maybe_complex()) return std::nullopt;
  if (!pending(a) && !big(a.numel()) && !prefers_device(a)) return std::nullopt;
  if (!a.dims().is_matrix()) return std::nullopt;
  return finish(transpose(operand(a), conj), false);
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
  if (pending(x) || prefers_device(x) ? numel < 2 : !big(numel)) return std::nullopt;
  std::vector<NodeRef> starts;
  std::vector<int64_t> steps, counts;
  for (const SliceSub& s : subs) {
    starts.push_back(s.per_trace ? param(s.start, ParamRole::LoopIndex) : constant(s.start));
    steps.push_back(s.count == 1 ? 1 : s.step);
    counts.push_back(s.count);
  }
  return finish(slice(operand(x), starts, steps, counts), false);
}

std::optional<Tensor> capture_norm2(const Tensor& x, const std::vector<int>& dims) {
  if (!lazy_config().enabled || !capturable(x) || x.maybe_complex()) return std::nullopt;
  if (!float_cls(x.cls())) return std::nullopt;
  if (!pending(x) && !big(x.numel()) && !(prefers_device(x) && x.numel() > 1))
    return std::nullopt;
  const NodeRef v = operand(x);
  const NodeRef two = constant(2.0);
  NodeRef r;
  if (x.cls() == ClassId::Single) {
    // Squares of singles summed in double cannot overflow or underflow (|x| <= 3.4e38, the
    // smallest single squared is 2e-90): one pass, then rounded to single once.
    const NodeRef sq = binary(OpId::Pow, cast(v, ClassId::Double), two);
    r = cast(unary(OpId::Sqrt, reduce(ReduceKind::Sum, sq, dims)), ClassId::Single);
  } else {
    // Double: scaled by the largest magnitude s (as LAPACK's dnrm2 guards against overflow):
    // s * sqrt(sum((x ./ max(s, realmin)).^2)); an infinite element gives Inf (max ignores the
    // NaN that Inf/Inf makes), a NaN element NaN.
    const NodeRef s = reduce(ReduceKind::Max, unary(OpId::Abs, v), dims, /*omitnan=*/true);
    const NodeRef guard = binary(OpId::Max, s, constant(2.2250738585072014e-308));
    const NodeRef sq = binary(OpId::Pow, binary(OpId::Div, v, guard), two);
    const NodeRef root = unary(OpId::Sqrt, reduce(ReduceKind::Sum, sq, dims));
    const NodeRef scaled = binary(OpId::Mul, s, root);
    const NodeRef is_inf = cast(binary(OpId::Eq, s, constant(INFINITY)), ClassId::Double);
    const NodeRef inf = binary(OpId::Mul, is_inf, constant(INFINITY));
    r = binary(OpId::Max, scaled, inf);
  }
  return finish(r, false);
}

std::optional<Tensor> capture_var(const Tensor& x, const std::vector<int>& dims, int w,
                                  bool take_sqrt) {
  if (!lazy_config().enabled || !capturable(x) || x.maybe_complex() || !float_cls(x.cls()))
    return std::nullopt;
  if (!pending(x) && !big(x.numel()) && !(prefers_device(x) && x.numel() > 1))
    return std::nullopt;
  int64_t n = 1;
  for (int d : dims) n *= d < x.dims().ndims() ? x.dims()[d] : 1;
  if (n < 1) return std::nullopt;
  // Two passes (the mean, then the squared deviations), as the eager var; a single element
  // (n = 1) has variance 0 for either weight.
  const NodeRef X = operand(x);
  const NodeRef dev = binary(OpId::Sub, X, reduce(ReduceKind::Mean, X, dims));
  const NodeRef ss = reduce(ReduceKind::Sum, binary(OpId::Pow, dev, constant(2.0)), dims);
  const double denom = (w == 1 || n == 1) ? static_cast<double>(n) : static_cast<double>(n - 1);
  NodeRef v = binary(OpId::Div, ss, constant(denom));
  if (take_sqrt) v = unary(OpId::Sqrt, v);
  return finish(v, false);
}

bool capture_generator(int64_t n, ClassId cls, bool complex) {
  // Sizes past the array size limit stay eager, so the request fails where MATLAB fails.
  return lazy_config().enabled && !complex && n > 0 && supported_class(cls) && big(n) &&
         static_cast<double>(n) * element_size(cls) <= Tensor::max_array_bytes();
}

Tensor lazy_generator(const NodeRef& g) { return finish(g, false); }

}  // namespace matfuse::accel
