// The entry point of the acceleration layer: evaluate a set of graph roots.
//
// evaluate() plans every root together (shared nodes are computed once), then for each fusion
// group lowers it to a kernel, chooses a provider by the providers' cost estimates
// (device_dispatch.h), launches it there (the host provider when a device raises), and falls
// back to the eager engine for a group the kernel path does not handle or that faults (so
// results and MATLAB errors are those of the eager engine). Every group's outcome is written to
// telemetry and never read back. An observer, when given, is told about each group as it runs
// (loop replay records a chunk's kernel this way). MATFUSE_DUMP_KERNELS=1 prints the canonical
// text of every kernel a host-memory provider runs (device providers print their own source).
#pragma once

#include <span>
#include <vector>

#include "accel/graph.h"
#include "accel/observer.h"
#include "accel/telemetry.h"
#include "runtime/tensor.h"

namespace matfuse::accel {

/// Values of roots (roots[i] -> result[i]); may raise the MatlabError of the eager operation.
std::vector<Tensor> evaluate(std::span<const NodeRef> roots,
                             SinkReason reason = SinkReason::Explicit,
                             EvalObserver* observer = nullptr);

/// Convenience: the value of one root.
Tensor evaluate(const NodeRef& root, SinkReason reason = SinkReason::Explicit);

}  // namespace matfuse::accel
