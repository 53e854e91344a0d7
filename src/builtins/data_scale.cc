// Scaling statistics: zscore vecnorm.
//
// [Z, mu, sigma] = zscore(X [, flag [, dim]]): Z = (X - mean(X, dim)) ./ std(X, flag, dim), along
// the first non-singleton dimension by default ('all' or a vecdim also accepted for dim);
// flag 0 (default, N-1) or 1 (N); a zero sigma divides by 1 instead (MATLAB). NaN propagates.
// Single stays single, integer/logical/char give double.
// vecnorm(A [, p [, dim]]): the p-norm of each vector along dim (default: first non-singleton):
// p = 2 (default), any p > 0, or Inf (largest |a|). Complex values use |a|. The 2-norm is
// rescaled by the largest |a| when the plain sum of squares overflows or underflows.
#include <algorithm>
#include <cmath>
#include <complex>

#include "accel/capture/capture.h"
#include "builtins/data_util.h"
#include "runtime/reduce_layout.h"

namespace matfuse::data {
namespace {

using reduce_detail::Layout;
using reduce_detail::make_layout;

Outputs bi_zscore(CallContext&, Args args, int nargout) {
  check_nargin(args, 1, 3);
  check_nargout(nargout, 3);
  Tensor x = numeric_arg(args[0], "zscore");
  if (x.is_complex())
    throw_error("matfuse:notAvailable", "zscore of complex input is not supported yet.");
  int flag = 0;
  if (args.size() > 1 && !args[1].is_empty()) {
    double f = args[1].numel() == 1 ? args[1].to_double("flag") : -1;
    if (f != 0 && f != 1) throw_error("MATLAB:zscore:BadFlag", "FLAG must be 0 or 1.");
    flag = static_cast<int>(f);
  }
  DimSpec ds;
  if (args.size() > 2) {
    if (is_option(args[2], "all"))
      ds.all = true;
    else if (args[2].numel() > 1 && !args[2].dims().is_vector())
      throw_error("MATLAB:getdimarg:invalidDim",
                  "Dimension argument must be a positive integer scalar, a vector of unique "
                  "positive integers, or 'all'.");
    else
      ds.dims = vecdim_arg(args[2]);
    ds.given = true;
  }
  if (x.is_empty()) {
    ClassId rc = float_class(x.cls());
    Tensor e = Tensor::zeros(rc, x.dims());
    return {Value(e), Value(e), Value(e)};
  }
  std::vector<int> dims = ds.resolve(x.dims());
  // Real single/double data: graph ops where x is, Z = (x - mu) ./ s with s = std(x, flag,
  // dims) and a zero s replaced by 1 (the mean and the deviations are shared nodes).
  if (x.cls() == ClassId::Single || x.cls() == ClassId::Double) {
    auto mu = accel::capture_reduce(accel::ReduceKind::Mean, x, dims, false,
                                    accel::ReduceOut::Default);
    auto sg = accel::capture_var(x, dims, flag, true);
    if (mu && sg) {
      auto zero = accel::capture_binary(OpId::Eq, *sg, Tensor::scalar(0.0));
      auto s1 = zero ? accel::capture_binary(OpId::Add, *sg, *zero) : std::nullopt;
      auto dev = accel::capture_binary(OpId::Sub, x, *mu);
      auto z = s1 && dev ? accel::capture_binary(OpId::Div, *dev, *s1) : std::nullopt;
      if (z) return {Value(std::move(*z)), Value(std::move(*mu)), Value(std::move(*sg))};
    }
  }
  Tensor xd = x.cls() == ClassId::Double ? x : x.to_class(ClassId::Double);
  Layout L = make_layout(xd, dims);
  Tensor mu = Tensor::uninit(ClassId::Double, L.out), sg = Tensor::uninit(ClassId::Double, L.out);
  double* mp = mu.mutable_data<double>();
  double* sp = sg.mutable_data<double>();
  const double* s = L.src.data<double>();
  // Z has x's dims; the layout may be a permutation, so Z is written in the layout's order and
  // the layout's element order equals x's whenever the reduced dims are adjacent (the common
  // case); otherwise Z is computed by broadcasting below.
  for (int64_t b = 0; b < L.post; ++b)
    for (int64_t i = 0; i < L.pre; ++i) {
      const double* base = s + b * L.n * L.pre + i;
      double sum = 0;
      for (int64_t k = 0; k < L.n; ++k) sum += base[k * L.pre];
      double m = sum / static_cast<double>(L.n), ss = 0;
      for (int64_t k = 0; k < L.n; ++k) {
        double d = base[k * L.pre] - m;
        ss += d * d;
      }
      double n = static_cast<double>(L.n);
      double var = flag == 1 || L.n == 1 ? ss / n : ss / (n - 1);
      if (L.n == 1 && !std::isfinite(m)) var = NAN;
      mp[b * L.pre + i] = m;
      sp[b * L.pre + i] = std::sqrt(var);
    }
  // Z = (x - mu) ./ sigma0 with broadcasting of the reduced dims.
  const Dims& xdims = x.dims();
  Tensor z = Tensor::uninit(ClassId::Double, xdims);
  double* zp = z.mutable_data<double>();
  const double* xp = xd.data<double>();
  const Dims& od = mu.dims();
  const int nd = std::max(xdims.ndims(), od.ndims());
  std::vector<int64_t> idx(static_cast<size_t>(nd), 0), ostr(static_cast<size_t>(nd), 0);
  int64_t acc = 1;
  for (int k = 0; k < nd; ++k) {
    ostr[k] = od[k] == 1 ? 0 : acc;
    acc *= od[k];
  }
  int64_t o = 0;
  for (int64_t e = 0; e < xd.numel(); ++e) {
    double sd = sp[o];
    zp[e] = (xp[e] - mp[o]) / (sd == 0 ? 1.0 : sd);
    for (int k = 0; k < nd; ++k) {  // advance the multi-index
      if (++idx[k] < xdims[k]) {
        o += ostr[k];
        break;
      }
      o -= ostr[k] * (xdims[k] - 1);
      idx[k] = 0;
    }
  }
  ClassId rc = float_class(x.cls());
  auto fin = [&](const Tensor& t) { return Value(rc == ClassId::Double ? t : t.to_class(rc)); };
  Outputs out{fin(z)};
  if (nargout > 1) out.push_back(fin(mu));
  if (nargout > 2) out.push_back(fin(sg));
  return out;
}

Outputs bi_vecnorm(CallContext&, Args args, int nargout) {
  check_nargin(args, 1, 3);
  check_nargout(nargout, 1);
  Tensor x = numeric_arg(args[0], "vecnorm");
  double p = 2;
  if (args.size() > 1 && !args[1].is_empty()) {
    p = args[1].to_double("p");
    if (!(p > 0))
      throw_error("MATLAB:vecnorm:unknownNorm",
                  "The only accepted norm types are positive real scalars and Inf.");
  }
  int dim = args.size() > 2 ? dim_arg(args[2]) : first_nonsingleton_dim(x.dims());
  // The 2-norm of real data is a composition of graph ops (runs where x is).
  if (p == 2 && dim < x.dims().ndims() && x.dims()[dim] > 1)
    if (auto lazy = accel::capture_norm2(x, {dim})) return {Value(std::move(*lazy))};
  Tensor xd = x.cls() == ClassId::Double ? x : x.to_class(ClassId::Double);
  Layout L = make_layout(xd, {dim});
  Tensor out = Tensor::uninit(ClassId::Double, L.out);
  double* op = out.mutable_data<double>();
  const bool cx = xd.is_complex();
  const double* rp = cx ? nullptr : L.src.data<double>();
  const std::complex<double>* cp = cx ? L.src.data<std::complex<double>>() : nullptr;
  auto mag = [&](int64_t e) { return cx ? std::abs(cp[e]) : std::fabs(rp[e]); };
  for (int64_t b = 0; b < L.post; ++b)
    for (int64_t i = 0; i < L.pre; ++i) {
      const int64_t base = b * L.n * L.pre + i;
      double r;
      if (std::isinf(p)) {
        r = 0;
        for (int64_t k = 0; k < L.n; ++k) {
          double v = mag(base + k * L.pre);
          if (v != v) {
            r = v;
            break;
          }
          r = std::max(r, v);
        }
      } else if (p == 2) {
        double ss = 0;
        for (int64_t k = 0; k < L.n; ++k) {
          double v = mag(base + k * L.pre);
          ss += v * v;
        }
        r = std::sqrt(ss);
        if ((std::isinf(r) || (r < 1e-150 && r > 0)) && L.n > 0) {  // rescale
          double mx = 0;
          for (int64_t k = 0; k < L.n; ++k) mx = std::max(mx, mag(base + k * L.pre));
          if (mx > 0 && std::isfinite(mx)) {
            ss = 0;
            for (int64_t k = 0; k < L.n; ++k) {
              double v = mag(base + k * L.pre) / mx;
              ss += v * v;
            }
            r = mx * std::sqrt(ss);
          }
        }
      } else {
        double ss = 0;
        for (int64_t k = 0; k < L.n; ++k) ss += std::pow(mag(base + k * L.pre), p);
        r = std::pow(ss, 1 / p);
      }
      op[b * L.pre + i] = r;
    }
  ClassId rc = float_class(x.cls());
  return {Value(rc == ClassId::Double ? out : out.to_class(rc))};
}

}  // namespace

void register_data_scale(Registry& r) {
  r.add("zscore", bi_zscore);
  r.add("vecnorm", bi_vecnorm);
}

}  // namespace matfuse::data
