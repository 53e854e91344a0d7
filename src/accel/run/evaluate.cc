// evaluate(): plan once, then lower, place, launch and fall back per group (see evaluate.h).
#include "accel/run/evaluate.h"

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <mutex>
#include <unordered_map>
#include <unordered_set>

#include "accel/capture/lazy.h"
#include "accel/run/dispatch.h"
#include "accel/run/eager.h"
#include "accel/emit/lower.h"
#include "accel/plan/pipeline.h"
#include "accel/run/replay.h"
#include "runtime/error.h"
#include "runtime/interrupt.h"
#include "runtime/options.h"

namespace matfuse::accel {
namespace {

using Values = std::unordered_map<const Node*, Tensor>;

bool dump_kernels() {
  return options().dump_kernels;
}

/// Whether this canonical text ran before (the in-memory kernel cache of the providers).
bool seen_before(uint64_t key) {
  static std::mutex mu;
  static std::unordered_set<uint64_t> seen;
  std::lock_guard<std::mutex> l(mu);
  return !seen.insert(key).second;
}

int64_t bytes_of(const Tensor& t) { return t.numel() * t.elem_bytes(); }

/// Bytes the kernel loads from its inputs (slices count their part only).
int64_t kernel_bytes_read(const Kernel& k, const std::vector<Tensor>& inputs) {
  int64_t b = 0;
  for (size_t i = 0; i < inputs.size(); ++i)
    b += k.elements_read(static_cast<int>(i), inputs[i].numel()) * inputs[i].elem_bytes();
  return b;
}

/// Sinks that read the roots on the host right away (a device prices their download).
bool host_sink(SinkReason r) {
  return r != SinkReason::Explicit && r != SinkReason::NodeLimit &&
         r != SinkReason::DepthLimit && r != SinkReason::ParamBytes &&
         r != SinkReason::MemoryPressure && r != SinkReason::LoopChunk &&
         r != SinkReason::DeviceIndex;
}

/// Runs the groups of one plan and holds the values computed so far.
class GroupRunner {
public:
  GroupRunner(const Plan& p, bool host_sink, bool device_sink, EvalObserver* obs)
      : p_(p), host_sink_(host_sink), device_sink_(device_sink), obs_(obs) {}
  Values values;

  /// Runs group g and writes its telemetry to gr; true when a device deferred its fault check.
  bool run(int g, GroupRecord& gr) {
    const auto t0 = std::chrono::steady_clock::now();
    gr.fusion_kind = std::string(fusion_kind_name(p_.groups[g].reported_kind()));
    gr.start = telemetry_clock();
    bool deferred = false;
    const std::string why = run_kernel(g, gr, &deferred);
    if (!why.empty()) run_eager(g, why, gr);
    gr.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    return deferred;
  }

  /// Value of n: materialised inputs, computed values, else computed node by node (eager).
  const Tensor& eager_value(const Node* n) {
    auto it = values.find(n);
    if (it != values.end()) return it->second;
    if (n->kind == NodeKind::Input) return values.emplace(n, n->tensor).first->second;
    std::vector<Tensor> ins;
    ins.reserve(n->inputs.size());
    for (const NodeRef& i : n->inputs) ins.push_back(eager_value(i.get()));
    Tensor t = eval_node_eager(*n, ins);
    return values.emplace(n, std::move(t)).first->second;
  }

private:
  const Tensor& value_of(const Node* n) const {
    return n->kind == NodeKind::Input ? n->tensor : values.at(n);
  }

  /// Runs group g as one kernel; "" when it ran, else why the eager engine must run it.
  std::string run_kernel(int g, GroupRecord& gr, bool* deferred) {
    bool complex_src = false;
    for (const Node* s : p_.groups[g].sources) {
      // A real-typed value that turned complex (an eager re-run left the real domain), or a
      // complex-typed one whose imaginary parts were all zero (dropped, as MATLAB does).
      complex_src |= value_of(s).is_complex() != s->complex;
      gr.bytes_read += bytes_of(value_of(s));
    }
    if (complex_src) return "complex data";
    std::string why;
    std::optional<LoweredGroup> lg = lower_group(p_, g, &why);
    if (!lg) return why;
    const std::string text = lg->kernel.text();
    std::vector<Tensor> inputs, outputs;
    for (const Node* n : lg->input_nodes) inputs.push_back(value_of(n));
    std::vector<OutputSpec> outs;
    std::vector<bool> to_host, to_device;
    bool complex_io = false;
    for (size_t i = 0; i < lg->output_nodes.size(); ++i) {
      const Node* n = lg->output_nodes[i];
      OutputSpec o{n->cls, n->dims, n->complex};
      if (lg->output_imag[i]) o.share = static_cast<int>(i) - 1;
      complex_io |= n->complex;
      outs.push_back(o);
      to_host.push_back(host_sink_ && p_.at(n).root);
      to_device.push_back(device_sink_ && p_.at(n).root);
    }
    for (const Node* n : lg->input_nodes) complex_io |= n->complex;
    std::vector<ParamValue> params;
    for (const Node* n : lg->param_nodes) params.push_back({n->value, n->bits});
    gr.kernel_key = std::hash<std::string>{}(text);
    gr.fast_math = lg->kernel.math == MathMode::Fast;
    gr.elements = lg->kernel.elements();
    gr.bytes_read = kernel_bytes_read(lg->kernel, inputs);
    const ProviderChoice choice =
        choose_provider(lg->kernel, inputs, outs, to_host, to_device, &text);
    gr.placement = choice.reason;
    gr.est_host_seconds = choice.est_host_seconds;
    gr.est_device_seconds = choice.est_device_seconds;
    for (Provider* p : {choice.first, choice.fallback}) {
      if (!p) continue;
      if (dump_kernels() && p->host_memory()) std::fprintf(stderr, "%s", text.c_str());
      RunResult rr;
      int64_t copied = 0;
      try {
        rr = launch(*p, lg->kernel, text, inputs, outs, params, outputs, &copied);
      } catch (const MatlabError& e) {
        if (p == choice.fallback || !choice.fallback) throw;
        // The device could not run it (codegen gap, compiler, device memory): the host does.
        gr.placement = "gpu failed, host ran it: " + e.message();
        continue;
      }
      gr.cache_hit = seen_before(gr.kernel_key);
      gr.provider = std::string(p->name());
      if (!p->host_memory()) gr.upload_bytes = copied;
      gr.device_seconds = rr.device_seconds;
      gr.compile_seconds = rr.compile_seconds;
      gr.kernel_cache = rr.kernel_cache;
      gr.fault_deferred = *deferred = rr.fault_deferred;
      if (!rr.ok) return rr.fault;
      // Loop replay re-launches kernels with one buffer per output: complex ones are not
      // offered to it.
      if (obs_ && complex_io) obs_->on_other_group();
      else if (obs_) obs_->on_kernel(chunk_run(*lg, text, gr.fusion_kind, *p, inputs, outputs));
      for (size_t i = 0; i < outputs.size(); ++i) {
        if (lg->output_imag[i]) continue;
        gr.bytes_written += bytes_of(outputs[i]);
        // MATLAB drops all-zero imaginary parts, as the eager engine does; a device result
        // stays complex rather than being gathered to look.
        if (p->host_memory() && outputs[i].is_complex()) outputs[i] = outputs[i].drop_zero_imag();
        values[lg->output_nodes[i]] = std::move(outputs[i]);
      }
      return "";
    }
    return "no provider runs this kernel";
  }

