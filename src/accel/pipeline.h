// The planner pipeline (DESIGN.md decision 4): one plain function running the passes in order.
//
//   inline_generators -> fuse_reduction -> fuse_matmul_epilogue -> fuse_elementwise -> finalize
//
// MATFUSE_DUMP=after:PASS (comma-separated list, or after:all) prints the plan to stderr after
// that pass; in debug builds (NDEBUG undefined) the plan verifier runs after every pass and a
// violation raises an internal error (MF_ASSERT).
#pragma once

#include <span>

#include "accel/plan.h"

namespace matfuse::accel {

/// Runs every pass on p (built by build_plan), then finalizes it.
void run_pipeline(Plan& p);

/// build_plan + run_pipeline: the fusion groups of roots, in execution order.
Plan plan_fusion(std::span<const NodeRef> roots);

}  // namespace matfuse::accel
