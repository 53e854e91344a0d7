// Reduction kernels: layout, sum, prod, mean, any, all, cumsum. See reduce.h for the contract
// and the documented summation order.
#include <algorithm>
#include <cstring>

#include "runtime/pairwise.h"
#include "runtime/reduce.h"
#include "runtime/reduce_layout.h"
#include "runtime/error.h"

namespace matfuse {
namespace reduce_detail {

Tensor permute_tensor(const Tensor& x, const std::vector<int>& order) {
  const Dims& in = x.dims();
  int nd = static_cast<int>(order.size());
  Dims od;
  for (int k = 0; k < nd; ++k) od.set(k, in[order[k]]);
  if (nd < 2) od.set(1, 1);
  Tensor out = Tensor::uninit(x.cls(), od, x.is_complex());
  int64_t total = x.numel();
  if (total == 0) return out.reshaped(Dims(od).normalize());
  auto st = strides_of(in);
  int eb = x.elem_bytes();
  const char* src = static_cast<const char*>(x.raw());
  char* dst = static_cast<char*>(out.mutable_raw());
  std::vector<int64_t> idx(nd, 0);
  int64_t soff = 0;
  for (int64_t i = 0; i < total; ++i) {
    std::memcpy(dst + i * eb, src + soff * eb, eb);
    for (int k = 0; k < nd; ++k) {  // odometer over result dims
      int64_t s = order[k] < in.ndims() ? st[order[k]] : 0;
      if (++idx[k] < od[k]) { soff += s; break; }
      soff -= s * (idx[k] - 1);
      idx[k] = 0;
    }
  }
  Dims nd2 = od;
  return out.reshaped(nd2.normalize());
}

std::vector<int> sorted_reduce_dims(const std::vector<int>& dims) {
  std::vector<int> sorted = dims;
  std::sort(sorted.begin(), sorted.end());
  for (size_t i = 0; i < sorted.size(); ++i) {
    if (sorted[i] < 0)
      throw_error("MATLAB:getdimarg:invalidDim",
                  "Dimension argument must be a positive integer scalar within indexing range.");
    if (i > 0 && sorted[i] == sorted[i - 1])
      throw_error("MATLAB:getdimarg:vecdimsMustBeUniquePositiveIntegers",
                  "Vector of dimensions must contain unique positive integers.");
  }
  return sorted;
}

Layout make_layout(const Tensor& x, const std::vector<int>& dims) {
  Layout L;
  const Dims& d = x.dims();
  int nd = d.ndims();
  std::vector<bool> red(nd, false);
  for (int k : sorted_reduce_dims(dims))
    if (k < nd) red[k] = true;
  L.out = d;
  for (int k = 0; k < nd; ++k)
    if (red[k]) L.out.set(k, 1);
  L.out.normalize();
  // Reduced dims of size 1 do not matter; find the span of the others.
  int lo = -1, hi = -1;
  for (int k = 0; k < nd; ++k)
    if (red[k] && d[k] != 1) {
      if (lo < 0) lo = k;
      hi = k;
    }
  L.src = x;
  if (lo < 0) {
    L.pre = x.numel();
    L.n = 1;
    L.post = 1;
    return L;
  }
  bool contiguous = true;
  for (int k = lo; k <= hi; ++k)
    if (!red[k] && d[k] != 1) contiguous = false;
  if (!contiguous) {
    std::vector<int> order;
    for (int k = 0; k < nd; ++k)
      if (red[k]) order.push_back(k);
    for (int k = 0; k < nd; ++k)
      if (!red[k]) order.push_back(k);
    L.src = permute_tensor(x, order);
    int nr = 0;
    int64_t n = 1;
    for (int k = 0; k < nd; ++k)
      if (red[k]) { ++nr; n *= d[k]; }
    (void)nr;
    L.pre = 1;
    L.n = n;
    L.post = n == 0 ? 0 : x.numel() / n;
    if (n == 0) {
      L.post = 1;
      for (int k = 0; k < nd; ++k)
        if (!red[k]) L.post *= d[k];
    }
    return L;
  }
  L.pre = 1;
  for (int k = 0; k < lo; ++k) L.pre *= d[k];
  L.n = 1;
  for (int k = lo; k <= hi; ++k) L.n *= d[k];
  L.post = 1;
  for (int k = hi + 1; k < nd; ++k) L.post *= d[k];
  return L;
}

ClassId sum_result_class(ClassId c, int outtype) {
  OutType o = static_cast<OutType>(outtype);
  if (o == OutType::Double) return ClassId::Double;
  // MATLAB's 'default' outtype: double, except that single stays single; integers give
  // double unless 'native' is asked for.
  if (c == ClassId::Double || c == ClassId::Single) return c;
  return o == OutType::Native ? c : ClassId::Double;  // integer, logical, char
}

}  // namespace reduce_detail

using namespace reduce_detail;

int first_nonsingleton_dim(const Dims& d) {
  for (int k = 0; k < d.ndims(); ++k)
    if (d[k] != 1) return k;
  return 0;
}

namespace {

/// Pairwise sums of n rows of `pre` lanes each (row j at x + j*pre) into o[0..pre): the same
/// order as pairwise_sum applied to every lane (blocks of <= 128 rows left to right, longer
/// ranges split at n/2), so a strided reduction gives the bits of a contiguous one and keeps
/// single-precision error logarithmic. scratch holds one lane vector per recursion level.
template <class A>
void pairwise_rows(const A* x, int64_t n, int64_t pre, bool omit, A* o, A* scratch) {
  if (n <= kPairwiseBlock) {
    for (int64_t i = 0; i < pre; ++i) o[i] = A{};
    for (int64_t j = 0; j < n; ++j) {
      const A* row = x + j * pre;
      if (omit) {
        for (int64_t i = 0; i < pre; ++i)
          if (!is_nan_v(row[i])) o[i] += row[i];
      } else {
        for (int64_t i = 0; i < pre; ++i) o[i] += row[i];
      }
    }
    return;
  }
  int64_t h = n / 2;
  pairwise_rows(x, h, pre, omit, o, scratch + pre);
  pairwise_rows(x + h * pre, n - h, pre, omit, scratch, scratch + pre);
  for (int64_t i = 0; i < pre; ++i) o[i] += scratch[i];
}

enum class Kind { Sum, Prod, Mean };

/// Runs sum/prod/mean on a layout whose src has element type A (double, float or complex).
template <class A>
void run_kernel(const Layout& L, Kind kind, bool omit, A* out) {
  const A* x = L.src.template data<A>();
  int64_t pre = L.pre, n = L.n, post = L.post;
  std::vector<int64_t> count;
  std::vector<A> scratch;
  for (int64_t p = 0; p < post; ++p) {
    const A* blk = x + p * n * pre;
    A* o = out + p * pre;
    if (kind == Kind::Prod) {
      for (int64_t i = 0; i < pre; ++i) o[i] = A(1);
      for (int64_t j = 0; j < n; ++j)
        for (int64_t i = 0; i < pre; ++i) {
          A v = blk[j * pre + i];
          if (!(omit && is_nan_v(v))) o[i] *= v;
        }
      continue;
    }
    if (pre == 1) {
      A s = pairwise_sum(blk, n, omit);
      if (kind == Kind::Mean) {
        int64_t c = n;
        if (omit) {
          c = 0;
          for (int64_t j = 0; j < n; ++j) c += !is_nan_v(blk[j]);
        }
        s /= static_cast<decltype(std::abs(s))>(c);
      }
      o[0] = s;
      continue;
    }
    if (scratch.empty()) {
      int levels = 2;
      for (int64_t m = n; m > kPairwiseBlock; m = (m + 1) / 2) ++levels;
      scratch.assign(static_cast<size_t>(levels * pre), A{});
    }
    pairwise_rows(blk, n, pre, omit, o, scratch.data());
    if (omit) {
      count.assign(pre, 0);
      for (int64_t j = 0; j < n; ++j) {
        const A* row = blk + j * pre;
        for (int64_t i = 0; i < pre; ++i) count[i] += !is_nan_v(row[i]);
      }
    }
    if (kind == Kind::Mean)
      for (int64_t i = 0; i < pre; ++i)
        o[i] /= static_cast<decltype(std::abs(o[i]))>(omit ? count[i] : n);
  }
}

Tensor reduce_float(const Tensor& x, const std::vector<int>& dims, Kind kind, ClassId work,
                    bool omit) {
  Tensor src = x.cls() == work ? x : x.to_class(work);
  Layout L = make_layout(src, dims);
  Tensor out = Tensor::uninit(work, L.out, src.is_complex());
  if (work == ClassId::Single) {
    if (src.is_complex())
      run_kernel(L, kind, omit, out.mutable_data<std::complex<float>>());
    else
      run_kernel(L, kind, omit, out.mutable_data<float>());
  } else {
    if (src.is_complex())
      run_kernel(L, kind, omit, out.mutable_data<std::complex<double>>());
    else
      run_kernel(L, kind, omit, out.mutable_data<double>());
  }
  return out.drop_zero_imag();
}

}  // namespace

Tensor sum_dims(const Tensor& x, const std::vector<int>& dims, OutType out, NanFlag nan) {
  ClassId rc = sum_result_class(x.cls(), static_cast<int>(out));
  ClassId work = rc == ClassId::Single ? ClassId::Single : ClassId::Double;
  Tensor r = reduce_float(x, dims, Kind::Sum, work, nan == NanFlag::Omit);
  return rc == work ? r : r.to_class(rc);
}

Tensor sum_dim(const Tensor& x, int dim, OutType out, NanFlag nan) {
  return sum_dims(x, std::vector<int>{dim}, out, nan);
}

Tensor prod_dims(const Tensor& x, const std::vector<int>& dims, OutType out, NanFlag nan) {
  ClassId rc = sum_result_class(x.cls(), static_cast<int>(out));
  ClassId work = rc == ClassId::Single ? ClassId::Single : ClassId::Double;
  Tensor r = reduce_float(x, dims, Kind::Prod, work, nan == NanFlag::Omit);
  return rc == work ? r : r.to_class(rc);
}

Tensor mean_dims(const Tensor& x, const std::vector<int>& dims, OutType out, NanFlag nan) {
  ClassId c = x.cls();
  ClassId rc;
  if (out == OutType::Double) rc = ClassId::Double;
  else if (out == OutType::Native) rc = c;
  else rc = c == ClassId::Single ? ClassId::Single : ClassId::Double;
  if (out == OutType::Native && (c == ClassId::Logical || c == ClassId::Char))
    throw_error("MATLAB:mean:nativeType",
                "Option 'native' is not supported for inputs of type '%s'.",
                std::string(class_name(c)).c_str());
  ClassId work = rc == ClassId::Single ? ClassId::Single : ClassId::Double;
  Tensor r = reduce_float(x, dims, Kind::Mean, work, nan == NanFlag::Omit);
  return rc == work ? r : r.to_class(rc);
}

namespace {

Tensor any_all(const Tensor& x, const std::vector<int>& dims, bool is_any) {
  Layout L = make_layout(x, dims);
  Tensor out = Tensor::uninit(ClassId::Logical, L.out);
  bool* o = out.mutable_data<bool>();
  bool cplx = x.is_complex();
  dispatch_class(L.src.cls(), [&](auto tag) {
    using T = decltype(tag);
    const T* p = L.src.template data<T>();
    int w = cplx ? 2 : 1;
    auto truth = [&](int64_t e) -> int {  // 1 nonzero, 0 zero, -1 NaN (any ignores NaN)
      T re = p[e * w];
      bool nz = re != T{} || (cplx && p[e * w + 1] != T{});
      if constexpr (std::is_floating_point_v<T>) {
        if (is_any && (re != re || (cplx && p[e * w + 1] != p[e * w + 1]))) return -1;
      }
      return nz ? 1 : 0;
    };
    if (L.pre > 1) {  // strided: reduced axis outermost, reads in memory order
      for (int64_t b = 0; b < L.post; ++b) {
        bool* ob = o + b * L.pre;
        for (int64_t i = 0; i < L.pre; ++i) ob[i] = !is_any;
        for (int64_t j = 0; j < L.n; ++j)
          for (int64_t i = 0; i < L.pre; ++i) {
            int t = truth((b * L.n + j) * L.pre + i);
            if (is_any && t == 1) ob[i] = true;
            if (!is_any && t == 0) ob[i] = false;
          }
      }
      return;
    }
    for (int64_t b = 0; b < L.post; ++b)
      for (int64_t i = 0; i < L.pre; ++i) {
        bool r = !is_any;
        for (int64_t j = 0; j < L.n; ++j) {
          int t = truth((b * L.n + j) * L.pre + i);
          if (is_any && t == 1) { r = true; break; }
          if (!is_any && t == 0) { r = false; break; }
        }
        o[b * L.pre + i] = r;
      }
  });
  return out;
}

}  // namespace

Tensor any_dims(const Tensor& x, const std::vector<int>& dims) { return any_all(x, dims, true); }
Tensor all_dims(const Tensor& x, const std::vector<int>& dims) { return any_all(x, dims, false); }

namespace {

template <class A>
void cumsum_kernel(const Layout& L, const A* x, A* o, bool reverse, bool omit) {
  if (L.pre > 1) {
    // Lanes of a block advanced together: each row of the block read and written in order.
    for (int64_t b = 0; b < L.post; ++b) {
      const int64_t base = b * L.n * L.pre;
      for (int64_t jj = 0; jj < L.n; ++jj) {
        const int64_t j = reverse ? L.n - 1 - jj : jj;
        const A* row = x + base + j * L.pre;
        A* orow = o + base + j * L.pre;
        const A* prev = jj == 0 ? nullptr : o + base + (reverse ? j + 1 : j - 1) * L.pre;
        for (int64_t i = 0; i < L.pre; ++i) {
          A v = omit && is_nan_v(row[i]) ? A{} : row[i];
          orow[i] = (prev ? prev[i] : A{}) + v;
        }
      }
    }
    return;
  }
  for (int64_t b = 0; b < L.post; ++b) {
    int64_t base = b * L.n * L.pre;
    for (int64_t i = 0; i < L.pre; ++i) {
      A s{};
      for (int64_t jj = 0; jj < L.n; ++jj) {
        int64_t j = reverse ? L.n - 1 - jj : jj;
        int64_t e = base + j * L.pre + i;
        if (!(omit && is_nan_v(x[e]))) s += x[e];
        o[e] = s;
      }
    }
  }
}

}  // namespace

Tensor cumsum_dim(const Tensor& x, int dim, bool reverse, NanFlag nan) {
  // cumsum has no outtype: integer classes are kept (saturating), logical and char give double.
  ClassId rc = sum_result_class(
      x.cls(), static_cast<int>(is_integer_class(x.cls()) ? OutType::Native : OutType::Default));
  ClassId work = rc == ClassId::Single ? ClassId::Single : ClassId::Double;
  Tensor src = x.cls() == work ? x : x.to_class(work);
  Layout L = make_layout(src, {dim});
  Tensor out = Tensor::uninit(work, x.dims(), src.is_complex());
  bool omit = nan == NanFlag::Omit;
  if (work == ClassId::Single) {
    if (src.is_complex())
      cumsum_kernel(L, src.data<std::complex<float>>(), out.mutable_data<std::complex<float>>(),
                    reverse, omit);
    else
      cumsum_kernel(L, src.data<float>(), out.mutable_data<float>(), reverse, omit);
  } else {
    if (src.is_complex())
      cumsum_kernel(L, src.data<std::complex<double>>(),
                    out.mutable_data<std::complex<double>>(), reverse, omit);
    else
      cumsum_kernel(L, src.data<double>(), out.mutable_data<double>(), reverse, omit);
  }
  out = out.drop_zero_imag();
  return rc == work ? out : out.to_class(rc);
}

Value reduce_sum(const Value& x) {
  Tensor t = x.tensor();
  if (t.dims() == Dims(0, 0)) return Value(sum_dims(t, {0, 1}));
  return Value(sum_dim(t, first_nonsingleton_dim(t.dims())));
}

}  // namespace matfuse
