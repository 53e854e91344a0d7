// Moving-window statistics: movsum movmean movmax movmin movvar movstd movmedian.
//
// f(A, k) with a window of k elements centred on each element (an even k has one more element
// behind), or f(A, [kb kf]) with kb elements behind and kf ahead; f(A, k, dim); movvar/movstd
// take a normalization w (0: N-1, the default; 1: N) before dim. Options: 'includenan'
// (default: a NaN in the window gives NaN) / 'omitnan' (NaNs skipped; a window of NaNs only
// gives NaN), 'Endpoints' 'shrink' (default: windows cut at the ends), 'fill' (NaN where the
// window is incomplete), 'discard' (only complete windows are output) or a numeric scalar that
// stands in for the elements outside the array. Results are double (single for single input);
// movmax/movmin/movmedian keep integer classes.
//
// Every statistic is O(n) per lane (movmedian O(n k) with a sorted window kept by insertion,
// a memmove of at most k elements per step):
// - sums: a running sum recomputed from the window every max(1024, 16 k) positions; lanes with
//   NaN or Inf use Neumaier's compensated sum of the finite values (recomputed every k
//   positions) with NaN and +-Inf counted apart (so Inf - Inf never poisons later windows);
// - var/std: running sums of deviations from a shift (the window mean at the last exact
//   recomputation); lanes with NaN or Inf use Welford's running mean and squared deviations
//   with removal (West, "Updating mean and variance estimates", CACM 1979);
// - max/min: a monotonic deque of positions (Lemire, "Streaming maximum-minimum filter using
//   no more than three comparisons per element", 2006).
#include <algorithm>
#include <cmath>
#include <cstring>
#include <vector>

#include "accel/run/window.h"
#include "builtins/data_util.h"
#include "builtins/shape_util.h"

