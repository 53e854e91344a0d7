// find and nnz.
#include <cmath>
#include <cstring>
#include <algorithm>
#include <string>
#include <vector>

#include "accel/run/indexing.h"
#include "builtins/registry.h"
#include "runtime/array_size.h"

namespace matfuse {
namespace {

bool nonzero(const Tensor& t, int64_t k) {
  if (!t.is_complex()) return t.get_double(k) != 0;
  std::complex<double> z = t.get_complex(k);
  return z.real() != 0 || z.imag() != 0;
}

/// Number of true bytes of a logical array: 8 bytes per step (each byte is 0 or 1, so a word
/// sum holds up to 255 steps per byte lane before the lanes are folded).
int64_t count_true(const bool* mask, int64_t n) {
  const auto* b = reinterpret_cast<const unsigned char*>(mask);
  int64_t total = 0, i = 0;
  while (n - i >= 8) {
    const int64_t words = std::min<int64_t>((n - i) / 8, 255);
    uint64_t acc = 0;
    for (int64_t w = 0; w < words; ++w) {
      uint64_t v;
      std::memcpy(&v, b + i + 8 * w, 8);
      acc += v;
    }
    i += 8 * words;
    const uint64_t pairs = (acc & 0x00FF00FF00FF00FFull) + ((acc >> 8) & 0x00FF00FF00FF00FFull);
    total += static_cast<int64_t>((pairs * 0x0001000100010001ull) >> 48);
  }
  for (; i < n; ++i) total += b[i];
  return total;
}

/// find(mask) for a logical array: the 1-based positions of its c true values as doubles,
/// written branch-free (every position is stored, the output index advances on true).
void fill_positions(const bool* mask, int64_t n, int64_t c, double* out) {
  const auto* b = reinterpret_cast<const unsigned char*>(mask);
  int64_t j = 0, k = 0;
  // Stop where the remaining true values end, so the unconditional store stays in bounds.
  for (; k < n && j < c; ++k) {
    uint64_t v = 0;
    if (n - k >= 8 && c - j >= 8) {
      std::memcpy(&v, b + k, 8);
      if (v == 0) {  // eight false values
        k += 7;
        continue;
      }
      for (int u = 0; u < 8; ++u) {
        out[j] = static_cast<double>(k + u + 1);
        j += b[k + u];
      }
      k += 7;
      continue;
    }
    out[j] = static_cast<double>(k + 1);
    j += b[k];
  }
}

/// find(X), find(X, n), find(X, n, 'first'|'last'), [row, col] = find(...),
/// [row, col, v] = find(...). Indices are 1-based doubles; a row-vector X gives row outputs,
/// anything else columns (MATLAB).
Outputs bi_find(CallContext&, Args a, int nargout) {
  check_nargin(a, 1, 3);
  check_nargout(nargout, 3);
  Tensor x = a[0].tensor();
  int64_t limit = -1;
  bool last = false;
  if (a.size() >= 2) {
    double n = a[1].to_double("n");
    if (!(n > 0) || n != std::floor(n))
      throw_error("MATLAB:find:nonIntegerArg",
                  "Second argument must be a positive scalar integer.");
    limit = std::isinf(n) ? -1 : clamp_count(n);  // 1e300: no limit (no undefined cast)
  }
  if (a.size() == 3) {
    std::string dir = a[2].to_text("direction");
    if (dir == "last") last = true;
    else if (dir != "first")
      throw_error("MATLAB:find:invalidDirection", "Invalid search direction type.");
  }
  if (nargout <= 1 && limit < 0 && x.cls() == ClassId::Logical && x.numel() > 0) {
    // A device-resident (or large pending) logical array: stream compaction on the device.
    if (std::optional<Tensor> r = accel::device_find(x)) {
      const int64_t m = r->numel();
      const bool row = x.dims().is_row() && x.dims().ndims() == 2;
      if (m == 0 && x.dims().is_scalar())
        return {Value(Tensor::zeros(ClassId::Double, Dims(0, 0)))};
      return {Value(r->reshaped(row ? Dims(1, m) : Dims(m, 1)))};
    }
  }
  int64_t total = x.numel();
  if (nargout <= 1 && limit < 0 && !last && x.cls() == ClassId::Logical) {
    const bool* p = x.data<bool>();
    const int64_t m = count_true(p, total);
    const bool row = x.dims().is_row() && x.dims().ndims() == 2;
    Dims od = row ? Dims(1, m) : Dims(m, 1);
    if (total == 0 && x.dims() == Dims(0, 0)) od = Dims(0, 0);
    else if (m == 0 && x.dims().is_scalar()) od = Dims(0, 0);
    Tensor t = Tensor::uninit(ClassId::Double, od);
    if (m > 0) fill_positions(p, total, m, t.mutable_data<double>());
    return {Value(std::move(t))};
  }
  std::vector<int64_t> hits;
  if (!x.is_complex()) {
    // Typed scan: count first (no limit) so that hits is sized once.
    dispatch_class(x.cls(), [&](auto tag) {
      using T = decltype(tag);
      const T* p = x.data<T>();
      if (!last) {
        if (limit < 0) {
          int64_t c = 0;
          for (int64_t k = 0; k < total; ++k) c += p[k] != T(0);
          if (c == 0) return;
          hits.resize(static_cast<size_t>(c));
          int64_t* h = hits.data();
          int64_t j = 0;
          for (int64_t k = 0; k < total; ++k) {
            h[j] = k;
            j += p[k] != T(0);
            if (j == c) break;
          }
        } else {
          for (int64_t k = 0; k < total && static_cast<int64_t>(hits.size()) < limit; ++k)
            if (p[k] != T(0)) hits.push_back(k);
        }
      } else {
        for (int64_t k = total - 1;
             k >= 0 && (limit < 0 || static_cast<int64_t>(hits.size()) < limit); --k)
          if (p[k] != T(0)) hits.push_back(k);
        std::reverse(hits.begin(), hits.end());
      }
    });
  } else if (!last) {
    for (int64_t k = 0; k < total && (limit < 0 || static_cast<int64_t>(hits.size()) < limit); ++k)
      if (nonzero(x, k)) hits.push_back(k);
  } else {
    for (int64_t k = total - 1; k >= 0 && (limit < 0 || static_cast<int64_t>(hits.size()) < limit); --k)
      if (nonzero(x, k)) hits.push_back(k);
    std::reverse(hits.begin(), hits.end());
  }
  int64_t m = static_cast<int64_t>(hits.size());
  bool row = x.dims().is_row() && x.dims().ndims() == 2;
  Dims od = row ? Dims(1, m) : Dims(m, 1);
  if (x.numel() == 0 && x.dims() == Dims(0, 0)) od = Dims(0, 0);
  else if (m == 0 && x.dims().is_scalar()) od = Dims(0, 0);
  auto make = [&](auto f) {
    Tensor t = Tensor::uninit(ClassId::Double, od);
    double* p = t.mutable_data<double>();
    for (int64_t k = 0; k < m; ++k) p[k] = f(hits[k]);
    return Value(std::move(t));
  };
  Outputs out;
  if (nargout <= 1) {
    out.push_back(make([](int64_t k) { return static_cast<double>(k + 1); }));
    return out;
  }
  int64_t rows = x.dims()[0];
  out.push_back(make([&](int64_t k) { return static_cast<double>(k % rows + 1); }));
  out.push_back(make([&](int64_t k) { return static_cast<double>(k / rows + 1); }));
  if (nargout == 3) {
    Tensor v = Tensor::uninit(x.cls(), od, x.is_complex());
    if (!x.is_complex()) {
      dispatch_class(x.cls(), [&](auto tag) {
        using T = decltype(tag);
        const T* p = x.data<T>();
        T* q = v.mutable_data<T>();
        for (int64_t k = 0; k < m; ++k) q[k] = p[hits[k]];
      });
    } else {
      for (int64_t k = 0; k < m; ++k) v.set_complex(k, x.get_complex(hits[k]));
    }
    out.push_back(Value(std::move(v)));
  }
  return out;
}

Outputs bi_nnz(CallContext&, Args a, int) {
  check_nargin(a, 1, 1);
  Tensor x = a[0].tensor();
  if (x.cls() == ClassId::Logical && x.numel() > 0)
    if (std::optional<int64_t> k = accel::device_nnz(x)) return {Value(static_cast<double>(*k))};
  int64_t c = 0;
  if (x.cls() == ClassId::Logical) {
    c = count_true(x.data<bool>(), x.numel());
  } else if (!x.is_complex()) {
    dispatch_class(x.cls(), [&](auto tag) {
      using T = decltype(tag);
      const T* p = x.data<T>();
      int64_t n = x.numel();
      for (int64_t k = 0; k < n; ++k) c += p[k] != T(0);
    });
  } else {
    for (int64_t k = 0; k < x.numel(); ++k) c += nonzero(x, k);
  }
  return {Value(static_cast<double>(c))};
}

}  // namespace

void register_find(Registry& r) {
  r.add("find", bi_find);
  r.add("nnz", bi_nnz);
}

}  // namespace matfuse
