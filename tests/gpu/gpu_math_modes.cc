// Math modes on the device (DESIGN.md decision 7, docs/math-modes.md): every single-precision
// function of fast mode against exact mode over all 2^32 single inputs (the largest error in
// ulp of the exact result must stay within the documented bound), fast-mode division and
// linspace on random inputs, and exact mode unchanged.
#include <cmath>
#include <cstdio>
#include <cstring>
#include <vector>

#include "accel/run/evaluate.h"
#include "accel_modes_util.h"
#include "accel/emit/fast_math.h"
#include "gpu_util.h"

using namespace matfuse;
using namespace matfuse::gputest;

namespace {

/// The math mode for a scope, placement forced to the device.
struct Modes : test::ScopedModes {
  explicit Modes(accel::MathMode m) : ScopedModes(m, accel::DeviceMode::Gpu) {}
};

/// op(x) computed on the device in mode m (a device-resident tensor).
Tensor apply(OpId op, const Tensor& x, accel::MathMode m) {
  Modes s(m);
  return accel::evaluate(accel::unary(op, accel::input(x)));
}

using Bound = test::FastBound;
constexpr const auto& kBounds = test::kFastBounds;
}  // namespace

TEST(GpuMathModes, FastFunctionsWithinTheirBoundsOverEverySingle) {
  MATFUSE_REQUIRE_GPU();
  const int64_t chunk = int64_t{1} << 26;
  std::vector<double> worst(std::size(kBounds), 0.0);
  std::vector<bool> nan_mismatch(std::size(kBounds), false);
  for (int64_t c0 = 0; c0 < (int64_t{1} << 32); c0 += chunk) {
    Tensor bits = Tensor::uninit(ClassId::Single, Dims(chunk, 1));
    uint32_t* p = static_cast<uint32_t*>(bits.mutable_raw());
    for (int64_t i = 0; i < chunk; ++i) p[i] = static_cast<uint32_t>(c0 + i);
    for (size_t f = 0; f < std::size(kBounds); ++f) {
      const Bound& b = kBounds[f];
      Tensor x = bits;
      if (b.lo > -INFINITY || b.hi < INFINITY) {
        // Fold inputs outside the real domain into it (x stays a bit pattern of the chunk).
        x = Tensor::uninit(ClassId::Single, Dims(chunk, 1));
        float* q = static_cast<float*>(x.mutable_raw());
        const float* s = static_cast<const float*>(bits.raw());
        for (int64_t i = 0; i < chunk; ++i) {
          const float v = s[i];
          q[i] = (v >= b.lo && v <= b.hi) || std::isnan(v) ? v : 0.5f;
        }
      }
      const Tensor fast = apply(b.op, x, accel::MathMode::Fast);
      const Tensor exact = apply(b.op, x, accel::MathMode::Exact);
      // On the device: the largest |fast - exact| / ulp(exact) over results that are normal or
      // zero, and whether NaN positions differ.
      Modes s(accel::MathMode::Exact);
      using namespace accel;
      const NodeRef fd = cast(input(fast), ClassId::Double), ed = cast(input(exact), ClassId::Double);
      const NodeRef ae = unary(OpId::Abs, ed);
      const NodeRef ulp = binary(
          OpId::Pow, constant(2.0),
          binary(OpId::Sub, unary(OpId::Floor, unary(OpId::Log2, ae)), constant(23.0)));
      // Subnormal results (|e| < 2^-126) are outside the bound (fast functions flush them).
      const NodeRef normal = binary(OpId::Or, binary(OpId::Ge, ae, constant(0x1p-126)),
                                    binary(OpId::Eq, ae, constant(0.0)));
      const NodeRef err = binary(OpId::Div, unary(OpId::Abs, binary(OpId::Sub, fd, ed)),
                                 binary(OpId::Max, ulp, constant(0x1p-149)));
      const NodeRef masked = binary(OpId::Mul, err, cast(normal, ClassId::Double));
      const NodeRef mx = reduce(ReduceKind::Max, masked, {0});
      const NodeRef nan_diff =
          reduce(ReduceKind::Any,
                 binary(OpId::Ne, unary(OpId::IsNaN, input(fast)), unary(OpId::IsNaN, input(exact))),
                 {0});
      const NodeRef roots[] = {mx, nan_diff};
      const std::vector<Tensor> r = evaluate(std::span<const NodeRef>(roots));
      const double m = r[0].get_double(0);
      if (!(m <= worst[f])) worst[f] = std::isnan(m) ? worst[f] : m;
      if (r[1].get_double(0) != 0) nan_mismatch[f] = true;
    }
  }
  for (size_t f = 0; f < std::size(kBounds); ++f) {
    std::printf("fast %-6s max error %.3f ulp (bound %.0f)%s\n",
                std::string(op_name(kBounds[f].op)).c_str(), worst[f], kBounds[f].ulp,
                nan_mismatch[f] ? " NaN positions differ" : "");
    // The ulp of the exact result comes from pow and log2 in double: allow their rounding.
    EXPECT_LE(worst[f], kBounds[f].ulp + 1e-9) << op_name(kBounds[f].op);
    EXPECT_FALSE(nan_mismatch[f]) << op_name(kBounds[f].op);
  }
}

