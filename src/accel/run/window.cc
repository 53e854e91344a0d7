// Placement of moving-window statistics (see window.h).
#include "accel/run/window.h"

#include <algorithm>
#include <chrono>
#include <string>

#include "accel/capture/lazy.h"
#include "accel/plan/placement.h"
#include "accel/run/telemetry.h"
#include "accel/run/provider.h"
#include "runtime/error.h"

namespace matfuse::accel {

std::optional<Tensor> moving_window(WindowKind kind, const Tensor& x0, int dim, int64_t kb,
                                    int64_t kf, int w) {
  const DeviceMode mode = device_mode();
  if (mode == DeviceMode::Cpu) return std::nullopt;
  Provider* dev = nullptr;
  for (Provider* p : usable_providers())
    if (!p->host_memory() && p->supports(LibraryCall::Window)) dev = p;
  if (!dev) return std::nullopt;
  const ClassId cls = x0.cls();
  if ((cls != ClassId::Double && cls != ClassId::Single) || x0.numel() == 0) return std::nullopt;
  Tensor x = x0;
  if (x.is_lazy()) {
    SinkScope scope(SinkReason::Explicit);  // an intermediate: may stay on the device
    x.force();
  }
  if (x.is_complex()) return std::nullopt;
  const Dims& d = x.dims();
  const int64_t n = d[dim];
  int64_t stride = 1, outer = 1;
  for (int k = 0; k < dim; ++k) stride *= d[k];
  for (int k = dim + 1; k < d.ndims(); ++k) outer *= d[k];
  kb = std::min(kb, n);
  kf = std::min(kf, n);
  // Work per output: a few sliding-sum updates; max/min scan the window.
  const bool scan = kind == WindowKind::Max || kind == WindowKind::Min;
  const double per = scan ? static_cast<double>(kb + kf + 1) : 8.0;
  KernelCost c;
  c.bytes_in = x.numel() * x.elem_bytes();
  c.bytes_out = c.bytes_in;
  c.ops = per * static_cast<double>(x.numel());
  KernelCost cd = c;
  if (!dev->resident(x)) cd.bytes_to_bind = c.bytes_in;
  const double est_dev = dev->estimate_seconds(cd);
  double est_host = 0;
  if (Provider* h = host_memory_provider()) {
    KernelCost ch = c;
    if (!h->resident(x)) ch.bytes_to_bind = c.bytes_in;
    est_host = h->estimate_seconds(ch);
  }
  if (mode != DeviceMode::Gpu && est_host > 0 && !(est_dev < est_host)) return std::nullopt;

  GroupRecord gr;
  gr.fusion_kind = "window";
  gr.start = telemetry_clock();
  gr.elements = x.numel();
  gr.bytes_read = c.bytes_in;
  gr.bytes_written = c.bytes_out;
  gr.placement = mode == DeviceMode::Gpu ? "forced gpu (MATFUSE_DEVICE / --device)"
                                         : "cheaper on gpu";
  gr.est_host_seconds = est_host;
  gr.est_device_seconds = est_dev;
  const auto t0 = std::chrono::steady_clock::now();
  WindowCall wc;
  wc.kind = static_cast<WindowCall::Kind>(kind);
  wc.f32 = cls == ClassId::Single;
  wc.kb = kb;
  wc.kf = kf;
  wc.w = w;
  wc.n = n;
  wc.stride = stride;
  wc.outer = outer;
  Tensor y;
  try {
    int64_t copied = 0;
    wc.in = dev->bind_input(x, &copied);
    void* address = nullptr;
    y = dev->new_output(cls, d, &address);
    wc.out = address;
    dev->window(wc);
    gr.upload_bytes = copied;
  } catch (const MatlabError&) {
    return std::nullopt;  // the device could not run it (memory, compiler): the host does
  }
  gr.provider = std::string(dev->name());
  gr.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  EvaluationRecord rec;
  rec.reason = SinkReason::HostBuiltin;
  rec.start = gr.start;
  rec.groups.push_back(std::move(gr));
  telemetry().record(std::move(rec));
  return y;
}

}  // namespace matfuse::accel
