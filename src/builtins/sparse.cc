// Sparse matrices, construction and structure: sparse, full, issparse, nnz, nonzeros, nzmax,
// spones, speye, spalloc, spfun, spdiags, sprand, sprandn, sprandsym, delsq, numgrid, and the
// sparse methods of find, tril, triu, diag, kron, blkdiag, transpose, the class and shape
// queries and the class conversions. Storage: runtime/sparse.h.
#include <algorithm>
#include <cmath>
#include <complex>
#include <numeric>

#include "builtins/math_util.h"
#include "builtins/methods.h"
#include "builtins/sparse_util.h"
#include "runtime/array_size.h"

namespace matfuse {

namespace sparse_detail {

Value to_sparse(const Value& v) {
  if (as_sparse(v)) return v;
  if (!v.is_tensor() || v.is_char())
    throw_error("MATLAB:UndefinedFunction",
                "Undefined function 'sparse' for input arguments of type '%s'.",
                v.class_name().c_str());
  return sparse_from_full(v.tensor());
}

int64_t size_arg(const Value& v0, const char* fname) {
  const Value v = densify(v0);
  if (!v.is_tensor() || v.numel() != 1 || v.is_char())
    throw_error("MATLAB:sparsfcn:nonScalarSize", "%s: size inputs must be scalars.", fname);
  const double d = v.tensor().get_double(0);
  if (!(d >= 0) || d != std::floor(d) || !std::isfinite(d))
    throw_error("MATLAB:sparsfcn:badSize",
                "Sparse matrix sizes must be non-negative integers less than MAXSIZE as defined "
                "by computer. Use HELP COMPUTER for more details.");
  check_sparse_size(d, d);
  return static_cast<int64_t>(d);
}

Value callv(CallContext& ctx, const char* name, std::vector<Value> args) {
  Outputs o = ctx.call_named(name, args, 1);
  if (o.empty()) throw_error("MATLAB:TooManyOutputs", "Too many output arguments.");
  return o[0];
}

int64_t count_option(const Value& v0, const char* fname, const char* what) {
  const Value v = densify(v0);
  const double d = v.is_tensor() && v.numel() == 1 && !v.is_char() && !v.tensor().is_complex()
                       ? v.tensor().get_double(0)
                       : NAN;
  if (!(d >= 0) || (std::isfinite(d) && d != std::floor(d)))
    throw_error((std::string("MATLAB:") + fname + ":InvalidOption").c_str(),
                "%s must be a nonnegative integer scalar.", what);
  return clamp_count(d);
}

Value empty_sparse(int64_t m, int64_t n, bool logical) {
  return make_sparse(m, n, std::vector<int64_t>(static_cast<size_t>(n) + 1, 0), {},
                     Tensor::zeros(logical ? ClassId::Logical : ClassId::Double, Dims(0, 1)));
}

Csc real_csc(const SparseMatrix& s, const char* fname) {
  if (s.is_complex())
    throw_error("MATLAB:sparse:complexNotSupported",
                "%s is not supported for complex sparse matrices.", fname);
  Csc c;
  c.m = s.rows();
  c.n = s.cols();
  c.jc = s.jc();
  c.ir = s.ir();
  c.x.resize(static_cast<size_t>(s.nnz()));
  if (s.is_logical()) {
    const uint8_t* p = s.vals().data<uint8_t>();
    for (int64_t k = 0; k < s.nnz(); ++k) c.x[k] = p[k] ? 1.0 : 0.0;
  } else {
    std::copy(s.real_data(), s.real_data() + s.nnz(), c.x.begin());
  }
  return c;
}

Value from_csc(Csc c) {
  Tensor v = Tensor::uninit(ClassId::Double, Dims(static_cast<int64_t>(c.x.size()), 1));
  std::copy(c.x.begin(), c.x.end(), v.mutable_data<double>());
  return make_sparse(c.m, c.n, std::move(c.jc), std::move(c.ir), std::move(v));
}

}  // namespace sparse_detail

namespace {

using namespace sparse_detail;
using mathutil::call1;

Tensor tensor_of(const Value& v, const char* fname) {
  const Value d = densify(v);
  if (!d.is_tensor()) mathutil::undefined_for(fname, v);
  return d.tensor();
}

/// 1-based subscripts of a sparse() call as 0..extent checked int64s.
std::vector<int64_t> subscripts(const Tensor& t) {
  std::vector<int64_t> r(static_cast<size_t>(t.numel()));
  for (int64_t k = 0; k < t.numel(); ++k) {
    const double d = t.get_double(k);
    if (!(d >= 1) || d != std::floor(d) || !std::isfinite(d))
      throw_error("MATLAB:sparsfcn:nonPosIndex", "Index into matrix must be positive.");
    r[k] = static_cast<int64_t>(d);
  }
  return r;
}

/// S = sparse(A), sparse(m,n), sparse(i,j,v), sparse(i,j,v,m,n), sparse(i,j,v,m,n,nzmax).
/// Duplicated subscripts add up (logical values are or'ed); i, j and v may be scalars that
/// expand to the others' length. Errors: MATLAB:sparsfcn:* as MATLAB names them.
Outputs bi_sparse(CallContext&, Args args, int nargout) {
  check_nargin(args, 1, 6);
  check_nargout(nargout, 1);
  if (args.size() == 1) return {to_sparse(args[0])};
  if (args.size() == 2) return {empty_sparse(size_arg(args[0], "sparse"), size_arg(args[1], "sparse"))};
  if (args.size() == 4)
    throw_error("MATLAB:narginchk:notEnoughInputs", "Not enough input arguments.");
  const Tensor ti = tensor_of(args[0], "sparse"), tj = tensor_of(args[1], "sparse");
  Tensor tv = tensor_of(args[2], "sparse");
  if (tv.cls() != ClassId::Double && tv.cls() != ClassId::Logical) {
    if (tv.cls() == ClassId::Char || tv.cls() == ClassId::Single || is_integer_class(tv.cls()))
      throw_error("MATLAB:UndefinedFunction",
                  "Undefined function 'sparse' for input arguments of type '%s'.",
                  std::string(class_name(tv.cls())).c_str());
  }
  int64_t len = std::max({ti.numel(), tj.numel(), tv.numel()});
  if (ti.numel() == 1 && tj.numel() == 1 && tv.numel() == 1) len = 1;
  auto expands = [&](const Tensor& t) { return t.numel() == len || t.numel() == 1; };
  if (!expands(ti) || !expands(tj) || !expands(tv))
    throw_error("MATLAB:sparsfcn:lengthMismatch", "Vectors must be the same lengths.");
  std::vector<int64_t> i = subscripts(ti), j = subscripts(tj);
  if (i.size() == 1 && len != 1) i.assign(static_cast<size_t>(len), i[0]);
  if (j.size() == 1 && len != 1) j.assign(static_cast<size_t>(len), j[0]);
  int64_t m = 0, n = 0;
  for (int64_t x : i) m = std::max(m, x);
  for (int64_t x : j) n = std::max(n, x);
  int64_t nzmax = 0;
  if (args.size() >= 5) {
    const int64_t mm = size_arg(args[3], "sparse"), nn = size_arg(args[4], "sparse");
    if (m > mm || n > nn)
      throw_error("MATLAB:sparsfcn:badIndexDims", "Index exceeds array bounds.");
    m = mm;
    n = nn;
    if (args.size() == 6) {
      nzmax = size_arg(args[5], "sparse");
      if (nzmax < len)
        throw_error("MATLAB:sparsfcn:badNZMAX",
                    "Sparse matrix nzmax must be greater than or equal to the number of "
                    "nonzeros.");
    }
  }
  // Drop triplets whose value is zero first (MATLAB ignores them).
  return {sparse_from_triplets(m, n, i, j, tv, nzmax == 0 ? len : nzmax)};
}

/// A = full(S): the full array of S (A itself when it is full).
Outputs bi_full(CallContext&, Args args, int nargout) {
  check_nargin(args, 1, 1);
  check_nargout(nargout, 1);
  if (const SparseMatrix* s = as_sparse(args[0])) return {Value(sparse_to_full(*s))};
  if (!args[0].is_tensor())
    throw_error("MATLAB:UndefinedFunction", "Undefined function 'full' for input arguments of "
                "type '%s'.", args[0].class_name().c_str());
  return {args[0]};
}

/// tf = issparse(S): true for sparse matrices.
Outputs bi_issparse(CallContext&, Args args, int nargout) {
  check_nargin(args, 1, 1);
  check_nargout(nargout, 1);
  return {Value::logical(as_sparse(args[0]) != nullptr)};
}

/// n = nnz(S): the number of stored (nonzero) entries.
Outputs m_nnz(CallContext&, Args args, int nargout) {
  check_nargin(args, 1, 1);
  check_nargout(nargout, 1);
  return {Value(static_cast<double>(sp(args[0]).nnz()))};
}

/// n = nzmax(S): the storage allocated for nonzeros (numel(A) for full A).
Outputs bi_nzmax(CallContext&, Args args, int nargout) {
  check_nargin(args, 1, 1);
  check_nargout(nargout, 1);
  if (const SparseMatrix* s = as_sparse(args[0])) return {Value(static_cast<double>(s->nzmax()))};
  return {Value(static_cast<double>(args[0].numel()))};
}

/// v = nonzeros(A): the nonzero elements of A as a full column, in column-major order.
Outputs bi_nonzeros(CallContext&, Args args, int nargout) {
  check_nargin(args, 1, 1);
  check_nargout(nargout, 1);
  if (const SparseMatrix* s = as_sparse(args[0])) return {Value(s->vals())};
  if (!args[0].is_tensor())
    throw_error("MATLAB:UndefinedFunction", "Undefined function 'nonzeros' for input arguments "
                "of type '%s'.", args[0].class_name().c_str());
  Tensor t = args[0].tensor();
  std::vector<int64_t> pos;
  for (int64_t k = 0; k < t.numel(); ++k) {
    const auto z = t.get_complex(k);
    if (z.real() != 0 || z.imag() != 0) pos.push_back(k);
  }
  return {Value(take_elements(t, pos))};
}

/// [i, j, v] = find(S), k = find(S), find(S, n), find(S, n, 'first'|'last'): subscripts and
/// values of the stored entries (column-major). One output: linear indices. The outputs are
/// full, as in MATLAB, except v (and a single output of a sparse row... kept full).
Outputs m_find(CallContext& ctx, Args args, int nargout) {
  check_nargin(args, 1, 3);
  check_nargout(nargout, 3);
  const SparseMatrix& s = sp(args[0]);
  const int64_t nz = s.nnz();
  std::vector<int64_t> sel(static_cast<size_t>(nz));
  std::iota(sel.begin(), sel.end(), 0);
  if (args.size() >= 2) {
    const Tensor kt = tensor_of(args[1], "find");
    const double k = kt.numel() == 1 ? kt.get_double(0) : -1;
    if (!(k >= 0) || k != std::floor(k))
      throw_error("MATLAB:find:secondArgNotPosInteger",
                  "Second argument must be a positive scalar integer.");
    bool last = false;
    if (args.size() == 3) {
      const std::string dir = args[2].is_text() ? args[2].to_text() : "";
      if (dir == "last") last = true;
      else if (dir != "first")
        throw_error("MATLAB:find:thirdArgNotDirection",
                    "Invalid search direction. Direction must be 'first' or 'last'.");
    }
    const size_t keep = std::min<size_t>(sel.size(), static_cast<size_t>(k));
    if (last) sel.erase(sel.begin(), sel.end() - static_cast<int64_t>(keep));
    else sel.resize(keep);
  }
  const int64_t cnt = static_cast<int64_t>(sel.size());
  std::vector<int64_t> col(static_cast<size_t>(nz));
  for (int64_t c = 0; c < s.cols(); ++c)
    for (int64_t p = s.jc()[c]; p < s.jc()[c + 1]; ++p) col[p] = c;
  const bool row = s.rows() == 1 && s.cols() != 1;
  const Dims od = row ? Dims(1, cnt) : Dims(cnt, 1);
  Tensor I = Tensor::uninit(ClassId::Double, od), J = Tensor::uninit(ClassId::Double, od);
  for (int64_t k = 0; k < cnt; ++k) {
    const int64_t p = sel[k];
    if (nargout <= 1)
      I.mutable_data<double>()[k] = static_cast<double>(col[p] * s.rows() + s.ir()[p] + 1);
    else
      I.mutable_data<double>()[k] = static_cast<double>(s.ir()[p] + 1);
    J.mutable_data<double>()[k] = static_cast<double>(col[p] + 1);
  }
  (void)ctx;
  if (nargout <= 1) return {Value(std::move(I))};
  Outputs r{Value(std::move(I)), Value(std::move(J))};
  if (nargout == 3) r.push_back(Value(take_elements(s.vals(), sel).reshaped(od)));
  return r;
}

/// R = spones(S): ones where S has nonzeros (sparse double).
Outputs bi_spones(CallContext&, Args args, int nargout) {
  check_nargin(args, 1, 1);
  check_nargout(nargout, 1);
  const Value sv = to_sparse(args[0]);
  const SparseMatrix& s = sp(sv);
  Tensor v = Tensor::uninit(ClassId::Double, Dims(s.nnz(), 1));
  std::fill_n(v.mutable_data<double>(), s.nnz(), 1.0);
  return {make_sparse(s.rows(), s.cols(), s.jc(), s.ir(), std::move(v))};
}

/// The (m, n) of speye/spalloc-style size arguments: (n), (m, n) or ([m n]).
std::pair<int64_t, int64_t> size_pair(Args args, const char* fname) {
  if (args.empty()) return {1, 1};
  if (args.size() == 1) {
    const Tensor t = tensor_of(args[0], fname);
    if (t.numel() == 2) return {size_arg(Value(t.get_double(0)), fname), size_arg(Value(t.get_double(1)), fname)};
    const int64_t n = size_arg(args[0], fname);
    return {n, n};
  }
  return {size_arg(args[0], fname), size_arg(args[1], fname)};
}

/// S = speye(n), speye(m, n), speye([m n]): the sparse identity.
Outputs bi_speye(CallContext&, Args args, int nargout) {
  check_nargin(args, 0, 2);
  check_nargout(nargout, 1);
  auto [m, n] = size_pair(args, "speye");
  const int64_t k = std::min(m, n);
  std::vector<int64_t> jc(static_cast<size_t>(n) + 1), ir(static_cast<size_t>(k));
  for (int64_t c = 0; c <= n; ++c) jc[c] = std::min(c, k);
  std::iota(ir.begin(), ir.end(), 0);
  Tensor v = Tensor::uninit(ClassId::Double, Dims(k, 1));
  std::fill_n(v.mutable_data<double>(), k, 1.0);
  return {make_sparse(m, n, std::move(jc), std::move(ir), std::move(v))};
}

/// S = spalloc(m, n, nz): an all-zero m-by-n sparse matrix with room for nz nonzeros.
Outputs bi_spalloc(CallContext&, Args args, int nargout) {
  check_nargin(args, 3, 3);
  check_nargout(nargout, 1);
  const int64_t m = size_arg(args[0], "spalloc"), n = size_arg(args[1], "spalloc"),
                nz = size_arg(args[2], "spalloc");
  return {make_sparse(m, n, std::vector<int64_t>(static_cast<size_t>(n) + 1, 0), {},
                      Tensor::zeros(ClassId::Double, Dims(0, 1)), nz)};
}

/// f = spfun(fun, S): fun applied to the nonzeros of S only (the pattern of S is kept; zeros
/// fun produces are dropped). fun is called once with the column of nonzeros.
Outputs bi_spfun(CallContext& ctx, Args args, int nargout) {
  check_nargin(args, 2, 2);
  check_nargout(nargout, 1);
  const Value sv = to_sparse(args[1]);
  const SparseMatrix& s = sp(sv);
  Value vals(s.vals());
  Outputs r = ctx.call(args[0], std::span<const Value>(&vals, 1), 1);
  if (r.empty() || !densify(r[0]).is_tensor() || r[0].numel() != s.nnz())
    throw_error("MATLAB:spfun:badFunction",
                "The function must return one value for every nonzero element.");
  return {make_sparse(s.rows(), s.cols(), s.jc(), s.ir(), densify(r[0]).tensor())};
}

// --- spdiags ---------------------------------------------------------------------------------

/// The offset of diagonal d in spdiags' B for an m-by-n matrix: element A(j-d, j) is
/// B(j - off(d), k) (MATLAB's rule: B is indexed by the column when m >= n, else by the row).
int64_t diag_offset(int64_t d, int64_t m, int64_t n) { return m >= n ? 0 : d; }

std::vector<int64_t> diag_list(const Value& v) {
  const Tensor t = tensor_of(v, "spdiags");
  std::vector<int64_t> d(static_cast<size_t>(t.numel()));
  for (int64_t k = 0; k < t.numel(); ++k) {
    const double x = t.get_double(k);
    if (x != std::floor(x) || !std::isfinite(x))
      throw_error("MATLAB:spdiags:InvalidDiagonal", "Diagonal indices must be integers.");
    d[k] = clamp_count(x);  // a diagonal past +-(m+n) is empty either way
  }
  return d;
}

/// [B, d] = spdiags(A), B = spdiags(A, d), S = spdiags(B, d, A), S = spdiags(B, d, m, n).
/// Extraction gives a full min(m,n)-by-p B (column k holds diagonal d(k)); creation and
/// replacement give sparse S from B's columns, taken by the column of A when m >= n and by the
/// row when m < n, as MATLAB's documentation describes.
Outputs bi_spdiags(CallContext&, Args args, int nargout) {
  check_nargin(args, 1, 4);
  check_nargout(nargout, 2);
  if (args.size() <= 2) {
    const Value av = to_sparse(args[0]);
    const SparseMatrix& a = sp(av);
    const int64_t m = a.rows(), n = a.cols();
    std::vector<int64_t> d;
    if (args.size() == 2) {
      d = diag_list(args[1]);
    } else {
      std::vector<uint8_t> seen(static_cast<size_t>(m + n + 1), 0);
      for (int64_t c = 0; c < n; ++c)
        for (int64_t p = a.jc()[c]; p < a.jc()[c + 1]; ++p) seen[c - a.ir()[p] + m] = 1;
      for (int64_t k = 0; k < m + n + 1; ++k)
        if (seen[k]) d.push_back(k - m);
    }
    const int64_t rows = std::min(m, n), p = static_cast<int64_t>(d.size());
    Tensor B = Tensor::zeros(a.vals().cls() == ClassId::Logical ? ClassId::Double : ClassId::Double,
                             Dims(rows, p), a.is_complex());
    const Tensor vals = a.is_logical() ? a.vals().to_class(ClassId::Double) : a.vals();
    for (int64_t k = 0; k < p; ++k) {
      const int64_t off = diag_offset(d[k], m, n);
      for (int64_t c = std::max<int64_t>(0, d[k]); c < n; ++c) {
        const int64_t r = c - d[k];
        if (r >= m) break;
        const int64_t b = c - off;
        if (b < 0 || b >= rows) continue;
        auto it = std::lower_bound(a.ir().begin() + a.jc()[c], a.ir().begin() + a.jc()[c + 1], r);
        if (it == a.ir().begin() + a.jc()[c + 1] || *it != r) continue;
        const int64_t q = it - a.ir().begin();
        if (a.is_complex()) B.set_complex(k * rows + b, vals.get_complex(q));
        else B.set_double(k * rows + b, vals.get_double(q));
      }
    }
    Outputs r{Value(std::move(B))};
    if (nargout == 2) {
      Tensor dt = Tensor::uninit(ClassId::Double, Dims(p, 1));
      for (int64_t k = 0; k < p; ++k) dt.mutable_data<double>()[k] = static_cast<double>(d[k]);
      r.push_back(Value(std::move(dt)));
    }
    return r;
  }
  if (nargout > 1) throw_error("MATLAB:TooManyOutputs", "Too many output arguments.");
  Tensor B = tensor_of(args[0], "spdiags");
  if (B.cls() != ClassId::Double) B = B.to_class(ClassId::Double);
  const std::vector<int64_t> d = diag_list(args[1]);
  int64_t m, n;
  Value base;
  if (args.size() == 3) {
    base = to_sparse(args[2]);
    m = sp(base).rows();
    n = sp(base).cols();
  } else {
    m = size_arg(args[2], "spdiags");
    n = size_arg(args[3], "spdiags");
  }
  const int64_t p = static_cast<int64_t>(d.size());
  if (B.dims().ndims() > 2 || (B.numel() != 1 && B.dims()[1] != p && !(p == 1 && B.dims().is_vector())))
    throw_error("MATLAB:spdiags:InvalidSizeBAndD",
                "The number of columns of B must match the number of diagonals in d.");
  const int64_t brows = B.numel() == 1 ? 1 : (p == 1 ? B.numel() : B.dims()[0]);
  std::vector<int64_t> ii, jj;
  std::vector<int64_t> src;
  for (int64_t k = 0; k < p; ++k) {
    const int64_t off = diag_offset(d[k], m, n);
    for (int64_t c = std::max<int64_t>(0, d[k]); c < n; ++c) {
      const int64_t r = c - d[k];
      if (r >= m) break;
      const int64_t b = c - off;
      if (b < 0) continue;
      if (B.numel() != 1 && b >= brows) continue;
      ii.push_back(r + 1);
      jj.push_back(c + 1);
      src.push_back(B.numel() == 1 ? 0 : k * brows + b);
    }
  }
  // A later diagonal of the same index wins (MATLAB: replaced, not summed).
  Tensor vals = take_elements(B, src);
  if (args.size() == 3) {
    // Replace: clear the named diagonals of A, then add the new ones.
    const SparseMatrix& a = sp(base);
    std::vector<uint8_t> named(static_cast<size_t>(m + n + 1), 0);
    for (int64_t x : d)
      if (x >= -m && x <= n) named[x + m] = 1;
    std::vector<int64_t> ki, kj, ksrc;
    for (int64_t c = 0; c < n; ++c)
      for (int64_t q = a.jc()[c]; q < a.jc()[c + 1]; ++q)
        if (!named[c - a.ir()[q] + m]) {
          ki.push_back(a.ir()[q] + 1);
          kj.push_back(c + 1);
          ksrc.push_back(q);
        }
    Tensor kv = take_elements(a.is_logical() ? a.vals().to_class(ClassId::Double) : a.vals(), ksrc);
    ii.insert(ii.end(), ki.begin(), ki.end());
    jj.insert(jj.end(), kj.begin(), kj.end());
    Value both = Value(vals);
    if (kv.is_complex() || vals.is_complex()) {
      Tensor all = Tensor::uninit(ClassId::Double, Dims(static_cast<int64_t>(ii.size()), 1), true);
      for (int64_t q = 0; q < vals.numel(); ++q) all.set_complex(q, vals.get_complex(q));
      for (int64_t q = 0; q < kv.numel(); ++q) all.set_complex(vals.numel() + q, kv.get_complex(q));
      vals = all;
    } else {
      Tensor all = Tensor::uninit(ClassId::Double, Dims(static_cast<int64_t>(ii.size()), 1));
      for (int64_t q = 0; q < vals.numel(); ++q) all.set_double(q, vals.get_double(q));
      for (int64_t q = 0; q < kv.numel(); ++q) all.set_double(vals.numel() + q, kv.get_double(q));
      vals = all;
    }
  }
  // Duplicated diagonals in d: the last one wins, so keep only the last triplet per position.
  std::vector<int64_t> order(ii.size());
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&](int64_t x, int64_t y) {
    return jj[x] != jj[y] ? jj[x] < jj[y] : ii[x] < ii[y];
  });
  std::vector<int64_t> ui, uj, us;
  for (size_t t = 0; t < order.size(); ++t) {
    if (t + 1 < order.size() && ii[order[t + 1]] == ii[order[t]] && jj[order[t + 1]] == jj[order[t]]) continue;
    ui.push_back(ii[order[t]]);
    uj.push_back(jj[order[t]]);
    us.push_back(order[t]);
  }
  return {sparse_from_triplets(m, n, ui, uj, take_elements(vals, us))};
}

