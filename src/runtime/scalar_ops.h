// Scalar semantics of every op in runtime/ops.def: one functor per op, named like its OpId
// (scalar::Add for OpId::Add). The eager engine (runtime/elementwise.cc) applies them in
// broadcasting loops; the fused host provider reuses them and the CUDA code generator mirrors
// them, so they stay plain: inline, no allocation, no std::function.
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
// Float (single) overloads of the transcendental ops (sin ... pow, atan2, hypot) use the shared
// text runtime/mf_math.inc, which the CUDA prelude embeds too: single results are the same bits
// on the host and on the GPU and within 1 ulp of the correctly rounded value. Double overloads
// use the C library (CUDA's libdevice on the GPU: within 2 ulp of each other, not bitwise).
#pragma once

#include <cmath>
#include <complex>
#include <cstdint>
#include <limits>
#include <numbers>
#include <type_traits>

#include "runtime/mf_math.inc"

namespace matfuse {

template <class T> inline constexpr bool is_complex_v = false;
template <class R> inline constexpr bool is_complex_v<std::complex<R>> = true;

template <class T> concept RealFloat = std::is_floating_point_v<T>;
template <class T> concept ComplexFloat = is_complex_v<T>;
template <class T> concept NumFloat = RealFloat<T> || ComplexFloat<T>;

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

// ---- arithmetic ---------------------------------------------------------------------------
struct Add { template <NumFloat T> static T apply(T a, T b) { return a + b; } };
struct Sub { template <NumFloat T> static T apply(T a, T b) { return a - b; } };
struct Mul { template <NumFloat T> static T apply(T a, T b) { return a * b; } };
struct Div { template <NumFloat T> static T apply(T a, T b) { return a / b; } };
/// a .\ b == b ./ a (operand order as written).
struct LDiv { template <NumFloat T> static T apply(T a, T b) { return b / a; } };

struct Pow {
  /// Real power; exponent 2 is a*a (MATLAB's x.^2): the correctly rounded square, where glibc's
  /// pow is off by one ulp for about 0.06% of doubles and for ties among subnormal floats.
  template <RealFloat T> static T apply(T a, T b) {
    if constexpr (std::is_same_v<T, float>) return b == 2.0f ? a * a : mf_powf(a, b);
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
    return !(a < 0 && std::isfinite(b) && b != std::floor(b));
  }
};

/// mod(a, m): a - floor(a/m)*m with the sign of m; mod(a, 0) == a; infinite m gives NaN.
struct Mod {
  template <RealFloat T> static T apply(T a, T m) {
    if (m == 0) return a;
    if (std::isinf(m) || !std::isfinite(a)) return std::numeric_limits<T>::quiet_NaN();
    T r = std::fmod(a, m);  // exact
    if (r != 0 && ((r < 0) != (m < 0))) r += m;
    return r == 0 ? T(0) : r;
  }
};
/// rem(a, m): a - fix(a/m)*m with the sign of a; rem(a, 0) is NaN; infinite m gives NaN.
struct Rem {
  template <RealFloat T> static T apply(T a, T m) {
    if (std::isinf(m)) return std::numeric_limits<T>::quiet_NaN();
    return std::fmod(a, m);
  }
};
struct Atan2 {
  template <RealFloat T> static T apply(T y, T x) {
    if constexpr (std::is_same_v<T, float>) return mf_atan2f(y, x);
    else return std::atan2(y, x);
  }
};
struct Hypot {
  template <RealFloat T> static T apply(T a, T b) {
    if constexpr (std::is_same_v<T, float>) return mf_hypotf(a, b);
    else return std::hypot(a, b);
  }
};
struct Max { template <RealFloat T> static T apply(T a, T b) { return mf_max(a, b); } };
struct Min { template <RealFloat T> static T apply(T a, T b) { return mf_min(a, b); } };

struct Neg { template <NumFloat T> static T apply(T a) { return -a; } };
struct UPlus { template <NumFloat T> static T apply(T a) { return a; } };

// ---- comparisons: == and ~= compare both parts of complex values, ordering the real parts ----
struct Eq { template <NumFloat T> static bool apply(T a, T b) { return a == b; } };
struct Ne { template <NumFloat T> static bool apply(T a, T b) { return a != b; } };
struct Lt {
  template <RealFloat T> static bool apply(T a, T b) { return a < b; }
  template <ComplexFloat T> static bool apply(T a, T b) { return a.real() < b.real(); }
};
struct Le {
  template <RealFloat T> static bool apply(T a, T b) { return a <= b; }
  template <ComplexFloat T> static bool apply(T a, T b) { return a.real() <= b.real(); }
};
struct Gt {
  template <RealFloat T> static bool apply(T a, T b) { return a > b; }
  template <ComplexFloat T> static bool apply(T a, T b) { return a.real() > b.real(); }
};
struct Ge {
  template <RealFloat T> static bool apply(T a, T b) { return a >= b; }
  template <ComplexFloat T> static bool apply(T a, T b) { return a.real() >= b.real(); }
};

// ---- logical (operands already converted to bool) ----------------------------------------
struct And { static bool apply(bool a, bool b) { return a && b; } };
struct Or { static bool apply(bool a, bool b) { return a || b; } };
struct Xor { static bool apply(bool a, bool b) { return a != b; } };
struct Not { static bool apply(bool a) { return !a; } };

// ---- elementary math ----------------------------------------------------------------------
#define MF_SCALAR_STD_UNARY(Name, fn) \
  struct Name { template <NumFloat T> static T apply(T a) { return std::fn(a); } };
/// Float through mf_math.inc (same bits as the GPU), other types through std::.
#define MF_SCALAR_MF_UNARY(Name, fn, mf)                               \
  struct Name {                                                        \
    template <NumFloat T> static T apply(T a) {                        \
      if constexpr (std::is_same_v<T, float>) return mf(a);            \
      else return std::fn(a);                                          \
    }                                                                  \
  };
MF_SCALAR_MF_UNARY(Sin, sin, mf_sinf)
MF_SCALAR_MF_UNARY(Cos, cos, mf_cosf)
MF_SCALAR_MF_UNARY(Tan, tan, mf_tanf)
MF_SCALAR_MF_UNARY(Atan, atan, mf_atanf)
MF_SCALAR_MF_UNARY(Sinh, sinh, mf_sinhf)
MF_SCALAR_MF_UNARY(Cosh, cosh, mf_coshf)
MF_SCALAR_MF_UNARY(Tanh, tanh, mf_tanhf)
MF_SCALAR_STD_UNARY(Asinh, asinh)
MF_SCALAR_MF_UNARY(Exp, exp, mf_expf)
#undef MF_SCALAR_STD_UNARY
#undef MF_SCALAR_MF_UNARY

/// Real x outside [-1, 1] becomes complex on MATLAB's side of the branch cut: x > 1 is taken
/// from below the axis, so asin(2) = pi/2 - 1.3170i and acos(2) = 0 + 1.3170i.
template <RealFloat T> inline std::complex<T> promote_unit_cut(T x) {
  return std::complex<T>(x, x > 1 ? -T(0) : T(0));
}

struct Asin {
  template <NumFloat T> static T apply(T a) {
    if constexpr (std::is_same_v<T, float>) return mf_asinf(a);
    else return std::asin(a);
  }
  template <RealFloat T> static bool real_ok(T a) { return !(a < -1 || a > 1); }
  template <RealFloat T> static std::complex<T> promote(T a) { return promote_unit_cut(a); }
};
struct Acos {
  template <NumFloat T> static T apply(T a) {
    if constexpr (std::is_same_v<T, float>) return mf_acosf(a);
    else return std::acos(a);
  }
  template <RealFloat T> static bool real_ok(T a) { return !(a < -1 || a > 1); }
  template <RealFloat T> static std::complex<T> promote(T a) { return promote_unit_cut(a); }
};
struct Acosh {
  template <NumFloat T> static T apply(T a) { return std::acosh(a); }
  template <RealFloat T> static bool real_ok(T a) { return !(a < 1); }
};
struct Atanh {
  template <NumFloat T> static T apply(T a) { return std::atanh(a); }
  template <RealFloat T> static bool real_ok(T a) { return !(a < -1 || a > 1); }
};
struct Log {
  template <NumFloat T> static T apply(T a) {
    if constexpr (std::is_same_v<T, float>) return mf_logf(a);
    else return std::log(a);
  }
  template <RealFloat T> static bool real_ok(T a) { return !(a < 0); }
};
struct Log2 {
  template <RealFloat T> static T apply(T a) {
    if constexpr (std::is_same_v<T, float>) return mf_log2f(a);
    else return std::log2(a);
  }
  template <ComplexFloat T> static T apply(T a) {
    using R = typename T::value_type;
    return std::log(a) / std::numbers::ln2_v<R>;
  }
  template <RealFloat T> static bool real_ok(T a) { return !(a < 0); }
};
struct Log10 {
  template <NumFloat T> static T apply(T a) {
    if constexpr (std::is_same_v<T, float>) return mf_log10f(a);
    else return std::log10(a);
  }
  template <RealFloat T> static bool real_ok(T a) { return !(a < 0); }
};
struct Log1p {
  template <RealFloat T> static T apply(T a) {
    if constexpr (std::is_same_v<T, float>) return mf_log1pf(a);
    else return std::log1p(a);
  }
  template <ComplexFloat T> static T apply(T a) { return std::log(T(1) + a); }
  template <RealFloat T> static bool real_ok(T a) { return !(a < -1); }
};
struct Expm1 {
  template <RealFloat T> static T apply(T a) {
    if constexpr (std::is_same_v<T, float>) return mf_expm1f(a);
    else return std::expm1(a);
  }
  template <ComplexFloat T> static T apply(T a) { return std::exp(a) - T(1); }
};
struct Sqrt {
  template <NumFloat T> static T apply(T a) { return std::sqrt(a); }
  template <RealFloat T> static bool real_ok(T a) { return !(a < 0); }
};

struct Abs {
  template <RealFloat T> static T apply(T a) { return std::fabs(a); }
  template <ComplexFloat T> static typename T::value_type apply(T a) { return std::abs(a); }
};
/// sign: -1, 0 or 1 (NaN stays NaN); complex z/abs(z), 0 for 0.
struct Sign {
  template <RealFloat T> static T apply(T a) { return a > 0 ? T(1) : a < 0 ? T(-1) : a; }
  template <ComplexFloat T> static T apply(T a) {
    return a == T(0) ? T(0) : a / std::abs(a);
  }
};
struct Real {
  template <RealFloat T> static T apply(T a) { return a; }
  template <ComplexFloat T> static typename T::value_type apply(T a) { return a.real(); }
};
struct Imag {
  template <RealFloat T> static T apply(T) { return T(0); }
  template <ComplexFloat T> static typename T::value_type apply(T a) { return a.imag(); }
};
struct Conj {
  template <RealFloat T> static T apply(T a) { return a; }
  template <ComplexFloat T> static T apply(T a) { return T(a.real(), -a.imag()); }
};
struct Angle {
  template <RealFloat T> static T apply(T a) { return std::atan2(T(0), a); }
  template <ComplexFloat T> static typename T::value_type apply(T a) { return std::arg(a); }
};

// ---- rounding (round: half away from zero) ------------------------------------------------
#define MF_SCALAR_ROUNDING(Name, fn)                                                   \
  struct Name {                                                                        \
    template <RealFloat T> static T apply(T a) { return std::fn(a); }                  \
    template <ComplexFloat T> static T apply(T a) {                                    \
      return T(std::fn(a.real()), std::fn(a.imag()));                                  \
    }                                                                                  \
  };
MF_SCALAR_ROUNDING(Floor, floor)
MF_SCALAR_ROUNDING(Ceil, ceil)
MF_SCALAR_ROUNDING(Round, round)
MF_SCALAR_ROUNDING(Fix, trunc)
#undef MF_SCALAR_ROUNDING

// ---- predicates ---------------------------------------------------------------------------
struct IsNaN {
  template <RealFloat T> static bool apply(T a) { return a != a; }
  template <ComplexFloat T> static bool apply(T a) { return a.real() != a.real() || a.imag() != a.imag(); }
};
struct IsInf {
  template <RealFloat T> static bool apply(T a) { return std::isinf(a); }
  template <ComplexFloat T> static bool apply(T a) { return std::isinf(a.real()) || std::isinf(a.imag()); }
};
struct IsFinite {
  template <RealFloat T> static bool apply(T a) { return std::isfinite(a); }
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
