// Planner passes (DESIGN.md decision 4): free functions over a Plan, one per file, run in order
// by run_pipeline (accel/plan/pipeline.h). Each fusion decision is a Decision; refusals go to
// note_rejection (printed with MATFUSE_DEBUG_FUSION=1).
#pragma once

#include <string>

#include "accel/plan/plan.h"

namespace matfuse::accel {

/// Generators and movement nodes: inlined into every consumer (decision 6) unless they must
/// exist as arrays (root, operand of a matrix product, base of another movement node, or a Diag
/// that ends a matrix product's single-consumer elementwise chain), in which case they are
/// marked `materialise`.
void inline_generators(Plan& p);

/// Reduction groups: sibling reductions (same input shape and dims, sharing a source) share
/// one pass over the data; elementwise producers of the reduced input's shape are fused into the
/// loads (prologue) -- those also needed outside (roots, other consumers) are written by the
/// same pass (body outputs) when the group graph stays acyclic; elementwise consumers of the
/// reduced shape form a small epilogue.
void fuse_reduction(Plan& p);

/// Matrix products: a `matmul` group each; a single-consumer elementwise chain after the product
/// (scale, scalar/row/column bias, max/min clamp, power ...) becomes its epilogue
/// (`matmul_epilogue`). The chain may end with a Diag (materialised by inline_generators): the
/// group's output is then the min(m,n) x 1 main diagonal and the epilogue runs at (k,k) only.
void fuse_matmul_epilogue(Plan& p);

/// Maximal elementwise regions: a node joins a producer's elementwise group when it has the
/// same iteration space and the group graph stays acyclic; regions that meet are merged, and so
/// are sibling regions of one space that read a common source (it is then read once).
/// A region containing several loop iterations (distinct loop-index / RNG-offset Params) is
/// labelled `loop`.
void fuse_elementwise(Plan& p);

/// Labels (FusionGroup::label) the groups of recognised patterns, from the graph's structure
/// on every equivalent form (runs after finalize; groups are not changed):
/// - centered_gram: Xc' * Xc with Xc = X - mu, mu = mean(X) / mean(X,1) / sum(X)/n (a named
///   Xc, bsxfun(@minus, X, mean(X)), cov(X), cov(X,1) all give this graph); the product's group.
/// - power_step_normalize: w ./ s (or w .* (1./s)) with w a matrix product and s its 2-norm,
///   whole or per column: norm(w), vecnorm(w), sqrt(w'*w), sqrt(sum(w.^2[,1])), sqrt(sum(w.*w)),
///   with an optional scalar added inside or outside the root; the product's, the norm's and
///   the division's groups.
/// - explained_variance: column sums of A.' .* B (diag(A*B), diag(Q'*G*Q)); its group.
/// - image_normalize: (X - mean(X, dims)) ./ s and mean((X - mean(X,dims)).^2, dims) for N-D X
///   with dims not containing 1 (W2's per-slice whitening); their groups.
void label_patterns(Plan& p);

/// Plan invariants; "" when they hold, else the first violation. Unassigned computed nodes are
/// allowed unless `final` is true.
std::string verify_plan(const Plan& p, bool final);

}  // namespace matfuse::accel
