// Cumulative and difference functions: cumprod cummin cummax diff trapz cumtrapz.
//
// cumprod: class rules of cumsum (integers keep their class and saturate, logical/char give
// double); 'omitnan' treats NaN as 1. cummin/cummax: keep the class (char gives double), NaN
// omitted by default (leading NaNs stay NaN), 'includenan' makes every later element NaN;
// complex values compare by abs then angle; the optional second output is the 1-based position
// along the dimension of the element chosen (the first one among equals).
// diff(X, n, dim): n-th difference; without dim, a dimension that shrinks to length 1 moves on
// to the next non-singleton dimension (MATLAB).
// trapz/cumtrapz: unit spacing, scalar spacing, or coordinates (vector of the dimension's
// length). The moving-window functions are in data_mov.cc.
#include <algorithm>
#include <cmath>

#include "accel/capture/capture.h"
#include "builtins/data_util.h"
#include "builtins/shape_util.h"
#include "runtime/array_size.h"

namespace matfuse::data {
namespace {

struct CumArgs {
  bool has_dim = false;
  int dim = 0;
  bool reverse = false;
  NanFlag nan = NanFlag::Include;
  bool nan_set = false;
};

CumArgs parse_cum(Args args, size_t start, const char* fname) {
  CumArgs c;
  for (size_t i = start; i < args.size(); ++i) {
    if (args[i].is_text()) {
      std::string s = lower(args[i].to_text());
      if (s == "forward" || s == "reverse") c.reverse = s == "reverse";
      else if (s == "omitnan" || s == "includenan" || s == "omitmissing" || s == "includemissing") {
        c.nan = s.rfind("omit", 0) == 0 ? NanFlag::Omit : NanFlag::Include;
        c.nan_set = true;
      } else {
        throw_error("MATLAB:invalidOption", "Invalid option '%s' for %s.", s.c_str(), fname);
      }
      continue;
    }
    if (i != start || c.has_dim)
      throw_error("MATLAB:getdimarg:invalidDim",
                  "Dimension argument must be a positive integer scalar within indexing range.");
    c.dim = dim_arg(args[i]);
    c.has_dim = true;
  }
  return c;
}

Outputs bi_cumprod(CallContext&, Args args, int nargout) {
  check_nargin(args, 1, 4);
  check_nargout(nargout, 1);
  Tensor x = numeric_arg(args[0], "cumprod");
  CumArgs c = parse_cum(args, 1, "cumprod");
  int dim = c.has_dim ? c.dim : first_nonsingleton_dim(x.dims());
  Tensor w = x.is_complex() ? x.to_class(ClassId::Double).to_complex() : x.to_class(ClassId::Double);
  Tensor out = Tensor::uninit(ClassId::Double, x.dims(), x.is_complex());
  Lanes L = lanes_of(x.dims(), dim);
  if (!x.is_complex()) {
    // Real data: running products, the lanes of a block advanced together (rows in order).
    const double* s = w.data<double>();
    double* o = out.mutable_data<double>();
    const bool omit = c.nan == NanFlag::Omit;
    std::vector<double> acc(static_cast<size_t>(L.pre));
    for (int64_t b = 0; b < L.post; ++b) {
      std::fill(acc.begin(), acc.end(), 1.0);
      for (int64_t j = 0; j < L.n; ++j) {
        int64_t k = c.reverse ? L.n - 1 - j : j;
        const double* row = s + (b * L.n + k) * L.pre;
        double* orow = o + (b * L.n + k) * L.pre;
        for (int64_t i = 0; i < L.pre; ++i) {
          double z = row[i];
          acc[i] = omit && z != z ? acc[i] : acc[i] * z;
          orow[i] = acc[i];
        }
      }
    }
    ClassId rc =
        x.cls() == ClassId::Logical || x.cls() == ClassId::Char ? ClassId::Double : x.cls();
    return {Value(rc == ClassId::Double ? out : out.to_class(rc))};
  }
  for (int64_t b = 0; b < L.post; ++b)
    for (int64_t i = 0; i < L.pre; ++i) {
      std::complex<double> acc = 1;
      for (int64_t j = 0; j < L.n; ++j) {
        int64_t k = c.reverse ? L.n - 1 - j : j;
        int64_t p = (b * L.n + k) * L.pre + i;
        std::complex<double> z = w.get_complex(p);
        if (!(c.nan == NanFlag::Omit && (std::isnan(z.real()) || std::isnan(z.imag()))))
          acc = x.is_complex() ? acc * z : std::complex<double>(acc.real() * z.real(), 0);
        out.set_complex(p, acc);
      }
    }
  out = out.drop_zero_imag();
  ClassId rc = x.cls() == ClassId::Logical || x.cls() == ClassId::Char ? ClassId::Double : x.cls();
  return {Value(rc == ClassId::Double ? out : out.to_class(rc))};
}

Outputs cum_ext(Args args, int nargout, bool is_max) {
  const char* fname = is_max ? "cummax" : "cummin";
  check_nargin(args, 1, 4);
  check_nargout(nargout, 2);
  Value a = args[0];
  Tensor x = numeric_arg(a, fname);
  if (x.cls() == ClassId::Char) a = Value(x.to_class(ClassId::Double));
  CumArgs c = parse_cum(args, 1, fname);
  bool include = c.nan_set && c.nan == NanFlag::Include;
  int dim = c.has_dim ? c.dim : first_nonsingleton_dim(x.dims());
  Lanes L = lanes_of(x.dims(), dim);
  if (!x.is_complex()) {
    // Real data of any class: running extreme per lane (the same rules as below).
    Tensor xt = a.tensor();
    Tensor out = Tensor::uninit(xt.cls(), x.dims());
    Tensor it = nargout > 1 ? Tensor::uninit(ClassId::Double, x.dims()) : Tensor();
    double* ip = nargout > 1 ? it.mutable_data<double>() : nullptr;
    dispatch_class(xt.cls(), [&](auto tag) {
      using T = decltype(tag);
      const T* s = xt.data<T>();
      T* o = out.mutable_data<T>();
      for (int64_t b = 0; b < L.post; ++b)
        for (int64_t i = 0; i < L.pre; ++i) {
          T bv{};
          int64_t bk = 0;
          bool have = false, best_nan = false, stuck = false;
          for (int64_t j = 0; j < L.n; ++j) {
            int64_t kk = c.reverse ? L.n - 1 - j : j;
            int64_t p = (b * L.n + kk) * L.pre + i;
            T v = s[p];
            if (!stuck) {
              bool vn = v != v;
              if (vn) {
                if (include) stuck = true;
                if (include || !have) {
                  bv = v;
                  bk = kk;
                  have = best_nan = true;
                }
              } else if (!have || best_nan) {
                bv = v;
                bk = kk;
                have = true;
                best_nan = false;
              } else if (is_max ? v > bv : v < bv) {
                bv = v;
                bk = kk;
              }
            }
            o[p] = bv;
            if (ip) ip[p] = static_cast<double>(bk + 1);
          }
        }
    });
    Outputs res{Value(std::move(out))};
    if (nargout > 1) res.push_back(Value(std::move(it)));
    return res;
  }
  Keys k = make_keys(a, fname);
  std::vector<int64_t> src(static_cast<size_t>(x.numel()));
  std::vector<double> idx(nargout > 1 ? src.size() : 0);
  for (int64_t b = 0; b < L.post; ++b)
    for (int64_t i = 0; i < L.pre; ++i) {
      int64_t best = -1, bestk = 0;
      bool stuck = false;  // includenan: a NaN was seen
      for (int64_t j = 0; j < L.n; ++j) {
        int64_t kk = c.reverse ? L.n - 1 - j : j;
        int64_t p = (b * L.n + kk) * L.pre + i;
        if (!stuck) {
          if (k.nan[p]) {
            // includenan: a NaN wins from here on; omitnan: only a leading NaN is kept.
            if (include) stuck = true;
            if (include || best < 0) { best = p; bestk = kk; }
          } else if (best < 0 || k.nan[best]) {
            best = p;
            bestk = kk;
          } else {
            int r = k.cmp(p, best);
            if (is_max ? r > 0 : r < 0) { best = p; bestk = kk; }
          }
        }
        int64_t dst = (b * L.n + kk) * L.pre + i;
        src[dst] = best;
        if (nargout > 1) idx[dst] = static_cast<double>(bestk + 1);
      }
    }
  Outputs out{gather_elements(a, x.dims(), src)};
  if (nargout > 1) out.push_back(Value(double_tensor(idx, x.dims())));
  return out;
}
Outputs bi_cummax(CallContext&, Args args, int nargout) { return cum_ext(args, nargout, true); }
Outputs bi_cummin(CallContext&, Args args, int nargout) { return cum_ext(args, nargout, false); }

/// One first difference along dim (double or complex double work tensor).
Tensor diff_once(const Tensor& w, int dim) {
  Lanes L = lanes_of(w.dims(), dim);
  Dims od = w.dims();
  int64_t m = L.n > 0 ? L.n - 1 : 0;
  od.set(dim, m);
  od.normalize();
  Tensor out = Tensor::uninit(ClassId::Double, od, w.is_complex());
  if (!w.is_complex()) {  // rows of each block in order
    const double* s = w.data<double>();
    double* o = out.mutable_data<double>();
    for (int64_t b = 0; b < L.post; ++b)
      for (int64_t k = 0; k < m; ++k) {
        const double* r0 = s + (b * L.n + k) * L.pre;
        const double* r1 = r0 + L.pre;
        double* q = o + (b * m + k) * L.pre;
        for (int64_t i = 0; i < L.pre; ++i) q[i] = r1[i] - r0[i];
      }
    return out;
  }
  for (int64_t b = 0; b < L.post; ++b)
    for (int64_t i = 0; i < L.pre; ++i)
      for (int64_t k = 0; k < m; ++k) {
        int64_t p = (b * L.n + k) * L.pre + i;
        int64_t q = (b * m + k) * L.pre + i;
        if (w.is_complex()) out.set_complex(q, w.get_complex(p + L.pre) - w.get_complex(p));
        else out.set_double(q, w.get_double(p + L.pre) - w.get_double(p));
      }
  return out;
}

/// One difference along dim of real single or double w, in w's class (MATLAB computes single
/// differences in single): x(2:end) - x(1:end-1) along dim.
Tensor diff_real(const Tensor& w, int dim) {
  const Lanes L = lanes_of(w.dims(), dim);
  Dims od = w.dims();
  const int64_t m = L.n > 0 ? L.n - 1 : 0;
  od.set(dim, m);
  od.normalize();
  Tensor out = Tensor::uninit(w.cls(), od);
  auto run = [&](auto* tag) {
    using T = std::remove_pointer_t<decltype(tag)>;
    const T* s = w.data<T>();
    T* o = out.mutable_data<T>();
    for (int64_t b = 0; b < L.post; ++b) {
      // A block is n rows of pre contiguous elements: row k+1 minus row k, m*pre differences.
      const T* r0 = s + b * L.n * L.pre;
      T* q = o + b * m * L.pre;
      const int64_t cnt = m * L.pre;
      for (int64_t i = 0; i < cnt; ++i) q[i] = r0[i + L.pre] - r0[i];
    }
  };
  if (w.cls() == ClassId::Single) run(static_cast<float*>(nullptr));
  else run(static_cast<double*>(nullptr));
  return out;
}

/// diff along dim of real single/double x as the graph's x(2:end) - x(1:end-1) (two slices and
/// a subtraction), so that it fuses with its neighbours and runs where x lives; nullopt when
/// the graph does not take it (a small materialised x).
std::optional<Tensor> capture_diff(const Tensor& x, int dim) {
  const Dims& d = x.dims();
  if (dim >= d.ndims() || d[dim] < 2) return std::nullopt;
  std::vector<accel::SliceSub> hi(static_cast<size_t>(d.ndims())), lo(hi.size());
  for (int k = 0; k < d.ndims(); ++k) hi[k].count = lo[k].count = d[k];
  hi[dim].start = 2;
  hi[dim].count = lo[dim].count = d[dim] - 1;
  std::optional<Tensor> a = accel::capture_slice(x, hi);
  if (!a) return std::nullopt;
  std::optional<Tensor> b = accel::capture_slice(x, lo);
  if (!b) return std::nullopt;
  return accel::capture_binary(OpId::Sub, *a, *b);
}

Outputs bi_diff(CallContext&, Args args, int nargout) {
  check_nargin(args, 1, 3);
  check_nargout(nargout, 1);
  Tensor x = numeric_arg(args[0], "diff");
  int64_t n = 1;
  if (args.size() > 1 && !args[1].is_empty()) {
    double v = args[1].is_tensor() && args[1].numel() == 1 ? args[1].tensor().get_double(0) : -1;
    if (!(v >= 0) || v != std::floor(v))
      throw_error("MATLAB:diff:differenceOrderMustBePositiveInteger",
                  "Difference order N must be a positive integer scalar.");
    n = clamp_count(v);  // 1e300: past the length, an empty result (no undefined cast)
  }
  bool has_dim = args.size() > 2;
  int dim = has_dim ? dim_arg(args[2]) : first_nonsingleton_dim(x.dims());
  ClassId rc = x.cls() == ClassId::Logical || x.cls() == ClassId::Char ? ClassId::Double : x.cls();
  const bool real_float = !x.is_complex() && is_float_class(x.cls());
  Tensor w = real_float     ? x
             : x.is_complex() ? x.to_class(ClassId::Double).to_complex()
                              : x.to_class(ClassId::Double);
  for (int64_t t = 0; t < n; ++t) {
    // Differences of an empty extent are empty again: stop (diff([], 2^31) is immediate).
    if (w.dims()[dim] == 0) break;
    if (!has_dim && w.dims()[dim] == 1 && !w.is_empty()) {
      int nd = first_nonsingleton_dim(w.dims());
      if (w.dims()[nd] == 1) {  // all singleton: result is empty along dim
        Dims od = w.dims();
        od.set(dim, 0);
        w = Tensor::uninit(w.cls(), od.normalize(), w.is_complex());
        break;
      }
      dim = nd;
    }
    if (!real_float) {
      w = diff_once(w, dim);
    } else if (std::optional<Tensor> c = capture_diff(w, dim)) {
      w = std::move(*c);
    } else {
      w = diff_real(w, dim);
    }
  }
  w = w.drop_zero_imag();
  if (rc == ClassId::Double) return {Value(w)};
  return {Value(w.to_class(rc))};
}

/// Coordinates along the dimension for trapz/cumtrapz: unit, scalar spacing or a vector.
std::vector<double> coordinates(const Value* xv, int64_t n, const char* fname) {
  std::vector<double> x(static_cast<size_t>(n));
  if (!xv) {
    for (int64_t i = 0; i < n; ++i) x[i] = static_cast<double>(i);
    return x;
  }
  Tensor t = numeric_arg(*xv, fname);
  if (t.numel() == 1) {
    double h = t.get_double(0);
    for (int64_t i = 0; i < n; ++i) x[i] = h * static_cast<double>(i);
    return x;
  }
  if (t.numel() != n)
    throw_error("MATLAB:trapz:LengthXMismatchY",
                "Length of X must match the size of Y along the operating dimension.");
  for (int64_t i = 0; i < n; ++i) x[i] = t.get_double(i);
  return x;
}

Outputs trapz_impl(Args args, int nargout, bool cumulative) {
  const char* fname = cumulative ? "cumtrapz" : "trapz";
  check_nargin(args, 1, 3);
  check_nargout(nargout, 1);
  const Value* xv = nullptr;
  const Value* yv = &args[0];
  const Value* dv = nullptr;
  if (args.size() == 2 && args[1].numel() == 1) {
    dv = &args[1];  // trapz(Y, dim): a scalar second argument is the dimension (as MATLAB)
  } else if (args.size() >= 2) {
    xv = &args[0];
    yv = &args[1];
  }
  if (args.size() == 3) dv = &args[2];
  Tensor y = numeric_arg(*yv, fname);
  int dim;
  if (dv) dim = dim_arg(*dv);
  else if (xv && xv->numel() > 1 && y.dims().is_matrix() && !y.dims().is_vector())
    dim = 0;  // matrix Y with coordinate vector: along the first dimension
  else dim = first_nonsingleton_dim(y.dims());
  Tensor w = y.is_complex() ? y.to_class(ClassId::Double).to_complex() : y.to_class(ClassId::Double);
  Lanes L = lanes_of(y.dims(), dim);
  if (!cumulative && !y.is_complex() && L.pre == 1 && (!xv || xv->numel() == 1)) {
    // Contiguous lanes with uniform spacing h: h/2 * sum of neighbour pairs, summed in four
    // independent partial sums (no loop-carried latency, no coordinate vector).
    const double h = xv ? numeric_arg(*xv, fname).get_double(0) : 1.0;
    Dims od = y.dims();
    od.set(dim, 1);
    od.normalize();
    Tensor out = Tensor::uninit(ClassId::Double, od);
    const double* s = w.data<double>();
    double* o = out.mutable_data<double>();
    for (int64_t b = 0; b < L.post; ++b) {
      const double* r = s + b * L.n;
      double p[4] = {0, 0, 0, 0};
      int64_t k = 1;
      for (; k + 3 < L.n; k += 4)
        for (int u = 0; u < 4; ++u) p[u] += r[k + u] + r[k + u - 1];
      for (; k < L.n; ++k) p[0] += r[k] + r[k - 1];
      o[b] = h / 2.0 * ((p[0] + p[1]) + (p[2] + p[3]));
    }
    ClassId rc = float_class(y.cls());
    return {Value(rc == ClassId::Double ? out : out.to_class(rc))};
  }
  if (cumulative && !y.is_complex() && L.pre == 1 && !xv) {
    // Contiguous lanes with unit spacing: the general loop's operations (h_k = 1/2) without
    // the coordinate vector and the zero fill.
    Tensor out = Tensor::uninit(ClassId::Double, y.dims());
    const double* s = w.data<double>();
    double* o = out.mutable_data<double>();
    for (int64_t b = 0; b < L.post; ++b) {
      const double* r = s + b * L.n;
      double* ro = o + b * L.n;
      double acc = 0;
      if (L.n > 0) ro[0] = 0;
      for (int64_t k = 1; k < L.n; ++k) {
        acc += 0.5 * (r[k] + r[k - 1]);
        ro[k] = acc;
      }
    }
    ClassId rc = float_class(y.cls());
    return {Value(rc == ClassId::Double ? out : out.to_class(rc))};
  }
  std::vector<double> x = coordinates(xv, L.n, fname);
  Dims od = y.dims();
  if (!cumulative) {
    od.set(dim, 1);
    od.normalize();
  }
  Tensor out = Tensor::zeros(ClassId::Double, od, y.is_complex());
  if (!y.is_complex()) {
    // Real data: the block's lanes advanced together (rows in order).
    const double* s = w.data<double>();
    double* o = out.mutable_data<double>();
    std::vector<double> acc(static_cast<size_t>(L.pre));
    for (int64_t b = 0; b < L.post; ++b) {
      std::fill(acc.begin(), acc.end(), 0.0);
      const double* blk = s + b * L.n * L.pre;
      if (cumulative) std::fill(o + b * L.n * L.pre, o + b * L.n * L.pre + L.pre, 0.0);
      for (int64_t k = 1; k < L.n; ++k) {
        const double hk = (x[k] - x[k - 1]) / 2.0;
        const double* r0 = blk + (k - 1) * L.pre;
        const double* r1 = r0 + L.pre;
        double* ro = o + (b * L.n + k) * L.pre;
        for (int64_t i = 0; i < L.pre; ++i) {
          acc[i] += hk * (r1[i] + r0[i]);
          if (cumulative) ro[i] = acc[i];
        }
      }
      if (!cumulative)
        for (int64_t i = 0; i < L.pre; ++i) o[b * L.pre + i] = acc[i];
    }
    ClassId rc = float_class(y.cls());
    return {Value(rc == ClassId::Double ? out : out.to_class(rc))};
  }
  for (int64_t b = 0; b < L.post; ++b)
    for (int64_t i = 0; i < L.pre; ++i) {
      std::complex<double> acc = 0;
      for (int64_t k = 0; k < L.n; ++k) {
        int64_t p = (b * L.n + k) * L.pre + i;
        if (k > 0) acc += (x[k] - x[k - 1]) * (w.get_complex(p) + w.get_complex(p - L.pre)) / 2.0;
        if (cumulative) out.set_complex(p, acc);
      }
      if (!cumulative) out.set_complex(b * L.pre + i, acc);
    }
  out = out.drop_zero_imag();
  ClassId rc = float_class(y.cls());
  return {Value(rc == ClassId::Double ? out : out.to_class(rc))};
}
Outputs bi_trapz(CallContext&, Args args, int nargout) { return trapz_impl(args, nargout, false); }
Outputs bi_cumtrapz(CallContext&, Args args, int nargout) { return trapz_impl(args, nargout, true); }

}  // namespace

void register_data_cum(Registry& r) {
  r.add("cumprod", bi_cumprod);
  r.add("cummax", bi_cummax);
  r.add("cummin", bi_cummin);
  r.add("diff", bi_diff);
  r.add("trapz", bi_trapz);
  r.add("cumtrapz", bi_cumtrapz);
}

}  // namespace matfuse::data
