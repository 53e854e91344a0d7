// norm(x, p) of vectors and matrices (see norm.h).
#include "builtins/norm.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

#include "builtins/lapack_inc.h"
#include "runtime/error.h"
#include "runtime/reduce.h"

namespace matfuse {

namespace {

/// Vector p-norm in double precision with scaling by the largest magnitude (avoids overflow).
double vector_norm(const std::vector<double>& m, double p) {
  bool has_nan = false;
  double big = 0, small = std::numeric_limits<double>::infinity();
  for (double v : m) {
    if (v != v) has_nan = true;
    else {
      big = std::max(big, v);
      small = std::min(small, v);
    }
  }
  if (has_nan) return std::nan("");
  if (m.empty()) return 0;
  if (std::isinf(p)) return p > 0 ? big : small;
  if (big == 0) return 0;
  if (std::isinf(big)) return p > 0 ? big : 0;
  if (p == 1) {
    double s = 0;
    for (double v : m) s += v;
    return s;
  }
  double s = 0;
  for (double v : m) s += std::pow(v / big, p);
  return big * std::pow(s, 1.0 / p);
}

double matrix_two_norm(const Tensor& x) {
  lapack_int m = static_cast<lapack_int>(x.dims().rows());
  lapack_int n = static_cast<lapack_int>(x.dims().cols());
  lapack_int k = std::min(m, n);
  std::vector<double> s(k > 0 ? k : 1);
  std::vector<double> superb(k > 1 ? k : 1);
  lapack_int info = 0;
  if (x.is_complex()) {
    Tensor c = x.to_class(ClassId::Double);
    std::vector<std::complex<double>> a(c.data<std::complex<double>>(),
                                        c.data<std::complex<double>>() + x.numel());
    info = LAPACKE_zgesvd(LAPACK_COL_MAJOR, 'N', 'N', m, n, a.data(), m, s.data(), nullptr, 1,
                          nullptr, 1, superb.data());
  } else {
    Tensor c = x.to_class(ClassId::Double);
    std::vector<double> a(c.data<double>(), c.data<double>() + x.numel());
    info = LAPACKE_dgesvd(LAPACK_COL_MAJOR, 'N', 'N', m, n, a.data(), m, s.data(), nullptr, 1,
                          nullptr, 1, superb.data());
  }
  if (info != 0) return std::nan("");
  return s[0];
}

}  // namespace

Tensor norm_tensor(const Tensor& x, double p, bool fro) {
  ClassId c = x.cls();
  if (is_integer_class(c))
    throw_error("MATLAB:norm:inputType", "Input must be of type single or double.");
  ClassId rc = c == ClassId::Single ? ClassId::Single : ClassId::Double;
  if (x.dims().ndims() > 2)
    throw_error("MATLAB:norm:inputMustBe2D", "Input must be 2-D.");
  int64_t n = x.numel();
  std::vector<double> mags(n);
  for (int64_t i = 0; i < n; ++i) mags[i] = std::abs(x.get_complex(i));
  double r;
  bool vec = x.dims().is_vector() || n == 0;
  if (fro) {
    r = vector_norm(mags, 2);
  } else if (vec) {
    if (p != p)
      throw_error("MATLAB:norm:unknownNorm", "The norm type must be a positive or negative scalar or 'fro'.");
    r = vector_norm(mags, p);
  } else {
    int64_t rows = x.dims().rows(), cols = x.dims().cols();
    if (p == 1 || (std::isinf(p) && p > 0)) {
      bool has_nan = false;
      r = 0;
      if (p == 1) {
        for (int64_t j = 0; j < cols; ++j) {
          double s = 0;
          for (int64_t i = 0; i < rows; ++i) s += mags[j * rows + i];
          if (s != s) has_nan = true;
          r = std::max(r, s);
        }
      } else {
        for (int64_t i = 0; i < rows; ++i) {
          double s = 0;
          for (int64_t j = 0; j < cols; ++j) s += mags[j * rows + i];
          if (s != s) has_nan = true;
          r = std::max(r, s);
        }
      }
      if (has_nan) r = std::nan("");
    } else if (p == 2) {
      bool has_nan = false, has_inf = false;
      for (double v : mags) {
        if (v != v) has_nan = true;
        else if (std::isinf(v)) has_inf = true;
      }
      r = has_nan ? std::nan("") : has_inf ? INFINITY : matrix_two_norm(x);
    } else {
      throw_error("MATLAB:norm:unknownNorm",
                  "The only matrix norms available are 1, 2, inf, and 'fro'.");
    }
  }
  Tensor out = Tensor::scalar(r, ClassId::Double);
  return rc == ClassId::Double ? out : out.to_class(rc);
}

}  // namespace matfuse
