// Dense linear algebra builtins on the provider that holds their data (see linalg_device.h).
#include "builtins/linalg_device.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <functional>
#include <limits>
#include <numeric>

#include "accel/run/library.h"
#include "builtins/linalg_detail.h"

namespace matfuse::linalg_device {
namespace {

using accel::Linalg;
using Kind = FillCall::Kind;

/// Runs f; a device workspace that does not fit (matfuse:gpuOutOfMemory) or a call the device
/// library cannot take (matfuse:notAvailable: dimensions of 2^31 or more) gives nullopt, so the
/// builtin falls back to its host code. Device faults (matfuse:cudaError) are raised.
template <class F> auto guarded(F&& f) -> decltype(f()) {
  try {
    return f();
  } catch (const MatlabError& e) {
    if (e.identifier() == "matfuse:gpuOutOfMemory" || e.identifier() == "matfuse:notAvailable")
      return std::nullopt;
    throw;
  }
}

double eps_of(const Linalg& la) {
  return la.f32() ? std::numeric_limits<float>::epsilon()
                  : std::numeric_limits<double>::epsilon();
}

/// MATLAB's eps(x) in the Linalg's class.
double eps_at(const Linalg& la, double x) {
  x = std::abs(x);
  if (!std::isfinite(x)) return std::numeric_limits<double>::quiet_NaN();
  if (la.f32()) {
    const float f = static_cast<float>(x);
    return static_cast<double>(std::nextafter(f, std::numeric_limits<float>::infinity()) - f);
  }
  return std::nextafter(x, std::numeric_limits<double>::infinity()) - x;
}

std::string fmt_e(double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%13.6e", v);
  return buf;
}

/// MATLAB's warnings of a square solve (the host code's condition_warning).
void condition_warning(const Linalg& la, bool singular, double rcond) {
  using linalg_detail::warn;
  if (singular) {
    warn("MATLAB:singularMatrix", "Matrix is singular to working precision.");
  } else if (rcond != rcond) {
    warn("MATLAB:illConditionedMatrix",
         "Matrix is singular, close to singular or badly scaled. Results may be inaccurate. "
         "RCOND = NaN.");
  } else if (rcond < eps_of(la)) {
    warn("MATLAB:nearlySingularMatrix",
         "Matrix is close to singular or badly scaled. Results may be inaccurate. RCOND = " +
             fmt_e(rcond) + ".");
  }
}

/// Estimate of ||inv(A)||_1 from solves with A (trans false) and A' (trans true), which
/// overwrite their argument: Hager's method as refined by Higham (ACM TOMS 14(4), 1988,
/// Algorithm 4.1; LAPACK xLACN2), at most 5 iterations plus the alternating-sign test vector.
double inv_norm1_estimate(int64_t n, const std::function<void(std::vector<double>&, bool)>& solve) {
  auto norm1 = [](const std::vector<double>& v) {
    double s = 0;
    for (double x : v) s += std::abs(x);
    return s;
  };
  auto signs = [](const std::vector<double>& v) {
    std::vector<double> s(v.size());
    for (size_t i = 0; i < v.size(); ++i) s[i] = v[i] >= 0 ? 1.0 : -1.0;
    return s;
  };
  auto argmax = [](const std::vector<double>& v) {
    size_t j = 0;
    for (size_t i = 1; i < v.size(); ++i)
      if (std::abs(v[i]) > std::abs(v[j])) j = i;
    return j;
  };
  const size_t N = static_cast<size_t>(n);
  std::vector<double> x(N, 1.0 / static_cast<double>(n));
  solve(x, false);
  if (n == 1) return std::abs(x[0]);
  double est = norm1(x);
  if (est != est) return est;
  std::vector<double> xi = signs(x);
  x = xi;
  solve(x, true);
  size_t j = argmax(x);
  for (int iter = 2;; ++iter) {
    std::fill(x.begin(), x.end(), 0.0);
    x[j] = 1;
    solve(x, false);
    const double estold = est;
    est = norm1(x);
    std::vector<double> s = signs(x);
    if (s == xi || est <= estold) break;
    xi = s;
    x = xi;
    solve(x, true);
    const size_t jlast = j;
    j = argmax(x);
    if (!(std::abs(x[jlast]) != std::abs(x[j]) && iter < 5)) break;
  }
  double alt = 1;
  for (size_t i = 0; i < N; ++i) {
    x[i] = alt * (1.0 + static_cast<double>(i) / static_cast<double>(n - 1));
    alt = -alt;
  }
  solve(x, false);
  const double temp = 2.0 * norm1(x) / (3.0 * static_cast<double>(n));
  return std::max(est, temp);
}

/// rcond = 1 / (||A||_1 * est(||inv(A)||_1)).
double rcond_of(double anorm, int64_t n,
                const std::function<void(std::vector<double>&, bool)>& solve) {
  if (anorm != anorm) return anorm;
  if (anorm == 0 || n == 0) return n == 0 ? INFINITY : 0;
  const double est = inv_norm1_estimate(n, solve);
  if (est != est) return est;
  return est == 0 ? INFINITY : (1.0 / est) / anorm;
}

/// A solve callback for rcond_of from a factor-specific in-place solve of an n x 1 matrix.
std::function<void(std::vector<double>&, bool)> vector_solve(
    const Linalg& la, std::function<void(Tensor&, bool)> apply) {
  return [&la, apply](std::vector<double>& v, bool trans) {
    Tensor x = la.from_host(v);
    apply(x, trans);
    v = la.to_host(x);
  };
}

enum class Mode { Auto, Lower, Upper, PosDef, LU };

/// Square solve A X = B with MATLAB's choice by structure (Auto) or the given one; warns when
/// `warn`; *rc receives the reciprocal condition estimate when non-null.
Tensor solve_square(const Linalg& la, const Tensor& A, const Tensor& B, Mode mode, bool warn,
                    double* rc) {
  const int64_t n = A.dims().rows();
  const MatrixTraits tr = la.analyze(A);
  bool upper = mode == Mode::Upper || (mode == Mode::Auto && tr.upper);
  bool lower = !upper && (mode == Mode::Lower || (mode == Mode::Auto && tr.lower));
  double r = 0;
  if (upper || lower) {
    const bool singular = tr.zero_diag;
    if (!singular)
      r = rcond_of(tr.norm1, n, vector_solve(la, [&](Tensor& x, bool t) {
                     la.trsm(A, x, upper, t);
                   }));
    if (warn) condition_warning(la, singular, r);
    if (rc) *rc = r;
    Tensor X = la.copy(B);
    la.trsm(A, X, upper, false);
    return X;
  }
  if (mode == Mode::PosDef || (mode == Mode::Auto && tr.symmetric && tr.pos_diag)) {
    Tensor F = la.copy(A);
    if (la.potrf(F, true) == 0) {
      r = rcond_of(tr.norm1, n, vector_solve(la, [&](Tensor& x, bool) { la.potrs(F, x, true); }));
      if (warn) condition_warning(la, false, r);
      if (rc) *rc = r;
      Tensor X = la.copy(B);
      la.potrs(F, X, true);
      return X;
    }
  }
  Tensor F = la.copy(A);
  Tensor ipiv = la.alloc_index(n);
  const int info = la.getrf(F, ipiv);
  if (info == 0)
    r = rcond_of(tr.norm1, n, vector_solve(la, [&](Tensor& x, bool t) {
                   la.getrs(F, ipiv, x, t);
                 }));
  if (tr.norm1 != tr.norm1) r = tr.norm1;
  if (warn) condition_warning(la, info > 0, r);
  if (rc) *rc = r;
  Tensor X = la.copy(B);
  la.getrs(F, ipiv, X, false);
  return X;
}

/// Least squares for m > n by QR (geqrf, Q' * B by ormqr, triangular solve with R). nullopt
/// when R's diagonal shows rank deficiency (the host's complete orthogonal factorization then
/// gives MATLAB's warning and answer).
std::optional<Tensor> solve_lsq(const Linalg& la, const Tensor& A, const Tensor& B) {
  const int64_t m = A.dims().rows(), n = A.dims().cols();
  Tensor F = la.copy(A);
  Tensor tau = la.geqrf(F);
  const std::vector<double> d = la.to_host(la.diag_of(F));
  double dmax = 0;
  for (double v : d) dmax = std::max(dmax, std::abs(v));
  const double tol = static_cast<double>(std::max(m, n)) * eps_of(la) * dmax;
  for (double v : d)
    if (!(std::abs(v) > tol)) return std::nullopt;
  Tensor C = la.copy(B);
  la.ormqr(F, tau, n, C, true);
  Tensor X = la.block(C, 0, 0, n, C.dims().cols());
  la.trsm(F, X, true, false);
  return X;
}

std::optional<Value> solve(const Tensor& a, const Tensor& b, bool right) {
  const int64_t m = right ? a.dims().cols() : a.dims().rows();
  const int64_t n = right ? a.dims().rows() : a.dims().cols();
  const int64_t k = right ? b.dims().rows() : b.dims().cols();
  if (m < n || a.numel() == 0 || b.numel() == 0) return std::nullopt;
  const double flops = m == n ? 2.0 / 3 * n * n * n + 2.0 * n * n * k
                              : 2.0 * m * n * n + 4.0 * m * n * k;
  auto la = Linalg::choose({&a, &b}, flops);
  if (!la) return std::nullopt;
  return guarded([&]() -> std::optional<Value> {
    const Tensor A = right ? la->transpose(a) : a;
    const Tensor B = right ? la->transpose(b) : b;
    std::optional<Tensor> X;
    if (m == n) X = solve_square(*la, A, B, Mode::Auto, true, nullptr);
    else X = solve_lsq(*la, A, B);
    if (!X) return std::nullopt;
    return Value(right ? la->transpose(*X) : *X);
  });
}

bool finite(const Linalg& la, const Tensor& a) { return la.analyze(a).finite; }

}  // namespace

std::optional<Value> mldivide(const Tensor& a, const Tensor& b) { return solve(a, b, false); }

std::optional<Value> mrdivide(const Tensor& b, const Tensor& a) { return solve(a, b, true); }

std::optional<Value> linsolve(const Tensor& a, const Tensor& b, bool lt, bool ut, bool posdef,
                              bool warn, double* rc) {
  const int64_t n = a.dims().rows();
  if (n == 0 || n != a.dims().cols() || b.numel() == 0) return std::nullopt;
  auto la = Linalg::choose({&a, &b}, 2.0 / 3 * n * n * n + 2.0 * n * n * b.dims().cols());
  if (!la) return std::nullopt;
  const Mode mode = lt ? Mode::Lower : ut ? Mode::Upper : posdef ? Mode::PosDef : Mode::LU;
  return guarded([&]() -> std::optional<Value> {
    return Value(solve_square(*la, a, b, mode, warn, rc));
  });
}

std::optional<Value> inv(const Tensor& a) {
  const int64_t n = a.dims().rows();
  if (n == 0) return std::nullopt;
  auto la = Linalg::choose({&a}, 2.0 * n * n * n);
  if (!la) return std::nullopt;
  return guarded([&]() -> std::optional<Value> {
    const MatrixTraits tr = la->analyze(a);
    if (!tr.finite) return std::nullopt;  // the host code gives the NaN matrix
    Tensor F = la->copy(a);
    Tensor ipiv = la->alloc_index(n);
    if (la->getrf(F, ipiv) > 0) return std::nullopt;  // the host code warns, gives Inf
    const double r = rcond_of(tr.norm1, n, vector_solve(*la, [&](Tensor& x, bool t) {
                                la->getrs(F, ipiv, x, t);
                              }));
    if (r < eps_of(*la)) condition_warning(*la, false, r);
    Tensor X = la->diag(n, n, nullptr, 1);
    la->getrs(F, ipiv, X, false);
    return Value(X);
  });
}

std::optional<Value> det(const Tensor& a) {
  const int64_t n = a.dims().rows();
  if (n == 0) return std::nullopt;
  auto la = Linalg::choose({&a}, 2.0 / 3 * n * n * n);
  if (!la) return std::nullopt;
  return guarded([&]() -> std::optional<Value> {
    Tensor F = la->copy(a);
    Tensor ipiv = la->alloc_index(n);
    la->getrf(F, ipiv);
    const std::vector<double> d = la->to_host(la->diag_of(F));
    const std::vector<double> p = la->to_host(ipiv);
    double r = 1;
    for (int64_t i = 0; i < n; ++i) {
      r *= d[static_cast<size_t>(i)];
      if (static_cast<int64_t>(p[static_cast<size_t>(i)]) != i + 1) r = -r;
    }
    return Value(Tensor::scalar(r, la->cls()));
  });
}

std::optional<Outputs> lu(const Tensor& a, int nargout, bool vec) {
  const int64_t m = a.dims().rows(), n = a.dims().cols(), k = std::min(m, n);
  if (k == 0) return std::nullopt;
  auto la = Linalg::choose({&a}, 2.0 * m * n * k);
  if (!la) return std::nullopt;
  return guarded([&]() -> std::optional<Outputs> {
    Tensor F = la->copy(a);
    Tensor ipiv = la->alloc_index(k);
    la->getrf(F, ipiv);
    if (nargout <= 1) return Outputs{Value(F)};
    const std::vector<double> piv = la->to_host(ipiv);
    std::vector<int32_t> perm(static_cast<size_t>(m));
    std::iota(perm.begin(), perm.end(), 0);
    for (int64_t i = 0; i < k; ++i)
      std::swap(perm[static_cast<size_t>(i)],
                perm[static_cast<size_t>(static_cast<int64_t>(piv[static_cast<size_t>(i)]) - 1)]);
    Tensor L = la->block(F, 0, 0, m, k);
    la->fill(L, Kind::Tril, -1);
    la->fill(L, Kind::UnitDiag);
    Tensor U = la->block(F, 0, 0, k, n);
    la->fill(U, Kind::Triu, 0);
    if (nargout == 2) {
      Tensor pt = Tensor::uninit(ClassId::Int32, Dims(m, 1));
      std::copy(perm.begin(), perm.end(), pt.mutable_data<int32_t>());
      return Outputs{Value(la->permute_rows(L, pt, true)), Value(U)};
    }
    Tensor P;
    if (vec) {
      P = Tensor::uninit(ClassId::Double, Dims(1, m));
      for (int64_t i = 0; i < m; ++i) P.set_double(i, perm[static_cast<size_t>(i)] + 1.0);
    } else {
      P = Tensor::zeros(ClassId::Double, Dims(m, m));
      for (int64_t i = 0; i < m; ++i) P.set_double(perm[static_cast<size_t>(i)] * m + i, 1.0);
    }
    return Outputs{Value(L), Value(U), Value(P)};
  });
}

std::optional<Outputs> qr(const Tensor& a, int nargout, bool econ) {
  const int64_t m = a.dims().rows(), n = a.dims().cols(), k = std::min(m, n);
  if (k == 0) return std::nullopt;
  auto la = Linalg::choose({&a}, 4.0 * m * n * k);
  if (!la) return std::nullopt;
  return guarded([&]() -> std::optional<Outputs> {
    Tensor F = la->copy(a);
    Tensor tau = la->geqrf(F);
    const int64_t rrows = econ ? k : m;
    Tensor R = rrows == m ? F : la->block(F, 0, 0, rrows, n);
    if (nargout <= 1) {
      la->fill(R, Kind::Triu, 0);
      return Outputs{Value(R)};
    }
    if (rrows == m) R = la->copy(F);  // F keeps the reflectors for orgqr
    la->fill(R, Kind::Triu, 0);
    Tensor Q = la->orgqr(F, tau, econ ? k : m);
    return Outputs{Value(Q), Value(R)};
  });
}

std::optional<Outputs> chol(const Tensor& a, int nargout, bool lower) {
  const int64_t n = a.dims().rows();
  if (n == 0) return std::nullopt;
  auto la = Linalg::choose({&a}, 1.0 / 3 * n * n * n);
  if (!la) return std::nullopt;
  return guarded([&]() -> std::optional<Outputs> {
    Tensor F = la->copy(a);
    int info = la->potrf(F, !lower);
    if (info < 0) info = 1;
    if (info > 0 && nargout < 2) throw_error("MATLAB:posdef", "Matrix must be positive definite.");
    const int64_t keep = info > 0 ? info - 1 : n;
    Tensor R = keep == n ? F : la->block(F, 0, 0, keep, keep);
    la->fill(R, lower ? Kind::Tril : Kind::Triu, 0);
    Outputs out{Value(R)};
    if (nargout > 1) out.push_back(Value(static_cast<double>(info)));
    return out;
  });
}

std::optional<Outputs> eig(const Tensor& a, int nargout, bool dmat) {
  const int64_t n = a.dims().rows();
  if (n == 0 || n != a.dims().cols()) return std::nullopt;
  auto la = Linalg::choose({&a}, 9.0 * n * n * n);
  if (!la) return std::nullopt;
  return guarded([&]() -> std::optional<Outputs> {
    const MatrixTraits tr = la->analyze(a);
    if (!tr.symmetric || !tr.finite) return std::nullopt;  // general or NaN/Inf: the host
    Tensor V = la->copy(a);
    int info = 0;
    Tensor w = la->syevd(V, nargout >= 2, &info);
    if (info != 0) return std::nullopt;
    Value D = dmat ? Value(la->diag(n, n, &w)) : Value(w);
    if (nargout < 2) return Outputs{D};
    return Outputs{Value(V), D};
  });
}

std::optional<Outputs> svd(const Tensor& a, int nargout, bool econ, int form) {
  const int64_t m = a.dims().rows(), n = a.dims().cols(), k = std::min(m, n);
  if (k == 0) return std::nullopt;
  auto la = Linalg::choose({&a}, 12.0 * std::max(m, n) * k * k);
  if (!la) return std::nullopt;
  return guarded([&]() -> std::optional<Outputs> {
    if (!finite(*la, a)) return std::nullopt;  // the host raises MATLAB:svd:matrixWithNaNInf
    Tensor F = la->copy(a), s, U, V;
    if (nargout <= 1) {
      if (la->gesvd(F, 'N', s, nullptr, nullptr) != 0) return std::nullopt;
      if (form == 2) return Outputs{Value(la->diag(k, k, &s))};
      return Outputs{Value(s)};
    }
    if (la->gesvd(F, econ ? 'S' : 'A', s, &U, &V) != 0) return std::nullopt;
    Value S = form == 1 ? Value(s)
                        : Value(la->diag(U.dims().cols(), V.dims().cols(), &s));
    Outputs out{Value(U), S};
    if (nargout > 2) out.push_back(Value(V));
    return out;
  });
}

std::optional<std::vector<double>> singular_values(const Tensor& a) {
  const int64_t m = a.dims().rows(), n = a.dims().cols(), k = std::min(m, n);
  if (k == 0) return std::nullopt;
  auto la = Linalg::choose({&a}, 4.0 * std::max(m, n) * k * k);
  if (!la) return std::nullopt;
  return guarded([&]() -> std::optional<std::vector<double>> {
    if (!finite(*la, a)) return std::nullopt;
    Tensor F = la->copy(a), s;
    if (la->gesvd(F, 'N', s, nullptr, nullptr) != 0) return std::nullopt;
    return la->to_host(s);
  });
}

std::optional<Value> pinv(const Tensor& a, double tol) {
  const int64_t m = a.dims().rows(), n = a.dims().cols(), k = std::min(m, n);
  if (k == 0) return std::nullopt;
  auto la = Linalg::choose({&a}, 14.0 * std::max(m, n) * k * k);
  if (!la) return std::nullopt;
  return guarded([&]() -> std::optional<Value> {
    if (!finite(*la, a)) return std::nullopt;
    Tensor F = la->copy(a), s, U, V;
    if (la->gesvd(F, 'S', s, &U, &V) != 0) return std::nullopt;
    const std::vector<double> sv = la->to_host(s);
    if (tol < 0) tol = static_cast<double>(std::max(m, n)) * eps_at(*la, sv[0]);
    la->fill(V, Kind::ScaleCols, 0, &s, tol);
    return Value(la->gemm(V, U, false, true));
  });
}

std::optional<Value> null_orth(const Tensor& a, bool want_null) {
  const int64_t m = a.dims().rows(), n = a.dims().cols(), k = std::min(m, n);
  if (k == 0) return std::nullopt;
  auto la = Linalg::choose({&a}, 22.0 * std::max(m, n) * std::max(m, n) * k);
  if (!la) return std::nullopt;
  return guarded([&]() -> std::optional<Value> {
    if (!finite(*la, a)) return std::nullopt;
    Tensor F = la->copy(a), s, U, V;
    if (la->gesvd(F, 'A', s, &U, &V) != 0) return std::nullopt;
    const std::vector<double> sv = la->to_host(s);
    const double tol = static_cast<double>(std::max(m, n)) * eps_at(*la, sv[0]);
    int64_t r = 0;
    for (double v : sv)
      if (v > tol) ++r;
    if (want_null) return Value(la->block(V, 0, r, n, n - r));
    return Value(la->block(U, 0, 0, m, r));
  });
}

}  // namespace matfuse::linalg_device
