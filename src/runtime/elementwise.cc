// The eager broadcasting engine (see elementwise.h for the semantics contract).
//
// Structure: the op is switched on once per call (with_op), the work type W once per call, and
// then a templated loop runs with the scalar functor inlined, so same-shape and scalar-operand
// loops over double and single vectorize. Operands whose class differs from W are converted
// into a temporary W buffer first; integer results are computed in W and saturated afterwards.
#include "runtime/elementwise.h"

#include <memory>
#include <type_traits>

#include "runtime/error.h"
#include "runtime/scalar_ops.h"

namespace matfuse {
namespace {

// ---- traversal ------------------------------------------------------------------------------

/// Calls body(i, ia, ib) for every linear output index i, with the operand indices that implicit
/// expansion maps it to. dout must be broadcast_dims(da, db).
template <class Body>
inline void for_each_broadcast(const Dims& da, const Dims& db, const Dims& dout, Body&& body) {
  const int64_t n = dout.numel();
  if (n == 0) return;
  const int64_t na = da.numel(), nb = db.numel();
  if (na == n && nb == n) {
    for (int64_t i = 0; i < n; ++i) body(i, i, i);
    return;
  }
  if (na == 1 && nb == n) {
    for (int64_t i = 0; i < n; ++i) body(i, int64_t(0), i);
    return;
  }
  if (nb == 1 && na == n) {
    for (int64_t i = 0; i < n; ++i) body(i, i, int64_t(0));
    return;
  }
  // General N-d expansion: inner loop over dimension 1, odometer over the rest.
  const int nd = dout.ndims();
  int64_t ea[Dims::kMaxDims], eb[Dims::kMaxDims], idx[Dims::kMaxDims];
  int64_t sa = 1, sb = 1;
  for (int k = 0; k < nd; ++k) {
    ea[k] = da[k] == 1 ? 0 : sa;
    eb[k] = db[k] == 1 ? 0 : sb;
    sa *= da[k];
    sb *= db[k];
    idx[k] = 0;
  }
  const int64_t d0 = dout[0], a0 = ea[0], b0 = eb[0];
  int64_t ia = 0, ib = 0;
  for (int64_t i = 0; i < n; i += d0) {
    for (int64_t j = 0; j < d0; ++j) body(i + j, ia + j * a0, ib + j * b0);
    for (int k = 1; k < nd; ++k) {
      ia += ea[k];
      ib += eb[k];
      if (++idx[k] < dout[k]) break;
      ia -= ea[k] * dout[k];
      ib -= eb[k] * dout[k];
      idx[k] = 0;
    }
  }
}

// ---- operands in the work type --------------------------------------------------------------

template <class W> bool is_native(const Tensor& t) {
  if constexpr (ComplexFloat<W>) {
    return t.is_complex() && t.cls() == class_of_type<typename W::value_type>::value;
  } else if constexpr (std::is_same_v<W, long double>) {
    return false;
  } else {
    return !t.is_complex() && t.cls() == class_of_type<W>::value;
  }
}

[[noreturn]] void throw_nologicalnan() {
  throw_error("MATLAB:nologicalnan", "NaN's cannot be converted to logicals.");
}

template <class W, class S> inline W convert_elem(S s) {
  if constexpr (is_complex_v<S>) {
    if constexpr (ComplexFloat<W>) {
      return W(static_cast<typename W::value_type>(s.real()),
               static_cast<typename W::value_type>(s.imag()));
    } else if constexpr (std::is_same_v<W, bool>) {
      if (s.real() != s.real() || s.imag() != s.imag()) throw_nologicalnan();
      return s.real() != 0 || s.imag() != 0;
    } else {
      return static_cast<W>(s.real());
    }
  } else if constexpr (ComplexFloat<W>) {
    return W(static_cast<typename W::value_type>(s), 0);
  } else if constexpr (std::is_same_v<W, bool>) {
    if constexpr (std::is_floating_point_v<S>) {
      if (s != s) throw_nologicalnan();
    }
    return s != 0;
  } else {
    return static_cast<W>(s);
  }
}

/// A read-only view of a tensor's elements in work type W (converted copy when needed).
template <class W> struct Operand {
  const W* p = nullptr;
  std::unique_ptr<W[]> buf;
};

template <class W> Operand<W> as_work(const Tensor& t) {
  Operand<W> o;
  if (is_native<W>(t)) {
    o.p = t.data<W>();
    return o;
  }
  const int64_t n = t.numel();
  o.buf.reset(new W[n > 0 ? n : 1]);
  W* dst = o.buf.get();
  dispatch_class(t.cls(), [&](auto tag) {
    using S = decltype(tag);
    if constexpr (std::is_floating_point_v<S>) {
      if (t.is_complex()) {
        const std::complex<S>* src = t.data<std::complex<S>>();
        for (int64_t i = 0; i < n; ++i) dst[i] = convert_elem<W>(src[i]);
        return;
      }
    }
    MF_ASSERT(!t.is_complex(), "complex arrays of integer classes are not supported");
    const S* src = t.data<S>();
    for (int64_t i = 0; i < n; ++i) dst[i] = convert_elem<W>(src[i]);
  });
  o.p = dst;
  return o;
}

// ---- results ----------------------------------------------------------------------------------

template <class R> constexpr bool has_tensor_type =
    std::is_same_v<R, double> || std::is_same_v<R, float> || std::is_same_v<R, bool> ||
    std::is_same_v<R, std::complex<double>> || std::is_same_v<R, std::complex<float>>;

template <class R> Tensor alloc_for(const Dims& d) {
  if constexpr (std::is_same_v<R, double>) return Tensor::uninit(ClassId::Double, d);
  else if constexpr (std::is_same_v<R, float>) return Tensor::uninit(ClassId::Single, d);
  else if constexpr (std::is_same_v<R, bool>) return Tensor::uninit(ClassId::Logical, d);
  else if constexpr (std::is_same_v<R, std::complex<double>>) return Tensor::uninit(ClassId::Double, d, true);
  else return Tensor::uninit(ClassId::Single, d, true);
}

template <class I> constexpr bool is_int_elem =
    std::is_integral_v<I> && !std::is_same_v<I, bool> && !std::is_same_v<I, char16_t>;

/// Allocates the result and lets fill(R*) write numel elements. With an integer final class the
/// values are written to a temporary and rounded/saturated into the integer array.
template <class R, class Fill> Tensor produce(ClassId final_cls, const Dims& d, Fill&& fill) {
  if (is_integer_class(final_cls)) {
    if constexpr (RealFloat<R>) {
      const int64_t n = d.numel();
      std::unique_ptr<R[]> tmp(new R[n > 0 ? n : 1]);
      fill(tmp.get());
      Tensor t = Tensor::uninit(final_cls, d);
      dispatch_class(final_cls, [&](auto tag) {
        using I = decltype(tag);
        if constexpr (is_int_elem<I>) {
          I* o = t.mutable_data<I>();
          for (int64_t i = 0; i < n; ++i) o[i] = saturate_round<I>(tmp[i]);
        }
      });
      return t;
    } else {
      MF_ASSERT(false, "integer result from a non-real work type");
    }
  }
  if constexpr (has_tensor_type<R>) {
    Tensor t = alloc_for<R>(d);
    if (d.numel() > 0) fill(t.mutable_data<R>());
    return t;
  } else {
    MF_ASSERT(false, "result type without a tensor class");
    return Tensor();
  }
}

// ---- errors -----------------------------------------------------------------------------------

[[noreturn]] void throw_undefined(OpId op, const Tensor& a) {
  std::string name(op_name(op));
  throw_error("MATLAB:UndefinedFunction", "Undefined function '%s' for input arguments of type '%s'.",
              name.c_str(), std::string(class_name(a.cls())).c_str());
}

[[noreturn]] void throw_real_required(OpId op) {
  throw_error("MATLAB:realInputsRequired", "Inputs to '%s' must be real.", std::string(op_name(op)).c_str());
}

[[noreturn]] void throw_complex_int(OpId op) {
  throw_error("matfuse:notAvailable", "Complex integer arithmetic is not supported ('%s').",
              std::string(op_name(op)).c_str());
}

/// Calls f(scalar::Id{}) for op: the single switch of a call.
template <class F> Tensor with_op(OpId op, F&& f) {
  switch (op) {
#define MF_OP(id, ...) \
  case OpId::id: return f(scalar::id{});
#include "runtime/ops.def"
#undef MF_OP
  }
  MF_ASSERT(false, "unknown op");
  return Tensor();
}

// ---- binary ---------------------------------------------------------------------------------

template <class Op, class W>
Tensor binary_w(OpId op, const Tensor& a, const Tensor& b, const Dims& out, ClassId final_cls) {
  if constexpr (!requires(W x) { Op::apply(x, x); }) {
    throw_undefined(op, a);
  } else {
    Operand<W> A = as_work<W>(a);
    Operand<W> B = as_work<W>(b);
    const W* pa = A.p;
    const W* pb = B.p;
    if constexpr (RealFloat<W> && requires(W x) { Op::real_ok(x, x); }) {
      bool ok = true;
      for_each_broadcast(a.dims(), b.dims(), out, [&](int64_t, int64_t ia, int64_t ib) {
        ok &= Op::real_ok(pa[ia], pb[ib]);
      });
      if (!ok) {
        if (is_integer_class(final_cls)) throw_complex_int(op);
        if constexpr (!std::is_same_v<W, long double>)
          return binary_w<Op, std::complex<W>>(op, a, b, out, final_cls);
      }
    }
    using R = decltype(Op::apply(W{}, W{}));
    Tensor r = produce<R>(final_cls, out, [&](R* o) {
      for_each_broadcast(a.dims(), b.dims(), out, [&](int64_t i, int64_t ia, int64_t ib) {
        o[i] = Op::apply(pa[ia], pb[ib]);
      });
    });
    if constexpr (ComplexFloat<R>) return r.drop_zero_imag();
    return r;
  }
}

Tensor arith_binary(OpId op, const Tensor& a, const Tensor& b, const Dims& out) {
  const ClassId rc = class_of_binary(a.cls(), b.cls());
  const bool cplx = a.is_complex() || b.is_complex();
  if (is_integer_class(rc) && !op_has(op, kIntOk))
    throw_undefined(op, is_integer_class(a.cls()) ? a : b);
  if (cplx && !op_has(op, kComplexOk)) throw_real_required(op);
  if (cplx && is_integer_class(rc)) throw_complex_int(op);
  return with_op(op, [&](auto opv) -> Tensor {
    using Op = decltype(opv);
    if (cplx) {
      if (rc == ClassId::Single) return binary_w<Op, std::complex<float>>(op, a, b, out, rc);
      return binary_w<Op, std::complex<double>>(op, a, b, out, rc);
    }
    if (rc == ClassId::Single) return binary_w<Op, float>(op, a, b, out, rc);
    if (rc == ClassId::Int64 || rc == ClassId::UInt64)
      return binary_w<Op, long double>(op, a, b, out, rc);
    return binary_w<Op, double>(op, a, b, out, rc);
  });
}

bool is_64bit_int(ClassId c) { return c == ClassId::Int64 || c == ClassId::UInt64; }

Tensor compare_binary(OpId op, const Tensor& a, const Tensor& b, const Dims& out) {
  return with_op(op, [&](auto opv) -> Tensor {
    using Op = decltype(opv);
    if (a.is_complex() || b.is_complex())
      return binary_w<Op, std::complex<double>>(op, a, b, out, ClassId::Logical);
    if (is_64bit_int(a.cls()) || is_64bit_int(b.cls()))
      return binary_w<Op, long double>(op, a, b, out, ClassId::Logical);
    if (a.cls() == ClassId::Single && b.cls() == ClassId::Single)
      return binary_w<Op, float>(op, a, b, out, ClassId::Logical);
    return binary_w<Op, double>(op, a, b, out, ClassId::Logical);
  });
}

Tensor logical_binary(OpId op, const Tensor& a, const Tensor& b, const Dims& out) {
  return with_op(op, [&](auto opv) -> Tensor {
    return binary_w<decltype(opv), bool>(op, a, b, out, ClassId::Logical);
  });
}

// ---- unary ------------------------------------------------------------------------------------

template <class Op, class W> Tensor unary_w(OpId op, const Tensor& a, ClassId final_cls) {
  if constexpr (!requires(W x) { Op::apply(x); }) {
    throw_undefined(op, a);
  } else {
    Operand<W> A = as_work<W>(a);
    const W* pa = A.p;
    const int64_t n = a.numel();
    if constexpr (RealFloat<W> && !std::is_same_v<W, long double> &&
                  requires(W x) { Op::real_ok(x); }) {
      bool ok = true;
      for (int64_t i = 0; i < n; ++i) ok &= Op::real_ok(pa[i]);
      if (!ok) {
        if (is_integer_class(final_cls)) throw_complex_int(op);
        using C = std::complex<W>;
        Tensor r = produce<C>(final_cls, a.dims(), [&](C* o) {
          for (int64_t i = 0; i < n; ++i) {
            if constexpr (requires(W x) { Op::promote(x); })
              o[i] = Op::apply(Op::promote(pa[i]));
            else
              o[i] = Op::apply(C(pa[i], 0));
          }
        });
        return r.drop_zero_imag();
      }
    }
    using R = decltype(Op::apply(W{}));
    Tensor r = produce<R>(final_cls, a.dims(), [&](R* o) {
      for (int64_t i = 0; i < n; ++i) o[i] = Op::apply(pa[i]);
    });
    if constexpr (ComplexFloat<R>) return r.drop_zero_imag();
    return r;
  }
}

Tensor predicate_unary(OpId op, const Tensor& a) {
  const ClassId c = a.cls();
  if (!is_float_class(c)) {
    // Integers, char and logical are always finite.
    Tensor r = Tensor::uninit(ClassId::Logical, a.dims());
    bool v = op == OpId::IsFinite;
    bool* o = r.mutable_data<bool>();
    for (int64_t i = 0; i < a.numel(); ++i) o[i] = v;
    return r;
  }
  return with_op(op, [&](auto opv) -> Tensor {
    using Op = decltype(opv);
    if (a.is_complex()) {
      if (c == ClassId::Single) return unary_w<Op, std::complex<float>>(op, a, ClassId::Logical);
      return unary_w<Op, std::complex<double>>(op, a, ClassId::Logical);
    }
    if (c == ClassId::Single) return unary_w<Op, float>(op, a, ClassId::Logical);
    return unary_w<Op, double>(op, a, ClassId::Logical);
  });
}

}  // namespace

Tensor apply_binary(OpId op, const Tensor& a, const Tensor& b) {
  MF_ASSERT(op_arity(op) == 2, "apply_binary needs a binary op");
  switch (op_category(op)) {
    case OpCategory::Compare: {
      Dims out = broadcast_dims(a.dims(), b.dims());
      return compare_binary(op, a, b, out);
    }
    case OpCategory::Logical: {
      Dims out = broadcast_dims(a.dims(), b.dims());
      return logical_binary(op, a, b, out);
    }
    default: {
      // Class errors come before size errors, as in MATLAB.
      (void)class_of_binary(a.cls(), b.cls());
      Dims out = broadcast_dims(a.dims(), b.dims());
      return arith_binary(op, a, b, out);
    }
  }
}

Tensor apply_unary(OpId op, const Tensor& a) {
  MF_ASSERT(op_arity(op) == 1, "apply_unary needs a unary op");
  const OpCategory cat = op_category(op);
  if (cat == OpCategory::Predicate) return predicate_unary(op, a);
  if (cat == OpCategory::Logical) {
    return with_op(op, [&](auto opv) -> Tensor {
      return unary_w<decltype(opv), bool>(op, a, ClassId::Logical);
    });
  }
  const ClassId in = a.cls();
  const ClassId rc = (in == ClassId::Logical || in == ClassId::Char) ? ClassId::Double : in;
  if (is_integer_class(rc) && !op_has(op, kIntOk)) throw_undefined(op, a);
  if (a.is_complex() && is_integer_class(rc)) throw_complex_int(op);
  return with_op(op, [&](auto opv) -> Tensor {
    using Op = decltype(opv);
    if (a.is_complex()) {
      if (rc == ClassId::Single) return unary_w<Op, std::complex<float>>(op, a, rc);
      return unary_w<Op, std::complex<double>>(op, a, rc);
    }
    if (rc == ClassId::Single) return unary_w<Op, float>(op, a, rc);
    if (is_64bit_int(rc)) return unary_w<Op, long double>(op, a, rc);
    return unary_w<Op, double>(op, a, rc);
  });
}

}  // namespace matfuse
