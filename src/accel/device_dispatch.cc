// Running a lowered fusion group on the CUDA provider (see device_dispatch.h).
#include "accel/device_dispatch.h"

#include <atomic>

#include "accel/placement.h"
#include "providers/cuda/cuda_provider.h"
#include "runtime/error.h"

namespace matfuse::accel {
namespace {

std::atomic<bool> g_timing{false};
thread_local bool t_defer_faults = false;  // a DeferredFaults is enabled on this thread

int64_t bytes_of(const Tensor& t) { return t.numel() * t.elem_bytes(); }

const char* cache_name(cuda::CacheSource s) {
  switch (s) {
    case cuda::CacheSource::Memory: return "memory";
    case cuda::CacheSource::Disk: return "disk";
    case cuda::CacheSource::Compiled: return "compiled";
  }
  return "?";
}

}  // namespace

void set_device_timing(bool on) { g_timing = on; }

DeferredFaults::DeferredFaults(bool enable) : prev_(t_defer_faults) {
  cuda::CudaProvider* cp = enable && device_mode() != DeviceMode::Cpu ? cuda::cuda_provider()
                                                                      : nullptr;
  if (!cp) return;
  enabled_ = true;
  mark_ = cp->deferred_faults();
  t_defer_faults = true;
}

DeferredFaults::~DeferredFaults() {
  if (!enabled_) return;
  t_defer_faults = prev_;
  cuda::CudaProvider* cp = cuda::cuda_provider();
  if (cp->deferred_faults() > mark_) {
    try {
      cp->take_deferred_faults(mark_);  // releases the flags (an error here is moot)
    } catch (const MatlabError&) {
    }
  }
}

std::string DeferredFaults::check() {
  if (!enabled_) return "";
  enabled_ = false;
  t_defer_faults = prev_;
  const int code = cuda::cuda_provider()->take_deferred_faults(mark_);
  return code ? cuda::CudaProvider::fault_message(code) : std::string();
}

bool device_available() {
  return device_mode() != DeviceMode::Cpu && cuda::cuda_provider() != nullptr;
}

bool try_device(const LoweredGroup& lg, const std::string& text, const std::vector<Tensor>& inputs,
                const std::vector<bool>& download_outputs, std::vector<Tensor>& outputs,
                GroupRecord& rec, bool* faulted) {
  *faulted = false;
  outputs.clear();
  cuda::CudaProvider* cp = device_mode() == DeviceMode::Cpu ? nullptr : cuda::cuda_provider();
  GroupCost cost;
  kernel_work(lg.kernel, cost);
  for (const Tensor& t : inputs) {
    const int64_t b = bytes_of(t);
    cost.bytes_in += b;
    if (t.device_only()) cost.gather_bytes += b;
    else if (!cp || !cuda::on_cuda(t)) cost.upload_bytes += b;
  }
  for (size_t i = 0; i < lg.output_nodes.size(); ++i) {
    const Node* n = lg.output_nodes[i];
    const int64_t b = n->numel() * element_size(n->cls);
    cost.bytes_out += b;
    if (i < download_outputs.size() && download_outputs[i]) cost.download_bytes += b;
  }
  std::string why_not;
  if (!cp) why_not = "no gpu: " + cuda::Device::unavailable_reason();
  if (device_mode() == DeviceMode::Cpu) why_not = "forced cpu (MATFUSE_DEVICE / --device)";
  const Placement pl = place(cost, cp != nullptr, why_not);
  rec.placement = pl.reason;
  rec.est_host_seconds = pl.host_seconds;
  rec.est_device_seconds = pl.device_seconds;
  if (!pl.device) return false;

  std::vector<ParamValue> params;
  for (const Node* n : lg.param_nodes) params.push_back({n->value, n->bits});
  std::vector<OutputSpec> specs;
  for (const Node* n : lg.output_nodes) specs.push_back({n->cls, n->dims});
  return run_on_device(lg.kernel, text, inputs, specs, params, outputs, rec, faulted);
}

bool run_on_device(const Kernel& kernel, const std::string& text,
                   const std::vector<Tensor>& inputs, const std::vector<OutputSpec>& out_specs,
                   const std::vector<ParamValue>& params, std::vector<Tensor>& outputs,
                   GroupRecord& rec, bool* faulted) {
  *faulted = false;
  outputs.clear();
  cuda::CudaProvider* cp = device_mode() == DeviceMode::Cpu ? nullptr : cuda::cuda_provider();
  if (!cp) return false;
  cuda::Device& dev = cp->device();
  try {
    KernelArgs args;
    const int64_t up0 = dev.stats().upload_bytes;
    for (const Tensor& t : inputs)
      args.inputs.push_back(reinterpret_cast<const void*>(cuda::device_pointer(dev, t)));
    rec.upload_bytes = dev.stats().upload_bytes - up0;
    std::vector<Tensor> outs;
    for (const OutputSpec& o : out_specs) {
      outs.push_back(cuda::device_tensor(dev, o.cls, o.dims));
      args.outputs.push_back(outs.back().storage()->device()->device_ptr());
    }
    args.params = params;
    args.text = &text;
    cp->set_timing(g_timing.load());
    cp->set_defer_faults(t_defer_faults);
    const RunResult rr = cp->run(kernel, args);
    const cuda::LaunchRecord& lr = cp->last();
    rec.fault_deferred = lr.fault_deferred;
    rec.device_seconds = lr.device_seconds;
    rec.compile_seconds = lr.compile_seconds;
    rec.kernel_cache = cache_name(lr.cache);
    rec.provider = "cuda";
    if (!rr.ok) {
      *faulted = true;
      rec.fallback = rr.fault;
      return true;
    }
    outputs = std::move(outs);
    return true;
  } catch (const MatlabError& e) {
    // The device could not run it (codegen gap, NVRTC, device memory): the host runs the group.
    rec.placement = "gpu failed, host ran it: " + e.message();
    rec.provider.clear();
    return false;
  }
}

}  // namespace matfuse::accel