// --- random sparse matrices ------------------------------------------------------------------

/// k distinct random (row, column) pairs (1-based) of an m-by-n matrix, drawn with the session's
/// generator: uniform linear positions, redrawn until k distinct ones are found.
void random_positions(CallContext& ctx, int64_t m, int64_t n, int64_t k, std::vector<int64_t>& i,
                      std::vector<int64_t>& j) {
  i.clear();
  j.clear();
  if (k == 0) return;
  const double total = static_cast<double>(m) * static_cast<double>(n);
  std::vector<int64_t> lin;
  lin.reserve(static_cast<size_t>(k));
  while (static_cast<int64_t>(lin.size()) < k) {
    const int64_t want = k - static_cast<int64_t>(lin.size());
    const Tensor u = call1(ctx, "rand", {Value(static_cast<double>(want)), Value(1.0)}).tensor();
    for (int64_t t = 0; t < want; ++t)
      lin.push_back(std::min<int64_t>(static_cast<int64_t>(total) - 1,
                                      static_cast<int64_t>(u.get_double(t) * total)));
    std::sort(lin.begin(), lin.end());
    lin.erase(std::unique(lin.begin(), lin.end()), lin.end());
  }
  // A random order (the values are drawn in this order).
  const Tensor perm = call1(ctx, "randperm", {Value(static_cast<double>(k))}).tensor();
  for (int64_t t = 0; t < k; ++t) {
    const int64_t p = lin[static_cast<size_t>(perm.get_double(t)) - 1];
    i.push_back(p % m + 1);
    j.push_back(p / m + 1);
  }
}