namespace matfuse::data {
namespace {

enum class Stat { Sum, Mean, Max, Min, Var, Std, Median };

struct MovOpts {
  int64_t kb = 0, kf = 0;
  bool omit = false;
  enum { Shrink, Fill, Discard, Pad } ends = Shrink;
  double padv = 0;
  int w = 0;  // var/std normalization
  int dim = 0;
  bool has_dim = false;
};

[[noreturn]] void bad_window() {
  throw_error("MATLAB:movfun:wrongWindowLength",
              "Window length must be a finite positive scalar or 2-element vector of finite "
              "nonnegative scalars.");
}

MovOpts parse_mov(Args args, const char* fname, bool has_w) {
  MovOpts o;
  Tensor kt = numeric_arg(args[1], fname);
  if (kt.numel() == 1) {
    double k = kt.get_double(0);
    if (!(k > 0) || std::isinf(k)) bad_window();
    k = std::floor(std::min(k, 1e18));  // longer than any lane: cut to the lane later
    if (std::fmod(k, 2) == 1) {
      o.kb = o.kf = static_cast<int64_t>((k - 1) / 2);
    } else {
      o.kb = static_cast<int64_t>(k / 2);
      o.kf = static_cast<int64_t>(k / 2 - 1);
    }
  } else if (kt.numel() == 2) {
    double b = std::floor(kt.get_double(0)), f = std::floor(kt.get_double(1));
    if (!(b >= 0) || !(f >= 0) || std::isinf(b) || std::isinf(f)) bad_window();
    b = std::min(b, 1e18);
    f = std::min(f, 1e18);
    o.kb = static_cast<int64_t>(b);
    o.kf = static_cast<int64_t>(f);
  } else {
    bad_window();
  }
  size_t i = 2;
  if (has_w && i < args.size() && !args[i].is_text()) {
    double w = args[i].is_empty() ? 0 : args[i].to_double("w");
    if (w != 0 && w != 1)
      throw_error("MATLAB:movfun:invalidNormalization", "Normalization must be 0 or 1.");
    o.w = static_cast<int>(w);
    ++i;
  }
  for (; i < args.size(); ++i) {
    if (is_option(args[i], "omitnan") || is_option(args[i], "omitmissing")) {
      o.omit = true;
      continue;
    }
    if (is_option(args[i], "includenan") || is_option(args[i], "includemissing")) {
      o.omit = false;
      continue;
    }
    if (is_option(args[i], "Endpoints")) {
      if (i + 1 >= args.size())
        throw_error("MATLAB:movfun:invalidEndpoints", "Name-value arguments must come in pairs.");
      const Value& e = args[++i];
      if (is_option(e, "shrink"))
        o.ends = MovOpts::Shrink;
      else if (is_option(e, "fill"))
        o.ends = MovOpts::Fill;
      else if (is_option(e, "discard"))
        o.ends = MovOpts::Discard;
      else if (e.is_tensor() && !e.is_char() && e.numel() == 1) {
        o.ends = MovOpts::Pad;
        o.padv = e.tensor().get_double(0);
      } else {
        throw_error("MATLAB:movfun:invalidEndpoints",
                    "Endpoints must be 'shrink', 'discard', 'fill', or a numeric scalar.");
      }
      continue;
    }
    if (args[i].is_text())
      throw_error("MATLAB:movfun:unknownOption", "Invalid option '%s' for %s.",
                  args[i].to_text().c_str(), fname);
    if (o.has_dim) throw_error("MATLAB:TooManyInputs", "Too many input arguments.");
    o.dim = dim_arg(args[i]);
    o.has_dim = true;
  }
  return o;
}

/// Window [a(k), e(k)] of position k in a lane of n: a = max(0, k - kb), e = min(n-1, k + kf).
struct Win {
  int64_t n, kb, kf;
  int64_t a(int64_t k) const { return std::max<int64_t>(0, k - kb); }
  int64_t e(int64_t k) const { return std::min<int64_t>(n - 1, k + kf); }
};

bool all_finite(const double* x, int64_t n) {
  bool ok = true;
  for (int64_t k = 0; k < n; ++k) ok &= std::isfinite(x[k]);
  return ok;
}

/// Period (in positions) of exact recomputation for the running sums of finite lanes.
int64_t refresh_period(const Win& W) { return std::max<int64_t>(1024, 16 * (W.kb + W.kf + 1)); }

/// Sum or mean of each window (shrink endpoints).
void mov_sum(const double* x, const Win& W, bool omit, bool mean, double* out) {
  if (all_finite(x, W.n)) {
    // Running sum, recomputed from the window every refresh_period positions.
    const int64_t R = refresh_period(W);
    double s = 0;
    int64_t lo = 0, hi = -1;
    for (int64_t k = 0; k < W.n; ++k) {
      const int64_t a = W.a(k), e = W.e(k);
      if (k % R == 0) {
        s = 0;
        for (int64_t j = a; j <= e; ++j) s += x[j];
      } else {
        if (e > hi) s += x[e];  // windows move by at most one position at each end
        if (a > lo) s -= x[lo];
      }
      lo = a;
      hi = e;
      out[k] = mean ? s / static_cast<double>(e - a + 1) : s;
    }
    return;
  }
  double s = 0, c = 0;  // Neumaier sum of the finite values, and its compensation
  int64_t cnt = 0, nan = 0, pinf = 0, ninf = 0;
  auto add = [&](double v, int sign) {
    if (v != v) {
      nan += sign;
      return;
    }
    cnt += sign;
    if (std::isinf(v)) {
      (v > 0 ? pinf : ninf) += sign;
      return;
    }
    if (sign < 0) v = -v;
    double t = s + v;
    c += std::fabs(s) >= std::fabs(v) ? (s - t) + v : (v - t) + s;
    s = t;
  };
  const int64_t span = std::max<int64_t>(1, W.kb + W.kf + 1);
  int64_t lo = 0, hi = -1;  // current window
  for (int64_t k = 0; k < W.n; ++k) {
    int64_t a = W.a(k), e = W.e(k);
    if (k % span == 0) {  // recompute from the window (bounds the rounding drift)
      s = c = 0;
      cnt = nan = pinf = ninf = 0;
      for (int64_t j = a; j <= e; ++j) add(x[j], 1);
    } else {
      for (int64_t j = hi + 1; j <= e; ++j) add(x[j], 1);
      for (int64_t j = lo; j < a; ++j) add(x[j], -1);
    }
    lo = a;
    hi = e;
    double r;
    if (nan > 0 && !omit)
      r = NAN;
    else if (pinf > 0 && ninf > 0)
      r = NAN;
    else if (pinf > 0)
      r = INFINITY;
    else if (ninf > 0)
      r = -INFINITY;
    else
      r = s + c;
    if (mean)
      r = cnt > 0 ? r / static_cast<double>(cnt) : NAN;
    else if (omit && cnt == 0)
      r = 0;
    out[k] = r;
  }
}

/// Variance (or standard deviation) of each window.
void mov_var(const double* x, const Win& W, bool omit, int w, bool sd, double* out) {
  if (all_finite(x, W.n)) {
    // Running sums of x - c and (x - c)^2 with c the window mean at the last exact
    // recomputation (every refresh_period positions), so that little cancels.
    const int64_t R = refresh_period(W);
    double c = 0, s1 = 0, s2 = 0;
    int64_t lo = 0, hi = -1;
    for (int64_t k = 0; k < W.n; ++k) {
      const int64_t a = W.a(k), e = W.e(k);
      if (k % R == 0) {
        c = 0;
        for (int64_t j = a; j <= e; ++j) c += x[j];
        c /= static_cast<double>(e - a + 1);
        s1 = s2 = 0;
        for (int64_t j = a; j <= e; ++j) {
          double d = x[j] - c;
          s1 += d;
          s2 += d * d;
        }
      } else {
        if (e > hi) {
          double d = x[e] - c;
          s1 += d;
          s2 += d * d;
        }
        if (a > lo) {
          double d = x[lo] - c;
          s1 -= d;
          s2 -= d * d;
        }
      }
      lo = a;
      hi = e;
      const double m = static_cast<double>(e - a + 1);
      double r = m == 1 ? 0.0 : std::max(0.0, s2 - s1 * s1 / m) / (w == 1 ? m : m - 1);
      out[k] = sd ? std::sqrt(r) : r;
    }
    return;
  }
  double mu = 0, m2 = 0;
  int64_t cnt = 0, nan = 0, inf = 0;
  auto add = [&](double v) {
    if (v != v) return void(++nan);
    if (std::isinf(v)) return void(++inf);
    ++cnt;
    double d = v - mu;
    mu += d / static_cast<double>(cnt);
    m2 += d * (v - mu);
  };
  auto remove = [&](double v) {
    if (v != v) return void(--nan);
    if (std::isinf(v)) return void(--inf);
    --cnt;
    if (cnt == 0) {
      mu = m2 = 0;
      return;
    }
    double d = v - mu;
    mu -= d / static_cast<double>(cnt);
    m2 -= d * (v - mu);
  };
  const int64_t span = std::max<int64_t>(1, W.kb + W.kf + 1);
  int64_t lo = 0, hi = -1;
  for (int64_t k = 0; k < W.n; ++k) {
    int64_t a = W.a(k), e = W.e(k);
    if (k % span == 0) {
      mu = m2 = 0;
      cnt = nan = inf = 0;
      for (int64_t j = a; j <= e; ++j) add(x[j]);
    } else {
      for (int64_t j = hi + 1; j <= e; ++j) add(x[j]);
      for (int64_t j = lo; j < a; ++j) remove(x[j]);
    }
    lo = a;
    hi = e;
    int64_t m = cnt + inf;  // elements counted (Inf counts, NaN only without omit)
    double r;
    if ((nan > 0 && !omit) || inf > 0)
      r = NAN;
    else if (m == 0)
      r = NAN;
    else if (m == 1)
      r = 0;
    else
      r = std::max(0.0, m2) / static_cast<double>(w == 1 ? m : m - 1);
    out[k] = sd ? std::sqrt(r) : r;
  }
}

/// Maximum (or minimum) of each window: positions in a deque with decreasing values.
void mov_ext(const double* x, const Win& W, bool omit, bool is_max, double* out) {
  // The deque as a ring of positions: it never holds more than a window's elements.
  const int64_t cap = W.kb + W.kf + 2;
  std::vector<int64_t> ring(static_cast<size_t>(cap));
  int64_t head = 0, size = 0;
  auto at = [&](int64_t i) -> int64_t& { return ring[(head + i) % cap]; };
  int64_t last_nan = -1;  // position of the latest NaN added
  int64_t hi = -1;
  for (int64_t k = 0; k < W.n; ++k) {
    int64_t a = W.a(k), e = W.e(k);
    for (int64_t j = hi + 1; j <= e; ++j) {
      double v = x[j];
      if (v != v) {
        last_nan = j;
        continue;
      }
      if (is_max)
        while (size > 0 && v >= x[at(size - 1)]) --size;
      else
        while (size > 0 && v <= x[at(size - 1)]) --size;
      at(size++) = j;
    }
    hi = e;
    while (size > 0 && at(0) < a) {
      head = (head + 1) % cap;
      --size;
    }
    if (!omit && last_nan >= a)
      out[k] = NAN;
    else
      out[k] = size == 0 ? NAN : x[at(0)];
  }
}

/// Median of each window: the window's non-NaN values kept sorted.
void mov_median(const double* x, const Win& W, bool omit, double* out) {
  std::vector<double> s;
  s.reserve(static_cast<size_t>(W.kb + W.kf + 1));
  int64_t nan = 0, lo = 0, hi = -1;
  for (int64_t k = 0; k < W.n; ++k) {
    int64_t a = W.a(k), e = W.e(k);
    for (int64_t j = hi + 1; j <= e; ++j) {
      double v = x[j];
      if (v != v) {
        ++nan;
        continue;
      }
      s.insert(std::upper_bound(s.begin(), s.end(), v), v);
    }
    for (int64_t j = lo; j < a; ++j) {
      double v = x[j];
      if (v != v) {
        --nan;
        continue;
      }
      s.erase(std::lower_bound(s.begin(), s.end(), v));
    }
    lo = a;
    hi = e;
    size_t m = s.size();
    if ((nan > 0 && !omit) || m == 0) {
      out[k] = NAN;
    } else if (m % 2) {
      out[k] = s[m / 2];
    } else {
      double l = s[m / 2 - 1], h = s[m / 2];
      out[k] = (std::isinf(l) || std::isinf(h)) ? (l == h ? l : (l + h) / 2) : l + (h - l) / 2;
    }
  }
}

Outputs movfun(Args args, int nargout, Stat st, const char* fname) {
  check_nargin(args, 2, st == Stat::Var || st == Stat::Std ? 8 : 7);
  check_nargout(nargout, 1);
  Tensor x = numeric_arg(args[0], fname);
  MovOpts o = parse_mov(args, fname, st == Stat::Var || st == Stat::Std);
  if (x.is_complex())
    throw_error("matfuse:notAvailable", "%s of complex input is not supported yet.", fname);
  int dim = o.has_dim ? o.dim : first_nonsingleton_dim(x.dims());
  // MATLAB's default options on single or double data: a device may run it (accel/run/window.h).
  if (!o.omit && o.ends == MovOpts::Shrink && st != Stat::Median &&
      (x.cls() == ClassId::Double || x.cls() == ClassId::Single)) {
    static constexpr accel::WindowKind kinds[] = {accel::WindowKind::Sum, accel::WindowKind::Mean,
                                                  accel::WindowKind::Max, accel::WindowKind::Min,
                                                  accel::WindowKind::Var, accel::WindowKind::Std};
    if (auto y = accel::moving_window(kinds[static_cast<int>(st)], x, dim, o.kb, o.kf, o.w))
      return {Value(*y)};
  }
  Tensor w = x.cls() == ClassId::Double ? x : x.to_class(ClassId::Double);
  Lanes L = lanes_of(x.dims(), dim);
  const int64_t n = L.n;
  if (o.ends == MovOpts::Pad) {
    // The pad stands in for every element outside the lane: the padded lane is materialised.
    if (o.kb > (int64_t{1} << 28) || o.kf > (int64_t{1} << 28))
      throw_error("MATLAB:nomem", "Out of memory. The window is too long for a numeric "
                  "'Endpoints' value.");
  } else {
    // Windows are cut at the lane's ends: a window longer than the lane acts as the lane.
    o.kb = std::min(o.kb, n);
    o.kf = std::min(o.kf, n);
  }
  int64_t lo_k = 0, hi_k = n;  // output positions kept
  if (o.ends == MovOpts::Discard) {
    lo_k = std::min<int64_t>(o.kb, n);
    hi_k = std::max<int64_t>(lo_k, n - o.kf);
  }
  const int64_t m = hi_k - lo_k;
  Dims od = x.dims();
  od.set(dim, m);
  od.normalize();
  Tensor out = Tensor::uninit(ClassId::Double, od);
  double* op = out.mutable_data<double>();
  const double* src = w.data<double>();
  // A numeric Endpoints value pads the lane on both sides; the kernels then see full windows.
  const int64_t pb = o.ends == MovOpts::Pad ? o.kb : 0, pf = o.ends == MovOpts::Pad ? o.kf : 0;
  const int64_t ln = n + pb + pf;
  std::vector<double> lane(static_cast<size_t>(ln)), res(static_cast<size_t>(ln));
  std::fill(lane.begin(), lane.begin() + pb, o.padv);
  std::fill(lane.end() - pf, lane.end(), o.padv);
  Win W{ln, o.kb, o.kf};
  for (int64_t b = 0; b < L.post; ++b)
    for (int64_t i = 0; i < L.pre; ++i) {
      const double* xin;
      if (L.pre == 1 && pb == 0 && pf == 0) {
        xin = src + b * n;
      } else {
        for (int64_t k = 0; k < n; ++k) lane[pb + k] = src[(b * n + k) * L.pre + i];
        xin = lane.data();
      }
      double* r =
          L.pre == 1 && pb == 0 && pf == 0 && lo_k == 0 && hi_k == n ? op + b * n : res.data();
      switch (st) {
        case Stat::Sum:
          mov_sum(xin, W, o.omit, false, r);
          break;
        case Stat::Mean:
          mov_sum(xin, W, o.omit, true, r);
          break;
        case Stat::Max:
          mov_ext(xin, W, o.omit, true, r);
          break;
        case Stat::Min:
          mov_ext(xin, W, o.omit, false, r);
          break;
        case Stat::Var:
          mov_var(xin, W, o.omit, o.w, false, r);
          break;
        case Stat::Std:
          mov_var(xin, W, o.omit, o.w, true, r);
          break;
        case Stat::Median:
          mov_median(xin, W, o.omit, r);
          break;
      }
      if (o.ends == MovOpts::Fill) {
        for (int64_t k = 0; k < std::min(o.kb, n); ++k) r[k] = NAN;
        for (int64_t k = std::max<int64_t>(0, n - o.kf); k < n; ++k) r[k] = NAN;
      }
      if (r != op + b * n || L.pre != 1)
        for (int64_t k = lo_k; k < hi_k; ++k) op[(b * m + (k - lo_k)) * L.pre + i] = r[pb + k];
    }
  ClassId rc = float_class(x.cls());
  bool keep =
      (st == Stat::Max || st == Stat::Min || st == Stat::Median) && is_integer_class(x.cls());
  if (keep) rc = x.cls();
  return {Value(rc == ClassId::Double ? out : out.to_class(rc))};
}

#define MF_MOV(NAME, ST) \
  Outputs bi_##NAME(CallContext&, Args a, int n) { return movfun(a, n, Stat::ST, #NAME); }
MF_MOV(movsum, Sum)
MF_MOV(movmean, Mean)
MF_MOV(movmax, Max)
MF_MOV(movmin, Min)
MF_MOV(movvar, Var)
MF_MOV(movstd, Std)
MF_MOV(movmedian, Median)
#undef MF_MOV

}  // namespace

void register_data_mov(Registry& r) {
  r.add("movsum", bi_movsum);
  r.add("movmean", bi_movmean);
  r.add("movmax", bi_movmax);
  r.add("movmin", bi_movmin);
  r.add("movvar", bi_movvar);
  r.add("movstd", bi_movstd);
  r.add("movmedian", bi_movmedian);
}

}  // namespace matfuse::data
