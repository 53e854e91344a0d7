// Statistics: median mode var std range bounds cov corrcoef normalize rescale.
//
// Common forms: f(X), f(X, dim), f(X, vecdim), f(X, 'all'), plus 'omitnan'/'includenan' where
// MATLAB has them. Computation is in double; single input gives single output, integer input
// keeps its class for median/mode/range/bounds and gives double for the others.
// var/std normalization: w = 0 (default) divides by N-1 (N = 1 gives 0), w = 1 by N, a weight
// vector w (nonnegative, one weight per element along the reduced dimension) gives the weighted
// variance sum(w.*|x-mu_w|.^2)/sum(w) with mu_w = sum(w.*x)/sum(w).
#include <algorithm>
#include <cstring>
#include <optional>
#include <type_traits>
#include <vector>
#include <cmath>
#include <functional>
#include <map>

#include "accel/run/indexing.h"
#include "accel/capture/capture.h"
#include "builtins/data_util.h"
#include "builtins/lapack_inc.h"
#include "runtime/reduce_layout.h"
#include "builtins/sort_kernels.h"

namespace matfuse::data {
namespace {

using reduce_detail::Layout;
using reduce_detail::make_layout;

/// Parses trailing [dim | vecdim | 'all'] and nan flag options from args[start...].
struct StatArgs {
  DimSpec dim;
  NanFlag nan = NanFlag::Include;
  bool nan_set = false;
};

StatArgs parse_stat(Args args, size_t start, const char* fname, bool allow_nan = true) {
  StatArgs s;
  for (size_t i = start; i < args.size(); ++i) {
    const Value& a = args[i];
    if (a.is_text()) {
      std::string t = lower(a.to_text());
      if (t == "all" && !s.dim.given) {
        s.dim.all = s.dim.given = true;
        continue;
      }
      if (allow_nan && (t == "omitnan" || t == "includenan" || t == "omitmissing" ||
                        t == "includemissing")) {
        s.nan = t.rfind("omit", 0) == 0 ? NanFlag::Omit : NanFlag::Include;
        s.nan_set = true;
        continue;
      }
      throw_error("MATLAB:invalidOption", "Invalid option '%s' for %s.", t.c_str(), fname);
    }
    if (s.dim.given)
      throw_error("MATLAB:getdimarg:invalidDim",
                  "Dimension argument must be a positive integer scalar, a vector of unique "
                  "positive integers, or 'all'.");
    s.dim.dims = vecdim_arg(a);
    s.dim.given = true;
  }
  return s;
}

/// Applies f to every slice (copied into a vector) of the real double tensor x over dims.
Tensor reduce_slices(const Tensor& x, const std::vector<int>& dims,
                     const std::function<double(std::vector<double>&)>& f) {
  Layout L = make_layout(x, dims);
  Tensor out = Tensor::uninit(ClassId::Double, L.out);
  double* o = out.mutable_data<double>();
  const double* s = L.src.data<double>();
  std::vector<double> v;  // one buffer for every slice (f may reorder or shrink it)
  for (int64_t b = 0; b < L.post; ++b)
    for (int64_t i = 0; i < L.pre; ++i) {
      v.resize(static_cast<size_t>(L.n));
      const double* src = s + b * L.n * L.pre + i;
      if (L.pre == 1) std::copy(src, src + L.n, v.begin());
      else
        for (int64_t k = 0; k < L.n; ++k) v[k] = src[k * L.pre];
      o[b * L.pre + i] = f(v);
    }
  return out;
}

/// As reduce_slices, but f reads each slice where it lies (no copy): slice element k is
/// p[k * stride], k < n.
Tensor reduce_slice_views(const Tensor& x, const std::vector<int>& dims,
                          const std::function<double(const double*, int64_t, int64_t)>& f) {
  Layout L = make_layout(x, dims);
  Tensor out = Tensor::uninit(ClassId::Double, L.out);
  double* o = out.mutable_data<double>();
  const double* s = L.src.data<double>();
  for (int64_t b = 0; b < L.post; ++b)
    for (int64_t i = 0; i < L.pre; ++i) o[b * L.pre + i] = f(s + b * L.n * L.pre + i, L.n, L.pre);
  return out;
}

Tensor real_double(const Tensor& x, const char* fname) {
  if (x.is_complex())
    throw_error("matfuse:notAvailable", "%s of complex input is not supported yet.", fname);
  return x.cls() == ClassId::Double ? x : x.to_class(ClassId::Double);
}

/// Output class of median/mode/range: integer and single classes kept, others double.
Tensor finish_class(const Tensor& r, ClassId in) {
  if (in == ClassId::Double || in == ClassId::Logical || in == ClassId::Char) return r;
  return r.to_class(in);
}

double median_of(std::vector<double>& v, bool omit) {
  if (omit) v.erase(std::remove_if(v.begin(), v.end(), [](double d) { return std::isnan(d); }), v.end());
  else
    for (double d : v)
      if (std::isnan(d)) return NAN;
  size_t n = v.size();
  if (n == 0) return NAN;
  size_t h = n / 2;
  std::nth_element(v.begin(), v.begin() + h, v.end());
  double hi = v[h];
  if (n % 2) return hi;
  double lo = *std::max_element(v.begin(), v.begin() + h);
  if (std::isinf(lo) && std::isinf(hi) && lo != hi) return NAN;
  return lo + (hi - lo) / 2;
}

/// Median of the n values of buf (reordered in place), selection in the values' own type
/// (exact), the two middle values combined in double as median_of does.
template <class T>
double median_in_place(T* buf, int64_t n, bool omit) {
  if (omit) {
    n = std::remove_if(buf, buf + n, [](T v) { return v != v; }) - buf;
  } else {
    bool nan = false;
    for (int64_t i = 0; i < n; ++i) nan |= buf[i] != buf[i];
    if (nan) return NAN;
  }
  if (n == 0) return NAN;
  const int64_t h = n / 2;
  std::nth_element(buf, buf + h, buf + n);
  const double hi = buf[h];
  if (n % 2) return hi;
  const double lo = *std::max_element(buf, buf + h);
  if (std::isinf(lo) && std::isinf(hi) && lo != hi) return NAN;
  return lo + (hi - lo) / 2;
}

/// Median of n contiguous values of x (not modified) by radix selection: one pass builds a
/// histogram of the top 16 bits of order-preserving keys (the bit pattern of a float with every
/// bit flipped when negative and the sign bit set otherwise: Herf, "Radix Tricks", 2001) and
/// counts NaNs; a second pass collects the values of the buckets holding the middle ranks, and
/// nth_element finishes on those few. Same result as median_in_place.
template <class T, class U>
double median_radix(const T* x, int64_t n, bool omit) {
  constexpr int kBits = static_cast<int>(sizeof(U)) * 8;
  constexpr U kSign = U{1} << (kBits - 1);
  auto key = [](T v) {
    U u;
    std::memcpy(&u, &v, sizeof u);
    const U neg = U{0} - (u >> (kBits - 1));
    return (u ^ (neg | kSign)) >> (kBits - 16);
  };
  std::vector<int64_t> hist(65536, 0);
  int64_t nans = 0;
  for (int64_t i = 0; i < n; ++i) {
    const T v = x[i];
    if (v != v) {
      ++nans;
      continue;
    }
    ++hist[key(v)];
  }
  if (nans && !omit) return NAN;
  const int64_t m = n - nans;
  if (m == 0) return NAN;
  const int64_t r_hi = m / 2, r_lo = m % 2 ? r_hi : r_hi - 1;
  int64_t b_lo = -1, b_hi = -1, cum = 0, base = 0;
  for (int64_t b = 0; b < 65536 && b_hi < 0; ++b) {
    if (b_lo < 0 && cum + hist[b] > r_lo) {
      b_lo = b;
      base = cum;
    }
    if (cum + hist[b] > r_hi) b_hi = b;
    cum += hist[b];
  }
  std::vector<T> c;
  c.reserve(static_cast<size_t>(cum - base));
  for (int64_t i = 0; i < n; ++i) {
    const T v = x[i];
    if (v != v) continue;
    const int64_t k = static_cast<int64_t>(key(v));
    if (k >= b_lo && k <= b_hi) c.push_back(v);
  }
  const int64_t h = r_hi - base;
  std::nth_element(c.begin(), c.begin() + h, c.end());
  const double hi = c[h];
  if (m % 2) return hi;
  const double lo = *std::max_element(c.begin(), c.begin() + h);
  if (std::isinf(lo) && std::isinf(hi) && lo != hi) return NAN;
  return lo + (hi - lo) / 2;
}

/// median over one dimension whose lanes are contiguous (dim 1, or a vector), for real double
/// and single data: each lane is copied once into one work buffer (huge-page backed for large
/// lanes) and selected there, without converting single data to double. nullopt for the other
/// cases (the general path).
std::optional<Tensor> median_contiguous(const Tensor& x, const std::vector<int>& dims, bool omit) {
  if (x.is_complex() || (x.cls() != ClassId::Double && x.cls() != ClassId::Single)) return {};
  if (dims.size() != 1 || x.numel() == 0) return {};
  const Dims& d = x.dims();
  const int dim = dims[0];
  const Lanes L = lanes_of(d, dim < d.ndims() ? dim : d.ndims());
  if (dim >= d.ndims() || L.pre != 1 || L.n < 2) return {};
  Dims od = d;
  od.set(dim, 1);
  od.normalize();
  if (std::optional<Tensor> dm = accel::device_median(x, L.post, L.n, omit)) {
    // A device-resident array: radix selection on the device, no gather.
    Tensor d = dm->reshaped(od);
    return x.cls() == ClassId::Double ? d : d.to_class(x.cls());
  }
  Tensor r = Tensor::uninit(x.cls(), od);
  auto run = [&](auto tag) {
    using T = decltype(tag);
    Tensor work = Tensor::uninit(x.cls(), Dims(L.n < 4096 ? L.n : 1, 1));
    T* buf = work.mutable_data<T>();
    const T* src = x.data<T>();
    T* out = r.mutable_data<T>();
    for (int64_t b = 0; b < L.post; ++b) {
      if (L.n >= 4096) {
        using U = std::conditional_t<sizeof(T) == 8, uint64_t, uint32_t>;
        out[b] = static_cast<T>(median_radix<T, U>(src + b * L.n, L.n, omit));
        continue;
      }
      std::memcpy(buf, src + b * L.n, static_cast<size_t>(L.n) * sizeof(T));
      out[b] = static_cast<T>(median_in_place(buf, L.n, omit));
    }
  };
  if (x.cls() == ClassId::Double) run(double{});
  else run(float{});
  return r;
}

Outputs bi_median(CallContext&, Args args, int nargout) {
  check_nargin(args, 1, 4);
  check_nargout(nargout, 1);
  Tensor x = numeric_arg(args[0], "median");
  StatArgs s = parse_stat(args, 1, "median");
  bool omit = s.nan == NanFlag::Omit;
  if (std::optional<Tensor> r = median_contiguous(x, s.dim.resolve(x.dims()), omit))
    return {Value(std::move(*r))};
  Tensor r = reduce_slices(real_double(x, "median"), s.dim.resolve(x.dims()),
                           [&](std::vector<double>& v) { return median_of(v, omit); });
  return {Value(finish_class(r, x.cls()))};
}

Outputs bi_mode(CallContext&, Args args, int nargout) {
  check_nargin(args, 1, 2);
  check_nargout(nargout, 3);
  Tensor x = numeric_arg(args[0], "mode");
  StatArgs s = parse_stat(args, 1, "mode", false);
  Tensor xd = real_double(x, "mode");
  std::vector<double> freq, sorted, kept;
  std::vector<Value> all;
  Tensor r = reduce_slice_views(xd, s.dim.resolve(x.dims()), [&](const double* p, int64_t n,
                                                                  int64_t stride) {
    // One pass: NaNs (ignored), the range and whether every other value is an integer.
    double lo = INFINITY, hi = -INFINITY;
    int64_t nans = 0;
    bool ints = true;
    for (int64_t k = 0; k < n; ++k) {
      const double e = p[k * stride];
      nans += e != e;
      lo = e < lo ? e : lo;
      hi = e > hi ? e : hi;
      ints &= e != e || e == std::floor(e);
    }
    int64_t bestc = 0;
    std::vector<double> ties;  // the most frequent values, ascending
    bool counted = false;
    if (n > nans) {
      // Integer values over a range not much longer than the slice: counted in place, in
      // O(n + range).
      const double range = hi - lo + 1;
      counted = ints && std::isfinite(lo) && std::isfinite(hi) &&
                range <= std::max<double>(2.0 * static_cast<double>(n - nans), 65536.0);
      if (counted) {
        std::vector<int64_t> count(static_cast<size_t>(range), 0);
        for (int64_t k = 0; k < n; ++k) {
          const double e = p[k * stride];
          if (e == e) ++count[static_cast<size_t>(e - lo)];
        }
        bestc = *std::max_element(count.begin(), count.end());
        for (size_t k = 0; k < count.size(); ++k)
          if (count[k] == bestc) ties.push_back(lo + static_cast<double>(k));
      } else {  // sorted (NaNs left out), then runs of equal values
        std::vector<double>& v = kept;
        v.clear();
        for (int64_t k = 0; k < n; ++k)
          if (p[k * stride] == p[k * stride]) v.push_back(p[k * stride]);
        sorted.resize(v.size());
        fast::sort_lane<double>(v.data(), static_cast<int64_t>(v.size()), 1, false, false,
                                sorted.data(), nullptr);
        for (size_t i = 0; i < sorted.size();) {
          size_t j = i;
          while (j < sorted.size() && sorted[j] == sorted[i]) ++j;
          const auto c = static_cast<int64_t>(j - i);
          if (c > bestc) {
            bestc = c;
            ties.assign(1, sorted[i]);
          } else if (c == bestc) {
            ties.push_back(sorted[i]);
          }
          i = j;
        }
      }
    }
    if (ties.empty()) ties.push_back(NAN);
    freq.push_back(static_cast<double>(bestc));
    if (nargout > 2) {
      Tensor t = double_tensor(ties, Dims(static_cast<int64_t>(ties.size()), 1));
      all.push_back(
          Value(finish_class(t, x.cls() == ClassId::Logical ? ClassId::Double : x.cls())));
    }
    return ties.front();  // the smallest of the most frequent values
  });
  ClassId oc = x.cls() == ClassId::Char ? ClassId::Char : x.cls();
  Outputs out{Value(x.cls() == ClassId::Double || x.cls() == ClassId::Char ? r : r.to_class(oc))};
  if (x.cls() == ClassId::Char) out[0] = Value(r.to_class(ClassId::Char));
  if (nargout > 1) out.push_back(Value(double_tensor(freq, r.dims())));
  if (nargout > 2) {
    CellArray c(r.dims());
    for (size_t i = 0; i < all.size(); ++i) c.at(static_cast<int64_t>(i)) = all[i];
    out.push_back(Value(c));
  }
  return out;
}

/// Variance of real data in two passes (mean, then weighted squared deviations), double
/// accumulation. src has the (pre, n, post) layout L; w: one weight per reduced position or
/// null; w01: normalization 0 (N-1) or 1 (N); omit skips NaNs (and their weights). Lanes with
/// pre == 1 are read contiguously; otherwise tiles of lanes are swept row by row (each row of
/// a tile contiguous), so var(X, 0, 2) reads memory in order. V and M get pre*post values.
template <class T>
void var_real(const T* src, const Layout& L, const double* w, int w01, bool omit, double* V,
              double* M) {
  auto finish = [&](double ss, double sw, double cnt, double mu) -> double {
    if (cnt == 0) return std::nan("");
    if (w) return ss / sw;
    if (w01 == 1) return ss / cnt;
    if (cnt == 1) return std::isfinite(mu) ? 0.0 : NAN;
    return ss / (cnt - 1);
  };
  const int64_t n = L.n, pre = L.pre;
  if (pre == 1) {
    for (int64_t b = 0; b < L.post; ++b) {
      const T* p = src + b * n;
      double s = 0, sw = 0, cnt = 0;
      if (!w && !omit) {
        double a[4] = {0, 0, 0, 0};
        int64_t k = 0;
        for (; k + 4 <= n; k += 4)
          for (int u = 0; u < 4; ++u) a[u] += static_cast<double>(p[k + u]);
        for (; k < n; ++k) a[0] += static_cast<double>(p[k]);
        s = (a[0] + a[1]) + (a[2] + a[3]);
        sw = cnt = static_cast<double>(n);
      } else {
        for (int64_t k = 0; k < n; ++k) {
          double v = static_cast<double>(p[k]);
          if (omit && v != v) continue;
          double wk = w ? w[k] : 1.0;
          s += wk * v;
          sw += wk;
          cnt += 1;
        }
      }
      double mu = cnt == 0 ? NAN : s / sw;
      double ss = 0;
      if (!w && !omit) {
        double a[4] = {0, 0, 0, 0};
        int64_t k = 0;
        for (; k + 4 <= n; k += 4)
          for (int u = 0; u < 4; ++u) {
            double d = static_cast<double>(p[k + u]) - mu;
            a[u] += d * d;
          }
        for (; k < n; ++k) {
          double d = static_cast<double>(p[k]) - mu;
          a[0] += d * d;
        }
        ss = (a[0] + a[1]) + (a[2] + a[3]);
      } else {
        for (int64_t k = 0; k < n; ++k) {
          double v = static_cast<double>(p[k]);
          if (omit && v != v) continue;
          double d = v - mu;
          ss += (w ? w[k] : 1.0) * d * d;
        }
      }
      V[b] = finish(ss, sw, cnt, mu);
      M[b] = mu;
    }
    return;
  }
  constexpr int64_t kTile = 512;
  double s[kTile], sw[kTile], cnt[kTile], mu[kTile], ss[kTile];
  for (int64_t b = 0; b < L.post; ++b)
    for (int64_t i0 = 0; i0 < pre; i0 += kTile) {
      const int64_t t = std::min(kTile, pre - i0);
      const T* base = src + b * n * pre + i0;
      std::fill(s, s + t, 0.0);
      std::fill(sw, sw + t, 0.0);
      std::fill(cnt, cnt + t, 0.0);
      std::fill(ss, ss + t, 0.0);
      for (int64_t k = 0; k < n; ++k) {
        const T* row = base + k * pre;
        const double wk = w ? w[k] : 1.0;
        if (!omit) {
          for (int64_t i = 0; i < t; ++i) s[i] += wk * static_cast<double>(row[i]);
        } else {
          for (int64_t i = 0; i < t; ++i) {
            double v = static_cast<double>(row[i]);
            bool ok = v == v;
            s[i] += ok ? wk * v : 0.0;
            sw[i] += ok ? wk : 0.0;
            cnt[i] += ok ? 1.0 : 0.0;
          }
        }
      }
      if (!omit) {
        double tw = 0;
        for (int64_t k = 0; k < n; ++k) tw += w ? w[k] : 1.0;
        std::fill(sw, sw + t, tw);
        std::fill(cnt, cnt + t, static_cast<double>(n));
      }
      for (int64_t i = 0; i < t; ++i) mu[i] = cnt[i] == 0 ? NAN : s[i] / sw[i];
      for (int64_t k = 0; k < n; ++k) {
        const T* row = base + k * pre;
        const double wk = w ? w[k] : 1.0;
        for (int64_t i = 0; i < t; ++i) {
          double d = static_cast<double>(row[i]) - mu[i];
          double c = wk * d * d;
          ss[i] += omit && d != d ? 0.0 : c;
        }
      }
      for (int64_t i = 0; i < t; ++i) {
        V[b * pre + i0 + i] = finish(ss[i], sw[i], cnt[i], mu[i]);
        M[b * pre + i0 + i] = mu[i];
      }
    }
}

/// var (and std when take_sqrt). [V, M] = var(...).
Outputs var_std(Args args, int nargout, bool take_sqrt) {
  const char* fname = take_sqrt ? "std" : "var";
  check_nargin(args, 1, 4);
  check_nargout(nargout, 2);
  Tensor x = numeric_arg(args[0], fname);
  Tensor wt;
  bool has_w = false;
  double w01 = 0;
  size_t start = 1;
  if (args.size() > 1 && !args[1].is_text()) {
    Tensor w = numeric_arg(args[1], fname);
    start = 2;
    if (w.numel() == 1) {
      w01 = w.get_double(0);
      if (w01 != 0 && w01 != 1)
        throw_error("MATLAB:var:invalidWgts",
                    "W must be a vector of nonnegative weights, or a scalar 0 or 1.");
    } else if (w.numel() > 1) {
      has_w = true;
      wt = w.to_class(ClassId::Double);
      for (int64_t i = 0; i < wt.numel(); ++i)
        if (!(wt.get_double(i) >= 0))
          throw_error("MATLAB:var:invalidWgts",
                      "W must be a vector of nonnegative weights, or a scalar 0 or 1.");
    }
  }
  StatArgs s = parse_stat(args, start, fname);
  bool omit = s.nan == NanFlag::Omit;
  std::vector<int> dims = s.dim.resolve(x.dims());
  // Real data without weights or 'omitnan': a composition of graph ops (mean, squared
  // deviations, sum, scale[, sqrt]) that runs where x is.
  if (!has_w && !omit && nargout <= 1)
    if (auto lazy = accel::capture_var(x, dims, static_cast<int>(w01), take_sqrt))
      return {Value(std::move(*lazy))};
  if (!x.is_complex()) {
    Layout L = make_layout(x, dims);
    if (has_w && wt.numel() != L.n)
      throw_error("MATLAB:var:invalidSizeWgts",
                  "The length of the weight vector must equal the size of the operating "
                  "dimension.");
    Tensor V = Tensor::uninit(ClassId::Double, L.out);
    Tensor M = Tensor::uninit(ClassId::Double, L.out);
    double* vp = V.mutable_data<double>();
    double* mp = M.mutable_data<double>();
    const double* w = has_w ? wt.data<double>() : nullptr;
    dispatch_class(L.src.cls(), [&](auto tag) {
      using T = decltype(tag);
      var_real<T>(L.src.data<T>(), L, w, static_cast<int>(w01), omit, vp, mp);
    });
    if (take_sqrt)
      for (int64_t k = 0; k < V.numel(); ++k) vp[k] = std::sqrt(vp[k]);
    ClassId rc = float_class(x.cls());
    Outputs out{Value(rc == ClassId::Double ? V : V.to_class(rc))};
    if (nargout > 1) out.push_back(Value(rc == ClassId::Double ? M : M.to_class(rc)));
    return out;
  }
  Layout L = make_layout(x.is_complex() ? x.to_class(ClassId::Double).to_complex()
                                        : x.to_class(ClassId::Double),
                         dims);
  if (has_w && wt.numel() != L.n)
    throw_error("MATLAB:var:invalidSizeWgts",
                "The length of the weight vector must equal the size of the operating dimension.");
  bool cx = x.is_complex();
  Tensor V = Tensor::uninit(ClassId::Double, L.out);
  Tensor M = Tensor::uninit(ClassId::Double, L.out, cx);
  for (int64_t b = 0; b < L.post; ++b)
    for (int64_t i = 0; i < L.pre; ++i) {
      std::vector<std::complex<double>> v;
      std::vector<double> w;
      for (int64_t k = 0; k < L.n; ++k) {
        int64_t p = (b * L.n + k) * L.pre + i;
        std::complex<double> z = L.src.get_complex(p);
        if (omit && (std::isnan(z.real()) || std::isnan(z.imag()))) continue;
        v.push_back(z);
        w.push_back(has_w ? wt.get_double(k) : 1.0);
      }
      double sw = 0;
      std::complex<double> mu = 0;
      for (size_t k = 0; k < v.size(); ++k) {
        sw += w[k];
        mu += w[k] * v[k];
      }
      mu = v.empty() ? std::complex<double>(NAN, 0) : mu / sw;
      double ss = 0;
      for (size_t k = 0; k < v.size(); ++k) ss += w[k] * std::norm(v[k] - mu);
      double n = static_cast<double>(v.size());
      double var;
      if (v.empty()) var = NAN;
      else if (has_w) var = ss / sw;
      else if (w01 == 1) var = ss / n;
      else var = n == 1 ? (std::isfinite(mu.real()) && std::isfinite(mu.imag()) ? 0.0 : NAN)
                        : ss / (n - 1);
      int64_t o = b * L.pre + i;
      V.set_double(o, take_sqrt ? std::sqrt(var) : var);
      if (cx) M.set_complex(o, mu);
      else M.set_double(o, mu.real());
    }
  ClassId rc = float_class(x.cls());
  Outputs out{Value(rc == ClassId::Double ? V : V.to_class(rc))};
  if (nargout > 1) {
    Tensor m = M.drop_zero_imag();
    out.push_back(Value(rc == ClassId::Double ? m : m.to_class(rc)));
  }
  return out;
}

Outputs bi_var(CallContext&, Args args, int nargout) { return var_std(args, nargout, false); }
Outputs bi_std(CallContext&, Args args, int nargout) { return var_std(args, nargout, true); }

Outputs bi_range(CallContext&, Args args, int nargout) {
  check_nargin(args, 1, 3);
  check_nargout(nargout, 1);
  Tensor x = numeric_arg(args[0], "range");
  StatArgs s = parse_stat(args, 1, "range");
  NanFlag nf = s.nan_set ? s.nan : NanFlag::Omit;
  std::vector<int> d = s.dim.resolve(x.dims(), false);
  Tensor hi = minmax_dims(x, d, true, nf), lo = minmax_dims(x, d, false, nf);
  if (hi.is_empty()) return {Value(hi)};
  Tensor r = Tensor::uninit(ClassId::Double, hi.dims());
  for (int64_t i = 0; i < hi.numel(); ++i) r.set_double(i, hi.get_double(i) - lo.get_double(i));
  ClassId c = x.cls() == ClassId::Logical || x.cls() == ClassId::Char ? ClassId::Double : x.cls();
  return {Value(c == ClassId::Double ? r : r.to_class(c))};
}

Outputs bi_bounds(CallContext&, Args args, int nargout) {
  check_nargin(args, 1, 3);
  check_nargout(nargout, 2);
  Tensor x = numeric_arg(args[0], "bounds");
  StatArgs s = parse_stat(args, 1, "bounds");
  NanFlag nf = s.nan_set ? s.nan : NanFlag::Omit;
  std::vector<int> d = s.dim.resolve(x.dims(), false);
  return {Value(minmax_dims(x, d, false, nf)), Value(minmax_dims(x, d, true, nf))};
}

// ---- cov / corrcoef -------------------------------------------------------------------------

/// Data matrix (observations in rows) of cov/corrcoef arguments: one vector is one variable,
/// a matrix has one variable per column, two arguments are [x(:) y(:)].
Tensor obs_matrix(Args args, size_t& nvals, const char* fname) {
  Tensor x = numeric_arg(args[0], fname);
  nvals = 1;
  if (args.size() > 1 && !args[1].is_text() && !(args[1].numel() == 1 && x.numel() != 1)) {
    Tensor y = numeric_arg(args[1], fname);
    if (x.numel() != y.numel())
      throw_error("MATLAB:cov:XYlengthMismatch", "The number of elements in x and y must match.");
    nvals = 2;
    bool cx = x.is_complex() || y.is_complex();
    Tensor m = Tensor::uninit(ClassId::Double, Dims(x.numel(), 2), cx);
    for (int64_t i = 0; i < x.numel(); ++i) {
      if (cx) {
        m.set_complex(i, x.get_complex(i));
        m.set_complex(x.numel() + i, y.get_complex(i));
      } else {
        m.set_double(i, x.get_double(i));
        m.set_double(x.numel() + i, y.get_double(i));
      }
    }
    return m;
  }
  if (x.dims().ndims() > 2)
    throw_error("MATLAB:cov:InputDim", "Inputs must be 2-D.");
  Tensor d = x.cls() == ClassId::Double ? x : x.to_class(ClassId::Double);
  if (x.dims().is_row()) d = d.reshaped(Dims(x.numel(), 1));
  return d;
}

/// Covariance matrix of the columns of m (n x p, real or complex double), normalization w.
/// omitrows drops rows with any NaN first. Real data uses BLAS dsyrk on the centred matrix.
Tensor cov_matrix(Tensor m, int w, bool omitrows) {
  int64_t n = m.dims().rows(), p = m.dims().cols();
  bool cx = m.is_complex();
  if (omitrows) {
    std::vector<int64_t> keep;
    for (int64_t r = 0; r < n; ++r) {
      bool bad = false;
      for (int64_t c = 0; c < p; ++c) {
        auto z = m.get_complex(c * n + r);
        bad = bad || std::isnan(z.real()) || std::isnan(z.imag());
      }
      if (!bad) keep.push_back(r);
    }
    Tensor k = Tensor::uninit(ClassId::Double, Dims(static_cast<int64_t>(keep.size()), p), cx);
    for (int64_t c = 0; c < p; ++c)
      for (size_t r = 0; r < keep.size(); ++r)
        k.set_complex(c * static_cast<int64_t>(keep.size()) + static_cast<int64_t>(r),
                      m.get_complex(c * n + keep[r]));
    m = k;
    n = static_cast<int64_t>(keep.size());
  }
  Tensor c = Tensor::zeros(ClassId::Double, Dims(p, p), cx);
  if (n == 0) {
    for (int64_t i = 0; i < p * p; ++i) c.set_double(i, NAN);
    return c;
  }
  double denom = (w == 1 || n == 1) ? static_cast<double>(n) : static_cast<double>(n - 1);
  if (!cx) {
    // Two passes: column means, then the Gram matrix of the centred rows by dsyrk on blocks of
    // rows (accumulated with beta = 1), so the centred matrix is never written in full.
    const double* x = m.data<double>();
    std::vector<double> mu(static_cast<size_t>(p));
    for (int64_t j = 0; j < p; ++j) {
      const double* col = x + j * n;
      double a[4] = {0, 0, 0, 0};
      int64_t r = 0;
      for (; r + 4 <= n; r += 4)
        for (int u = 0; u < 4; ++u) a[u] += col[r + u];
      for (; r < n; ++r) a[0] += col[r];
      mu[j] = ((a[0] + a[1]) + (a[2] + a[3])) / static_cast<double>(n);
    }
    double* cp = c.mutable_data<double>();
    const int64_t kBlock =
        std::max<int64_t>(256, std::min<int64_t>(n, (1 << 19) / std::max<int64_t>(p, 1)));
    std::vector<double> blk(static_cast<size_t>(std::min(kBlock, n) * p));
    for (int64_t r0 = 0; r0 < n; r0 += kBlock) {
      const int64_t nb = std::min(kBlock, n - r0);
      for (int64_t j = 0; j < p; ++j) {
        const double* col = x + j * n + r0;
        double* d = blk.data() + j * nb;
        const double mj = mu[j];
        for (int64_t r = 0; r < nb; ++r) d[r] = col[r] - mj;
      }
      cblas_dsyrk(CblasColMajor, CblasUpper, CblasTrans, static_cast<int>(p), static_cast<int>(nb),
                  1.0 / denom, blk.data(), static_cast<int>(nb), r0 == 0 ? 0.0 : 1.0, cp,
                  static_cast<int>(p));
    }
    for (int64_t j = 0; j < p; ++j)
      for (int64_t i = j + 1; i < p; ++i) cp[j * p + i] = cp[i * p + j];
    return c;
  }
  Tensor xc = Tensor::uninit(ClassId::Double, Dims(n, p), cx);
  for (int64_t j = 0; j < p; ++j) {
    std::complex<double> mu = 0;
    for (int64_t r = 0; r < n; ++r) mu += m.get_complex(j * n + r);
    mu /= static_cast<double>(n);
    for (int64_t r = 0; r < n; ++r) {
      if (cx) xc.set_complex(j * n + r, m.get_complex(j * n + r) - mu);
      else xc.set_double(j * n + r, m.get_double(j * n + r) - mu.real());
    }
  }
  if (!cx) {
    double* cp = c.mutable_data<double>();
    cblas_dsyrk(CblasColMajor, CblasUpper, CblasTrans, static_cast<int>(p), static_cast<int>(n),
                1.0 / denom, xc.data<double>(), static_cast<int>(n), 0.0, cp, static_cast<int>(p));
    for (int64_t j = 0; j < p; ++j)
      for (int64_t i = j + 1; i < p; ++i) cp[j * p + i] = cp[i * p + j];
  } else {
    for (int64_t i = 0; i < p; ++i)
      for (int64_t j = 0; j < p; ++j) {
        std::complex<double> s = 0;
        for (int64_t r = 0; r < n; ++r)
          s += std::conj(xc.get_complex(i * n + r)) * xc.get_complex(j * n + r);
        c.set_complex(j * p + i, s / denom);
      }
  }
  return c;
}

/// Pairwise covariance (cov 'partialrows') or correlation (corrcoef 'Rows','pairwise') of the
/// columns of m: entry (i, j) uses only the rows where columns i and j are both not NaN, its
/// means and (for correlation) variances taken over those rows.
Tensor cov_pairwise(const Tensor& m, int w, bool corr) {
  int64_t n = m.dims().rows(), p = m.dims().cols();
  bool cx = m.is_complex();
  Tensor c = Tensor::zeros(ClassId::Double, Dims(p, p), cx);
  auto isnan_at = [&](int64_t k) {
    auto z = m.get_complex(k);
    return std::isnan(z.real()) || std::isnan(z.imag());
  };
  for (int64_t i = 0; i < p; ++i)
    for (int64_t j = i; j < p; ++j) {
      std::vector<int64_t> rows;
      for (int64_t r = 0; r < n; ++r)
        if (!isnan_at(i * n + r) && !isnan_at(j * n + r)) rows.push_back(r);
      int64_t k = static_cast<int64_t>(rows.size());
      std::complex<double> v = NAN;
      if (k > 0) {
        std::complex<double> mi = 0, mj = 0;
        for (int64_t r : rows) {
          mi += m.get_complex(i * n + r);
          mj += m.get_complex(j * n + r);
        }
        mi /= static_cast<double>(k);
        mj /= static_cast<double>(k);
        std::complex<double> sij = 0;
        double sii = 0, sjj = 0;
        for (int64_t r : rows) {
          auto a = m.get_complex(i * n + r) - mi, b = m.get_complex(j * n + r) - mj;
          sij += std::conj(a) * b;
          sii += std::norm(a);
          sjj += std::norm(b);
        }
        if (corr) {
          v = sij / std::sqrt(sii * sjj);
          if (i == j && !std::isnan(v.real())) v = 1.0;
          if (!cx) v = std::max(-1.0, std::min(1.0, v.real()));
        } else {
          double denom = (w == 1 || k == 1) ? static_cast<double>(k) : static_cast<double>(k - 1);
          v = sij / denom;
        }
      }
      if (cx) {
        c.set_complex(j * p + i, v);
        c.set_complex(i * p + j, std::conj(v));
      } else {
        c.set_double(j * p + i, v.real());
        c.set_double(i * p + j, v.real());
      }
    }
  return c;
}

/// True when m (real or complex double) holds a NaN: without one, the pairwise forms equal the
/// plain ones and take their fast path.
bool any_nan(const Tensor& m) {
  const double* x = m.data<double>();
  const int64_t n = m.numel() * (m.is_complex() ? 2 : 1);
  bool nan = false;
  for (int64_t k = 0; k < n; ++k) nan |= x[k] != x[k];
  return nan;
}

struct CovOpts {
  int w = 0;
  bool omitrows = false;
  bool pairwise = false;  ///< cov 'partialrows', corrcoef 'Rows','pairwise'
};

CovOpts parse_cov_opts(Args args, size_t start, const char* fname) {
  CovOpts o;
  for (size_t i = start; i < args.size(); ++i) {
    if (args[i].is_text()) {
      std::string t = lower(args[i].to_text());
      if (t == "omitrows") o.omitrows = true;
      else if (t == "partialrows") o.pairwise = true;
      else if (t == "includenan") o.omitrows = false;
      else if (std::string(fname) == "corrcoef" && (t == "rows" || t == "alpha")) {
        if (i + 1 >= args.size())
          throw_error("MATLAB:corrcoef:MissingValue", "Option '%s' must be followed by a value.",
                      t.c_str());
        const Value& val = args[i + 1];
        if (t == "rows") {
          std::string v = val.is_text() ? lower(val.to_text()) : "";
          if (v != "all" && v != "complete" && v != "pairwise")
            throw_error("MATLAB:corrcoef:InvalidRows",
                        "'Rows' must be 'all', 'complete', or 'pairwise'.");
          o.omitrows = v == "complete";
          o.pairwise = v == "pairwise";
        } else {
          double a = val.is_tensor() && !val.is_char() && val.numel() == 1
                         ? val.to_double("alpha") : std::nan("");
          if (!(a > 0 && a < 1))
            throw_error("MATLAB:corrcoef:InvalidAlpha", "'Alpha' must be a scalar between 0 and 1.");
        }
        ++i;
      } else
        throw_error("MATLAB:cov:unknownFlag", "Invalid option '%s' for %s.", t.c_str(), fname);
      continue;
    }
    double w = args[i].to_double("normalization");
    if (w != 0 && w != 1)
      throw_error("MATLAB:cov:invalidWgts", "W must be 0 or 1.");
    o.w = static_cast<int>(w);
  }
  return o;
}

Outputs bi_cov(CallContext&, Args args, int nargout) {
  check_nargin(args, 1, 4);
  check_nargout(nargout, 1);
  // cov(X) and cov(X, w) of real data: a composition of graph ops (mean, centring, product,
  // scale) that runs where X is.
  const bool has_y = args.size() > 1 && !args[1].is_text() &&
                     !(args[1].numel() == 1 && args[0].numel() != 1);
  if (!has_y && args[0].is_tensor()) {
    const CovOpts o1 = parse_cov_opts(args, 1, "cov");
    if (!o1.omitrows && !o1.pairwise)
      if (auto lazy = accel::capture_cov(args[0].tensor(), o1.w)) return {Value(std::move(*lazy))};
  }
  size_t nv;
  Tensor m = obs_matrix(args, nv, "cov");
  CovOpts o = parse_cov_opts(args, nv, "cov");
  bool single = args[0].cls() == ClassId::Single || (nv == 2 && args[1].cls() == ClassId::Single);
  Tensor c;
  if (args[0].dims() == Dims(0, 0) && nv == 1) c = Tensor::scalar(NAN);
  else if (o.pairwise && any_nan(m)) c = cov_pairwise(m, o.w, false).drop_zero_imag();
  else c = cov_matrix(m, o.w, o.omitrows).drop_zero_imag();
  return {Value(single ? c.to_class(ClassId::Single) : c)};
}

Outputs bi_corrcoef(CallContext&, Args args, int nargout) {
  check_nargin(args, 1, 6);
  check_nargout(nargout, 1);
  // corrcoef(X) of real data: cov's graph, scaled and clamped, where X is.
  const bool has_y = args.size() > 1 && !args[1].is_text();
  if (!has_y && args[0].is_tensor()) {
    const CovOpts o1 = parse_cov_opts(args, 1, "corrcoef");
    if (!o1.omitrows && !o1.pairwise)
      if (auto lazy = accel::capture_corrcoef(args[0].tensor())) return {Value(std::move(*lazy))};
  }
  size_t nv;
  Tensor m = obs_matrix(args, nv, "corrcoef");
  CovOpts o = parse_cov_opts(args, nv, "corrcoef");
  if (o.pairwise && any_nan(m)) {
    Tensor r = cov_pairwise(m, 0, true).drop_zero_imag();
    return {Value(args[0].cls() == ClassId::Single ? r.to_class(ClassId::Single) : r)};
  }
  Tensor c = cov_matrix(m, 0, o.omitrows);
  int64_t p = c.dims().rows();
  Tensor r = Tensor::uninit(ClassId::Double, Dims(p, p), c.is_complex());
  if (!c.is_complex()) {
    const double* cp = c.data<double>();
    double* rp = r.mutable_data<double>();
    for (int64_t j = 0; j < p; ++j)
      for (int64_t i = 0; i < p; ++i) {
        double v = cp[j * p + i] / std::sqrt(cp[i * p + i] * cp[j * p + j]);
        if (i == j && !std::isnan(v)) v = 1.0;
        rp[j * p + i] = v > 1 ? 1.0 : v < -1 ? -1.0 : v;
      }
    bool single = args[0].cls() == ClassId::Single;
    return {Value(single ? r.to_class(ClassId::Single) : r)};
  }
  for (int64_t i = 0; i < p; ++i)
    for (int64_t j = 0; j < p; ++j) {
      double di = c.get_complex(i * p + i).real(), dj = c.get_complex(j * p + j).real();
      std::complex<double> v = c.get_complex(j * p + i) / std::sqrt(di * dj);
      if (i == j && !std::isnan(v.real())) v = 1.0;
      if (!c.is_complex()) {
        double x = v.real();
        if (x > 1) x = 1;
        if (x < -1) x = -1;
        r.set_double(j * p + i, x);
      } else {
        r.set_complex(j * p + i, v);
      }
    }
  bool single = args[0].cls() == ClassId::Single;
  r = r.drop_zero_imag();
  return {Value(single ? r.to_class(ClassId::Single) : r)};
}

// ---- normalize / rescale --------------------------------------------------------------------

Outputs bi_normalize(CallContext& ctx, Args args, int nargout) {
  check_nargin(args, 1, 5);
  check_nargout(nargout, 1);
  Tensor x = numeric_arg(args[0], "normalize");
  if (x.is_complex())
    throw_error("matfuse:notAvailable", "normalize of complex input is not supported yet.");
  size_t i = 1;
  int dim = first_nonsingleton_dim(x.dims());
  if (i < args.size() && !args[i].is_text()) dim = dim_arg(args[i++]);
  std::string method = "zscore", type;
  Tensor param;
  if (i < args.size()) method = lower(args[i++].to_text("method"));
  if (i < args.size()) {
    if (args[i].is_text()) type = lower(args[i].to_text());
    else param = numeric_arg(args[i], "normalize").to_class(ClassId::Double);
    ++i;
  }
  if (i < args.size()) throw_error("MATLAB:TooManyInputs", "Too many input arguments.");
  if (method == "zscore" && (type.empty() || type == "std") && !x.is_empty()) {
    // The default: (x - mean) ./ std along dim, a zero std dividing by 1, which is zscore's
    // definition (one implementation, captured as graph ops where x lives).
    std::vector<Value> za{args[0], Value(Tensor::zeros(ClassId::Double, Dims(0, 0))),
                          Value(static_cast<double>(dim + 1))};
    return {ctx.call_named("zscore", Args(za.data(), za.size()), 1).at(0)};
  }
  Tensor xd = x.to_class(ClassId::Double);
  Tensor out = Tensor::uninit(ClassId::Double, x.dims());
  Lanes L = lanes_of(x.dims(), dim);
  std::vector<double> v(static_cast<size_t>(L.n));
  for (int64_t b = 0; b < L.post; ++b)
    for (int64_t p = 0; p < L.pre; ++p) {
      auto at = [&](int64_t k) { return (b * L.n + k) * L.pre + p; };
      for (int64_t k = 0; k < L.n; ++k) v[k] = xd.get_double(at(k));
      auto mean = [&] {
        double s = 0;
        for (double d : v) s += d;
        return s / static_cast<double>(v.size());
      };
      auto stdv = [&] {
        double mu = mean(), s = 0;
        for (double d : v) s += (d - mu) * (d - mu);
        return v.size() > 1 ? std::sqrt(s / static_cast<double>(v.size() - 1)) : 0.0;
      };
      auto med = [&] {
        std::vector<double> c = v;
        return median_of(c, false);
      };
      auto mad = [&] {
        double m = med();
        std::vector<double> c;
        for (double d : v) c.push_back(std::fabs(d - m));
        return median_of(c, false);
      };
      double center = 0, scale = 1, lo = 0, hi = 1;
      bool is_range = false;
      if (method == "zscore") {
        if (type.empty() || type == "std") {
          center = mean();
          scale = stdv();
        } else if (type == "robust") {
          center = med();
          scale = mad();
        } else {
          throw_error("MATLAB:normalize:InvalidMethodOption", "Invalid zscore option '%s'.", type.c_str());
        }
      } else if (method == "range") {
        is_range = true;
        if (param.numel() == 2) {
          lo = param.get_double(0);
          hi = param.get_double(1);
        }
      } else if (method == "center") {
        if (param.numel() > 0) center = param.get_double(param.numel() == 1 ? 0 : p + b * L.pre);
        else if (type.empty() || type == "mean") center = mean();
        else if (type == "median") center = med();
        else throw_error("MATLAB:normalize:InvalidMethodOption", "Invalid center option '%s'.", type.c_str());
      } else if (method == "scale") {
        if (param.numel() > 0) scale = param.get_double(param.numel() == 1 ? 0 : p + b * L.pre);
        else if (type.empty() || type == "std") scale = stdv();
        else if (type == "mad") scale = mad();
        else if (type == "first") scale = v.empty() ? 1 : v[0];
        else throw_error("MATLAB:normalize:InvalidMethodOption", "Invalid scale option '%s'.", type.c_str());
      } else if (method == "norm") {
        double pn = param.numel() ? param.get_double(0) : 2;
        double s = 0;
        if (std::isinf(pn)) for (double d : v) s = std::max(s, std::fabs(d));
        else {
          for (double d : v) s += std::pow(std::fabs(d), pn);
          s = std::pow(s, 1 / pn);
        }
        scale = s;
      } else {
        throw_error("MATLAB:normalize:InvalidMethod",
                    "Normalization method must be 'zscore', 'norm', 'scale', 'range', or 'center'.");
      }
      if (is_range) {
        double mn = INFINITY, mx = -INFINITY;
        for (double d : v) if (!std::isnan(d)) { mn = std::min(mn, d); mx = std::max(mx, d); }
        for (int64_t k = 0; k < L.n; ++k) {
          double t = mx > mn ? (v[k] - mn) / (mx - mn) : 0.0;
          out.set_double(at(k), lo + t * (hi - lo));
        }
      } else {
        for (int64_t k = 0; k < L.n; ++k) {
          double t = v[k] - center;
          out.set_double(at(k), scale != 0 ? t / scale : t);
        }
      }
    }
  ClassId rc = float_class(x.cls());
  return {Value(rc == ClassId::Double ? out : out.to_class(rc))};
}

Outputs bi_rescale(CallContext&, Args args, int nargout) {
  check_nargin(args, 1, 7);
  check_nargout(nargout, 1);
  Tensor x = numeric_arg(args[0], "rescale");
  if (x.is_complex())
    throw_error("MATLAB:rescale:InvalidInput", "Input must be real.");
  size_t i = 1;
  double l = 0, u = 1;
  if (i + 1 < args.size() + 0 && !args[i].is_text()) {
    l = args[i++].to_double("l");
    u = args[i++].to_double("u");
  }
  Tensor xd = x.to_class(ClassId::Double);
  double mn = INFINITY, mx = -INFINITY;
  for (int64_t k = 0; k < xd.numel(); ++k) {
    double d = xd.get_double(k);
    if (!std::isnan(d)) { mn = std::min(mn, d); mx = std::max(mx, d); }
  }
  for (; i < args.size(); i += 2) {
    if (i + 1 >= args.size())
      throw_error("MATLAB:rescale:InvalidNameValue", "Name-value arguments must come in pairs.");
    if (is_option(args[i], "InputMin")) mn = args[i + 1].to_double("InputMin");
    else if (is_option(args[i], "InputMax")) mx = args[i + 1].to_double("InputMax");
    else
      throw_error("MATLAB:rescale:InvalidNameValue", "Expected 'InputMin' or 'InputMax'.");
  }
  if (l > u) throw_error("MATLAB:rescale:LGreaterThanU", "Lower bound must be less than or equal to upper bound.");
  Tensor out = Tensor::uninit(ClassId::Double, x.dims());
  for (int64_t k = 0; k < xd.numel(); ++k) {
    double d = std::clamp(xd.get_double(k), mn, mx);
    if (std::isnan(xd.get_double(k))) d = NAN;
    double t = mx > mn ? (d - mn) / (mx - mn) : 0.0;
    out.set_double(k, l + t * (u - l));
  }
  ClassId rc = float_class(x.cls());
  return {Value(rc == ClassId::Double ? out : out.to_class(rc))};
}

}  // namespace

void register_data_stats(Registry& r) {
  r.add("median", bi_median);
  r.add("mode", bi_mode);
  r.add("var", bi_var);
  r.add("std", bi_std);
  r.add("range", bi_range);
  r.add("bounds", bi_bounds);
  r.add("cov", bi_cov);
  r.add("corrcoef", bi_corrcoef);
  r.add("normalize", bi_normalize);
  r.add("rescale", bi_rescale);
}

}  // namespace matfuse::data
