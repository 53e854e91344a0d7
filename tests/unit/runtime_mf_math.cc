// Tests of runtime/mf_math.inc (the single-precision functions shared by the host and the CUDA
// prelude): sampled accuracy against glibc's double functions rounded to float (max 1 ulp),
// IEEE special values, that scalar_ops.h's float functors use them, and the shared op bodies of
// runtime/scalar_ops.inc. The exhaustive check
// over all 2^32 floats is tests/tools/mf_math_exhaustive.cc (run by hand).
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <random>
#include <utility>
#include <vector>

#include "runtime/scalar_ops.h"

#include "runtime/philox.inc"

// mf_math.inc as the CUDA prelude compiles it (MF_BRANCHES: one path evaluated per element), in
// its own namespace, to compare with the host's both-paths-and-select form.
#undef MF_MATH_INC
#define MF_BRANCHES 1
namespace branches {
#include "runtime/mf_math.inc"
}  // namespace branches
#undef MF_BRANCHES

namespace {

uint32_t fbits(float f) { uint32_t u; std::memcpy(&u, &f, 4); return u; }
float ffrom(uint32_t u) { float f; std::memcpy(&f, &u, 4); return f; }

/// ulp distance (monotone order of the encodings); NaN matches only NaN, zeros need the sign.
uint64_t ulps(float a, float b) {
  if (a != a || b != b) return (a != a && b != b) ? 0 : (1ull << 31);
  if (a == 0 && b == 0) return std::signbit(a) == std::signbit(b) ? 0 : (1ull << 31);
  if (std::isinf(a) || std::isinf(b)) return a == b ? 0 : (1ull << 31);
  auto ord = [](float f) { int64_t i = static_cast<int32_t>(fbits(f)); return i < 0 ? -(i & 0x7fffffff) : i; };
  const int64_t d = ord(a) - ord(b);
  return static_cast<uint64_t>(d < 0 ? -d : d);
}

uint64_t next(uint64_t& z) {  // SplitMix64
  z += 0x9E3779B97F4A7C15ull;
  uint64_t x = z;
  x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
  x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
  return x ^ (x >> 31);
}

/// Largest ulp error of f against ref (glibc double, rounded) over every float x in [lo, hi]
/// and its negation; *at receives the worst argument.
uint64_t worst_ulps(float (*f)(float), double (*ref)(double), float lo, float hi, float* at) {
  uint64_t worst = 0;
  for (uint32_t u = fbits(lo); u <= fbits(hi); ++u) {
    const float x = ffrom(u);
    for (float sx : {x, -x}) {
      const uint64_t e = ulps(f(sx), static_cast<float>(ref(double(sx))));
      if (e > worst) { worst = e; *at = sx; }
    }
  }
  return worst;
}

const float kInf = std::numeric_limits<float>::infinity();
const float kNaN = std::numeric_limits<float>::quiet_NaN();

// max_wrong: how many of the ~2M sampled results may be not correctly rounded (but within 1
// ulp). Double working precision (~2^-45): rare (~2^-20). The float-only fast paths (exp, log,
// sin, cos, tanh, sinh, cosh; error bound ~0.8-0.9 ulp before the final rounding): up to a
// few percent (exp ~4%; here tanh ~27000, mostly from its 1 - 2/(e^2|x| + 1) branch above
// 0.55, sinh and cosh ~55000).
struct Unary { const char* name; float (*mine)(float); double (*ref)(double); uint64_t max_wrong; };
const Unary kUnary[] = {
    {"exp", mf_expf, ::exp, 120000}, {"expm1", mf_expm1f, ::expm1, 20}, {"log", mf_logf, ::log, 60000},
    {"log1p", mf_log1pf, ::log1p, 20}, {"log2", mf_log2f, ::log2, 20},  {"log10", mf_log10f, ::log10, 20},
    {"sin", mf_sinf, ::sin, 60000},  {"cos", mf_cosf, ::cos, 60000},    {"tan", mf_tanf, ::tan, 20},
    {"tanh", mf_tanhf, ::tanh, 35000}, {"sinh", mf_sinhf, ::sinh, 70000}, {"cosh", mf_coshf, ::cosh, 70000},
    {"atan", mf_atanf, ::atan, 20},  {"asin", mf_asinf, ::asin, 20},    {"acos", mf_acosf, ::acos, 20},
};

TEST(MfMath, UnaryWithinOneUlpOnSampledFloats) {
  const float specials[] = {0.0f, -0.0f, 1.0f, -1.0f, kInf, -kInf, kNaN, 1e-45f, -1e-45f,
                            1.17549435e-38f, 3.40282347e38f, -3.40282347e38f, 88.72283f,
                            88.72284f, -103.97208f, -87.33654f, 0.5f, 1.5707964f, 3.1415927f,
                            524288.0f, 524287.97f, -524288.0f, 1e10f, 9.0f, 0.99999994f};
  for (const Unary& f : kUnary) {
    uint64_t worst = 0, wrong = 0;
    float at = 0;
    auto check = [&](float x) {
      const uint64_t e = ulps(f.mine(x), static_cast<float>(f.ref(x)));
      if (e) ++wrong;
      if (e > worst) { worst = e; at = x; }
    };
    for (float x : specials) check(x);
    uint64_t z = 12345;
    for (int i = 0; i < 1000000; ++i) {
      const uint64_t b = next(z);
      check(ffrom(static_cast<uint32_t>(b)));                          // any encoding
      check(ffrom(0x3c000000u + static_cast<uint32_t>(b >> 32) % 0x7000000u) *  // |x| in [2^-7, 2^7)
            ((b & 1) ? -1.0f : 1.0f));
    }
    EXPECT_LE(worst, 1u) << f.name << " at x = " << at << " (" << std::hexfloat << at << ")";
    EXPECT_LE(wrong, f.max_wrong) << f.name;
  }
}

struct Binary { const char* name; float (*mine)(float, float); double (*ref)(double, double); };

TEST(MfMath, BinaryWithinOneUlpOnSampledPairsAndSpecials) {
  const Binary fs[] = {{"pow", mf_powf, ::pow}, {"atan2", mf_atan2f, ::atan2},
                       {"hypot", mf_hypotf, ::hypot}};
  const float sp[] = {0.0f, -0.0f, 1.0f, -1.0f, 0.5f, -0.5f, 2.0f, -2.0f, 3.0f, -3.0f, 1.5f,
                      -1.5f, kInf, -kInf, kNaN, 1e-45f, -1e-45f, 3.4e38f, -3.4e38f, 16777216.0f,
                      -16777215.0f, 0.99999994f, 1.0000001f, 127.0f, -149.0f, -0.75f};
  for (const Binary& f : fs) {
    uint64_t worst = 0;
    float wx = 0, wy = 0;
    auto check = [&](float x, float y) {
      const uint64_t e = ulps(f.mine(x, y), static_cast<float>(f.ref(x, y)));
      if (e > worst) { worst = e; wx = x; wy = y; }
    };
    for (float x : sp)
      for (float y : sp) check(x, y);
    uint64_t z = 777;
    for (int i = 0; i < 1000000; ++i) {
      const uint64_t b = next(z);
      check(ffrom(static_cast<uint32_t>(b)), ffrom(static_cast<uint32_t>(b >> 32)));
      const float base = ffrom(0x3f800000u + static_cast<uint32_t>(b % 0x1000000u) - 0x800000u);
      check(base, static_cast<float>(static_cast<int64_t>(b >> 40) % 4000) * 0.0625f);
      check(ffrom(static_cast<uint32_t>(b)) , static_cast<float>(static_cast<int64_t>(b >> 40) % 300) - 150.0f);
    }
    EXPECT_LE(worst, 1u) << f.name << " at (" << std::hexfloat << wx << ", " << wy << ")";
  }
}

TEST(MfMath, IeeeSpecialCases) {
  EXPECT_EQ(fbits(mf_sinf(-0.0f)), fbits(-0.0f));
  EXPECT_EQ(fbits(mf_expm1f(-0.0f)), fbits(-0.0f));
  EXPECT_EQ(fbits(mf_tanhf(-0.0f)), fbits(-0.0f));
  EXPECT_TRUE(std::isnan(mf_sinf(kInf)));
  EXPECT_TRUE(std::isnan(mf_logf(-1.0f)));
  EXPECT_EQ(mf_logf(0.0f), -kInf);
  EXPECT_EQ(mf_log1pf(-1.0f), -kInf);
  EXPECT_EQ(mf_expf(89.0f), kInf);
  EXPECT_EQ(mf_expf(-104.0f), 0.0f);
  EXPECT_EQ(mf_expf(-100.0f), static_cast<float>(std::exp(-100.0)));  // subnormal result
  EXPECT_EQ(mf_log2f(8.0f), 3.0f);
  EXPECT_EQ(mf_powf(kNaN, 0.0f), 1.0f);
  EXPECT_EQ(mf_powf(1.0f, kNaN), 1.0f);
  EXPECT_EQ(mf_powf(-1.0f, kInf), 1.0f);
  EXPECT_EQ(mf_powf(-2.0f, 3.0f), -8.0f);
  EXPECT_EQ(mf_powf(-8.0f, -1.0f), -0.125f);
  EXPECT_TRUE(std::isnan(mf_powf(-8.0f, 1.0f / 3.0f)));
  EXPECT_EQ(fbits(mf_powf(-0.0f, 3.0f)), fbits(-0.0f));
  EXPECT_EQ(mf_powf(-0.0f, -3.0f), -kInf);
  EXPECT_EQ(mf_powf(-0.0f, -2.0f), kInf);
  EXPECT_EQ(mf_powf(-kInf, 3.0f), -kInf);
  EXPECT_EQ(fbits(mf_powf(-kInf, -3.0f)), fbits(-0.0f));
  EXPECT_EQ(mf_powf(0.5f, -kInf), kInf);
  EXPECT_EQ(mf_powf(2.0f, 128.0f), kInf);
  EXPECT_EQ(mf_atan2f(-0.0f, -0.0f), -static_cast<float>(M_PI));
  EXPECT_EQ(mf_atan2f(kInf, -kInf), static_cast<float>(3 * M_PI / 4));
  EXPECT_EQ(mf_hypotf(kNaN, -kInf), kInf);
  EXPECT_EQ(mf_hypotf(3e38f, 3e38f), kInf);
  EXPECT_EQ(mf_hypotf(3.0f, 4.0f), 5.0f);
  // NaN inputs come back unchanged (same bits on host and GPU).
  const float payload = ffrom(0x7fc01234u);
  EXPECT_EQ(fbits(mf_cosf(payload)), 0x7fc01234u);
  EXPECT_EQ(fbits(mf_logf(payload)), 0x7fc01234u);
}

TEST(MfMath, TanhFloatOnlySpecialsBranchPointAndSaturation) {
  EXPECT_EQ(fbits(mf_tanhf(0.0f)), fbits(0.0f));
  EXPECT_EQ(mf_tanhf(kInf), 1.0f);
  EXPECT_EQ(mf_tanhf(-kInf), -1.0f);
  EXPECT_EQ(mf_tanhf(3.4e38f), 1.0f);
  EXPECT_EQ(mf_tanhf(-9.5f), -1.0f);
  EXPECT_EQ(fbits(mf_tanhf(ffrom(0x7fc01234u))), 0x7fc01234u);
  // Tiny and subnormal x: tanh(x) = x exactly (no underflow to 0).
  for (float x : {1e-45f, -1e-45f, 1e-40f, 1.17549435e-38f, -3e-20f, 0x1p-13f})
    EXPECT_EQ(fbits(mf_tanhf(x)), fbits(x)) << std::hexfloat << x;
  // Every float around the switch from the odd polynomial to 1 - 2/(e^2|x| + 1) (0.55, the
  // largest error of the upper branch) and around the saturation to 1 (9.011).
  float at = 0;
  EXPECT_LE(worst_ulps(mf_tanhf, ::tanh, 0.53f, 0.58f, &at), 1u) << std::hexfloat << at;
  EXPECT_LE(worst_ulps(mf_tanhf, ::tanh, 8.99f, 9.2f, &at), 1u) << std::hexfloat << at;
}

TEST(MfMath, SinhCoshFloatOnlySpecialsAndBranchPoints) {
  EXPECT_EQ(fbits(mf_sinhf(-0.0f)), fbits(-0.0f));
  EXPECT_EQ(mf_coshf(-0.0f), 1.0f);
  EXPECT_EQ(mf_sinhf(-kInf), -kInf);
  EXPECT_EQ(mf_coshf(-kInf), kInf);
  EXPECT_EQ(mf_sinhf(89.5f), kInf);  // overflow (e^89.5/2 > FLT_MAX)
  EXPECT_EQ(mf_coshf(-89.5f), kInf);
  EXPECT_EQ(fbits(mf_sinhf(ffrom(0x7fc01234u))), 0x7fc01234u);
  EXPECT_EQ(fbits(mf_coshf(ffrom(0x7fc01234u))), 0x7fc01234u);
  for (float x : {1e-45f, -1e-45f, 1e-40f, 1.17549435e-38f, -3e-20f})
    EXPECT_EQ(fbits(mf_sinhf(x)), fbits(x)) << std::hexfloat << x;
  // Every float around sinh's switch to the reduced argument (0.55), the first k with the
  // 2^-k term folded into the FMA (k = 12, |x| ~ 8.3), and the overflow threshold (89.416,
  // where 2^(k-1) itself would overflow without the halving).
  float at = 0;
  for (auto [lo, hi] : {std::pair{0.54f, 0.56f}, {7.9f, 8.4f}, {88.5f, 89.5f}}) {
    EXPECT_LE(worst_ulps(mf_sinhf, ::sinh, lo, hi, &at), 1u) << "sinh " << std::hexfloat << at;
    EXPECT_LE(worst_ulps(mf_coshf, ::cosh, lo, hi, &at), 1u) << "cosh " << std::hexfloat << at;
  }
}

TEST(MfMath, PowIsCorrectlyRoundedAlmostEverywhere) {
  // Positive bases, exponents chosen so that x^y spreads over the whole float range (subnormal
  // to near overflow): the error before the final rounding is below 2^-11 ulp, so results
  // differ from the correctly rounded float only within 2^-11 ulp of a midpoint (expected
  // fraction about 1e-3 for uniformly placed values, far fewer in practice: 96 of 2e8 sampled
  // pairs, tests/tools/mf_math_exhaustive.cc).
  std::mt19937_64 g(7);
  int wrong = 0;
  for (int i = 0; i < 1000000; ++i) {
    const uint64_t b = g();
    const float x = ffrom((uint32_t)b & 0x7f7fffffu);
    const double t = (double)(b >> 43) * 0x1p-21 * 280.0 - 151.0;
    const float y = (float)(t / std::log2((double)x));
    const float ref = static_cast<float>(std::pow(double(x), double(y)));
    const float mine = mf_powf(x, y);
    ASSERT_LE(ulps(mine, ref), 1u) << std::hexfloat << x << " ^ " << y;
    wrong += mine != ref;
  }
  EXPECT_LE(wrong, 20);
}

TEST(MfMath, PowHardCasesWithinOneUlp) {
  // (2^24 - 1)^1.5 lies 2^-25 ulp above a rounding midpoint and 0x1.6a2724p+0^247.75 needs
  // y*log2|x| (~124) to ~2^-30 absolute: the double-precision path keeps such cases within
  // 1 ulp (it does not promise correct rounding within 2^-11 ulp of a midpoint).
  const float hard[][2] = {{0x1.fffffep+23f, 1.5f},       {0x1.6a2724p+0f, 0x1.f0cp+7f},
                           {0x1.fffffep-1f, 0x1.8p+30f},  {0x1.000002p+0f, -0x1.4p+28f},
                           {0x1.4f985p-114f, -0x1.0d6caap+0f}, {3.0f, 1.5f},
                           {0x1.1p+0f, 0x1.2a0f26p+10f},  {0x1.1p+0f, -0x1.2bp+10f}};
  for (const auto& p : hard)
    EXPECT_LE(ulps(mf_powf(p[0], p[1]), static_cast<float>(std::pow(double(p[0]), double(p[1])))), 1u)
        << std::hexfloat << p[0] << " ^ " << p[1];
  // Exact results stay exact (the error before the final rounding is far below half an ulp).
  EXPECT_EQ(mf_powf(2.0f, 127.0f), 0x1p127f);
  EXPECT_EQ(mf_powf(2.0f, -149.0f), 0x1p-149f);
  EXPECT_EQ(mf_powf(0.5f, 3.4e38f), 0.0f);
  EXPECT_EQ(mf_powf(10.0f, 10.0f), 1e10f);
  EXPECT_EQ(mf_powf(3.0f, 15.0f), 14348907.0f);
  EXPECT_EQ(mf_powf(-5.0f, 3.0f), -125.0f);
  EXPECT_EQ(mf_powf(16.0f, 0.25f), 2.0f);
  EXPECT_EQ(mf_powf(0x1p-100f, 1.49f), static_cast<float>(std::pow(0x1p-100, 1.49)));
  // Results near overflow and underflow (subnormal results rounded once).
  for (int i = 0; i < 20000; ++i) {
    const float y = 126.0f + i * 0.0001f, yl = -149.0f - i * 0.0001f;
    ASSERT_LE(ulps(mf_powf(2.0f, y), static_cast<float>(std::exp2(double(y)))), 1u) << y;
    ASSERT_LE(ulps(mf_powf(2.0f, yl), static_cast<float>(std::exp2(double(yl)))), 1u) << yl;
    ASSERT_LE(ulps(mf_powf(-3.0f, -94.0f + i * 0.00001f),
                   static_cast<float>(std::pow(-3.0, double(-94.0f + i * 0.00001f)))), 1u);
  }
}

// The randn transform keeps its bits (golden values of the float-only MF_FMAF version of
// mf_log_f / mf_sincos2pi_f; the same on the host with and without FMA instructions).
TEST(MfMath, RandnSingleKeepsItsBits) {
  const uint64_t key = mf_rng_key_from_seed(0);
  uint64_t h = 1469598103934665603ull;  // FNV-1a over the bit patterns
  for (uint64_t c = 0; c < (1u << 20); ++c) h = (h ^ fbits(mf_randn_f(key, c))) * 1099511628211ull;
  EXPECT_EQ(h, 0x3e221825ea4b0c2aull);
  EXPECT_EQ(mf_randn_f(key, 0), 0x1.1f145ap-1f);
  EXPECT_EQ(mf_randn_f(key, 1), 0x1.6c1698p-1f);
  EXPECT_EQ(mf_randn_f(key, 12345), 0x1.1ca712p+1f);
}

TEST(MfMath, LogFKeepsItsBitsOverTheWholeRange) {
  uint64_t h = 1469598103934665603ull;
  for (uint32_t u = 1; u < 0x7f800000u; u += 97) h = (h ^ fbits(mf_log_f(ffrom(u)))) * 1099511628211ull;
  EXPECT_EQ(h, 0x8e8ffa4ae49c58edull);  // every 97th positive finite float, subnormals included
  EXPECT_EQ(mf_log_f(1.0f), 0.0f);
  EXPECT_NEAR(mf_log_f(0x1p-149f), -149.0 * std::log(2.0), 1e-4);  // smallest subnormal
}

// philox.inc's mf_log_f repeats mf_math.inc's float-only logarithm: the same bits.
TEST(MfMath, LogFIsMfLogf) {
  for (uint32_t u = 1; u < 0x7f800000u; u += 4099)
    ASSERT_EQ(fbits(mf_log_f(ffrom(u))), fbits(mf_logf(ffrom(u)))) << std::hexfloat << ffrom(u);
}

// The device's MF_BRANCHES form of the functions with two paths gives the host's bits: every
// 1021st float, and densely where exp's special range (subnormal and overflowing results) and
// tanh's branch point lie.
TEST(MfMath, BranchesFormGivesTheSameBits) {
  auto same = [](uint32_t u) {
    const float x = ffrom(u);
    ASSERT_EQ(fbits(branches::mf_sinf(x)), fbits(mf_sinf(x))) << std::hexfloat << x;
    ASSERT_EQ(fbits(branches::mf_cosf(x)), fbits(mf_cosf(x))) << std::hexfloat << x;
    ASSERT_EQ(fbits(branches::mf_expf(x)), fbits(mf_expf(x))) << std::hexfloat << x;
    ASSERT_EQ(fbits(branches::mf_tanhf(x)), fbits(mf_tanhf(x))) << std::hexfloat << x;
  };
  for (uint64_t u = 0; u < (1ull << 32); u += 1021) same(static_cast<uint32_t>(u));
  for (float lo : {-104.5f, 86.5f, 0.54f, -0.56f})
    for (uint32_t k = 0, u = fbits(lo); k < 200000; ++k) same(lo < 0 ? u - k * 40 : u + k * 40);
}

// The float-only exp keeps subnormal and overflow boundaries exact.
TEST(MfMath, ExpBoundaries) {
  for (float x : {-87.33654f, -87.3366f, -100.0f, -103.2789f, -103.9720f, -103.97208f, -104.0f,
                  88.72283f, 88.72284f, 88.0f, 0x1p-24f, -0x1p-25f, 1e-30f})
    EXPECT_LE(ulps(mf_expf(x), static_cast<float>(std::exp(static_cast<double>(x)))), 1u) << x;
}

// The stream model of philox.inc: the value at a position is the lane of its Philox block, so
// the per-position and per-block forms agree bit for bit, at every lane.
TEST(MfMath, RngPerPositionFormsAreTheBlockLanes) {
  const uint64_t key = mf_rng_key_from_seed(7);
  for (uint64_t b = 0; b < (1u << 18); b += (b < 64 ? 1 : 997)) {
    const uint64_t blk = b + (b & 1 ? (1ull << 40) : 0);  // high counter words too
    float rf[4], nf[4];
    double rd[2], nd[2];
    mf_rand4_f(key, blk, rf);
    mf_randn4_f(key, blk, nf);
    mf_rand2_d(key, blk, rd);
    mf_randn2_d(key, blk, nd);
    for (uint64_t l = 0; l < 4; ++l) {
      ASSERT_EQ(fbits(mf_rand_f(key, 4 * blk + l)), fbits(rf[l])) << blk << ' ' << l;
      ASSERT_EQ(fbits(mf_randn_f(key, 4 * blk + l)), fbits(nf[l])) << blk << ' ' << l;
    }
    for (uint64_t l = 0; l < 2; ++l) {
      ASSERT_EQ(mf_rand_d(key, 2 * blk + l), rd[l]) << blk << ' ' << l;
      ASSERT_EQ(mf_randn_d(key, 2 * blk + l), nd[l]) << blk << ' ' << l;
    }
    // The lanes are the Box-Muller pairs of the block's words.
    uint32_t w[4];
    mf_philox4x32_10(blk, key, w);
    for (int l = 0; l < 4; ++l) ASSERT_EQ(fbits(rf[l]), fbits(mf_u01_float(w[l])));
    float s, c;
    mf_sincos2pi_f(mf_u01_float(w[3]), &s, &c);
    const float r = std::sqrt(-2.0f * mf_log_f(mf_u01_float(w[2])));
    ASSERT_EQ(fbits(nf[2]), fbits(r * c));
    ASSERT_EQ(fbits(nf[3]), fbits(r * s));
  }
}

// Both Box-Muller branches are standard normals and uncorrelated (2^20 pairs of each precision):
// mean, variance, the correlation of the two lanes of a pair, and the tail mass beyond 3.
TEST(MfMath, RandnLanesAreIndependentStandardNormals) {
  const uint64_t key = mf_rng_key_from_seed(0);
  const int n = 1 << 20;
  for (int prec = 0; prec < 2; ++prec) {
    double s[2] = {0, 0}, ss[2] = {0, 0}, cross = 0;
    int tail = 0;
    for (uint64_t p = 0; p < static_cast<uint64_t>(n); ++p) {
      double z[2];
      if (prec == 0) {
        float f[4];
        mf_randn4_f(key, p / 2, f);
        z[0] = f[2 * (p & 1)];
        z[1] = f[2 * (p & 1) + 1];
      } else {
        mf_randn2_d(key, p, z);
      }
      for (int l = 0; l < 2; ++l) {
        s[l] += z[l];
        ss[l] += z[l] * z[l];
        tail += std::fabs(z[l]) > 3.0;
      }
      cross += z[0] * z[1];
    }
    for (int l = 0; l < 2; ++l) {
      EXPECT_NEAR(s[l] / n, 0.0, 5.0 / std::sqrt(double(n))) << prec << ' ' << l;
      EXPECT_NEAR(ss[l] / n, 1.0, 5.0 * std::sqrt(2.0 / n)) << prec << ' ' << l;
    }
    EXPECT_NEAR(cross / n, 0.0, 5.0 / std::sqrt(double(n))) << prec;
    // P(|z| > 3) = 0.0026998; 2n draws, binomial sd ~ sqrt(2n p).
    EXPECT_NEAR(tail, 2.0 * n * 0.0026998, 5.0 * std::sqrt(2.0 * n * 0.0026998)) << prec;
  }
}

TEST(MfMath, HugeTrigArgumentsAreReducedExactly) {
  // sin(1e22) = -0.8522008497671888 (1e22 is exactly representable as a double, not a float:
  // use the float 0x1.0f0cf0p+73 and glibc's correctly reduced double sin as the reference).
  for (float x : {ffrom(0x65a96816u), 3.40282347e38f, -1.5e30f, 8.0e6f, 6.0e5f, ffrom(0x7f7ffffeu)}) {
    EXPECT_LE(ulps(mf_sinf(x), static_cast<float>(std::sin(static_cast<double>(x)))), 1u) << x;
    EXPECT_LE(ulps(mf_cosf(x), static_cast<float>(std::cos(static_cast<double>(x)))), 1u) << x;
    EXPECT_LE(ulps(mf_tanf(x), static_cast<float>(std::tan(static_cast<double>(x)))), 1u) << x;
  }
}

TEST(MfMath, FloatFunctorsUseTheSharedText) {
  using namespace matfuse;
  uint64_t z = 99;
  for (int i = 0; i < 10000; ++i) {
    const float x = ffrom(static_cast<uint32_t>(next(z)));
    const float y = ffrom(static_cast<uint32_t>(next(z)));
    ASSERT_EQ(fbits(scalar::Sin::apply(x)), fbits(mf_sinf(x)));
    ASSERT_EQ(fbits(scalar::Exp::apply(x)), fbits(mf_expf(x)));
    ASSERT_EQ(fbits(scalar::Log1p::apply(x)), fbits(mf_log1pf(x)));
    ASSERT_EQ(fbits(scalar::Tanh::apply(x)), fbits(mf_tanhf(x)));
    ASSERT_EQ(fbits(scalar::Atan2::apply(x, y)), fbits(mf_atan2f(x, y)));
    ASSERT_EQ(fbits(scalar::Hypot::apply(x, y)), fbits(mf_hypotf(x, y)));
    if (y != 2.0f) {
      ASSERT_EQ(fbits(scalar::Pow::apply(x, y)), fbits(mf_powf(x, y)));
    }
  }
  EXPECT_EQ(scalar::Pow::apply(3.0f, 2.0f), 9.0f);
  // Double keeps the C library.
  EXPECT_EQ(scalar::Sin::apply(0.5), std::sin(0.5));
}

// The real op bodies of runtime/scalar_ops.inc (shared with the CUDA prelude): double and the
// non-mf_math float functions are the C library's bits, and the special cases are MATLAB's.
TEST(MfMath, SharedOpBodiesAreTheCLibraryAndMatlabsSpecialCases) {
  using namespace matfuse;
  auto dbits = [](double d) { uint64_t u; std::memcpy(&u, &d, 8); return u; };
  uint64_t z = 7;
  const double inf = std::numeric_limits<double>::infinity(), nan = std::nan("");
  for (int i = 0; i < 20000; ++i) {
    uint64_t u = next(z);
    double x;
    std::memcpy(&x, &u, 8);
    if (i % 2) x = std::ldexp(static_cast<double>(static_cast<int32_t>(u)), -28);  // |x| < 8
    const double y = std::ldexp(static_cast<double>(static_cast<int32_t>(next(z))), -26);
#define MF_SAME_D(Op, ref) ASSERT_EQ(dbits(scalar::Op::apply(x)), dbits(ref)) << #Op << " " << x
    MF_SAME_D(Sin, std::sin(x));
    MF_SAME_D(Acos, std::acos(x));
    MF_SAME_D(Tanh, std::tanh(x));
    MF_SAME_D(Asinh, std::asinh(x));
    MF_SAME_D(Log2, std::log2(x));
    MF_SAME_D(Expm1, std::expm1(x));
    MF_SAME_D(Sqrt, std::sqrt(x));
    MF_SAME_D(Abs, std::fabs(x));
    MF_SAME_D(Round, std::round(x));
    MF_SAME_D(Fix, std::trunc(x));
#undef MF_SAME_D
    ASSERT_EQ(dbits(scalar::Atan2::apply(x, y)), dbits(std::atan2(x, y)));
    ASSERT_EQ(dbits(scalar::Hypot::apply(x, y)), dbits(std::hypot(x, y)));
    ASSERT_EQ(dbits(scalar::Pow::apply(x, y)), dbits(y == 2 ? x * x : std::pow(x, y)));
    ASSERT_EQ(dbits(scalar::Rem::apply(x, y)), dbits(std::fmod(x, y)));
    ASSERT_EQ(scalar::IsInf::apply(x), std::isinf(x));
    ASSERT_EQ(scalar::IsFinite::apply(x), std::isfinite(x));
    ASSERT_EQ(scalar::Sqrt::real_ok(x), !(x < 0));
    const float f = static_cast<float>(y), g = static_cast<float>(x);
    ASSERT_EQ(fbits(scalar::Atanh::apply(f)), fbits(std::atanh(f)));
    ASSERT_EQ(fbits(scalar::Acosh::apply(g)), fbits(std::acosh(g)));
    ASSERT_EQ(fbits(scalar::Sqrt::apply(g)), fbits(std::sqrt(g)));
    ASSERT_EQ(fbits(scalar::Floor::apply(f)), fbits(std::floor(f)));
    ASSERT_EQ(fbits(scalar::Angle::apply(f)), fbits(std::atan2(0.0f, f)));
  }
  // mod and rem (MATLAB's documentation): mod takes the sign of the divisor, mod(x, 0) is x,
  // rem(x, 0) NaN, an infinite divisor NaN for both; a zero result of mod is +0.
  EXPECT_EQ(scalar::Mod::apply(-1.0, 3.0), 2.0);
  EXPECT_EQ(scalar::Mod::apply(1.0f, -3.0f), -2.0f);
  EXPECT_EQ(scalar::Mod::apply(5.0, 0.0), 5.0);
  EXPECT_EQ(dbits(scalar::Mod::apply(-6.0, 3.0)), dbits(0.0));
  EXPECT_TRUE(std::isnan(scalar::Mod::apply(5.0, inf)));
  EXPECT_TRUE(std::isnan(scalar::Mod::apply(inf, 5.0)));
  EXPECT_EQ(scalar::Rem::apply(-1.0, 3.0), -1.0);
  EXPECT_TRUE(std::isnan(scalar::Rem::apply(5.0, 0.0)));
  EXPECT_TRUE(std::isnan(scalar::Rem::apply(5.0f, -std::numeric_limits<float>::infinity())));
  // max and min ignore NaN; sign keeps NaN and signed zeros.
  EXPECT_EQ(scalar::Max::apply(nan, 1.0), 1.0);
  EXPECT_EQ(scalar::Min::apply(2.0f, std::nanf("")), 2.0f);
  EXPECT_TRUE(std::isnan(scalar::Max::apply(nan, nan)));
  EXPECT_EQ(dbits(scalar::Sign::apply(-0.0)), dbits(-0.0));
  EXPECT_EQ(scalar::Sign::apply(-3.0f), -1.0f);
  EXPECT_TRUE(std::isnan(scalar::Sign::apply(nan)));
  // The real domains of the kRealToComplex ops.
  EXPECT_FALSE(scalar::Pow::real_ok(-2.0, 0.5));
  EXPECT_TRUE(scalar::Pow::real_ok(-2.0, 3.0));
  EXPECT_TRUE(scalar::Pow::real_ok(-2.0f, std::numeric_limits<float>::infinity()));
  EXPECT_FALSE(scalar::Acosh::real_ok(0.5f));
  EXPECT_FALSE(scalar::Log1p::real_ok(-1.5));
  EXPECT_TRUE(scalar::Asin::real_ok(-1.0));
  // long double (the work type of 64-bit integers) keeps its own path.
  EXPECT_EQ(scalar::Mod::apply(-1.0L, 3.0L), 2.0L);
  EXPECT_EQ(scalar::Div::apply(7.0L, 2.0L), 3.5L);
}

TEST(ScalarOps, WholeNumberFmodIsFmod) {
  // mf_whole_fmod (the fast path of mod and rem for whole numbers below 2^52) gives fmod's bits,
  // -0 included, on random whole numbers of every magnitude and sign and at the quotient
  // boundaries; other operands are left to fmod.
  using namespace matfuse;
  auto dbits = [](double d) { uint64_t u; std::memcpy(&u, &d, 8); return u; };
  std::mt19937_64 g(21);
  const double two52 = 4503599627370496.0;
  std::vector<double> vals{0.0, -0.0, 1, -1, 2, -2, 3, 7, 4294967296.0, -4294967296.0,
                           two52 - 1, -(two52 - 1), two52 / 2, 1013904223.0, 1664525.0};
  for (int k = 0; k < 20000; ++k) {
    const int bits = static_cast<int>(g() % 53);
    const double mag = static_cast<double>(g() >> (64 - std::max(bits, 1)));
    vals.push_back((g() & 1) ? -mag : mag);
  }
  int64_t fast = 0;
  for (size_t i = 0; i < vals.size(); ++i) {
    const double a = vals[i];
    for (double m : {vals[(i * 7919 + 3) % vals.size()], vals[(i + 1) % vals.size()], 3.0, -5.0,
                     4294967296.0, a, a + 1, a - 1, 2 * a + 1}) {
      double r = 12345;
      if (!mf_whole_fmod(a, m, r)) {
        EXPECT_TRUE(m == 0 || std::fabs(a) >= two52 || std::fabs(m) >= two52) << a << " " << m;
        EXPECT_EQ(r, 12345);
        continue;
      }
      ++fast;
      ASSERT_EQ(dbits(r), dbits(std::fmod(a, m))) << a << " mod " << m;
    }
  }
  EXPECT_GT(fast, 100000);
  // Fractions and non-finite operands take fmod.
  double r = 0;
  EXPECT_FALSE(mf_whole_fmod(7.5, 2.0, r));
  EXPECT_FALSE(mf_whole_fmod(7.0, 0.5, r));
  EXPECT_FALSE(mf_whole_fmod(std::numeric_limits<double>::infinity(), 2.0, r));
  EXPECT_FALSE(mf_whole_fmod(std::nan(""), 2.0, r));
  EXPECT_FALSE(mf_whole_fmod(two52, 3.0, r));
  EXPECT_EQ(scalar::Mod::apply(-7.0, 3.0), 2.0);
  EXPECT_EQ(dbits(scalar::Rem::apply(-6.0, 3.0)), dbits(-0.0));
  EXPECT_EQ(scalar::Mod::apply(1664525.0 * 12345 + 1013904223, 4294967296.0),
            std::fmod(1664525.0 * 12345 + 1013904223, 4294967296.0));
}

}  // namespace
