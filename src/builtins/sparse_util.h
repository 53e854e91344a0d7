// Helpers shared by the sparse builtin files (sparse.cc, sparse_ops.cc, sparse_solve.cc).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "builtins/registry.h"
#include "runtime/sparse.h"

namespace matfuse::sparse_detail {

/// v as a sparse matrix: itself, or sparse(v) of a full double/logical 2-D array.
Value to_sparse(const Value& v);
/// The SparseMatrix of a value known to be sparse.
inline const SparseMatrix& sp(const Value& v) { return *as_sparse(v); }
/// A nonnegative whole-number size argument (MATLAB:sparsfcn:... errors otherwise).
int64_t size_arg(const Value& v, const char* fname);
/// name(args...) through the interpreter's dispatch (sparse arguments reach their methods); the
/// first output.
Value callv(CallContext& ctx, const char* name, std::vector<Value> args);
/// An iteration or dimension count option (maxit, p): a real nonnegative whole number or Inf,
/// clamped to 2^62 (MATLAB:<fname>:InvalidOption naming `what` otherwise).
int64_t count_option(const Value& v, const char* fname, const char* what);
/// An empty m-by-n sparse matrix of class double (logical when logical is set).
Value empty_sparse(int64_t m, int64_t n, bool logical = false);
/// A real double CSC matrix copied out of s (values of logical s become 0/1 doubles).
struct Csc {
  int64_t m = 0, n = 0;
  std::vector<int64_t> jc, ir;
  std::vector<double> x;
};
Csc real_csc(const SparseMatrix& s, const char* fname);
/// A sparse Value of a real double CSC matrix (zeros dropped).
Value from_csc(Csc c);

}  // namespace matfuse::sparse_detail
