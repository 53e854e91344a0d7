// Sparse arithmetic: elementwise operators and functions with MATLAB's result classes, matrix
// products, and reductions (sum, mean, max, min, any, all, norm, trace).
//
// Result classes (MATLAB's rules for sparse operands, "Sparse Matrix Operations" in its
// documentation): an operation on sparse operands gives a sparse result; with a full operand,
// S + F and S - F (also with a scalar F) are full, every other elementwise operator and
// relational or logical operator is sparse. Products: S*S sparse, S*F and F*S full, S*scalar
// sparse. Reductions of a sparse matrix are sparse.
//
// Elementwise kernels run the registered full builtin on the stored values only (so their
// class, complex and NaN rules are the full ones): f(S) for a zero-preserving f maps the
// nonzeros; S op T merges the two patterns (union) and applies op to the aligned values; an op
// with op(0,0) != 0 (S ./ T, S == T, ~S) is computed on full operands and stored back sparse.
// Products use the column-oriented algorithms of Gilbert, Moler and Schreiber ("Sparse Matrices
// in MATLAB: Design and Implementation", 1992): sparse*sparse is Gustavson's algorithm (F. G.
// Gustavson, "Two fast algorithms for sparse matrices: multiplication and permuted
// transposition", ACM TOMS 4(3), 1978) with a dense accumulator.
#include <algorithm>
#include <cmath>
#include <complex>
#include <cstring>

#include "builtins/math_util.h"
#include "builtins/methods.h"
#include "builtins/sparse_util.h"

