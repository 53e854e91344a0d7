// Builtins of the special (test) matrices: hilb, invhilb, pascal, rosser, wilkinson, vander,
// compan, hadamard. Definitions from N. J. Higham, "Accuracy and Stability of Numerical
// Algorithms", 2nd ed., SIAM 2002, ch. 28 (Hilbert and its exact inverse, Pascal and its
// Cholesky factor, Wilkinson's W+, Vandermonde), J. B. Rosser et al., J. Res. Nat. Bur.
// Standards 47 (1951) 291-297 (the 8x8 eigenvalue test matrix), and Sylvester's doubling
// H(2n) = [H H; H -H] with Paley's orders 12 and 20 (R. E. A. C. Paley, J. Math. Phys. 12
// (1933) 311-320) for hadamard.
#include <cmath>
#include <complex>
#include <cstdint>
#include <string>
#include <vector>

#include "builtins/argparse.h"
#include "builtins/registry.h"
#include "runtime/error.h"
#include "runtime/array_size.h"

namespace matfuse {

namespace {

/// Order argument n: a real non-negative integer scalar.
int64_t order_arg(const Value& v, const char* fname) {
  if (!v.is_tensor() || v.numel() != 1 || v.tensor().is_complex())
    throw_error(("MATLAB:" + std::string(fname) + ":InvalidOrder").c_str(),
                "N must be a nonnegative integer scalar.");
  double d = v.tensor().get_double(0);
  if (!(d == std::floor(d)) || !std::isfinite(d))
    throw_error(("MATLAB:" + std::string(fname) + ":InvalidOrder").c_str(),
                "N must be a nonnegative integer scalar.");
  return d < 0 ? 0 : clamp_count(d);  // 1e300: the size check fails (no undefined cast)
}

/// Optional trailing class name 'double' or 'single'.
ClassId float_class_arg(Args args, size_t at, const char* fname) {
  if (args.size() <= at) return ClassId::Double;
  auto c = class_name_arg(args[at]);
  if (!c || (*c != ClassId::Double && *c != ClassId::Single))
    throw_error("MATLAB:invalidInputClass", "CLASSNAME must be 'double' or 'single'. (%s)",
                fname);
  return *c;
}

Tensor square(int64_t n, ClassId cls) { return Tensor::zeros(cls, Dims(n, n)); }

/// H = hilb(n) | hilb(n, classname): H(i,j) = 1/(i+j-1), n x n.
Outputs bi_hilb(CallContext&, Args args, int nargout) {
  check_nargin(args, 1, 2);
  check_nargout(nargout, 1);
  int64_t n = order_arg(args[0], "hilb");
  Tensor h = square(n, float_class_arg(args, 1, "hilb"));
  for (int64_t j = 0; j < n; ++j)
    for (int64_t i = 0; i < n; ++i) h.set_double(j * n + i, 1.0 / static_cast<double>(i + j + 1));
  return {Value(h)};
}

/// H = invhilb(n) | invhilb(n, classname): the exact inverse of hilb(n) (integer entries,
/// exact in double for n <= 12), by the recurrence of its closed form.
Outputs bi_invhilb(CallContext&, Args args, int nargout) {
  check_nargin(args, 1, 2);
  check_nargout(nargout, 1);
  int64_t n = order_arg(args[0], "invhilb");
  ClassId cls = float_class_arg(args, 1, "invhilb");
  Tensor t = square(n, cls);  // the size check first: n * n below may not overflow
  std::vector<double> H(static_cast<size_t>(n * n), 0.0);
  double p = static_cast<double>(n);
  for (int64_t i = 1; i <= n; ++i) {
    double r = p * p;
    H[(i - 1) * n + (i - 1)] = r / (2 * i - 1);
    for (int64_t j = i + 1; j <= n; ++j) {
      r = -((n - j + 1) * r * (n + j - 1)) / static_cast<double>((j - 1) * (j - 1));
      H[(j - 1) * n + (i - 1)] = r / (i + j - 1);
      H[(i - 1) * n + (j - 1)] = r / (i + j - 1);
    }
    p = ((n - i) * p * (n + i)) / static_cast<double>(i * i);
  }
  for (int64_t k = 0; k < n * n; ++k) t.set_double(k, H[k]);
  return {Value(t)};
}

/// P = pascal(n) | pascal(n, k) | pascal(___, classname): k = 0 (default) the symmetric
/// positive definite Pascal matrix P(i,j) = nchoosek(i+j-2, j-1); k = 1 its lower-triangular
/// Cholesky factor with column signs (-1)^(j-1) (involutory); k = 2 the transposed and
/// permuted factor (a cube root of the identity); k = -1 (as GNU Octave) the factor's absolute
/// values. Errors: MATLAB:pascal:InvalidK.
Outputs bi_pascal(CallContext&, Args args, int nargout) {
  check_nargin(args, 1, 3);
  check_nargout(nargout, 1);
  int64_t n = order_arg(args[0], "pascal");
  int k = 0;
  size_t ci = 1;
  if (args.size() > 1 && !args[1].is_text()) {
    double kv = args[1].to_double("k");
    if (kv != 0 && kv != 1 && kv != 2 && kv != -1)
      throw_error("MATLAB:pascal:InvalidK", "K must be 0, 1, or 2.");
    k = static_cast<int>(kv);
    ci = 2;
  }
  ClassId cls = float_class_arg(args, ci, "pascal");
  // L: lower-triangular factor with L(i,i) = (-1)^(i-1) and L(:,1) = 1 (0-based below).
  std::vector<double> L(static_cast<size_t>(n * n), 0.0);
  auto at = [&](int64_t i, int64_t j) -> double& { return L[j * n + i]; };
  for (int64_t i = 0; i < n; ++i) at(i, i) = (i % 2) ? -1 : 1;
  for (int64_t i = 0; i < n; ++i) at(i, 0) = 1;
  for (int64_t j = 1; j + 1 < n; ++j)
    for (int64_t i = j + 1; i < n; ++i) at(i, j) = at(i - 1, j) - at(i - 1, j - 1);
  std::vector<double> P(static_cast<size_t>(n * n), 0.0);
  if (k == 0) {
    for (int64_t i = 0; i < n; ++i)
      for (int64_t j = 0; j < n; ++j) {
        double s = 0;
        for (int64_t q = 0; q < n; ++q) s += at(i, q) * at(j, q);
        P[j * n + i] = s;
      }
  } else if (k == 1 || k == -1) {
    P = L;
    if (k == -1)  // the absolute values of the factor (GNU Octave's pascal(n, -1))
      for (double& v : P) v = std::abs(v);
  } else {
    // rot90(L, 3): R(i,j) = L(n-1-j, i); negated for even n.
    for (int64_t i = 0; i < n; ++i)
      for (int64_t j = 0; j < n; ++j) P[j * n + i] = at(n - 1 - j, i) * (n % 2 == 0 ? -1 : 1);
  }
  Tensor t = square(n, cls);
  for (int64_t q = 0; q < n * n; ++q) t.set_double(q, P[q] == 0 ? 0.0 : P[q]);
  return {Value(t)};
}

/// R = rosser | rosser(classname): Rosser's 8x8 symmetric eigenvalue test matrix (a double
/// eigenvalue, three nearly equal, a zero, a small one and a pair of opposite ones).
Outputs bi_rosser(CallContext&, Args args, int nargout) {
  check_nargin(args, 0, 1);
  check_nargout(nargout, 1);
  static const double R[8][8] = {{611, 196, -192, 407, -8, -52, -49, 29},
                                 {196, 899, 113, -192, -71, -43, -8, -44},
                                 {-192, 113, 899, 196, 61, 49, 8, 52},
                                 {407, -192, 196, 611, 8, 44, 59, -23},
                                 {-8, -71, 61, 8, 411, -599, 208, 208},
                                 {-52, -43, 49, 44, -599, 411, 208, 208},
                                 {-49, -8, 8, 59, 208, 208, 99, -911},
                                 {29, -44, 52, -23, 208, 208, -911, 99}};
  Tensor t = square(8, float_class_arg(args, 0, "rosser"));
  for (int j = 0; j < 8; ++j)
    for (int i = 0; i < 8; ++i) t.set_double(j * 8 + i, R[i][j]);
  return {Value(t)};
}

/// W = wilkinson(n) | wilkinson(n, classname): Wilkinson's symmetric tridiagonal eigenvalue
/// test matrix, diagonal abs(-(n-1)/2 : (n-1)/2), ones beside it.
Outputs bi_wilkinson(CallContext&, Args args, int nargout) {
  check_nargin(args, 1, 2);
  check_nargout(nargout, 1);
  if (!args[0].is_tensor() || args[0].numel() != 1)
    throw_error("MATLAB:wilkinson:InvalidN", "N must be a nonnegative integer scalar.");
  double nd = args[0].to_double("n");
  if (!(nd >= 0 && nd == std::floor(nd)) || std::isinf(nd))
    throw_error("MATLAB:wilkinson:InvalidN", "N must be a nonnegative integer scalar.");
  // From 2^63 on (undefined to convert) the n x n size check fails as for any huge n.
  int64_t n = nd < 9.2e18 ? static_cast<int64_t>(nd) : INT64_MAX;
  Tensor t = square(n, float_class_arg(args, 1, "wilkinson"));
  double m = (n - 1) / 2.0;
  for (int64_t i = 0; i < n; ++i) {
    t.set_double(i * n + i, std::abs(-m + static_cast<double>(i)));
    if (i + 1 < n) {
      t.set_double(i * n + i + 1, 1);
      t.set_double((i + 1) * n + i, 1);
    }
  }
  return {Value(t)};
}

/// A = vander(v) | vander(v, n): the Vandermonde matrix A(i,j) = v(i)^(n-j), n = numel(v)
/// by default (columns are powers of v, highest first; n columns as GNU Octave's second
/// argument). Complex v gives a complex matrix; single stays single. Errors:
/// MATLAB:vander:InvalidInput for a matrix.
Outputs bi_vander(CallContext&, Args args, int nargout) {
  check_nargin(args, 1, 2);
  check_nargout(nargout, 1);
  if (!args[0].is_tensor() || !(args[0].dims().is_vector() || args[0].is_empty()))
    throw_error("MATLAB:vander:InvalidInput", "Input must be a numeric vector.");
  Tensor v = args[0].tensor();
  const int64_t m = v.numel();
  const int64_t n = args.size() > 1 ? order_arg(args[1], "vander") : m;
  const bool cx = v.is_complex();
  ClassId cls = v.cls() == ClassId::Single ? ClassId::Single : ClassId::Double;
  Tensor a = Tensor::uninit(cls, Dims(m, n), cx);
  for (int64_t i = 0; i < m; ++i) {
    std::complex<double> x = v.get_complex(i), p = 1;
    for (int64_t j = n - 1; j >= 0; --j) {
      if (cx) a.set_complex(j * m + i, p);
      else a.set_double(j * m + i, p.real());
      p *= x;
    }
  }
  return {Value(a)};
}

/// A = compan(u): the companion matrix of the polynomial with coefficients u (a vector,
/// highest power first, u(1) ~= 0): first row -u(2:n)/u(1), ones below the diagonal; its
/// eigenvalues are roots(u). Errors: MATLAB:compan:NeedVectorInput,
/// MATLAB:compan:FirstCoefIsZero.
Outputs bi_compan(CallContext&, Args args, int nargout) {
  check_nargin(args, 1, 1);
  check_nargout(nargout, 1);
  if (!args[0].is_tensor() || !(args[0].dims().is_vector() || args[0].is_empty()))
    throw_error("MATLAB:compan:NeedVectorInput", "Input argument must be a vector.");
  Tensor u = args[0].tensor();
  const int64_t n = u.numel();
  ClassId cls = u.cls() == ClassId::Single ? ClassId::Single : ClassId::Double;
  if (n <= 1) return {Value(Tensor::zeros(cls, Dims(0, 0)))};
  if (u.get_complex(0) == std::complex<double>(0))
    throw_error("MATLAB:compan:FirstCoefIsZero", "First coefficient in vector must be nonzero.");
  const bool cx = u.is_complex();
  Tensor a = Tensor::zeros(cls, Dims(n - 1, n - 1), cx);
  const int64_t m = n - 1;
  for (int64_t j = 0; j < m; ++j) {
    std::complex<double> c = -u.get_complex(j + 1) / u.get_complex(0);
    if (cx) a.set_complex(j * m, c);
    else a.set_double(j * m, c.real());
  }
  for (int64_t i = 1; i < m; ++i) {
    if (cx) a.set_complex((i - 1) * m + i, 1);
    else a.set_double((i - 1) * m + i, 1);
  }
  return {Value(a)};
}

/// H = hadamard(n) | hadamard(n, classname): a Hadamard matrix (entries +-1, H'*H = n*I) for
/// n = 2^k, 12*2^k or 20*2^k. Errors: MATLAB:hadamard:Invalid for other n.
Outputs bi_hadamard(CallContext&, Args args, int nargout) {
  check_nargin(args, 1, 2);
  check_nargout(nargout, 1);
  double nd = args[0].to_double("n");
  ClassId cls = float_class_arg(args, 1, "hadamard");
  auto bad = []() {
    throw_error("MATLAB:hadamard:Invalid",
                "N must be an integer and N, N/12 or N/20 must be a power of 2.");
  };
  if (!(nd >= 1 && nd == std::floor(nd) && nd < 1e8)) bad();
  int64_t n = static_cast<int64_t>(nd);
  auto pow2 = [](int64_t x) { return x > 0 && (x & (x - 1)) == 0; };
  std::vector<double> H;
  int64_t m;
  if (pow2(n)) {
    H = {1};
    m = 1;
  } else if (n % 12 == 0 && pow2(n / 12)) {
    m = 12;
    const double c[11] = {-1, -1, 1, -1, -1, -1, 1, 1, 1, -1, 1};
    const double r[11] = {-1, 1, -1, 1, 1, 1, -1, -1, -1, 1, -1};
    H.assign(144, 1);
    // [ones(1,12); ones(11,1) toeplitz(c, r)]
    for (int i = 0; i < 11; ++i)
      for (int j = 0; j < 11; ++j) H[(j + 1) * 12 + (i + 1)] = i >= j ? c[i - j] : r[j - i];
  } else if (n % 20 == 0 && pow2(n / 20)) {
    m = 20;
    const double c[19] = {-1, -1, 1, 1, -1, -1, -1, -1, 1, -1, 1, -1, 1, 1, 1, 1, -1, -1, 1};
    const double r[19] = {1, -1, -1, 1, 1, -1, -1, -1, -1, 1, -1, 1, -1, 1, 1, 1, 1, -1, -1};
    H.assign(400, 1);
    // [ones(1,20); ones(19,1) hankel(c, r)]
    for (int i = 0; i < 19; ++i)
      for (int j = 0; j < 19; ++j) H[(j + 1) * 20 + (i + 1)] = i + j < 19 ? c[i + j] : r[i + j - 18];
  } else {
    bad();
    return {};
  }
  while (m < n) {  // Sylvester doubling [H H; H -H]
    std::vector<double> G(static_cast<size_t>(4 * m * m));
    for (int64_t j = 0; j < m; ++j)
      for (int64_t i = 0; i < m; ++i) {
        double v = H[j * m + i];
        G[j * 2 * m + i] = v;
        G[(j + m) * 2 * m + i] = v;
        G[j * 2 * m + i + m] = v;
        G[(j + m) * 2 * m + i + m] = -v;
      }
    H.swap(G);
    m *= 2;
  }
  Tensor t = square(n, cls);
  for (int64_t q = 0; q < n * n; ++q) t.set_double(q, H[q]);
  return {Value(t)};
}

}  // namespace

void register_specmat(Registry& r) {
  r.add("hilb", bi_hilb);
  r.add("invhilb", bi_invhilb);
  r.add("pascal", bi_pascal);
  r.add("rosser", bi_rosser);
  r.add("wilkinson", bi_wilkinson);
  r.add("vander", bi_vander);
  r.add("compan", bi_compan);
  r.add("hadamard", bi_hadamard);
}

}  // namespace matfuse
