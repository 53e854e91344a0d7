// evaluate(): plan, lower, run, fall back, record (see evaluate.h).
#include "accel/evaluate.h"

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <mutex>
#include <unordered_map>
#include <unordered_set>

#include "accel/device_dispatch.h"
#include "accel/eager.h"
#include "accel/lower.h"
#include "accel/pipeline.h"
#include "accel/replay.h"
#include "providers/host/host_provider.h"
#include "runtime/error.h"

namespace matfuse::accel {
namespace {

using Values = std::unordered_map<const Node*, Tensor>;

bool dump_kernels() {
  static const bool on = [] {
    const char* e = std::getenv("MATFUSE_DUMP_KERNELS");
    return e && *e && std::string(e) != "0";
  }();
  return on;
}

/// Whether this canonical text ran before (the in-memory kernel cache of the host provider).
bool seen_before(uint64_t key) {
  static std::mutex mu;
  static std::unordered_set<uint64_t> seen;
  std::lock_guard<std::mutex> l(mu);
  return !seen.insert(key).second;
}

/// Value of n for the eager fallback: materialised values, else computed node by node.
const Tensor& eager_value(const Node* n, Values& values) {
  auto it = values.find(n);
  if (it != values.end()) return it->second;
  if (n->kind == NodeKind::Input) return values.emplace(n, n->tensor).first->second;
  std::vector<Tensor> ins;
  ins.reserve(n->inputs.size());
  for (const NodeRef& i : n->inputs) ins.push_back(eager_value(i.get(), values));
  Tensor t = eval_node_eager(*n, ins);
  return values.emplace(n, std::move(t)).first->second;
}

int64_t bytes_of(const Tensor& t) { return t.numel() * t.elem_bytes(); }

/// Bytes the kernel loads from its inputs (slices count their part only).
int64_t kernel_bytes_read(const Kernel& k, const std::vector<Tensor>& inputs) {
  int64_t b = 0;
  for (size_t i = 0; i < inputs.size(); ++i)
    b += k.elements_read(static_cast<int>(i), inputs[i].numel()) * inputs[i].elem_bytes();
  return b;
}

/// Hands a group that ran as one kernel to the loop-replay recorder, when one is armed.
void record_chunk(const LoweredGroup& lg, const std::string& text, const std::string& kind,
                  bool device, const std::vector<Tensor>& inputs,
                  const std::vector<Tensor>& outputs) {
  ChunkRecorder* cr = active_chunk_recorder();
  if (!cr) return;
  ChunkRun r;
  r.kernel = lg.kernel;
  r.text = text;
  r.fusion_kind = kind;
  r.device = device;
  r.input_nodes = lg.input_nodes;
  r.inputs = inputs;
  for (const Node* n : lg.param_nodes) {
    r.params.push_back({n->value, n->bits});
    r.roles.push_back(n->role);
    r.u64.push_back(n->param_u64);
  }
  r.output_nodes = lg.output_nodes;
  r.outputs = outputs;
  cr->on_kernel(std::move(r));
}

}  // namespace

std::vector<Tensor> evaluate(std::span<const NodeRef> roots, SinkReason reason) {
  count_evaluation();
  if (ChunkRecorder* cr = active_chunk_recorder()) cr->on_evaluation();
  EvaluationRecord rec;
  rec.reason = reason;
  rec.start = telemetry_clock();
  Plan p = plan_fusion(roots);
  rec.plan_seconds = telemetry_clock() - rec.start;
  Values values;
  // Sinks that read the roots on the host right away (costed as a download by placement).
  const bool host_sink = reason != SinkReason::Explicit && reason != SinkReason::NodeLimit &&
                         reason != SinkReason::DepthLimit && reason != SinkReason::ParamBytes &&
                         reason != SinkReason::MemoryPressure &&
                         reason != SinkReason::LoopChunk;
  // One group: lowered and run on the device or the host provider, else by the eager engine.
  auto run_group = [&](int g) -> GroupRecord {
    const FusionGroup& G = p.groups[g];
    GroupRecord gr;
    gr.fusion_kind = std::string(fusion_kind_name(G.kind));
    const auto t0 = std::chrono::steady_clock::now();
    gr.start = telemetry_clock();
    std::string why;
    bool complex_src = false;
    for (const Node* s : G.sources) {
      const Tensor& t = s->kind == NodeKind::Input ? s->tensor : values.at(s);
      complex_src |= t.is_complex();
      gr.bytes_read += bytes_of(t);
    }
    std::optional<LoweredGroup> lg;
    if (complex_src) why = "complex data";
    else lg = lower_group(p, g, &why);
    bool done = false;
    const std::string text = lg ? lg->kernel.text() : std::string();
    if (lg) {
      // Device first when placement prefers it (device_dispatch.h); outputs stay resident.
      std::vector<Tensor> dev_inputs, dev_outputs;
      for (const Node* n : lg->input_nodes)
        dev_inputs.push_back(n->kind == NodeKind::Input ? n->tensor : values.at(n));
      std::vector<bool> to_host;
      for (const Node* n : lg->output_nodes) to_host.push_back(host_sink && p.at(n).root);
      bool faulted = false;
      gr.kernel_key = std::hash<std::string>{}(text);
      gr.fast_math = lg->kernel.math == MathMode::Fast;
      gr.elements = lg->kernel.elements();
      gr.bytes_read = kernel_bytes_read(lg->kernel, dev_inputs);
      if (try_device(*lg, text, dev_inputs, to_host, dev_outputs, gr, &faulted)) {
        gr.cache_hit = seen_before(gr.kernel_key);
        if (faulted) {
          why = gr.fallback;
          lg.reset();
        } else {
          record_chunk(*lg, text, gr.fusion_kind, true, dev_inputs, dev_outputs);
          for (size_t i = 0; i < dev_outputs.size(); ++i) {
            gr.bytes_written += bytes_of(dev_outputs[i]);
            values[lg->output_nodes[i]] = std::move(dev_outputs[i]);
          }
          done = true;
        }
      }
    }
    if (lg && !done) {
      KernelArgs args;
      for (const Node* n : lg->input_nodes)
        args.inputs.push_back(n->kind == NodeKind::Input ? n->tensor.raw() : values.at(n).raw());
      for (const Node* n : lg->param_nodes) args.params.push_back({n->value, n->bits});
      std::vector<Tensor> outs;
      for (const Node* n : lg->output_nodes) {
        outs.push_back(Tensor::uninit(n->cls, n->dims));
        args.outputs.push_back(outs.back().mutable_raw());
      }
      if (dump_kernels()) std::fprintf(stderr, "%s", text.c_str());
      gr.cache_hit = seen_before(gr.kernel_key);
      RunResult rr = host::host_provider().run(lg->kernel, args);
      if (rr.ok) {
        std::vector<Tensor> ins;
        if (active_chunk_recorder()) {
          for (const Node* n : lg->input_nodes)
            ins.push_back(n->kind == NodeKind::Input ? n->tensor : values.at(n));
          record_chunk(*lg, text, gr.fusion_kind, false, ins, outs);
        }
        for (size_t i = 0; i < outs.size(); ++i) {
          gr.bytes_written += bytes_of(outs[i]);
          values[lg->output_nodes[i]] = std::move(outs[i]);
        }
        gr.provider = "host";
        done = true;
      } else {
        why = rr.fault;
      }
    }
    if (!done) {
      if (ChunkRecorder* cr = active_chunk_recorder()) cr->on_other_group();
      for (const Node* m : G.members) eager_value(m, values);
      gr.provider = "eager";
      gr.fallback = why;
      gr.bytes_written = 0;
      for (const Node* o : G.outputs) gr.bytes_written += bytes_of(values.at(o));
      if (gr.elements == 0)
        for (const Node* o : G.outputs) gr.elements += o->numel();
    }
    gr.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    return gr;
  };
  // Fault checks of device kernels wait for the end of the evaluation (DeferredFaults), unless a
  // loop-replay recording needs each group's outcome as it runs.
  DeferredFaults deferred(!active_chunk_recorder());
  int first_deferred = -1;  // first group whose fault check was deferred
  Values before_deferred;   // the values before that group ran
  const int ngroups = static_cast<int>(p.groups.size());
  bool faulted = false;
  try {
    for (int g = 0; g < ngroups; ++g) {
      if (deferred.enabled() && first_deferred < 0) before_deferred = values;
      rec.groups.push_back(run_group(g));
      if (first_deferred < 0 && rec.groups.back().fault_deferred) first_deferred = g;
    }
    faulted = !deferred.check().empty();
  } catch (const MatlabError&) {
    // A later group may have failed on the faulting kernel's wrong values: if a deferred check
    // reports a fault, the groups run again below; otherwise the error stands.
    if (first_deferred < 0 || deferred.check().empty()) throw;
    faulted = true;
  }
  if (faulted) {
    // A deferred kernel faulted: every group from the first deferred one may have read wrong
    // values. Run them again with immediate checks (the faulting group then falls back).
    values = std::move(before_deferred);
    rec.groups.resize(first_deferred);
    for (int g = first_deferred; g < ngroups; ++g) rec.groups.push_back(run_group(g));
  }
  std::vector<Tensor> result;
  for (const NodeRef& r : roots) result.push_back(eager_value(r.get(), values));
  telemetry().record(std::move(rec));
  return result;
}

Tensor evaluate(const NodeRef& root, SinkReason reason) {
  const NodeRef roots[] = {root};
  return evaluate(std::span<const NodeRef>(roots), reason)[0];
}

}  // namespace matfuse::accel