/// R = sprand(m, n, density), sprandn(m, n, density), sprand(S), sprandn(S):
/// round(density*m*n) uniformly (sprand) or normally (sprandn) distributed nonzeros at distinct
/// uniformly random positions. sprand(S) / sprandn(S): random values on the pattern of S.
template <bool Normal>
Outputs bi_sprand(CallContext& ctx, Args args, int nargout) {
  const char* fname = Normal ? "sprandn" : "sprand";
  check_nargout(nargout, 1);
  if (args.size() == 1) {
    const Value sv = to_sparse(args[0]);
    const SparseMatrix& s = sp(sv);
    Value v = call1(ctx, Normal ? "randn" : "rand", {Value(static_cast<double>(s.nnz())), Value(1.0)});
    return {make_sparse(s.rows(), s.cols(), s.jc(), s.ir(), v.tensor())};
  }
  if (args.size() != 3 && args.size() != 4)
    throw_error("MATLAB:narginchk:notEnoughInputs", "Not enough input arguments.");
  const int64_t m = size_arg(args[0], fname), n = size_arg(args[1], fname);
  const double density = tensor_of(args[2], fname).get_double(0);
  if (!(density >= 0 && density <= 1))
    throw_error("MATLAB:sprand:InvalidDensity", "Density must be between 0 and 1.");
  const double want = std::round(density * static_cast<double>(m) * static_cast<double>(n));
  const int64_t k = static_cast<int64_t>(std::min(want, static_cast<double>(m) * static_cast<double>(n)));
  std::vector<int64_t> i, j;
  random_positions(ctx, m, n, k, i, j);
  Tensor v = k ? call1(ctx, Normal ? "randn" : "rand", {Value(static_cast<double>(k)), Value(1.0)}).tensor()
               : Tensor::zeros(ClassId::Double, Dims(0, 1));
  return {sparse_from_triplets(m, n, i, j, v)};
}

