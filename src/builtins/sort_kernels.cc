// LSD radix sort of one lane with MATLAB's order (see sort_kernels.h for the contract and
// references).
#include "builtins/sort_kernels.h"

#include <sys/mman.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <memory>
#include <new>
#include <numeric>
#include <type_traits>
#include <vector>

namespace matfuse::data::fast {
namespace {

/// Uninitialised scratch of n elements; large buffers are 2 MiB aligned and advised onto
/// transparent huge pages, so that the radix passes' 2048 write streams do not thrash the TLB
/// and first touch costs 1/512 of the page faults (1e7 singles: 288 -> 150 ms here).
template <class X>
class Scratch {
public:
  explicit Scratch(int64_t n) {
    size_t bytes = static_cast<size_t>(std::max<int64_t>(n, 1)) * sizeof(X);
    constexpr size_t kHuge = size_t{2} << 20;
    if (bytes >= 2 * kHuge) {
      bytes = (bytes + kHuge - 1) / kHuge * kHuge;
      p_ = static_cast<X*>(std::aligned_alloc(kHuge, bytes));
#ifdef MADV_HUGEPAGE
      if (p_) madvise(p_, bytes, MADV_HUGEPAGE);
#endif
    } else {
      p_ = static_cast<X*>(std::malloc(bytes));
    }
    if (!p_) throw std::bad_alloc();
  }
  ~Scratch() { std::free(p_); }
  Scratch(const Scratch&) = delete;
  Scratch& operator=(const Scratch&) = delete;
  X* get() const { return p_; }
  X& operator[](int64_t i) const { return p_[i]; }

private:
  X* p_ = nullptr;
};

template <class T>
struct KeyOf {
  using U =
      std::conditional_t<sizeof(T) == 8, uint64_t,
                         std::conditional_t<sizeof(T) == 4, uint32_t,
                                            std::conditional_t<sizeof(T) == 2, uint16_t, uint8_t>>>;
  static constexpr int bits = 8 * static_cast<int>(sizeof(T));
  static constexpr U sign = static_cast<U>(U{1} << (bits - 1));
  /// Order-preserving unsigned key of a non-NaN value (-0 maps to 0's key).
  static U key(T v) {
    if constexpr (std::is_same_v<T, bool>) {
      return v ? 1 : 0;
    } else if constexpr (std::is_floating_point_v<T>) {
      if (v == 0) v = 0;  // -0 -> +0
      U u;
      std::memcpy(&u, &v, sizeof u);
      return (u & sign) ? static_cast<U>(~u) : static_cast<U>(u | sign);
    } else if constexpr (std::is_signed_v<T>) {
      return static_cast<U>(static_cast<U>(v) ^ sign);
    } else {
      return static_cast<U>(v);
    }
  }
};

constexpr int kDigit = 11;
constexpr int kBuckets = 1 << kDigit;

/// Digit histograms of keys k[0..n), all passes at once (hist: passes x kBuckets).
template <class U>
void histograms(const U* k, int64_t n, int64_t* hist) {
  constexpr int bits = 8 * static_cast<int>(sizeof(U));
  constexpr int passes = (bits + kDigit - 1) / kDigit;
  for (int64_t i = 0; i < n; ++i) {
    U v = k[i];
    for (int d = 0; d < passes; ++d) ++hist[d * kBuckets + ((v >> (d * kDigit)) & (kBuckets - 1))];
  }
}

/// Stable LSD radix sort of keys k (with payload p when non-null), scratch k2/p2 of equal size.
/// Returns true when the result ended in k2/p2 (odd number of performed passes).
template <class U, class P>
bool radix(U* k, U* k2, P* p, P* p2, int64_t n) {
  constexpr int bits = 8 * static_cast<int>(sizeof(U));
  constexpr int passes = (bits + kDigit - 1) / kDigit;
  std::vector<int64_t> hist(static_cast<size_t>(passes) * kBuckets, 0);
  histograms(k, n, hist.data());
  bool swapped = false;
  for (int d = 0; d < passes; ++d) {
    int64_t* h = hist.data() + d * kBuckets;
    U first = (k[0] >> (d * kDigit)) & (kBuckets - 1);
    if (h[first] == n) continue;  // every key has this digit
    int64_t sum = 0;
    for (int b = 0; b < kBuckets; ++b) {
      int64_t c = h[b];
      h[b] = sum;
      sum += c;
    }
    const int shift = d * kDigit;
    if (p) {
      for (int64_t i = 0; i < n; ++i) {
        U v = k[i];
        int64_t o = h[(v >> shift) & (kBuckets - 1)]++;
        k2[o] = v;
        p2[o] = p[i];
      }
      std::swap(p, p2);
    } else {
      for (int64_t i = 0; i < n; ++i) {
        U v = k[i];
        k2[h[(v >> shift) & (kBuckets - 1)]++] = v;
      }
    }
    std::swap(k, k2);
    swapped = !swapped;
  }
  return swapped;
}

template <class T>
bool is_nan(T v) {
  if constexpr (std::is_floating_point_v<T>)
    return std::isnan(v);
  else
    return false;
}

}  // namespace

template <class T>
void sort_lane(const T* x, int64_t n, int64_t stride, bool descend, bool nan_first, T* out,
               int64_t* idx) {
  using K = KeyOf<T>;
  using U = typename K::U;
  if (n <= 0) return;
  // Keys of the numbers (NaNs set aside in order); -0 present forces the payload path so that
  // the original values come back.
  Scratch<U> keys(n);
  std::vector<int64_t> nans;
  bool negzero = false;
  int64_t m = 0;
  for (int64_t i = 0; i < n; ++i) {
    T v = x[i * stride];
    if (is_nan(v)) {
      nans.push_back(i);
      continue;
    }
    if constexpr (std::is_floating_point_v<T>) negzero |= v == 0 && std::signbit(v);
    U kk = K::key(v);
    keys[m++] = descend ? static_cast<U>(~kk) : kk;
  }
  bool payload = idx != nullptr || negzero || !nans.empty();
  int64_t off = nan_first ? static_cast<int64_t>(nans.size()) : 0;
  int64_t noff = nan_first ? 0 : m;
  if (!payload) {
    Scratch<U> k2(m);
    U* res = keys.get();
    if (m < 256) {
      std::sort(keys.get(), keys.get() + m);
    } else if (radix<U, uint32_t>(keys.get(), k2.get(), nullptr, nullptr, m)) {
      res = k2.get();
    }
    for (int64_t i = 0; i < m; ++i) {
      U kk = descend ? static_cast<U>(~res[i]) : res[i];
      T v;
      if constexpr (std::is_same_v<T, bool>) {
        v = kk != 0;
      } else if constexpr (std::is_floating_point_v<T>) {
        U u = (kk & K::sign) ? static_cast<U>(kk ^ K::sign) : static_cast<U>(~kk);
        std::memcpy(&v, &u, sizeof v);
      } else if constexpr (std::is_signed_v<T>) {
        v = static_cast<T>(static_cast<U>(kk ^ K::sign));
      } else {
        v = static_cast<T>(kk);
      }
      out[i] = v;
    }
    return;
  }
  // Payload: lane positions of the numbers, in original order.
  // (the identity when there is no NaN: not built then)
  std::vector<int64_t> pos;
  if (!nans.empty()) {
    pos.reserve(static_cast<size_t>(m));
    for (int64_t i = 0, j = 0; i < n; ++i) {
      if (j < static_cast<int64_t>(nans.size()) && nans[j] == i) {
        ++j;
        continue;
      }
      pos.push_back(i);
    }
  }
  const bool ident = nans.empty();
  if (m < 256 || n > static_cast<int64_t>(std::numeric_limits<uint32_t>::max())) {
    std::vector<int64_t> ord(static_cast<size_t>(m));
    std::iota(ord.begin(), ord.end(), 0);
    const U* kp = keys.get();
    std::stable_sort(ord.begin(), ord.end(), [&](int64_t a, int64_t b) { return kp[a] < kp[b]; });
    for (int64_t i = 0; i < m; ++i) {
      int64_t p = ident ? ord[i] : pos[ord[i]];
      if (out) out[off + i] = x[p * stride];
      if (idx) idx[off + i] = p;
    }
  } else {
    Scratch<uint32_t> p1(m), p2(m);
    std::iota(p1.get(), p1.get() + m, 0u);
    Scratch<U> k2(m);
    const uint32_t* pr =
        radix<U, uint32_t>(keys.get(), k2.get(), p1.get(), p2.get(), m) ? p2.get() : p1.get();
    for (int64_t i = 0; i < m; ++i) {
      int64_t p = ident ? static_cast<int64_t>(pr[i]) : pos[pr[i]];
      if (out) out[off + i] = x[p * stride];
      if (idx) idx[off + i] = p;
    }
  }
  for (size_t j = 0; j < nans.size(); ++j) {
    if (out) out[noff + static_cast<int64_t>(j)] = x[nans[j] * stride];
    if (idx) idx[noff + static_cast<int64_t>(j)] = nans[j];
  }
}

#define MF_SORT_LANE(T) \
  template void sort_lane<T>(const T*, int64_t, int64_t, bool, bool, T*, int64_t*);
MF_SORT_LANE(double)
MF_SORT_LANE(float)
MF_SORT_LANE(bool)
MF_SORT_LANE(char16_t)
MF_SORT_LANE(int8_t)
MF_SORT_LANE(uint8_t)
MF_SORT_LANE(int16_t)
MF_SORT_LANE(uint16_t)
MF_SORT_LANE(int32_t)
MF_SORT_LANE(uint32_t)
MF_SORT_LANE(int64_t)
MF_SORT_LANE(uint64_t)
#undef MF_SORT_LANE

}  // namespace matfuse::data::fast
