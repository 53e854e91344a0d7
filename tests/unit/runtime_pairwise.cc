// runtime/pairwise.h: the interleaved pairwise sum gives the bits of the plain recursion that
// runtime/reduce.h documents (and the device provider reproduces) for every length, with and
// without NaNs skipped, in float, double and complex, signed zeros and infinities included.
#include <gtest/gtest.h>

#include <complex>
#include <cstring>
#include <limits>
#include <random>
#include <vector>

#include "runtime/pairwise.h"

namespace matfuse {
namespace {

/// The documented order, written as plainly as possible.
template <class A>
A reference(const A* x, int64_t n, bool omit) {
  if (n <= 128) {
    A s{};
    for (int64_t i = 0; i < n; ++i)
      if (!(omit && x[i] != x[i])) s += x[i];
    return s;
  }
  const int64_t h = n / 2;
  return reference(x, h, omit) + reference(x + h, n - h, omit);
}

template <class A>
bool same_bits(const A& a, const A& b) {
  return std::memcmp(&a, &b, sizeof(A)) == 0;
}

template <class R>
R draw(std::mt19937& g, bool specials) {
  const int k = static_cast<int>(g() % 100);
  if (specials) {
    if (k == 0) return std::numeric_limits<R>::quiet_NaN();
    if (k == 1) return -R(0);
    if (k == 2) return std::numeric_limits<R>::infinity();
  }
  // Mixed magnitudes and signs, so that the order of the additions shows in the low bits.
  std::uniform_real_distribution<R> u(-1, 1);
  return u(g) * (k < 50 ? R(1) : R(1e6));
}

template <class A, class R>
void check_lengths(bool complex) {
  std::mt19937 g(7);
  for (int64_t n : {0, 1, 7, 8, 127, 128, 129, 255, 256, 257, 300, 1000, 1025, 2047, 2048, 2049,
                    3000, 4096, 5001, 100003}) {
    for (bool specials : {false, true}) {
      std::vector<A> x(static_cast<size_t>(n));
      for (A& v : x) {
        if constexpr (std::is_same_v<A, R>) {
          v = draw<R>(g, specials);
        } else {
          v = A(draw<R>(g, specials), draw<R>(g, specials));
        }
      }
      for (bool omit : {false, true}) {
        const A want = reference(x.data(), n, omit);
        const A got = pairwise_sum(x.data(), n, omit);
        EXPECT_TRUE(same_bits(want, got) || (want != want && got != got))
            << "n=" << n << " omit=" << omit << " specials=" << specials
            << " complex=" << complex;
      }
    }
  }
}

TEST(Pairwise, DoubleMatchesTheDocumentedOrder) { check_lengths<double, double>(false); }
TEST(Pairwise, FloatMatchesTheDocumentedOrder) { check_lengths<float, float>(false); }
TEST(Pairwise, ComplexMatchesTheDocumentedOrder) {
  check_lengths<std::complex<double>, double>(true);
}

TEST(Pairwise, AllNegativeZerosSumToPositiveZero) {
  // The recursion starts every leaf at +0.0, so -0.0 terms give +0.0 (as the device does).
  std::vector<double> x(1000, -0.0);
  const double s = pairwise_sum(x.data(), 1000, false);
  EXPECT_FALSE(std::signbit(s));
  std::vector<double> y(1000, std::numeric_limits<double>::quiet_NaN());
  y[3] = -0.0;
  EXPECT_FALSE(std::signbit(pairwise_sum(y.data(), 1000, true)));
}

}  // namespace
}  // namespace matfuse
