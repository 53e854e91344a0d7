// Builtins of the "linalg_ext" family, part 1 and registration: inv, det, rank, trace, cond,
// null, orth, pinv, linsolve. Factorizations (chol, lu, qr) live in linalg_ext_fact.cc, spectral
// functions (eig, svd, expm) in linalg_ext_eig.cc. All numerical work goes through LAPACKE
// (linalg_ext_lapack.h), in the operand's own precision (single or double, real or complex).
//
// Common operand rules: numeric, logical or char 2-D arrays (logical/char become double);
// integer classes raise MATLAB:<fn>:integerNotSupported; other kinds raise
// MATLAB:UndefinedFunction. Results are single for single input, otherwise double; complex
// results whose imaginary parts are all zero become real.
#include <algorithm>
#include <cmath>

#include "accel/capture/capture.h"
#include "builtins/linalg.h"
#include "builtins/linalg_detail.h"
#include "builtins/linalg_device.h"
#include "builtins/norm.h"
#include "builtins/linalg_ext_lapack.h"
#include "runtime/reduce.h"
#include "builtins/registry.h"

namespace matfuse {

void register_linalg_ext_fact(Registry& r);  // linalg_ext_fact.cc
void register_linalg_ext_eig(Registry& r);   // linalg_ext_eig.cc

namespace {

using namespace lx;

template <class T> Value out_mat(const Mat<T>& m) { return Value(to_tensor(m).drop_zero_imag()); }

/// eps(x) for x >= 0 (spacing to the next representable number, as MATLAB's eps(x)).
template <class R> R eps_at(R x) {
  x = std::abs(x);
  if (!std::isfinite(x)) return std::numeric_limits<R>::quiet_NaN();
  return std::nextafter(x, std::numeric_limits<R>::infinity()) - x;
}

void require_finite_svd(const Tensor& t) {
  if (has_nonfinite(t))
    throw_error("MATLAB:svd:matrixWithNaNInf", "Input to SVD must not contain NaN or Inf.");
}

// ---------------------------------------------------------------------------------------------
// inv

/// inv(A) by LU (getrf + getri). Singular A warns MATLAB:singularMatrix and gives Inf entries;
/// RCOND < eps warns MATLAB:nearlySingularMatrix. Non-finite input gives NaN entries.
/// rcond_out (when non-null) receives the reciprocal condition estimate.
template <class T> Mat<T> inv_impl(Mat<T> a, bool warn, double* rcond_out = nullptr) {
  using R = real_t<T>;
  lapack_int n = static_cast<lapack_int>(a.n);
  if (n == 0) return a;
  bool finite = true;
  for (const T& v : a.a)
    if (!std::isfinite(std::real(v)) || !std::isfinite(std::imag(v))) finite = false;
  if (!finite) {
    std::fill(a.a.begin(), a.a.end(), T(std::numeric_limits<R>::quiet_NaN()));
    if (rcond_out) *rcond_out = std::numeric_limits<double>::quiet_NaN();
    return a;
  }
  R anorm = lange('1', n, n, a.data(), a.ld());
  std::vector<lapack_int> ipiv(n);
  lapack_int info = getrf(n, n, a.data(), a.ld(), ipiv.data());
  if (info > 0) {
    if (warn) warn_singular();
    std::fill(a.a.begin(), a.a.end(), T(std::numeric_limits<R>::infinity()));
    if (rcond_out) *rcond_out = 0;
    return a;
  }
  R rc = 0;
  gecon(n, a.data(), a.ld(), anorm, &rc);
  if (rcond_out) *rcond_out = rc;
  if (warn && rc < eps_of<T>()) warn_nearly_singular(rc);
  getri(n, a.data(), a.ld(), ipiv.data());
  return a;
}

Outputs bi_inv(CallContext& ctx, Args args, int nargout) {
  check_nargin(args, 1, 1);
  check_nargout(nargout, 1);
  linalg_detail::SessionScope scope(&ctx.session());
  Tensor a = float_matrix(args[0], "inv");
  require_square(a);
  if (auto r = linalg_device::inv(a)) return {*r};
  return {dispatch_float(a, [&](auto tag) {
    using T = decltype(tag);
    return out_mat(inv_impl(to_mat<T>(a), true));
  })};
}

// ---------------------------------------------------------------------------------------------
// det

/// det(A) from the LU factors: product of U's diagonal, negated once per row interchange.
template <class T> T det_impl(Mat<T> a) {
  lapack_int n = static_cast<lapack_int>(a.n);
  if (n == 0) return T(1);
  std::vector<lapack_int> ipiv(n);
  getrf(n, n, a.data(), a.ld(), ipiv.data());
  T d(1);
  for (lapack_int i = 0; i < n; ++i) {
    d *= a(i, i);
    if (ipiv[i] != i + 1) d = -d;
  }
  return d;
}

Outputs bi_det(CallContext&, Args args, int nargout) {
  check_nargin(args, 1, 1);
  check_nargout(nargout, 1);
  Tensor a = float_matrix(args[0], "det");
  require_square(a);
  if (auto r = linalg_device::det(a)) return {*r};
  return {dispatch_float(a, [&](auto tag) {
    using T = decltype(tag);
    Mat<T> r(1, 1);
    r(0, 0) = det_impl(to_mat<T>(a));
    return out_mat(r);
  })};
}

// ---------------------------------------------------------------------------------------------
// rank, trace, cond

/// Number of singular values above tol; default tol = max(m,n) * eps(max(s)).
template <class T> int64_t rank_impl(const Mat<T>& a, const Value* tolv) {
  using R = real_t<T>;
  std::vector<R> s = singular_values(a);
  if (s.empty()) return 0;
  double tol = tolv ? tolv->to_double("tolerance")
                    : static_cast<double>(std::max(a.m, a.n)) * eps_at<R>(s[0]);
  int64_t r = 0;
  for (R v : s)
    if (v > tol) ++r;
  return r;
}

Outputs bi_rank(CallContext&, Args args, int nargout) {
  check_nargin(args, 1, 2);
  check_nargout(nargout, 1);
  Tensor a = float_matrix(args[0], "rank");
  const Value* tol = args.size() > 1 ? &args[1] : nullptr;
  if (auto s = linalg_device::singular_values(a)) {
    const int64_t big = std::max(a.dims().rows(), a.dims().cols());
    const double t = tol ? tol->to_double("tolerance")
                   : a.cls() == ClassId::Single
                         ? static_cast<double>(big) * eps_at<float>(static_cast<float>((*s)[0]))
                         : static_cast<double>(big) * eps_at<double>((*s)[0]);
    int64_t r = 0;
    for (double v : *s)
      if (v > t) ++r;
    return {Value(static_cast<double>(r))};
  }
  require_finite_svd(a);
  int64_t r = dispatch_float(a, [&](auto tag) { return rank_impl(to_mat<decltype(tag)>(a), tol); });
  return {Value(static_cast<double>(r))};
}

/// trace(A) = sum(diag(A)); A must be a square matrix (MATLAB:square).
Outputs bi_trace(CallContext&, Args args, int nargout) {
  check_nargin(args, 1, 1);
  check_nargout(nargout, 1);
  Tensor a = linalg_detail::numeric_operand(args[0], "trace");
  if (a.dims().ndims() > 2 || a.dims().rows() != a.dims().cols())
    throw_error("MATLAB:square", "Matrix must be square.");
  if (a.is_empty()) return {Value(Tensor::zeros(a.cls() == ClassId::Single ? ClassId::Single : ClassId::Double, Dims(1, 1)))};
  // A lazy matrix: the sum of its lazy diagonal (diag(A*B) never forms the product).
  if (a.is_lazy() && a.dims().rows() > 1)
    if (auto d = accel::capture_diag(a))
      if (auto t = accel::capture_reduce(accel::ReduceKind::Sum, *d, {0}, false,
                                         accel::ReduceOut::Default))
        return {Value(std::move(*t))};
  Tensor d = diag_value(Value(a), 0).tensor();
  return {Value(sum_dim(d, 0))};
}

/// cond(A) = max(s)/min(s) (Inf when singular); cond(A, p) for p = 1, Inf, 'fro' is
/// norm(A,p) * norm(inv(A),p) (square A only).
Outputs bi_cond(CallContext& ctx, Args args, int nargout) {
  check_nargin(args, 1, 2);
  check_nargout(nargout, 1);
  Tensor a = float_matrix(args[0], "cond");
  for (int64_t i = 0; i < a.numel(); ++i) {
    std::complex<double> z = a.get_complex(i);
    if (!std::isfinite(z.real()) || !std::isfinite(z.imag()))
      throw_error("MATLAB:svd:matrixWithNaNInf", "Input to SVD must not contain NaN or Inf.");
  }
  bool single = a.cls() == ClassId::Single;
  auto result = [&](double v) {
    return Value(single ? Tensor::scalar(v, ClassId::Single) : Tensor::scalar(v));
  };
  double p = 2;
  bool fro = false;
  if (args.size() == 2) {
    std::string s = option_text(args[1]);
    if (s == "fro") fro = true;
    else if (s == "inf") p = INFINITY;
    else if (!s.empty() || !args[1].is_tensor() || args[1].numel() != 1)
      throw_error("MATLAB:cond:invalidP", "P must be 1, 2, Inf, or 'fro'.");
    else p = args[1].to_double("P");
    if (!fro && p != 1 && p != 2 && p != INFINITY)
      throw_error("MATLAB:cond:invalidP", "P must be 1, 2, Inf, or 'fro'.");
  }
  if (a.is_empty()) return {result(0)};
  if (p == 2 && !fro) {
    if (auto s = linalg_device::singular_values(a))
      return {result(s->back() == 0 ? INFINITY : s->front() / s->back())};
    if (has_nonfinite(a)) return {result(NAN)};
    return {dispatch_float(a, [&](auto tag) {
      using T = decltype(tag);
      auto s = singular_values(to_mat<T>(a));
      double mn = s.back(), mx = s.front();
      return result(mn == 0 ? INFINITY : mx / mn);
    })};
  }
  require_square(a);
  linalg_detail::SessionScope scope(&ctx.session());
  Tensor ai = dispatch_float(a, [&](auto tag) {
    using T = decltype(tag);
    return to_tensor(inv_impl(to_mat<T>(a), false));
  });
  double na = norm_tensor(a, p, fro).get_double(0);
  double ni = norm_tensor(ai, p, fro).get_double(0);
  return {result(na * ni)};
}

// ---------------------------------------------------------------------------------------------
// null, orth, pinv

/// null(A): orthonormal basis of the null space, columns r+1..n of V from the SVD (r = rank
/// with the default tolerance). orth(A): the first r columns of U.
template <class T> Mat<T> null_orth(const Mat<T>& a, bool want_null) {
  using R = real_t<T>;
  Mat<T> U, V;
  std::vector<R> s;
  svd_full(a, false, U, s, V);
  R tol = s.empty() ? R(0) : static_cast<R>(std::max(a.m, a.n)) * eps_at<R>(s[0]);
  int64_t r = 0;
  for (R v : s)
    if (v > tol) ++r;
  const Mat<T>& src = want_null ? V : U;
  int64_t c0 = want_null ? r : 0, c1 = want_null ? a.n : r;
  Mat<T> out(src.m, c1 - c0);
  for (int64_t j = c0; j < c1; ++j)
    for (int64_t i = 0; i < src.m; ++i) out(i, j - c0) = src(i, j);
  return out;
}

Outputs bi_null_orth(Args args, int nargout, bool want_null) {
  check_nargin(args, 1, 1);
  check_nargout(nargout, 1);
  Tensor a = float_matrix(args[0], want_null ? "null" : "orth");
  if (auto r = linalg_device::null_orth(a, want_null)) return {*r};
  require_finite_svd(a);
  return {dispatch_float(a, [&](auto tag) { return out_mat(null_orth(to_mat<decltype(tag)>(a), want_null)); })};
}
Outputs bi_null(CallContext&, Args args, int nargout) { return bi_null_orth(args, nargout, true); }
Outputs bi_orth(CallContext&, Args args, int nargout) { return bi_null_orth(args, nargout, false); }

/// pinv(A, tol): V * diag(1 ./ s(s > tol)) * U' from the economy SVD; default
/// tol = max(size(A)) * eps(max(s)).
template <class T> Mat<T> pinv_impl(const Mat<T>& a, const Value* tolv) {
  using R = real_t<T>;
  Mat<T> U, V;
  std::vector<R> s;
  svd_full(a, true, U, s, V);
  double tol = tolv ? tolv->to_double("tolerance")
                    : (s.empty() ? 0.0 : static_cast<double>(std::max(a.m, a.n)) * eps_at<R>(s[0]));
  int64_t r = 0;
  for (R v : s)
    if (v > tol) ++r;
  // X = V(:,1:r) * diag(1/s) * U(:,1:r)'
  Mat<T> vs(a.n, r), ut(r, a.m);
  for (int64_t j = 0; j < r; ++j) {
    for (int64_t i = 0; i < a.n; ++i) vs(i, j) = V(i, j) / T(s[j]);
    for (int64_t i = 0; i < a.m; ++i) ut(j, i) = conj_of(U(i, j));
  }
  return matmul(vs, ut);
}

Outputs bi_pinv(CallContext&, Args args, int nargout) {
  check_nargin(args, 1, 2);
  check_nargout(nargout, 1);
  Tensor a = float_matrix(args[0], "pinv");
  const Value* tol = args.size() > 1 ? &args[1] : nullptr;
  if (auto r = linalg_device::pinv(a, tol ? tol->to_double("tolerance") : -1.0)) return {*r};
  require_finite_svd(a);
  return {dispatch_float(a, [&](auto tag) { return out_mat(pinv_impl(to_mat<decltype(tag)>(a), tol)); })};
}

// ---------------------------------------------------------------------------------------------
// linsolve

struct LinOpts {
  bool lt = false, ut = false, sym = false, posdef = false, transa = false;
};

LinOpts parse_linopts(const Value& v) {
  if (!v.is_struct() || v.numel() != 1)
    throw_error("MATLAB:linsolve:OptsNotStruct", "Third input must be a structure.");
  const StructArray& s = v.struct_array();
  LinOpts o;
  static const char* known[] = {"LT", "UT", "UHESS", "SYM", "POSDEF", "RECT", "TRANSA"};
  for (const std::string& f : s.fields()) {
    if (std::find_if(std::begin(known), std::end(known), [&](const char* k) { return f == k; }) ==
        std::end(known))
      throw_error("MATLAB:linsolve:UnknownField", "Unrecognized field name in options structure.");
    bool on = s.get(0, s.field_index(f)).truthy();
    if (f == "LT") o.lt = on;
    else if (f == "UT") o.ut = on;
    else if (f == "SYM") o.sym = on;
    else if (f == "POSDEF") o.posdef = on;
    else if (f == "TRANSA") o.transa = on;
  }
  if (o.lt && o.ut)
    throw_error("MATLAB:linsolve:CombinationOfFieldsNotCurrentlySupported",
                "The combination of fields in the options structure is not currently supported.");
  return o;
}

/// Solves A X = B for square A per opts; returns X and the reciprocal condition estimate.
/// Warnings are printed only when `warn` is set (MATLAB omits them when r is requested).
template <class T> Mat<T> linsolve_square(Mat<T> a, Mat<T> b, const LinOpts& o, bool warn, double& rc) {
  using R = real_t<T>;
  lapack_int n = static_cast<lapack_int>(a.n), k = static_cast<lapack_int>(b.n);
  if (n == 0) {
    rc = INFINITY;
    return Mat<T>(0, b.n);
  }
  if (o.lt || o.ut) {
    bool singular = false;
    for (lapack_int i = 0; i < n; ++i)
      if (a(i, i) == T(0)) singular = true;
    R r = 0;
    if (!singular) trcon(o.ut ? 'U' : 'L', n, a.data(), a.ld(), &r);
    rc = r;
    if (warn && singular) warn_singular();
    else if (warn && r < eps_of<T>()) warn_nearly_singular(r);
    trsm(o.ut, false, n, k, a.data(), a.ld(), b.data(), b.ld());
    return b;
  }
  R anorm = lange('1', n, n, a.data(), a.ld());
  if (o.posdef) {
    Mat<T> f = a;
    if (potrf('U', n, f.data(), f.ld()) == 0) {
      R r = 0;
      if constexpr (std::is_same_v<T, float>) LAPACKE_spocon(LAPACK_COL_MAJOR, 'U', n, f.data(), f.ld(), anorm, &r);
      else if constexpr (std::is_same_v<T, double>) LAPACKE_dpocon(LAPACK_COL_MAJOR, 'U', n, f.data(), f.ld(), anorm, &r);
      else if constexpr (std::is_same_v<T, cf>) LAPACKE_cpocon(LAPACK_COL_MAJOR, 'U', n, f.data(), f.ld(), anorm, &r);
      else LAPACKE_zpocon(LAPACK_COL_MAJOR, 'U', n, f.data(), f.ld(), anorm, &r);
      rc = r;
      if (warn && r < eps_of<T>()) warn_nearly_singular(r);
      potrs('U', n, k, f.data(), f.ld(), b.data(), b.ld());
      return b;
    }
  }
  std::vector<lapack_int> ipiv(n);
  lapack_int info = getrf(n, n, a.data(), a.ld(), ipiv.data());
  R r = 0;
  if (info == 0) gecon(n, a.data(), a.ld(), anorm, &r);
  rc = r;
  if (warn && info > 0) warn_singular();
  else if (warn && r < eps_of<T>()) warn_nearly_singular(r);
  getrs('N', n, k, a.data(), a.ld(), ipiv.data(), b.data(), b.ld());
  return b;
}

/// linsolve(A, B) and linsolve(A, B, opts) with opts fields LT, UT, UHESS, SYM, POSDEF, RECT,
/// TRANSA (logical). [X, r] also returns rcond (square A) or rank (rectangular A).
Outputs bi_linsolve(CallContext& ctx, Args args, int nargout) {
  check_nargin(args, 2, 3);
  check_nargout(nargout, 2);
  linalg_detail::SessionScope scope(&ctx.session());
  Tensor a = float_matrix(args[0], "linsolve");
  Tensor b = float_matrix(args[1], "linsolve");
  LinOpts o;
  if (args.size() == 3) o = parse_linopts(args[2]);
  ClassId c = linalg_detail::float_class_of(a, b);
  bool cplx = a.is_complex() || b.is_complex();
  a = linalg_detail::prepare(a, c, cplx);
  b = linalg_detail::prepare(b, c, cplx);
  if (o.transa) {
    a = transpose_value(Value(a), true).tensor();
    if (o.lt || o.ut) std::swap(o.lt, o.ut);
  }
  if (a.dims().rows() != b.dims().rows())
    throw_error("MATLAB:dimagree", "Matrix dimensions must agree.");
  bool square = a.dims().rows() == a.dims().cols();
  if (!square) {
    if (o.lt || o.ut || o.sym || o.posdef)
      throw_error("MATLAB:square", "Matrix must be square.");
    Value x = mldivide(Value(a), Value(b));
    Outputs out{x};
    if (nargout > 1)
      out.push_back(Value(static_cast<double>(dispatch_float(a, [&](auto tag) {
        return rank_impl(to_mat<decltype(tag)>(a), nullptr);
      }))));
    return out;
  }
  double rc = 0;
  if (!cplx)
    if (auto x = linalg_device::linsolve(a, b, o.lt, o.ut, o.posdef, nargout < 2, &rc)) {
      Outputs out{*x};
      if (nargout > 1)
        out.push_back(c == ClassId::Single ? Value(Tensor::scalar(rc, ClassId::Single)) : Value(rc));
      return out;
    }
  Value x = dispatch_float(a, [&](auto tag) {
    using T = decltype(tag);
    return out_mat(linsolve_square(to_mat<T>(a), to_mat<T>(b), o, nargout < 2, rc));
  });
  Outputs out{x};
  if (nargout > 1) out.push_back(c == ClassId::Single ? Value(Tensor::scalar(rc, ClassId::Single)) : Value(rc));
  return out;
}

}  // namespace

void register_linalg_ext(Registry& r) {
  r.add("inv", bi_inv);
  r.add("det", bi_det);
  r.add("rank", bi_rank);
  r.add("trace", bi_trace);
  r.add("cond", bi_cond);
  r.add("null", bi_null);
  r.add("orth", bi_orth);
  r.add("pinv", bi_pinv);
  r.add("linsolve", bi_linsolve);
  register_linalg_ext_fact(r);
  register_linalg_ext_eig(r);
}

}  // namespace matfuse
