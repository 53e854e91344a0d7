// FFT placement and the conjugate-symmetry test (see fft.h).
#include "accel/run/fft.h"

#include <chrono>
#include <cmath>
#include <complex>
#include <string>
#include <vector>

#include "accel/capture/lazy.h"
#include "accel/plan/placement.h"
#include "accel/run/dispatch.h"
#include "accel/run/evaluate.h"
#include "accel/run/telemetry.h"
#include "accel/run/provider.h"
#include "runtime/error.h"

namespace matfuse::accel {
namespace {

void lane_layout(const Dims& d, int dim, int64_t& n, int64_t& stride, int64_t& outer) {
  n = d[dim];
  stride = 1;
  outer = 1;
  for (int k = 0; k < dim; ++k) stride *= d[k];
  for (int k = dim + 1; k < d.ndims(); ++k) outer *= d[k];
}

FftCall::Kind call_kind(FftKind k) {
  switch (k) {
    case FftKind::Forward: return FftCall::Kind::Forward;
    case FftKind::Inverse: return FftCall::Kind::Inverse;
    case FftKind::RealForward: return FftCall::Kind::RealForward;
    case FftKind::SymmetricInverse: return FftCall::Kind::SymmetricInverse;
  }
  return FftCall::Kind::Forward;
}

/// The providers' estimates of the call, as choose_provider() prices a kernel.
ProviderChoice choose(const Tensor& x, int64_t bytes_out, double ops) {
  const DeviceMode m = device_mode();
  KernelCost base;
  base.bytes_in = x.numel() * x.elem_bytes();
  base.bytes_out = bytes_out;
  base.ops = ops;
  double est_host = 0, est_device = 0;
  Provider *host = nullptr, *dev = nullptr;
  for (Provider* p : usable_providers()) {
    if (!p->supports(LibraryCall::Fft) || (!p->host_memory() && m == DeviceMode::Cpu)) continue;
    KernelCost pc = base;
    if (!p->resident(x)) pc.bytes_to_bind = base.bytes_in;
    const double s = p->estimate_seconds(pc);
    if (p->host_memory() && (!host || s < est_host)) {
      host = p;
      est_host = s;
    } else if (!p->host_memory() && (!dev || s < est_device)) {
      dev = p;
      est_device = s;
    }
  }
  return decide_placement(host, dev, est_host, est_device);
}

bool host_conj_symmetric(const Tensor& x, int dim) {
  int64_t n, stride, outer;
  lane_layout(x.dims(), dim, n, stride, outer);
  auto check = [&](auto tag) {
    using R = decltype(tag);
    const std::complex<R>* p = x.data<std::complex<R>>();
    for (int64_t q = 0; q < outer; ++q)
      for (int64_t k = 0; k < n; ++k) {
        const std::complex<R>* a = p + (q * n + k) * stride;
        const std::complex<R>* b = p + (q * n + (n - k) % n) * stride;
        for (int64_t i = 0; i < stride; ++i)
          if (a[i] != std::conj(b[i])) return false;
      }
    return true;
  };
  return x.cls() == ClassId::Single ? check(float{}) : check(double{});
}

/// all(x(k) == conj(x(mod(n-k, n)))) as one fused graph over slices of x along dim (the
/// second half reversed by a step of -1), reading each element once.
}  // namespace

bool fft_conj_symmetric_graph(const Tensor& x, int dim) {
  const Dims& d = x.dims();
  const int nd = d.ndims();
  const int64_t n = d[dim];
  const NodeRef xi = input(x);
  std::vector<int> all;
  for (int k = 0; k < nd; ++k) all.push_back(k);
  auto part = [&](int64_t start, int64_t step, int64_t count) {
    std::vector<NodeRef> starts;
    std::vector<int64_t> steps, counts;
    for (int k = 0; k < nd; ++k) {
      starts.push_back(constant(k == dim ? static_cast<double>(start) : 1.0));
      steps.push_back(k == dim ? step : 1);
      counts.push_back(k == dim ? count : d[k]);
    }
    return slice(xi, starts, steps, counts);
  };
  // Each pair (k, n - k), 0 < k < n/2, once; x(0) and, for even n, x(n/2) must be real.
  auto real_at = [&](int64_t k) {
    return reduce(ReduceKind::All,
                  binary(OpId::Eq, unary(OpId::Imag, part(k + 1, 1, 1)), constant(0, x.cls())),
                  all);
  };
  NodeRef ok = real_at(0);
  if (n % 2 == 0) ok = binary(OpId::And, ok, real_at(n / 2));
  const int64_t m = (n - 1) / 2;
  if (m > 0) {
    const NodeRef pairs = binary(OpId::Eq, part(2, 1, m), unary(OpId::Conj, part(n, -1, m)));
    ok = binary(OpId::And, ok, reduce(ReduceKind::All, pairs, all));
  }
  return evaluate(ok, SinkReason::HostBuiltin).get_double(0) != 0;
}

namespace {

/// x computed: a lazy x is evaluated as an intermediate (not for a host sink), so placement may
/// leave it on a device where the transform can read it.
Tensor computed(const Tensor& x0) {
  Tensor x = x0;
  if (x.is_lazy()) {
    SinkScope scope(SinkReason::Explicit);
    x.force();
  }
  return x;
}

}  // namespace

Tensor fft_lanes(FftKind kind, const Tensor& x0, int dim) {
  const Tensor x = computed(x0);
  const ClassId cls = x.cls();
  MF_ASSERT(cls == ClassId::Double || cls == ClassId::Single, "fft_lanes: class");
  MF_ASSERT(x.is_complex() == (kind != FftKind::RealForward), "fft_lanes: complexity");
  int64_t n, stride, outer;
  lane_layout(x.dims(), dim, n, stride, outer);
  MF_ASSERT(n > 0 && x.numel() > 0, "fft_lanes: empty");
  const bool out_complex = kind != FftKind::SymmetricInverse;
  const int64_t bytes_out = x.numel() * element_size(cls) * (out_complex ? 2 : 1);
  // About 5 n log2(n) real operations per complex lane (radix-2 count), half for real data.
  const double lanes = static_cast<double>(stride * outer);
  double ops = 5.0 * lanes * static_cast<double>(n) * std::log2(std::max<double>(2, n));
  if (kind == FftKind::RealForward || kind == FftKind::SymmetricInverse) ops /= 2;

  GroupRecord gr;
  gr.fusion_kind = "fft";
  gr.start = telemetry_clock();
  gr.elements = x.numel();
  gr.bytes_read = x.numel() * x.elem_bytes();
  gr.bytes_written = bytes_out;
  const auto t0 = std::chrono::steady_clock::now();
  const ProviderChoice c = choose(x, bytes_out, ops);
  if (!c.first)
    throw_error("matfuse:notAvailable", "FFT needs FFTW or a GPU with cuFFT; this build has "
                "neither.");
  gr.placement = c.reason;
  gr.est_host_seconds = c.est_host_seconds;
  gr.est_device_seconds = c.est_device_seconds;
  FftCall f;
  f.kind = call_kind(kind);
  f.f32 = cls == ClassId::Single;
  f.n = n;
  f.stride = stride;
  f.outer = outer;
  Tensor y;
  for (Provider* p : {c.first, c.fallback}) {
    if (!p) continue;
    try {
      int64_t copied = 0;
      f.in = p->bind_input(x, &copied);
      void* address = nullptr;
      y = p->new_output(cls, x.dims(), &address, out_complex);
      f.out = address;
      p->fft(f);
      gr.provider = std::string(p->name());
      if (!p->host_memory()) gr.upload_bytes = copied;
      break;
    } catch (const MatlabError& e) {
      if (p == c.fallback || !c.fallback) throw;
      gr.placement = "gpu failed, host ran it: " + e.message();
    }
  }
  gr.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  EvaluationRecord rec;
  rec.reason = SinkReason::HostBuiltin;
  rec.start = gr.start;
  rec.groups.push_back(std::move(gr));
  telemetry().record(std::move(rec));
  return y;
}

bool fft_conj_symmetric(const Tensor& x0, int dim) {
  const Tensor x = computed(x0);
  if (x.numel() == 0) return true;
  if (x.device_only()) return fft_conj_symmetric_graph(x, dim);
  return host_conj_symmetric(x, dim);
}

}  // namespace matfuse::accel
