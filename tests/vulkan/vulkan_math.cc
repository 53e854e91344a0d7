// Tests of the Vulkan provider's ports of runtime/mf_math.inc and runtime/philox.inc
// (providers/vulkan/vulkan_math.h) and of linspace: single-precision elementary functions,
// rand/randn/randi and linspace on Vulkan must give the host provider's bits, over random and
// special operands (NaN, signed zeros, infinities, subnormals, arguments of the Payne-Hanek
// reduction, the special cases of pow), and the groups must have run on "vulkan". The
// rendering tests at the end need no device.
#include "providers/vulkan/vulkan_math.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <memory>

#include "accel/run/provider.h"
#include "gpu_util.h"
#include "vulkan_test_util.h"
#include "providers/vulkan/vulkan_codegen.h"
#include "providers/vulkan/vulkan_device.h"
#include "providers/vulkan/vulkan_provider.h"
#include "runtime/error.h"

namespace matfuse::gputest {
namespace {

/// Runs code on the host and on Vulkan; asserts bitwise equality of every name and that at
/// least `kernels` groups ran on Vulkan. Returns the Vulkan run.
ScriptRun same_bits(const std::string& code, const std::vector<std::string>& names,
                    int kernels = 1) {
  ScriptRun d = host_and_device_runs(code, names, {}, 0).second;
  int on_vulkan = 0;
  for (const auto& g : d.groups) {
    on_vulkan += g.provider == "vulkan";
    // Only the double-precision elementary functions (the operands' setup) stay on the host.
    if (g.placement.find("vulkan cannot run it") != std::string::npos)
      EXPECT_NE(g.placement.find("double-precision"), std::string::npos) << g.placement;
  }
  EXPECT_GE(on_vulkan, kernels) << d.summary();
  return d;
}

/// Single operands x (wide random magnitudes and every special class), y (moderate) and u in
/// [-1, 1]: NaN, +-0, +-Inf, subnormals, the largest and smallest normals, the edges of the
/// small trig range (2^19) and huge arguments of the Payne-Hanek reduction, multiples of pi/2,
/// the clamps and branch points of exp, sinh, cosh and tanh.
const char* kSingleOperands =
    "rng(11); n = 6000;"
    "x = single(randn(1, n) .* 10 .^ round(3 * randn(1, n))); y = single(randn(1, n) * 4);"
    "sp = single([0 -0 Inf -Inf NaN 1e-40 -1e-40 1.4e-45 -1.4e-45 1.17549435e-38 3.4028235e38 "
    "-3.4028235e38 524288 -524288 524287.97 -524287.97 1e6 -3e7 1e10 -1e20 1e30 2^100 -2^120 "
    "0.5 -0.5 1 -1 2 -2 3.14159274 1.57079637 -1.57079637 4.71238899 6.28318548 88.72 89 89.5 "
    "89.6 -87.3 -103.9 -104 -104.5 -150 9 9.1 9.2 0.55 -0.55 0.5499 1e-8 -1e-8 2^-126 2^-149 "
    "1e-20 0.25 -0.25 0.2499 0.2501 100 -100 1e5]);"
    "x(1:numel(sp)) = sp; y(1:numel(sp)) = fliplr(sp);"
    "x(numel(sp) + (1:400)) = single(2 .^ (20:0.25:119.75)) .* sign(randn(1, 400));"
    "x(numel(sp) + 400 + (1:200)) = single((1:200) * pi / 2);"
    "u = x ./ (1 + abs(x)); u(1:6) = single([1 -1 0 -0 NaN 0.5]);";

TEST(VulkanMath, SingleElementaryFunctionsHaveTheHostsBits) {
  MATFUSE_REQUIRE_VULKAN();
  const std::string code =
      std::string(kSingleOperands) +
      "s1 = sin(x); c1 = cos(x); t1 = tan(x); e1 = exp(x); em = expm1(x); sh = sinh(x);"
      "ch = cosh(x); th = tanh(x); at = atan(x); l1 = log(abs(x)); l2 = log2(abs(x));"
      "l10 = log10(abs(x)); lp = log1p(abs(x)); lq = log1p(u); as = asin(u); ac = acos(u);"
      "a2 = atan2(x, y); a3 = atan2(y, x); hy = hypot(x, y); pw = abs(x) .^ y;"
      "pi2 = x .^ round(y);";
  same_bits(code, {"s1",  "c1", "t1", "e1", "em", "sh", "ch", "th", "at", "l1", "l2",
                   "l10", "lp", "lq", "as", "ac", "a2", "a3", "hy", "pw", "pi2"});
}

TEST(VulkanMath, PowSpecialCasesHaveTheHostsBits) {
  MATFUSE_REQUIRE_VULKAN();
  // Every pair of special bases and exponents whose power is real (a negative finite base
  // with a finite non-integer exponent is complex: that leaves the kernel, tested below).
  const std::string code =
      "b = single([0 -0 1 -1 2 -2 0.5 -0.5 Inf -Inf NaN 1e-40 -1e-40 3 -3 1e30 -1e30 0.999]);"
      "e = single([0 -0 1 -1 2 -2 3 -3 0.5 -0.5 Inf -Inf NaN 2.5 1e10 -1e10 16777216 "
      "16777217 -16777215 1e-40 127 -149 200 0.1]);"
      "[B, E] = ndgrid(b, e); B = B(:)'; E = E(:)';"
      "ok = ~(B < 0 & isfinite(E) & E ~= floor(E)); B = B(ok); E = E(ok);"
      "B = repmat(B, 1, 4); E = repmat(E, 1, 4); p = B .^ E; q = (B * 3) .^ (E + 1);";
  same_bits(code, {"p", "q"});
}

TEST(VulkanMath, LeavingTheRealDomainRerunsEagerly) {
  MATFUSE_REQUIRE_VULKAN();
  // log, asin and a negative base with a fractional exponent fault on the device; the eager
  // re-run gives the host's complex results.
  for (const char* f : {"y = log(x - 2000);", "y = asin(x / 1000);",
                        "y = (x - 100) .^ single(0.5);", "y = log1p(x - 1500);"}) {
    const std::string code = std::string("x = single(1:3000);") + f;
    ScriptRun h = run_in(accel::DeviceMode::Cpu, code, {"y"});
    ScriptRun d = run_in(accel::DeviceMode::Gpu, code, {"y"});
    EXPECT_TRUE(bitwise_equal(d.vars["y"], h.vars["y"])) << f;
    bool faulted = false;
    for (const auto& g : d.groups)
      faulted |= g.provider == "eager" && g.fallback == "a value left the real domain";
    EXPECT_TRUE(faulted) << f << ": " << d.summary();
  }
}

TEST(VulkanMath, ModAndRemHaveTheHostsBits) {
  MATFUSE_REQUIRE_VULKAN();
  // fmod is exact: the integer port must give the C library's bits in both precisions, with
  // MATLAB's rules for zero and infinite divisors, NaN, signed zeros, subnormals and operands
  // whose exponents lie far apart.
  for (const char* cls : {"double", "single"}) {
    const std::string code =
        std::string(
            "rng(9); n = 4000; a = randn(1, n) .* 10 .^ round(8 * randn(1, n));"
            "b = randn(1, n) .* 10 .^ round(3 * randn(1, n));"
            "sp = [0 -0 Inf -Inf NaN 1e-310 -1e-310 realmin 5 -5 2.5 -2.5 1e300 -1e-300 "
            "7 -7 0.1 3];"
            "[A, B] = ndgrid(sp, sp); a(1:numel(A)) = A(:)'; b(1:numel(B)) = B(:)';"
            "a(1000:1100) = 2 .^ (0:100) * 3; b(1000:1100) = 1e-30;"
            "a = ") +
        cls + "(a); b = " + cls +
        "(b);"
        "m = mod(a, b); r = rem(a, b); m2 = mod(a * 3, 7); r2 = rem(-a, b + 1);"
        "i = int32(a(1:2000) * 1e-3); j = int32(b(1:2000)); mi = mod(i, j) + 1; ri = rem(i, j) + "
        "1;";
    same_bits(code, {"m", "r", "m2", "r2", "mi", "ri"}, 2);
  }
}

TEST(VulkanMath, RandomNumbersHaveTheHostsBits) {
  MATFUSE_REQUIRE_VULKAN();
  // Double and single, several seeds, odd start positions (a call after 1001 values), and
  // randi (rand scaled and floored on the host's formula).
  const std::string code =
      "rng(5); a = rand(1, 5000); b = randn(1, 5001); c = rand(1, 4999, 'single');"
      "d = randn(1, 5003, 'single'); r = randi(10, 1, 5000); r2 = randi([-7 1e6], 3000, 1);"
      "rng(123456789); e = randn(3001, 1) + 1; f = rand(2, 2001, 'single') * 2;"
      "g = randn(1001, 3, 'single') - 1; rng(0); h = rand(1, 1001); k = randn(1, 1001);"
      "m = randi(255, 1, 2000, 'single');";
  same_bits(code, {"a", "b", "c", "d", "r", "r2", "e", "f", "g", "h", "k", "m"}, 3);
}

TEST(VulkanMath, LinspaceHasTheHostsBits) {
  MATFUSE_REQUIRE_VULKAN();
  const std::string code =
      "l1 = linspace(0, 1, 5000); l2 = linspace(-3.5, 1e10, 4097) + 0;"
      "l3 = linspace(-realmax, realmax, 2001) * 1; l4 = linspace(5, 5, 1000) + 1;"
      "l5 = linspace(1, -1, 1001) * 2; l6 = linspace(single(0), single(pi), 3000) + 1;"
      "l7 = linspace(-1e-310, 3e-310, 1500) * 1; l8 = linspace(0.1, 0.7, 1001) .* 3;";
  same_bits(code, {"l1", "l2", "l3", "l4", "l5", "l6", "l7", "l8"}, 4);
}

TEST(VulkanMath, FastSingleLinspaceHasTheHostsBits) {
  MATFUSE_REQUIRE_VULKAN();
  same_bits(
      "feature('MathMode', 'fast'); l = single(linspace(-2, 7, 3001)) * 2;"
      "m = single(linspace(0, 1, 1000)) + 1; feature('MathMode', 'exact');",
      {"l", "m"});
}

TEST(VulkanMath, TheProbeFindsWhatTheFunctionsNeed) {
  MATFUSE_REQUIRE_VULKAN();
  const vk::Device* d = vk::Device::get();
  ASSERT_NE(d, nullptr);
  const vk::Caps& c = vk::vulkan_provider()->caps();
  // Mesa's lavapipe computes on the CPU with IEEE conversions; its fma() is LLVM's fmuladd,
  // fused or not by the CPU it runs on, so the probe decides (the software fma covers both).
  if (d->info().driver == "llvmpipe") {
    EXPECT_TRUE(c.cvt && c.float64);
  }
  std::printf("[ vulkan ] fused fma: %s/%s (single/double)\n", c.fma32 ? "yes" : "no",
              c.fma64 ? "yes" : "no");
}

TEST(VulkanMath, TheSoftwareFmaIsTheHostsFma) {
  MATFUSE_REQUIRE_VULKAN();
  vk::Device* dev = vk::Device::get();
  ASSERT_NE(dev, nullptr);
  if (!dev->info().float64) GTEST_SKIP() << "no double precision";
  // a*b + c over random operands of every exponent (overflow, subnormal products and results),
  // addends that cancel the product (-(a*b) rounded: the result is the product's rounding
  // error, where an unfused fma gives 0), rounding ties and the special values.
  constexpr size_t n = 1 << 16;
  std::vector<double> a(n), b(n), c(n), r(n);
  std::vector<float> fa(n), fb(n), fc(n), fr(n);
  uint64_t s = 0x2545f4914f6cdd1dull;
  auto next = [&] {
    s ^= s >> 12;
    s ^= s << 25;
    s ^= s >> 27;
    return s * 2685821657736338717ull;
  };
  auto dbl = [](uint64_t u) {
    double d;
    std::memcpy(&d, &u, 8);
    return d;
  };
  auto flt = [](uint32_t u) {
    float f;
    std::memcpy(&f, &u, 4);
    return f;
  };
  const double special[] = {0.0,
                            -0.0,
                            1.0,
                            -1.0,
                            INFINITY,
                            -INFINITY,
                            NAN,
                            4.9406564584124654e-324,
                            -2.2250738585072014e-308,
                            1.7976931348623157e308,
                            0.5,
                            3.0};
  for (size_t i = 0; i < n; ++i) {
    uint64_t ua = next(), ub = next(), uc = next();
    switch (i % 4) {
      case 0:
        break;  // any exponents
      case 1:   // moderate exponents
      case 2:
        ua = (ua & 0x800fffffffffffffull) | ((0x3c0ull + (ua >> 52) % 128) << 52);
        ub = (ub & 0x800fffffffffffffull) | ((0x3c0ull + (ub >> 52) % 128) << 52);
        uc = (uc & 0x800fffffffffffffull) | ((0x3b0ull + (uc >> 52) % 160) << 52);
        break;
      default:  // products near the subnormal range
        ua = (ua & 0x800fffffffffffffull) | (((ua >> 52) % 96) << 52);
        ub = (ub & 0x800fffffffffffffull) | ((0x3c0ull + (ub >> 52) % 64) << 52);
        uc = (uc & 0x800fffffffffffffull) | (((uc >> 52) % 64) << 52);
    }
    a[i] = dbl(ua);
    b[i] = dbl(ub);
    c[i] = i % 4 == 2 ? -(a[i] * b[i]) : dbl(uc);
    const uint32_t va = static_cast<uint32_t>(next()), vb = static_cast<uint32_t>(next());
    fa[i] = flt(i % 2 ? (va & 0x807fffffu) | ((0x70u + (va >> 23) % 32) << 23) : va);
    fb[i] = flt(i % 2 ? (vb & 0x807fffffu) | ((0x70u + (vb >> 23) % 32) << 23) : vb);
    fc[i] = i % 4 == 1 ? -(fa[i] * fb[i]) : flt(static_cast<uint32_t>(next()) & 0xbfffffffu);
    if (i < 1728) {
      a[i] = special[i % 12];
      b[i] = special[(i / 12) % 12];
      c[i] = special[i / 144];
      fa[i] = static_cast<float>(a[i]);
      fb[i] = static_cast<float>(b[i]);
      fc[i] = static_cast<float>(c[i]);
    }
  }
  std::vector<std::unique_ptr<DeviceCopy>> bufs;
  auto buffer = [&](const void* src, size_t bytes) {
    bufs.push_back(dev->allocate(bytes));
    const uint64_t addr = reinterpret_cast<uint64_t>(bufs.back()->device_ptr());
    if (src) dev->upload(addr, src, bytes);
    return addr;
  };
  uint64_t slots[8] = {buffer(a.data(), 8 * n),  buffer(b.data(), 8 * n),  buffer(c.data(), 8 * n),
                       buffer(nullptr, 8 * n),   buffer(fa.data(), 4 * n), buffer(fb.data(), 4 * n),
                       buffer(fc.data(), 4 * n), buffer(nullptr, 4 * n)};
  const uint64_t args = buffer(slots, sizeof slots);
  const std::string glsl =
      "#version 460\n#extension GL_EXT_buffer_reference : require\n"
      "#extension GL_EXT_shader_explicit_arithmetic_types_int64 : require\n"
      "layout(local_size_x = 256) in;\n"
      "layout(buffer_reference, std430, buffer_reference_align = 8) buffer MfU64 { uint64_t v; };\n"
      "layout(buffer_reference, std430, buffer_reference_align = 8) buffer MfF64 { double v; };\n"
      "layout(buffer_reference, std430, buffer_reference_align = 4) buffer MfF32 { float v; };\n"
      "layout(push_constant) uniform MfPush { uint64_t args; } pc;\n" +
      vk::software_fma_glsl() +
      "uint64_t arg(int k) { return MfU64(pc.args + uint64_t(8 * k)).v; }\n"
      "void main() {\n"
      "  const uint64_t i = uint64_t(gl_GlobalInvocationID.x);\n"
      "  MfF64(arg(3) + 8UL * i).v = mf_fma64_sw(MfF64(arg(0) + 8UL * i).v, MfF64(arg(1) + 8UL * "
      "i).v,"
      " MfF64(arg(2) + 8UL * i).v);\n"
      "  MfF32(arg(7) + 4UL * i).v = mf_fmaf_sw(MfF32(arg(4) + 4UL * i).v, MfF32(arg(5) + 4UL * "
      "i).v,"
      " MfF32(arg(6) + 4UL * i).v);\n"
      "}\n";
  double secs = 0;
  std::string cache;
  const vk::Pipeline& p = dev->pipeline(glsl, &secs, &cache);
  dev->wait(dev->dispatch(p, static_cast<uint32_t>(n / 256), args));
  dev->download(r.data(), slots[3], 8 * n);
  dev->download(fr.data(), slots[7], 4 * n);
  int bad = 0;
  for (size_t i = 0; i < n && bad < 10; ++i) {
    const double want = std::fma(a[i], b[i], c[i]);
    const float fwant = std::fma(fa[i], fb[i], fc[i]);
    // NaN results: any NaN (their payloads are not part of the functions' results).
    const bool ok = std::isnan(want) ? std::isnan(r[i]) : std::memcmp(&want, &r[i], 8) == 0;
    const bool fok = std::isnan(fwant) ? std::isnan(fr[i]) : std::memcmp(&fwant, &fr[i], 4) == 0;
    if (!ok) {
      ++bad;
      ADD_FAILURE() << "fma(" << std::hexfloat << a[i] << ", " << b[i] << ", " << c[i]
                    << ") = " << want << ", software " << r[i];
    }
    if (!fok) {
      ++bad;
      ADD_FAILURE() << "fmaf(" << std::hexfloat << fa[i] << ", " << fb[i] << ", " << fc[i]
                    << ") = " << fwant << ", software " << fr[i];
    }
  }
}

TEST(VulkanMath, CompileTimeOfTheFullPrelude) {
  MATFUSE_REQUIRE_VULKAN();
  // Every function and both generators in one kernel: the largest prelude. Its compile time
  // (glslang to SPIR-V and the driver's pipeline) is reported, and bounded generously.
  const std::string code =
      std::string(kSingleOperands) +
      "z = sin(x) + cos(x) + tan(x) + exp(x) + expm1(x) + sinh(x) + cosh(x) + tanh(x) + "
      "atan(x) + log(abs(x)) + log2(abs(x)) + log10(abs(x)) + log1p(abs(x)) + asin(u) + "
      "acos(u) + atan2(x, y) + hypot(x, y) + abs(x) .^ y + rand(1, n, 'single') + "
      "randn(1, n, 'single') + single(rand(1, n) + randn(1, n) + 0.123456789);";
  ScriptRun d = same_bits(code, {"z"});
  double secs = 0;
  for (const auto& g : d.groups)
    if (g.provider == "vulkan") secs = std::max(secs, g.compile_seconds);
  std::printf("[ vulkan ] largest math kernel: compile %.2f s\n", secs);
  RecordProperty("compile_seconds", std::to_string(secs));
  EXPECT_LT(secs, 120.0);
}

// ---- rendering (no device needed) ------------------------------------------------------------

accel::Instr instr(accel::IKind kind, accel::VType t, int a = -1, int b = -1) {
  accel::Instr in;
  in.kind = kind;
  in.type = t;
  in.cls = t == accel::VType::F32 ? ClassId::Single : ClassId::Double;
  in.a = a;
  in.b = b;
  return in;
}

/// out = op(in0) (or op(in0, in0)) over 1000 elements of class cls.
accel::Kernel op_kernel(OpId op, ClassId cls, bool binary = false) {
  const accel::VType t = accel::vtype_of(cls);
  accel::Kernel k;
  k.space = Dims(1000, 1);
  k.inputs = {accel::KInput{cls}};
  k.accesses = {accel::Access{{1, 0}, 0, {}}};
  accel::Instr ld = instr(accel::IKind::Load, t);
  ld.input = 0;
  ld.access = 0;
  accel::Instr o = instr(accel::IKind::Op, t, 0, binary ? 0 : -1);
  o.op = op;
  k.body = {ld, o};
  k.outputs = {accel::KOutput{1, cls, 0, false}};
  return k;
}

vk::Caps exact_caps() {
  vk::Caps c;
  c.float64 = c.div32 = c.div64 = c.sqrt32 = c.sqrt64 = c.fma32 = c.fma64 = c.cvt = true;
  return c;
}

std::string render_error(const accel::Kernel& k, const vk::Caps& c) {
  try {
    vk::render(k, c);
  } catch (const MatlabError& e) {
    EXPECT_EQ(e.identifier(), "matfuse:codegen");
    return e.message();
  }
  return "";
}

TEST(VulkanMathRender, OnlyTheNeededPartsArePrepended) {
  const vk::Caps c = exact_caps();
  const std::string exp = vk::render(op_kernel(OpId::Exp, ClassId::Single), c).glsl;
  EXPECT_NE(exp.find("mf_expf(v0)"), std::string::npos);
  EXPECT_NE(exp.find("float mf_exp_f_("), std::string::npos);
  EXPECT_EQ(exp.find("mf_rem_pio2_big_"), std::string::npos);
  EXPECT_EQ(exp.find("mf_powf"), std::string::npos);
  const std::string sin = vk::render(op_kernel(OpId::Sin, ClassId::Single), c).glsl;
  EXPECT_NE(sin.find("double mf_rem_pio2_big_("), std::string::npos);
  EXPECT_EQ(sin.find("mf_exp_f_"), std::string::npos);
  const std::string pw = vk::render(op_kernel(OpId::Pow, ClassId::Single, true), c).glsl;
  EXPECT_NE(pw.find("mf_powf(v0, v0)"), std::string::npos);
  // No function: no prelude at all.
  EXPECT_EQ(vk::render(op_kernel(OpId::Abs, ClassId::Single), c).glsl.find("MF_U2D"),
            std::string::npos);
}

TEST(VulkanMathRender, WithoutAFusedFmaTheSoftwareFmaIsUsed) {
  vk::Caps c = exact_caps();
  const std::string fused = vk::render(op_kernel(OpId::Sin, ClassId::Single), c).glsl;
  EXPECT_NE(fused.find("#define MF_FMA(a, b, c) fma(a, b, c)"), std::string::npos);
  EXPECT_NE(fused.find("#define MF_FMAF(a, b, c) fma(a, b, c)"), std::string::npos);
  EXPECT_EQ(fused.find("mf_fma64_sw"), std::string::npos);
  c.fma32 = c.fma64 = false;
  const std::string soft = vk::render(op_kernel(OpId::Sin, ClassId::Single), c).glsl;
  EXPECT_NE(soft.find("#define MF_FMA(a, b, c) mf_fma64_sw(a, b, c)"), std::string::npos);
  EXPECT_NE(soft.find("#define MF_FMAF(a, b, c) mf_fmaf_sw(a, b, c)"), std::string::npos);
  // The single software fma computes in double precision.
  c.float64 = false;
  EXPECT_NE(render_error(op_kernel(OpId::Exp, ClassId::Single), c).find("double precision"),
            std::string::npos);
}

TEST(VulkanMathRender, WithoutExactDivisionOrConversionsTheKernelIsNotRendered) {
  vk::Caps c = exact_caps();
  c.div64 = false;
  EXPECT_NE(render_error(op_kernel(OpId::Atan2, ClassId::Single, true), c).find("division"),
            std::string::npos);
  c = exact_caps();
  c.cvt = false;
  EXPECT_NE(render_error(op_kernel(OpId::Atan, ClassId::Single), c).find("conversions"),
            std::string::npos);
  c = exact_caps();
  c.float64 = false;
  EXPECT_NE(render_error(op_kernel(OpId::Log2, ClassId::Single), c).find("double precision"),
            std::string::npos);
  // The float-only functions need no double precision.
  EXPECT_EQ(render_error(op_kernel(OpId::Exp, ClassId::Single), c), "");
  EXPECT_EQ(render_error(op_kernel(OpId::Tanh, ClassId::Single), c), "");
}

TEST(VulkanMath, EveryFunctionCompilesWithAFusedFmaToo) {
  MATFUSE_REQUIRE_VULKAN();
  // The device here may lack a fused fma (then the software fma runs); the text a device with
  // one gets (MF_FMA as fma()) must compile as well.
  vk::Device* dev = vk::Device::get();
  ASSERT_NE(dev, nullptr);
  if (!dev->info().float64) GTEST_SKIP() << "no double precision";
  for (OpId op :
       {OpId::Sin,   OpId::Cos,  OpId::Tan,   OpId::Asin,  OpId::Acos, OpId::Atan, OpId::Sinh,
        OpId::Cosh,  OpId::Tanh, OpId::Exp,   OpId::Expm1, OpId::Log,  OpId::Log2, OpId::Log10,
        OpId::Log1p, OpId::Pow,  OpId::Atan2, OpId::Hypot, OpId::Mod,  OpId::Rem}) {
    const bool binary = op == OpId::Pow || op == OpId::Atan2 || op == OpId::Hypot ||
                        op == OpId::Mod || op == OpId::Rem;
    const std::string glsl = vk::render(op_kernel(op, ClassId::Single, binary), exact_caps()).glsl;
    double secs = 0;
    std::string cache;
    EXPECT_NO_THROW(dev->pipeline(glsl, &secs, &cache)) << op_name(op);
  }
}

TEST(VulkanMathRender, DoublePrecisionFunctionsStayOnTheHost) {
  const vk::Caps c = exact_caps();
  for (OpId op : {OpId::Sin, OpId::Exp, OpId::Log, OpId::Atan}) {
    EXPECT_NE(render_error(op_kernel(op, ClassId::Double), c).find("double-precision"),
              std::string::npos);
  }
  EXPECT_NE(render_error(op_kernel(OpId::Pow, ClassId::Double, true), c).find("double-precision"),
            std::string::npos);
  // mod and rem are exact (fmod): rendered in double precision too.
  EXPECT_NE(vk::render(op_kernel(OpId::Mod, ClassId::Double, true), c).glsl.find("mf_mod_(v0, v0)"),
            std::string::npos);
  EXPECT_NE(
      vk::render(op_kernel(OpId::Rem, ClassId::Single, true), c).glsl.find("mf_remf_(v0, v0)"),
      std::string::npos);
}

}  // namespace
}  // namespace matfuse::gputest
