// Reports of the acceleration layer for the command line: the --profile table and the
// --trace Chrome trace-event JSON, both built from the telemetry records (accel/run/telemetry.h).
#pragma once

#include <span>
#include <string>

#include "accel/run/telemetry.h"

namespace matfuse::accel {

/// --profile: one row per fusion group run (fusion_kind, elements, bytes read and written,
/// provider, time, forcing reason), then a summary line: kernels run, bytes moved, time in
/// kernels vs `total_seconds` (the whole run).
std::string profile_table(std::span<const EvaluationRecord> evals, double total_seconds);

/// --profile: one line counting the host synchronisations (waits for a device) and, per kind
/// and sink reason, how many forced them: "host synchronisations: 3 (gather by display: 1,
/// fault check by node_limit: 2)". "host synchronisations: 0" when there were none.
std::string sync_summary(std::span<const SyncCount> syncs);

/// --trace: Chrome trace-event JSON (load in chrome://tracing or Perfetto) with complete ("X")
/// events: "interpreter" over [run_start, run_end] (telemetry_clock() seconds), one "planning"
/// span per evaluation and one span per kernel (fusion group).
std::string trace_json(std::span<const EvaluationRecord> evals, double run_start, double run_end);

}  // namespace matfuse::accel
