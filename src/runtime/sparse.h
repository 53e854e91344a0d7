// SparseMatrix: MATLAB's sparse matrices (compressed sparse column storage, double or logical,
// real or complex), held as an Object whose class() is "double" or "logical" as in MATLAB and
// whose methods are registered under the dispatch name "sparse" (builtins/sparse*.cc).
//
// Storage (as MATLAB keeps it, Gilbert, Moler and Schreiber, "Sparse Matrices in MATLAB: Design
// and Implementation", SIAM J. Matrix Anal. Appl. 13(1), 1992): for an m-by-n matrix, jc has
// n+1 column starts, ir the 0-based row of every stored entry (ascending within a column) and
// vals the stored values as an nnz-by-1 Tensor (Double or Logical, real or complex). Stored
// entries are never zero: every constructor and kernel drops the zeros it produces.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "runtime/value_object.h"

namespace matfuse {

class SparseMatrix final : public ValueObject {
public:
  /// Takes the arrays as they are: jc (n+1 entries, jc[0] = 0, non-decreasing), ir (jc[n]
  /// entries, each column's rows ascending and unique) and vals (jc[n]-by-1, Double or Logical)
  /// must describe a matrix without stored zeros (use compress() otherwise). nzmax: the
  /// allocation nzmax() reports (at least nnz, at least 1).
  SparseMatrix(int64_t m, int64_t n, std::vector<int64_t> jc, std::vector<int64_t> ir, Tensor vals,
               int64_t nzmax = 0);

  int64_t rows() const { return m_; }
  int64_t cols() const { return n_; }
  int64_t nnz() const { return jc_.empty() ? 0 : jc_.back(); }
  int64_t nzmax() const { return nzmax_; }
  const std::vector<int64_t>& jc() const { return jc_; }
  const std::vector<int64_t>& ir() const { return ir_; }
  const Tensor& vals() const { return vals_; }
  bool is_logical() const { return vals_.cls() == ClassId::Logical; }
  bool is_complex() const { return vals_.is_complex(); }
  /// The stored values of a real double matrix (null for logical or complex ones).
  const double* real_data() const;

  std::string class_name() const override { return is_logical() ? "logical" : "double"; }
  std::string dispatch_name() const override { return "sparse"; }
  Dims dims() const override { return Dims(m_, n_); }
  bool isa(std::string_view name) const override;
  bool truth(bool& out) const override;

  bool paren_read(std::span<const Value> idx, Value& out) const override;
  bool get_property(std::string_view, Value&) const override { return false; }
  bool paren_assign(std::span<const Value> idx, const Value& rhs, Value& self) override;
  bool concat(int dim, std::span<const Value> parts, Value& out) const override;

private:
  int64_t m_, n_;
  std::vector<int64_t> jc_, ir_;
  Tensor vals_;
  int64_t nzmax_;
};

/// Checks the size of an m-by-n sparse matrix before its arrays are allocated: each of m and n
/// below 2^48 (MATLAB's limit) and the n+1 column starts within the largest array
/// (MATFUSE_MAX_ARRAY_BYTES). Errors: MATLAB:sparsfcn:badSize, MATLAB:array:SizeLimitExceeded.
void check_sparse_size(double m, double n);

/// The SparseMatrix held by v, or null.
const SparseMatrix* as_sparse(const Value& v);
/// Whether any argument is sparse.
bool any_sparse(std::span<const Value> args);

/// A sparse Value from CSC arrays that may hold zeros: drops them (and an all-zero imaginary
/// part) first. vals: Double or Logical, real or complex, nnz-by-1 (any dims with nnz elements).
Value make_sparse(int64_t m, int64_t n, std::vector<int64_t> jc, std::vector<int64_t> ir,
                  Tensor vals, int64_t nzmax = 0);

/// sparse(A) for a full numeric or logical 2-D array. Errors: MATLAB:sparse:... for other
/// classes (only double and logical are sparse in MATLAB) and N-D arrays.
Value sparse_from_full(const Tensor& a);

/// S = sparse(i, j, v, m, n, nzmax): 1-based subscripts (already validated, length k each),
/// values v (k elements, Double or Logical, maybe complex); duplicates are added (logical:
/// or'ed) as MATLAB does; zero sums are dropped. O(k + n) by a counting sort over columns.
Value sparse_from_triplets(int64_t m, int64_t n, std::span<const int64_t> i,
                           std::span<const int64_t> j, const Tensor& v, int64_t nzmax = 0);

/// full(S): the dense array. Errors: MATLAB:array:SizeLimitExceeded / MATLAB:nomem when the
/// array does not fit (MATLAB's out-of-memory error, never a crash).
Tensor sparse_to_full(const SparseMatrix& s);
/// v itself, or full(v) when v is sparse.
Value densify(const Value& v);
/// Every sparse argument as full (the generic rule for functions without a sparse method).
std::vector<Value> densify_all(std::span<const Value> args);

/// Elements k of t (any class, real or complex) gathered into an n-by-1 Tensor; idx[k] < 0 gives
/// a zero element.
Tensor take_elements(const Tensor& t, std::span<const int64_t> idx);

/// The transpose of s (conj: the complex conjugate transpose). O(nnz + m + n).
Value sparse_transpose(const SparseMatrix& s, bool conj);

/// y = S' * x (S.' * x when !conj) for a real S and a real double full x (m-by-k) without
/// forming the transpose: y(j,:) is the dot product of column j of S with x. Null when the
/// operands are not of that kind (the caller then takes the general path). Errors:
/// MATLAB:innerdim when the sizes do not agree.
std::optional<Value> sparse_transposed_product(const SparseMatrix& s, const Value& x);

}  // namespace matfuse
