// Complex values and FFTs on the CUDA provider against the host provider (issue: signal
// processing on the GPU): complex elementwise and reduction groups, fft/ifft/fft2/ifft2/fftn/
// ifftn through cuFFT with n, dim, 'symmetric', real and complex input, single and double,
// empty inputs; and an fft -> pointwise -> ifft chain that gathers nothing but its result.
#include <cmath>
#include <complex>
#include <random>
#include <string>

#include "gpu_util.h"

using namespace matfuse;
using namespace matfuse::gputest;

namespace {

std::mt19937& gen() {
  static std::mt19937 g(20261125);
  return g;
}
int pick(int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(gen()); }
std::string num(int v) { return std::to_string(v); }

/// Same class and size; values (real or complex; a real tensor reads as zero imaginary parts,
/// since a device result may stay complex) within tol * max(1, max|b|).
::testing::AssertionResult complex_near(const Tensor& a, const Tensor& b, double tol) {
  if (a.cls() != b.cls() || a.dims() != b.dims())
    return ::testing::AssertionFailure() << "class/size differ: " << class_name(a.cls()) << " "
                                         << a.dims().str() << " vs " << class_name(b.cls()) << " "
                                         << b.dims().str();
  double scale = 1;
  for (int64_t i = 0; i < b.numel(); ++i)
    if (std::isfinite(std::abs(b.get_complex(i))))
      scale = std::max(scale, std::abs(b.get_complex(i)));
  for (int64_t i = 0; i < a.numel(); ++i) {
    const std::complex<double> x = a.get_complex(i), y = b.get_complex(i);
    const bool both_nan = (std::isnan(x.real()) || std::isnan(x.imag())) &&
                          (std::isnan(y.real()) || std::isnan(y.imag()));
    if (both_nan) continue;
    if (!std::isfinite(std::abs(x)) || !std::isfinite(std::abs(y))) {
      if (x != y) return ::testing::AssertionFailure() << "element " << i << ": " << x << " vs " << y;
      continue;
    }
    if (!(std::abs(x - y) <= tol * scale))
      return ::testing::AssertionFailure() << "element " << i << ": " << x << " vs " << y;
  }
  return ::testing::AssertionSuccess();
}

/// Runs code on the host and on the device; every name must agree within tol.
ScriptRun compare(const std::string& code, const std::vector<std::string>& names, double tol) {
  ScriptRun h = run_in(accel::DeviceMode::Cpu, code, names);
  ScriptRun d = run_in(accel::DeviceMode::Gpu, code, names);
  for (const auto& n : names)
    EXPECT_TRUE(complex_near(d.vars[n], h.vars[n], tol)) << n << " in:\n" << code;
  EXPECT_EQ(h.count("fft", "cuda") + h.count("elementwise", "cuda"), 0) << h.summary();
  return d;
}

std::string complex_operands(const std::string& cls, int m, int n) {
  const std::string M = num(m), N = num(n);
  return "A = complex(randn(" + M + ", " + N + ", '" + cls + "'), randn(" + M + ", " + N +
         ", '" + cls + "')); B = complex(randn(" + M + ", " + N + ", '" + cls + "'), randn(" +
         M + ", " + N + ", '" + cls + "')); R = randn(" + M + ", " + N + ", '" + cls + "');";
}

}  // namespace

TEST(GpuSignal, ComplexElementwiseAndReductions) {
  MATFUSE_REQUIRE_GPU();
  for (const std::string cls : {"single", "double"}) {
    const int m = pick(200, 600), n = pick(100, 300);
    const std::string code = "rng(5); " + complex_operands(cls, m, n) +
                             "P = A .* B + R; Q = A ./ B; S = R ./ A; T = abs(A) + angle(B);"
                             "U = exp(A) - conj(B); V = real(A .* 2i) + imag(B);"
                             "W = (A == A) & (real(B) > 0); X = sum(A .* R, 1); Y = mean(B, 2);"
                             "Z = single(A) + 1;";
    const double tol = cls == "single" ? 1e-5 : 1e-12;
    ScriptRun d = compare(code, {"P", "Q", "S", "T", "U", "V", "W", "X", "Y", "Z"}, tol);
    // The complex groups ran as kernels on the device, not through the eager engine.
    EXPECT_GE(d.count("elementwise", "cuda"), 6) << d.summary();
    EXPECT_GE(d.count("reduction", "cuda"), 2) << d.summary();
  }
}

