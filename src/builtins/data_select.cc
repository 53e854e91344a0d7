// Selection statistics: maxk mink prctile quantile.
//
// maxk(A, k [, dim]) / mink: the k largest (smallest) elements along dim (default: first
// non-singleton), in sorted order, and [B, I] their positions along dim. The order is the one
// of sort(A, dim, 'descend') (maxk) or sort(A, dim) (mink), of which they are the first k
// elements: stable among equal values, NaN first for maxk and last for mink. k larger than the
// dimension's length gives every element. A lane is scanned once, keeping the best k sorted
// (a new element is inserted only when it beats the current k-th; O(n + k log n) expected on
// unordered data); k over n/16 sorts the lane instead (sort_kernels.h).
// prctile(X, p [, dim]) with p in [0, 100], quantile(X, p [, dim]) with p in [0, 1] (or an
// integer N > 1: the N evenly spaced probabilities (1:N)/(N+1)); also 'all' and vecdim.
// A vector X without dim gives a result of p's shape.
// MATLAB's method: the sorted non-NaN values x(1..n) are the quantiles of (i - 0.5)/n,
// linear interpolation in between, x(1) and x(n) beyond; a slice of only NaNs gives NaN. The
// result has numel(p) elements along dim. Order statistics are selected with std::nth_element.
#include <algorithm>
#include <cmath>
#include <memory>
#include <numeric>

#include "builtins/data_util.h"
#include "runtime/reduce_layout.h"
#include "builtins/shape_util.h"
#include "builtins/sort_kernels.h"

