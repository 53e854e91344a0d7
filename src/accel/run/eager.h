// Eager evaluation of graph nodes, one node at a time, with the eager engine
// (runtime/elementwise.h, runtime/reduce.h, OpenBLAS). It is the reference the fused path is
// tested against, and the fallback for a fusion group whose kernel faults (a value leaves the
// real domain, a NaN meets a logical op) or that the host provider does not support (complex
// or 64-bit integer data, empty arrays): the eager engine then gives the MATLAB result or
// raises the MATLAB error.
#pragma once

#include <span>
#include <vector>

#include "accel/capture/graph.h"
#include "runtime/tensor.h"

namespace matfuse::accel {

/// Value of node n given the values of its inputs (inputs[i] for n.inputs[i]).
Tensor eval_node_eager(const Node& n, std::span<const Tensor> inputs);

/// Values of roots computed node by node (no fusion). Shared nodes are computed once.
std::vector<Tensor> evaluate_eager(std::span<const NodeRef> roots);

/// Element values of a generator node (used by the fallback and by the reference).
Tensor generate(const Node& g);

}  // namespace matfuse::accel