TEST(GpuSignal, ComplexAddAndMultiplyAreBitwiseEqualToTheHost) {
  MATFUSE_REQUIRE_GPU();
  const std::string code = "rng(7); " + complex_operands("double", 513, 257) +
                           "P = A .* B - R; Q = conj(A) + B .* 3; s = sum(P, 'all');";
  ScriptRun h = run_in(accel::DeviceMode::Cpu, code, {"P", "Q"});
  ScriptRun d = run_in(accel::DeviceMode::Gpu, code, {"P", "Q"});
  for (const char* n : {"P", "Q"}) EXPECT_TRUE(bitwise_equal(d.vars[n], h.vars[n])) << n;
}

TEST(GpuSignal, FftFamilyMatchesTheHost) {
  MATFUSE_REQUIRE_GPU();
  for (const std::string cls : {"single", "double"}) {
    const double tol = cls == "single" ? 2e-5 : 1e-12;
    for (int trial = 0; trial < 3; ++trial) {
      const int m = pick(2, 300), n = pick(2, 40), p = pick(1, 4);
      const std::string M = num(m), N = num(n), P = num(p);
      const std::string code =
          "rng(" + num(trial + 11) + "); x = randn(" + M + ", " + N + ", " + P + ", '" + cls +
          "'); z = complex(x, randn(" + M + ", " + N + ", " + P + ", '" + cls + "'));"
          "a = fft(x); b = fft(z); c = fft(x, [], 2); d = fft(z, [], 3); e = ifft(b);"
          "f = ifft(fft(x)); g = ifft(z, 'symmetric'); h = ifft(z, [], 2, 'nonsymmetric');"
          "k = fft2(z); l = ifft2(k); o = fftn(z); q = ifftn(o); r = fft(x, " +
          num(m + 3) + "); s = fft(z, " + num(std::max(1, m / 2)) + ");"
          "t = ifft(fft(x, [], 2), [], 2, 'symmetric');";
      SCOPED_TRACE(code);
      ScriptRun d = compare(code, {"a", "b", "c", "d", "e", "f", "g", "h", "k", "l", "o", "q",
                                   "r", "s", "t"},
                            tol * std::max(1.0, std::log2(static_cast<double>(m * n * p))));
      EXPECT_GE(d.count("fft", "cuda"), 10) << d.summary();
    }
  }
}

TEST(GpuSignal, FftOfEmptyAndScalarInputs) {
  MATFUSE_REQUIRE_GPU();
  compare("x = zeros(0, 3, 'single'); a = fft(x); b = ifft(x); c = fft(5); d = ifft(complex(1, 2));"
          "e = fft(zeros(4, 0)); f = fft(ones(1, 7), 0);",
          {"a", "b", "c", "d", "e", "f"}, 1e-6);
}

TEST(GpuSignal, DiffFusesOnTheDeviceWithoutGathers) {
  MATFUSE_REQUIRE_GPU();
  cuda::Device& dev = *cuda::Device::get();
  // diff is two slices and a subtraction in the graph: it fuses with its consumers where the
  // data lives, and gives the host's bits.
  const std::string code =
      "rng(5); x = rand(1e6, 4, 'single'); y = rand(3, 2e5); a = diff(x); b = diff(x, 2);"
      "c = sum(diff(x(:, 1)) .^ 2); e = diff(y, 1, 2); f = diff(y, 3);";
  compare_host_device(code, {"a", "b", "c", "e", "f"});
  accel::set_device_mode(accel::DeviceMode::Gpu);
  {
    test::Snippet s;
    s("rng(5); x = rand(1e6, 4, 'single'); x = x + 0;");
    s.in.base_var("x")->tensor().force();
    const int64_t down0 = dev.stats().download_bytes;
    s("d = diff(x) .^ 2;");
    Tensor d = s.in.base_var("d")->tensor();
    d.force();
    EXPECT_TRUE(d.device_only());
    EXPECT_EQ(dev.stats().download_bytes - down0, 0) << "diff gathered array data";
  }
  accel::set_device_mode(accel::DeviceMode::Auto);
}

