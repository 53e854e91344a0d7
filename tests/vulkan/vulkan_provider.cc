// Tests of the Vulkan provider (ctest label `vulkan`): run with MATFUSE_DEVICE=vulkan, on any
// Vulkan 1.2 device; in CI on Mesa's lavapipe (the CPU). Every result is compared bit for bit
// with the host provider's, and the groups are checked to have run on "vulkan" (or, for what
// the provider does not cover, on the host with the reason in the placement text).
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>

#include "accel/run/provider.h"
#include "gpu_util.h"
#include "vulkan_test_util.h"
#include "providers/vulkan/vulkan_provider.h"
#include "runtime/options.h"

namespace matfuse::gputest {
namespace {

/// Operands with every special value class: zeros of both signs, infinities, NaN, subnormals,
/// halves (rounding ties), large and small magnitudes.
const char* kOperands =
    "rng(7); a = randn(1, 4000) .* 10 .^ round(6 * randn(1, 4000)); b = randn(1, 4000) * 3;"
    "sp = [0 -0 Inf -Inf NaN 2.5 -2.5 0.5 -0.5 1e-310 -1e-310 realmax realmin 3 -7 1e300];"
    "a(1:16) = sp; b(1:16) = fliplr(sp); a(17:32) = sp; b(17:32) = sp;";

/// Runs code on the host and on Vulkan; asserts bitwise equality of every name and that at
/// least `kernels` elementwise groups ran on Vulkan.
ScriptRun host_vs_vulkan(const std::string& code, const std::vector<std::string>& names,
                         int kernels = 1) {
  ScriptRun d = host_and_device_runs(code, names, {}, 0).second;
  EXPECT_GE(d.count("elementwise", "vulkan"), kernels) << d.summary();
  return d;
}

TEST(Vulkan, ArithmeticAndComparisonsHaveTheHostsBits) {
  MATFUSE_REQUIRE_VULKAN();
  for (const char* cls : {"double", "single"}) {
    const std::string code =
        std::string(kOperands) + "a = " + cls + "(a); b = " + cls + "(b);" +
        "s = a + b; d = a - b; p = a .* b; q = a ./ b; l = a .\\ b; mx = max(a, b); mn = min(a, b);"
        "ng = -a; ab = abs(a); sg = sign(a); sq = a .^ 2; r = sqrt(abs(a));"
        "fl = floor(a); ce = ceil(a); ro = round(a); fx = fix(a);"
        "eq = a == b; ne = a ~= b; lt = a < b; le = a <= b; gt = a > b; ge = a >= b;"
        "lg = xor(a > 0, b < 0) | ~(a == 1) & (b ~= 2);"
        "na = isnan(a); in = isinf(a); fi = isfinite(a); c = a * 0.5 + b .* b - 3;";
    host_vs_vulkan(code, {"s", "d", "p", "q", "l", "mx", "mn", "ng", "ab", "sg", "sq", "r", "fl",
                          "ce", "ro", "fx", "eq", "ne", "lt", "le", "gt", "ge", "lg", "na", "in",
                          "fi", "c"});
  }
}

TEST(Vulkan, IntegerAndCharClassesSaturateAsTheHost) {
  MATFUSE_REQUIRE_VULKAN();
  // The class conversions themselves run eagerly; the arithmetic on integer and char data
  // runs in kernels that saturate (round half away, clamp, NaN to 0) as the host does.
  host_vs_vulkan(std::string(kOperands) +
                     "i8 = int8(a); u8 = uint8(abs(b) * 40); i16 = int16(a); u16 = uint16(abs(b) "
                     "* 1e4); i32 = int32(a * 1e6); u32 = uint32(abs(b) * 1e9); ch = char(abs(b) "
                     "* 30 + 32); f = single(a);"
                     "r8 = i8 * 3 - int8(7); ru8 = u8 + u8 / 3; r16 = i16 .* 2.5; ru16 = u16 - "
                     "500.5; r32 = i32 * 4 + 0.5; ru32 = u32 - 7; rc = ch + 1; x = double(r8) + "
                     "2 * double(ru16); g = f * 0.25 - 1;",
                 {"r8", "ru8", "r16", "ru16", "r32", "ru32", "rc", "x", "g"}, 3);
}

TEST(Vulkan, StridedBroadcastAndGeneratedOperands) {
  MATFUSE_REQUIRE_VULKAN();
  host_vs_vulkan("A = reshape(0.5:0.5:3000, 60, 100); v = (1:60)' / 7; w = (1:100) * 0.25;"
                 "B = A' - w'; C = A .* v + w; D = A(:, 3:50) * 2 - A(:, 50:97);"
                 "E = eye(60, 100) + A; F = (1:6000) * 0.1 - 3;",
                 {"B", "C", "D", "E", "F"}, 3);
}

TEST(Vulkan, LoopKernelsFuseIterations) {
  MATFUSE_REQUIRE_VULKAN();
  ScriptRun d = host_vs_vulkan(
      "x = ones(1, 20000); y = zeros(1, 20000);"
      "for k = 1:60, x = x * 0.99 + 0.5 * k; y = y + x .* x / 1000; end",
      {"x", "y"}, 0);
  EXPECT_GE(d.count("loop", "vulkan"), 1) << d.summary();
}

TEST(Vulkan, FaultsRerunWithTheEagerEngine) {
  MATFUSE_REQUIRE_VULKAN();
  // sqrt of negative data leaves the real domain: the eager re-run gives the complex result.
  ScriptRun d = host_vs_vulkan("x = (1:50000) - 2.5e4; y = sqrt(x * 3) + 1; z = x * 2;",
                               {"y", "z"}, 0);
  bool faulted = false;
  for (const auto& g : d.groups)
    faulted |= g.provider == "eager" && g.fallback == "a value left the real domain";
  EXPECT_TRUE(faulted) << d.summary();
  accel::set_device_mode(accel::DeviceMode::Gpu);
  test::Snippet s;
  EXPECT_EQ(s.fails("x = [1:40000 NaN]; y = logical(x * 2); disp(y(1));").identifier(),
            "MATLAB:nologicalnan");
  accel::set_device_mode(accel::DeviceMode::Auto);
}

TEST(Vulkan, UncoveredKernelsRunOnTheHostAndSayWhy) {
  MATFUSE_REQUIRE_VULKAN();
  // Not on Vulkan: asinh (the host's C library even in single) and double-precision sin.
  for (const char* code : {"x = (1:50000) / 3; t = asinh(single(x)) + 1;",
                           "x = (1:50000) / 3; t = sin(x) + 1;"}) {
    ScriptRun h = run_in(accel::DeviceMode::Cpu, code, {"t"});
    ScriptRun d = run_in(accel::DeviceMode::Gpu, code, {"t"});
    EXPECT_TRUE(bitwise_equal(d.vars["t"], h.vars["t"])) << code;
    bool said = false;
    for (const auto& g : d.groups)
      said |= g.provider == "host" &&
              g.placement.find("vulkan cannot run it: Vulkan code generation: ") != std::string::npos;
    EXPECT_TRUE(said) << code << ": " << d.summary();
  }
}

TEST(Vulkan, ResultsStayOnTheDeviceBetweenKernels) {
  MATFUSE_REQUIRE_VULKAN();
  accel::set_device_mode(accel::DeviceMode::Gpu);
  accel::telemetry().clear();
  {
    test::Snippet s;
    // y is gathered for the display (its device copy stays), then read again by a kernel.
    s("x = (1:100000) * 0.5; y = x .* 3 + 1; fprintf('%g ', y(1)); z = y - x; fprintf('%g', z(end));");
    EXPECT_EQ(s.out.str(), "2.5 100001");
  }
  // The second kernel reads y where the first left it: nothing is uploaded for it.
  int vulkan_groups = 0;
  for (const auto& e : accel::telemetry().snapshot())
    for (const auto& g : e.groups)
      if (g.provider == "vulkan") {
        ++vulkan_groups;
        if (vulkan_groups > 1) EXPECT_EQ(g.upload_bytes, 0) << g.placement;
      }
  EXPECT_GE(vulkan_groups, 2);
  accel::set_device_mode(accel::DeviceMode::Auto);
}

TEST(Vulkan, KernelsAreCachedOnDiskAsSpirv) {
  MATFUSE_REQUIRE_VULKAN();
  const std::string dir = ::testing::TempDir() + "/matfuse_vk_cache";
  std::filesystem::remove_all(dir);
  const std::string old = options().kernel_cache;
  mutable_options().kernel_cache = dir;
  // A kernel text no other test uses (the constant), so it is compiled here.
  host_vs_vulkan("x = (1:40000) * 0.123456789; y = x .* x - 0.987654321;", {"y"});
  mutable_options().kernel_cache = old;
  int spv = 0;
  for (const auto& e : std::filesystem::directory_iterator(dir))
    if (e.path().extension() == ".spv") ++spv;
  EXPECT_GE(spv, 1);
  std::filesystem::remove_all(dir);
}

TEST(Vulkan, ProbeFindsTheDevicesExactOperations) {
  MATFUSE_REQUIRE_VULKAN();
  const vk::Device* d = vk::Device::get();
  ASSERT_NE(d, nullptr);
  const vk::Caps& c = vk::vulkan_provider()->caps();
  EXPECT_EQ(c.float64, d->info().float64);
  // Mesa's lavapipe computes on the CPU with IEEE division and sqrt: the probe must find them.
  if (d->info().driver == "llvmpipe") {
    EXPECT_TRUE(c.div32 && c.div64 && c.sqrt32 && c.sqrt64);
  }
}

}  // namespace
}  // namespace matfuse::gputest
