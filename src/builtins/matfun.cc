// Builtins of the "matfun" family: matrix structure tests and small matrix/array utilities:
// issymmetric, ishermitian, isdiag, istril, istriu, isbanded, allfinite, anynan, rref,
// rcond, ipermute, pagetranspose, pagectranspose, pagemtimes, repelem, perms, randperm, logspace,
// bsxfun.
#include <algorithm>
#include <cmath>
#include <complex>
#include <cstring>
#include <numeric>
#include <optional>
#include <string>

#include "builtins/lapack_inc.h"
#include "builtins/math_util.h"
#include "builtins/registry.h"
#include "runtime/array_size.h"
#include "runtime/ops.h"

namespace matfuse {

namespace {

using cd = std::complex<double>;
using mathutil::call1;

Tensor num_arg(const Value& v, const char* fname) {
  if (!v.is_tensor()) mathutil::undefined_for(fname, v);
  return v.tensor();
}

Value lg(bool b) { return Value::logical(b); }

/// A(lin) reshaped to out: gathers elements of a tensor, cell or string array by 0-based
/// linear index.
Value take(const Value& A, const std::vector<int64_t>& lin, const Dims& out) {
  if (A.is_cell()) {
    CellArray c(out);
    for (size_t i = 0; i < lin.size(); ++i) c.at(static_cast<int64_t>(i)) = A.cell()[lin[i]];
    return Value(c);
  }
  if (A.is_string()) {
    StringArray s(out);
    for (size_t i = 0; i < lin.size(); ++i) s.at(static_cast<int64_t>(i)) = A.string_array()[lin[i]];
    return Value(s);
  }
  if (A.is_struct()) {
    const StructArray& src = A.struct_array();
    StructArray s(out);
    for (const auto& f : src.fields()) s.add_field(f);
    int nf = static_cast<int>(src.fields().size());
    for (size_t i = 0; i < lin.size(); ++i)
      for (int f = 0; f < nf; ++f) s.at(static_cast<int64_t>(i), f) = src.get(lin[i], f);
    return Value(s);
  }
  if (!A.is_tensor()) mathutil::undefined_for("repelem", A);
  Tensor t = A.tensor();
  Tensor r = Tensor::uninit(t.cls(), out, t.is_complex());
  int eb = t.elem_bytes();
  const char* src = static_cast<const char*>(t.raw());
  char* dst = static_cast<char*>(r.mutable_raw());
  for (size_t i = 0; i < lin.size(); ++i) std::memcpy(dst + i * eb, src + lin[i] * eb, eb);
  return Value(r);
}

/// Shared by issymmetric and ishermitian: A == A.' (conj when herm), 'skew' for A == -A.',
/// or within tol: norm(A - A', 1) <= tol * norm(A, 1).
Outputs sym_test(Args args, int nargout, const char* fname, bool herm) {
  check_nargin(args, 1, 3);
  check_nargout(nargout, 1);
  if (!args[0].is_tensor())
    throw_error("MATLAB:UndefinedFunction", "Undefined function '%s' for input arguments of "
                "type '%s'.", fname, args[0].class_name().c_str());
  bool skew = false;
  double tol = -1;
  for (size_t k = 1; k < args.size(); ++k) {
    if (args[k].is_text() && k == 1) {
      std::string s = args[k].to_text();
      if (s == "skew") skew = true;
      else if (s != "nonskew")
        throw_error(("MATLAB:" + std::string(fname) + ":invalidOption").c_str(),
                    "SKEWOPT must be 'skew' or 'nonskew'.");
    } else {
      if (!args[k].is_tensor() || args[k].is_char() || args[k].numel() != 1 ||
          !(args[k].to_double() >= 0))
        throw_error(("MATLAB:" + std::string(fname) + ":invalidTol").c_str(),
                    "TOL must be a scalar >= 0.");
      tol = args[k].to_double("tol");
    }
  }
  // Only numeric and logical matrices can be symmetric (char, cell, struct: false).
  if (!args[0].is_tensor() || (herm && args[0].is_char())) return {lg(false)};
  Tensor a = args[0].tensor();
  const Dims& d = a.dims();
  if (d.ndims() != 2 || d[0] != d[1]) return {lg(false)};
  int64_t n = d[0];
  if (tol < 0) {
    for (int64_t j = 0; j < n; ++j)
      for (int64_t i = 0; i < n; ++i) {
        cd x = a.get_complex(j * n + i), y = a.get_complex(i * n + j);
        if (herm) y = std::conj(y);
        if (skew) y = -y;
        if (x != y) return {lg(false)};
      }
    return {lg(true)};
  }
  double nd = 0, na = 0;
  for (int64_t j = 0; j < n; ++j) {
    double sd = 0, sa = 0;
    for (int64_t i = 0; i < n; ++i) {
      cd x = a.get_complex(j * n + i), y = a.get_complex(i * n + j);
      if (herm) y = std::conj(y);
      if (skew) y = -y;
      sd += std::abs(x - y);
      sa += std::abs(x);
    }
    nd = std::max(nd, sd);
    na = std::max(na, sa);
  }
  return {lg(nd <= tol * na)};
}

Outputs bi_issymmetric(CallContext&, Args a, int n) { return sym_test(a, n, "issymmetric", false); }
Outputs bi_ishermitian(CallContext&, Args a, int n) { return sym_test(a, n, "ishermitian", true); }

/// Band test: true when every nonzero A(i,j) has -lower <= j - i <= upper (2-D only).
bool in_band(const Tensor& a, double lower, double upper) {
  const Dims& d = a.dims();
  if (d.ndims() != 2) return false;
  for (int64_t j = 0; j < d[1]; ++j)
    for (int64_t i = 0; i < d[0]; ++i) {
      double k = static_cast<double>(j - i);
      if ((k > upper || -k > lower) && a.get_complex(j * d[0] + i) != cd(0)) return false;
    }
  return true;
}

Outputs band_fn(Args args, int nargout, const char* fname, double lo, double up) {
  check_nargin(args, 1, 1);
  check_nargout(nargout, 1);
  if (!args[0].is_tensor() || args[0].is_char()) return {lg(false)};
  return {lg(in_band(num_arg(args[0], fname), lo, up))};
}
Outputs bi_isdiag(CallContext&, Args a, int n) { return band_fn(a, n, "isdiag", 0, 0); }
Outputs bi_istril(CallContext&, Args a, int n) { return band_fn(a, n, "istril", INFINITY, 0); }
Outputs bi_istriu(CallContext&, Args a, int n) { return band_fn(a, n, "istriu", 0, INFINITY); }
/// tf = isbanded(A, lower, upper).
Outputs bi_isbanded(CallContext&, Args args, int nargout) {
  check_nargin(args, 3, 3);
  check_nargout(nargout, 1);
  for (int k = 1; k <= 2; ++k)
    if (!args[k].is_tensor() || args[k].numel() != 1 || !(args[k].to_double() >= 0))
      throw_error("MATLAB:isbanded:invalidBand", "LOWER and UPPER must be non-negative "
                  "integers.");
  if (!args[0].is_tensor() || args[0].is_char()) return {lg(false)};
  return {lg(in_band(args[0].tensor(), args[1].to_double("lower"), args[2].to_double("upper")))};
}

/// tf = allfinite(A): every element finite (logical scalar).
Outputs bi_allfinite(CallContext&, Args args, int nargout) {
  check_nargin(args, 1, 1);
  check_nargout(nargout, 1);
  Tensor a = num_arg(args[0], "allfinite");
  for (int64_t i = 0; i < a.numel(); ++i) {
    cd v = a.get_complex(i);
    if (!std::isfinite(v.real()) || !std::isfinite(v.imag())) return {lg(false)};
  }
  return {lg(true)};
}
/// tf = anynan(A): any element NaN (logical scalar).
Outputs bi_anynan(CallContext&, Args args, int nargout) {
  check_nargin(args, 1, 1);
  check_nargout(nargout, 1);
  Tensor a = num_arg(args[0], "anynan");
  for (int64_t i = 0; i < a.numel(); ++i) {
    cd v = a.get_complex(i);
    if (std::isnan(v.real()) || std::isnan(v.imag())) return {lg(true)};
  }
  return {lg(false)};
}

/// [R, jb] = rref(A, tol): reduced row echelon form by Gauss-Jordan elimination with partial
/// pivoting; tol default max(size(A))*eps*norm(A, inf); jb the pivot columns.
template <class T>
std::vector<double> rref_run(std::vector<T>& A, int64_t m, int64_t n, double tol) {
  std::vector<double> jb;
  int64_t i = 0;
  for (int64_t j = 0; j < n && i < m; ++j) {
    int64_t k = i;
    double p = -1;
    for (int64_t r = i; r < m; ++r)
      if (std::abs(A[j * m + r]) > p) {
        p = std::abs(A[j * m + r]);
        k = r;
      }
    if (p <= tol) {
      for (int64_t r = i; r < m; ++r) A[j * m + r] = T(0);
      continue;
    }
    jb.push_back(static_cast<double>(j + 1));
    for (int64_t c = j; c < n; ++c) std::swap(A[c * m + i], A[c * m + k]);
    T piv = A[j * m + i];
    for (int64_t c = j; c < n; ++c) A[c * m + i] = A[c * m + i] / piv;
    for (int64_t r = 0; r < m; ++r) {
      if (r == i) continue;
      T f = A[j * m + r];
      for (int64_t c = j; c < n; ++c) A[c * m + r] = A[c * m + r] - f * A[c * m + i];
    }
    ++i;
  }
  return jb;
}

Outputs bi_rref(CallContext&, Args args, int nargout) {
  check_nargin(args, 1, 2);
  check_nargout(nargout, 2);
  Tensor a = mathutil::float_arg(args[0], "rref", true);
  if (a.dims().ndims() != 2) throw_error("MATLAB:rref:inputMustBe2D", "Input must be 2-D.");
  int64_t m = a.dims()[0], n = a.dims()[1];
  double tol;
  if (args.size() > 1) {
    tol = args[1].to_double("tol");
  } else {
    double ninf = 0;
    for (int64_t i = 0; i < m; ++i) {
      double s = 0;
      for (int64_t j = 0; j < n; ++j) s += std::abs(a.get_complex(j * m + i));
      ninf = std::max(ninf, s);
    }
    tol = static_cast<double>(std::max(m, n)) * 2.220446049250313e-16 * ninf;
  }
  bool cplx = a.is_complex();
  Tensor R = Tensor::uninit(a.cls(), Dims(m, n), cplx);
  std::vector<double> jb;
  if (cplx) {
    std::vector<cd> A(static_cast<size_t>(m * n));
    for (int64_t i = 0; i < m * n; ++i) A[i] = a.get_complex(i);
    jb = rref_run(A, m, n, tol);
    for (int64_t q = 0; q < m * n; ++q) R.set_complex(q, A[q]);
  } else {
    std::vector<double> A(static_cast<size_t>(m * n));
    for (int64_t i = 0; i < m * n; ++i) A[i] = a.get_double(i);
    jb = rref_run(A, m, n, tol);
    for (int64_t q = 0; q < m * n; ++q) R.set_double(q, A[q]);
  }
  Tensor J = Tensor::uninit(ClassId::Double, Dims(1, static_cast<int64_t>(jb.size())));
  for (size_t q = 0; q < jb.size(); ++q) J.set_double(static_cast<int64_t>(q), jb[q]);
  return {Value(R), Value(J)};
}

/// c = rcond(A): reciprocal condition number estimate in the 1-norm (LAPACK xGECON after
/// xGETRF). Square matrices only (MATLAB:square); empty gives Inf.
Outputs bi_rcond(CallContext&, Args args, int nargout) {
  check_nargin(args, 1, 1);
  check_nargout(nargout, 1);
  Tensor a = mathutil::float_arg(args[0], "rcond", true);
  if (a.dims().ndims() != 2 || a.dims()[0] != a.dims()[1])
    throw_error("MATLAB:square", "Matrix must be square.");
  int n = static_cast<int>(a.dims()[0]);
  if (n == 0) return {Value(INFINITY)};
  std::vector<lapack_int> piv(static_cast<size_t>(n));
  double rc = 0;
  for (int64_t i = 0; i < a.numel(); ++i) {
    cd v = a.get_complex(i);
    if (!std::isfinite(v.real()) || !std::isfinite(v.imag())) {
      bool anynan = std::isnan(v.real()) || std::isnan(v.imag());
      return {Value(anynan ? NAN : 0.0)};
    }
  }
  if (a.is_complex()) {
    std::vector<cd> A(static_cast<size_t>(n) * n);
    double anorm = 0;
    for (int j = 0; j < n; ++j) {
      double s = 0;
      for (int i = 0; i < n; ++i) {
        A[j * n + i] = a.get_complex(j * n + i);
        s += std::abs(A[j * n + i]);
      }
      anorm = std::max(anorm, s);
    }
    if (LAPACKE_zgetrf(LAPACK_COL_MAJOR, n, n, A.data(), n, piv.data()) > 0) return {Value(0.0)};
    LAPACKE_zgecon(LAPACK_COL_MAJOR, '1', n, A.data(), n, anorm, &rc);
  } else {
    std::vector<double> A(static_cast<size_t>(n) * n);
    double anorm = 0;
    for (int j = 0; j < n; ++j) {
      double s = 0;
      for (int i = 0; i < n; ++i) {
        A[j * n + i] = a.get_double(j * n + i);
        s += std::abs(A[j * n + i]);
      }
      anorm = std::max(anorm, s);
    }
    if (LAPACKE_dgetrf(LAPACK_COL_MAJOR, n, n, A.data(), n, piv.data()) > 0) return {Value(0.0)};
    LAPACKE_dgecon(LAPACK_COL_MAJOR, '1', n, A.data(), n, anorm, &rc);
  }
  Value r(rc);
  if (a.cls() == ClassId::Single) r = Value(Tensor::scalar(rc, ClassId::Single));
  return {r};
}

/// A = ipermute(B, order): inverse of permute(A, order).
Outputs bi_ipermute(CallContext& ctx, Args args, int nargout) {
  check_nargin(args, 2, 2);
  check_nargout(nargout, 1);
  std::vector<double> ord = mathutil::doubles_of(args[1], "ipermute");
  std::vector<double> inv(ord.size());
  for (size_t i = 0; i < ord.size(); ++i) {
    int64_t k = static_cast<int64_t>(ord[i]) - 1;
    if (k < 0 || k >= static_cast<int64_t>(ord.size()) || ord[i] != std::floor(ord[i]))
      throw_error("MATLAB:ipermute:BadIndex", "ORDER contains an invalid permutation index.");
    inv[static_cast<size_t>(k)] = static_cast<double>(i + 1);
  }
  Tensor o = Tensor::uninit(ClassId::Double, Dims(1, static_cast<int64_t>(inv.size())));
  for (size_t i = 0; i < inv.size(); ++i) o.set_double(static_cast<int64_t>(i), inv[i]);
  return {call1(ctx, "permute", {args[0], Value(o)})};
}

Value page_perm(CallContext& ctx, const Value& x) {
  int nd = std::max(2, x.dims().ndims());
  Tensor o = Tensor::uninit(ClassId::Double, Dims(1, nd));
  o.set_double(0, 2);
  o.set_double(1, 1);
  for (int k = 2; k < nd; ++k) o.set_double(k, k + 1);
  return call1(ctx, "permute", {x, Value(o)});
}
/// [B, nshifts] = shiftdim(X, n): n > 0 shifts the dimensions left by n (circularly, like
/// permute); n < 0 adds -n leading singleton dimensions; without n removes leading singletons
/// and returns their count.
Outputs bi_shiftdim(CallContext& ctx, Args args, int nargout) {
  check_nargin(args, 1, 2);
  check_nargout(nargout, 2);
  Dims d = args[0].dims();
  int nd = d.ndims();
  int64_t n;
  double shift_mod = 0;  // n mod nd, taken in double (exact) for n past int64
  if (args.size() > 1) {
    double v = args[1].to_double("n");
    if (v != std::floor(v) || std::isinf(v))
      throw_error("MATLAB:shiftdim:NonInteger", "N must be an integer.");
    n = clamp_count(v);  // 1e300 was undefined to convert; -1e300 fails the size check
    shift_mod = std::fmod(v, static_cast<double>(nd));
  } else {
    n = 0;
    while (n < nd && d[static_cast<int>(n)] == 1) ++n;
    if (n == nd) n = 0;  // a scalar keeps its shape
    shift_mod = static_cast<double>(n);
  }
  Value r;
  if (n > 0) {
    const int64_t k = static_cast<int64_t>(shift_mod);
    Tensor o = Tensor::uninit(ClassId::Double, Dims(1, nd));
    for (int i = 0; i < nd; ++i) o.set_double(i, static_cast<double>((i + k) % nd + 1));
    r = call1(ctx, "permute", {args[0], Value(o)});
  } else if (n < 0) {
    Tensor sz = Tensor::uninit(ClassId::Double, Dims(1, nd - n));
    for (int64_t i = 0; i < -n; ++i) sz.set_double(i, 1);
    for (int i = 0; i < nd; ++i) sz.set_double(-n + i, static_cast<double>(d[i]));
    r = call1(ctx, "reshape", {args[0], Value(sz)});
  } else {
    r = args[0];
  }
  return {r, Value(args.size() > 1 ? args[1].to_double("n") : static_cast<double>(n))};
}

/// Y = pagetranspose(X): transpose of every page X(:, :, i, ...).
Outputs bi_pagetranspose(CallContext& ctx, Args args, int nargout) {
  check_nargin(args, 1, 1);
  check_nargout(nargout, 1);
  return {page_perm(ctx, args[0])};
}
/// Y = pagectranspose(X): conjugate transpose of every page.
Outputs bi_pagectranspose(CallContext& ctx, Args args, int nargout) {
  check_nargin(args, 1, 1);
  check_nargout(nargout, 1);
  return {call1(ctx, "conj", {page_perm(ctx, args[0])})};
}

/// Z = pagemtimes(X, Y) | pagemtimes(X, transpX, Y, transpY): matrix product of every page,
/// pages (dimensions 3 and up) broadcast by implicit expansion; transp 'none', 'transpose' or
/// 'ctranspose'.
Outputs bi_pagemtimes(CallContext& ctx, Args args, int nargout) {
  check_nargout(nargout, 1);
  Value X, Y;
  std::string tx = "none", ty = "none";
  if (args.size() == 2) {
    X = args[0];
    Y = args[1];
  } else if (args.size() == 4) {
    X = args[0];
    tx = args[1].to_text("transpX");
    Y = args[2];
    ty = args[3].to_text("transpY");
  } else {
    throw_error(args.size() < 2 ? "MATLAB:minrhs" : "MATLAB:TooManyInputs",
                args.size() < 2 ? "Not enough input arguments." : "Too many input arguments.");
  }
  auto check = [](const std::string& t) {
    if (t != "none" && t != "transpose" && t != "ctranspose")
      throw_error("MATLAB:pagemtimes:invalidTranspose", "Transpose option must be 'none', "
                  "'transpose', or 'ctranspose'.");
  };
  check(tx);
  check(ty);
  Tensor a = num_arg(X, "pagemtimes"), b = num_arg(Y, "pagemtimes");
  const Dims &da = a.dims(), &db = b.dims();
  // op(page) sizes: the transpose options are BLAS transpose flags (no page is copied).
  const bool ta = tx != "none", tb = ty != "none";
  int64_t m = ta ? da[1] : da[0], k = ta ? da[0] : da[1];
  int64_t k2 = tb ? db[1] : db[0], n = tb ? db[0] : db[1];
  if (k != k2)
    throw_error("MATLAB:pagemtimes:SizeMismatch", "Incorrect dimensions for matrix "
                "multiplication.");
  Dims pa, pb;
  {
    int nd = std::max(da.ndims(), db.ndims());
    Dims ta_(1, 1), tb_(1, 1);
    for (int q = 2; q < nd; ++q) {
      ta_.set(q - 2, da[q]);
      tb_.set(q - 2, db[q]);
    }
    pa = ta_;
    pb = tb_;
  }
  Dims pd = broadcast_dims(pa, pb);
  auto ma = mathutil::broadcast_map(pa, pd), mb = mathutil::broadcast_map(pb, pd);
  Dims od(m, n);
  for (int q = 0; q < pd.ndims(); ++q)
    if (q + 2 < 12) od.set(q + 2, pd[q]);
  od.normalize();
  const bool cplx = a.is_complex() || b.is_complex();
  const ClassId c = (a.cls() == ClassId::Single || b.cls() == ClassId::Single) ? ClassId::Single
                                                                                : ClassId::Double;
  // Operands in the result's class (and complex when either is), then one BLAS gemm per page
  // (batched gemm; OpenBLAS has no batched entry in this version).
  auto as = [&](const Tensor& t) {
    Tensor r = t.cls() == c ? t : t.to_class(c);
    return cplx && !r.is_complex() ? r.to_complex() : r;
  };
  const Tensor A = as(a), B = as(b);
  Tensor r = Tensor::zeros(c, od, cplx);
  const int64_t np = pd.numel();
  if (m == 0 || n == 0 || np == 0) return {Value(r)};
  const int lda = static_cast<int>(std::max<int64_t>(1, da[0]));
  const int ldb = static_cast<int>(std::max<int64_t>(1, db[0]));
  const int M = static_cast<int>(m), N = static_cast<int>(n), K = static_cast<int>(k);
  const auto opa = tx == "ctranspose" ? CblasConjTrans : ta ? CblasTrans : CblasNoTrans;
  const auto opb = ty == "ctranspose" ? CblasConjTrans : tb ? CblasTrans : CblasNoTrans;
  const int64_t sa = da[0] * da[1], sb = db[0] * db[1], sr = m * n;
  if (k == 0) return {Value(r)};
  for (int64_t p = 0; p < np; ++p) {
    const int64_t oa = ma[p] * sa, ob = mb[p] * sb, orr = p * sr;
    if (c == ClassId::Single && !cplx) {
      cblas_sgemm(CblasColMajor, opa, opb, M, N, K, 1.0f, A.data<float>() + oa, lda,
                  B.data<float>() + ob, ldb, 0.0f, r.mutable_data<float>() + orr, M);
    } else if (!cplx) {
      cblas_dgemm(CblasColMajor, opa, opb, M, N, K, 1.0, A.data<double>() + oa, lda,
                  B.data<double>() + ob, ldb, 0.0, r.mutable_data<double>() + orr, M);
    } else if (c == ClassId::Single) {
      const std::complex<float> one = 1, zero = 0;
      using C = std::complex<float>;
      cblas_cgemm(CblasColMajor, opa, opb, M, N, K, &one, static_cast<const C*>(A.raw()) + oa,
                  lda, static_cast<const C*>(B.raw()) + ob, ldb, &zero,
                  static_cast<C*>(r.mutable_raw()) + orr, M);
    } else {
      const std::complex<double> one = 1, zero = 0;
      using C = std::complex<double>;
      cblas_zgemm(CblasColMajor, opa, opb, M, N, K, &one, static_cast<const C*>(A.raw()) + oa,
                  lda, static_cast<const C*>(B.raw()) + ob, ldb, &zero,
                  static_cast<C*>(r.mutable_raw()) + orr, M);
    }
  }
  return {Value(r.drop_zero_imag())};
}

/// u = repelem(v, n) (vector v, scalar or per-element n) | B = repelem(A, r1, ..., rN):
/// element repetition. Works for numeric, logical, char, cell and string arrays (by index).
Outputs bi_repelem(CallContext& ctx, Args args, int nargout) {
  check_nargin(args, 2, 1000);
  check_nargout(nargout, 1);
  const Value& A = args[0];
  Dims d = A.dims();
  std::vector<std::vector<double>> idx;  // per dimension: 1-based source indices
  auto expand = [](int64_t len, const std::vector<double>& reps, const char* what) {
    std::vector<double> out;
    if (reps.size() != 1 && static_cast<int64_t>(reps.size()) != len)
      throw_error("MATLAB:repelem:mismatchedReplications", "%s", what);
    // The counts are checked and summed first (in double): Inf is no integer (its cast would
    // be undefined) and a total beyond memory (1e12 copies) is MATLAB's size error, not an
    // endless loop of push_back.
    double total = 0;
    for (int64_t i = 0; i < len; ++i) {
      double rr = reps.size() == 1 ? reps[0] : reps[i];
      if (!(rr >= 0) || rr != std::floor(rr) || std::isinf(rr))
        throw_error("MATLAB:repelem:invalidReplications", "Replication factors must be "
                    "non-negative integers.");
      total += rr;
    }
    check_array_size(Dims(1, total < 9.2e18 ? static_cast<int64_t>(total) : INT64_MAX),
                     sizeof(double));
    out.reserve(static_cast<size_t>(total));
    for (int64_t i = 0; i < len; ++i) {
      const double rr = reps.size() == 1 ? reps[0] : reps[i];
      out.insert(out.end(), static_cast<size_t>(rr), static_cast<double>(i + 1));
    }
    return out;
  };
  if (args.size() == 2) {
    if (!d.is_vector() && !d.is_scalar())
      throw_error("MATLAB:repelem:invalidInputsToRepelem", "If the first input is a matrix, "
                  "then there must be at least three inputs.");
    std::vector<double> reps = mathutil::doubles_of(args[1], "repelem");
    std::vector<double> li = expand(d.numel(), reps, "The length of the replication vector "
                                    "must match the length of the input vector.");
    std::vector<int64_t> lin;
    for (double v : li) lin.push_back(static_cast<int64_t>(v) - 1);
    int64_t L = static_cast<int64_t>(lin.size());
    return {take(A, lin, d.is_column() && !d.is_scalar() ? Dims(L, 1) : Dims(1, L))};
  }
  int nd = std::max<int>(static_cast<int>(args.size()) - 1, d.ndims());
  Dims od(1, 1);
  for (int k = 0; k < nd; ++k) {
    if (k + 1 < static_cast<int>(args.size())) {
      std::vector<double> reps = mathutil::doubles_of(args[k + 1], "repelem");
      idx.push_back(expand(d[k], reps, "Replication vector length must match the size of the "
                           "input in that dimension."));
    } else {
      idx.push_back(expand(d[k], {1.0}, ""));
    }
    od.set(k, static_cast<int64_t>(idx.back().size()));
  }
  od.normalize();
  check_array_size(od, sizeof(int64_t));  // the index list below, before it is allocated
  auto st = strides_of(d);
  std::vector<int64_t> lin(static_cast<size_t>(od.numel()));
  std::vector<int64_t> sub(static_cast<size_t>(nd), 0);
  for (int64_t i = 0; i < od.numel(); ++i) {
    int64_t src = 0;
    for (int k = 0; k < nd; ++k)
      src += (static_cast<int64_t>(idx[k][sub[k]]) - 1) * (k < d.ndims() ? st[k] : 0);
    lin[i] = src;
    for (int k = 0; k < nd; ++k) {
      if (++sub[k] < od[k]) break;
      sub[k] = 0;
    }
  }
  (void)ctx;
  return {take(A, lin, od)};
}

/// P = perms(v): all permutations of v's elements, one per row, in reverse lexicographic
/// order of positions (MATLAB's order). numel(v) <= 11 in practice (memory).
Outputs bi_perms(CallContext& ctx, Args args, int nargout) {
  check_nargin(args, 1, 1);
  check_nargout(nargout, 1);
  int64_t n = args[0].numel();
  if (n > 11)
    throw_error("MATLAB:pmaxsize", "Maximum variable size allowed by the program is exceeded.");
  std::vector<int> p(static_cast<size_t>(n));
  std::iota(p.begin(), p.end(), 0);
  std::vector<std::vector<int>> rows;
  std::sort(p.begin(), p.end(), std::greater<int>());
  do rows.push_back(p);
  while (std::prev_permutation(p.begin(), p.end()));
  int64_t m = static_cast<int64_t>(rows.size());
  if (n == 0) m = 1;
  Tensor I = Tensor::uninit(ClassId::Double, Dims(m, n));
  for (int64_t i = 0; i < static_cast<int64_t>(rows.size()); ++i)
    for (int64_t j = 0; j < n; ++j) I.set_double(j * m + i, rows[i][j] + 1);
  if (n == 0) return {take(args[0], {}, Dims(1, 0))};
  std::vector<int64_t> lin(static_cast<size_t>(m * n));
  for (int64_t i = 0; i < m; ++i)
    for (int64_t j = 0; j < n; ++j) lin[j * m + i] = rows[i][j];
  (void)ctx;
  return {take(args[0], lin, Dims(m, n))};
}

/// p = randperm(n) | randperm(n, k): a random permutation of 1:n (k distinct values), from
/// the session's random stream (rand).
Outputs bi_randperm(CallContext& ctx, Args args, int nargout) {
  check_nargin(args, 1, 2);
  check_nargout(nargout, 1);
  double nd = args[0].to_double("n");
  if (!(nd >= 0) || nd != std::floor(nd))
    throw_error("MATLAB:randperm:inputType", "N must be a nonnegative integer.");
  int64_t n = clamp_count(nd), k = n;  // 1e300: a size error below, not an undefined cast
  if (args.size() > 1) {
    double kd = args[1].to_double("k");
    if (!(kd >= 0) || kd != std::floor(kd) || kd > nd)
      throw_error("MATLAB:randperm:inputKTooLarge", "K must be less than or equal to N.");
    k = static_cast<int64_t>(kd);
  }
  Tensor u = call1(ctx, "rand", {Value(1.0), Value(static_cast<double>(n))}).tensor();
  std::vector<int64_t> idx(static_cast<size_t>(n));
  std::iota(idx.begin(), idx.end(), 0);
  std::stable_sort(idx.begin(), idx.end(),
                   [&](int64_t a, int64_t b) { return u.get_double(a) < u.get_double(b); });
  Tensor r = Tensor::uninit(ClassId::Double, Dims(1, k));
  for (int64_t i = 0; i < k; ++i) r.set_double(i, static_cast<double>(idx[i] + 1));
  return {Value(r)};
}

/// y = logspace(a, b, n): n (default 50) points from 10^a to 10^b; when b == pi the points
/// end at pi (MATLAB's digital-signal form).
Outputs bi_logspace(CallContext& ctx, Args args, int nargout) {
  check_nargin(args, 2, 3);
  check_nargout(nargout, 1);
  double a = args[0].to_double("a"), b = args[1].to_double("b");
  double n = args.size() > 2 ? args[2].to_double("n") : 50;
  if (b == M_PI) b = std::log10(M_PI);
  Value lin = call1(ctx, "linspace", {Value(a), Value(b), Value(n)});
  return {call1(ctx, "power", {Value(10.0), lin})};
}

/// C = bsxfun(fun, A, B): fun applied to A and B expanded along their singleton dimensions
/// (both expanded explicitly, then one call of fun).
Outputs bi_bsxfun(CallContext& ctx, Args args, int nargout) {
  check_nargin(args, 3, 3);
  check_nargout(nargout, 1);
  Dims od = broadcast_dims(args[1].dims(), args[2].dims());
  // A builtin that expands singleton dimensions itself (every binary op of runtime/ops.def:
  // the arithmetic, relational and logical operators, max, min, atan2, hypot, mod, rem) gets
  // the operands as they are: the same result without the repmat copies, and it stays a graph
  // op where the data is lazy.
  if (args[0].is_function() && args[1].is_tensor() && args[2].is_tensor()) {
    const std::string name = args[0].function()->name();
    const std::optional<OpId> op = op_from_name(name);
    if (op && op_is_binary(*op) && ctx.exist(name) == 5)
      return {call1(ctx, name.c_str(), {args[1], args[2]})};
  }
  auto rep = [&](const Value& v) {
    Dims d = v.dims();
    if (d == od) return v;
    Tensor r = Tensor::uninit(ClassId::Double, Dims(1, std::max(od.ndims(), d.ndims())));
    for (int k = 0; k < r.numel(); ++k) r.set_double(k, d[k] == od[k] ? 1.0 : static_cast<double>(od[k]));
    return call1(ctx, "repmat", {v, Value(r)});
  };
  Value a = rep(args[1]), b = rep(args[2]);
  std::vector<Value> fa{a, b};
  Outputs o = ctx.call(args[0], Args(fa.data(), fa.size()), 1);
  if (o.empty()) throw_error("MATLAB:TooManyOutputs", "Too many output arguments.");
  return {o[0]};
}

}  // namespace

void register_matfun(Registry& r) {
  r.add("issymmetric", bi_issymmetric);
  r.add("ishermitian", bi_ishermitian);
  r.add("isdiag", bi_isdiag);
  r.add("istril", bi_istril);
  r.add("istriu", bi_istriu);
  r.add("isbanded", bi_isbanded);
  r.add("allfinite", bi_allfinite);
  r.add("anynan", bi_anynan);
  r.add("rref", bi_rref);
  r.add("rcond", bi_rcond);
  r.add("ipermute", bi_ipermute);
  r.add("pagetranspose", bi_pagetranspose);
  r.add("shiftdim", bi_shiftdim);
  r.add("pagectranspose", bi_pagectranspose);
  r.add("pagemtimes", bi_pagemtimes);
  r.add("repelem", bi_repelem);
  r.add("perms", bi_perms);
  r.add("randperm", bi_randperm);
  r.add("logspace", bi_logspace);
  r.add("bsxfun", bi_bsxfun);
}

}  // namespace matfuse
