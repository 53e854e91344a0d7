// Loop replay: recording single-kernel chunk evaluations and re-running them (see replay.h).
#include "accel/replay.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <unordered_map>

#include "accel/device_dispatch.h"
#include "accel/telemetry.h"
#include "runtime/error.h"

namespace matfuse::accel {
namespace {

std::atomic<uint64_t> g_serial{0};

bool same_param(const ParamValue& a, const ParamValue& b, bool u64) {
  return u64 ? a.u == b.u : a.f == b.f;
}

}  // namespace

std::optional<ChunkRun> ChunkRecorder::take() {
  if (!valid_ || evaluations_ != 1 || !run_) return std::nullopt;
  return std::move(run_);
}

void ChunkRecorder::on_evaluation() { ++evaluations_; }
void ChunkRecorder::on_kernel(ChunkRun run) {
  if (run_) valid_ = false;  // a second group: not a single-kernel chunk
  run_ = std::move(run);
}
void ChunkRecorder::on_other_group() { valid_ = false; }

uint64_t evaluation_serial() { return g_serial.load(std::memory_order_relaxed); }
void count_evaluation() { g_serial.fetch_add(1, std::memory_order_relaxed); }

void trace_size(const std::vector<NodeRef>& roots, int& count, int& depth) {
  std::unordered_map<const Node*, int> d;  // depth of each visited non-leaf node
  count = 0;
  depth = 0;
  for (const Node* n : topo_order(roots)) {
    if (n->is_leaf()) continue;
    int dn = 0;
    for (const NodeRef& c : n->inputs)
      if (auto it = d.find(c.get()); it != d.end()) dn = std::max(dn, it->second);
    d[n] = dn + 1;
    depth = std::max(depth, dn + 1);
    ++count;
  }
}

std::optional<ReplaySpec> match_chunks(const ChunkRun& a, const ChunkRun& b, std::string* why) {
  auto fail = [&](const char* w) -> std::optional<ReplaySpec> {
    if (why) *why = w;
    return std::nullopt;
  };
  if (a.text != b.text) return fail("the chunks ran different kernels");
  if (a.provider != b.provider) return fail("the chunks ran on different providers");
  if (a.inputs.size() != b.inputs.size() || a.params.size() != b.params.size() ||
      a.outputs.size() != b.outputs.size())
    return fail("the chunks have different bindings");
  ReplaySpec s;
  for (size_t i = 0; i < b.inputs.size(); ++i) {
    int from = -1;
    for (size_t o = 0; o < a.output_nodes.size(); ++o)
      if (a.output_nodes[o] == b.input_nodes[i]) from = static_cast<int>(o);
    // Invariant: the very same stored array (copy-on-write storage never changes in place).
    if (from < 0 && !(a.inputs[i].storage() == b.inputs[i].storage() &&
                      a.inputs[i].storage_offset() == b.inputs[i].storage_offset() &&
                      a.inputs[i].cls() == b.inputs[i].cls() &&
                      a.inputs[i].dims() == b.inputs[i].dims()))
      return fail("an input is neither loop invariant nor carried from the previous chunk");
    // A carried input must have the class and size of the output feeding it.
    if (from >= 0 && (a.outputs[from].cls() != b.inputs[i].cls() ||
                      a.outputs[from].dims() != b.inputs[i].dims()))
      return fail("a carried input changes class or size");
    s.carried_from.push_back(from);
  }
  for (size_t p = 0; p < b.params.size(); ++p) {
    ParamValue d;
    if (!same_param(a.params[p], b.params[p], b.u64[p])) {
      if (b.roles[p] != ParamRole::LoopIndex && b.roles[p] != ParamRole::RngOffset)
        return fail("a scalar parameter changes between chunks");
      if (b.u64[p]) d.u = b.params[p].u - a.params[p].u;
      else d.f = b.params[p].f - a.params[p].f;
    }
    s.step.push_back(d);
  }
  s.last = b;
  return s;
}

bool replay_chunk(const ReplaySpec& spec, int64_t j, const std::vector<Tensor>& prev,
                  std::vector<Tensor>& outputs) {
  const ChunkRun& b = spec.last;
  EvaluationRecord rec;
  rec.reason = SinkReason::LoopChunk;
  rec.start = telemetry_clock();
  GroupRecord gr;
  gr.fusion_kind = b.fusion_kind;
  gr.start = rec.start;
  gr.elements = b.kernel.elements();
  gr.kernel_key = std::hash<std::string>{}(b.text);
  gr.cache_hit = true;
  gr.placement = "loop replay";
  const auto t0 = std::chrono::steady_clock::now();

  std::vector<Tensor> inputs;
  inputs.reserve(b.inputs.size());
  for (size_t i = 0; i < b.inputs.size(); ++i) {
    const int from = spec.carried_from[i];
    inputs.push_back(from >= 0 ? prev[static_cast<size_t>(from)] : b.inputs[i]);
    gr.bytes_read += b.kernel.elements_read(static_cast<int>(i), inputs.back().numel()) *
                     inputs.back().elem_bytes();
  }
  std::vector<ParamValue> params = b.params;
  for (size_t p = 0; p < params.size(); ++p) {
    if (b.u64[p]) params[p].u += static_cast<uint64_t>(j) * spec.step[p].u;
    else params[p].f += static_cast<double>(j) * spec.step[p].f;
  }
  bool ok = false;
  outputs.clear();
  if (Provider* p = find_provider(b.provider)) {
    std::vector<OutputSpec> specs;
    for (const Tensor& o : b.outputs) specs.push_back({o.cls(), o.dims()});
    try {
      int64_t copied = 0;
      const RunResult rr = launch(*p, b.kernel, b.text, inputs, specs, params, outputs, &copied);
      ok = rr.ok;
      gr.provider = std::string(p->name());
      if (!p->host_memory()) gr.upload_bytes = copied;
      gr.device_seconds = rr.device_seconds;
      gr.compile_seconds = rr.compile_seconds;
      gr.kernel_cache = rr.kernel_cache;
    } catch (const MatlabError&) {
      ok = false;  // the provider could not run it: the caller interprets the chunk
    }
  }
  if (!ok) {
    outputs.clear();
    return false;
  }
  for (const Tensor& o : outputs) gr.bytes_written += o.numel() * o.elem_bytes();
  gr.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  rec.groups.push_back(std::move(gr));
  telemetry().record(std::move(rec));
  return true;
}

}  // namespace matfuse::accel