  void run_eager(int g, const std::string& why, GroupRecord& gr) {
    const FusionGroup& G = p_.groups[g];
    if (obs_) obs_->on_other_group();
    for (const Node* m : G.members) eager_value(m);
    gr.provider = "eager";
    gr.fallback = why;
    gr.bytes_written = 0;
    for (const Node* o : G.outputs) gr.bytes_written += bytes_of(values.at(o));
    if (gr.elements == 0)
      for (const Node* o : G.outputs) gr.elements += o->numel();
  }

  static ChunkRun chunk_run(const LoweredGroup& lg, const std::string& text,
                            const std::string& kind, const Provider& p,
                            const std::vector<Tensor>& inputs, const std::vector<Tensor>& outputs) {
    ChunkRun r;
    r.kernel = lg.kernel;
    r.text = text;
    r.fusion_kind = kind;
    r.provider = std::string(p.name());
    // Identity of each input: the forced node an Input leaf stands for (the previous chunk's
    // output), so loop replay can match carried values.
    for (const Node* n : lg.input_nodes) r.input_nodes.push_back(forced_origin(n));
    r.inputs = inputs;
    for (const Node* n : lg.param_nodes) {
      r.params.push_back({n->value, n->bits});
      r.roles.push_back(n->role);
      r.u64.push_back(n->param_u64);
    }
    r.output_nodes = lg.output_nodes;
    r.outputs = outputs;
    return r;
  }

  const Plan& p_;
  const bool host_sink_;
  const bool device_sink_;  ///< the roots go to indexing on the device (SinkReason::DeviceIndex)
  EvalObserver* const obs_;
};

}  // namespace

std::vector<Tensor> evaluate(std::span<const NodeRef> roots, SinkReason reason,
                             EvalObserver* observer) {
  count_evaluation();
  SyncReasonScope sync_reason(reason);  // waits for the device below are this sink's
  if (observer) observer->on_evaluation();
  EvaluationRecord rec;
  rec.reason = reason;
  rec.start = telemetry_clock();
  const Plan p = plan_fusion(roots);
  rec.plan_seconds = telemetry_clock() - rec.start;
  GroupRunner runner(p, host_sink(reason), reason == SinkReason::DeviceIndex, observer);
  // Device fault checks wait for the end of the evaluation, unless an observer needs each
  // group's outcome as it runs. A fault found then re-runs, with immediate checks, every group
  // from the first deferred one (they may have read its wrong values).
  DeferredFaults deferred(observer == nullptr);
  int first_deferred = -1;  // first group whose fault check was deferred
  Values before_deferred;   // the values before that group ran
  const int ngroups = static_cast<int>(p.groups.size());
  bool faulted = false;
  try {
    for (int g = 0; g < ngroups; ++g) {
      check_interrupt();  // Ctrl-C between kernels (runtime/interrupt.h)
      if (deferred.enabled() && first_deferred < 0) before_deferred = runner.values;
      if (runner.run(g, rec.groups.emplace_back()) && first_deferred < 0) first_deferred = g;
    }
    faulted = !deferred.check().empty();
  } catch (const MatlabError&) {
    // A later group may have failed on the faulting kernel's wrong values: if a deferred check
    // reports a fault, the groups run again below; otherwise the error stands.
    if (first_deferred < 0 || deferred.check().empty()) throw;
    faulted = true;
  }
  if (faulted) {
    runner.values = std::move(before_deferred);
    rec.groups.resize(first_deferred);
    for (int g = first_deferred; g < ngroups; ++g) runner.run(g, rec.groups.emplace_back());
  }
  std::vector<Tensor> result;
  for (const NodeRef& r : roots) result.push_back(runner.eager_value(r.get()));
  telemetry().record(std::move(rec));
  return result;
}

Tensor evaluate(const NodeRef& root, SinkReason reason) {
  const NodeRef roots[] = {root};
  return evaluate(std::span<const NodeRef>(roots), reason)[0];
}

}  // namespace matfuse::accel
