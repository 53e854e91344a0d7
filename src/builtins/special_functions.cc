// Special functions: psi, besselj, bessely, besseli, besselk, legendre.
//
// Algorithms:
// - psi: digamma and polygamma through the recurrence psi(x+1) = psi(x) + 1/x up to x >= 10
//   and the asymptotic (Stirling) series, M. Abramowitz and I. A. Stegun, "Handbook of
//   Mathematical Functions", 1964, 6.3.18 and 6.4.11; reflection 6.3.7 for x < 0.
// - Bessel functions of real order and non-negative real argument: the C++17 special
//   functions (std::cyl_bessel_j, cyl_neumann, cyl_bessel_i, cyl_bessel_k).
// - legendre: the associated Legendre functions by the three-term recurrence in degree
//   (Abramowitz-Stegun 8.5.3) with the Condon-Shortley phase, as MATLAB's legendre.
#include <algorithm>
#include <cmath>
#include <complex>
#include <string>
#include <vector>

#include "builtins/data_util.h"
#include "builtins/math_util.h"
#include "builtins/registry.h"
#include "runtime/error.h"

namespace matfuse {

void register_special_functions(Registry& r);

namespace {

using mathutil::call1;
using mathutil::float_arg;
using cd = std::complex<double>;


/// Hurwitz zeta(s, x) for s > 1, x > 0 by Euler-Maclaurin summation.
double hurwitz_zeta(double s, double x) {
  const int N = 12;
  double sum = 0;
  for (int k = 0; k < N; ++k) sum += std::pow(x + k, -s);
  double a = x + N;
  sum += std::pow(a, 1 - s) / (s - 1) + 0.5 * std::pow(a, -s);
  // Bernoulli terms B2k/(2k)! * s(s+1)...(s+2k-2) * a^(-s-2k+1)
  static const double B[] = {1.0 / 6, -1.0 / 30, 1.0 / 42, -1.0 / 30, 5.0 / 66, -691.0 / 2730,
                             7.0 / 6};
  double fact = 1, poch = s, pw = std::pow(a, -s - 1);
  for (int k = 1; k <= 7; ++k) {
    fact *= (2 * k - 1) * (2 * k);
    sum += B[k - 1] / fact * poch * pw;
    poch *= (s + 2 * k - 1) * (s + 2 * k);
    pw /= a * a;
  }
  return sum;
}

double digamma(double x) {
  if (std::isnan(x) || x == -INFINITY) return std::nan("");
  if (x == INFINITY) return INFINITY;
  if (x <= 0 && x == std::floor(x)) return x == 0 ? -INFINITY : std::nan("");
  if (x < 0) return digamma(1 - x) - M_PI / std::tan(M_PI * x);
  double r = 0;
  while (x < 10) {
    r -= 1 / x;
    x += 1;
  }
  double f = 1 / (x * x);
  double t = f * (-1.0 / 12 + f * (1.0 / 120 + f * (-1.0 / 252 + f * (1.0 / 240 + f * (-1.0 / 132)))));
  return r + std::log(x) - 0.5 / x + t;
}

/// Y = psi(X) | psi(k, X): the digamma function (derivative of gammaln) of real X, or its k-th
/// derivative (polygamma, k a non-negative integer; X > 0). Errors: MATLAB:psi:complexArg...
Outputs bi_psi(CallContext&, Args args, int nargout) {
  check_nargin(args, 1, 2);
  check_nargout(nargout, 1);
  int k = 0;
  const Value& xv = args.size() == 2 ? args[1] : args[0];
  if (args.size() == 2) {
    double kd = args[0].to_double("k");
    if (!(kd >= 0 && kd == std::floor(kd)))
      throw_error("MATLAB:psi:InvalidK", "K must be a nonnegative integer.");
    k = static_cast<int>(kd);
  }
  Tensor x = float_arg(xv, "psi");
  return {Value(mathutil::map_real(x, [&](double v) {
    if (k == 0) return digamma(v);
    if (!(v > 0))
      throw_error("MATLAB:psi:NegativeX", "X must be nonnegative for K > 0.");
    double f = std::tgamma(k + 1.0);
    return (k % 2 ? 1 : -1) * f * hurwitz_zeta(k + 1.0, v);
  }))};
}

enum class BesselKind { J, Y, I, K };

/// Bessel functions of real order nu and real argument (implicit expansion).
Outputs bessel(Args args, int nargout, BesselKind kind, const char* fname) {
  check_nargin(args, 2, 3);
  check_nargout(nargout, 2);
  Tensor nu = float_arg(args[0], fname), z = float_arg(args[1], fname);
  bool scaled = args.size() > 2 && args[2].to_double("scale") == 1;
  Dims od = broadcast_dims(nu.dims(), z.dims());
  auto mn = mathutil::broadcast_map(nu.dims(), od), mz = mathutil::broadcast_map(z.dims(), od);
  Tensor r = Tensor::uninit(ClassId::Double, od);
  for (int64_t i = 0; i < od.numel(); ++i) {
    double v = nu.get_double(mn[i]), x = z.get_double(mz[i]);
    double out;
    bool limit = false;  // out is already the (scaled) limit
    if (std::isnan(v) || std::isnan(x)) {
      out = std::nan("");
    } else {
      double sign = 1;
      double av = std::abs(v), ax = x;
      bool intv = v == std::floor(v);
      if (x < 0) {
        if (!intv || kind == BesselKind::Y || kind == BesselKind::K)
          throw_error("matfuse:notSupported", "%s: a negative argument with this order gives a "
                      "complex result, which is not supported yet.", fname);
        ax = -x;
        if (std::fmod(av, 2) == 1) sign = -1;
      }
      // Negative integer orders: J_-n = (-1)^n J_n, Y likewise, I_-n = I_n, K_-nu = K_nu.
      if (v < 0 && intv && (kind == BesselKind::J || kind == BesselKind::Y) && std::fmod(av, 2) == 1)
        sign = -sign;
      if (v < 0 && !intv && (kind == BesselKind::J || kind == BesselKind::Y) && ax < 1e8 && av < 1e4) {
        // J_-nu = cos(nu pi) J_nu - sin(nu pi) Y_nu; Y_-nu = sin(nu pi) J_nu + cos(nu pi) Y_nu.
        double j = std::cyl_bessel_j(av, ax), y = ax == 0 ? -INFINITY : std::cyl_neumann(av, ax);
        out = kind == BesselKind::J ? std::cos(av * M_PI) * j - std::sin(av * M_PI) * y
                                    : std::sin(av * M_PI) * j + std::cos(av * M_PI) * y;
      } else if (av > 1e9 && ax < 0.5 * av) {
        // Orders beyond int: libstdc++ converts the order to int (undefined beyond INT_MAX).
        // With the argument below 2*nu/e the functions are at their large-order limits
        // (DLMF 10.19.1, 10.41.1): J and I tend to 0, Y to -Inf, K to +Inf.
        out = kind == BesselKind::Y ? -INFINITY : kind == BesselKind::K ? INFINITY : 0.0;
        limit = true;
      } else if (av > 1e9) {
        // Order and argument both beyond int: the library's limits below.
        out = kind == BesselKind::I ? (scaled ? 1 / std::sqrt(2 * M_PI * ax) : INFINITY) : 0.0;
        limit = true;
      } else if (v < 0 && !intv && kind == BesselKind::I && ax < 700 && av < 1e4) {
        out = std::cyl_bessel_i(av, ax) + 2 / M_PI * std::sin(av * M_PI) * std::cyl_bessel_k(av, ax);
      } else {
        try {
          switch (kind) {
            case BesselKind::J: out = std::cyl_bessel_j(av, ax); break;
            case BesselKind::Y: out = ax == 0 ? -INFINITY : std::cyl_neumann(av, ax); break;
            case BesselKind::I: out = std::cyl_bessel_i(av, ax); break;
            case BesselKind::K: out = ax == 0 ? INFINITY : std::cyl_bessel_k(av, ax); break;
          }
        } catch (const std::exception&) {
          // Beyond the library's range (huge order or argument): the limits, Inf for I
          // (1/sqrt(2*pi*x) scaled), 0 for J, Y and K.
          out = kind == BesselKind::I ? (scaled ? 1 / std::sqrt(2 * M_PI * ax) : INFINITY) : 0.0;
          limit = true;
        }
      }
      out *= sign;
      if (scaled && !limit) {
        if (kind == BesselKind::I) out *= std::exp(-std::abs(x));
        if (kind == BesselKind::K) out *= std::exp(x);
      }
    }
    r.set_double(i, out);
  }
  return {Value(r), Value(Tensor::zeros(ClassId::Double, od))};
}

/// J = besselj(nu, Z) | besselj(nu, Z, scale) | [J, ierr] = besselj(___): Bessel functions of
/// the first kind, real order and real argument (negative Z with integer order).
Outputs bi_besselj(CallContext&, Args a, int n) { return bessel(a, n, BesselKind::J, "besselj"); }
/// Y = bessely(nu, Z): Bessel functions of the second kind, real order, non-negative Z.
Outputs bi_bessely(CallContext&, Args a, int n) { return bessel(a, n, BesselKind::Y, "bessely"); }
/// I = besseli(nu, Z) | besseli(nu, Z, 1) (scaled by exp(-abs(Z))): modified, first kind.
Outputs bi_besseli(CallContext&, Args a, int n) { return bessel(a, n, BesselKind::I, "besseli"); }
/// K = besselk(nu, Z) | besselk(nu, Z, 1) (scaled by exp(Z)): modified, second kind.
Outputs bi_besselk(CallContext&, Args a, int n) { return bessel(a, n, BesselKind::K, "besselk"); }

/// P = legendre(n, X) | legendre(n, X, normalization): the associated Legendre functions of
/// degree n and orders m = 0..n at X (-1 <= X <= 1); P has n+1 rows (then the dims of X, a
/// vector X gives (n+1) x numel(X)). normalization: 'unnorm' (default, with the
/// Condon-Shortley phase (-1)^m), 'sch' (Schmidt semi-normalized), 'norm' (fully normalized).
Outputs bi_legendre(CallContext&, Args args, int nargout) {
  check_nargin(args, 2, 3);
  check_nargout(nargout, 1);
  if (!args[0].is_tensor() || args[0].numel() != 1 || args[0].tensor().is_complex())
    throw_error("MATLAB:legendre:InvalidN", "N must be a positive scalar integer.");
  double nd = args[0].to_double("n");
  if (!(nd >= 0 && nd == std::floor(nd)))
    throw_error("MATLAB:legendre:InvalidN", "N must be a positive scalar integer.");
  // n + 1 rows: an order past int (1e300 was undefined to convert) is a size error.
  if (nd > 1e9)
    throw_error("MATLAB:array:SizeLimitExceeded",
                "Requested array exceeds the maximum possible variable size.");
  int n = static_cast<int>(nd);
  std::string norm = args.size() > 2 ? data::lower(args[2].to_text("normalization")) : "unnorm";
  if (norm != "unnorm" && norm != "sch" && norm != "norm")
    throw_error("MATLAB:legendre:InvalidNormalization",
                "NORMALIZE must be 'unnorm', 'sch', or 'norm'.");
  Tensor x = float_arg(args[1], "legendre");
  const int64_t nx = x.numel();
  Dims od;
  if (x.dims().is_vector() || x.numel() == 1) od = Dims(n + 1, nx);
  else {
    od = Dims(n + 1, 1);
    for (int k = 0; k < x.dims().ndims(); ++k) {
      if (k == 0) od.set(1, x.dims()[0]);
      else od.set(k + 1, x.dims()[k]);
    }
  }
  Tensor P = Tensor::uninit(ClassId::Double, od);
  for (int64_t q = 0; q < nx; ++q) {
    double t = x.get_double(q);
    if (t < -1 || t > 1)
      throw_error("MATLAB:legendre:XOutOfRange", "X must be real and in the range (-1,1).");
    double s = std::sqrt(std::max(0.0, 1 - t * t));
    for (int m = 0; m <= n; ++m) {
      // P_m^m = (-1)^m (2m-1)!! s^m, then upward in degree to n.
      double pmm = 1;
      for (int i = 1; i <= m; ++i) pmm *= -(2 * i - 1) * s;
      double val;
      if (n == m) {
        val = pmm;
      } else {
        double pm1 = t * (2 * m + 1) * pmm;
        if (n == m + 1) {
          val = pm1;
        } else {
          double a = pmm, b = pm1;
          for (int l = m + 2; l <= n; ++l) {
            double c = (t * (2 * l - 1) * b - (l + m - 1) * a) / (l - m);
            a = b;
            b = c;
          }
          val = b;
        }
      }
      if (norm != "unnorm") {
        // (n-m)!/(n+m)! by a product to stay finite.
        double ratio = 1;
        for (int i = n - m + 1; i <= n + m; ++i) ratio /= i;
        if (norm == "sch") {
          val *= (m % 2 ? -1 : 1);  // Schmidt functions carry no Condon-Shortley phase
          if (m > 0) val *= std::sqrt(2 * ratio);
        } else {
          val *= (m % 2 ? -1 : 1) * std::sqrt((n + 0.5) * ratio);
        }
      }
      P.set_double(q * (n + 1) + m, val);
    }
  }
  return {Value(P)};
}

}  // namespace

void register_special_functions(Registry& r) {
  r.add("psi", bi_psi);
  r.add("besselj", bi_besselj);
  r.add("bessely", bi_bessely);
  r.add("besseli", bi_besseli);
  r.add("besselk", bi_besselk);
  r.add("legendre", bi_legendre);
}

}  // namespace matfuse
