// The host provider's indexing library calls (provider.h IndexCall, MaskCall): sequential loops
// that define what the device's kernels compute.
#include <algorithm>
#include <cmath>
#include <cstring>
#include <vector>

#include "providers/host/host_provider.h"

namespace matfuse::host {
namespace {

/// Calls f(selection index j, base offset) for every element of the selection, in order.
template <class F>
void for_each_selected(const IndexCall& c, F&& f) {
  const int n = c.ndims;
  std::vector<int64_t> ctr(static_cast<size_t>(n), 0);
  auto pos = [&](int d) {
    const IndexDim& s = c.dims[d];
    return s.list ? s.list[ctr[d]] : s.start + ctr[d];
  };
  for (int64_t j = 0; j < c.count; ++j) {
    int64_t off = 0;
    for (int d = 0; d < n; ++d) off += pos(d) * c.dims[d].stride;
    f(j, off);
    for (int d = 0; d < n; ++d) {
      if (++ctr[d] < c.dims[d].count) break;
      ctr[d] = 0;
    }
  }
}

}  // namespace

void HostProvider::index_gather(const IndexCall& c) {
  const size_t b = static_cast<size_t>(c.elem_bytes);
  const char* src = static_cast<const char*>(c.base);
  char* dst = static_cast<char*>(c.values);
  for_each_selected(c, [&](int64_t j, int64_t off) { std::memcpy(dst + j * b, src + off * b, b); });
}

void HostProvider::index_scatter(const IndexCall& c) {
  const size_t b = static_cast<size_t>(c.elem_bytes);
  char* dst = static_cast<char*>(c.base);
  const char* src = static_cast<const char*>(c.values);
  for_each_selected(c, [&](int64_t j, int64_t off) {
    std::memcpy(dst + off * b, src + (c.scalar ? 0 : j * b), b);
  });
}

int64_t HostProvider::mask_count(const void* mask, int64_t n) {
  const auto* m = static_cast<const unsigned char*>(mask);
  int64_t k = 0;
  for (int64_t i = 0; i < n; ++i) k += m[i] != 0;
  return k;
}

void HostProvider::mask_compact(const MaskCall& c) {
  const auto* m = static_cast<const unsigned char*>(c.mask);
  const size_t b = static_cast<size_t>(c.elem_bytes);
  const char* src = static_cast<const char*>(c.base);
  char* dst = static_cast<char*>(c.values);
  int64_t k = 0;
  for (int64_t i = 0; i < c.n; ++i)
    if (m[i]) std::memcpy(dst + (k++) * b, src + i * b, b);
}

void HostProvider::mask_scatter(const MaskCall& c) {
  const auto* m = static_cast<const unsigned char*>(c.mask);
  const size_t b = static_cast<size_t>(c.elem_bytes);
  char* dst = static_cast<char*>(c.base);
  const char* src = static_cast<const char*>(c.values);
  int64_t k = 0;
  for (int64_t i = 0; i < c.n; ++i)
    if (m[i]) std::memcpy(dst + i * b, src + (c.scalar ? 0 : (k++) * b), b);
}

void HostProvider::mask_find(const MaskCall& c) {
  const auto* m = static_cast<const unsigned char*>(c.mask);
  auto* out = static_cast<double*>(c.values);
  int64_t k = 0;
  for (int64_t i = 0; i < c.n; ++i)
    if (m[i]) out[k++] = static_cast<double>(i + 1);
}

void HostProvider::copy(void* dst, const void* src, size_t bytes) {
  if (bytes) std::memmove(dst, src, bytes);
}

namespace {
template <class T>
int64_t nan_count(const T* x, int64_t n) {
  int64_t c = 0;
  for (int64_t i = 0; i < n; ++i) c += x[i] != x[i];
  return c;
}

/// The k-th smallest non-NaN value, -0 before +0 (the device's key order).
template <class T>
double kth(const T* x, int64_t n, int64_t k) {
  std::vector<T> v;
  v.reserve(static_cast<size_t>(n));
  for (int64_t i = 0; i < n; ++i)
    if (x[i] == x[i]) v.push_back(x[i]);
  auto less = [](T a, T b) {
    return a < b || (a == 0 && b == 0 && std::signbit(a) && !std::signbit(b));
  };
  std::nth_element(v.begin(), v.begin() + k, v.end(), less);
  return static_cast<double>(v[static_cast<size_t>(k)]);
}
}  // namespace

int64_t HostProvider::count_nan(const SelectCall& c) {
  return c.f64 ? nan_count(static_cast<const double*>(c.x), c.n)
               : nan_count(static_cast<const float*>(c.x), c.n);
}

double HostProvider::select_kth(const SelectCall& c) {
  return c.f64 ? kth(static_cast<const double*>(c.x), c.n, c.k)
               : kth(static_cast<const float*>(c.x), c.n, c.k);
}

}  // namespace matfuse::host