namespace matfuse {

namespace {

using namespace sparse_detail;
using mathutil::call1;
using cplx = std::complex<double>;

bool all_zero(const Tensor& t) {
  for (int64_t k = 0; k < t.numel(); ++k) {
    const cplx z = t.get_complex(k);
    if (z.real() != 0 || z.imag() != 0 || std::isnan(z.real()) || std::isnan(z.imag())) return false;
  }
  return true;
}

/// A full result to be stored sparse (relational and most arithmetic operators).
Value sparse_of(const Value& full) {
  const Value f = densify(full);
  if (!f.is_tensor()) return f;
  Tensor t = f.tensor();
  if (t.cls() != ClassId::Double && t.cls() != ClassId::Logical) return f;
  return sparse_from_full(t);
}

/// The value of full y aligned with every stored entry of x (y broadcasts as a scalar, a row of
/// length n or a column of length m). False when y does not broadcast that way.
bool gather_aligned(const SparseMatrix& x, const Tensor& y, Tensor& out) {
  const int64_t m = x.rows(), n = x.cols();
  const Dims& d = y.dims();
  if (d.ndims() > 2) return false;
  int mode;
  if (y.numel() == 1) mode = 0;
  else if (d[0] == m && d[1] == n) mode = 1;
  else if (d[0] == 1 && d[1] == n) mode = 2;
  else if (d[0] == m && d[1] == 1) mode = 3;
  else return false;
  std::vector<int64_t> idx(static_cast<size_t>(x.nnz()));
  for (int64_t c = 0; c < n; ++c)
    for (int64_t p = x.jc()[c]; p < x.jc()[c + 1]; ++p)
      idx[p] = mode == 0 ? 0 : mode == 1 ? c * m + x.ir()[p] : mode == 2 ? c : x.ir()[p];
  out = take_elements(y, idx);
  return true;
}

/// x OP y elementwise where x or y is sparse (name: the builtin of the operator).
Value ew_binary(CallContext& ctx, const char* name, const Value& x, const Value& y) {
  const SparseMatrix* xs = as_sparse(x);
  const SparseMatrix* ys = as_sparse(y);
  const bool additive = std::strcmp(name, "plus") == 0 || std::strcmp(name, "minus") == 0;
  // A 1x1 sparse beside a larger operand acts as a scalar.
  if (xs && ys && xs->dims() != ys->dims()) {
    if (xs->rows() * xs->cols() == 1) return ew_binary(ctx, name, densify(x), y);
    if (ys->rows() * ys->cols() == 1) return ew_binary(ctx, name, x, densify(y));
    return sparse_of(call1(ctx, name, {densify(x), densify(y)}));
  }
  if (xs && ys) {
    const Value f00 = call1(ctx, name, {Value(0.0), Value(0.0)});
    if (!all_zero(densify(f00).tensor()))
      return sparse_of(call1(ctx, name, {densify(x), densify(y)}));
    // Union of the patterns, values aligned (a missing entry is zero).
    const int64_t m = xs->rows(), n = xs->cols();
    std::vector<int64_t> jc(static_cast<size_t>(n) + 1, 0), ir, ax, ay;
    for (int64_t c = 0; c < n; ++c) {
      int64_t p = xs->jc()[c], q = ys->jc()[c];
      const int64_t pe = xs->jc()[c + 1], qe = ys->jc()[c + 1];
      while (p < pe || q < qe) {
        const int64_t rp = p < pe ? xs->ir()[p] : m, rq = q < qe ? ys->ir()[q] : m;
        const int64_t r = std::min(rp, rq);
        ir.push_back(r);
        ax.push_back(rp == r ? p++ : -1);
        ay.push_back(rq == r ? q++ : -1);
      }
      jc[c + 1] = static_cast<int64_t>(ir.size());
    }
    const Value vx(take_elements(xs->vals(), ax)), vy(take_elements(ys->vals(), ay));
    const Tensor v = densify(call1(ctx, name, {vx, vy})).tensor();
    return make_sparse(m, n, std::move(jc), std::move(ir), v);
  }
  // One sparse operand and a full one.
  const Value& sv = xs ? x : y;
  const Value& fv = xs ? y : x;
  const SparseMatrix& s = sp(sv);
  if (!fv.is_tensor()) return call1(ctx, name, {densify(x), densify(y)});
  if (additive) return call1(ctx, name, {densify(x), densify(y)});  // S + F is full
  const Tensor f = fv.tensor();
  // op(0, f) == 0 for every element of f: the result keeps the pattern of S.
  const Value z = call1(ctx, name, xs ? std::vector<Value>{Value(0.0), fv} : std::vector<Value>{fv, Value(0.0)});
  Tensor aligned;
  if (all_zero(densify(z).tensor()) && gather_aligned(s, f, aligned)) {
    const Value vs(s.vals()), va(aligned);
    const Tensor v = densify(call1(ctx, name, xs ? std::vector<Value>{vs, va} : std::vector<Value>{va, vs})).tensor();
    if (v.cls() != ClassId::Double && v.cls() != ClassId::Logical)
      return call1(ctx, name, {densify(x), densify(y)});  // single or integer results stay full
    return make_sparse(s.rows(), s.cols(), s.jc(), s.ir(), v);
  }
  return sparse_of(call1(ctx, name, {densify(x), densify(y)}));
}

template <const char* Name>
Outputs m_binary(CallContext& ctx, Args args, int nargout) {
  check_nargin(args, 2, 2);
  check_nargout(nargout, 1);
  return {ew_binary(ctx, Name, args[0], args[1])};
}

/// f(S) for an elementwise function: on the nonzeros when f(0) == 0, else on full S; sparse.
template <const char* Name>
Outputs m_unary(CallContext& ctx, Args args, int nargout) {
  check_nargin(args, 1, 1);
  check_nargout(nargout, 1);
  const SparseMatrix& s = sp(args[0]);
  const Value f0 = call1(ctx, Name, {Value(0.0)});
  if (!all_zero(densify(f0).tensor())) return {sparse_of(call1(ctx, Name, {densify(args[0])}))};
  const Tensor v = densify(call1(ctx, Name, {Value(s.vals())})).tensor();
  if (v.cls() != ClassId::Double && v.cls() != ClassId::Logical)
    return {call1(ctx, Name, {densify(args[0])})};
  return {make_sparse(s.rows(), s.cols(), s.jc(), s.ir(), v)};
}

#define MF_NAME(id, text) constexpr char id[] = text;
MF_NAME(k_plus, "plus")
MF_NAME(k_minus, "minus")
MF_NAME(k_times, "times")
MF_NAME(k_rdivide, "rdivide")
MF_NAME(k_ldivide, "ldivide")
MF_NAME(k_power, "power")
MF_NAME(k_eq, "eq")
MF_NAME(k_ne, "ne")
MF_NAME(k_lt, "lt")
MF_NAME(k_le, "le")
MF_NAME(k_gt, "gt")
MF_NAME(k_ge, "ge")
MF_NAME(k_and, "and")
MF_NAME(k_or, "or")
MF_NAME(k_xor, "xor")
MF_NAME(k_atan2, "atan2")
MF_NAME(k_hypot, "hypot")
MF_NAME(k_rem, "rem")
MF_NAME(k_mod, "mod")
MF_NAME(k_not, "not")
MF_NAME(k_uminus, "uminus")
MF_NAME(k_abs, "abs")
MF_NAME(k_sqrt, "sqrt")
MF_NAME(k_sin, "sin")
MF_NAME(k_tan, "tan")
MF_NAME(k_asin, "asin")
MF_NAME(k_atan, "atan")
MF_NAME(k_sinh, "sinh")
MF_NAME(k_tanh, "tanh")
MF_NAME(k_asinh, "asinh")
MF_NAME(k_atanh, "atanh")
MF_NAME(k_real, "real")
MF_NAME(k_imag, "imag")
MF_NAME(k_conj, "conj")
MF_NAME(k_sign, "sign")
MF_NAME(k_round, "round")
MF_NAME(k_fix, "fix")
MF_NAME(k_floor, "floor")
MF_NAME(k_ceil, "ceil")
MF_NAME(k_expm1, "expm1")
MF_NAME(k_log1p, "log1p")
MF_NAME(k_exp, "exp")
MF_NAME(k_cos, "cos")
MF_NAME(k_cosh, "cosh")
MF_NAME(k_log, "log")
MF_NAME(k_isnan, "isnan")
MF_NAME(k_isinf, "isinf")
MF_NAME(k_isfinite, "isfinite")
MF_NAME(k_angle, "angle")
#undef MF_NAME

Outputs m_uplus(CallContext&, Args args, int nargout) {
  check_nargin(args, 1, 1);
  check_nargout(nargout, 1);
  const SparseMatrix& s = sp(args[0]);
  if (!s.is_logical()) return {args[0]};
  return {make_sparse(s.rows(), s.cols(), s.jc(), s.ir(), s.vals().to_class(ClassId::Double))};
}

// --- products --------------------------------------------------------------------------------

/// The stored values of s as T (double or complex<double>).
template <class T>
std::vector<T> values_as(const SparseMatrix& s) {
  std::vector<T> v(static_cast<size_t>(s.nnz()));
  for (int64_t k = 0; k < s.nnz(); ++k) {
    if constexpr (std::is_same_v<T, double>) v[k] = s.vals().get_double(k);
    else v[k] = s.vals().get_complex(k);
  }
  return v;
}

template <class T>
std::vector<T> full_as(const Tensor& t) {
  std::vector<T> v(static_cast<size_t>(t.numel()));
  if constexpr (std::is_same_v<T, double>) {
    if (t.cls() == ClassId::Double && !t.is_complex()) {
      std::memcpy(v.data(), t.data<double>(), v.size() * sizeof(double));
      return v;
    }
    for (int64_t k = 0; k < t.numel(); ++k) v[k] = t.get_double(k);
  } else {
    for (int64_t k = 0; k < t.numel(); ++k) v[k] = t.get_complex(k);
  }
  return v;
}

template <class T>
Tensor tensor_from(const std::vector<T>& v, const Dims& d) {
  constexpr bool cx = !std::is_same_v<T, double>;
  Tensor t = Tensor::uninit(ClassId::Double, d, cx);
  std::memcpy(t.mutable_raw(), v.data(), v.size() * sizeof(T));
  return cx ? t.drop_zero_imag() : t;
}

/// Y = S * F (S m-by-k sparse, F k-by-n full): full m-by-n. One pass over S per column of F.
template <class T>
Value spmm(const SparseMatrix& s, const Tensor& f) {
  const int64_t m = s.rows(), k = s.cols(), n = f.dims()[1];
  const std::vector<T> a = values_as<T>(s), b = full_as<T>(f);
  std::vector<T> y(static_cast<size_t>(m * n), T(0));
  const int64_t* jc = s.jc().data();
  const int64_t* ir = s.ir().data();
  for (int64_t j = 0; j < n; ++j) {
    T* yj = y.data() + j * m;
    const T* bj = b.data() + j * k;
    for (int64_t c = 0; c < k; ++c) {
      const T bc = bj[c];
      if (bc == T(0)) continue;
      for (int64_t p = jc[c]; p < jc[c + 1]; ++p) yj[ir[p]] += a[p] * bc;
    }
  }
  return Value(tensor_from(y, Dims(m, n)));
}

/// Y = F * S (F m-by-k full, S k-by-n sparse): full m-by-n.
template <class T>
Value fmsp(const Tensor& f, const SparseMatrix& s) {
  const int64_t m = f.dims()[0], n = s.cols();
  const std::vector<T> a = values_as<T>(s), b = full_as<T>(f);
  std::vector<T> y(static_cast<size_t>(m * n), T(0));
  for (int64_t j = 0; j < n; ++j) {
    T* yj = y.data() + j * m;
    for (int64_t p = s.jc()[j]; p < s.jc()[j + 1]; ++p) {
      const T v = a[p];
      const T* bc = b.data() + s.ir()[p] * m;
      for (int64_t i = 0; i < m; ++i) yj[i] += bc[i] * v;
    }
  }
  return Value(tensor_from(y, Dims(m, n)));
}

/// C = A * B, both sparse (Gustavson's algorithm, rows of each column sorted afterwards).
template <class T>
Value spgemm(const SparseMatrix& A, const SparseMatrix& B) {
  const int64_t m = A.rows(), n = B.cols();
  const std::vector<T> a = values_as<T>(A), b = values_as<T>(B);
  std::vector<int64_t> jc(static_cast<size_t>(n) + 1, 0), ir;
  std::vector<T> x;
  std::vector<T> acc(static_cast<size_t>(m), T(0));
  std::vector<int64_t> mark(static_cast<size_t>(m), -1);
  std::vector<int64_t> rows;
  for (int64_t j = 0; j < n; ++j) {
    rows.clear();
    for (int64_t q = B.jc()[j]; q < B.jc()[j + 1]; ++q) {
      const int64_t c = B.ir()[q];
      const T bv = b[q];
      for (int64_t p = A.jc()[c]; p < A.jc()[c + 1]; ++p) {
        const int64_t r = A.ir()[p];
        if (mark[r] != j) {
          mark[r] = j;
          acc[r] = T(0);
          rows.push_back(r);
        }
        acc[r] += a[p] * bv;
      }
    }
    std::sort(rows.begin(), rows.end());
    for (int64_t r : rows) {
      ir.push_back(r);
      x.push_back(acc[r]);
    }
    jc[j + 1] = static_cast<int64_t>(ir.size());
  }
  return make_sparse(m, n, std::move(jc), std::move(ir), tensor_from(x, Dims(static_cast<int64_t>(x.size()), 1)));
}

[[noreturn]] void inner_dims() {
  throw_error("MATLAB:innerdim",
              "Incorrect dimensions for matrix multiplication. Check that the number of columns "
              "in the first matrix matches the number of rows in the second matrix. To operate "
              "on each element of the matrix individually, use TIMES (.*) for elementwise "
              "multiplication.");
}

Outputs m_mtimes(CallContext& ctx, Args args, int nargout) {
  check_nargin(args, 2, 2);
  check_nargout(nargout, 1);
  const Value &x = args[0], &y = args[1];
  if (x.numel() == 1 || y.numel() == 1) {
    // A scalar factor: elementwise (a full scalar times S keeps S sparse).
    if (x.numel() == 1 && as_sparse(x) && !as_sparse(y)) return {call1(ctx, "mtimes", {densify(x), y})};
    if (y.numel() == 1 && as_sparse(y) && !as_sparse(x)) return {call1(ctx, "mtimes", {x, densify(y)})};
    return {ew_binary(ctx, "times", x, y)};
  }
  if (x.dims().ndims() > 2 || y.dims().ndims() > 2 || x.dims()[1] != y.dims()[0]) inner_dims();
  const SparseMatrix* xs = as_sparse(x);
  const SparseMatrix* ys = as_sparse(y);
  auto is_cx = [](const Value& v) {
    if (const SparseMatrix* s = as_sparse(v)) return s->is_complex();
    return v.is_tensor() && v.tensor().is_complex();
  };
  const bool cx = is_cx(x) || is_cx(y);
  if (xs && ys) return {cx ? spgemm<cplx>(*xs, *ys) : spgemm<double>(*xs, *ys)};
  const Value& other = xs ? y : x;
  if (!other.is_tensor()) mathutil::undefined_for("mtimes", other);
  Tensor f = other.tensor();
  if (f.cls() != ClassId::Double && f.cls() != ClassId::Logical && f.cls() != ClassId::Char)
    throw_error("MATLAB:mtimes:sparseSingle",
                "Sparse matrix products are supported for double and logical operands only.");
  if (xs) return {cx ? spmm<cplx>(*xs, f) : spmm<double>(*xs, f)};
  return {cx ? fmsp<cplx>(f, *ys) : fmsp<double>(f, *ys)};
}

/// S / x: elementwise for a scalar x; otherwise through mldivide of the transposes (A/B =
/// (B'\A')').
Outputs m_mrdivide(CallContext& ctx, Args args, int nargout) {
  check_nargin(args, 2, 2);
  check_nargout(nargout, 1);
  if (args[1].numel() == 1) return {ew_binary(ctx, "rdivide", args[0], densify(args[1]))};
  const Value bt = callv(ctx, "transpose", {args[1]});
  const Value at = callv(ctx, "transpose", {args[0]});
  return {callv(ctx, "transpose", {callv(ctx, "mldivide", {bt, at})})};
}

/// S ^ p: scalar S, or square S with a nonnegative integer p (repeated squaring, sparse).
Outputs m_mpower(CallContext& ctx, Args args, int nargout) {
  check_nargin(args, 2, 2);
  check_nargout(nargout, 1);
  if (args[0].numel() == 1 && args[1].numel() == 1) return {ew_binary(ctx, "power", args[0], args[1])};
  const SparseMatrix* s = as_sparse(args[0]);
  const Value pv = densify(args[1]);
  if (s && pv.is_tensor() && pv.numel() == 1 && !pv.tensor().is_complex()) {
    const double p = pv.tensor().get_double(0);
    if (s->rows() != s->cols())
      throw_error("MATLAB:mpower:notScalarAndSquareMatrix",
                  "Incorrect dimensions for raising a matrix to a power. Check that the matrix "
                  "is square and the power is a scalar. To operate on each element of the matrix "
                  "individually, use POWER (.^) for elementwise power.");
    if (p >= 0 && p == std::floor(p) && p < 1e9) {
      Value result = call1(ctx, "speye", {Value(static_cast<double>(s->rows()))});
      Value base = args[0];
      for (auto e = static_cast<uint64_t>(p); e; e >>= 1) {
        if (e & 1) result = callv(ctx, "mtimes", {result, base});
        if (e > 1) base = callv(ctx, "mtimes", {base, base});
      }
      return {result};
    }
  }
  return {call1(ctx, "mpower", {densify(args[0]), densify(args[1])})};
}

// --- reductions ------------------------------------------------------------------------------

/// The dimension argument of a reduction (1 or 2; 'all' gives 0), default: the first
/// non-singleton dimension.
int reduce_dim(const SparseMatrix& s, Args args, size_t at) {
  if (args.size() > at) {
    if (args[at].is_text()) {
      if (args[at].to_text() == "all") return 0;
      throw_error("MATLAB:getdimarg:invalidDim", "Invalid dimension argument.");
    }
    const int d = mathutil::dim_arg(densify(args[at])) + 1;
    return d;
  }
  return s.rows() != 1 ? 1 : 2;
}

/// Per-column (dim 1) or per-row (dim 2) accumulation over the stored values; kind 0 sum,
/// 1 any, 2 all (all: the count of nonzeros is compared to the length).
Value reduce(const SparseMatrix& s, int dim, int kind) {
  const int64_t m = s.rows(), n = s.cols();
  if (dim > 2) return make_sparse(m, n, s.jc(), s.ir(), kind == 0 && s.is_logical() ? s.vals().to_class(ClassId::Double) : (kind ? s.vals().to_class(ClassId::Logical) : s.vals()));
  const bool cx = s.is_complex();
  const int64_t len = dim == 1 ? n : m;
  const int64_t across = dim == 1 ? m : n;
  std::vector<cplx> acc(static_cast<size_t>(len), 0.0);
  std::vector<int64_t> cnt(static_cast<size_t>(len), 0);
  for (int64_t c = 0; c < n; ++c)
    for (int64_t p = s.jc()[c]; p < s.jc()[c + 1]; ++p) {
      const int64_t o = dim == 1 ? c : s.ir()[p];
      const cplx z = s.vals().get_complex(p);
      acc[o] += z;
      // any ignores NaN entries; all counts them as nonzero (MATLAB).
      if (!(kind == 1 && (std::isnan(z.real()) || std::isnan(z.imag())))) ++cnt[o];
    }
  const int64_t rm = dim == 1 ? 1 : m, rn = dim == 1 ? n : 1;
  std::vector<int64_t> jc(static_cast<size_t>(rn) + 1, 0), ir;
  std::vector<int64_t> pos;
  for (int64_t o = 0; o < len; ++o) {
    const bool nz = kind == 0 ? true : kind == 1 ? cnt[o] > 0 : cnt[o] == across;
    if (!nz) continue;
    pos.push_back(o);
  }
  Tensor v = Tensor::uninit(kind ? ClassId::Logical : ClassId::Double,
                            Dims(static_cast<int64_t>(pos.size()), 1), kind == 0 && cx);
  for (size_t t = 0; t < pos.size(); ++t) {
    if (kind) v.mutable_data<uint8_t>()[t] = 1;
    else if (cx) v.set_complex(static_cast<int64_t>(t), acc[pos[t]]);
    else v.set_double(static_cast<int64_t>(t), acc[pos[t]].real());
  }
  if (dim == 1) {
    for (size_t t = 0; t < pos.size(); ++t) jc[pos[t] + 1] = 1;
    for (int64_t c = 0; c < rn; ++c) jc[c + 1] += jc[c];
    ir.assign(pos.size(), 0);
  } else {
    ir = pos;
    jc[1] = static_cast<int64_t>(pos.size());
  }
  return make_sparse(rm, rn, std::move(jc), std::move(ir), std::move(v));
}

/// sum(S), sum(S, dim), sum(S, 'all'): sparse (double for logical S).
Outputs m_sum(CallContext& ctx, Args args, int nargout) {
  check_nargin(args, 1, 3);
  check_nargout(nargout, 1);
  const SparseMatrix& s = sp(args[0]);
  if (args.size() == 3 || (args.size() == 2 && args[1].is_text() && args[1].to_text() != "all"))
    return {sparse_of(call1(ctx, "sum", densify_all(args)))};
  const int dim = reduce_dim(s, args, 1);
  if (dim == 0) {
    const Value col = reduce(s, 1, 0);
    return {reduce(sp(col), 2, 0)};
  }
  return {reduce(s, dim, 0)};
}

/// any(S[, dim]) / all(S[, dim]): sparse logical.
template <int Kind>
Outputs m_anyall(CallContext&, Args args, int nargout) {
  check_nargin(args, 1, 2);
  check_nargout(nargout, 1);
  const SparseMatrix& s = sp(args[0]);
  const int dim = reduce_dim(s, args, 1);
  if (dim == 0) {
    const Value col = reduce(s, 1, Kind);
    return {reduce(sp(col), 2, Kind)};
  }
  return {reduce(s, dim, Kind)};
}

/// mean(S[, dim]): sparse, sum divided by the length.
Outputs m_mean(CallContext& ctx, Args args, int nargout) {
  check_nargin(args, 1, 2);
  check_nargout(nargout, 1);
  const SparseMatrix& s = sp(args[0]);
  if (args.size() == 2 && args[1].is_text() && args[1].to_text() != "all")
    return {sparse_of(call1(ctx, "mean", densify_all(args)))};
  const int dim = reduce_dim(s, args, 1);
  if (dim == 0) {
    const Value t = reduce(sp(reduce(s, 1, 0)), 2, 0);
    return {ew_binary(ctx, "rdivide", t, Value(static_cast<double>(s.rows() * s.cols())))};
  }
  if (dim > 2) return {make_sparse(s.rows(), s.cols(), s.jc(), s.ir(), s.vals().to_class(ClassId::Double))};
  const double len = static_cast<double>(dim == 1 ? s.rows() : s.cols());
  return {ew_binary(ctx, "rdivide", reduce(s, dim, 0), Value(len))};
}

/// max(S) / min(S) / max(S, [], dim): column (or row) extremes, implicit zeros included, NaN
/// ignored unless all are NaN; sparse. max(S, T) / max(S, x): elementwise. Two outputs: on
/// full S.
template <bool Max>
Outputs m_maxmin(CallContext& ctx, Args args, int nargout) {
  const char* name = Max ? "max" : "min";
  check_nargin(args, 1, 3);
  if (args.size() == 2) {
    check_nargout(nargout, 1);
    return {ew_binary(ctx, name, args[0], args[1])};
  }
  const SparseMatrix* sp0 = as_sparse(args[0]);
  if (nargout > 1 || !sp0 || sp0->is_complex() ||
      (args.size() == 3 && (!args[1].is_empty() || args[2].is_text()))) {
    Outputs r = ctx.call_named(name, densify_all(args), std::max(nargout, 1));
    if (!r.empty()) r[0] = sparse_of(r[0]);
    return r;
  }
  const SparseMatrix& s = *sp0;
  int dim = args.size() == 3 ? mathutil::dim_arg(densify(args[2])) + 1 : (s.rows() != 1 ? 1 : 2);
  if (dim > 2) return {args[0]};
  const int64_t m = s.rows(), n = s.cols();
  const int64_t len = dim == 1 ? n : m, across = dim == 1 ? m : n;
  if (across == 0) return {sparse_of(call1(ctx, name, densify_all(args)))};
  std::vector<double> best(static_cast<size_t>(len), NAN);
  std::vector<int64_t> cnt(static_cast<size_t>(len), 0);
  for (int64_t c = 0; c < n; ++c)
    for (int64_t p = s.jc()[c]; p < s.jc()[c + 1]; ++p) {
      const int64_t o = dim == 1 ? c : s.ir()[p];
      const double v = s.vals().get_double(p);
      ++cnt[o];
      if (std::isnan(v)) continue;
      if (std::isnan(best[o]) || (Max ? v > best[o] : v < best[o])) best[o] = v;
    }
  Tensor full = Tensor::uninit(ClassId::Double, dim == 1 ? Dims(1, n) : Dims(m, 1));
  for (int64_t o = 0; o < len; ++o) {
    double b = best[o];
    if (cnt[o] < across) b = std::isnan(b) ? 0.0 : (Max ? std::max(b, 0.0) : std::min(b, 0.0));
    full.set_double(o, b);
  }
  Value r = sparse_from_full(full);
  if (s.is_logical()) r = callv(ctx, "logical", {r});
  return {r};
}

/// norm(S), norm(S, p) for p = 1, Inf, 'fro' (matrices) and any p for vectors; the matrix
/// 2-norm is computed on full S.
Outputs m_norm(CallContext& ctx, Args args, int nargout) {
  check_nargin(args, 1, 2);
  check_nargout(nargout, 1);
  const SparseMatrix& s = sp(args[0]);
  const bool vec = s.rows() == 1 || s.cols() == 1;
  std::string p = "2";
  if (args.size() == 2) {
    if (args[1].is_text()) p = args[1].to_text();
    else {
      const double d = densify(args[1]).tensor().get_double(0);
      p = std::isinf(d) ? (d > 0 ? "inf" : "-inf") : d == 1 ? "1" : d == 2 ? "2" : "other";
    }
  }
  if (vec || p == "2" || p == "other" || p == "-inf") {
    if (vec) return {call1(ctx, "norm", {Value(s.vals()), args.size() == 2 ? densify(args[1]) : Value(2.0)})};
    return {call1(ctx, "norm", densify_all(args))};
  }
  if (p == "fro") return {call1(ctx, "norm", {Value(s.vals())})};
  // 1: the largest column sum of |S|; inf: the largest row sum.
  const bool rows = p == "inf" || p == "Inf";
  std::vector<double> acc(static_cast<size_t>(rows ? s.rows() : s.cols()), 0.0);
  for (int64_t c = 0; c < s.cols(); ++c)
    for (int64_t q = s.jc()[c]; q < s.jc()[c + 1]; ++q)
      acc[rows ? s.ir()[q] : c] += std::abs(s.vals().get_complex(q));
  double mx = 0;
  for (double a : acc) {
    if (std::isnan(a)) return {Value(NAN)};
    mx = std::max(mx, a);
  }
  return {Value(mx)};
}

/// trace(S): the sum of the diagonal, a 1-by-1 sparse matrix (MATLAB's trace is sum(diag(S))).
Outputs m_trace(CallContext&, Args args, int nargout) {
  check_nargin(args, 1, 1);
  check_nargout(nargout, 1);
  const SparseMatrix& s = sp(args[0]);
  if (s.rows() != s.cols())
    throw_error("MATLAB:square", "Matrix must be square.");
  cplx t = 0;
  for (int64_t c = 0; c < s.cols(); ++c)
    for (int64_t q = s.jc()[c]; q < s.jc()[c + 1]; ++q)
      if (s.ir()[q] == c) t += s.vals().get_complex(q);
  if (s.is_complex()) return {sparse_from_full(Tensor::complex_scalar(t).drop_zero_imag())};
  return {sparse_from_full(Tensor::scalar(t.real()))};
}

/// isequal(A, B, ...) / isequaln with sparse operands: equal sizes and values (the class and
/// the storage do not matter); compared as sparse, so huge sparse operands are not densified.
template <bool NanEqual>
Outputs m_isequal(CallContext& ctx, Args args, int nargout) {
  check_nargout(nargout, 1);
  if (args.size() < 2) throw_error("MATLAB:minrhs", "Not enough input arguments.");
  for (const Value& a : args)
    if (!as_sparse(a) && (!a.is_tensor() || a.is_char() || a.dims().ndims() > 2 ||
                          (a.cls() != ClassId::Double && a.cls() != ClassId::Logical)))
      return {call1(ctx, NanEqual ? "isequaln" : "isequal", densify_all(args))};
  const Value first = to_sparse(args[0]);
  const SparseMatrix& a = sp(first);
  for (size_t q = 1; q < args.size(); ++q) {
    const Value other = to_sparse(args[q]);
    const SparseMatrix& b = sp(other);
    bool eq = a.rows() == b.rows() && a.cols() == b.cols() && a.jc() == b.jc() && a.ir() == b.ir();
    for (int64_t k = 0; k < a.nnz() && eq; ++k) {
      const cplx x = a.vals().get_complex(k), y = b.vals().get_complex(k);
      const bool nx = std::isnan(x.real()) || std::isnan(x.imag());
      const bool ny = std::isnan(y.real()) || std::isnan(y.imag());
      eq = NanEqual && nx && ny ? true : x == y;
    }
    if (!eq) return {Value::logical(false)};
  }
  return {Value::logical(true)};
}

}  // namespace

void register_sparse_ops() {
  const std::string c = "sparse";
  add_class_method(c, "plus", m_binary<k_plus>);
  add_class_method(c, "minus", m_binary<k_minus>);
  add_class_method(c, "times", m_binary<k_times>);
  add_class_method(c, "rdivide", m_binary<k_rdivide>);
  add_class_method(c, "ldivide", m_binary<k_ldivide>);
  add_class_method(c, "power", m_binary<k_power>);
  add_class_method(c, "eq", m_binary<k_eq>);
  add_class_method(c, "ne", m_binary<k_ne>);
  add_class_method(c, "lt", m_binary<k_lt>);
  add_class_method(c, "le", m_binary<k_le>);
  add_class_method(c, "gt", m_binary<k_gt>);
  add_class_method(c, "ge", m_binary<k_ge>);
  add_class_method(c, "and", m_binary<k_and>);
  add_class_method(c, "or", m_binary<k_or>);
  add_class_method(c, "xor", m_binary<k_xor>);
  add_class_method(c, "atan2", m_binary<k_atan2>);
  add_class_method(c, "hypot", m_binary<k_hypot>);
  add_class_method(c, "rem", m_binary<k_rem>);
  add_class_method(c, "mod", m_binary<k_mod>);
  add_class_method(c, "not", m_unary<k_not>);
  add_class_method(c, "uminus", m_unary<k_uminus>);
  add_class_method(c, "uplus", m_uplus);
  add_class_method(c, "abs", m_unary<k_abs>);
  add_class_method(c, "sqrt", m_unary<k_sqrt>);
  add_class_method(c, "sin", m_unary<k_sin>);
  add_class_method(c, "tan", m_unary<k_tan>);
  add_class_method(c, "asin", m_unary<k_asin>);
  add_class_method(c, "atan", m_unary<k_atan>);
  add_class_method(c, "sinh", m_unary<k_sinh>);
  add_class_method(c, "tanh", m_unary<k_tanh>);
  add_class_method(c, "asinh", m_unary<k_asinh>);
  add_class_method(c, "atanh", m_unary<k_atanh>);
  add_class_method(c, "real", m_unary<k_real>);
  add_class_method(c, "imag", m_unary<k_imag>);
  add_class_method(c, "conj", m_unary<k_conj>);
  add_class_method(c, "sign", m_unary<k_sign>);
  add_class_method(c, "round", m_unary<k_round>);
  add_class_method(c, "fix", m_unary<k_fix>);
  add_class_method(c, "floor", m_unary<k_floor>);
  add_class_method(c, "ceil", m_unary<k_ceil>);
  add_class_method(c, "expm1", m_unary<k_expm1>);
  add_class_method(c, "log1p", m_unary<k_log1p>);
  add_class_method(c, "exp", m_unary<k_exp>);
  add_class_method(c, "cos", m_unary<k_cos>);
  add_class_method(c, "cosh", m_unary<k_cosh>);
  add_class_method(c, "log", m_unary<k_log>);
  add_class_method(c, "isnan", m_unary<k_isnan>);
  add_class_method(c, "isinf", m_unary<k_isinf>);
  add_class_method(c, "isfinite", m_unary<k_isfinite>);
  add_class_method(c, "angle", m_unary<k_angle>);
  add_class_method(c, "mtimes", m_mtimes);
  add_class_method(c, "mrdivide", m_mrdivide);
  add_class_method(c, "mpower", m_mpower);
  add_class_method(c, "sum", m_sum);
  add_class_method(c, "any", m_anyall<1>);
  add_class_method(c, "all", m_anyall<2>);
  add_class_method(c, "mean", m_mean);
  add_class_method(c, "max", m_maxmin<true>);
  add_class_method(c, "min", m_maxmin<false>);
  add_class_method(c, "norm", m_norm);
  add_class_method(c, "trace", m_trace);
  add_class_method(c, "isequal", m_isequal<false>);
  add_class_method(c, "isequaln", m_isequal<true>);
}

}  // namespace matfuse
