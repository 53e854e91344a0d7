// find and nnz.
#include <cmath>
#include <algorithm>
#include <string>
#include <vector>

#include "accel/run/indexing.h"
#include "builtins/registry.h"

namespace matfuse {
namespace {

bool nonzero(const Tensor& t, int64_t k) {
  if (!t.is_complex()) return t.get_double(k) != 0;
  std::complex<double> z = t.get_complex(k);
  return z.real() != 0 || z.imag() != 0;
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
    limit = std::isinf(n) ? -1 : static_cast<int64_t>(n);
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
      if (m == 0 && x.dims().is_scalar()) return {Value(Tensor::zeros(ClassId::Double, Dims(0, 0)))};
      return {Value(r->reshaped(row ? Dims(1, m) : Dims(m, 1)))};
    }
  }
  int64_t total = x.numel();
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
  if (!x.is_complex()) {
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