TEST(GpuMathModes, FastDivisionAndLinspaceWithinBoundsExactUnchanged) {
  MATFUSE_REQUIRE_GPU();
  const std::string code =
      "rng(3); x = randn(1, 2e6, 'single') * 100; d = rand(1, 2e6, 'single') + 0.5;"
      "q = x ./ d; r = x / 7; l = single(linspace(0, 4*pi, 3e6)); s = sin(x) .* exp(-abs(x)/10);";
  const std::vector<std::string> names = {"q", "r", "l", "s"};
  const ScriptRun host = run_in(accel::DeviceMode::Cpu, code, names);
  const ScriptRun exact = run_in(accel::DeviceMode::Gpu, code, names);
  for (const std::string& n : names) EXPECT_TRUE(bitwise_equal(host.vars.at(n), exact.vars.at(n))) << n;
  ScriptRun fast;
  {
    const accel::MathMode prev = accel::math_mode();
    accel::set_math_mode(accel::MathMode::Fast);
    fast = run_in(accel::DeviceMode::Gpu, code, names);
    accel::set_math_mode(prev);
  }
  int fast_groups = 0;
  for (const auto& g : fast.groups) fast_groups += g.fast_math && g.provider == "cuda";
  EXPECT_GT(fast_groups, 0) << fast.summary();
  // Bounds (docs/math-modes.md): division 2 ulp, division by a uniform divisor 1.5 ulp, single
  // linspace 2 ulp of max(|a|, |b|). The compound s = sin(x).*exp(-abs(x)/10) is as well
  // conditioned as its parts allow: exp amplifies the argument's rounding by |x|/10 (up to 30
  // here), so it is checked against a relative bound of 1e-4.
  auto max_ulp = [](const Tensor& a, const Tensor& e, double scale_abs) {
    const float* x = a.data<float>();
    const float* y = e.data<float>();
    double m = 0;
    for (int64_t i = 0; i < a.numel(); ++i) {
      const double u = scale_abs > 0 ? std::ldexp(1.0, std::ilogb(scale_abs) - 23)
                                     : std::ldexp(1.0, std::ilogb(std::fabs(y[i])) - 23);
      if (y[i] == 0) continue;
      m = std::max(m, std::fabs(static_cast<double>(x[i]) - y[i]) / u);
    }
    return m;
  };
  EXPECT_LE(max_ulp(fast.vars.at("q"), exact.vars.at("q"), 0), 2.0);
  EXPECT_LE(max_ulp(fast.vars.at("r"), exact.vars.at("r"), 0), 1.5);
  EXPECT_LE(max_ulp(fast.vars.at("l"), exact.vars.at("l"), 4 * M_PI), 2.0);
  {
    const float* a = fast.vars.at("s").data<float>();
    const float* e = exact.vars.at("s").data<float>();
    double worst = 0;
    for (int64_t i = 0; i < fast.vars.at("s").numel(); ++i)
      if (std::fabs(e[i]) > 1e-30)
        worst = std::max(worst, std::fabs(static_cast<double>(a[i]) - e[i]) / std::fabs(e[i]));
    EXPECT_LE(worst, 1e-4);
  }
  const Tensor& l = fast.vars.at("l");
  EXPECT_EQ(l.data<float>()[0], 0.0f);
  EXPECT_EQ(l.data<float>()[l.numel() - 1], static_cast<float>(4 * M_PI));
}
