// min/max reductions and two-argument min/max (the eager engine of max/min, used by the builtins
// and by accel/run/eager.cc). See reduce.h for the contract.
#include <algorithm>
#include <cmath>
#include <limits>

#include "runtime/reduce.h"
#include "runtime/reduce_layout.h"
#include "runtime/error.h"
#include "runtime/scalar_ops.h"

namespace matfuse {

using namespace reduce_detail;

namespace {

/// Strict "a is better than b" for min/max on real values (no NaN involved).
template <class T>
bool better(T a, T b, bool is_max) {
  return is_max ? a > b : a < b;
}

/// Complex ordering: abs first, then angle (MATLAB).
template <class R>
bool better_c(const std::complex<R>& a, const std::complex<R>& b, bool is_max) {
  R aa = std::abs(a), ab = std::abs(b);
  if (aa != ab) return is_max ? aa > ab : aa < ab;
  R ga = std::arg(a), gb = std::arg(b);
  return is_max ? ga > gb : ga < gb;
}

template <class T>
bool nan_of(const T& v) {
  if constexpr (std::is_floating_point_v<T>) return v != v;
  else return false;
}
template <class R>
bool nan_of(const std::complex<R>& v) {
  return is_nan_v(v);
}

/// Lexicographic "a is better than b" on (first key, second key).
inline bool better_keys(double a1, double a2, double b1, double b2, bool is_max) {
  if (a1 != b1) return is_max ? a1 > b1 : a1 < b1;
  return is_max ? a2 > b2 : a2 < b2;
}

template <class T>
bool better_any(const T& a, const T& b, bool is_max, MinMaxCompare cmp = MinMaxCompare::Auto) {
  if constexpr (std::is_same_v<T, std::complex<float>> || std::is_same_v<T, std::complex<double>>) {
    if (cmp == MinMaxCompare::Real)
      return better_keys(a.real(), a.imag(), b.real(), b.imag(), is_max);
    return better_c(a, b, is_max);
  } else {
    if (cmp == MinMaxCompare::Abs) {
      // abs, then angle: pi for a negative value, 0 otherwise.
      const double da = static_cast<double>(a), db = static_cast<double>(b);
      return better_keys(std::fabs(da), da < 0 ? M_PI : 0.0, std::fabs(db), db < 0 ? M_PI : 0.0,
                         is_max);
    }
    return better(a, b, is_max);
  }
}

/// Reduces one slice of n elements at stride s; returns the chosen position.
template <class T>
int64_t pick(const T* x, int64_t n, int64_t s, bool is_max, bool include_nan, MinMaxCompare cmp) {
  int64_t best = -1, first_nan = -1;
  for (int64_t j = 0; j < n; ++j) {
    const T& v = x[j * s];
    if (nan_of(v)) {
      if (first_nan < 0) {
        first_nan = j;
        if (include_nan) return j;
      }
      continue;
    }
    if (best < 0 || better_any(v, x[best * s], is_max, cmp)) best = j;
  }
  return best >= 0 ? best : first_nan;
}

/// pick() for a contiguous real slice, in one pass over memory: blocks of 2048 elements each
/// reduced branch-free (four accumulators, vectorised: maxpd/minpd), and only a block that
/// improves on the best so far is scanned again (in cache) for the first position of its
/// extreme, so ties keep the earliest position. NaN never becomes the extreme; NaN rules as
/// pick().
template <class T>
int64_t pick_contiguous(const T* x, int64_t n, bool is_max, bool include_nan) {
  constexpr int64_t kBlock = 2048;
  T best{};
  int64_t best_pos = -1;
  for (int64_t b0 = 0; b0 < n; b0 += kBlock) {
    const int64_t b1 = std::min(n, b0 + kBlock);
    T start = best;
    int64_t j = b0;
    if (best_pos < 0) {  // start from a number of this block (a NaN start would stick)
      while (j < b1 && nan_of(x[j])) ++j;
      if (j == b1) continue;
      start = x[j];
    }
    T m[4] = {start, start, start, start};
    if (is_max) {
      for (; j + 4 <= b1; j += 4)
        for (int u = 0; u < 4; ++u) m[u] = x[j + u] > m[u] ? x[j + u] : m[u];
      for (; j < b1; ++j) m[0] = x[j] > m[0] ? x[j] : m[0];
    } else {
      for (; j + 4 <= b1; j += 4)
        for (int u = 0; u < 4; ++u) m[u] = x[j + u] < m[u] ? x[j + u] : m[u];
      for (; j < b1; ++j) m[0] = x[j] < m[0] ? x[j] : m[0];
    }
    T bb = m[0];
    for (int u = 1; u < 4; ++u) bb = is_max ? (m[u] > bb ? m[u] : bb) : (m[u] < bb ? m[u] : bb);
    if (best_pos < 0 || (is_max ? bb > best : bb < best)) {
      for (int64_t k = b0; k < b1; ++k)
        if (x[k] == bb) {
          best_pos = k;
          break;
        }
      best = bb;
    }
  }
  if (include_nan || best_pos < 0)
    for (int64_t k = 0; k < n; ++k)
      if (nan_of(x[k])) return k;  // the first NaN: included, or every element is NaN
  return best_pos < 0 ? 0 : best_pos;
}

template <class T>
void minmax_kernel(const Layout& L, T* out, double* idx, bool is_max, bool include_nan,
                   MinMaxCompare cmp) {
  const T* x = L.src.template data<T>();
  if (L.pre > 1) {
    // Strided reduction: walk the reduced axis outermost so memory is read in order; per lane
    // the same rule as pick(): first extreme non-NaN, else first NaN (first NaN when included).
    std::vector<int64_t> best(L.pre), first_nan(L.pre);
    for (int64_t b = 0; b < L.post; ++b) {
      const T* blk = x + b * L.n * L.pre;
      std::fill(best.begin(), best.end(), -1);
      std::fill(first_nan.begin(), first_nan.end(), -1);
      for (int64_t j = 0; j < L.n; ++j) {
        const T* row = blk + j * L.pre;
        for (int64_t i = 0; i < L.pre; ++i) {
          const T& v = row[i];
          if (nan_of(v)) {
            if (first_nan[i] < 0) first_nan[i] = j;
            continue;
          }
          if (best[i] < 0 || better_any(v, blk[best[i] * L.pre + i], is_max, cmp)) best[i] = j;
        }
      }
      for (int64_t i = 0; i < L.pre; ++i) {
        int64_t j = (first_nan[i] >= 0 && (include_nan || best[i] < 0)) ? first_nan[i] : best[i];
        out[b * L.pre + i] = blk[j * L.pre + i];
        if (idx) idx[b * L.pre + i] = static_cast<double>(j + 1);
      }
    }
    return;
  }
  for (int64_t b = 0; b < L.post; ++b)
    for (int64_t i = 0; i < L.pre; ++i) {
      const T* base = x + b * L.n * L.pre + i;
      int64_t j;
      if constexpr (std::is_arithmetic_v<T>)
        j = cmp == MinMaxCompare::Abs ? pick(base, L.n, L.pre, is_max, include_nan, cmp)
                                      : pick_contiguous(base, L.n, is_max, include_nan);
      else
        j = pick(base, L.n, L.pre, is_max, include_nan, cmp);
      out[b * L.pre + i] = base[j * L.pre];
      if (idx) idx[b * L.pre + i] = static_cast<double>(j + 1);
    }
}

}  // namespace

Tensor minmax_dims(const Tensor& x0, const std::vector<int>& dims, bool is_max, NanFlag nan,
                   Tensor* index, MinMaxCompare cmp) {
  Tensor x = x0.cls() == ClassId::Char ? x0.to_class(ClassId::Double) : x0;
  Layout L = make_layout(x, dims);
  if (L.n == 0) {
    // Empty slices: the reduced dimension keeps its length 0 (Octave/MATLAB give empty).
    Dims od = x.dims();
    for (int k : dims)
      if (k < od.ndims() && od[k] != 0) od.set(k, 1);
    od.normalize();
    if (index) *index = Tensor::zeros(ClassId::Double, od);
    return Tensor::zeros(x.cls(), od, x.is_complex());
  }
  Tensor out = Tensor::uninit(x.cls(), L.out, x.is_complex());
  Tensor id;
  double* ip = nullptr;
  if (index) {
    id = Tensor::uninit(ClassId::Double, L.out);
    ip = id.mutable_data<double>();
  }
  bool inc = nan == NanFlag::Include;
  if (x.is_complex()) {
    if (x.cls() == ClassId::Single)
      minmax_kernel(L, out.mutable_data<std::complex<float>>(), ip, is_max, inc, cmp);
    else if (x.cls() == ClassId::Double)
      minmax_kernel(L, out.mutable_data<std::complex<double>>(), ip, is_max, inc, cmp);
    else
      throw_error("matfuse:notAvailable", "min/max of complex integers is not supported yet.");
  } else {
    dispatch_class(x.cls(), [&](auto tag) {
      using T = decltype(tag);
      minmax_kernel(L, out.mutable_data<T>(), ip, is_max, inc, cmp);
    });
  }
  if (index) *index = id;
  return out;
}

namespace {

/// Index map for implicit expansion: visits every result element with its a and b offsets.
template <class F>
void for_each_broadcast(const Dims& da, const Dims& db, const Dims& dr, F&& f) {
  int nd = dr.ndims();
  auto sa = strides_of(da), sb = strides_of(db);
  std::vector<int64_t> stepa(nd), stepb(nd), idx(nd, 0);
  for (int k = 0; k < nd; ++k) {
    stepa[k] = (k < da.ndims() && da[k] != 1) ? sa[k] : 0;
    stepb[k] = (k < db.ndims() && db[k] != 1) ? sb[k] : 0;
  }
  int64_t total = dr.numel(), oa = 0, ob = 0;
  for (int64_t i = 0; i < total; ++i) {
    f(i, oa, ob);
    for (int k = 0; k < nd; ++k) {
      if (++idx[k] < dr[k]) { oa += stepa[k]; ob += stepb[k]; break; }
      oa -= stepa[k] * (dr[k] - 1);
      ob -= stepb[k] * (dr[k] - 1);
      idx[k] = 0;
    }
  }
}

}  // namespace

Tensor minmax_binary(const Tensor& a0, const Tensor& b0, bool is_max, NanFlag nan,
                     MinMaxCompare cmp) {
  ClassId rc;
  if (a0.cls() == ClassId::Logical && b0.cls() == ClassId::Logical) rc = ClassId::Logical;
  else {
    ClassId ca = a0.cls() == ClassId::Char ? ClassId::Double : a0.cls();
    ClassId cb = b0.cls() == ClassId::Char ? ClassId::Double : b0.cls();
    rc = class_of_binary(ca, cb);
    if (rc == ClassId::Char || rc == ClassId::Logical) rc = ClassId::Double;
  }
  Dims dr = broadcast_dims(a0.dims(), b0.dims());
  bool cplx = a0.is_complex() || b0.is_complex();
  bool inc = nan == NanFlag::Include;
  if (cplx) {
    if (is_integer_class(rc))
      throw_error("matfuse:notAvailable", "min/max of complex integers is not supported yet.");
    Tensor a = a0.to_class(rc).to_complex(), b = b0.to_class(rc).to_complex();
    Tensor out = Tensor::uninit(rc, dr, true);
    auto run = [&](auto tag) {
      using C = decltype(tag);
      const C* pa = a.data<C>();
      const C* pb = b.data<C>();
      C* po = out.mutable_data<C>();
      for_each_broadcast(a.dims(), b.dims(), dr, [&](int64_t i, int64_t ia, int64_t ib) {
        const C& u = pa[ia];
        const C& v = pb[ib];
        bool nu = is_nan_v(u), nv = is_nan_v(v);
        if (nu || nv) po[i] = inc ? (nu ? u : v) : (nu ? v : u);
        else po[i] = better_any(v, u, is_max, cmp) ? v : u;
      });
    };
    if (rc == ClassId::Single) run(std::complex<float>{});
    else run(std::complex<double>{});
    return out.drop_zero_imag();
  }
  Tensor out = Tensor::uninit(rc, dr);
  if (is_integer_class(rc) && rc != ClassId::Int64 && rc != ClassId::UInt64 &&
      cmp != MinMaxCompare::Abs) {
    // Compare in double (exact for these classes), ignoring NaN operands, then saturate.
    dispatch_class(rc, [&](auto tag) {
      using T = decltype(tag);
      T* po = out.mutable_data<T>();
      for_each_broadcast(a0.dims(), b0.dims(), dr, [&](int64_t i, int64_t ia, int64_t ib) {
        double u = a0.get_double(ia), v = b0.get_double(ib);
        double r = u != u ? v : v != v ? u : (is_max ? (v > u ? v : u) : (v < u ? v : u));
        po[i] = saturate_cast<T>(r);
      });
    });
    return out;
  }
  Tensor a = a0.to_class(rc), b = b0.to_class(rc);
  dispatch_class(rc, [&](auto tag) {
    using T = decltype(tag);
    const T* pa = a.data<T>();
    const T* pb = b.data<T>();
    T* po = out.mutable_data<T>();
    for_each_broadcast(a.dims(), b.dims(), dr, [&](int64_t i, int64_t ia, int64_t ib) {
      T u = pa[ia], v = pb[ib];
      if constexpr (std::is_floating_point_v<T>) {
        if (!inc && cmp != MinMaxCompare::Abs) {  // the shared scalar semantics (scalar_ops.h)
          po[i] = is_max ? mf_max(u, v) : mf_min(u, v);
          return;
        }
      }
      bool nu = nan_of(u), nv = nan_of(v);
      if (nu || nv) po[i] = inc ? (nu ? u : v) : (nu ? v : u);
      else po[i] = better_any(v, u, is_max, cmp) ? v : u;
    });
  });
  return out;
}

}  // namespace matfuse
