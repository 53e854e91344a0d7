// The linear-algebra and statistics fusion kinds (label_patterns) on every listed form of each,
// written as a user would, and near-misses that must not match; products, reductions and
// divisions whose 1x1 results stay lazy (no force between them).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <string>

#include "accel/capture/lazy.h"
#include "accel/run/telemetry.h"
#include "interp_test_util.h"

namespace matfuse::test {
namespace {

struct KindsGuard {
  accel::LazyConfig saved = accel::lazy_config();
  KindsGuard() { accel::lazy_config().min_numel = 1024; }
  ~KindsGuard() { accel::lazy_config() = saved; }
};

/// Runs code (it ends by reading its result, a sink) and counts the fusion_kind of every
/// group run.
std::map<std::string, int> kinds_of(const std::string& code) {
  KindsGuard g;
  Snippet s;
  accel::telemetry().clear();
  s(code);
  std::map<std::string, int> k;
  for (const auto& e : accel::telemetry().snapshot())
    for (const auto& gr : e.groups) ++k[gr.fusion_kind];
  return k;
}

int count(const std::string& code, const std::string& kind) { return kinds_of(code)[kind]; }

const char* kData = "rng(1); X = rand(3000, 6) + 2; n = size(X, 1); ";

// ---- centered_gram --------------------------------------------------------------------------

TEST(FusionKinds, CenteredGramForms) {
  const std::string forms[] = {
      "C = cov(X);",
      "C = cov(X, 1);",
      "C = cov(X, 0);",
      "mu = mean(X); Xc = X - mu; C = (Xc' * Xc) / (n - 1);",
      "Xc = X - mean(X); C = Xc' * Xc / n;",
      "C = (X - mean(X))' * (X - mean(X)) / (n - 1);",
      "C = (X - mean(X, 1))' * (X - mean(X, 1)) / n;",
      "Xc = bsxfun(@minus, X, mean(X)); C = Xc' * Xc / (n - 1);",
      "Xc = X - sum(X) / n; C = Xc' * Xc / (n - 1);",
      "Xc = X - mean(X); C = Xc' * Xc / 7;",  // another divisor: still the same product
  };
  for (const std::string& f : forms)
    EXPECT_EQ(count(kData + f + " c = C(1);", "centered_gram"), 1) << f;
}

TEST(FusionKinds, CenteredGramNearMisses) {
  const std::string forms[] = {
      "Xc = X - mean(X, 2); C = Xc' * Xc;",          // row means
      "Y = X + 1; Xc = X - mean(Y); C = Xc' * Xc;",  // the mean of another array
      "Xc = X - 1; C = Xc' * Xc;",                   // not a mean
      "Xc = X - mean(X); C = X' * Xc;",              // one operand not centred
      "C = X' * X / n;",                             // no centring at all
  };
  for (const std::string& f : forms)
    EXPECT_EQ(count(kData + f + " c = C(1);", "centered_gram"), 0) << f;
}

TEST(FusionKinds, CovIsTwoPassAndSymmetric) {
  KindsGuard g;
  Snippet s;
  // A large common offset: X'X - n*mu'*mu would lose every digit here.
  s("rng(2); X = rand(4000, 3) + 1e4; C = cov(X); "
    "Xd = X - mean(X); R = (Xd' * Xd) / (size(X,1) - 1); "
    "e = max(abs(C(:) - R(:))); sym = isequal(C, C.');");
  EXPECT_LT(s.num("e"), 1e-12);
  const Value* c = s.in.base_var("C");
  ASSERT_TRUE(c);
  const Tensor t = c->tensor();
  EXPECT_NEAR(t.get_double(0), 1.0 / 12, 0.01);
}

// ---- power_step_normalize --------------------------------------------------------------------

const char* kProduct = "rng(3); A = rand(200); A = A + A'; v = rand(200, 1); w = A * v; ";

TEST(FusionKinds, PowerStepNormalizeForms) {
  const std::string forms[] = {
      "v = w / norm(w);",
      "v = w / sqrt(w' * w);",
      "v = w / sqrt(sum(w.^2));",
      "v = w / sqrt(sum(w .* w));",
      "v = w / (norm(w) + eps);",
      "v = w / sqrt(w' * w + eps);",
      "v = w ./ (sqrt(sum(w.^2)) + 1e-12);",
      "v = w / norm(single(w));",
  };
  for (const std::string& f : forms)
    EXPECT_GE(count(kProduct + f + " c = v(1);", "power_step_normalize"), 2) << f;
  // Column-wise forms.
  const std::string cols[] = {
      "W = A * rand(200, 4); V = W ./ vecnorm(W);",
      "W = A * rand(200, 4); V = W ./ sqrt(sum(W.^2, 1));",
      "W = A * rand(200, 4); V = W ./ (vecnorm(W) + eps);",
  };
  for (const std::string& f : cols)
    EXPECT_GE(count(kProduct + f + " c = V(1);", "power_step_normalize"), 2) << f;
}

TEST(FusionKinds, PowerStepNormalizeNearMisses) {
  const std::string forms[] = {
      "u = A * rand(200, 1); v = w / norm(u);",  // the norm of another vector
      "v = w / sum(w);",                         // not a 2-norm
      "v = w / sqrt(sum(w.^3));",                // not squares
      "v = w / norm(w, 1);",                     // 1-norm
      "z = w + 1; v = z / norm(z);",             // the normalised value is not a product
  };
  for (const std::string& f : forms)
    EXPECT_EQ(count(kProduct + f + " c = v(1);", "power_step_normalize"), 0) << f;
}

TEST(FusionKinds, PowerStepNormalizeNumbers) {
  KindsGuard g;
  Snippet s;
  s(std::string(kProduct) +
    "a = w / norm(w); b = w / sqrt(w' * w); c = w / sqrt(sum(w.^2)); "
    "e = max(abs([a - b; a - c])); r = norm(a);");
  EXPECT_LT(s.num("e"), 1e-14);
  EXPECT_NEAR(s.num("r"), 1.0, 1e-14);
}

TEST(FusionKinds, ScalarChainStaysLazy) {
  // A chain of products, reductions and divisions with 1x1 results is evaluated once, at the
  // sink (one forced evaluation), not once per scalar.
  KindsGuard g;
  Snippet s;
  accel::telemetry().clear();
  s(std::string(kProduct) +
    "for k = 1:5, w = A * v; v = w / sqrt(w' * w); end; "
    "lam = v' * (A * v); nv = norm(v); m = max(v); t = sum(v) / nv + m;");
  int64_t evals = 0;
  for (const auto& e : accel::telemetry().snapshot()) evals += !e.groups.empty();
  EXPECT_EQ(evals, 0);  // nothing read yet
  s("disp(t > 0)");
  evals = 0;
  for (const auto& e : accel::telemetry().snapshot()) evals += !e.groups.empty();
  EXPECT_EQ(evals, 1);
}

// ---- explained_variance -------------------------------------------------------------------

TEST(FusionKinds, ExplainedVarianceForms) {
  const std::string pre = "rng(4); G = rand(300); G = G + G'; Q = rand(300, 5); ";
  const std::string forms[] = {
      "ev = diag(Q' * G * Q);",
      "B = G * Q; ev = diag(Q' * B);",
      "ev = sum((G * Q) .* Q, 1);",
      "ev = sum(Q .* (G * Q));",
  };
  for (const std::string& f : forms)
    EXPECT_EQ(count(pre + f + " c = ev(1);", "explained_variance"), 1) << f;
  // Near misses: diag of a sum, a non-square product (diag of a 300x5 matrix).
  EXPECT_EQ(count(pre + "ev = diag(G + G); c = ev(1);", "explained_variance"), 0);
  EXPECT_EQ(count(pre + "ev = diag(G * Q); c = ev(1);", "explained_variance"), 0);
  KindsGuard g;
  Snippet s;
  s(pre + "ev = diag(Q' * G * Q); Q2 = Q' * G * Q; e = max(abs(ev - diag(double(Q2) + 0)));");
  EXPECT_LT(s.num("e"), 1e-9);
}

// ---- image_normalize ------------------------------------------------------------------------

TEST(FusionKinds, ImageNormalize) {
  const std::string pre = "rng(5); I = rand(4, 60, 50, 'single'); ";
  EXPECT_GE(count(pre + "mu = mean(I, [2 3]); s = sqrt(mean((I - mu).^2, [2 3]) + 1e-6); "
                        "o = (I - mu) ./ s; c = o(1);",
                  "image_normalize"),
            1);
  // Statistics over dim 1 (not per slice) do not match.
  EXPECT_EQ(count(pre + "mu = mean(I, 1); o = (I - mu) ./ 2; c = o(1);", "image_normalize"), 0);
}

// ---- statistics as graph ops ----------------------------------------------------------------

TEST(FusionKinds, StatisticsAsGraphOpsMatchTheEagerBuiltins) {
  const std::string code =
      "rng(7); X = rand(3000, 5) * 4 + 2; A = rand(200); B = rand(200); "
      "r = [var(X), std(X, 1), var(X, 0, 2)', std(X, 0, 'all'), vecnorm(X), vecnorm(X, 2, 2)', "
      "norm(X(:, 1)), norm(X, 'fro'), trace(A * B), trace(A + 1), cov(X(:, 1)), "
      "reshape(cov(X), 1, []), reshape(zscore(X), 1, []), reshape(zscore(X, 1, 2), 1, [])];";
  auto run = [&](bool lazy) {
    KindsGuard g;
    accel::lazy_config().enabled = lazy;
    Snippet s;
    accel::telemetry().clear();
    s(code);
    int groups = 0;
    for (const auto& e : accel::telemetry().snapshot()) groups += static_cast<int>(e.groups.size());
    if (lazy) EXPECT_GT(groups, 0);
    return s.in.base_var("r")->tensor();
  };
  const Tensor fused = run(true), eager = run(false);
  ASSERT_EQ(fused.numel(), eager.numel());
  for (int64_t i = 0; i < fused.numel(); ++i)
    EXPECT_NEAR(fused.get_double(i), eager.get_double(i),
                1e-11 * std::max(1.0, std::abs(eager.get_double(i))))
        << "element " << i;
}

}  // namespace
}  // namespace matfuse::test
