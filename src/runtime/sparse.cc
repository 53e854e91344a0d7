// SparseMatrix storage, conversions, subscripting and concatenation (sparse.h).
#include "runtime/sparse.h"

#include <algorithm>
#include <cmath>
#include <complex>
#include <cstring>
#include <numeric>

namespace matfuse {

namespace {

bool elem_nonzero(const Tensor& t, int64_t k) {
  if (t.cls() == ClassId::Logical) return t.data<uint8_t>()[k] != 0;
  if (t.is_complex()) {
    const auto z = t.data<std::complex<double>>()[k];
    return z.real() != 0 || z.imag() != 0;
  }
  return t.data<double>()[k] != 0;
}

/// vals as a Double or Logical column (other numeric classes convert to double).
Tensor value_column(const Tensor& v) {
  Tensor t = v;
  if (t.cls() != ClassId::Double && t.cls() != ClassId::Logical) t = t.to_class(ClassId::Double);
  return t.reshaped(Dims(t.numel(), 1));
}

[[noreturn]] void bad_index(int pos, int nsubs) {
  if (nsubs <= 1)
    throw_error("MATLAB:badsubscript", "Array indices must be positive integers or logical values.");
  throw_error("MATLAB:badsubscript",
              "Index in position %d is invalid. Array indices must be positive integers or "
              "logical values.",
              pos + 1);
}

[[noreturn]] void out_of_range(int pos, int nsubs, int64_t limit) {
  if (nsubs <= 1)
    throw_error("MATLAB:badsubscript",
                "Index exceeds the number of array elements. Index must not exceed %lld.",
                static_cast<long long>(limit));
  throw_error("MATLAB:badsubscript",
              "Index in position %d exceeds array bounds. Index must not exceed %lld.", pos + 1,
              static_cast<long long>(limit));
}

/// One subscript: ':' (colon), a logical mask or positive integers; 0-based positions.
struct Sub {
  bool colon = false;
  std::vector<int64_t> pos;  ///< when not colon
  Dims shape;                ///< the subscript's own dims (for linear indexing results)
  int64_t count(int64_t extent) const { return colon ? extent : static_cast<int64_t>(pos.size()); }
  int64_t at(int64_t k) const { return colon ? k : pos[static_cast<size_t>(k)]; }
  int64_t max1() const {
    int64_t m = 0;
    for (int64_t p : pos) m = std::max(m, p + 1);
    return m;
  }
};

Sub parse_sub(const Value& v, int pos, int nsubs) {
  Sub s;
  if (v.is_char()) {
    const Tensor t = v.tensor();
    if (t.numel() == 1 && t.to_utf8() == ":") {
      s.colon = true;
      return s;
    }
  }
  Value dv = densify(v);
  if (!dv.is_tensor()) bad_index(pos, nsubs);
  const Tensor t = dv.tensor();
  s.shape = t.dims();
  if (t.cls() == ClassId::Logical) {
    const uint8_t* p = t.data<uint8_t>();
    for (int64_t k = 0; k < t.numel(); ++k)
      if (p[k]) s.pos.push_back(k);
    // A mask's result shape: a column (a row mask of a row stays a row).
    const int64_t c = static_cast<int64_t>(s.pos.size());
    s.shape = t.dims().ndims() == 2 && t.dims()[0] == 1 ? Dims(1, c) : Dims(c, 1);
    return s;
  }
  if (t.is_complex()) bad_index(pos, nsubs);
  s.pos.resize(static_cast<size_t>(t.numel()));
  for (int64_t k = 0; k < t.numel(); ++k) {
    const double d = t.get_double(k);
    if (!(d >= 1) || d != std::floor(d) || !std::isfinite(d)) bad_index(pos, nsubs);
    s.pos[static_cast<size_t>(k)] = static_cast<int64_t>(d) - 1;
  }
  return s;
}

/// The stored position of (r, c), or -1.
int64_t find_entry(const std::vector<int64_t>& jc, const std::vector<int64_t>& ir, int64_t r,
                   int64_t c) {
  auto b = ir.begin() + jc[c], e = ir.begin() + jc[c + 1];
  auto it = std::lower_bound(b, e, r);
  return it != e && *it == r ? it - ir.begin() : -1;
}

/// The class a sparse result of values a and b takes (double unless both are logical).
Tensor unify(const Tensor& t, bool logical, bool complex) {
  Tensor r = t;
  if (!logical && r.cls() != ClassId::Double) r = r.to_class(ClassId::Double);
  if (complex && !r.is_complex()) r = r.to_complex();
  return r;
}

}  // namespace

SparseMatrix::SparseMatrix(int64_t m, int64_t n, std::vector<int64_t> jc, std::vector<int64_t> ir,
                           Tensor vals, int64_t nzmax)
    : m_(m), n_(n), jc_(std::move(jc)), ir_(std::move(ir)), vals_(std::move(vals)),
      nzmax_(std::max<int64_t>({nzmax, static_cast<int64_t>(ir_.size()), 1})) {
  MF_ASSERT(static_cast<int64_t>(jc_.size()) == n_ + 1, "sparse: jc must have n+1 entries");
  MF_ASSERT(vals_.numel() == static_cast<int64_t>(ir_.size()), "sparse: vals and ir differ");
}

const double* SparseMatrix::real_data() const {
  if (is_logical() || vals_.is_complex()) return nullptr;
  return vals_.data<double>();
}

bool SparseMatrix::isa(std::string_view name) const {
  if (name == class_name()) return true;
  if (is_logical()) return false;
  return name == "numeric" || name == "float";
}

bool SparseMatrix::truth(bool& out) const {
  for (int64_t k = 0; k < nnz(); ++k) {
    if (vals_.is_complex()) {
      auto z = vals_.data<std::complex<double>>()[k];
      if (std::isnan(z.real()) || std::isnan(z.imag()))
        throw_error("MATLAB:nologicalnan", "NaN's cannot be converted to logicals.");
    } else if (!is_logical() && std::isnan(vals_.data<double>()[k])) {
      throw_error("MATLAB:nologicalnan", "NaN's cannot be converted to logicals.");
    }
  }
  out = m_ * n_ > 0 && nnz() == m_ * n_;
  return true;
}

void check_sparse_size(double m, double n) {
  constexpr double kMax = 281474976710655.0;  // 2^48 - 1
  if (!(m >= 0 && n >= 0 && m <= kMax && n <= kMax))
    throw_error("MATLAB:sparsfcn:badSize",
                "Sparse matrix sizes must be non-negative integers less than MAXSIZE as defined "
                "by computer. Use HELP COMPUTER for more details.");
  const double want = 8.0 * (n + 1);
  if (want > Tensor::max_array_bytes())
    throw_error("MATLAB:array:SizeLimitExceeded",
                "Requested %.0fx%.0f (%.1fGB) sparse array exceeds maximum array size preference "
                "(%.1fGB).", m, n, want / 1e9, Tensor::max_array_bytes() / 1e9);
}

const SparseMatrix* as_sparse(const Value& v) {
  return v.is_object() ? dynamic_cast<const SparseMatrix*>(v.object().get()) : nullptr;
}

bool any_sparse(std::span<const Value> args) {
  for (const Value& a : args)
    if (as_sparse(a)) return true;
  return false;
}

Tensor take_elements(const Tensor& t, std::span<const int64_t> idx) {
  Tensor r = Tensor::uninit(t.cls(), Dims(static_cast<int64_t>(idx.size()), 1), t.is_complex());
  const size_t eb = static_cast<size_t>(t.elem_bytes());
  const auto* src = static_cast<const unsigned char*>(t.raw());
  auto* dst = static_cast<unsigned char*>(r.mutable_raw());
  for (size_t k = 0; k < idx.size(); ++k) {
    if (idx[k] < 0) std::memset(dst + k * eb, 0, eb);
    else std::memcpy(dst + k * eb, src + static_cast<size_t>(idx[k]) * eb, eb);
  }
  return r;
}

Value make_sparse(int64_t m, int64_t n, std::vector<int64_t> jc, std::vector<int64_t> ir,
                  Tensor vals, int64_t nzmax) {
  vals = value_column(vals);
  if (vals.is_complex()) vals = vals.drop_zero_imag();
  bool has_zero = false;
  for (int64_t k = 0; k < vals.numel() && !has_zero; ++k) has_zero = !elem_nonzero(vals, k);
  if (has_zero) {
    std::vector<int64_t> keep;
    keep.reserve(ir.size());
    std::vector<int64_t> njc(static_cast<size_t>(n) + 1, 0);
    for (int64_t c = 0; c < n; ++c) {
      for (int64_t p = jc[c]; p < jc[c + 1]; ++p)
        if (elem_nonzero(vals, p)) keep.push_back(p);
      njc[c + 1] = static_cast<int64_t>(keep.size());
    }
    std::vector<int64_t> nir(keep.size());
    for (size_t k = 0; k < keep.size(); ++k) nir[k] = ir[keep[k]];
    vals = take_elements(vals, keep);
    jc = std::move(njc);
    ir = std::move(nir);
  }
  return Value(std::make_shared<SparseMatrix>(m, n, std::move(jc), std::move(ir), std::move(vals),
                                              nzmax));
}

Value sparse_from_full(const Tensor& a0) {
  if (a0.dims().ndims() > 2)
    throw_error("MATLAB:sparse:NDArray", "Sparse N-D arrays are not supported.");
  Tensor a = a0;
  if (a.cls() != ClassId::Double && a.cls() != ClassId::Logical) {
    if (a.cls() == ClassId::Char || a.cls() == ClassId::Single || is_integer_class(a.cls()))
      throw_error("MATLAB:UndefinedFunction",
                  "Undefined function 'sparse' for input arguments of type '%s'.",
                  std::string(matfuse::class_name(a.cls())).c_str());
    a = a.to_class(ClassId::Double);
  }
  const int64_t m = a.dims()[0], n = a.dims()[1];
  std::vector<int64_t> jc(static_cast<size_t>(n) + 1, 0), ir, pos;
  for (int64_t c = 0; c < n; ++c) {
    for (int64_t r = 0; r < m; ++r)
      if (elem_nonzero(a, c * m + r)) {
        ir.push_back(r);
        pos.push_back(c * m + r);
      }
    jc[c + 1] = static_cast<int64_t>(ir.size());
  }
  Tensor vals = take_elements(a, pos);
  return make_sparse(m, n, std::move(jc), std::move(ir), std::move(vals));
}

Value sparse_from_triplets(int64_t m, int64_t n, std::span<const int64_t> i,
                           std::span<const int64_t> j, const Tensor& v0, int64_t nzmax) {
  check_sparse_size(static_cast<double>(m), static_cast<double>(n));
  const Tensor v = value_column(v0);
  const size_t k = i.size();
  // Counting sort by column, then by row within each column (stable, so duplicates stay in
  // input order and are summed in that order).
  std::vector<int64_t> start(static_cast<size_t>(n) + 1, 0);
  for (size_t t = 0; t < k; ++t) ++start[static_cast<size_t>(j[t])];
  for (int64_t c = 0; c < n; ++c) start[c + 1] += start[c];
  std::vector<int64_t> order(k);
  {
    std::vector<int64_t> next(start.begin(), start.end() - 1);
    for (size_t t = 0; t < k; ++t)
      order[static_cast<size_t>(next[static_cast<size_t>(j[t] - 1)]++)] = static_cast<int64_t>(t);
  }
  std::vector<int64_t> jc(static_cast<size_t>(n) + 1, 0), ir;
  ir.reserve(k);
  std::vector<int64_t> gstart;               // per entry: start in flat list
  std::vector<int64_t> flat;
  flat.reserve(k);
  for (int64_t c = 0; c < n; ++c) {
    const int64_t b = start[c], e = start[c + 1];
    std::stable_sort(order.begin() + b, order.begin() + e,
                     [&](int64_t x, int64_t y) { return i[x] < i[y]; });
    for (int64_t p = b; p < e; ++p) {
      const int64_t t = order[p];
      if (p == b || i[order[p - 1]] != i[t]) {
        ir.push_back(i[t] - 1);
        gstart.push_back(static_cast<int64_t>(flat.size()));
      }
      flat.push_back(t);
    }
    jc[c + 1] = static_cast<int64_t>(ir.size());
  }
  gstart.push_back(static_cast<int64_t>(flat.size()));
  const int64_t nz = static_cast<int64_t>(ir.size());
  Tensor vals = Tensor::uninit(v.cls(), Dims(nz, 1), v.is_complex());
  const bool scalar_v = v.numel() == 1 && k != 1;
  auto src = [&](int64_t t) { return scalar_v ? 0 : t; };
  if (v.cls() == ClassId::Logical) {
    uint8_t* d = vals.mutable_data<uint8_t>();
    const uint8_t* s = v.data<uint8_t>();
    for (int64_t e = 0; e < nz; ++e) {
      uint8_t acc = 0;
      for (int64_t q = gstart[e]; q < gstart[e + 1]; ++q) acc |= s[src(flat[q])] != 0;
      d[e] = acc;
    }
  } else if (v.is_complex()) {
    auto* d = vals.mutable_data<std::complex<double>>();
    const auto* s = v.data<std::complex<double>>();
    for (int64_t e = 0; e < nz; ++e) {
      std::complex<double> acc = 0;
      for (int64_t q = gstart[e]; q < gstart[e + 1]; ++q) acc += s[src(flat[q])];
      d[e] = acc;
    }
  } else {
    double* d = vals.mutable_data<double>();
    const double* s = v.data<double>();
    for (int64_t e = 0; e < nz; ++e) {
      double acc = 0;
      for (int64_t q = gstart[e]; q < gstart[e + 1]; ++q) acc += s[src(flat[q])];
      d[e] = acc;
    }
  }
  return make_sparse(m, n, std::move(jc), std::move(ir), std::move(vals), nzmax);
}

Tensor sparse_to_full(const SparseMatrix& s) {
  Tensor r = Tensor::zeros(s.vals().cls(), Dims(s.rows(), s.cols()), s.is_complex());
  const size_t eb = static_cast<size_t>(r.elem_bytes());
  auto* dst = static_cast<unsigned char*>(r.mutable_raw());
  const auto* src = static_cast<const unsigned char*>(s.vals().raw());
  const auto& jc = s.jc();
  const auto& ir = s.ir();
  for (int64_t c = 0; c < s.cols(); ++c)
    for (int64_t p = jc[c]; p < jc[c + 1]; ++p)
      std::memcpy(dst + static_cast<size_t>(c * s.rows() + ir[p]) * eb, src + static_cast<size_t>(p) * eb, eb);
  return r;
}

Value densify(const Value& v) {
  if (const SparseMatrix* s = as_sparse(v)) return Value(sparse_to_full(*s));
  return v;
}

std::vector<Value> densify_all(std::span<const Value> args) {
  std::vector<Value> r;
  r.reserve(args.size());
  for (const Value& a : args) r.push_back(densify(a));
  return r;
}

Value sparse_transpose(const SparseMatrix& s, bool conj) {
  const int64_t m = s.rows(), n = s.cols(), nz = s.nnz();
  std::vector<int64_t> jc(static_cast<size_t>(m) + 1, 0), ir(static_cast<size_t>(nz)),
      src(static_cast<size_t>(nz));
  for (int64_t p = 0; p < nz; ++p) ++jc[s.ir()[p] + 1];
  for (int64_t r = 0; r < m; ++r) jc[r + 1] += jc[r];
  std::vector<int64_t> next(jc.begin(), jc.end() - 1);
  for (int64_t c = 0; c < n; ++c)
    for (int64_t p = s.jc()[c]; p < s.jc()[c + 1]; ++p) {
      const int64_t q = next[s.ir()[p]]++;
      ir[q] = c;
      src[q] = p;
    }
  Tensor vals = take_elements(s.vals(), src);
  if (conj && vals.is_complex()) {
    auto* z = vals.mutable_data<std::complex<double>>();
    for (int64_t k = 0; k < nz; ++k) z[k] = std::conj(z[k]);
  }
  return Value(std::make_shared<SparseMatrix>(n, m, std::move(jc), std::move(ir), std::move(vals),
                                              s.nzmax()));
}

std::optional<Value> sparse_transposed_product(const SparseMatrix& s, const Value& xv) {
  if (s.is_complex() || !xv.is_tensor()) return std::nullopt;
  const Tensor x = xv.tensor();
  if (x.cls() != ClassId::Double || x.is_complex() || x.dims().ndims() != 2) return std::nullopt;
  if (x.numel() == 1) return std::nullopt;  // a scalar factor: elementwise, sparse result
  const int64_t m = s.rows(), n = s.cols(), k = x.dims()[1];
  if (x.dims()[0] != m)
    throw_error("MATLAB:innerdim",
                "Incorrect dimensions for matrix multiplication. Check that the number of columns "
                "in the first matrix matches the number of rows in the second matrix. To operate "
                "on each element of the matrix individually, use TIMES (.*) for elementwise "
                "multiplication.");
  Tensor vals = s.is_logical() ? s.vals().to_class(ClassId::Double) : s.vals();
  const double* a = vals.data<double>();
  const double* xp = x.data<double>();
  Tensor y = Tensor::uninit(ClassId::Double, Dims(n, k));
  double* yp = y.mutable_data<double>();
  const int64_t* jc = s.jc().data();
  const int64_t* ir = s.ir().data();
  for (int64_t c = 0; c < k; ++c)
    for (int64_t j = 0; j < n; ++j) {
      double acc = 0;
      for (int64_t p = jc[j]; p < jc[j + 1]; ++p) acc += a[p] * xp[c * m + ir[p]];
      yp[c * n + j] = acc;
    }
  return Value(std::move(y));
}

// ---------------------------------------------------------------------------------------------
// Subscripted reads: S(k), S(i,j); results are sparse (as in MATLAB, even 1x1).

bool SparseMatrix::paren_read(std::span<const Value> idx, Value& out) const {
  const int nsub = static_cast<int>(idx.size());
  if (nsub == 0) {
    out = Value(std::make_shared<SparseMatrix>(*this));
    return true;
  }
  if (nsub == 1) {
    const Sub s = parse_sub(idx[0], 0, 1);
    const int64_t numel = m_ * n_;
    if (s.colon) {
      // S(:): an (m*n)-by-1 column.
      std::vector<int64_t> jc{0, nnz()}, ir(static_cast<size_t>(nnz()));
      for (int64_t c = 0; c < n_; ++c)
        for (int64_t p = jc_[c]; p < jc_[c + 1]; ++p) ir[p] = c * m_ + ir_[p];
      out = Value(std::make_shared<SparseMatrix>(numel, 1, std::move(jc), std::move(ir), vals_));
      return true;
    }
    if (s.max1() > numel) out_of_range(0, 1, numel);
    // Result shape: a vector indexed by a vector keeps its orientation; otherwise the
    // subscript's shape.
    const int64_t cnt = static_cast<int64_t>(s.pos.size());
    Dims rd = s.shape;
    if ((m_ == 1 || n_ == 1) && (s.shape.is_vector() || s.shape.numel() <= 1) && s.shape.ndims() == 2)
      rd = m_ == 1 && !(n_ == 1 && m_ == 1) ? Dims(1, cnt) : Dims(cnt, 1);
    if (rd.ndims() > 2) rd = Dims(cnt, 1);
    const int64_t rm = rd[0], rn = rd[1];
    std::vector<int64_t> jc(static_cast<size_t>(rn) + 1, 0), ir, src;
    for (int64_t k = 0; k < cnt; ++k) {
      const int64_t p = s.pos[k];
      const int64_t q = find_entry(jc_, ir_, p % m_, p / m_);
      if (q >= 0) {
        ir.push_back(k % rm);
        src.push_back(q);
      }
      jc[k / rm + 1] = static_cast<int64_t>(ir.size());
    }
    for (int64_t c = 0; c < rn; ++c) jc[c + 1] = std::max(jc[c + 1], jc[c]);
    out = Value(std::make_shared<SparseMatrix>(rm, rn, std::move(jc), std::move(ir),
                                               take_elements(vals_, src)));
    return true;
  }
  for (int k = 2; k < nsub; ++k) {
    const Sub s = parse_sub(idx[k], k, nsub);
    if (!s.colon && s.max1() > 1) out_of_range(k, nsub, 1);
    if (!s.colon && s.pos.empty()) {
      out = make_sparse(0, 0, {0}, {}, Tensor::zeros(vals_.cls(), Dims(0, 1)));
      return true;
    }
  }
  const Sub rs = parse_sub(idx[0], 0, nsub), cs = parse_sub(idx[1], 1, nsub);
  if (!rs.colon && rs.max1() > m_) out_of_range(0, nsub, m_);
  if (!cs.colon && cs.max1() > n_) out_of_range(1, nsub, n_);
  const int64_t rm = rs.count(m_), rn = cs.count(n_);
  std::vector<int64_t> jc(static_cast<size_t>(rn) + 1, 0), ir, src;
  // Rows sorted with their result positions, for merging with each column.
  std::vector<std::pair<int64_t, int64_t>> rows;
  if (!rs.colon) {
    rows.reserve(rs.pos.size());
    for (size_t k = 0; k < rs.pos.size(); ++k) rows.emplace_back(rs.pos[k], static_cast<int64_t>(k));
    std::sort(rows.begin(), rows.end());
  }
  std::vector<std::pair<int64_t, int64_t>> colbuf;
  for (int64_t k = 0; k < rn; ++k) {
    const int64_t c = cs.at(k);
    if (rs.colon) {
      for (int64_t p = jc_[c]; p < jc_[c + 1]; ++p) {
        ir.push_back(ir_[p]);
        src.push_back(p);
      }
    } else if (rows.size() == 1) {
      const int64_t q = find_entry(jc_, ir_, rows[0].first, c);
      if (q >= 0) {
        ir.push_back(0);
        src.push_back(q);
      }
    } else {
      colbuf.clear();
      int64_t p = jc_[c];
      const int64_t e = jc_[c + 1];
      size_t t = 0;
      while (p < e && t < rows.size()) {
        if (ir_[p] < rows[t].first) ++p;
        else if (ir_[p] > rows[t].first) ++t;
        else {
          colbuf.emplace_back(rows[t].second, p);
          ++t;  // the same row may be asked for twice: keep p
        }
      }
      std::sort(colbuf.begin(), colbuf.end());
      for (auto& [r, q] : colbuf) {
        ir.push_back(r);
        src.push_back(q);
      }
    }
    jc[k + 1] = static_cast<int64_t>(ir.size());
  }
  out = Value(std::make_shared<SparseMatrix>(rm, rn, std::move(jc), std::move(ir),
                                             take_elements(vals_, src)));
  return true;
}

// ---------------------------------------------------------------------------------------------
// Subscripted assignment S(k) = v, S(i,j) = v (growth, deletion with []).

bool SparseMatrix::paren_assign(std::span<const Value> idx, const Value& rhs, Value& self) {
  const int nsub = static_cast<int>(idx.size());
  if (nsub == 0) return false;
  const bool deleting = rhs.is_tensor() && rhs.dims().ndims() == 2 && rhs.dims()[0] == 0 &&
                        rhs.dims()[1] == 0 && rhs.cls() == ClassId::Double;
  int64_t m = m_, n = n_;
  // Target (row, col) of every assigned element, in the order the right side supplies them.
  std::vector<int64_t> tr, tc;
  if (deleting) {
    // S(i,:) = [], S(:,j) = [], S(k) = [] on a vector.
    std::vector<uint8_t> drop;
    if (nsub == 1) {
      const Sub s = parse_sub(idx[0], 0, 1);
      if (m_ != 1 && n_ != 1 && !s.colon)
        throw_error("MATLAB:subsdeldimmismatch",
                    "Matrix index is out of range for deletion.");
      const int64_t numel = m_ * n_;
      if (!s.colon && s.max1() > numel) out_of_range(0, 1, numel);
      drop.assign(static_cast<size_t>(numel), s.colon);
      for (int64_t p : s.pos) drop[p] = 1;
      // A vector stays a vector of its orientation.
      std::vector<int64_t> keep_map(static_cast<size_t>(numel), -1);
      int64_t kept = 0;
      for (int64_t p = 0; p < numel; ++p)
        if (!drop[p]) keep_map[p] = kept++;
      std::vector<int64_t> ti, tj;
      std::vector<int64_t> src;
      for (int64_t c = 0; c < n_; ++c)
        for (int64_t p = jc_[c]; p < jc_[c + 1]; ++p) {
          const int64_t lin = c * m_ + ir_[p];
          if (keep_map[lin] < 0) continue;
          src.push_back(p);
          ti.push_back(keep_map[lin]);
        }
      const bool row = m_ == 1 && !(s.colon);
      const int64_t nm = s.colon ? 0 : (row ? 1 : kept), nn = s.colon ? 0 : (row ? kept : 1);
      std::vector<int64_t> jc(static_cast<size_t>(nn) + 1, 0), ir;
      if (row) {
        for (size_t k = 0; k < ti.size(); ++k) jc[ti[k] + 1] = 1;
        for (int64_t c = 0; c < nn; ++c) jc[c + 1] += jc[c];
        ir.assign(ti.size(), 0);
      } else if (nn == 1) {
        ir = ti;
        jc[1] = static_cast<int64_t>(ti.size());
      }
      self = Value(std::make_shared<SparseMatrix>(nm, nn, std::move(jc), std::move(ir),
                                                  take_elements(vals_, src)));
      return true;
    }
    const Sub rs = parse_sub(idx[0], 0, nsub), cs = parse_sub(idx[1], 1, nsub);
    if (!rs.colon && !cs.colon) {
      // Deleting nothing when one subscript selects every row/column is allowed by MATLAB.
      bool all_r = true, all_c = true;
      std::vector<uint8_t> hr(static_cast<size_t>(m_), 0), hc(static_cast<size_t>(n_), 0);
      for (int64_t p : rs.pos) if (p < m_) hr[p] = 1;
      for (int64_t p : cs.pos) if (p < n_) hc[p] = 1;
      for (auto b : hr) all_r = all_r && b;
      for (auto b : hc) all_c = all_c && b;
      if (!all_r && !all_c)
        throw_error("MATLAB:subsdeldimmismatch",
                    "A null assignment can have only one non-colon index.");
    }
    const bool del_rows = !rs.colon;
    const Sub& ds = del_rows ? rs : cs;
    const int64_t ext = del_rows ? m_ : n_;
    if (ds.max1() > ext) out_of_range(del_rows ? 0 : 1, nsub, ext);
    std::vector<int64_t> map(static_cast<size_t>(ext), 0);
    for (int64_t p : ds.pos) map[p] = -1;
    int64_t kept = 0;
    for (int64_t p = 0; p < ext; ++p)
      if (map[p] == 0) map[p] = kept++;
      else map[p] = -1;
    if (ds.colon) kept = 0, std::fill(map.begin(), map.end(), -1);
    std::vector<int64_t> jc(1, 0), ir, src;
    for (int64_t c = 0; c < n_; ++c) {
      if (!del_rows && map[c] < 0) continue;
      for (int64_t p = jc_[c]; p < jc_[c + 1]; ++p) {
        if (del_rows && map[ir_[p]] < 0) continue;
        ir.push_back(del_rows ? map[ir_[p]] : ir_[p]);
        src.push_back(p);
      }
      jc.push_back(static_cast<int64_t>(ir.size()));
    }
    const int64_t nm = del_rows ? kept : m_, nn = del_rows ? n_ : kept;
    self = Value(std::make_shared<SparseMatrix>(nm, nn, std::move(jc), std::move(ir),
                                                take_elements(vals_, src)));
    return true;
  }
  if (nsub == 1) {
    const Sub s = parse_sub(idx[0], 0, 1);
    const int64_t numel = m_ * n_;
    const int64_t cnt = s.count(numel);
    const int64_t mx = s.colon ? numel : s.max1();
    if (mx > numel) {
      // Growth by a linear index: vectors (and empties) grow along their length.
      if (m_ == 1 || (m_ == 0 && n_ == 0)) m = 1, n = mx;
      else if (n_ == 1) m = mx;
      else
        throw_error("MATLAB:indexing:assignmentOutOfRange",
                    "Attempt to grow array along ambiguous dimension.");
    }
    tr.resize(static_cast<size_t>(cnt));
    tc.resize(static_cast<size_t>(cnt));
    for (int64_t k = 0; k < cnt; ++k) {
      const int64_t p = s.at(k);
      tr[k] = p % m;
      tc[k] = p / m;
    }
  } else {
    for (int k = 2; k < nsub; ++k) {
      const Sub s = parse_sub(idx[k], k, nsub);
      if (!s.colon && s.max1() > 1)
        throw_error("MATLAB:sparse:NDArray", "Sparse N-D arrays are not supported.");
    }
    const Sub rs = parse_sub(idx[0], 0, nsub), cs = parse_sub(idx[1], 1, nsub);
    if (!rs.colon) m = std::max(m, rs.max1());
    if (!cs.colon) n = std::max(n, cs.max1());
    // S(:, j) = v on an empty S takes its row count from v.
    if (rs.colon && m_ * n_ == 0 && m_ == 0) m = rhs.dims()[0] * (rhs.numel() > 1 ? 1 : 1);
    if (cs.colon && m_ * n_ == 0 && n_ == 0) n = rhs.numel() > 1 ? rhs.dims()[1] : 1;
    const int64_t rc = rs.count(m), cc = cs.count(n);
    tr.resize(static_cast<size_t>(rc * cc));
    tc.resize(tr.size());
    for (int64_t b = 0; b < cc; ++b)
      for (int64_t a = 0; a < rc; ++a) {
        tr[b * rc + a] = rs.at(a);
        tc[b * rc + a] = cs.at(b);
      }
  }
  check_sparse_size(static_cast<double>(m), static_cast<double>(n));
  const int64_t cnt = static_cast<int64_t>(tr.size());
  // The right side's values, one per target (a scalar is repeated).
  Value rv = densify(rhs);
  if (!rv.is_tensor() || rv.is_char())
    throw_error("MATLAB:invalidConversion", "Conversion to %s from %s is not possible.",
                class_name().c_str(), rhs.class_name().c_str());
  Tensor rt = rv.tensor();
  if (rt.numel() != 1 && rt.numel() != cnt)
    throw_error("MATLAB:subsassigndimmismatch",
                "Unable to perform assignment because the size of the left side is %s and the "
                "size of the right side is %s.",
                nsub == 1 ? Dims(1, cnt).str().c_str() : Dims(cnt, 1).str().c_str(),
                rt.dims().str().c_str());
  const bool logical = is_logical() && rt.cls() == ClassId::Logical;
  const bool complex = vals_.is_complex() || rt.is_complex();
  Tensor old = unify(vals_, logical, complex);
  rt = unify(rt.cls() == ClassId::Double || rt.cls() == ClassId::Logical ? rt : rt.to_class(ClassId::Double), logical, complex);
  // Sorted targets, the last assignment to a position winning.
  std::vector<int64_t> order(static_cast<size_t>(cnt));
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&](int64_t a, int64_t b) {
    return tc[a] != tc[b] ? tc[a] < tc[b] : tr[a] < tr[b];
  });
  // Merge: values from old (index >= 0) or rhs (encoded as -(k+1)).
  std::vector<int64_t> jc(static_cast<size_t>(n) + 1, 0), ir, from;
  ir.reserve(ir_.size() + static_cast<size_t>(cnt));
  from.reserve(ir.capacity());
  size_t t = 0;
  for (int64_t c = 0; c < n; ++c) {
    int64_t p = c < n_ ? jc_[c] : 0;
    const int64_t e = c < n_ ? jc_[c + 1] : 0;
    while (p < e || (t < order.size() && tc[order[t]] == c)) {
      const bool has_t = t < order.size() && tc[order[t]] == c;
      if (has_t && (p >= e || tr[order[t]] <= ir_[p])) {
        const int64_t r = tr[order[t]];
        // The last of equal targets wins.
        size_t u = t;
        while (u + 1 < order.size() && tc[order[u + 1]] == c && tr[order[u + 1]] == r) ++u;
        ir.push_back(r);
        from.push_back(-(rt.numel() == 1 ? 0 : order[u]) - 1);
        if (p < e && ir_[p] == r) ++p;
        t = u + 1;
      } else {
        ir.push_back(ir_[p]);
        from.push_back(p);
        ++p;
      }
    }
    jc[c + 1] = static_cast<int64_t>(ir.size());
  }
  // Gather values from the two sources.
  Tensor vals = Tensor::uninit(old.cls(), Dims(static_cast<int64_t>(ir.size()), 1), complex);
  const size_t eb = static_cast<size_t>(vals.elem_bytes());
  auto* dst = static_cast<unsigned char*>(vals.mutable_raw());
  const auto* so = static_cast<const unsigned char*>(old.raw());
  const auto* sr = static_cast<const unsigned char*>(rt.raw());
  for (size_t k = 0; k < ir.size(); ++k) {
    if (from[k] >= 0) std::memcpy(dst + k * eb, so + static_cast<size_t>(from[k]) * eb, eb);
    else std::memcpy(dst + k * eb, sr + static_cast<size_t>(-from[k] - 1) * eb, eb);
  }
  self = make_sparse(m, n, std::move(jc), std::move(ir), std::move(vals), nzmax_);
  return true;
}

