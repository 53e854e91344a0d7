// Reduction and matrix-product kernels on the Vulkan provider (ctest label `vulkan`, run with
// MATFUSE_DEVICE=vulkan; in CI on Mesa's lavapipe). Reductions are compared with the host
// provider bit for bit (the pairwise order of runtime/reduce.h, NaN rules, omitnan), over every
// dimension, for lanes of 1, 127, 128, 129 and 10^6 terms, with epilogues and body outputs;
// products within a relative tolerance (another summation order than OpenBLAS's). Each case
// also checks that its reduction or product groups ran on "vulkan".
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "accel/run/provider.h"
#include "gpu_util.h"
#include "vulkan_test_util.h"
#include "providers/vulkan/vulkan_provider.h"

namespace matfuse::gputest {
namespace {

bool is_product(const std::string& kind) {
  return kind == "matmul" || kind == "matmul_epilogue" || kind == "centered_gram" ||
         kind == "power_step_normalize" || kind == "explained_variance";
}

/// Groups of the run that are reductions (product false) or products (true) and ran on
/// `provider`; every such group must have run on Vulkan (none left to the host for a reason
/// of code generation).
int groups_on(const ScriptRun& d, bool product, const std::string& provider) {
  int n = 0;
  for (const auto& g : d.groups) {
    if (g.fusion_kind == "elementwise" || g.fusion_kind == "loop") continue;
    if (is_product(g.fusion_kind) != product) continue;
    EXPECT_EQ(g.placement.find("vulkan cannot run it"), std::string::npos)
        << g.fusion_kind << ": " << g.placement;
    n += g.provider == provider;
  }
  return n;
}

/// Runs code on the host and on Vulkan: every name in `exact` bitwise equal, every name in
/// `approx` within tol (relative to the largest magnitude); at least `reductions` reduction and
/// `products` product groups ran on Vulkan.
ScriptRun host_vs_vulkan(const std::string& code, const std::vector<std::string>& exact,
                         int reductions, const std::vector<std::string>& approx = {},
                         double tol = 0, int products = 0) {
  ScriptRun d = host_and_device_runs(code, exact, approx, tol).second;
  EXPECT_GE(groups_on(d, false, "vulkan"), reductions) << code << "\n" << d.summary();
  EXPECT_GE(groups_on(d, true, "vulkan"), products) << code << "\n" << d.summary();
  return d;
}

/// MATLAB code making X (rows x cols x pages, class cls) with magnitudes over many decades,
/// some NaN (every 37th element) and signed zeros; X is materialised (an indexed assignment),
/// so that the random generator is not fused into the kernels under test.
std::string data(const std::string& cls, int64_t rows, int64_t cols, int64_t pages = 1) {
  const std::string sz = std::to_string(rows) + ", " + std::to_string(cols) + ", " +
                         std::to_string(pages);
  return "rng(17); X = randn(" + sz + ") .* 10 .^ round(4 * rand(" + sz + ") - 2); X(1:37:end) = "
         "NaN; X(2:41:end) = -0; X(3:43:end) = 0; X = " + cls + "(X); X(1) = X(1);";
}

/// Indexed assignments that materialise the named arrays (their generators run before the
/// products under test, not fused into them).
std::string materialise(const std::vector<std::string>& names) {
  std::string s;
  for (const std::string& n : names) s += n + "(1) = " + n + "(1); ";
  return s;
}

TEST(VulkanReduce, SumMeanProdMinMaxAnyAllOverEveryDim) {
  MATFUSE_REQUIRE_VULKAN();
  for (const std::string cls : {"double", "single"}) {
    const std::string code =
        data(cls, 129, 31, 5) +
        "Y = X * 0.5 + 1; s1 = sum(Y, 1); s2 = sum(Y, 2); s3 = sum(Y, 3); sa = sum(Y, 'all');"
        "s13 = sum(Y, [1 3]); o1 = sum(Y, 1, 'omitnan'); o2 = mean(Y, 2, 'omitnan');"
        "o3 = mean(Y, 3); o4 = mean(Y, 'all', 'omitnan'); p1 = prod(Y, 1); p2 = prod(Y * 0.9, 2, "
        "'omitnan'); p3 = prod(Y - 1, 3); x1 = max(Y, [], 1); x2 = max(Y, [], 2, 'includenan');"
        "x3 = min(Y, [], 3); x4 = min(Y - 1, [], 1, 'includenan'); x5 = max(Y - 1, [], 'all');"
        "a1 = any(Y > 3, 1); a2 = all(Y > -3, 2); a3 = any(Y - 1, 3); a4 = all(Y - 1, 1);";
    host_vs_vulkan(code, {"s1", "s2", "s3", "sa", "s13", "o1", "o2", "o3", "o4", "p1", "p2",
                          "p3", "x1", "x2", "x3", "x4", "x5", "a1", "a2", "a3", "a4"},
                   4);
  }
}

TEST(VulkanReduce, LaneLengthsAroundThePairwiseBlock) {
  MATFUSE_REQUIRE_VULKAN();
  // n = 1 (a row summed down its columns), 127, 128, 129 (one leaf, one leaf, 64 + 65),
  // 256, 257, 1000 and 4097 (several leaves), along columns (contiguous lanes) and rows
  // (strided lanes).
  for (const std::string cls : {"double", "single"}) {
    for (int64_t n : {1, 127, 128, 129, 256, 257, 1000, 4097}) {
      const int64_t cols = std::max<int64_t>(8, 4000 / n);
      const std::string code =
          data(cls, n, cols) +
          "c1 = sum(X * 3, 1); c2 = mean(X + 1, 1, 'omitnan'); c3 = max(X - 2, [], 1);"
          "c4 = sum(X * 3, 1, 'omitnan'); Z = X.'; r1 = sum(Z * 3, 2); r2 = mean(Z + 1, 2, "
          "'omitnan'); r3 = min(Z - 2, [], 2); r4 = sum(abs(Z), 2, 'omitnan');";
      SCOPED_TRACE(cls + " n = " + std::to_string(n));
      host_vs_vulkan(code, {"c1", "c2", "c3", "c4", "r1", "r2", "r3", "r4"}, n > 1 ? 4 : 0);
    }
  }
}

TEST(VulkanReduce, FewLongLanes) {
  MATFUSE_REQUIRE_VULKAN();
  // The sum of one long vector (its leaves folded in parallel, then combined dispatch by
  // dispatch along the same tree), three long strided rows, in-order folds of a long lane, and
  // a long vector also written out by the reduction that reads it (Z).
  for (const std::string cls : {"double", "single"}) {
    const std::string code =
        data(cls, 1000000, 1) +
        "s = sum(X * 2); so = sum(X * 2, 'omitnan'); m = mean(X + 1, 'omitnan');"
        "mx = max(X * 2); mn = min(X * 2, [], 'includenan'); an = any(X > 4); al = all(X + 1e-3);"
        "p = prod(X(1:3000) * 0 + 1.0001); Y = reshape(X(1:999999), 3, []); r = sum(Y * 2, 2, "
        "'omitnan'); q = max(Y + 1, [], 2); Z = X * 3 - 1; sz = sum(Z, 'omitnan');";
    host_vs_vulkan(code, {"s", "so", "m", "mx", "mn", "an", "al", "p", "r", "q", "Z", "sz"}, 6);
  }
}

TEST(VulkanReduce, VarianceLikeChainsEpiloguesAndBodyOutputs) {
  MATFUSE_REQUIRE_VULKAN();
  for (const std::string cls : {"double", "single"}) {
    const std::string code =
        data(cls, 300, 40) +
        "X(isnan(X)) = 1.5; mu = mean(X, 1); D = X - mu; v = sum(D .* D, 1) / (size(X, 1) - 1);"
        "w = var(X, 0, 2); nr = sqrt(sum(X .^ 2, 1)); z = (sum(X, 2) - 1) ./ 3 + 2;"
        "Y = X .* 3 - 1; t = sum(Y, 1); u = max(Y, [], 2) * 2; k = sum(X > 0, 1) + 1;";
    host_vs_vulkan(code, {"mu", "D", "v", "w", "nr", "z", "Y", "t", "u", "k"}, 4);
  }
}

TEST(VulkanReduce, IntegerAndLogicalInputs) {
  MATFUSE_REQUIRE_VULKAN();
  host_vs_vulkan(data("double", 200, 30) +
                     "I = int32(X * 100); I(1) = I(1); L = X > 0; L(1) = L(1);"
                     "s = sum(I + 1, 1); m = max(I - 1, [], 2); a = any(L & X < 1, 1);"
                     "b = all(L | X < 1, 2); c = sum(L, 1); n = sum(L & L, 'all');",
                 {"s", "m", "a", "b", "c", "n"}, 3);
}

TEST(VulkanReduce, MatrixProductsOfEveryShape) {
  MATFUSE_REQUIRE_VULKAN();
  // General, tall (k small), wide (k long, small output: one workgroup per element), op(A) and
  // op(B) transposed, syrk (A.'*A, A*A.'), an outer product (k = 1) and edge tiles (sizes not
  // multiples of 64).
  for (const std::string cls : {"double", "single"}) {
    const double tol = cls == "single" ? 2e-5 : 1e-12;
    const std::string C = "'" + cls + "'";
    const std::string code =
        "rng(21); A = rand(200, 150, " + C + "); B = rand(150, 170, " + C + ");"
        "T = rand(3000, 20, " + C + "); U = rand(20, 30, " + C + "); H = rand(20, 3000, " + C +
        "); V = rand(3000, 30, " + C + "); u = rand(1, 500, " + C + "); w = rand(1, 400, " + C +
        "); At = rand(150, 200, " + C + "); Bt = rand(170, 150, " + C + ");" +
        materialise({"A", "B", "T", "U", "H", "V", "u", "w", "At", "Bt"}) +
        "P1 = A * B; P2 = T * U; P3 = H * V; P4 = At' * B; P5 = A * Bt'; P6 = At' * Bt';"
        "P7 = u' * w; P8 = A' * A; P9 = A * A'; P10 = T' * T; P11 = A(1:65, 1:129) * B(1:129, "
        "1:63);";
    host_vs_vulkan(code, {}, 0,
                   {"P1", "P2", "P3", "P4", "P5", "P6", "P7", "P8", "P9", "P10", "P11"}, tol, 11);
  }
}

TEST(VulkanReduce, MatrixVectorDotScaledAndEpilogueProducts) {
  MATFUSE_REQUIRE_VULKAN();
  // Matrix-vector both ways, a dot product, a small syrk of a long inner dimension, alpha
  // (C*s and C/s folded into the product), and epilogues over the m x n output.
  for (const std::string cls : {"double", "single"}) {
    const double tol = cls == "single" ? 2e-5 : 1e-12;
    const std::string C = "'" + cls + "'";
    const std::string code =
        "rng(22); A = rand(3000, 150, " + C + "); x = rand(150, 1, " + C + "); B = rand(150, "
        "3000, " + C + "); xl = rand(5000, 1, " + C + "); yl = rand(5000, 1, " + C + ");"
        "G = rand(5000, 3, " + C + "); r = rand(1, 50, " + C + "); c = rand(3000, 1, " + C +
        "); s = " + cls + "(2.5);" + materialise({"A", "x", "B", "xl", "yl", "G", "r", "c"}) +
        "P1 = A * x; P2 = x' * B; P3 = xl' * yl; P4 = G' * G; P5 = G' * xl;"
        "P6 = (A * B(:, 1:30)) * s; P7 = A * B(:, 31:70) / 3; P8 = -2 * (A * B(:, 71:100));"
        "E1 = max(A * B(:, 101:150) + r, 0.75 * 150) - c; E2 = sqrt(abs(A * B(:, 151:200) - "
        "20)) .* 2; E3 = (A * B(:, 201:250)) > 37;";
    host_vs_vulkan(code, {}, 0,
                   {"P1", "P2", "P3", "P4", "P5", "P6", "P7", "P8", "E1", "E2", "E3"}, tol, 10);
  }
}

TEST(VulkanReduce, ProductEpilogueEndedByDiag) {
  MATFUSE_REQUIRE_VULKAN();
  for (const std::string cls : {"double", "single"}) {
    const double tol = cls == "single" ? 2e-5 : 1e-12;
    const std::string C = "'" + cls + "'";
    const std::string code =
        "rng(12); A = rand(230, 120, " + C + "); W = rand(120, 170, " + C + "); r = rand(1, 170, " +
        C + "); c = rand(230, 1, " + C + "); F = rand(230, 170, " + C + ");" +
        materialise({"A", "W", "r", "c", "F"}) + "d = diag(max(A*W*2 + r - c - F, 0.25)); e = diag(W'*A');";
    host_vs_vulkan(code, {}, 0, {"d", "e"}, tol, 1);
  }
}

}  // namespace
}  // namespace matfuse::gputest
