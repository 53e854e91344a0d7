// Exhaustive accuracy check of runtime/mf_math.inc against glibc's double functions rounded to
// float (not part of the CI build: it evaluates every one of the 2^32 floats per function).
//   g++ -O2 -std=c++20 -ffp-contract=off -fopenmp -march=x86-64-v3 -I src tests/tools/mf_math_exhaustive.cc -lm
//   (-march with FMA: otherwise every MF_FMA is a libm call, same bits but several times slower)
//   ./a.out [function ...] [--pairs N] [--step S]   (--step S: every S-th float only)
// Prints per function the maximum error in ulps of the float result, the argument where it
// occurs, and the count of results that are not the correctly rounded one. Any special-value
// mismatch (NaN vs number, sign of zero, infinities) counts as an error of 2^31 ulps.
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "runtime/mf_math.inc"

static inline uint32_t fbits(float f) { uint32_t u; std::memcpy(&u, &f, 4); return u; }
static inline float ffrom(uint32_t u) { float f; std::memcpy(&f, &u, 4); return f; }
// ulp distance of two floats (monotone integer order); NaN only matches NaN.
static inline uint64_t ulps(float a, float b) {
  if (a != a || b != b) return (a != a && b != b) ? 0 : (1ull << 31);
  if (a == 0 && b == 0) return std::signbit(a) == std::signbit(b) ? 0 : (1ull << 31);
  if (std::isinf(a) || std::isinf(b)) return a == b ? 0 : (1ull << 31);
  auto ord = [](float f) { int64_t i = (int32_t)fbits(f); return i < 0 ? -(i & 0x7fffffff) : i; };
  int64_t d = ord(a) - ord(b);
  return d < 0 ? -d : d;
}

struct Un { const char* name; float (*mine)(float); double (*ref)(double); };
struct Bin { const char* name; float (*mine)(float, float); double (*ref)(double, double); };

int main(int argc, char** argv) {
  std::vector<Un> un = {
      {"exp", mf_expf, ::exp},       {"expm1", mf_expm1f, ::expm1}, {"log", mf_logf, ::log},
      {"log1p", mf_log1pf, ::log1p}, {"log2", mf_log2f, ::log2},    {"log10", mf_log10f, ::log10},
      {"sin", mf_sinf, ::sin},       {"cos", mf_cosf, ::cos},       {"tan", mf_tanf, ::tan},
      {"tanh", mf_tanhf, ::tanh},    {"sinh", mf_sinhf, ::sinh},    {"cosh", mf_coshf, ::cosh},
      {"atan", mf_atanf, ::atan},    {"asin", mf_asinf, ::asin},    {"acos", mf_acosf, ::acos},
  };
  std::vector<Bin> bin = {{"pow", mf_powf, ::pow}, {"atan2", mf_atan2f, ::atan2},
                          {"hypot", mf_hypotf, ::hypot}};
  std::vector<std::string> only;
  long long pairs = 100000000;
  uint64_t step = 1;
  for (int i = 1; i < argc; ++i) {
    if (!std::strcmp(argv[i], "--pairs")) pairs = std::atoll(argv[++i]);
    else if (!std::strcmp(argv[i], "--step")) step = std::atoll(argv[++i]);
    else only.push_back(argv[i]);
  }
  auto wanted = [&](const char* n) {
    if (only.empty()) return true;
    for (auto& o : only) if (o == n) return true;
    return false;
  };
  for (const Un& f : un) {
    if (!wanted(f.name)) continue;
    uint64_t worst = 0, worst_at = 0, wrong = 0;
#pragma omp parallel
    {
      uint64_t w = 0, wa = 0, wr = 0;
#pragma omp for schedule(static, 1 << 16)
      for (int64_t i = 0; i < (int64_t)(1ull << 32); i += (int64_t)step) {
        const float x = ffrom((uint32_t)i);
        const float r = (float)f.ref((double)x), m = f.mine(x);
        const uint64_t e = ulps(m, r);
        if (e) ++wr;
        if (e > w) { w = e; wa = (uint64_t)i; }
      }
#pragma omp critical
      {
        wrong += wr;
        if (w > worst) { worst = w; worst_at = wa; }
      }
    }
    const float x = ffrom((uint32_t)worst_at);
    std::printf("%-6s max %llu ulp (x=%a: mine %a ref %a), not correctly rounded: %llu\n", f.name,
                (unsigned long long)worst, x, f.mine(x), (float)f.ref(x), (unsigned long long)wrong);
    std::fflush(stdout);
  }
  // Binary functions: special values crossed with each other, then random pairs (random bit
  // patterns, and for pow bases near 1 / moderate exponents / results spread over the float range).
  const float sp[] = {0.0f, -0.0f, 1.0f, -1.0f, 0.5f, -0.5f, 2.0f, -2.0f, 3.0f, -3.0f, 1.5f, -1.5f,
                      INFINITY, -INFINITY, NAN, -NAN, 1e-45f, -1e-45f, 3.4028235e38f, -3.4028235e38f,
                      16777216.0f, -16777217.0f, 16777215.0f, 0.1f, 1.0000001f, 0.99999994f, 127.0f, -149.0f};
  for (const Bin& f : bin) {
    if (!wanted(f.name)) continue;
    uint64_t worst = 0; float wx = 0, wy = 0; uint64_t wrong = 0;
    auto check = [&](float x, float y, uint64_t& w, float& ax, float& ay, uint64_t& wr) {
      const float r = (float)f.ref(x, y), m = f.mine(x, y);
      const uint64_t e = ulps(m, r);
      if (e) ++wr;
      if (e > w) { w = e; ax = x; ay = y; }
    };
    for (float x : sp) for (float y : sp) check(x, y, worst, wx, wy, wrong);
#pragma omp parallel
    {
      uint64_t w = 0, wr = 0; float ax = 0, ay = 0;
#pragma omp for schedule(static, 1 << 16)
      for (long long i = 0; i < pairs; ++i) {
        uint64_t z = 0x9e3779b97f4a7c15ull * (uint64_t)(i + 1); z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull; z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
        const uint64_t b = z ^ (z >> 31);
        float x = ffrom((uint32_t)b), y = ffrom((uint32_t)(b >> 32));
        if ((i & 3) == 1) {  // base near 1 / moderate exponent
          x = ffrom(0x3f800000u + (uint32_t)(b % 0x1000000u) - 0x800000u);
          y = (float)((int64_t)(b >> 40) % 4000) * 0.0625f;
        } else if ((i & 3) == 2) {  // moderate exponents of any base, integer exponents
          y = (float)((int64_t)(b >> 40) % 300) - 150.0f;
          if (b & 1) y *= 0.37f;
        } else if ((i & 3) == 3) {  // positive base, result anywhere in the float range
          x = ffrom((uint32_t)b & 0x7f7fffffu);
          const double t = (double)(b >> 43) * 0x1p-21 * 280.0 - 151.0;
          y = (float)(t / std::log2((double)x));
        }
        check(x, y, w, ax, ay, wr);
      }
#pragma omp critical
      {
        wrong += wr;
        if (w > worst) { worst = w; wx = ax; wy = ay; }
      }
    }
    std::printf("%-6s max %llu ulp (x=%a y=%a: mine %a ref %a), not correctly rounded: %llu\n",
                f.name, (unsigned long long)worst, wx, wy, f.mine(wx, wy), (float)f.ref(wx, wy),
                (unsigned long long)wrong);
    std::fflush(stdout);
  }
  return 0;
}
