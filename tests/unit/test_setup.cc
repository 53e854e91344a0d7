// Set-up shared by the test binaries: the providers of this build are registered at start, as
// the matfuse CLI does, and the plan verifier runs after every planner pass (so CI, a Release
// build, checks every plan the tests build).
#include "accel/plan/pipeline.h"
#include "providers/standard.h"

namespace {
const bool set_up = (matfuse::register_standard_providers(), matfuse::accel::set_verify_plans(true),
                     true);
}  // namespace
