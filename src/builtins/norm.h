// norm of vectors and matrices (LAPACK for the matrix 2-norm), for the norm builtin and the
// linear-algebra builtins.
#pragma once

#include "runtime/tensor.h"

namespace matfuse {

/// norm(x, p): vectors any p (Inf, -Inf, p > 0; 'fro' is p = 2); matrices p in {1, 2, Inf}
/// (2 = largest singular value, LAPACK gesvd). `fro` selects the Frobenius norm.
/// Result: double scalar, or single for single input. Errors for N-d input and other matrix p.
Tensor norm_tensor(const Tensor& x, double p, bool fro = false);

}  // namespace matfuse
