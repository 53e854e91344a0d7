// Number theory and vector products of the "math" family: factorial nchoosek primes isprime
// gcd lcm cross dot.
//
// Integer classes are accepted where MATLAB accepts them (factorial, nchoosek, primes, isprime,
// gcd, lcm): the result keeps the class, saturating like MATLAB's integer arithmetic.
#include <cmath>
#include <limits>
#include <numeric>

#include "builtins/format.h"
#include "builtins/math_util.h"
#include "builtins/registry.h"
#include "builtins/shape_util.h"
#include "runtime/error.h"

namespace matfuse {
namespace {

using namespace mathutil;

ClassId numeric_class(const Tensor& t) {
  return (t.cls() == ClassId::Char || t.cls() == ClassId::Logical) ? ClassId::Double : t.cls();
}

Tensor real_tensor(const Value& v, const char* fname) {
  if (!v.is_tensor()) undefined_for(fname, v);
  return v.tensor();
}

/// factorial(N): prod(1:N) per element; N must hold real nonnegative integers
/// (MATLAB:factorial:NNegativeInt). Inf beyond 170 (double) / 34 (single); integer classes
/// saturate.
Outputs bi_factorial(CallContext&, Args args, int nargout) {
  check_nargin(args, 1, 1);
  check_nargout(nargout, 1);
  const Tensor n = real_tensor(args[0], "factorial");
  const ClassId cls = numeric_class(n);
  if (n.is_complex())
    throw_error("MATLAB:factorial:NNegativeInt", "N must be an array of real non-negative integers.");
  Tensor r = Tensor::uninit(ClassId::Double, n.dims());
  double* o = r.mutable_data<double>();
  for (int64_t i = 0; i < n.numel(); ++i) {
    const double v = n.get_double(i);
    if (!(v >= 0) || v != std::floor(v))
      throw_error("MATLAB:factorial:NNegativeInt", "N must be an array of real non-negative integers.");
    double p = 1;
    if (v > 170) p = std::numeric_limits<double>::infinity();
    else
      for (int k = 2; k <= static_cast<int>(v); ++k) p *= k;
    if (cls == ClassId::Single && v > 34) p = std::numeric_limits<double>::infinity();
    o[i] = p;
  }
  return {Value(cls == ClassId::Double ? r : r.to_class(cls))};
}

/// Binomial coefficient C(n, k) in double, built as a product of exact ratios
/// C(n, j) = C(n, j-1) * (n-j+1) / j with rounding at every step (exact below 2^53).
double binom(double n, double k) {
  if (k > n - k) k = n - k;
  double r = 1;
  for (double j = 1; j <= k; ++j) r = std::round(r * (n - k + j) / j);
  return r;
}

/// nchoosek(n, k): binomial coefficient for scalar n; nchoosek(v, k): the combinations of the
/// elements of vector v taken k at a time, one per row, in lexicographic order of positions
/// (any class, cells included).
Outputs bi_nchoosek(CallContext& ctx, Args args, int nargout) {
  check_nargin(args, 2, 2);
  check_nargout(nargout, 1);
  const Value& v = args[0];
  const Tensor kt = real_tensor(args[1], "nchoosek");
  if (kt.numel() != 1 || kt.is_complex() || !is_int_value(kt.get_double(0)) || kt.get_double(0) < 0)
    throw_error("MATLAB:nchoosek:InvalidArg2", "K must be an integer between 0 and N.");
  const double k = kt.get_double(0);
  if (v.numel() == 1 && v.is_tensor()) {
    const Tensor nt = v.tensor();
    const double n = nt.get_double(0);
    if (nt.is_complex() || !is_int_value(n) || n < 0)
      throw_error("MATLAB:nchoosek:InvalidArg1", "N must be a real nonnegative integer.");
    if (k > n) throw_error("MATLAB:nchoosek:InvalidArg2", "K must be an integer between 0 and N.");
    ClassId cls = class_of_binary(numeric_class(nt), numeric_class(kt));
    const double b = binom(n, k);
    if (b > 9007199254740992.0) {  // MATLAB warns when the coefficient exceeds flintmax
      Value w[3] = {char_row("MATLAB:nchoosek:LargeCoefficient"), char_row("%s"),
                    char_row("Result may not be exact. Coefficient is greater than "
                             "9.007199e+15 and is only accurate to 15 digits")};
      ctx.call_named("warning", Args(w, 3), 0);
    }
    Tensor r = Tensor::scalar(b);
    return {Value(cls == ClassId::Double ? r : r.to_class(cls))};
  }
  if (!v.dims().is_vector() && !v.is_empty())
    throw_error("MATLAB:nchoosek:InvalidArg1", "The first input must be a scalar or a vector.");
  const int64_t n = v.numel();
  if (k > 281474976710656.0)  // a 0-by-k result past 2^48 columns (and no int64 overflow)
    throw_error("MATLAB:pmaxsize", "Maximum variable size allowed by the program is exceeded.");
  const int64_t kk = static_cast<int64_t>(k);
  if (kk > n) return {gather_elements(v, Dims(0, kk), {})};
  const double count = binom(static_cast<double>(n), k);
  if (count * static_cast<double>(kk) > 1e9)
    throw_error("MATLAB:nomem", "Out of memory: nchoosek would produce %.0f rows.", count);
  const int64_t rows = static_cast<int64_t>(count);
  std::vector<int64_t> src(static_cast<size_t>(rows * kk));
  std::vector<int64_t> c(static_cast<size_t>(kk));
  for (int64_t j = 0; j < kk; ++j) c[j] = j;
  for (int64_t row = 0; row < rows; ++row) {
    for (int64_t j = 0; j < kk; ++j) src[static_cast<size_t>(row + j * rows)] = c[j];
    int64_t j = kk - 1;  // next combination
    while (j >= 0 && c[j] == n - kk + j) --j;
    if (j < 0) break;
    ++c[j];
    for (int64_t t = j + 1; t < kk; ++t) c[t] = c[t - 1] + 1;
  }
  return {gather_elements(v, Dims(rows, kk), src)};
}

/// Sieve of Eratosthenes up to n (inclusive); flags[i] is true when i is prime.
std::vector<bool> sieve(int64_t n) {
  std::vector<bool> p(static_cast<size_t>(n + 1), true);
  p[0] = false;
  if (n >= 1) p[1] = false;
  for (int64_t i = 2; i * i <= n; ++i)
    if (p[i])
      for (int64_t j = i * i; j <= n; j += i) p[j] = false;
  return p;
}

/// primes(n): row vector of the primes <= n, of n's class (double for char/logical).
Outputs bi_primes(CallContext&, Args args, int nargout) {
  check_nargin(args, 1, 1);
  check_nargout(nargout, 1);
  const Tensor n = real_tensor(args[0], "primes");
  if (n.numel() != 1) throw_error("MATLAB:primes:InputNotScalar", "N must be a scalar.");
  if (n.is_complex()) throw_error("MATLAB:primes:ComplexInput", "N must be real.");
  const double nv = n.get_double(0);
  if (nv > 4294967296.0)
    throw_error("MATLAB:array:SizeLimitExceeded", "Requested array exceeds the maximum possible variable size.");
  const double lim = std::isnan(nv) ? 0 : std::floor(nv);
  std::vector<double> out;
  if (lim >= 2) {
    const auto p = sieve(static_cast<int64_t>(lim));
    for (int64_t i = 2; i <= static_cast<int64_t>(lim); ++i)
      if (p[i]) out.push_back(static_cast<double>(i));
  }
  Tensor r = Tensor::uninit(ClassId::Double, Dims(1, static_cast<int64_t>(out.size())));
  for (size_t i = 0; i < out.size(); ++i) r.set_double(static_cast<int64_t>(i), out[i]);
  const ClassId cls = numeric_class(n);
  return {Value(cls == ClassId::Double ? r : r.to_class(cls))};
}

uint64_t mulmod(uint64_t a, uint64_t b, uint64_t m) {
  return static_cast<uint64_t>(static_cast<unsigned __int128>(a) * b % m);
}
uint64_t powmod(uint64_t a, uint64_t e, uint64_t m) {
  uint64_t r = 1;
  a %= m;
  for (; e; e >>= 1, a = mulmod(a, a, m))
    if (e & 1) r = mulmod(r, a, m);
  return r;
}
/// Deterministic Miller-Rabin for 64-bit n (the first 12 primes as bases suffice below 2^64).
bool is_prime_u64(uint64_t n) {
  if (n < 2) return false;
  static const uint64_t bases[] = {2, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37};
  for (uint64_t p : bases) {
    if (n % p == 0) return n == p;
  }
  uint64_t d = n - 1;
  int s = 0;
  while ((d & 1) == 0) d >>= 1, ++s;
  for (uint64_t a : bases) {
    uint64_t x = powmod(a, d, n);
    if (x == 1 || x == n - 1) continue;
    bool comp = true;
    for (int i = 1; i < s && comp; ++i) {
      x = mulmod(x, x, n);
      if (x == n - 1) comp = false;
    }
    if (comp) return false;
  }
  return true;
}

/// isprime(X): logical array, true where X is prime; X must hold real nonnegative integers
/// (MATLAB:isprime:InputNotPosInt).
Outputs bi_isprime(CallContext&, Args args, int nargout) {
  check_nargin(args, 1, 1);
  check_nargout(nargout, 1);
  const Tensor x = real_tensor(args[0], "isprime");
  if (x.is_complex())
    throw_error("MATLAB:isprime:InputNotPosInt", "All entries of X must be nonnegative integers.");
  Tensor r = Tensor::uninit(ClassId::Logical, x.dims());
  bool* o = r.mutable_data<bool>();
  const bool u64 = x.cls() == ClassId::UInt64, i64 = x.cls() == ClassId::Int64;
  for (int64_t i = 0; i < x.numel(); ++i) {
    uint64_t n;
    if (u64) n = x.data<uint64_t>()[i];
    else if (i64) {
      const int64_t s = x.data<int64_t>()[i];
      if (s < 0) throw_error("MATLAB:isprime:InputNotPosInt", "All entries of X must be nonnegative integers.");
      n = static_cast<uint64_t>(s);
    } else {
      const double v = x.get_double(i);
      if (!(v >= 0) || !is_int_value(v))
        throw_error("MATLAB:isprime:InputNotPosInt", "All entries of X must be nonnegative integers.");
      // From 2^64 on (undefined to convert) every double is even, so no prime: 4 stands in.
      n = v < 18446744073709551616.0 ? static_cast<uint64_t>(v) : 4;
    }
    o[i] = is_prime_u64(n);
  }
  return {Value(r)};
}

/// Shared argument handling of gcd/lcm: implicit expansion, result class (MATLAB binary
/// rules), real integer values required.
struct IntPair {
  Dims out;
  ClassId cls;
  std::vector<double> a, b;
};
IntPair int_pair(Args args, const char* fname, bool positive) {
  const Tensor a = real_tensor(args[0], fname), b = real_tensor(args[1], fname);
  IntPair p;
  p.cls = class_of_binary(numeric_class(a), numeric_class(b));
  p.out = broadcast_dims(a.dims(), b.dims());
  const auto ma = broadcast_map(a.dims(), p.out), mb = broadcast_map(b.dims(), p.out);
  const std::string id = std::string("MATLAB:") + fname + (positive ? ":InputNotPosInt" : ":NonIntInputs");
  const char* msg = positive ? "Input arguments must contain positive integers." : "Inputs must be real integers.";
  if (a.is_complex() || b.is_complex()) throw_error(id.c_str(), "%s", msg);
  p.a.resize(ma.size());
  p.b.resize(ma.size());
  for (size_t i = 0; i < ma.size(); ++i) {
    p.a[i] = a.get_double(ma[i]);
    p.b[i] = b.get_double(mb[i]);
    for (double v : {p.a[i], p.b[i]})
      if (!is_int_value(v) || (positive && v < 1)) throw_error(id.c_str(), "%s", msg);
  }
  return p;
}

double gcd2(double a, double b) {
  a = std::fabs(a), b = std::fabs(b);
  while (b != 0) {
    const double t = std::fmod(a, b);
    a = b, b = t;
  }
  return a;
}

Tensor make(const std::vector<double>& v, const Dims& d, ClassId cls) {
  Tensor r = Tensor::uninit(ClassId::Double, d);
  double* o = r.mutable_data<double>();
  for (size_t i = 0; i < v.size(); ++i) o[i] = v[i];
  return cls == ClassId::Double ? r : r.to_class(cls);
}

/// gcd(A, B) elementwise (nonnegative); [G, U, V] = gcd(A, B) adds Bezout coefficients with
/// A.*U + B.*V == G.
Outputs bi_gcd(CallContext&, Args args, int nargout) {
  check_nargin(args, 2, 2);
  check_nargout(nargout, 3);
  const IntPair p = int_pair(args, "gcd", false);
  const size_t n = p.a.size();
  std::vector<double> g(n), u(n), v(n);
  for (size_t i = 0; i < n; ++i) {
    if (nargout <= 1) {
      g[i] = gcd2(p.a[i], p.b[i]);
      continue;
    }
    // Extended Euclid on |a|, |b|; signs folded into the coefficients.
    double r0 = std::fabs(p.a[i]), r1 = std::fabs(p.b[i]), s0 = 1, s1 = 0, t0 = 0, t1 = 1;
    while (r1 != 0) {
      const double q = std::floor(r0 / r1);
      double t = r0 - q * r1; r0 = r1; r1 = t;
      t = s0 - q * s1; s0 = s1; s1 = t;
      t = t0 - q * t1; t0 = t1; t1 = t;
    }
    g[i] = r0;
    u[i] = p.a[i] < 0 ? -s0 : s0;
    v[i] = p.b[i] < 0 ? -t0 : t0;
  }
  Outputs out{Value(make(g, p.out, p.cls))};
  if (nargout >= 2) out.push_back(Value(make(u, p.out, p.cls)));
  if (nargout >= 3) out.push_back(Value(make(v, p.out, p.cls)));
  return out;
}

/// lcm(A, B) elementwise; A and B must hold positive integers (MATLAB:lcm:InputNotPosInt).
Outputs bi_lcm(CallContext&, Args args, int nargout) {
  check_nargin(args, 2, 2);
  check_nargout(nargout, 1);
  const IntPair p = int_pair(args, "lcm", true);
  std::vector<double> l(p.a.size());
  for (size_t i = 0; i < l.size(); ++i) l[i] = p.a[i] * (p.b[i] / gcd2(p.a[i], p.b[i]));
  return {Value(make(l, p.out, p.cls))};
}

/// dot(A, B[, dim]) = sum(conj(A).*B, dim); vectors of equal length need not share
/// orientation. Integer classes are rejected (MATLAB:dot:integerClass).
Outputs bi_dot(CallContext& ctx, Args args, int nargout) {
  check_nargin(args, 2, 3);
  check_nargout(nargout, 1);
  for (int i = 0; i < 2; ++i) {
    if (!args[i].is_tensor()) undefined_for("dot", args[i]);
    if (is_integer_class(args[i].cls()))
      throw_error("MATLAB:dot:integerClass", "Dot product of integer types is not supported.");
  }
  Value a = args[0], b = args[1];
  if (args.size() == 2 && a.dims().is_vector() && b.dims().is_vector() && a.numel() == b.numel()) {
    a = reshape_value(a, Dims(a.numel(), 1));
    b = reshape_value(b, Dims(b.numel(), 1));
  } else if (a.dims() != b.dims()) {
    throw_error("MATLAB:dot:InputSizeMismatch", "A and B must be same size.");
  }
  Value prod = call1(ctx, "times", {call1(ctx, "conj", {a}), b});
  if (args.size() == 3) return {call1(ctx, "sum", {prod, args[2]})};
  return {call1(ctx, "sum", {prod})};
}

/// cross(A, B[, dim]): cross product along the first dimension of length 3 (or dim); A and B
/// of the same size (two 3-vectors may differ in orientation; the result takes A's).
Outputs bi_cross(CallContext&, Args args, int nargout) {
  check_nargin(args, 2, 3);
  check_nargout(nargout, 1);
  for (int i = 0; i < 2; ++i)
    if (!args[i].is_tensor()) undefined_for("cross", args[i]);
  Tensor a = args[0].tensor(), b = args[1].tensor();
  if (args.size() == 2 && a.dims().is_vector() && b.dims().is_vector() && a.numel() == 3 &&
      b.numel() == 3)
    b = b.reshaped(a.dims());
  if (a.dims() != b.dims()) throw_error("MATLAB:cross:InputSizeMismatch", "A and B must be of the same size.");
  int dim = -1;
  if (args.size() == 3) dim = dim_arg(args[2]);
  else
    for (int k = 0; k < a.dims().ndims(); ++k)
      if (a.dims()[k] == 3) { dim = k; break; }
  if (dim < 0 || a.dims()[dim] != 3)
    throw_error("MATLAB:cross:InvalidDimAorBForCrossProd",
                "A and B must have at least one dimension of length 3.");
  const ClassId cls = class_of_binary(numeric_class(a), numeric_class(b));
  const bool cplx = a.is_complex() || b.is_complex();
  const auto st = strides_of(a.dims());
  const int64_t s = st[dim];
  Tensor r = Tensor::uninit(ClassId::Double, a.dims(), cplx);
  // Every base index whose subscript along dim is 0.
  for (int64_t i = 0; i < a.numel(); ++i) {
    if ((i / s) % 3 != 0) continue;
    std::complex<double> x[3], y[3];
    for (int c = 0; c < 3; ++c) x[c] = a.get_complex(i + c * s), y[c] = b.get_complex(i + c * s);
    const std::complex<double> z[3] = {x[1] * y[2] - x[2] * y[1], x[2] * y[0] - x[0] * y[2],
                                       x[0] * y[1] - x[1] * y[0]};
    for (int c = 0; c < 3; ++c) {
      if (cplx) r.set_complex(i + c * s, z[c]);
      else r.set_double(i + c * s, z[c].real());
    }
  }
  return {Value(cls == ClassId::Double ? r : r.to_class(cls))};
}

}  // namespace

/// Registers the functions of this file (called from register_math).
void register_math_number(Registry& r) {
  r.add("factorial", bi_factorial);
  r.add("nchoosek", bi_nchoosek);
  r.add("primes", bi_primes);
  r.add("isprime", bi_isprime);
  r.add("gcd", bi_gcd);
  r.add("lcm", bi_lcm);
  r.add("dot", bi_dot);
  r.add("cross", bi_cross);
}

}  // namespace matfuse
