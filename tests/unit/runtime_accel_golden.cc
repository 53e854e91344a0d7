// Planner golden tests: a few lines of MATLAB run through the interpreter; the fusion groups
// the acceleration layer ran (count and fusion_kind, read from telemetry) and the printed
// results, which must equal those of the same code run with capture off (the eager engine).
#include <gtest/gtest.h>

#include <cmath>
#include <set>
#include <string>
#include <vector>

#include "accel/capture/lazy.h"
#include "accel/run/telemetry.h"
#include "interp_test_util.h"

namespace matfuse::accel {
namespace {

/// Sets the capture configuration for one test and restores it afterwards.
struct LazyGuard {
  LazyConfig saved = lazy_config();
  explicit LazyGuard(int64_t min_numel) { lazy_config().min_numel = min_numel; }
  ~LazyGuard() { lazy_config() = saved; }
};

struct GoldenRun {
  std::string out;                    ///< printed text
  std::vector<EvaluationRecord> evals;
  std::vector<GroupRecord> groups() const {
    std::vector<GroupRecord> g;
    for (const EvaluationRecord& e : evals) g.insert(g.end(), e.groups.begin(), e.groups.end());
    return g;
  }
  std::vector<std::string> kinds() const {
    std::vector<std::string> k;
    for (const GroupRecord& g : groups()) k.push_back(g.fusion_kind);
    return k;
  }
  int count(const std::string& kind) const {
    int c = 0;
    for (const GroupRecord& g : groups()) c += g.fusion_kind == kind;
    return c;
  }
  std::string table() const {
    std::string s;
    for (const EvaluationRecord& e : evals)
      for (const GroupRecord& g : e.groups)
        s += g.fusion_kind + " " + std::to_string(g.elements) + " " + g.provider + " " +
             std::string(sink_reason_name(e.reason)) + "\n";
    return s;
  }
};

/// Runs code with capture on (recording telemetry) and with capture off; expects the same
/// printed text from both and returns the captured run.
GoldenRun run_both(const std::string& code) {
  GoldenRun r;
  {
    test::Snippet s;
    telemetry().clear();
    r.out = s(code);
    r.evals = telemetry().snapshot();
  }
  std::string eager;
  {
    const bool was = lazy_config().enabled;
    lazy_config().enabled = false;
    test::Snippet s;
    eager = s(code);
    lazy_config().enabled = was;
  }
  EXPECT_EQ(r.out, eager) << code;
  EXPECT_FALSE(r.out.empty());
  return r;
}

TEST(AccelGolden, RandSinMeanIsOneReductionKernel) {
  LazyGuard g(1000);
  GoldenRun r = run_both(
      "rng(7); x = rand(1024,1,'single'); y = sin(x).*x + 0.5; m = mean(y);\n"
      "fprintf('%.9g %s\\n', m, class(m));\n"
      "fprintf('%.9g\\n', sum(double(y)));\n");
  // The first evaluation (forced by fprintf of m) is one reduction kernel with rand, the chain
  // and y (a pending variable, written from the kernel's body) inside.
  ASSERT_GE(r.evals.size(), 1u) << r.table();
  ASSERT_EQ(r.evals[0].groups.size(), 1u) << r.table();
  EXPECT_EQ(r.evals[0].groups[0].fusion_kind, "reduction");
  EXPECT_EQ(r.evals[0].groups[0].bytes_read, 0);  // rand is recomputed, never stored
  EXPECT_EQ(r.evals[0].groups[0].bytes_written, 1024 * 4 + 4);  // y and m
}

TEST(AccelGolden, SiblingReductionsShareOnePass) {
  LazyGuard g(1000);
  GoldenRun r = run_both(
      "rng(3); x = randn(50000,1,'single'); s1 = sum(x); s2 = sum(x.^2);\n"
      "v = s2/50000 - (s1/50000)^2; fprintf('%.9g %.9g %.9g\\n', s1, s2, v);\n");
  ASSERT_EQ(r.groups().size(), 1u) << r.table();
  EXPECT_EQ(r.kinds()[0], "reduction");
}

TEST(AccelGolden, BranchedConsumerSplitsAChain) {
  // y feeds sum(y) and y ./ sum(y): the division needs the finished sum, so the chain splits
  // at y (the reduction kernel writes y, a second kernel reads it).
  LazyGuard g(1000);
  GoldenRun r = run_both(
      "rng(4); x = rand(50000,1,'single'); y = exp(x) - 1; z = y ./ sum(y);\n"
      "fprintf('%.9g %.9g\\n', sum(double(z)), max(z));\n");
  ASSERT_GE(r.evals.size(), 1u) << r.table();
  const EvaluationRecord& e = r.evals[0];
  ASSERT_EQ(e.groups.size(), 2u) << r.table();
  EXPECT_EQ(e.groups[0].fusion_kind, "reduction");
  // The second kernel (the division, fused into the next consumer's reduction) reads the
  // stored y and the sum.
  EXPECT_EQ(e.groups[1].bytes_read, 50000 * 4 + 4) << r.table();
}

TEST(AccelGolden, MatmulWithTwoConsumersTakesNoEpilogue) {
  LazyGuard g(1000);
  GoldenRun r = run_both(
      "rng(5); A = rand(120,80,'single'); B = rand(80,60,'single');\n"
      "C = A*B; D = C + 1; E = 2*C;\n"
      "fprintf('%.6g %.6g\\n', sum(sum(D)), sum(sum(E)));\n");
  EXPECT_EQ(r.count("matmul"), 1) << r.table();
  EXPECT_EQ(r.count("matmul_epilogue"), 0) << r.table();
}

TEST(AccelGolden, MatmulSingleConsumerChainIsItsEpilogue) {
  // scale, row bias, column bias, clamp through max/min and power after the product.
  LazyGuard g(1000);
  GoldenRun r = run_both(
      "rng(6); A = rand(120,80); B = rand(80,60); r = rand(1,60); c = rand(120,1);\n"
      "C = min(max((0.5*(A*B) + r - c).^2, 0.25), 30);\n"
      "fprintf('%.15g\\n', sum(sum(C)));\n");
  EXPECT_EQ(r.count("matmul_epilogue"), 1) << r.table();
  EXPECT_EQ(r.count("matmul"), 0) << r.table();
}

TEST(AccelGolden, DiagOfMatmulChainIsOneEpilogueKernel) {
  // m != n: the 120 x 60 product's diagonal has 60 points; the epilogue runs at those only.
  LazyGuard g(1000);
  GoldenRun r = run_both(
      "rng(12); A = rand(120,80); B = rand(80,60); c = rand(120,1);\n"
      "d = diag(max(A*B*2 + 1 - c, 0));\n"
      "fprintf('%d %d\\n', size(d)); fprintf('%.17g\\n', d);\n"
      "X = rand(90,70,'single'); W = rand(90,150,'single'); e = diag(X'*W);\n"
      "fprintf('%d %d %s\\n', size(e), class(e)); fprintf('%.9g\\n', e);\n");
  EXPECT_EQ(r.count("matmul_epilogue"), 2) << r.table();
  EXPECT_EQ(r.count("matmul"), 0) << r.table();
  std::vector<int64_t> elems;
  for (const GroupRecord& gr : r.groups())
    if (gr.fusion_kind == "matmul_epilogue") elems.push_back(gr.elements);
  EXPECT_EQ(elems, (std::vector<int64_t>{60, 70})) << r.table();
  EXPECT_NE(r.out.find("60 1\n"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("70 1 single\n"), std::string::npos) << r.out;
}

TEST(AccelGolden, DiagOfSharedProductOrElementwiseValue) {
  LazyGuard g(1000);
  // The product has two consumers: no epilogue, the diagonal reads the stored product.
  GoldenRun r = run_both(
      "rng(13); A = rand(100,40); B = rand(40,70);\n"
      "C = A*B; d = diag(C); e = C + 1;\n"
      "fprintf('%.17g\\n', d); fprintf('%.17g\\n', sum(sum(e)));\n");
  EXPECT_EQ(r.count("matmul"), 1) << r.table();
  EXPECT_EQ(r.count("matmul_epilogue"), 0) << r.table();
  // No product at all.
  GoldenRun s = run_both(
      "rng(14); A = rand(50,80); B = rand(50,80);\n"
      "d = diag(A + B); f = diag(A .* B) * 2;\n"
      "fprintf('%d %d\\n', size(d)); fprintf('%.17g\\n', d, f);\n");
  EXPECT_EQ(s.count("matmul") + s.count("matmul_epilogue"), 0) << s.table();
  EXPECT_GE(s.count("elementwise"), 2) << s.table();
  // Forms that stay with the eager builtin: a vector (builds a matrix) and k ~= 0.
  GoldenRun t = run_both(
      "rng(15); x = rand(1,1200); M = diag(x + 1); A = rand(60,50);\n"
      "u = diag(A + 1, 2); v = diag(A - 1, -3);\n"
      "fprintf('%d %d %.17g\\n', size(M), sum(M(:))); fprintf('%.17g\\n', u, v);\n");
  EXPECT_EQ(t.count("matmul_epilogue"), 0) << t.table();
}

/// Loop launches (fusion_kind loop) and their distinct kernel texts.
void loop_stats(const GoldenRun& r, int& launches, int& texts, int& hits) {
  std::set<uint64_t> keys;
  launches = hits = 0;
  for (const GroupRecord& g : r.groups()) {
    if (g.fusion_kind != "loop") continue;
    ++launches;
    keys.insert(g.kernel_key);
    hits += g.cache_hit;
  }
  texts = static_cast<int>(keys.size());
}

TEST(AccelGolden, RandnLoopRunsAsChunksOfOneKernel) {
  // 256 steps of S = S .* exp(drift + scale*randn): the trace of k iterations is one kernel;
  // ceil(256/k) launches, all but the first (initial value inlined) and the remainder chunk
  // reuse one canonical text.
  GoldenRun r = run_both(
      "rng(0); M = 40000; S = ones(M,1,'single') * single(100);\n"
      "for t = 1:256\n  Z = randn(M,1,'single');\n  S = S .* exp(single(-0.0001) + "
      "single(0.01) .* Z);\nend\nfprintf('%.9g\\n', mean(S));\n");
  int launches = 0, texts = 0, hits = 0;
  loop_stats(r, launches, texts, hits);
  ASSERT_GE(launches, 2) << r.table();
  EXPECT_LE(launches, 16) << r.table();  // each launch fuses at least 16 iterations
  EXPECT_LE(texts, 3) << r.table();
  EXPECT_GE(hits, launches - 3) << r.table();
  for (const EvaluationRecord& e : r.evals)
    EXPECT_NE(e.reason, SinkReason::IndexByData) << r.table();
}

TEST(AccelGolden, EmaOverSlicesOfAGeneratorNeverStoresIt) {
  // X(:, t) of a randn generator is the generator at the selected elements: X is never
  // stored (no group of C*T elements), the loop index is a kernel parameter.
  GoldenRun r = run_both(
      "rng(1); C = 40000; T = 256; a = 0.1;\n"
      "X = randn(C, T, 'single'); y = zeros(C, 1, 'single');\n"
      "for t = 1:T\n  y = a * X(:, t) + (1 - a) * y;\nend\n"
      "fprintf('%.9g %s\\n', sum(y), class(y));\n");
  int launches = 0, texts = 0, hits = 0;
  loop_stats(r, launches, texts, hits);
  ASSERT_GE(launches, 2) << r.table();
  EXPECT_LE(launches, 16) << r.table();
  EXPECT_LE(texts, 3) << r.table();
  for (const GroupRecord& g : r.groups()) EXPECT_LT(g.elements, 40000 * 256) << r.table();
  for (const EvaluationRecord& e : r.evals)
    EXPECT_NE(e.reason, SinkReason::IndexByData) << r.table();
}

TEST(AccelGolden, ARandomArrayThatSeveralGroupsReadIsStoredOnce) {
  // Image normalisation: the mean, the variance and the final error each read X in their own
  // reduction; X (rand) is stored once instead of being regenerated three times per evaluation.
  LazyGuard g(1000);
  GoldenRun r = run_both(
      "rng(3); X = rand(4, 150, 200, 'single');\n"
      "mu = mean(X, [2 3]); sd = sqrt(mean((X - mu).^2, [2 3]) + 1e-6);\n"
      "out = max((X - mu) ./ sd * 1.01 - 0.02, 0) .^ 1.8; err = out - X;\n"
      "c = mean(err .* err, 'all'); fprintf('%.9g\\n', c);\n"
      "c2 = mean(X .* X, 'all'); fprintf('%.9g\\n', c2);\n");
  int stored = 0;
  for (const GroupRecord& gr : r.groups())
    stored += gr.bytes_written >= 4 * 150 * 200 * 4 && gr.elements == 4 * 150 * 200;
  EXPECT_EQ(stored, 1) << r.table();
  // The second statement reads the stored X: no group regenerates it.
  EXPECT_GE(r.groups().back().bytes_read, 4 * 150 * 200 * 4) << r.table();
}

TEST(AccelGolden, ACheapSharedDifferenceIsRecomputedNotStored) {
  // X - mu feeds the variance and the normalisation (two reduction groups): each recomputes it
  // from X (stored once, as three groups read it) and the 1x300 mean instead of one group
  // writing 400x300 differences for the other.
  LazyGuard g(1000);
  GoldenRun r = run_both(
      "rng(4); X = rand(400, 300);\n"
      "mu = mean(X, 1); v = mean((X - mu).^2, 1);\n"
      "y = sum((X - mu) ./ sqrt(v + 1), 'all'); fprintf('%.12g\\n', y);\n");
  // Reduction groups writing a 400x300 array: none (y, a 1x1 result, stays pending until
  // fprintf reads it, when the temporaries of its statement are gone); without recomputation
  // the variance group also wrote X - mu.
  int big = 0;
  for (const GroupRecord& gr : r.groups())
    big += gr.fusion_kind == "reduction" && gr.bytes_written >= 120000 * 8;
  EXPECT_EQ(big, 0) << r.table();
  EXPECT_EQ(r.count("reduction"), 3) << r.table();
}

TEST(AccelGolden, AffineSlicesOfALazyValue) {
  LazyGuard g(1000);
  GoldenRun r = run_both(
      "rng(2); X = rand(300, 200); Y = X * 2 + 1;\n"
      "a = Y(:, 7); b = Y(5:10, 3:2:9); c = Y(250:-3:100, end); v = Y(:, 4).'; d = v(10:20);\n"
      "fprintf('%.17g ', sum(a), sum(sum(b)), sum(c), sum(d)); fprintf('\\n');\n"
      "disp(size(b)); disp(size(c)); disp(size(d));\n");
  for (const EvaluationRecord& e : r.evals)
    EXPECT_NE(e.reason, SinkReason::IndexByData) << r.table();
}

TEST(AccelGolden, IndexingByDataStillForces) {
  LazyGuard g(1000);
  GoldenRun r = run_both(
      "rng(2); X = rand(3000, 1); Y = X * 2; m = Y(Y > 1.5); k = Y([3 1 2]);\n"
      "fprintf('%d %.17g\\n', numel(m), sum(k));\n");
  bool by_data = false;
  for (const EvaluationRecord& e : r.evals) by_data |= e.reason == SinkReason::IndexByData;
  EXPECT_TRUE(by_data) << r.table();
}

TEST(AccelGolden, SliceErrorsAreTheEagerOnes) {
  LazyGuard g(1000);
  test::Snippet s;
  s("X = rand(3000, 2) * 2;");
  EXPECT_EQ(s.fails("X(:, 3)").identifier(), "MATLAB:badsubscript");
  EXPECT_EQ(s.fails("X(0:4, 1)").identifier(), "MATLAB:badsubscript");
  EXPECT_EQ(s.fails("X(1.5:4, 1)").identifier(), "MATLAB:badsubscript");
}

}  // namespace
}  // namespace matfuse::accel
