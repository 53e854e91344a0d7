// The planner pipeline (DESIGN.md decision 4): one plain function running the passes in order.
//
//   inline_generators -> fuse_reduction -> fuse_matmul_epilogue -> fuse_elementwise -> finalize
//
// MATFUSE_DUMP=after:PASS (comma-separated list, or after:all) prints the plan to stderr after
// that pass. The plan verifier (passes.h verify_plan) runs after every pass in debug builds
// (NDEBUG undefined), with MATFUSE_VERIFY_PLANS=1 (the script and error tests set it), and
// wherever set_verify_plans(true) was called (every test binary does), so CI's Release build
// verifies each plan its tests build; a violation raises an internal error (MF_ASSERT).
#pragma once

#include <span>

#include "accel/plan/plan.h"

namespace matfuse::accel {

/// Runs every pass on p (built by build_plan), then finalizes it.
void run_pipeline(Plan& p);

/// Turns the verifier after every pass on or off (see the file comment).
void set_verify_plans(bool on);
bool verify_plans();

/// build_plan + run_pipeline: the fusion groups of roots, in execution order.
Plan plan_fusion(std::span<const NodeRef> roots);

/// rand/randn generators (at least 65536 elements, fitting in an eighth of memory) that the plan
/// of roots would regenerate: inlined into fusion groups that together read more elements than
/// the array has (several groups reading it whole, or overlapping slices). Philox and the
/// normal transform cost several times a load, so the caller (force_nodes) evaluates them as
/// extra roots: stored once, by the first group that reads them, then loaded (DESIGN.md
/// decision 6). Plans the roots only when such a generator has two consumers or more.
std::vector<NodeRef> generators_to_store(std::span<const NodeRef> roots);

}  // namespace matfuse::accel