/// R = sprandsym(n, density): a random symmetric n-by-n sparse matrix with about density*n^2
/// normally distributed nonzeros (a random lower triangle reflected onto the upper one);
/// sprandsym(S): random symmetric values on the lower triangle of S's pattern, reflected.
Outputs bi_sprandsym(CallContext& ctx, Args args, int nargout) {
  check_nargin(args, 1, 4);
  check_nargout(nargout, 1);
  std::vector<int64_t> i, j;
  int64_t n;
  if (args.size() == 1) {
    const Value sv = to_sparse(args[0]);
    const SparseMatrix& s = sp(sv);
    n = s.rows();
    for (int64_t c = 0; c < s.cols(); ++c)
      for (int64_t p = s.jc()[c]; p < s.jc()[c + 1]; ++p)
        if (s.ir()[p] >= c) {
          i.push_back(s.ir()[p] + 1);
          j.push_back(c + 1);
        }
  } else {
    n = size_arg(args[0], "sprandsym");
    const double density = tensor_of(args[1], "sprandsym").get_double(0);
    if (!(density >= 0 && density <= 1))
      throw_error("MATLAB:sprandsym:InvalidDensity", "Density must be between 0 and 1.");
    // Half the off-diagonal entries are drawn in the lower triangle; the diagonal keeps its share.
    const int64_t k = static_cast<int64_t>(std::round(density * static_cast<double>(n) * static_cast<double>(n) / 2));
    random_positions(ctx, n, n, std::min<int64_t>(k, n * n), i, j);
    for (size_t t = 0; t < i.size(); ++t)
      if (i[t] < j[t]) std::swap(i[t], j[t]);
  }
  const int64_t k = static_cast<int64_t>(i.size());
  Tensor v = k ? call1(ctx, "randn", {Value(static_cast<double>(k)), Value(1.0)}).tensor()
               : Tensor::zeros(ClassId::Double, Dims(0, 1));
  // Positions drawn twice: keep one value (sum) before mirroring.
  Value L = sparse_from_triplets(n, n, i, j, v);
  const SparseMatrix& l = sp(L);
  std::vector<int64_t> ii, jj, src;
  for (int64_t c = 0; c < n; ++c)
    for (int64_t p = l.jc()[c]; p < l.jc()[c + 1]; ++p) {
      ii.push_back(l.ir()[p] + 1);
      jj.push_back(c + 1);
      src.push_back(p);
      if (l.ir()[p] != c) {
        ii.push_back(c + 1);
        jj.push_back(l.ir()[p] + 1);
        src.push_back(p);
      }
    }
  return {sparse_from_triplets(n, n, ii, jj, take_elements(l.vals(), src))};
}