namespace matfuse::data {
namespace {

// ---- maxk / mink ----------------------------------------------------------------------------

template <class T>
bool nan_v(T v) {
  if constexpr (std::is_floating_point_v<T>)
    return v != v;
  else
    return false;
}

/// True when element (a at position ia) comes before (b at ib) in the output order.
template <class T>
bool before(T a, int64_t ia, T b, int64_t ib, bool is_max) {
  bool na = nan_v(a), nb = nan_v(b);
  if (na || nb) {
    if (na && nb) return ia < ib;
    return is_max ? na : nb;  // maxk: NaN first; mink: numbers first
  }
  if (a == b) return ia < ib;
  return is_max ? a > b : a < b;
}

Outputs extk(Args args, int nargout, bool is_max) {
  const char* fname = is_max ? "maxk" : "mink";
  check_nargin(args, 2, 5);
  check_nargout(nargout, 2);
  Tensor x = numeric_arg(args[0], fname);
  if (x.is_complex())
    throw_error("matfuse:notAvailable", "%s of complex input is not supported yet.", fname);
  double kd = args[1].is_tensor() && args[1].numel() == 1 ? args[1].to_double("k") : -1;
  if (!(kd >= 0) || kd != std::floor(kd))
    throw_error("MATLAB:maxk:InvalidK", "k must be a non-negative integer scalar.");
  int dim = -1;
  for (size_t i = 2; i < args.size(); ++i) {
    if (is_option(args[i], "ComparisonMethod")) {
      if (i + 1 >= args.size() ||
          !(is_option(args[i + 1], "auto") || is_option(args[i + 1], "real")))
        throw_error("matfuse:notAvailable", "%s supports 'ComparisonMethod' 'auto' and 'real'.",
                    fname);
      ++i;
      continue;
    }
    if (dim >= 0 || args[i].is_text())
      throw_error("MATLAB:TooManyInputs", "Too many input arguments.");
    dim = dim_arg(args[i]);
  }
  const Dims d = x.dims();
  if (dim < 0) dim = first_nonsingleton_dim(d);
  Lanes L = lanes_of(d, dim);
  const int64_t k = static_cast<int64_t>(std::min<double>(kd, static_cast<double>(L.n)));
  Dims od = d;
  od.set(dim, k);
  od.normalize();
  Tensor out = Tensor::uninit(x.cls(), od);
  Tensor ix = Tensor::uninit(ClassId::Double, od);
  double* ip = ix.mutable_data<double>();
  dispatch_class(x.cls(), [&](auto tag) {
    using T = decltype(tag);
    const T* src = x.data<T>();
    T* dst = out.mutable_data<T>();
    std::unique_ptr<T[]> val(new T[static_cast<size_t>(k) + 1]);
    std::vector<int64_t> pos(static_cast<size_t>(std::max<int64_t>(k, L.n)) + 1);
    std::unique_ptr<T[]> sorted(new T[k > L.n / 16 ? static_cast<size_t>(L.n) + 1 : 1]);
    for (int64_t b = 0; b < L.post; ++b)
      for (int64_t i = 0; i < L.pre; ++i) {
        const T* base = src + b * L.n * L.pre + i;
        if (k == 0) continue;
        if (k > L.n / 16) {
          fast::sort_lane<T>(base, L.n, L.pre, is_max, is_max, sorted.get(), pos.data());
          for (int64_t j = 0; j < k; ++j) val[j] = sorted[j];
        } else {
          int64_t m = 0;  // val/pos[0..m) sorted best first
          for (int64_t j = 0; j < L.n; ++j) {
            T v = base[j * L.pre];
            if (m == k && !before(v, j, val[k - 1], pos[k - 1], is_max)) continue;
            int64_t q = m < k ? m++ : k - 1;
            while (q > 0 && before(v, j, val[q - 1], pos[q - 1], is_max)) {
              val[q] = val[q - 1];
              pos[q] = pos[q - 1];
              --q;
            }
            val[q] = v;
            pos[q] = j;
          }
        }
        for (int64_t j = 0; j < k; ++j) {
          int64_t at = (b * k + j) * L.pre + i;
          dst[at] = val[j];
          ip[at] = static_cast<double>(pos[j] + 1);
        }
      }
  });
  Outputs res{Value(std::move(out))};
  if (nargout > 1) res.push_back(Value(std::move(ix)));
  return res;
}

Outputs bi_maxk(CallContext&, Args args, int nargout) { return extk(args, nargout, true); }
Outputs bi_mink(CallContext&, Args args, int nargout) { return extk(args, nargout, false); }

// ---- prctile / quantile ---------------------------------------------------------------------

/// Quantiles q (fractions in [0, 1]) of v (NaNs removed by the caller), written to out.
void quantiles_of(std::vector<double>& v, const std::vector<double>& q, double* out,
                  int64_t ostride) {
  const int64_t n = static_cast<int64_t>(v.size());
  if (n == 0) {
    for (size_t j = 0; j < q.size(); ++j) out[j * ostride] = NAN;
    return;
  }
  // The order statistics needed are asked for in non-decreasing order (p ascending; for each,
  // positions lo-1 then lo). Each nth_element works on the part above the previous pivot, so
  // every position asked for is a pivot: exact, in linear time per statistic.
  std::vector<std::pair<double, size_t>> order;
  for (size_t j = 0; j < q.size(); ++j) order.push_back({q[j], j});
  std::sort(order.begin(), order.end());
  bool full_sort = q.size() > 8;
  if (full_sort) std::sort(v.begin(), v.end());
  int64_t done = 0;             // v[done-1] is the last pivot; v[done..) are all >= it
  auto stat = [&](int64_t r) {  // r-th smallest (0-based); r >= done - 1
    if (!full_sort && r >= done) {
      if (r == done) {  // the smallest of the rest (the upper neighbour of a pivot): one scan
        std::iter_swap(v.begin() + r, std::min_element(v.begin() + r, v.end()));
      } else {
        std::nth_element(v.begin() + done, v.begin() + r, v.end());
      }
      done = r + 1;
    }
    return v[r];
  };
  for (auto [p, j] : order) {
    double r = static_cast<double>(n) * p + 0.5;  // 1-based position of the quantile
    double y;
    if (r < 1)
      y = stat(0);
    else if (r >= static_cast<double>(n))
      y = stat(n - 1);
    else {
      int64_t lo = static_cast<int64_t>(std::floor(r));
      double f = r - static_cast<double>(lo);
      double a = stat(lo - 1), b = stat(lo);
      y = f == 0 ? a : a + f * (b - a);
    }
    out[j * ostride] = y;
  }
}

Outputs quantile_impl(Args args, int nargout, bool percent) {
  const char* fname = percent ? "prctile" : "quantile";
  check_nargin(args, 2, 5);
  check_nargout(nargout, 1);
  Tensor x = numeric_arg(args[0], fname);
  if (x.is_complex()) throw_error("MATLAB:quantile:complexData", "X must be real.");
  if (args[0].is_char()) throw_error("MATLAB:quantile:InvalidX", "X must be a numeric array.");
  Tensor pt = numeric_arg(args[1], fname);
  if (pt.cls() == ClassId::Logical || pt.is_complex() || (pt.numel() > 1 && !pt.dims().is_vector()))
    throw_error(percent ? "MATLAB:prctile:BadPercents" : "MATLAB:quantile:BadProbs",
                "P must be a real numeric vector.");
  std::vector<double> q;
  if (!percent && pt.numel() == 1 && pt.get_double(0) > 1 &&
      pt.get_double(0) == std::floor(pt.get_double(0))) {
    double N = pt.get_double(0);
    if (N > 1e9) throw_error("MATLAB:nomem", "Out of memory.");
    for (double i = 1; i <= N; ++i) q.push_back(i / (N + 1));
  } else {
    for (int64_t i = 0; i < pt.numel(); ++i) {
      double p = pt.get_double(i);
      double hi = percent ? 100 : 1;
      if (!(p >= 0 && p <= hi))
        throw_error(percent ? "MATLAB:prctile:BadPercents" : "MATLAB:quantile:BadProbs",
                    percent ? "P must be a scalar or a vector of percent values between 0 and 100."
                            : "P must be a scalar or a vector of probabilities between 0 and 1.");
      q.push_back(percent ? p / 100 : p);
    }
  }
  DimSpec ds;
  for (size_t i = 2; i < args.size(); ++i) {
    if (is_option(args[i], "all")) {
      ds.all = ds.given = true;
      continue;
    }
    if (is_option(args[i], "Method")) {
      if (i + 1 >= args.size() || !is_option(args[i + 1], "midpoint"))
        throw_error("matfuse:notAvailable", "%s supports the 'midpoint' method only.", fname);
      ++i;
      continue;
    }
    if (args[i].is_text())
      throw_error("MATLAB:quantile:UnknownOption", "Invalid option '%s'.",
                  args[i].to_text().c_str());
    if (ds.given) throw_error("MATLAB:TooManyInputs", "Too many input arguments.");
    ds.dims = vecdim_arg(args[i]);
    ds.given = true;
  }
  std::vector<int> dims = ds.resolve(x.dims());
  Tensor xd = x.cls() == ClassId::Double ? x : x.to_class(ClassId::Double);
  // One dimension: its lanes directly; several ('all', vecdim): the reduce layout, which
  // makes the reduced dimensions adjacent.
  int64_t pre, n, post;
  Tensor src = xd;
  Dims od;
  if (dims.size() == 1) {
    Lanes L = lanes_of(x.dims(), dims[0]);
    pre = L.pre;
    n = L.n;
    post = L.post;
    od = x.dims();
  } else {
    reduce_detail::Layout L = reduce_detail::make_layout(xd, dims);
    src = L.src;
    pre = L.pre;
    n = L.n;
    post = L.post;
    od = L.out;
  }
  const int nq = static_cast<int>(q.size());
  od.set(*std::min_element(dims.begin(), dims.end()), nq);
  od.normalize();
  Tensor out = Tensor::uninit(ClassId::Double, od);
  double* op = out.mutable_data<double>();
  const double* s = src.data<double>();
  std::vector<double> v;
  for (int64_t b = 0; b < post; ++b)
    for (int64_t i = 0; i < pre; ++i) {
      v.clear();
      for (int64_t k = 0; k < n; ++k) {
        double e = s[(b * n + k) * pre + i];
        if (e == e) v.push_back(e);
      }
      quantiles_of(v, q, op + b * nq * pre + i, pre);
    }
  // A vector X without a dimension gives a result shaped like p (as MATLAB's prctile always
  // did); the N-quantile form gives a row or column like X.
  if (!ds.given && x.dims().is_vector() && x.numel() > 0 && pt.dims().is_vector() &&
      !(pt.numel() == 1 && q.size() > 1))
    out = out.reshaped(pt.dims());
  ClassId rc = float_class(x.cls());
  return {Value(rc == ClassId::Double ? out : out.to_class(rc))};
}

Outputs bi_prctile(CallContext&, Args args, int nargout) {
  return quantile_impl(args, nargout, true);
}
Outputs bi_quantile(CallContext&, Args args, int nargout) {
  return quantile_impl(args, nargout, false);
}

}  // namespace

void register_data_select(Registry& r) {
  r.add("maxk", bi_maxk);
  r.add("mink", bi_mink);
  r.add("prctile", bi_prctile);
  r.add("quantile", bi_quantile);
}

}  // namespace matfuse::data
