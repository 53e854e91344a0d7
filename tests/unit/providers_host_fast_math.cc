// Fast math mode on the host provider (issue 22, docs/math-modes.md): the single-precision
// elementary functions of fast mode (SLEEF's vectorised functions where the build has SLEEF)
// against exact mode, within the documented bounds in ulp of the exact result, with the same
// NaN positions. CI samples 2^20 spread bit patterns plus special values per function;
// MATFUSE_TEST_ALL_SINGLES=1 sweeps all 2^32 single inputs (the measurement behind the table in
// docs/math-modes.md; about 2 minutes per function on one core).
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "accel/capture/graph.h"
#include "accel/emit/fast_math.h"
#include "accel/plan/placement.h"
#include "accel/run/evaluate.h"
#include "accel_modes_util.h"
#include "runtime/scalar_ops.h"

namespace matfuse {
namespace {

/// The math mode for a scope, placement forced to the host.
struct Modes : test::ScopedModes {
  explicit Modes(accel::MathMode m) : ScopedModes(m, accel::DeviceMode::Cpu) {}
};

Tensor apply(OpId op, const Tensor& x, accel::MathMode m) {
  Modes s(m);
  Tensor r = accel::evaluate(accel::unary(op, accel::input(x)));
  (void)r.raw();
  return r;
}

using Bound = test::FastBound;
constexpr const auto& kBounds = test::kFastBounds;

/// |f - e| in ulp of e (e normal or zero; the ulp of zero is the smallest subnormal).
double ulp_error(float f, float e) {
  if (f == e) return 0;
  const double ae = std::fabs(static_cast<double>(e));
  const double ulp = ae == 0 ? 0x1p-149 : std::ldexp(1.0, std::ilogb(ae) - 23);
  return std::fabs(static_cast<double>(f) - static_cast<double>(e)) / ulp;
}

TEST(HostFastMath, SingleFunctionsWithinTheirBounds) {
  const bool all = std::getenv("MATFUSE_TEST_ALL_SINGLES") != nullptr;
  const int64_t total = all ? (int64_t{1} << 32) : (int64_t{1} << 20);
  const int64_t chunk = std::min<int64_t>(total, int64_t{1} << 24);
  const float special[] = {0.0f, -0.0f, INFINITY, -INFINITY, NAN, 1.0f, -1.0f, 0.5f, 1e-45f,
                           -1e-45f, 1.17549435e-38f, 3.40282347e38f, -3.40282347e38f, 88.7f,
                           -103.9f, 1e30f, 7.0e4f, 1.5707964f, 3.1415927f, 1e-8f};
  for (const Bound& b : kBounds) {
    double worst = 0;
    float worst_x = 0;
    bool nan_mismatch = false;
    for (int64_t c0 = 0; c0 < total; c0 += chunk) {
      const int64_t n = chunk + (c0 == 0 ? static_cast<int64_t>(std::size(special)) : 0);
      Tensor x = Tensor::uninit(ClassId::Single, Dims(n, 1));
      float* p = x.mutable_data<float>();
      for (int64_t i = 0; i < chunk; ++i) {
        // Every bit pattern when sweeping, else a spread of them (all exponents, both signs).
        const uint32_t u = all ? static_cast<uint32_t>(c0 + i)
                               : static_cast<uint32_t>((c0 + i) * 4099u + 12345u);
        float v;
        std::memcpy(&v, &u, 4);
        p[i] = (v >= b.lo && v <= b.hi) || std::isnan(v) ? v : 0.5f;
      }
      if (c0 == 0)
        for (size_t k = 0; k < std::size(special); ++k) {
          const float v = special[k];
          p[chunk + static_cast<int64_t>(k)] = (v >= b.lo && v <= b.hi) || std::isnan(v) ? v : 0.5f;
        }
      const Tensor fast = apply(b.op, x, accel::MathMode::Fast);
      const Tensor exact = apply(b.op, x, accel::MathMode::Exact);
      const float* f = fast.data<float>();
      const float* e = exact.data<float>();
      for (int64_t i = 0; i < n; ++i) {
        if (std::isnan(f[i]) != std::isnan(e[i])) nan_mismatch = true;
        if (std::isnan(e[i]) || (e[i] != 0 && std::fabs(e[i]) < 0x1p-126f)) continue;
        const double err = ulp_error(f[i], e[i]);
        if (!(err <= worst)) {
          worst = err;
          worst_x = p[i];
        }
      }
    }
    std::printf("host fast %-6s max error %.3f ulp at %a (bound %.0f)%s\n",
                std::string(op_name(b.op)).c_str(), worst, static_cast<double>(worst_x), b.ulp,
                nan_mismatch ? " NaN positions differ" : "");
    EXPECT_LE(worst, b.ulp) << op_name(b.op) << " at " << worst_x;
    EXPECT_FALSE(nan_mismatch) << op_name(b.op);
  }
}

TEST(HostFastMath, ExactModeUnchangedAndFastModeDiffers) {
  // Exact mode is the shared bit-exact source whatever the build; fast mode with SLEEF computes
  // other (cheaper) values for some inputs.
  Tensor x = Tensor::uninit(ClassId::Single, Dims(4096, 1));
  float* p = x.mutable_data<float>();
  for (int i = 0; i < 4096; ++i) p[i] = 0.001f * static_cast<float>(i) - 2.0f;
  const Tensor e = apply(OpId::Sin, x, accel::MathMode::Exact);
  for (int i = 0; i < 4096; ++i) ASSERT_EQ(e.data<float>()[i], scalar::Sin::apply(p[i])) << i;
#ifdef MATFUSE_HAVE_SLEEF
  const Tensor f = apply(OpId::Sin, x, accel::MathMode::Fast);
  int differ = 0;
  for (int i = 0; i < 4096; ++i) differ += f.data<float>()[i] != e.data<float>()[i];
  EXPECT_GT(differ, 0) << "fast mode ran the exact functions";
#endif
}

}  // namespace
}  // namespace matfuse
