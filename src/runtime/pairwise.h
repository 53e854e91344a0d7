// The pairwise summation of every host reduction (the order runtime/reduce.h documents and the
// device provider reproduces): a range of at most kPairwiseBlock elements is summed left to
// right from zero; a longer range [0, n) is split at n/2 and its halves' sums are added.
//
// pairwise_sum computes exactly that (the same leaves, each summed in its own order, and the
// same additions of partial sums), but sums the leaves of a subtree of at most 16 leaves
// together, four at a time: each leaf is one chain of dependent additions, and interleaving
// four independent chains keeps the adder busy where one chain waits for the previous result
// (about 4 cycles per element). The four chains run over four quarters of the subtree, each
// reading on through its quarter, so that the hardware prefetcher follows them (eight chains
// over neighbouring leaves of 1 KB each were slower than one on data streamed from memory).
// The result has the bits of the plain recursion.
#pragma once

#include <algorithm>
#include <cstdint>
#include <type_traits>

namespace matfuse {

constexpr int64_t kPairwiseBlock = 128;

namespace pairwise_detail {

/// One leaf: x[0..n) left to right from zero, NaNs skipped when omit.
template <class A>
A leaf(const A* x, int64_t n, bool omit) {
  A s{};
  if (omit) {
    for (int64_t i = 0; i < n; ++i)
      if (!(x[i] != x[i])) s += x[i];
  } else {
    for (int64_t i = 0; i < n; ++i) s += x[i];
  }
  return s;
}

/// The leaves of the tree of [lo, lo+n), in order (at most 16 for n <= 16 * kPairwiseBlock:
/// each split leaves at most ceil(n/2), so four splits reach kPairwiseBlock).
inline void leaves(int64_t lo, int64_t n, int64_t* off, int64_t* len, int& k) {
  if (n <= kPairwiseBlock) {
    off[k] = lo;
    len[k] = n;
    ++k;
    return;
  }
  const int64_t h = n / 2;
  leaves(lo, h, off, len, k);
  leaves(lo + h, n - h, off, len, k);
}

/// The sums of the leaves combined as the recursion adds them.
template <class A>
A combine(const A* s, int& i, int64_t n) {
  if (n <= kPairwiseBlock) return s[i++];
  const int64_t h = n / 2;
  const A a = combine(s, i, h);
  const A b = combine(s, i, n - h);
  return a + b;
}

/// Sums of c <= 8 leaves p[b][0..len[b]) into *out[b], each in its own left-to-right order,
/// the chains interleaved over their common length. Omitted NaNs add +0.0, which leaves a sum
/// unchanged: it starts at +0.0 and so is never -0.0.
template <class A>
void leaves_interleaved(const A* const* p, const int64_t* len, int c, bool omit, A* const* out) {
  A acc[8] = {};
  int64_t m = len[0];
  for (int b = 1; b < c; ++b) m = std::min(m, len[b]);
  if (c == 4 && !omit) {
    for (int64_t i = 0; i < m; ++i) {
#pragma GCC unroll 4
      for (int b = 0; b < 4; ++b) acc[b] += p[b][i];
    }
  } else if (c == 4 && std::is_floating_point_v<A>) {
    for (int64_t i = 0; i < m; ++i) {
#pragma GCC unroll 4
      for (int b = 0; b < 4; ++b) {
        const A v = p[b][i];
        acc[b] += v == v ? v : A{};
      }
    }
  } else {
    m = 0;  // fewer leaves (or complex with omit): one after the other
  }
  for (int b = 0; b < c; ++b) {
    A s = acc[b];
    for (int64_t i = m; i < len[b]; ++i) {
      const A v = p[b][i];
      if (!(omit && v != v)) s += v;
    }
    *out[b] = s;
  }
}

}  // namespace pairwise_detail

/// Pairwise sum of x[0..n) (NaNs skipped when omit); A is float, double or std::complex.
template <class A>
A pairwise_sum(const A* x, int64_t n, bool omit) {
  using namespace pairwise_detail;
  if (n <= kPairwiseBlock) return leaf(x, n, omit);
  if (n > 16 * kPairwiseBlock) {
    const int64_t h = n / 2;
    return pairwise_sum(x, h, omit) + pairwise_sum(x + h, n - h, omit);
  }
  int64_t off[16], len[16];
  int k = 0;
  leaves(0, n, off, len, k);
  // Four streams, each over a quarter of the leaves, which lie next to each other: every
  // stream reads on through memory (as the hardware prefetcher expects), and each round sums
  // one leaf of every stream, interleaved.
  A s[16];
  const int q = (k + 3) / 4;
  for (int r = 0; r < q; ++r) {
    const A* p[4];
    int64_t l[4];
    A* o[4];
    int c = 0;
    for (int st = 0; st < 4; ++st) {
      const int j = st * q + r;
      if (j >= std::min(k, (st + 1) * q)) continue;
      p[c] = x + off[j];
      l[c] = len[j];
      o[c] = s + j;
      ++c;
    }
    if (c) leaves_interleaved(p, l, c, omit, o);
  }
  int i = 0;
  return combine(s, i, n);
}

}  // namespace matfuse
