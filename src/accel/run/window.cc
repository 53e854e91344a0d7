// Placement of moving-window statistics (see window.h).
#include "accel/run/window.h"

#include <algorithm>
#include <chrono>
#include <functional>
#include <string>

#include "accel/capture/lazy.h"
#include "accel/plan/placement.h"
#include "accel/run/telemetry.h"
#include "accel/run/provider.h"
#include "runtime/error.h"

namespace matfuse::accel {

namespace {

/// The device provider serving library call c, or null (CPU mode, none usable).
Provider* lane_device(LibraryCall c) {
  if (device_mode() == DeviceMode::Cpu) return nullptr;
  Provider* dev = nullptr;
  for (Provider* p : usable_providers())
    if (!p->host_memory() && p->supports(c)) dev = p;
  return dev;
}

/// x0 (real double or single, not empty) forced if pending: an intermediate may stay on the
/// device. nullopt for other data.
std::optional<Tensor> lane_input(const Tensor& x0) {
  const ClassId cls = x0.cls();
  if ((cls != ClassId::Double && cls != ClassId::Single) || x0.numel() == 0) return std::nullopt;
  Tensor x = x0;
  if (x.is_lazy()) {
    SinkScope scope(SinkReason::Explicit);
    x.force();
  }
  if (x.is_complex()) return std::nullopt;
  return x;
}

/// (stride, n, outer) of x along 0-based dim.
void lane_layout(const Dims& d, int dim, int64_t& stride, int64_t& n, int64_t& outer) {
  n = d[dim];
  stride = outer = 1;
  for (int k = 0; k < dim; ++k) stride *= d[k];
  for (int k = dim + 1; k < d.ndims(); ++k) outer *= d[k];
}

/// Runs call(in, out) on dev for x with a fresh output of x's class and dims, and records a
/// group of fusion_kind `kind` (--profile); nullopt when the device could not run it (memory,
/// compiler): the host does.
std::optional<Tensor> run_lane_call(Provider* dev, const Tensor& x, const char* kind,
                                    const std::string& placement, double est_host,
                                    double est_dev,
                                    const std::function<void(const void*, void*)>& call) {
  GroupRecord gr;
  gr.fusion_kind = kind;
  gr.start = telemetry_clock();
  gr.elements = x.numel();
  gr.bytes_read = gr.bytes_written = x.numel() * x.elem_bytes();
  gr.placement = placement;
  gr.est_host_seconds = est_host;
  gr.est_device_seconds = est_dev;
  const auto t0 = std::chrono::steady_clock::now();
  Tensor y;
  try {
    int64_t copied = 0;
    const void* in = dev->bind_input(x, &copied);
    void* address = nullptr;
    y = dev->new_output(x.cls(), x.dims(), &address);
    call(in, address);
    gr.upload_bytes = copied;
  } catch (const MatlabError&) {
    return std::nullopt;
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

}  // namespace

std::optional<Tensor> moving_window(WindowKind kind, const Tensor& x0, int dim, int64_t kb,
                                    int64_t kf, int w) {
  Provider* dev = lane_device(LibraryCall::Window);
  if (!dev) return std::nullopt;
  std::optional<Tensor> xo = lane_input(x0);
  if (!xo) return std::nullopt;
  const Tensor& x = *xo;
  int64_t stride, n, outer;
  lane_layout(x.dims(), dim, stride, n, outer);
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
  const DeviceMode mode = device_mode();
  if (mode != DeviceMode::Gpu && est_host > 0 && !(est_dev < est_host)) return std::nullopt;
  WindowCall wc;
  wc.kind = static_cast<WindowCall::Kind>(kind);
  wc.f32 = x.cls() == ClassId::Single;
  wc.kb = kb;
  wc.kf = kf;
  wc.w = w;
  wc.n = n;
  wc.stride = stride;
  wc.outer = outer;
  return run_lane_call(dev, x, "window",
                       mode == DeviceMode::Gpu ? "forced gpu (MATFUSE_DEVICE / --device)"
                                               : "cheaper on gpu",
                       est_host, est_dev, [&](const void* in, void* out) {
                         wc.in = in;
                         wc.out = out;
                         dev->window(wc);
                       });
}

std::optional<Tensor> cumulative_sum(const Tensor& x0, int dim, bool reverse, bool omitnan) {
  Provider* dev = lane_device(LibraryCall::Scan);
  if (!dev) return std::nullopt;
  std::optional<Tensor> xo = lane_input(x0);
  if (!xo || !dev->resident(*xo)) return std::nullopt;
  const Tensor& x = *xo;
  int64_t stride, n, outer;
  lane_layout(x.dims(), dim, stride, n, outer);
  // One thread per lane: enough lanes to occupy the device, or lanes short enough that one
  // thread's pass is quick; otherwise the host's loop (after a gather) is not slower.
  if (stride * outer < kScanMinLanes && n > kScanMaxSerial) return std::nullopt;
  ScanCall sc;
  sc.f32 = x.cls() == ClassId::Single;
  sc.reverse = reverse;
  sc.omitnan = omitnan;
  sc.n = n;
  sc.stride = stride;
  sc.outer = outer;
  return run_lane_call(dev, x, "scan", "device-resident operand", 0, 0,
                       [&](const void* in, void* out) {
                         sc.in = in;
                         sc.out = out;
                         dev->scan(sc);
                       });
}

}  // namespace matfuse::accel