// --- delsq, numgrid --------------------------------------------------------------------------

/// G = numgrid(R, n): the points of region R on an n-by-n grid of the square [-1,1]^2, numbered
/// column by column (zero outside): 'S' square, 'L' L-shape (three quarters of the square),
/// 'C' square minus a quarter disc at (-1,-1), 'D' unit disc. As MATLAB's numgrid.
Outputs bi_numgrid(CallContext&, Args args, int nargout) {
  check_nargin(args, 2, 2);
  check_nargout(nargout, 1);
  const std::string R = args[0].is_text() ? args[0].to_text() : "";
  if (R.size() != 1 || std::string("SLCD").find(R[0]) == std::string::npos)
    throw_error("MATLAB:numgrid:InvalidRegion", "Invalid region type. R must be 'S', 'L', 'C' or 'D'.");
  const int64_t n = size_arg(args[1], "numgrid");
  if (n < 3) throw_error("MATLAB:numgrid:InvalidSize", "The grid size n must be at least 3.");
  std::vector<double> xs(static_cast<size_t>(n));
  xs[0] = -1;
  xs[n - 1] = 1;
  for (int64_t k = 1; k < n - 1; ++k)
    xs[k] = static_cast<double>(-(n - 3) + 2 * (k - 1)) / static_cast<double>(n - 1);
  Tensor G = Tensor::zeros(ClassId::Double, Dims(n, n));
  double count = 0;
  for (int64_t c = 0; c < n; ++c)
    for (int64_t r = 0; r < n; ++r) {
      const double x = xs[c], y = xs[n - 1 - r];
      bool in = false;
      const bool sq = x > -1 && x < 1 && y > -1 && y < 1;
      switch (R[0]) {
        case 'S': in = sq; break;
        case 'L': in = sq && (x > 0 || y > 0); break;
        case 'C': in = sq && ((x + 1) * (x + 1) + (y + 1) * (y + 1) > 1); break;
        case 'D': in = x * x + y * y < 1; break;
      }
      if (in) G.set_double(c * n + r, ++count);
    }
  return {Value(std::move(G))};
}

