// Builtins of the "signal" family: conv2 (two-dimensional convolution).
//
// conv2(A, B [, shape]): full 2-D convolution, size [ma+mb-1, na+nb-1]; conv2(u, v, A [, shape])
// convolves the columns of A with the vector u, then the rows with the vector v. shape 'full'
// (default), 'same' (the central part, size of A) or 'valid' (the parts computed without zero
// padding, size max([ma-mb+1, na-nb+1], 0)). Single when an input is single; complex inputs
// give complex results. Direct sums: each kernel element adds a scaled copy of A's columns to
// the output (contiguous inner loops).
#include <algorithm>
#include <complex>

#include "builtins/signal_detail.h"

namespace matfuse::sig {
namespace {

/// Full 2-D convolution of a (ma x na) and b (mb x nb), column-major.
template <class T>
std::vector<T> conv2_full(const std::vector<T>& a, int64_t ma, int64_t na, const std::vector<T>& b,
                          int64_t mb, int64_t nb) {
  const int64_t mc = ma + mb - 1, nc = na + nb - 1;
  std::vector<T> c(static_cast<size_t>(std::max<int64_t>(mc, 0) * std::max<int64_t>(nc, 0)), T(0));
  if (ma == 0 || na == 0 || mb == 0 || nb == 0) return c;
  for (int64_t l = 0; l < nb; ++l)
    for (int64_t k = 0; k < mb; ++k) {
      const T w = b[l * mb + k];
      if (w == T(0)) continue;
      for (int64_t j = 0; j < na; ++j) {
        const T* src = a.data() + j * ma;
        T* dst = c.data() + (j + l) * mc + k;
        for (int64_t i = 0; i < ma; ++i) dst[i] += w * src[i];
      }
    }
  return c;
}

/// Rows [r0, r0+m) and columns [c0, c0+n) of a full result (mc rows).
template <class T>
std::vector<T> crop(const std::vector<T>& c, int64_t mc, int64_t r0, int64_t c0, int64_t m,
                    int64_t n) {
  std::vector<T> o(static_cast<size_t>(m * n));
  for (int64_t j = 0; j < n; ++j)
    for (int64_t i = 0; i < m; ++i) o[j * m + i] = c[(c0 + j) * mc + r0 + i];
  return o;
}

Outputs bi_conv2(CallContext&, Args args, int nargout) {
  check_nargin(args, 2, 4);
  check_nargout(nargout, 1);
  std::string shape = "full";
  size_t nnum = args.size();
  if (args.back().is_text()) {
    shape = lower_text(args.back());
    --nnum;
    if (shape != "full" && shape != "same" && shape != "valid")
      throw_error("MATLAB:conv2:unknownShapeParameter", "Unknown shape parameter.");
  }
  if (nnum < 2) throw_error("MATLAB:minrhs", "Not enough input arguments.");
  // Four arguments: the fourth is the shape (conv2(u, v, A, shape)); a fourth array would be
  // read as the kernel of a two-array call.
  if (nnum > 3) throw_error("MATLAB:conv2:unknownShapeParameter", "Unknown shape parameter.");
  std::vector<Tensor> t;
  for (size_t i = 0; i < nnum; ++i) {
    t.push_back(operand(args[i], "conv2"));
    if (t.back().dims().ndims() > 2)
      throw_error("MATLAB:conv2:inputsMustBe2D", "N-D arrays are not supported.");
  }
  const Tensor& A = t.back();
  ClassId c = result_class({&t[0], &t[1], nnum == 3 ? &t[2] : nullptr});
  bool cplx = false;
  for (const Tensor& x : t) cplx = cplx || x.is_complex();
  const int64_t ma = A.dims().rows(), na = A.dims().cols();
  int64_t mb, nb;
  if (nnum == 3) {
    if (!t[0].dims().is_vector() && t[0].numel() != 0)
      throw_error("MATLAB:conv2:firstInputsMustBeVectors", "First two inputs must be vectors.");
    mb = t[0].numel();
    nb = t[1].numel();
  } else {
    mb = t[0].dims().rows();
    nb = t[0].dims().cols();
  }
  auto separable = [&](auto tag) {  // columns with u, then rows with v
    using T = decltype(tag);
    std::vector<T> tmp = conv2_full(elems<T>(A), ma, na, elems<T>(t[0]), mb, 1);
    return conv2_full(tmp, ma + mb - 1, na, elems<T>(t[1]), 1, nb);
  };
  // conv2(A, B): A is the first argument and B the kernel.
  int64_t am = nnum == 3 ? ma : t[0].dims().rows(), an = nnum == 3 ? na : t[0].dims().cols();
  int64_t bm = nnum == 3 ? mb : t[1].dims().rows(), bn = nnum == 3 ? nb : t[1].dims().cols();
  auto finish = [&](auto full) {
    using T = typename decltype(full)::value_type;
    const int64_t mc = am + bm - 1, nc = an + bn - 1;
    std::vector<T> out;
    int64_t m = mc, n = nc;
    if (am == 0 || an == 0 || bm == 0 || bn == 0) {
      m = shape == "same"    ? am
          : shape == "valid" ? std::max<int64_t>(am - bm + 1, 0)
                             : std::max<int64_t>(mc, 0);
      n = shape == "same"    ? an
          : shape == "valid" ? std::max<int64_t>(an - bn + 1, 0)
                             : std::max<int64_t>(nc, 0);
      out.assign(static_cast<size_t>(m * n), T(0));
    } else if (shape == "full") {
      out = std::move(full);
    } else if (shape == "same") {
      m = am;
      n = an;
      out = crop(full, mc, bm / 2, bn / 2, m, n);
    } else {
      m = std::max<int64_t>(am - bm + 1, 0);
      n = std::max<int64_t>(an - bn + 1, 0);
      out = m && n ? crop(full, mc, bm - 1, bn - 1, m, n) : std::vector<T>();
    }
    return Value(make(Dims(m, n), out, c));
  };
  if (nnum == 2) {
    // conv2(A, B) = full convolution with B as the kernel.
    auto go = [&](auto tag) {
      using T = decltype(tag);
      return finish(conv2_full(elems<T>(t[0]), am, an, elems<T>(t[1]), bm, bn));
    };
    return {cplx ? go(cd{}) : go(double{})};
  }
  return {cplx ? finish(separable(cd{})) : finish(separable(double{}))};
}

}  // namespace

void register_conv2(Registry& r) { r.add("conv2", bi_conv2); }

}  // namespace matfuse::sig
