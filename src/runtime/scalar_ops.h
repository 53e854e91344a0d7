// Scalar semantics of every op in runtime/ops.def: one functor per op, named like its OpId
// (scalar::Add for OpId::Add). The eager engine (runtime/elementwise.cc) applies them in
// broadcasting loops; the fused host provider reuses them and the CUDA prelude compiles the same
// real bodies (runtime/scalar_ops.inc), so they stay plain: inline, no allocation, no
// std::function.
//
// Element types T: float, double, long double (work type of int64/uint64 arithmetic),
// std::complex<float>, std::complex<double>, and bool for logical ops. A functor has
//   static R apply(T a[, T b])   for every T it supports (absent overloads = unsupported);
//   static bool real_ok(T a[, T b])   (kRealToComplex ops) whether the real result exists;
//   static std::complex<T> promote(T x) (optional) how a real input becomes complex when it
//                                       is outside the real domain (branch-cut side).
// Integer classes are computed in a floating work type, then rounded half away from zero and
// saturated (saturate_round), which gives MATLAB's int32(7)/int32(2) == 4 and
// int8(100)+int8(100) == 127.
//
// The real bodies (float and double) are written once, in runtime/scalar_ops.inc, a text the
// CUDA device prelude embeds too (the generated kernels call the same mf_<Op> functions): the
// functors call them for float and double and keep only the complex, long double and bool paths
// here. Float overloads of the transcendental ops (sin ... pow, atan2, hypot) use the shared
// text runtime/mf_math.inc: single results are the same bits on the host and on the GPU and
// within 1 ulp of the correctly rounded value. Double overloads use the C library (CUDA's
// libdevice on the GPU: within 2 ulp of each other, not bitwise).
#pragma once

#include <math.h>

#include <cmath>
#include <complex>
#include <cstdint>
#include <limits>
#include <numbers>
#include <type_traits>

#include "runtime/mf_math.inc"
#include "runtime/scalar_ops.inc"