/// D = delsq(G): the five-point discrete negative Laplacian on the grid points numbered by G
/// (as numgrid numbers them): 4 on the diagonal, -1 between grid neighbours. As MATLAB's delsq.
Outputs bi_delsq(CallContext&, Args args, int nargout) {
  check_nargin(args, 1, 1);
  check_nargout(nargout, 1);
  const Tensor G = tensor_of(args[0], "delsq");
  if (G.dims().ndims() != 2) throw_error("MATLAB:delsq:InvalidGrid", "G must be a matrix.");
  const int64_t m = G.dims()[0], n = G.dims()[1];
  std::vector<int64_t> ii, jj;
  std::vector<double> vv;
  int64_t N = 0;
  auto at = [&](int64_t r, int64_t c) -> int64_t {
    if (r < 0 || r >= m || c < 0 || c >= n) return 0;
    const double g = G.get_double(c * m + r);
    if (!(g >= 0 && g <= static_cast<double>(m * n)) || g != std::floor(g))
      throw_error("MATLAB:delsq:InvalidGrid",
                  "G must number the grid points 1..numel(G) and hold 0 elsewhere.");
    return static_cast<int64_t>(g);
  };
  for (int64_t c = 0; c < n; ++c)
    for (int64_t r = 0; r < m; ++r) {
      const int64_t g = at(r, c);
      if (g <= 0) continue;
      N = std::max(N, g);
      ii.push_back(g);
      jj.push_back(g);
      vv.push_back(4);
      const int64_t nb[4] = {at(r - 1, c), at(r, c + 1), at(r + 1, c), at(r, c - 1)};
      for (int64_t q : nb)
        if (q > 0) {
          ii.push_back(g);
          jj.push_back(q);
          vv.push_back(-1);
        }
    }
  Tensor v = Tensor::uninit(ClassId::Double, Dims(static_cast<int64_t>(vv.size()), 1));
  std::copy(vv.begin(), vv.end(), v.mutable_data<double>());
  return {sparse_from_triplets(N, N, ii, jj, v)};
}

// --- structure methods -----------------------------------------------------------------------

/// The diagonal offset k of tril/triu/diag(S, k): a finite whole number, clamped to 2^62 (an
/// offset past every diagonal selects nothing, and diag's size check rejects a huge result).
int64_t diagonal_arg(const Value& v, const char* fname) {
  const Tensor t = tensor_of(v, fname);
  const double d = t.numel() == 1 ? t.get_double(0) : NAN;
  if (d != std::floor(d) || !std::isfinite(d))
    throw_error((std::string("MATLAB:") + fname + ":kthDiagInputNotInteger").c_str(),
                "K-th diagonal input must be an integer scalar.");
  return clamp_count(d);
}

/// tril(S, k) / triu(S, k) of a sparse S: sparse.
template <bool Lower>
Outputs m_tri(CallContext&, Args args, int nargout) {
  check_nargin(args, 1, 2);
  check_nargout(nargout, 1);
  const Value sv = to_sparse(args[0]);
  const SparseMatrix& s = sp(sv);
  const int64_t k = args.size() == 2 ? diagonal_arg(args[1], Lower ? "tril" : "triu") : 0;
  std::vector<int64_t> jc(static_cast<size_t>(s.cols()) + 1, 0), ir, src;
  for (int64_t c = 0; c < s.cols(); ++c) {
    for (int64_t p = s.jc()[c]; p < s.jc()[c + 1]; ++p) {
      const int64_t off = c - s.ir()[p];  // the diagonal of the entry
      if (Lower ? off <= k : off >= k) {
        ir.push_back(s.ir()[p]);
        src.push_back(p);
      }
    }
    jc[c + 1] = static_cast<int64_t>(ir.size());
  }
  return {make_sparse(s.rows(), s.cols(), std::move(jc), std::move(ir), take_elements(s.vals(), src))};
}

/// diag(S, k): a sparse vector's diagonal matrix (sparse), or a sparse matrix's k-th diagonal as
/// a sparse column.
Outputs m_diag(CallContext&, Args args, int nargout) {
  check_nargin(args, 1, 2);
  check_nargout(nargout, 1);
  const Value sv = to_sparse(args[0]);
  const SparseMatrix& s = sp(sv);
  const int64_t k = args.size() == 2 ? diagonal_arg(args[1], "diag") : 0;
  const int64_t m = s.rows(), n = s.cols();
  if (m == 1 || n == 1) {
    const int64_t len = m * n, sz = len + std::abs(k);
    std::vector<int64_t> ii, jj, src;
    for (int64_t c = 0; c < n; ++c)
      for (int64_t p = s.jc()[c]; p < s.jc()[c + 1]; ++p) {
        const int64_t e = m == 1 ? c : s.ir()[p];
        ii.push_back(e + (k < 0 ? -k : 0) + 1);
        jj.push_back(e + (k > 0 ? k : 0) + 1);
        src.push_back(p);
      }
    return {sparse_from_triplets(sz, sz, ii, jj, take_elements(s.vals(), src))};
  }
  const int64_t len = k >= 0 ? std::max<int64_t>(0, std::min(m, n - k)) : std::max<int64_t>(0, std::min(m + k, n));
  std::vector<int64_t> jc{0, 0}, ir, src;
  for (int64_t t = 0; t < len; ++t) {
    const int64_t r = k >= 0 ? t : t - k, c = k >= 0 ? t + k : t;
    auto b = s.ir().begin() + s.jc()[c], e = s.ir().begin() + s.jc()[c + 1];
    auto it = std::lower_bound(b, e, r);
    if (it != e && *it == r) {
      ir.push_back(t);
      src.push_back(it - s.ir().begin());
    }
  }
  jc[1] = static_cast<int64_t>(ir.size());
  return {make_sparse(len, 1, std::move(jc), std::move(ir), take_elements(s.vals(), src))};
}

