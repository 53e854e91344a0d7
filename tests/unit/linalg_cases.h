// Dense linear algebra builtins through a provider's library path (accel/run/library.h) compared
// with the builtins' own host LAPACK code: the cases run once with the library path off
// (reference) and once with every call forced onto `provider` (set_linalg_override). Shared by
// the host unit test (provider "host": the algorithms of builtins/linalg_device.cc on LAPACKE)
// and the GPU test (provider "cuda": cuSOLVER on device-resident data).
#pragma once

#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <regex>
#include <string>
#include <vector>

#include "accel/plan/placement.h"
#include "accel/run/library.h"
#include "interp_test_util.h"

namespace matfuse::test {

struct LinalgCase {
  const char* name;
  const char* code;  ///< uses n, m (sizes) and cls ('single' / 'double')
  std::vector<const char*> vars;
};

/// The cases: random shapes are set by the caller (n square size, m > n rows).
inline const std::vector<LinalgCase>& linalg_cases() {
  static const std::vector<LinalgCase> cases = {
      {"mldivide_lu", "A = rand(n, cls) + eye(n, cls); B = rand(n, 3, cls); X = A \\ B;", {"X"}},
      {"mldivide_spd", "M = rand(n, cls); S = M' * M + n * eye(n, cls); B = rand(n, 2, cls);"
                       "X = S \\ B; Y = B' / S;", {"X", "Y"}},
      {"mldivide_triangular", "U = triu(rand(n, cls)) + eye(n, cls); L = U'; B = rand(n, 2, cls);"
                              "X = U \\ B; Y = L \\ B;", {"X", "Y"}},
      {"mldivide_lsq", "A = rand(m, n, cls); B = rand(m, 2, cls); X = A \\ B;", {"X"}},
      {"mrdivide", "A = rand(n, cls) + eye(n, cls); B = rand(3, n, cls); X = B / A;", {"X"}},
      {"singular", "lastwarn(''); Z = ones(n + 1, cls); X = Z \\ ones(n + 1, 1, cls);"
                   "[~, id] = lastwarn; w = strcmp(id, 'MATLAB:singularMatrix');", {"w"}},
      {"ill_conditioned", "lastwarn(''); N = n + 11; H = cast(1 ./ ((1:N)' + (1:N) - 1), cls);"
                          "X = H \\ ones(N, 1, cls); [~, id] = lastwarn;"
                          "w = any(strcmp(id, {'MATLAB:nearlySingularMatrix', 'MATLAB:singularMatrix'}));",
       {"w"}},
      {"inv_det", "A = rand(n, cls) + n * eye(n, cls); X = inv(A); d = det(A);"
                  "e = det(A([2:n 1], :));", {"X", "d", "e"}},
      {"lu", "A = rand(n, cls); Y = lu(A); [L1, U1] = lu(A); [L, U, P] = lu(A);"
             "[~, ~, p] = lu(A, 'vector'); W = rand(m, n, cls); [Lw, Uw, Pw] = lu(W);"
             "[Lt, Ut] = lu(W');", {"Y", "L1", "U1", "L", "U", "P", "p", "Lw", "Uw", "Pw", "Lt",
                                    "Ut"}},
      {"qr", "A = rand(m, n, cls); R0 = qr(A); [Q, R] = qr(A); [Qe, Re] = qr(A, 0);"
             "[Qs, Rs] = qr(A, 'econ'); [Qw, Rw] = qr(A');", {"R0", "Q", "R", "Qe", "Re", "Qs",
                                                              "Rs", "Qw", "Rw"}},
      {"chol", "M = rand(n, cls); S = M' * M + n * eye(n, cls); R = chol(S); L = chol(S, 'lower');"
               "N = S; N(n, n) = -1; [Rp, p] = chol(N);", {"R", "L", "Rp", "p"}},
      {"eig_sym", "M = rand(n, cls); S = M + M'; e = eig(S); [V, D] = eig(S);"
                  "r = norm(S * V - V * D) / norm(S); o = norm(V' * V - eye(n)); ok = r < 1e-3 &&"
                  " o < 1e-3; dd = diag(D);", {"e", "dd", "ok"}},
      {"svd", "A = rand(m, n, cls); s = svd(A); [U, S, V] = svd(A); [Ue, Se, Ve] = svd(A, 'econ');"
              "[Uw, Sw, Vw] = svd(A'); r = norm(U * S * V' - A) + norm(Ue * Se * Ve' - A) + "
              "norm(Uw * Sw * Vw' - A'); ok = r < 1e-3 * norm(A); sz = [size(U) size(S) size(V) "
              "size(Ue) size(Se) size(Ve) size(Uw) size(Sw) size(Vw)]; sd = diag(S);",
       {"s", "ok", "sz", "sd"}},
      // Exact zero columns: rank deficiency without borderline singular values.
      {"svd_family", "A = [rand(m, n, cls), zeros(m, 2, cls)]; k = rank(A); X = pinv(A);"
                     "c = cond(A(:, 1:n)); t = norm(A); N = null(A); O = orth(A);"
                     "sz = [size(N) size(O)]; z = norm(A * N) < 1e-3 * norm(A) &&"
                     " norm(O' * O - eye(n)) < 1e-3;", {"k", "X", "c", "t", "sz", "z"}},
      {"linsolve", "U = triu(rand(n, cls)) + eye(n, cls); B = rand(n, 2, cls);"
                   "o.UT = true; X = linsolve(U, B, o); o2.LT = true; Y = linsolve(U', B, o2);"
                   "[Z, r] = linsolve(U + U', B);", {"X", "Y", "Z", "r"}},
  };
  return cases;
}

inline ::testing::AssertionResult linalg_close(const Tensor& a, const Tensor& b, double tol) {
  if (a.cls() != b.cls() || a.dims() != b.dims())
    return ::testing::AssertionFailure() << "class/size differ: " << class_name(a.cls()) << " "
                                         << a.dims().str() << " vs " << class_name(b.cls())
                                         << " " << b.dims().str();
  double scale = 1;
  for (int64_t i = 0; i < b.numel(); ++i)
    if (std::isfinite(b.get_double(i))) scale = std::max(scale, std::abs(b.get_double(i)));
  for (int64_t i = 0; i < a.numel(); ++i) {
    const double x = a.get_double(i), y = b.get_double(i);
    if (x == y || (x != x && y != y)) continue;
    if (!(std::abs(x - y) <= tol * scale))
      return ::testing::AssertionFailure() << "element " << i << ": " << x << " vs " << y;
  }
  return ::testing::AssertionSuccess();
}

/// Runs every case at several random sizes in single and double, on the host code and through
/// `provider`, and compares the listed variables. Returns the library calls made on provider.
inline int64_t check_linalg_path(const std::string& provider) {
  const accel::LinalgStats before = accel::linalg_stats();
  std::mt19937 gen(17);
  for (const char* cls : {"double", "single"}) {
    const double tol = std::string(cls) == "single" ? 2e-3 : 1e-8;
    for (int rep = 0; rep < 3; ++rep) {
      const int n = std::uniform_int_distribution<int>(2, 40)(gen);
      const int m = n + std::uniform_int_distribution<int>(1, 30)(gen);
      const std::string head = "rng(" + std::to_string(rep + 3) + "); n = " + std::to_string(n) +
                               "; m = " + std::to_string(m) + "; cls = '" + cls + "';";
      for (const LinalgCase& c : linalg_cases()) {
        const std::string code = head + c.code;
        std::vector<Tensor> ref, got;
        std::string ref_err, got_err;
        for (int pass = 0; pass < 2; ++pass) {
          accel::set_linalg_override(pass == 0 ? "" : provider);
          if (pass == 0) accel::set_device_mode(accel::DeviceMode::Cpu);
          Snippet s;
          try {
            s(code);
          } catch (const MatlabError& e) {
            ADD_FAILURE() << c.name << " (" << cls << ", " << provider << "): " << e.message();
          }
          for (const char* v : c.vars) {
            const Value* val = s.in.base_var(v);
            if (!val) {
              ADD_FAILURE() << c.name << ": no variable " << v;
              continue;
            }
            Tensor t = val->tensor();
            (void)t.raw();
            (pass == 0 ? ref : got).push_back(t);
          }
          (pass == 0 ? ref_err : got_err) =
              std::regex_replace(s.err.str(), std::regex("RCOND = [^.]*\\.[0-9e+-]*"), "RCOND");
          accel::set_device_mode(accel::DeviceMode::Auto);
        }
        accel::set_linalg_override("");
        EXPECT_EQ(got_err, ref_err) << c.name << " (" << cls << ", n = " << n << ")";
        for (size_t i = 0; i < ref.size() && i < got.size(); ++i) {
          const std::string v = c.vars[i];
          if (v == "ok" || v == "z" || v == "w") {  // checks that must hold on both paths
            EXPECT_EQ(got[i].get_double(0), 1) << c.name << ": " << v << " (" << cls << ")";
          }
          EXPECT_TRUE(linalg_close(got[i], ref[i], tol))
              << c.name << ": " << c.vars[i] << " (" << cls << ", n = " << n << ", m = " << m
              << ")\n" << code;
        }
      }
    }
  }
  const accel::LinalgStats after = accel::linalg_stats();
  return provider == "host" ? after.host_calls - before.host_calls
                            : after.device_calls - before.device_calls;
}

}  // namespace matfuse::test
