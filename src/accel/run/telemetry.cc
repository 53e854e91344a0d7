// Telemetry (see telemetry.h).
#include "accel/run/telemetry.h"

#include <chrono>

namespace matfuse::accel {

std::string_view sink_reason_name(SinkReason r) {
  static const char* names[] = {"explicit",     "display",     "file_io",    "gather",
                                "branch",       "index_by_data", "host_builtin", "node_limit",
                                "depth_limit",  "param_bytes", "memory_pressure", "loop_chunk",
                                "device_index"};
  return names[static_cast<int>(r)];
}

void Telemetry::record(EvaluationRecord e) {
  std::lock_guard<std::mutex> l(mu_);
  ++counts_[static_cast<int>(e.reason)];
  evals_.push_back(std::move(e));
  if (evals_.size() > 4096) evals_.erase(evals_.begin(), evals_.begin() + 2048);  // bounded
}

std::vector<EvaluationRecord> Telemetry::snapshot() const {
  std::lock_guard<std::mutex> l(mu_);
  return evals_;
}

EvaluationRecord Telemetry::last() const {
  std::lock_guard<std::mutex> l(mu_);
  return evals_.empty() ? EvaluationRecord{} : evals_.back();
}

namespace {
thread_local int t_sync_reason = -1;  // SyncReasonScope's reason, -1: none
thread_local SinkReason t_sink_reason = SinkReason::HostBuiltin;
}  // namespace

SinkReason& thread_sink_reason() { return t_sink_reason; }

SyncReasonScope::SyncReasonScope(SinkReason r) : prev_(t_sync_reason) {
  t_sync_reason = static_cast<int>(r);
}
SyncReasonScope::~SyncReasonScope() { t_sync_reason = prev_; }

void Telemetry::record_sync(std::string_view kind, int64_t bytes) {
  const SinkReason r = t_sync_reason >= 0 ? static_cast<SinkReason>(t_sync_reason)
                                          : t_sink_reason;
  std::lock_guard<std::mutex> l(mu_);
  for (SyncCount& c : syncs_)
    if (c.kind == kind && c.reason == r) {
      ++c.count;
      c.bytes += bytes;
      return;
    }
  syncs_.push_back({std::string(kind), r, 1, bytes});
}

std::vector<SyncCount> Telemetry::syncs() const {
  std::lock_guard<std::mutex> l(mu_);
  return syncs_;
}

int64_t Telemetry::sync_total() const {
  std::lock_guard<std::mutex> l(mu_);
  int64_t n = 0;
  for (const SyncCount& c : syncs_) n += c.count;
  return n;
}

void Telemetry::clear() {
  std::lock_guard<std::mutex> l(mu_);
  evals_.clear();
  syncs_.clear();
  for (int64_t& c : counts_) c = 0;
}

int64_t Telemetry::count(SinkReason r) const {
  std::lock_guard<std::mutex> l(mu_);
  return counts_[static_cast<int>(r)];
}

double telemetry_clock() {
  static const auto epoch = std::chrono::steady_clock::now();
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - epoch).count();
}

Telemetry& telemetry() {
  static Telemetry* t = new Telemetry();
  return *t;
}

}  // namespace matfuse::accel