/// K = kron(A, B) with a sparse operand: sparse (entries a_ij * B at block (i, j)).
Outputs m_kron(CallContext& ctx, Args args, int nargout) {
  check_nargin(args, 2, 2);
  check_nargout(nargout, 1);
  const Value av = to_sparse(args[0]), bv = to_sparse(args[1]);
  const SparseMatrix &a = sp(av), &b = sp(bv);
  check_sparse_size(static_cast<double>(a.rows()) * static_cast<double>(b.rows()),
                    static_cast<double>(a.cols()) * static_cast<double>(b.cols()));
  const int64_t m = a.rows() * b.rows(), n = a.cols() * b.cols();
  std::vector<int64_t> ii, jj, sa, sb;
  const size_t total = static_cast<size_t>(a.nnz()) * static_cast<size_t>(b.nnz());
  ii.reserve(total);
  jj.reserve(total);
  sa.reserve(total);
  sb.reserve(total);
  for (int64_t ca = 0; ca < a.cols(); ++ca)
    for (int64_t cb = 0; cb < b.cols(); ++cb)
      for (int64_t p = a.jc()[ca]; p < a.jc()[ca + 1]; ++p)
        for (int64_t q = b.jc()[cb]; q < b.jc()[cb + 1]; ++q) {
          ii.push_back(a.ir()[p] * b.rows() + b.ir()[q] + 1);
          jj.push_back(ca * b.cols() + cb + 1);
          sa.push_back(p);
          sb.push_back(q);
        }
  Value va(take_elements(a.vals(), sa)), vb(take_elements(b.vals(), sb));
  Tensor v = call1(ctx, "times", {va, vb}).tensor();
  if (a.is_logical() && b.is_logical()) v = v.to_class(ClassId::Double);
  return {sparse_from_triplets(m, n, ii, jj, v)};
}

/// B = blkdiag(A1, A2, ...) with a sparse operand: sparse.
Outputs m_blkdiag(CallContext&, Args args, int nargout) {
  check_nargout(nargout, 1);
  std::vector<Value> parts;
  int64_t m = 0, n = 0, nz = 0;
  bool logical = true, complex = false;
  for (const Value& a : args) {
    parts.push_back(to_sparse(a));
    const SparseMatrix& s = sp(parts.back());
    m += s.rows();
    n += s.cols();
    nz += s.nnz();
    logical = logical && s.is_logical();
    complex = complex || s.is_complex();
  }
  std::vector<int64_t> ii, jj;
  Tensor vals = Tensor::uninit(logical ? ClassId::Logical : ClassId::Double, Dims(nz, 1), complex);
  int64_t r0 = 0, c0 = 0, w = 0;
  for (const Value& pv : parts) {
    const SparseMatrix& s = sp(pv);
    Tensor sv = s.vals();
    if (!logical && sv.cls() != ClassId::Double) sv = sv.to_class(ClassId::Double);
    if (complex && !sv.is_complex()) sv = sv.to_complex();
    for (int64_t c = 0; c < s.cols(); ++c)
      for (int64_t p = s.jc()[c]; p < s.jc()[c + 1]; ++p) {
        ii.push_back(r0 + s.ir()[p] + 1);
        jj.push_back(c0 + c + 1);
        if (complex) vals.set_complex(w++, sv.get_complex(p));
        else if (logical) vals.mutable_data<uint8_t>()[w++] = sv.data<uint8_t>()[p];
        else vals.set_double(w++, sv.get_double(p));
      }
    r0 += s.rows();
    c0 += s.cols();
  }
  return {sparse_from_triplets(m, n, ii, jj, vals)};
}

Outputs m_transpose(CallContext&, Args args, int nargout) {
  check_nargin(args, 1, 1);
  check_nargout(nargout, 1);
  return {sparse_transpose(sp(args[0]), false)};
}

Outputs m_ctranspose(CallContext&, Args args, int nargout) {
  check_nargin(args, 1, 1);
  check_nargout(nargout, 1);
  return {sparse_transpose(sp(args[0]), true)};
}

/// reshape(S, m, n) / reshape(S, [m n]): sparse.
Outputs m_reshape(CallContext&, Args args, int nargout) {
  check_nargin(args, 2, 3);
  check_nargout(nargout, 1);
  const SparseMatrix& s = sp(args[0]);
  const int64_t numel = s.rows() * s.cols();
  int64_t m, n;
  if (args.size() == 2) {
    const Tensor t = tensor_of(args[1], "reshape");
    if (t.numel() != 2)
      throw_error("MATLAB:sparse:NDArray", "Sparse N-D arrays are not supported.");
    m = size_arg(Value(t.get_double(0)), "reshape");
    n = size_arg(Value(t.get_double(1)), "reshape");
  } else {
    const bool em = args[1].is_empty(), en = args[2].is_empty();
    m = em ? -1 : size_arg(args[1], "reshape");
    n = en ? -1 : size_arg(args[2], "reshape");
    if (em && n > 0) m = numel / n;
    if (en && m > 0) n = numel / m;
  }
  int64_t mn = 0;
  if (m < 0 || n < 0 || __builtin_mul_overflow(m, n, &mn) || mn != numel)
    throw_error("MATLAB:getReshapeDims:notSameNumel",
                "Number of elements must not change. Use [] as one of the size inputs to "
                "automatically calculate the appropriate size for that dimension.");
  std::vector<int64_t> ii, jj;
  for (int64_t c = 0; c < s.cols(); ++c)
    for (int64_t p = s.jc()[c]; p < s.jc()[c + 1]; ++p) {
      const int64_t lin = c * s.rows() + s.ir()[p];
      ii.push_back(lin % m + 1);
      jj.push_back(lin / m + 1);
    }
  return {sparse_from_triplets(m, n, ii, jj, s.vals())};
}

// --- class queries and conversions -----------------------------------------------------------