// ---------------------------------------------------------------------------------------------
// Concatenation: any sparse part makes the result sparse.

bool SparseMatrix::concat(int dim, std::span<const Value> parts, Value& out) const {
  if (dim != 1 && dim != 2) {
    throw_error("MATLAB:sparse:NDArray", "Sparse N-D arrays are not supported.");
  }
  std::vector<Value> sp;
  bool logical = true, complex = false;
  for (const Value& p : parts) {
    if (p.is_tensor() && p.dims().ndims() == 2 && p.dims()[0] == 0 && p.dims()[1] == 0) continue;
    if (as_sparse(p)) sp.push_back(p);
    else if (p.is_tensor() && !p.is_char()) sp.push_back(sparse_from_full(p.tensor()));
    else
      throw_error("MATLAB:catenate:dimensionMismatch",
                  "Concatenation of sparse matrices with %s arrays is not supported.",
                  p.class_name().c_str());
    const SparseMatrix* s = as_sparse(sp.back());
    logical = logical && s->is_logical();
    complex = complex || s->is_complex();
  }
  if (sp.empty()) {
    out = make_sparse(0, 0, {0}, {}, Tensor::zeros(ClassId::Double, Dims(0, 1)));
    return true;
  }
  const int64_t keep = dim == 1 ? as_sparse(sp[0])->cols() : as_sparse(sp[0])->rows();
  int64_t total = 0, nz = 0;
  for (const Value& v : sp) {
    const SparseMatrix* s = as_sparse(v);
    const int64_t k = dim == 1 ? s->cols() : s->rows();
    if (k != keep)
      throw_error("MATLAB:catenate:dimensionMismatch",
                  "Dimensions of arrays being concatenated are not consistent.");
    total += dim == 1 ? s->rows() : s->cols();
    nz += s->nnz();
  }
  std::vector<Tensor> pv;
  for (const Value& v : sp) pv.push_back(unify(as_sparse(v)->vals(), logical, complex));
  const ClassId cls = logical ? ClassId::Logical : ClassId::Double;
  Tensor vals = Tensor::uninit(cls, Dims(nz, 1), complex);
  const size_t eb = static_cast<size_t>(vals.elem_bytes());
  auto* dst = static_cast<unsigned char*>(vals.mutable_raw());
  std::vector<int64_t> jc, ir;
  ir.reserve(static_cast<size_t>(nz));
  int64_t w = 0;
  if (dim == 2) {
    jc.push_back(0);
    for (size_t q = 0; q < sp.size(); ++q) {
      const SparseMatrix* s = as_sparse(sp[q]);
      for (int64_t c = 0; c < s->cols(); ++c) {
        for (int64_t p = s->jc()[c]; p < s->jc()[c + 1]; ++p) {
          ir.push_back(s->ir()[p]);
          std::memcpy(dst + static_cast<size_t>(w++) * eb,
                      static_cast<const unsigned char*>(pv[q].raw()) + static_cast<size_t>(p) * eb, eb);
        }
        jc.push_back(static_cast<int64_t>(ir.size()));
      }
    }
    out = make_sparse(keep, total, std::move(jc), std::move(ir), std::move(vals));
  } else {
    jc.assign(static_cast<size_t>(keep) + 1, 0);
    for (int64_t c = 0; c < keep; ++c) {
      int64_t off = 0;
      for (size_t q = 0; q < sp.size(); ++q) {
        const SparseMatrix* s = as_sparse(sp[q]);
        for (int64_t p = s->jc()[c]; p < s->jc()[c + 1]; ++p) {
          ir.push_back(s->ir()[p] + off);
          std::memcpy(dst + static_cast<size_t>(w++) * eb,
                      static_cast<const unsigned char*>(pv[q].raw()) + static_cast<size_t>(p) * eb, eb);
        }
        off += s->rows();
      }
      jc[c + 1] = static_cast<int64_t>(ir.size());
    }
    out = make_sparse(total, keep, std::move(jc), std::move(ir), std::move(vals));
  }
  return true;
}

}  // namespace matfuse
