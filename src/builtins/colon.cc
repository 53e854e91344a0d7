// The colon operator a:b and a:step:b (colon_op from builtins/operators.h).
//
// Rules (MATLAB):
// - Result class: the integer class if any operand is an integer (two different integer classes
//   are an error), else single if any operand is single, else char when both ends are char
//   ('a':'e'), else double. Logical operands count as double.
// - Empty operands or an empty range (5:1, 1:-1:3, step 0) give a 1x0 result of that class.
//   A NaN operand gives NaN.
// - Count: n = number of steps, computed with a tolerance of 2*eps*max(|a|,|b|) so that
//   0:0.1:1 keeps its last element (11 elements); integer-valued start and step take the exact
//   integer route. Elements are a + k*step (the same index function the fused path uses), with
//   the last element snapped to b when it lies within the tolerance.
// - Non-scalar operands use their first element (as MATLAB does).
#include <algorithm>
#include <cmath>
#include <limits>
#include <string>

#include "builtins/operators.h"
#include "runtime/error.h"
#include "runtime/scalar_ops.h"

namespace matfuse {
namespace {

constexpr int64_t kMaxColonElems = int64_t(1) << 48;

[[noreturn]] void throw_too_large() {
  throw_error("MATLAB:pmaxsize", "Maximum variable size allowed by the program is exceeded.");
}

double first_real(const Value& v) { return v.is_scalar_double() ? v.scalar() : v.tensor().get_double(0); }

/// Floating range in precision T (double or float).
template <class T> Tensor float_range(T a, T d, T b, ClassId cls) {
  auto empty = [&] { return Tensor::zeros(cls, Dims(1, 0)); };
  if (a != a || d != d || b != b) {
    Tensor t = Tensor::uninit(cls, Dims(1, 1));
    t.mutable_data<T>()[0] = std::numeric_limits<T>::quiet_NaN();
    return t;
  }
  if (d == 0 || (a < b && d < 0) || (b < a && d > 0)) return empty();
  if (!std::isfinite(a) || !std::isfinite(b)) throw_too_large();
  int64_t n;  // number of steps (numel - 1)
  if (!std::isfinite(d)) {
    n = 0;
  } else {
    const T tol = T(2) * std::numeric_limits<T>::epsilon() * std::max(std::fabs(a), std::fabs(b));
    const T sig = d > 0 ? T(1) : T(-1);
    T steps;
    if (a == std::floor(a) && d == std::floor(d)) {
      // Integer start and step: exact count.
      const T q = std::floor(a / d), r = a - q * d;
      steps = std::floor((b - r) / d) - q;
    } else {
      steps = std::round((b - a) / d);
      if (sig * (a + steps * d - b) > tol) steps -= 1;
    }
    if (!(steps < T(kMaxColonElems))) throw_too_large();
    n = steps < 0 ? -1 : static_cast<int64_t>(steps);
    if (n < 0) return empty();
    // Snap the last element onto b when within tolerance.
    Tensor t = Tensor::uninit(cls, Dims(1, n + 1));
    T* o = t.mutable_data<T>();
    for (int64_t k = 0; k <= n; ++k) o[k] = a + static_cast<T>(k) * d;
    if (n > 0 && sig * (o[n] - b) > -tol) o[n] = b;
    return t;
  }
  Tensor t = Tensor::uninit(cls, Dims(1, 1));
  t.mutable_data<T>()[0] = a;
  return t;
}

/// Integer range of class cls; operands are first converted to the class (rounded, saturated).
Tensor int_range(ClassId cls, double av, double dv, double bv) {
  return dispatch_class(cls, [&](auto tag) -> Tensor {
    using I = decltype(tag);
    if constexpr (std::is_integral_v<I> && !std::is_same_v<I, bool> && !std::is_same_v<I, char16_t>) {
      using W = long double;  // exact for every 64-bit integer value
      const W a = saturate_round<I>(W(av)), b = saturate_round<I>(W(bv));
      const W d = std::round(W(dv));
      if (d == 0 || (a < b && d < 0) || (b < a && d > 0)) return Tensor::zeros(cls, Dims(1, 0));
      const W steps = std::floor((b - a) / d);
      if (!(steps < W(kMaxColonElems))) throw_too_large();
      const int64_t n = static_cast<int64_t>(steps);
      Tensor t = Tensor::uninit(cls, Dims(1, n + 1));
      I* o = t.mutable_data<I>();
      for (int64_t k = 0; k <= n; ++k) o[k] = static_cast<I>(a + W(k) * d);
      return t;
    } else {
      MF_ASSERT(false, "int_range on a non-integer class");
      return Tensor();
    }
  });
}

}  // namespace

Value colon_op(const Value& a, const Value* step, const Value& b) {
  // Fast path: a:b with real double scalars and an integer start (the for-loop case).
  if (!step && a.is_scalar_double() && b.is_scalar_double()) {
    const double x = a.scalar(), y = b.scalar();
    if (x == std::floor(x) && std::isfinite(y) && std::fabs(x) < 1e15 && std::fabs(y) < 1e15) {
      const int64_t n = y >= x ? static_cast<int64_t>(std::floor(y) - x) + 1 : 0;
      if (n > kMaxColonElems) throw_too_large();
      Tensor t = Tensor::uninit(ClassId::Double, Dims(1, n));
      double* o = t.mutable_data<double>();
      for (int64_t k = 0; k < n; ++k) o[k] = x + static_cast<double>(k);
      return Value(t);
    }
  }
  const Value* ops[3] = {&a, step, &b};
  ClassId int_cls = ClassId::Double;
  bool any_int = false, any_single = false, any_empty = false;
  for (const Value* v : ops) {
    if (!v) continue;
    if (!v->is_tensor())
      throw_error("MATLAB:UndefinedFunction", "Undefined function 'colon' for input arguments of type '%s'.",
                  v->class_name().c_str());
    const ClassId c = v->cls();
    if (is_integer_class(c)) {
      if (any_int && c != int_cls)
        throw_error("MATLAB:colon:mixedIntegerTypes",
                    "Colon operands must be all the same type, or mixed with real double scalars.");
      any_int = true;
      int_cls = c;
    }
    if (c == ClassId::Single) any_single = true;
    if (v->is_empty()) any_empty = true;
  }
  ClassId rc = ClassId::Double;
  if (any_int) rc = int_cls;
  else if (any_single) rc = ClassId::Single;
  else if (a.cls() == ClassId::Char && b.cls() == ClassId::Char) rc = ClassId::Char;
  if (any_empty) return Value(Tensor::zeros(rc, Dims(1, 0)));

  const double av = first_real(a), bv = first_real(b), dv = step ? first_real(*step) : 1.0;
  if (any_int) return Value(int_range(rc, av, dv, bv));
  if (rc == ClassId::Single)
    return Value(float_range<float>(float(av), float(dv), float(bv), ClassId::Single));
  Tensor t = float_range<double>(av, dv, bv, ClassId::Double);
  if (rc == ClassId::Char) return Value(t.to_class(ClassId::Char));
  return Value(t);
}

}  // namespace matfuse
