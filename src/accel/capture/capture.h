// Capture: array operations of the builtins and operators become lazy graph values
// (DESIGN.md decision 1). Each capture_* function returns the lazy result, or nullopt when the
// operation stays eager (capture off, an operand of a class or kind the graph does not handle,
// every operand materialised and the result below the size threshold). The caller then runs
// its eager code, which reads (and so forces) any lazy operand.
//
// Rules
// - Handled operands: real double, single, logical, char, int8..int32, uint8..uint32, not
//   empty. Complex double and single values (interleaved storage) are captured by the ops
//   whose complex form the fused kernels compute (complex_fusable), by sum and mean without
//   'omitnan', and by double()/single(); other complex work and 64-bit integer values stay
//   eager. A complex result whose imaginary parts are all zero becomes real when a host kernel
//   computes it (as in the eager engine); a device-resident result stays complex. A lazy operand that may turn complex (LazyRef::maybe_complex) is captured only by
//   ops that accept complex data.
// - Captured when an operand is lazy or the result has at least lazy_config().min_numel
//   elements. Materialised operands enter as Input nodes; 1x1 double operands as Params (so a
//   loop trace that differs only in scalars lowers to one kernel text, decision 8), other 1x1
//   operands as Constants of their class.
// - Node creation raises the eager operation's MatlabError (class and size checks), so errors
//   appear at the operation, not at the sink. Logical ops on float data (NaN raises
//   MATLAB:nologicalnan) and logical() conversions stay eager for the same reason.
// - Each result goes through check_limits() (graph node-count and depth limits).
#pragma once

#include <optional>
#include <vector>

#include "accel/capture/graph.h"
#include "accel/capture/lazy.h"

namespace matfuse::accel {

/// a OP b (ops.def binary op) with implicit expansion. For Max/Min: the NaN-ignoring form.
std::optional<Tensor> capture_binary(OpId op, const Tensor& a, const Tensor& b);
/// OP a (ops.def unary op).
std::optional<Tensor> capture_unary(OpId op, const Tensor& a);
/// sum/prod/mean/min/max/any/all over 0-based dims (see accel::reduce).
std::optional<Tensor> capture_reduce(ReduceKind k, const Tensor& x, const std::vector<int>& dims,
                                     bool omitnan, ReduceOut out);
/// double(x) / single(x) (other target classes stay eager).
std::optional<Tensor> capture_cast(const Tensor& x, ClassId to);
/// a*b of 2-D matrices of one floating class when an operand is lazy.
std::optional<Tensor> capture_matmul(const Tensor& a, const Tensor& b);
/// a.' / a' of a lazy 2-D value.
std::optional<Tensor> capture_transpose(const Tensor& a, bool conj);
/// diag(a) (main diagonal, k = 0) of a lazy 2-D matrix with more than one row and column: a
/// lazy min(m,n) x 1 Diag node. nullopt for materialised, vector, N-D or maybe-complex values
/// (the eager builtin then handles them).
/// diag(A*B) of a lazy square product is rewritten as the column sums of A.' .* B (the
/// product is never formed; A.' of a product Q'*G is the product G'*Q).
std::optional<Tensor> capture_diag(const Tensor& a);
/// cov(x) (w = 0: divided by n-1) or cov(x, 1) (w = 1: by n) of a real single/double matrix
/// (a row vector is one variable) with n >= 2 observations, as the graph of
/// (X - mean(X))' * (X - mean(X)) / d: two-pass numerics, class kept (single stays single).
/// nullopt for other data (complex, N-D, one observation, small and materialised).
std::optional<Tensor> capture_cov(const Tensor& x, int w);
/// corrcoef(x) of a real single/double matrix (a row vector is one variable) with n >= 2
/// observations and at least 2 variables, as cov's graph divided by the outer product of the
/// standard deviations and clamped to [-1, 1] (NaN kept; the diagonal is 1, NaN for a constant
/// variable); class kept. nullopt as capture_cov.
std::optional<Tensor> capture_corrcoef(const Tensor& x);
/// One subscript of an affine slice along one dimension: 1-based positions start + j*step for
/// j < count. `per_trace` starts (a scalar subscript such as a loop index) enter the graph as a
/// Param of role LoopIndex, so traces that differ only in it lower to one kernel text
/// (decision 8); other starts are Constants.
struct SliceSub {
  double start = 1;
  int64_t step = 1;
  int64_t count = 0;
  bool per_trace = false;
};
/// x(subs...) with one SliceSub per dimension of x (subs.size() == x.dims().ndims()) as a lazy
/// Slice node (accel::slice). Captured when x is lazy (result of at least 2 elements) or the
/// result has at least lazy_config().min_numel elements; nullopt otherwise, and for positions
/// out of range (the caller's eager path then raises MATLAB's error).
std::optional<Tensor> capture_slice(const Tensor& x, const std::vector<SliceSub>& subs);
/// The 2-norm of x along 0-based dims (all of x's dims: norm(v), norm(X,'fro'); one dim:
/// vecnorm(X,2,dim)) as a lazy value of x's class, so that consumers on the device read it
/// from device memory. Single data: sqrt of the sum of squares accumulated in double; double
/// data: scaled by the largest magnitude (no overflow or underflow); Inf and NaN elements give
/// Inf and NaN. nullopt when x is not real single/double or is small and materialised.
std::optional<Tensor> capture_norm2(const Tensor& x, const std::vector<int>& dims);
/// var(x, w, dims) (w 0: divided by n-1, 1: by n; n = 1 gives 0) or std (take_sqrt) of real
/// single/double data over 0-based dims, without weights or 'omitnan', as graph ops (two
/// passes: the mean, then the sum of squared deviations); class kept.
std::optional<Tensor> capture_var(const Tensor& x, const std::vector<int>& dims, int w,
                                  bool take_sqrt);
/// Whether a generator (rand, randn, zeros, ones) of n elements of class cls is captured.
bool capture_generator(int64_t n, ClassId cls, bool complex = false);
/// The lazy value of a generator node (through check_limits).
Tensor lazy_generator(const NodeRef& g);

}  // namespace matfuse::accel
