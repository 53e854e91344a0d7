// Choosing a provider and launching a kernel there (see device_dispatch.h).
#include "accel/run/dispatch.h"

#include <atomic>

#include "accel/plan/placement.h"
#include "runtime/error.h"

namespace matfuse::accel {
namespace {

std::atomic<bool> g_timing{false};
thread_local bool t_defer_faults = false;  // a DeferredFaults is enabled on this thread

int64_t bytes_of(const Tensor& t) { return t.numel() * t.elem_bytes(); }

/// The providers a kernel may run on under the device mode; *declined receives why the first
/// device provider that cannot run it declined ("" when none did).
std::vector<Provider*> candidates(const Kernel& k, const std::string* text,
                                  std::string* declined) {
  const DeviceMode m = device_mode();
  std::vector<Provider*> out;
  for (Provider* p : usable_providers()) {
    if (!p->host_memory() && m == DeviceMode::Cpu) continue;
    if (p->supports(k, text)) out.push_back(p);
    else if (!p->host_memory() && declined->empty())
      *declined = std::string(p->name()) + " cannot run it: " + p->why_unsupported(k, text);
  }
  return out;
}

}  // namespace

ProviderChoice decide_placement(Provider* host, Provider* dev, double est_host_seconds,
                                double est_device_seconds) {
  ProviderChoice c;
  c.est_host_seconds = est_host_seconds;
  c.est_device_seconds = est_device_seconds;
  const DeviceMode m = device_mode();
  if (!dev) {
    c.first = host;
    c.reason = m == DeviceMode::Cpu ? "forced cpu (MATFUSE_DEVICE / --device)"
                                    : "no gpu: " + device_unavailable_reason();
  } else if (m == DeviceMode::Gpu || !host) {
    c.first = dev;
    c.reason = host ? "forced gpu (MATFUSE_DEVICE / --device)" : "no host provider";
  } else {
    c.first = est_device_seconds < est_host_seconds ? dev : host;
    c.reason = c.first == dev ? "cheaper on gpu" : "cheaper on cpu";
  }
  if (c.first == dev) c.fallback = host;
  return c;
}

ProviderChoice choose_provider(const Kernel& k, const std::vector<Tensor>& inputs,
                               const std::vector<OutputSpec>& outs,
                               const std::vector<bool>& to_host,
                               const std::vector<bool>& to_device, const std::string* text) {
  KernelCost base;
  kernel_work(k, base);
  for (const Tensor& t : inputs) base.bytes_in += bytes_of(t);
  int64_t to_host_bytes = 0, to_device_bytes = 0;
  for (size_t i = 0; i < outs.size(); ++i) {
    const int64_t b = outs[i].dims.numel() * element_size(outs[i].cls);
    base.bytes_out += b;
    if (i < to_host.size() && to_host[i]) to_host_bytes += b;
    if (i < to_device.size() && to_device[i]) to_device_bytes += b;
  }
  ProviderChoice c;
  Provider *host = nullptr, *dev = nullptr;
  std::string declined;
  for (Provider* p : candidates(k, text, &declined)) {
    KernelCost pc = base;
    for (const Tensor& t : inputs)
      if (!p->resident(t)) pc.bytes_to_bind += bytes_of(t);
    pc.bytes_to_host = p->host_memory() ? 0 : to_host_bytes;
    pc.bytes_to_device = p->host_memory() ? to_device_bytes : 0;
    const double s = p->estimate_seconds(pc);
    if (p->host_memory() && (!host || s < c.est_host_seconds)) {
      host = p;
      c.est_host_seconds = s;
    } else if (!p->host_memory() && (!dev || s < c.est_device_seconds)) {
      dev = p;
      c.est_device_seconds = s;
    }
  }
  ProviderChoice r = decide_placement(host, dev, c.est_host_seconds, c.est_device_seconds);
  if (!dev && !declined.empty() && device_mode() != DeviceMode::Cpu) r.reason = declined;
  return r;
}

RunResult launch(Provider& p, const Kernel& kernel, const std::string& text,
                 const std::vector<Tensor>& inputs, const std::vector<OutputSpec>& outs,
                 const std::vector<ParamValue>& params, std::vector<Tensor>& outputs,
                 int64_t* copied_bytes) {
  outputs.clear();
  KernelArgs args;
  int64_t copied = 0;
  for (const Tensor& t : inputs) {
    int64_t b = 0;
    args.inputs.push_back(p.bind_input(t, &b));
    copied += b;
  }
  if (copied_bytes) *copied_bytes = copied;
  for (const OutputSpec& o : outs) {
    if (o.share >= 0) {
      outputs.push_back(outputs[o.share]);
      args.outputs.push_back(args.outputs[o.share]);
      continue;
    }
    void* address = nullptr;
    outputs.push_back(p.new_output(o.cls, o.dims, &address, o.complex));
    args.outputs.push_back(address);
  }
  args.params = params;
  args.text = &text;
  p.set_timing(g_timing.load());
  p.set_defer_faults(t_defer_faults);
  return p.run(kernel, args);
}

void set_device_timing(bool on) { g_timing = on; }

DeferredFaults::DeferredFaults(bool enable) : prev_(t_defer_faults) {
  if (!enable || device_mode() == DeviceMode::Cpu) return;
  for (Provider* p : usable_providers())
    if (!p->host_memory()) marks_.emplace_back(p, p->deferred_fault_mark());
  if (marks_.empty()) return;
  enabled_ = true;
  t_defer_faults = true;
}

DeferredFaults::~DeferredFaults() {
  if (!enabled_) return;
  t_defer_faults = prev_;
  for (auto& [p, mark] : marks_) {
    try {
      p->take_deferred_faults(mark);  // releases the flags (an error here is moot)
    } catch (const MatlabError&) {
    }
  }
}

std::string DeferredFaults::check() {
  if (!enabled_) return "";
  enabled_ = false;
  t_defer_faults = prev_;
  std::string first;
  for (auto& [p, mark] : marks_) {
    const std::string f = p->take_deferred_faults(mark);
    if (first.empty()) first = f;
  }
  return first;
}

bool device_available() { return device_mode() != DeviceMode::Cpu && device_provider(); }

}  // namespace matfuse::accel