TEST(GpuSignal, CumsumOnTheDeviceHasTheHostsBits) {
  MATFUSE_REQUIRE_GPU();
  // Lanes of both layouts (columns: stride 1; rows: interleaved), reverse, omitnan, single.
  const std::string code =
      "rng(9); X = randn(20000, 300); X(5:97:end) = NaN; G = gpuArray(X);"
      "S = gpuArray(single(randn(300, 5000)));"
      "a = cumsum(G); b = cumsum(G, 2); c = cumsum(G, 'reverse'); d = cumsum(G, 1, 'omitnan');"
      "e = cumsum(S, 2, 'reverse', 'omitnan'); f = cumsum(S); g = sum(cumsum(G, 'omitnan') .^ 2, 'all');";
  ScriptRun d = compare_host_device(code, {"a", "b", "c", "d", "e", "f"}, {"g"}, 1e-9);
  EXPECT_GE(d.count("scan", "cuda"), 7) << d.summary();
}

TEST(GpuSignal, SpectralFilterChainStaysOnTheDevice) {
  MATFUSE_REQUIRE_GPU();
  cuda::Device& dev = *cuda::Device::get();
  accel::set_device_mode(accel::DeviceMode::Gpu);
  accel::telemetry().clear();
  {
    test::Snippet s;
    s("rng(3); x = rand(8192, 64, 'single'); k = (0:8191)'; f = min(k, 8192 - k);"
      "H = single(1 ./ (1 + (f / 300) .^ 2)); x = x + 0; H = H + 0;");
    s.in.base_var("x")->tensor().force();
    s.in.base_var("H")->tensor().force();
    const int64_t down0 = dev.stats().download_bytes;
    s("Y = fft(x); Z = Y .* H; y = real(ifft(Z)); w = ifft(Y .* H, 'symmetric');");
    Tensor y = s.in.base_var("y")->tensor();
    y.force();
    Tensor w = s.in.base_var("w")->tensor();
    w.force();
    EXPECT_TRUE(y.device_only());
    EXPECT_TRUE(w.device_only());
    // Only the 1-byte answers of ifft's conjugate-symmetry test came back.
    EXPECT_LE(dev.stats().download_bytes - down0, 16) << "the chain gathered array data";
    int ffts = 0, on_device = 0;
    for (const auto& e : accel::telemetry().snapshot())
      for (const auto& g : e.groups) {
        if (g.fusion_kind == "fft") {
          ++ffts;
          on_device += g.provider == "cuda";
        }
      }
    EXPECT_GE(ffts, 3);
    EXPECT_EQ(on_device, ffts);
    // Same numbers as the host.
    const std::string code = "rng(3); x = rand(8192, 64, 'single'); k = (0:8191)';"
                             "f = min(k, 8192 - k); H = single(1 ./ (1 + (f / 300) .^ 2));"
                             "y = real(ifft(fft(x) .* H));";
    ScriptRun h = run_in(accel::DeviceMode::Cpu, code, {"y"});
    EXPECT_TRUE(complex_near(y, h.vars["y"], 1e-5));
    EXPECT_TRUE(complex_near(w, h.vars["y"], 1e-5));
  }
  accel::set_device_mode(accel::DeviceMode::Auto);
}

TEST(GpuSignal, MovingWindowStatisticsMatchTheHost) {
  MATFUSE_REQUIRE_GPU();
  for (const std::string cls : {"single", "double"}) {
    const int m = pick(50, 3000), n = pick(1, 9);
    const std::string code =
        "rng(9); X = randn(" + num(m) + ", " + num(n) + ", '" + cls + "') * 3 + 100;"
        "X(7) = NaN; X(end - 2) = Inf; X(2, end) = -Inf;"
        "a = movmean(X, 64); b = movstd(X, 64); c = movsum(X, [5 2]); d = movvar(X, 7, 1);"
        "e = movmax(X, 10); f = movmin(X, [0 3]); g = movmean(X, 4, 2); h = movstd(X, 1000);"
        "k = movsum(X, 3, 3);";
    const double tol = cls == "single" ? 2e-5 : 1e-11;
    ScriptRun d = compare(code, {"a", "b", "c", "d", "e", "f", "g", "h", "k"}, tol);
    EXPECT_GE(d.count("window", "cuda"), 8) << d.summary();
  }
}
