// Product forms (gemv, syrk, alpha folded, a product written in place), the statistics built on
// them (cov, norm, vecnorm, diag(A*B)) and the pattern fusion kinds on the device against the
// host; device-resident scalars: a chain of products, reductions and divisions performs no
// host synchronisation until its sink.
#include "gpu_util.h"

using namespace matfuse;
using namespace matfuse::gputest;

namespace {

/// Whether some group of the run carries `kind` and ran on the device.
bool ran_on_device(const ScriptRun& r, const std::string& kind) {
  for (const auto& g : r.groups)
    if (g.fusion_kind == kind && g.provider == "cuda") return true;
  return false;
}

}  // namespace

TEST(GpuLinalg, GemvFormsMatchTheHost) {
  MATFUSE_REQUIRE_GPU();
  for (const char* cls : {"single", "double"}) {
    const std::string c = cls;
    compare_host_device("rng(1); A = rand(3000, 2000, '" + c + "'); x = rand(2000, 1, '" + c +
                            "'); y = rand(1, 3000, '" + c + "'); "
                            "a = A * x; b = A' * y'; d = y * A; e = x' * A';",
                        {}, {"a", "b", "d", "e"}, c == "single" ? 1e-5 : 1e-12);
  }
}

TEST(GpuLinalg, SyrkAndAlphaMatchTheHost) {
  MATFUSE_REQUIRE_GPU();
  for (const char* cls : {"single", "double"}) {
    const std::string c = cls;
    ScriptRun d = compare_host_device(
        "rng(2); B = rand(1500, 700, '" + c + "'); n = size(B, 1); "
        "G = (B' * B) / n; H = 3 * (B * B'); K = (B' * B) * 0.5; s = isequal(G, G.');",
        {"s"}, {"G", "H", "K"}, c == "single" ? 1e-5 : 1e-12);
    EXPECT_EQ(d.vars["s"].get_double(0), 1) << "the syrk product is not exactly symmetric";
  }
}

TEST(GpuLinalg, CovAndCenteredGramMatchTheHost) {
  MATFUSE_REQUIRE_GPU();
  for (const char* cls : {"single", "double"}) {
    const std::string c = cls;
    ScriptRun d = compare_host_device(
        "rng(3); X = rand(40000, 64, '" + c + "') + 5; C = cov(X); C1 = cov(X, 1); "
        "Xc = X - mean(X); G = (Xc' * Xc) / (size(X, 1) - 1);",
        {}, {"C", "C1", "G"}, c == "single" ? 1e-4 : 1e-11);
    EXPECT_TRUE(ran_on_device(d, "centered_gram")) << d.summary();
  }
}

TEST(GpuLinalg, CorrcoefRunsWhereItsDataIs) {
  MATFUSE_REQUIRE_GPU();
  // A strongly correlated pair (clamped to [-1, 1]) and a constant column (NaN row and column).
  for (const char* cls : {"single", "double"}) {
    const std::string c = cls;
    ScriptRun d = compare_host_device(
        "rng(6); X = rand(50000, 16, '" + c + "'); X(:, 3) = -2 * X(:, 1) + 1e-6 * X(:, 3);"
        "X(:, 9) = 4; R = corrcoef(X); n = nnz(isnan(R)); m = max(abs(R(~isnan(R))));"
        "R(isnan(R)) = 0;",
        {"n"}, {"R", "m"}, c == "single" ? 1e-4 : 1e-11);
    EXPECT_TRUE(ran_on_device(d, "centered_gram")) << d.summary();
    EXPECT_EQ(d.vars["n"].get_double(0), 31);
    EXPECT_LE(d.vars["m"].get_double(0), 1.0);
  }
}

TEST(GpuLinalg, NormsAndPowerStepMatchTheHost) {
  MATFUSE_REQUIRE_GPU();
  for (const char* cls : {"single", "double"}) {
    const std::string c = cls;
    ScriptRun d = compare_host_device(
        "rng(4); A = rand(1500, '" + c + "'); A = A + A'; v = ones(1500, 1, '" + c + "'); "
        "for k = 1:10, w = A * v; v = w / norm(w); end; "
        "u = ones(1500, 1, '" + c + "'); for k = 1:10, w = A * u; u = w / sqrt(w' * w); end; "
        "W = A * rand(1500, 8, '" + c + "'); V = W ./ vecnorm(W); lam = v' * (A * v);",
        {}, {"v", "u", "V", "lam"}, c == "single" ? 1e-4 : 1e-11);
    EXPECT_TRUE(ran_on_device(d, "power_step_normalize")) << d.summary();
  }
}

TEST(GpuLinalg, ExplainedVarianceMatchesTheHost) {
  MATFUSE_REQUIRE_GPU();
  ScriptRun d = compare_host_device(
      "rng(5); G = rand(2000, 'single'); G = G + G'; Q = rand(2000, 16, 'single'); "
      "ev = diag(Q' * G * Q);",
      {}, {"ev"}, 1e-4);
  EXPECT_TRUE(ran_on_device(d, "explained_variance")) << d.summary();
}

TEST(GpuLinalg, ScalarChainPerformsNoHostSynchronisation) {
  MATFUSE_REQUIRE_GPU();
  accel::set_device_mode(accel::DeviceMode::Gpu);
  {
    test::Snippet s;
    s("rng(6); A = rand(2000, 'single'); A = A + A'; v = ones(2000, 1, 'single');");
    s.in.base_var("A")->tensor().force();
    accel::telemetry().clear();
    // Products, reductions and divisions whose 1x1 results feed device kernels.
    s("for k = 1:20, w = A * v; v = w / sqrt(w' * w); end; "
      "lam = v' * (A * v); nv = norm(v); m = max(v); t = sum(v) / nv + m + lam;");
    Tensor t = s.in.base_var("t")->tensor();
    t.force();  // an explicit force: every kernel runs, nothing is read on the host
    EXPECT_TRUE(t.device_only());
    EXPECT_EQ(accel::telemetry().sync_total(), 0)
        << accel::telemetry().syncs().at(0).kind << " by "
        << accel::sink_reason_name(accel::telemetry().syncs().at(0).reason);
    // The sink synchronises once.
    EXPECT_GT(t.get_double(0), 0);
    EXPECT_EQ(accel::telemetry().sync_total(), 1);
  }
  accel::set_device_mode(accel::DeviceMode::Auto);
}
