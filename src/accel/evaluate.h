// The entry point of the acceleration layer: evaluate a set of graph roots.
//
// evaluate() plans every root together (shared nodes are computed once), lowers each fusion
// group to a kernel, runs it on the host provider, falls back to the eager engine for a group
// the kernel path does not handle or that faults (so results and MATLAB errors are those of
// the eager engine), records telemetry, and returns one Tensor per root.
// MATFUSE_DUMP_KERNELS=1 prints every kernel's canonical text to stderr.
#pragma once

#include <span>
#include <vector>

#include "accel/graph.h"
#include "accel/telemetry.h"
#include "runtime/tensor.h"

namespace matfuse::accel {

/// Values of roots (roots[i] -> result[i]); may raise the MatlabError of the eager operation.
std::vector<Tensor> evaluate(std::span<const NodeRef> roots,
                             SinkReason reason = SinkReason::Explicit);

/// Convenience: the value of one root.
Tensor evaluate(const NodeRef& root, SinkReason reason = SinkReason::Explicit);

}  // namespace matfuse::accel