namespace matfuse {

template <class T> inline constexpr bool is_complex_v = false;
template <class R> inline constexpr bool is_complex_v<std::complex<R>> = true;

template <class T> concept RealFloat = std::is_floating_point_v<T>;
template <class T> concept ComplexFloat = is_complex_v<T>;
template <class T> concept NumFloat = RealFloat<T> || ComplexFloat<T>;
/// float or double: the types whose real op bodies are runtime/scalar_ops.inc's mf_<Op>.
template <class T>
inline constexpr bool shared_real_v = std::is_same_v<T, float> || std::is_same_v<T, double>;

/// NaN-ignoring maximum (MATLAB max): NaN only when both are NaN; ties keep a.
template <RealFloat T> inline T mf_max(T a, T b) {
  if (a != a) return b;
  if (b != b) return a;
  return b > a ? b : a;
}
/// NaN-ignoring minimum (MATLAB min).
template <RealFloat T> inline T mf_min(T a, T b) {
  if (a != a) return b;
  if (b != b) return a;
  return b < a ? b : a;
}

/// Work type for integer class I: double for up to 32 bits, long double (64-bit mantissa, exact
/// for every int64/uint64 value) for 64-bit classes.
template <class I>
using int_work_t = std::conditional_t<(sizeof(I) >= 8), long double, double>;

/// Rounds half away from zero and saturates to integer type I; NaN gives 0.
template <class I, RealFloat W> inline I saturate_round(W v) {
  if (v != v) return I(0);
  W r = std::round(v);
  constexpr W lo = static_cast<W>(std::numeric_limits<I>::min());
  constexpr W hi = static_cast<W>(std::numeric_limits<I>::max());
  if (r <= lo) return std::numeric_limits<I>::min();
  if (r >= hi) return std::numeric_limits<I>::max();
  return static_cast<I>(r);
}

namespace scalar {

// Each functor computes float and double through runtime/scalar_ops.inc (::mf_<Op>, the very
// functions of the CUDA prelude); the other branches are the long double, complex and bool paths.

// ---- arithmetic ---------------------------------------------------------------------------
#define MF_SCALAR_ARITH(Name, expr)                                 \
  struct Name {                                                     \
    template <NumFloat T> static T apply(T a, T b) {                \
      if constexpr (shared_real_v<T>) return ::mf_##Name(a, b);     \
      else return expr;                                             \
    }                                                               \
  };
MF_SCALAR_ARITH(Add, a + b)
MF_SCALAR_ARITH(Sub, a - b)
MF_SCALAR_ARITH(Mul, a * b)
MF_SCALAR_ARITH(Div, a / b)
/// a .\ b == b ./ a (operand order as written).
MF_SCALAR_ARITH(LDiv, b / a)
#undef MF_SCALAR_ARITH

struct Pow {
  /// Real power; exponent 2 is a*a (MATLAB's x.^2): the correctly rounded square, where glibc's
  /// pow is off by one ulp for about 0.06% of doubles and for ties among subnormal floats.
  template <RealFloat T> static T apply(T a, T b) {
    if constexpr (shared_real_v<T>) return ::mf_Pow(a, b);
    else return b == T(2) ? a * a : std::pow(a, b);
  }
  /// Complex power; integer exponents use repeated squaring so that (1i)^2 is exactly -1.
  template <ComplexFloat T> static T apply(T a, T b) {
    using R = typename T::value_type;
    if (b.imag() == 0 && std::abs(b.real()) <= R(1024) && b.real() == std::floor(b.real())) {
      long n = static_cast<long>(b.real());
      bool inv = n < 0;
      unsigned long k = inv ? static_cast<unsigned long>(-n) : static_cast<unsigned long>(n);
      T result(1, 0), base = a;
      while (k) {
        if (k & 1) result *= base;
        base *= base;
        k >>= 1;
      }
      return inv ? T(1, 0) / result : result;
    }
    if (a == T(0, 0)) {
      if (b.real() > 0) return T(0, 0);
    }
    return std::pow(a, b);
  }
  /// Real result exists unless a negative base meets a finite non-integer exponent.
  template <RealFloat T> static bool real_ok(T a, T b) {
    if constexpr (shared_real_v<T>) return ::mf_ok_Pow(a, b);
    else return !(a < 0 && std::isfinite(b) && b != std::floor(b));
  }
};

/// mod(a, m): a - floor(a/m)*m with the sign of m; mod(a, 0) == a; infinite m gives NaN.
struct Mod {
  template <RealFloat T> static T apply(T a, T m) {
    if constexpr (shared_real_v<T>) {
      return ::mf_Mod(a, m);
    } else {
      if (m == 0) return a;
      if (std::isinf(m) || !std::isfinite(a)) return std::numeric_limits<T>::quiet_NaN();
      T r = std::fmod(a, m);  // exact
      if (r != 0 && ((r < 0) != (m < 0))) r += m;
      return r == 0 ? T(0) : r;
    }
  }
};
/// rem(a, m): a - fix(a/m)*m with the sign of a; rem(a, 0) is NaN; infinite m gives NaN.
struct Rem {
  template <RealFloat T> static T apply(T a, T m) {
    if constexpr (shared_real_v<T>) return ::mf_Rem(a, m);
    else return std::isinf(m) ? std::numeric_limits<T>::quiet_NaN() : std::fmod(a, m);
  }
};
/// Real binary ops: float and double through scalar_ops.inc, long double through std::.
#define MF_SCALAR_REAL_BINARY(Name, expr)                           \
  struct Name {                                                     \
    template <RealFloat T> static T apply(T a, T b) {               \
      if constexpr (shared_real_v<T>) return ::mf_##Name(a, b);     \
      else return expr;                                             \
    }                                                               \
  };
MF_SCALAR_REAL_BINARY(Atan2, std::atan2(a, b))
MF_SCALAR_REAL_BINARY(Hypot, std::hypot(a, b))
MF_SCALAR_REAL_BINARY(Max, mf_max(a, b))
MF_SCALAR_REAL_BINARY(Min, mf_min(a, b))
#undef MF_SCALAR_REAL_BINARY

#define MF_SCALAR_NUM_UNARY(Name, expr)                             \
  struct Name {                                                     \
    template <NumFloat T> static T apply(T a) {                     \
      if constexpr (shared_real_v<T>) return ::mf_##Name(a);        \
      else return expr;                                             \
    }                                                               \
  };
MF_SCALAR_NUM_UNARY(Neg, -a)
MF_SCALAR_NUM_UNARY(UPlus, a)

// ---- comparisons: == and ~= compare both parts of complex values, ordering the real parts ----
#define MF_SCALAR_EQUALITY(Name, expr)                              \
  struct Name {                                                     \
    template <NumFloat T> static bool apply(T a, T b) {             \
      if constexpr (shared_real_v<T>) return ::mf_##Name(a, b);     \
      else return expr;                                             \
    }                                                               \
  };
MF_SCALAR_EQUALITY(Eq, a == b)
MF_SCALAR_EQUALITY(Ne, a != b)
#undef MF_SCALAR_EQUALITY
#define MF_SCALAR_ORDER(Name, op)                                                         \
  struct Name {                                                                           \
    template <RealFloat T> static bool apply(T a, T b) {                                  \
      if constexpr (shared_real_v<T>) return ::mf_##Name(a, b);                           \
      else return a op b;                                                                 \
    }                                                                                     \
    template <ComplexFloat T> static bool apply(T a, T b) { return a.real() op b.real(); } \
  };
MF_SCALAR_ORDER(Lt, <)
MF_SCALAR_ORDER(Le, <=)
MF_SCALAR_ORDER(Gt, >)
MF_SCALAR_ORDER(Ge, >=)
#undef MF_SCALAR_ORDER

// ---- logical (operands already converted to bool) ----------------------------------------
struct And { static bool apply(bool a, bool b) { return ::mf_And(a, b); } };
struct Or { static bool apply(bool a, bool b) { return ::mf_Or(a, b); } };
struct Xor { static bool apply(bool a, bool b) { return ::mf_Xor(a, b); } };
struct Not { static bool apply(bool a) { return ::mf_Not(a); } };

// ---- elementary math ----------------------------------------------------------------------
/// Float and double through scalar_ops.inc (float: mf_math.inc where it has the function, the
/// same bits as the GPU), long double and complex through std::.
#define MF_SCALAR_STD_UNARY(Name, fn) MF_SCALAR_NUM_UNARY(Name, std::fn(a))
MF_SCALAR_STD_UNARY(Sin, sin)
MF_SCALAR_STD_UNARY(Cos, cos)
MF_SCALAR_STD_UNARY(Tan, tan)
MF_SCALAR_STD_UNARY(Atan, atan)
MF_SCALAR_STD_UNARY(Sinh, sinh)
MF_SCALAR_STD_UNARY(Cosh, cosh)
MF_SCALAR_STD_UNARY(Tanh, tanh)
MF_SCALAR_STD_UNARY(Asinh, asinh)
MF_SCALAR_STD_UNARY(Exp, exp)
#undef MF_SCALAR_STD_UNARY
#undef MF_SCALAR_NUM_UNARY

/// The real-domain check of a kRealToComplex op: float and double through scalar_ops.inc's
/// mf_ok_<Op>, long double by `expr`.
#define MF_SCALAR_REAL_OK(Name, expr)                               \
  template <RealFloat T> static bool real_ok(T a) {                 \
    if constexpr (shared_real_v<T>) return ::mf_ok_##Name(a);       \
    else return expr;                                               \
  }
/// A unary op whose every type goes through std::fn except float and double.
#define MF_SCALAR_APPLY(Name, fn)                                   \
  template <NumFloat T> static T apply(T a) {                       \
    if constexpr (shared_real_v<T>) return ::mf_##Name(a);          \
    else return std::fn(a);                                         \
  }
/// The same for the real types only (complex has its own overload).
#define MF_SCALAR_REAL_APPLY(Name, fn)                              \
  template <RealFloat T> static T apply(T a) {                      \
    if constexpr (shared_real_v<T>) return ::mf_##Name(a);          \
    else return std::fn(a);                                         \
  }

/// Real x outside [-1, 1] becomes complex on MATLAB's side of the branch cut: x > 1 is taken
/// from below the axis, so asin(2) = pi/2 - 1.3170i and acos(2) = 0 + 1.3170i.
template <RealFloat T> inline std::complex<T> promote_unit_cut(T x) {
  return std::complex<T>(x, x > 1 ? -T(0) : T(0));
}

struct Asin {
  MF_SCALAR_APPLY(Asin, asin)
  MF_SCALAR_REAL_OK(Asin, !(a < -1 || a > 1))
  template <RealFloat T> static std::complex<T> promote(T a) { return promote_unit_cut(a); }
};
struct Acos {
  MF_SCALAR_APPLY(Acos, acos)
  MF_SCALAR_REAL_OK(Acos, !(a < -1 || a > 1))
  template <RealFloat T> static std::complex<T> promote(T a) { return promote_unit_cut(a); }
};
struct Acosh {
  MF_SCALAR_APPLY(Acosh, acosh)
  MF_SCALAR_REAL_OK(Acosh, !(a < 1))
};
struct Atanh {
  MF_SCALAR_APPLY(Atanh, atanh)
  MF_SCALAR_REAL_OK(Atanh, !(a < -1 || a > 1))
};
struct Log {
  MF_SCALAR_APPLY(Log, log)
  MF_SCALAR_REAL_OK(Log, !(a < 0))
};
struct Log2 {
  MF_SCALAR_REAL_APPLY(Log2, log2)
  template <ComplexFloat T> static T apply(T a) {
    using R = typename T::value_type;
    return std::log(a) / std::numbers::ln2_v<R>;
  }
  MF_SCALAR_REAL_OK(Log2, !(a < 0))
};
struct Log10 {
  MF_SCALAR_APPLY(Log10, log10)
  MF_SCALAR_REAL_OK(Log10, !(a < 0))
};
struct Log1p {
  MF_SCALAR_REAL_APPLY(Log1p, log1p)
  template <ComplexFloat T> static T apply(T a) { return std::log(T(1) + a); }
  MF_SCALAR_REAL_OK(Log1p, !(a < -1))
};
struct Expm1 {
  MF_SCALAR_REAL_APPLY(Expm1, expm1)
  template <ComplexFloat T> static T apply(T a) { return std::exp(a) - T(1); }
};
struct Sqrt {
  MF_SCALAR_APPLY(Sqrt, sqrt)
  MF_SCALAR_REAL_OK(Sqrt, !(a < 0))
};

struct Abs {
  MF_SCALAR_REAL_APPLY(Abs, fabs)
  template <ComplexFloat T> static typename T::value_type apply(T a) { return std::abs(a); }
};
/// sign: -1, 0 or 1 (NaN stays NaN); complex z/abs(z), 0 for 0.
struct Sign {
  template <RealFloat T> static T apply(T a) {
    if constexpr (shared_real_v<T>) return ::mf_Sign(a);
    else return a > 0 ? T(1) : a < 0 ? T(-1) : a;
  }
  template <ComplexFloat T> static T apply(T a) {
    return a == T(0) ? T(0) : a / std::abs(a);
  }
};
struct Real {
  template <RealFloat T> static T apply(T a) {
    if constexpr (shared_real_v<T>) return ::mf_Real(a);
    else return a;
  }
  template <ComplexFloat T> static typename T::value_type apply(T a) { return a.real(); }
};
struct Imag {
  template <RealFloat T> static T apply(T a) {
    if constexpr (shared_real_v<T>) return ::mf_Imag(a);
    else return T(0);
  }
  template <ComplexFloat T> static typename T::value_type apply(T a) { return a.imag(); }
};
struct Conj {
  template <RealFloat T> static T apply(T a) {
    if constexpr (shared_real_v<T>) return ::mf_Conj(a);
    else return a;
  }
  template <ComplexFloat T> static T apply(T a) { return T(a.real(), -a.imag()); }
};
struct Angle {
  template <RealFloat T> static T apply(T a) {
    if constexpr (shared_real_v<T>) return ::mf_Angle(a);
    else return std::atan2(T(0), a);
  }
  template <ComplexFloat T> static typename T::value_type apply(T a) { return std::arg(a); }
};

// ---- rounding (round: half away from zero) ------------------------------------------------
#define MF_SCALAR_ROUNDING(Name, fn)                                                   \
  struct Name {                                                                        \
    MF_SCALAR_REAL_APPLY(Name, fn)                                                     \
    template <ComplexFloat T> static T apply(T a) {                                    \
      return T(std::fn(a.real()), std::fn(a.imag()));                                  \
    }                                                                                  \
  };
MF_SCALAR_ROUNDING(Floor, floor)
MF_SCALAR_ROUNDING(Ceil, ceil)
MF_SCALAR_ROUNDING(Round, round)
MF_SCALAR_ROUNDING(Fix, trunc)
#undef MF_SCALAR_ROUNDING
#undef MF_SCALAR_APPLY
#undef MF_SCALAR_REAL_APPLY
#undef MF_SCALAR_REAL_OK

// ---- predicates ---------------------------------------------------------------------------
struct IsNaN {
  template <RealFloat T> static bool apply(T a) {
    if constexpr (shared_real_v<T>) return ::mf_IsNaN(a);
    else return a != a;
  }
  template <ComplexFloat T> static bool apply(T a) { return a.real() != a.real() || a.imag() != a.imag(); }
};
struct IsInf {
  template <RealFloat T> static bool apply(T a) {
    if constexpr (shared_real_v<T>) return ::mf_IsInf(a);
    else return std::isinf(a);
  }
  template <ComplexFloat T> static bool apply(T a) { return std::isinf(a.real()) || std::isinf(a.imag()); }
};
struct IsFinite {
  template <RealFloat T> static bool apply(T a) {
    if constexpr (shared_real_v<T>) return ::mf_IsFinite(a);
    else return std::isfinite(a);
  }
  template <ComplexFloat T> static bool apply(T a) { return std::isfinite(a.real()) && std::isfinite(a.imag()); }
};

}  // namespace scalar

/// Integer op with MATLAB semantics: computed in int_work_t<I>, rounded and saturated.
/// Example: int_apply<scalar::Div>(int32_t(7), int32_t(2)) == 4.
template <class Op, class I> inline I int_apply(I a, I b) {
  using W = int_work_t<I>;
  return saturate_round<I>(Op::apply(static_cast<W>(a), static_cast<W>(b)));
}
template <class Op, class I> inline I int_apply(I a) {
  using W = int_work_t<I>;
  return saturate_round<I>(Op::apply(static_cast<W>(a)));
}

}  // namespace matfuse
