// Telemetry of the acceleration layer: why evaluation was forced (decision 2) and, per fusion
// group, what ran where (decision 13's inputs): fusion_kind, elements, bytes read and written,
// provider, time, kernel cache key. Thread safe; cheap enough to stay on.
#pragma once

#include <cstdint>
#include <mutex>
#include <string>
#include <string_view>
#include <vector>

namespace matfuse::accel {

/// Why a lazy value was forced (DESIGN.md decision 2).
enum class SinkReason : uint8_t {
  Explicit,        ///< evaluate() called directly (tests, API users)
  Display,         ///< printing
  FileIO,          ///< fprintf, save ...
  Gather,          ///< gather()
  Branch,          ///< if/while condition on array data
  IndexByData,     ///< indexing by array data
  HostBuiltin,     ///< a builtin without a lazy implementation
  NodeLimit,       ///< graph node count limit
  DepthLimit,      ///< graph depth limit
  ParamBytes,      ///< kernel parameter bytes limit
  MemoryPressure,  ///< memory held by pending graphs
  LoopChunk,       ///< a chunk boundary of a replayed loop (accel/run/replay.h)
  DeviceIndex,     ///< an operand of indexing on the device (accel/run/indexing.h): kept there
};
std::string_view sink_reason_name(SinkReason r);

struct GroupRecord {
  std::string fusion_kind;  ///< "elementwise", "reduction", "matmul_epilogue", ...
  int64_t elements = 0;     ///< points of the iteration space(s)
  int64_t bytes_read = 0;   ///< bytes of materialised inputs
  int64_t bytes_written = 0;
  std::string provider;     ///< "host", or "eager" for the node-by-node fallback
  double seconds = 0;
  uint64_t kernel_key = 0;  ///< hash of the kernel's canonical text (0 for eager)
  bool cache_hit = false;   ///< the same canonical text ran before in this process
  bool fast_math = false;   ///< the kernel was lowered in MathMode::Fast
  std::string fallback;     ///< why the eager engine ran the group ("" when it did not)
  double start = 0;         ///< telemetry_clock() when the group started
  // Placement (placement.h) and device telemetry.
  std::string placement;         ///< why this provider ("cheaper on gpu", "no gpu: ...")
  double est_host_seconds = 0;   ///< cost-model estimates (0 when not costed)
  double est_device_seconds = 0;
  double device_seconds = -1;    ///< CUDA-event kernel time (-1 when not timed)
  double compile_seconds = 0;    ///< NVRTC compile or disk-cache load time
  std::string kernel_cache;      ///< device kernels: "memory", "disk" or "compiled"
  int64_t upload_bytes = 0;      ///< inputs uploaded for this group
  bool fault_deferred = false;   ///< the kernel's fault check waits for the evaluation's end
};

struct EvaluationRecord {
  SinkReason reason = SinkReason::Explicit;
  double start = 0;         ///< telemetry_clock() when evaluate() began (planning starts)
  double plan_seconds = 0;  ///< time spent forming the fusion groups
  std::vector<GroupRecord> groups;
};

/// One kind of host synchronisation (the host waited for a device): what waited ("gather":
/// device data read on the host; "fault check": kernel fault flags read back) and the sink
/// reason in force (the evaluation's reason during an evaluation, else the thread's SinkScope).
struct SyncCount {
  std::string kind;
  SinkReason reason = SinkReason::HostBuiltin;
  int64_t count = 0;
  int64_t bytes = 0;
};

class Telemetry {
public:
  /// Counts one host synchronisation of `kind` moving `bytes` (device providers call this).
  void record_sync(std::string_view kind, int64_t bytes);
  /// Synchronisations since the last clear(), one entry per (kind, reason), first seen first.
  std::vector<SyncCount> syncs() const;
  /// Total synchronisations since the last clear().
  int64_t sync_total() const;
  void record(EvaluationRecord e);
  /// Copy of every evaluation recorded since the last clear().
  std::vector<EvaluationRecord> snapshot() const;
  /// The latest evaluation (empty record when none).
  EvaluationRecord last() const;
  void clear();
  /// Counts of forced evaluations per reason.
  int64_t count(SinkReason r) const;

private:
  mutable std::mutex mu_;
  std::vector<EvaluationRecord> evals_;
  int64_t counts_[16] = {};
  std::vector<SyncCount> syncs_;
};

/// The thread's current sink reason (SinkScope in capture/lazy.h sets it; HostBuiltin when
/// no scope is open).
SinkReason& thread_sink_reason();

/// While alive, host synchronisations on this thread are attributed to reason r (evaluate()
/// holds one for the evaluation's sink reason).
class SyncReasonScope {
public:
  explicit SyncReasonScope(SinkReason r);
  ~SyncReasonScope();
  SyncReasonScope(const SyncReasonScope&) = delete;
  SyncReasonScope& operator=(const SyncReasonScope&) = delete;

private:
  int prev_;
};

/// Seconds since the first call in this process (steady clock); the time base of the records.
double telemetry_clock();

/// The process-wide telemetry.
Telemetry& telemetry();

}  // namespace matfuse::accel
