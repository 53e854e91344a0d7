// The --graph recorder (internal to the acceleration layer): lazy.cc's force path hands every
// planned evaluation to record_graph() while recording is on; graph_mermaid() (lazy.h) renders
// what was recorded. The public switches are set_graph_recording()/reset_graph_recording() in
// lazy.h.
#pragma once

#include <span>

#include "accel/plan/plan.h"
#include "accel/run/telemetry.h"

namespace matfuse::accel {

/// Whether set_graph_recording(true) is in effect.
bool graph_recording();

/// Appends the Mermaid text of one evaluation: plan p (the groups evaluate() ran, in the same
/// order), its telemetry record (provider and forcing reason per group), and the values computed
/// for roots (values[i] of roots[i]), remembered by storage so that a later evaluation reading
/// one of them as an input draws an edge back to the node that computed it.
void record_graph(const Plan& p, const EvaluationRecord& rec, std::span<const NodeRef> roots,
                  std::span<const Tensor> values);

}  // namespace matfuse::accel