template <int Which>
Outputs m_classpred(CallContext&, Args args, int nargout) {
  check_nargin(args, 1, 1);
  check_nargout(nargout, 1);
  const SparseMatrix& s = sp(args[0]);
  bool r = false;
  switch (Which) {
    case 0: r = !s.is_logical(); break;                 // isnumeric
    case 1: r = !s.is_logical(); break;                 // isfloat
    case 2: r = s.is_logical(); break;                  // islogical
    case 3: r = !s.is_complex(); break;                 // isreal
    case 4: r = false; break;                           // isinteger, isobject, ischar
  }
  return {Value::logical(r)};
}

/// double(S) / logical(S): sparse of the other class. logical of NaN is an error (MATLAB).
template <bool Logical>
Outputs m_convert(CallContext&, Args args, int nargout) {
  check_nargin(args, 1, 1);
  check_nargout(nargout, 1);
  const SparseMatrix& s = sp(args[0]);
  if (Logical == s.is_logical()) return {args[0]};
  Tensor v = s.vals();
  if (Logical) {
    if (v.is_complex())
      throw_error("MATLAB:logical:complexConversion", "Complex values cannot be converted to logicals.");
    for (int64_t k = 0; k < v.numel(); ++k)
      if (std::isnan(v.get_double(k)))
        throw_error("MATLAB:nologicalnan", "NaN's cannot be converted to logicals.");
    v = v.to_class(ClassId::Logical);
  } else {
    v = v.to_class(ClassId::Double);
  }
  return {make_sparse(s.rows(), s.cols(), s.jc(), s.ir(), std::move(v), s.nzmax())};
}

/// cast(S, cls) / cast(A, 'like', P) with a sparse operand: computed on full values; the result
/// is sparse when S (or the prototype P) is sparse and the class is double or logical.
Outputs m_cast(CallContext& ctx, Args args, int nargout) {
  check_nargout(nargout, 1);
  const bool like_sparse = args.size() == 3 && as_sparse(args[2]);
  const bool keep = like_sparse || (args.size() == 2 && as_sparse(args[0]));
  Value r = ctx.call_named("cast", densify_all(args), 1)[0];
  if (keep && r.is_tensor() && (r.cls() == ClassId::Double || r.cls() == ClassId::Logical) &&
      r.dims().ndims() == 2)
    r = sparse_from_full(r.tensor());
  return {r};
}

Outputs m_isa(CallContext&, Args args, int nargout) {
  check_nargin(args, 2, 2);
  check_nargout(nargout, 1);
  if (!args[1].is_text())
    throw_error("MATLAB:isa:ClassNameMustBeText", "Class name must be a character vector or string scalar.");
  return {Value::logical(args[0].object()->isa(args[1].to_text()))};
}

/// isdiag, istriu, istril, issymmetric, ishermitian of sparse S without densifying.
template <int Which>
Outputs m_structpred(CallContext&, Args args, int nargout) {
  check_nargout(nargout, 1);
  const SparseMatrix& s = sp(args[0]);
  bool r = true;
  if (Which <= 2) {
    for (int64_t c = 0; c < s.cols() && r; ++c)
      for (int64_t p = s.jc()[c]; p < s.jc()[c + 1] && r; ++p) {
        const int64_t off = c - s.ir()[p];
        r = Which == 0 ? off == 0 : Which == 1 ? off >= 0 : off <= 0;
      }
    return {Value::logical(r)};
  }
  if (s.rows() != s.cols()) return {Value::logical(false)};
  const Value t = sparse_transpose(s, Which == 4);
  const SparseMatrix& st = sp(t);
  r = st.jc() == s.jc() && st.ir() == s.ir();
  for (int64_t k = 0; k < s.nnz() && r; ++k) r = s.vals().get_complex(k) == st.vals().get_complex(k);
  return {Value::logical(r)};
}

}  // namespace

void register_sparse_ops();    // sparse_ops.cc
void register_sparse_solve(Registry& r);  // sparse_solve.cc
void register_sparse_eigs(Registry& r);   // sparse_eigs.cc

void register_sparse(Registry& r) {
  register_sparse_ops();
  register_sparse_solve(r);
  register_sparse_eigs(r);
  for (const char* n : {"sparse", "full", "issparse", "nzmax", "nonzeros", "spones", "spfun",
                        "spdiags", "sprand", "sprandn", "sprandsym", "ichol", "ilu", "pcg",
                        "bicgstab", "gmres", "minres", "mustBeNonsparse"})
    add_sparse_aware(n);
  r.add("sparse", bi_sparse);
  r.add("full", bi_full);
  r.add("issparse", bi_issparse);
  r.add("nzmax", bi_nzmax);
  r.add("nonzeros", bi_nonzeros);
  r.add("spones", bi_spones);
  r.add("speye", bi_speye);
  r.add("spalloc", bi_spalloc);
  r.add("spfun", bi_spfun);
  r.add("spdiags", bi_spdiags);
  r.add("sprand", bi_sprand<false>);
  r.add("sprandn", bi_sprand<true>);
  r.add("sprandsym", bi_sprandsym);
  r.add("numgrid", bi_numgrid);
  r.add("delsq", bi_delsq);
  const std::string c = "sparse";
  add_class_method(c, "nnz", m_nnz);
  add_class_method(c, "find", m_find);
  add_class_method(c, "tril", m_tri<true>);
  add_class_method(c, "triu", m_tri<false>);
  add_class_method(c, "diag", m_diag);
  add_class_method(c, "kron", m_kron);
  add_class_method(c, "blkdiag", m_blkdiag);
  add_class_method(c, "transpose", m_transpose);
  add_class_method(c, "ctranspose", m_ctranspose);
  add_class_method(c, "reshape", m_reshape);
  add_class_method(c, "isnumeric", m_classpred<0>);
  add_class_method(c, "isfloat", m_classpred<1>);
  add_class_method(c, "islogical", m_classpred<2>);
  add_class_method(c, "isreal", m_classpred<3>);
  add_class_method(c, "isinteger", m_classpred<4>);
  add_class_method(c, "isobject", m_classpred<4>);
  add_class_method(c, "double", m_convert<false>);
  add_class_method(c, "logical", m_convert<true>);
  add_class_method(c, "isa", m_isa);
  add_class_method(c, "cast", m_cast);
  add_class_method(c, "isdiag", m_structpred<0>);
  add_class_method(c, "istriu", m_structpred<1>);
  add_class_method(c, "istril", m_structpred<2>);
  add_class_method(c, "issymmetric", m_structpred<3>);
  add_class_method(c, "ishermitian", m_structpred<4>);
}

}  // namespace matfuse
