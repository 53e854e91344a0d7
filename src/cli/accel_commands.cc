// `matfuse calibrate` and `matfuse accel-info` (DESIGN.md decision 13).
//
// calibrate measures this machine with the acceleration layer itself (the same kernels scripts
// run, through accel::evaluate with the placement forced to each side) and writes the profile
// the placement cost model reads (accel/plan/placement.h):
//   host:   memory bandwidth (memcpy), simple-op rate (a fused multiply-add chain), sgemm rate;
//   device: upload and download bandwidth, per-group launch overhead (a 1024-element kernel),
//           memory bandwidth (a resident elementwise kernel), op rate, sgemm rate (cuBLAS).
#include "cli/accel_commands.h"

#include <cblas.h>

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <cstring>
#include <functional>
#include <iostream>
#include <vector>

#include "accel/run/dispatch.h"
#include "accel/run/evaluate.h"
#include "accel/emit/fast_math.h"
#include "accel/capture/graph.h"
#include "accel/plan/placement.h"
#include "providers/cuda/cuda_compile.h"
#include "providers/cuda/cuda_provider.h"
#ifdef MATFUSE_HAVE_VULKAN
#include "providers/vulkan/vulkan_provider.h"
#endif
#include "runtime/error.h"

namespace matfuse::cli {
namespace {

using accel::NodeRef;

double now() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

/// Best of `reps` timings of f (seconds).
double best_of(int reps, const std::function<void()>& f) {
  double best = 1e30;
  for (int r = 0; r < reps; ++r) {
    const double t0 = now();
    f();
    best = std::min(best, now() - t0);
  }
  return best;
}

Tensor filled(int64_t n, ClassId cls, double v) {
  Tensor t = Tensor::uninit(cls, Dims(n, 1));
  float* p = t.mutable_data<float>();
  for (int64_t i = 0; i < n; ++i) p[i] = static_cast<float>(v + 1e-7 * static_cast<double>(i % 97));
  return t;
}

/// x*a+b repeated `depth` times: 2*depth simple ops per element.
NodeRef fma_chain(const NodeRef& x, int depth) {
  NodeRef y = x;
  for (int d = 0; d < depth; ++d)
    y = accel::binary(OpId::Add,
                      accel::binary(OpId::Mul, y, accel::constant(0.999, ClassId::Single)),
                      accel::constant(0.001, ClassId::Single));
  return y;
}

/// Evaluates root and waits until the result is usable on the host side of the timing (the
/// device result is synchronised, not downloaded).
void run_group(const NodeRef& root) {
  Tensor t = accel::evaluate(root);
  if (Provider* d = device_provider()) d->synchronize();
  (void)t;
}

}  // namespace

int calibrate() {
  accel::Calibration c;
  const int64_t n = int64_t(1) << 24;  // 16M singles, 64 MB
  std::cout << "matfuse calibrate: measuring host" << std::endl;
  {
    std::vector<char> a(size_t(n) * 4, 1), b(size_t(n) * 4);
    const double t = best_of(5, [&] { std::memcpy(b.data(), a.data(), a.size()); });
    c.host_bandwidth_gbs = 2.0 * static_cast<double>(a.size()) / t / 1e9;
  }
  accel::set_device_mode(accel::DeviceMode::Cpu);
  {
    const NodeRef x = accel::input(filled(n, ClassId::Single, 0.5));
    const int depth = 16;
    const double t = best_of(3, [&] { run_group(fma_chain(x, depth)); });
    const double bytes = 8.0 * static_cast<double>(n);
    const double compute = t - bytes / (c.host_bandwidth_gbs * 1e9);
    c.host_op_rate_gops = 2.0 * depth * static_cast<double>(n) / std::max(compute, t * 0.1) / 1e9;
  }
  {
    const int m = 1024;
    std::vector<float> A(size_t(m) * m, 0.5f), B(size_t(m) * m, 0.25f), C(size_t(m) * m);
    const double t = best_of(3, [&] {
      cblas_sgemm(CblasColMajor, CblasNoTrans, CblasNoTrans, m, m, m, 1.0f, A.data(), m, B.data(),
                  m, 0.0f, C.data(), m);
    });
    c.host_gemm_gflops = 2.0 * m * m * static_cast<double>(m) / t / 1e9;
  }
  cuda::CudaProvider* cp = cuda::cuda_provider();
  if (!cp) {
    std::cout << "no GPU (" << cuda::Device::unavailable_reason()
              << "): device figures keep their defaults" << std::endl;
  } else {
    std::cout << "matfuse calibrate: measuring " << cp->device().info().name << std::endl;
    cuda::Device& dev = cp->device();
    accel::set_device_mode(accel::DeviceMode::Gpu);
    {
      Tensor h = filled(n, ClassId::Single, 1.0);
      auto buf = dev.allocate(size_t(n) * 4);
      const auto p = reinterpret_cast<cuda::CUdeviceptr>(buf->device_ptr());
      const double up = best_of(3, [&] {
        dev.upload(p, h.raw(), size_t(n) * 4);
        dev.synchronize();
      });
      const double down = best_of(3, [&] { dev.download(h.mutable_raw(), p, size_t(n) * 4); });
      c.upload_gbs = 4.0 * static_cast<double>(n) / up / 1e9;
      c.download_gbs = 4.0 * static_cast<double>(n) / down / 1e9;
    }
    {
      const NodeRef x = accel::input(filled(1024, ClassId::Single, 0.5));
      run_group(fma_chain(x, 1));  // compile once
      const int reps = 200;
      const double t = best_of(3, [&] {
        for (int r = 0; r < reps; ++r) run_group(fma_chain(x, 1));
      });
      c.launch_us = t / reps * 1e6;
    }
    {
      const int64_t big = int64_t(1) << 27;  // 128M singles, 512 MB
      const NodeRef x = accel::input(filled(big, ClassId::Single, 0.5));
      run_group(fma_chain(x, 1));  // upload + compile
      const double t = best_of(5, [&] { run_group(fma_chain(x, 1)); });
      c.device_bandwidth_gbs = 8.0 * static_cast<double>(big) / t / 1e9;
      const int depth = 64;
      run_group(fma_chain(x, depth));
      const double tc = best_of(3, [&] { run_group(fma_chain(x, depth)); });
      c.device_op_rate_gops = 2.0 * depth * static_cast<double>(big) / tc / 1e9;
    }
    {
      const int64_t m = 4096;
      Tensor A = filled(m * m, ClassId::Single, 0.5).reshaped(Dims(m, m));
      const NodeRef a = accel::input(A);
      run_group(accel::matmul(a, a));
      const double t = best_of(3, [&] { run_group(accel::matmul(a, a)); });
      c.device_gemm_gflops = 2.0 * static_cast<double>(m * m) * static_cast<double>(m) / t / 1e9;
    }
  }
  accel::set_device_mode(accel::DeviceMode::Auto);
  const std::string path = accel::calibration_path();
  const bool saved = accel::save_calibration(c, path);
  std::printf("host:   bandwidth %.1f GB/s, ops %.2f G/s, sgemm %.1f GFLOP/s\n",
              c.host_bandwidth_gbs, c.host_op_rate_gops, c.host_gemm_gflops);
  std::printf("device: upload %.1f GB/s, download %.1f GB/s, launch %.1f us, bandwidth %.0f GB/s,"
              " ops %.0f G/s, sgemm %.0f GFLOP/s\n",
              c.upload_gbs, c.download_gbs, c.launch_us, c.device_bandwidth_gbs,
              c.device_op_rate_gops, c.device_gemm_gflops);
  std::printf("%s %s\n", saved ? "profile written to" : "could not write", path.c_str());
  return saved ? 0 : 1;
}

int accel_info() {
  const accel::Calibration& c = accel::calibration();
  if (cuda::CudaProvider* cp = cuda::cuda_provider()) {
    cuda::Device& dev = cp->device();
    const cuda::DeviceInfo& i = dev.info();
    const auto [free_b, total_b] = dev.memory_info();
    std::printf("device: %s (compute capability %d.%d, %d SMs, %.1f GB, %.1f GB free)\n",
                i.name.c_str(), i.cc_major, i.cc_minor, i.sm_count, total_b / 1e9, free_b / 1e9);
    std::printf("driver: CUDA %d.%d; NVRTC %d.%d%s; cuBLAS %s\n", i.driver_version / 1000,
                (i.driver_version % 1000) / 10, i.nvrtc_major, i.nvrtc_minor,
                cuda::have_nvrtc() ? "" : " (missing)", cuda::have_cublas() ? "yes" : "missing");
  } else {
    std::printf("device: no CUDA device (%s)\n", cuda::Device::unavailable_reason().c_str());
  }
#ifdef MATFUSE_HAVE_VULKAN
  if (vk::Device* vd = vk::Device::get()) {
    const vk::DeviceInfo& i = vd->info();
    const vk::Caps& caps = vk::vulkan_provider()->caps();
    const bool used = find_provider("vulkan") != nullptr;
    std::printf("vulkan: %s (driver %s, Vulkan %u.%u, %.1f GB)%s\n", i.name.c_str(),
                i.driver.c_str(), i.api_version >> 22, (i.api_version >> 12) & 0x3ff,
                i.device_memory / 1e9,
                used ? "" : i.cpu ? "; not used unless --device vulkan (a CPU implementation)"
                                  : "; not used (the CUDA provider is)");
    std::printf("  double %s, 8-bit %s, 16-bit %s; correctly rounded division %s/%s and sqrt "
                "%s/%s, fused fma %s/%s (single/double, probed); round-to-nearest conversions "
                "%s\n",
                caps.float64 ? "yes" : "no", caps.storage8 ? "yes" : "no",
                caps.storage16 ? "yes" : "no", caps.div32 ? "yes" : "no",
                caps.div64 ? "yes" : "no", caps.sqrt32 ? "yes" : "no", caps.sqrt64 ? "yes" : "no",
                caps.fma32 ? "yes" : "no", caps.fma64 ? "yes" : "no", caps.cvt ? "yes" : "no");
  } else {
    std::printf("vulkan: none (%s)\n", vk::Device::unavailable_reason().c_str());
  }
#endif
  if (!device_provider()) std::printf("every group runs on the host provider\n");
  std::printf("math mode: %s\n", std::string(accel::math_mode_name(accel::math_mode())).c_str());
  std::printf("calibration: %s\n", c.source.c_str());
  std::printf("  host:   bandwidth %.1f GB/s, ops %.2f G/s, gemm %.1f GFLOP/s\n",
              c.host_bandwidth_gbs, c.host_op_rate_gops, c.host_gemm_gflops);
  std::printf("  device: upload %.1f GB/s, download %.1f GB/s, launch %.1f us, bandwidth %.0f "
              "GB/s, ops %.0f G/s, gemm %.0f GFLOP/s\n",
              c.upload_gbs, c.download_gbs, c.launch_us, c.device_bandwidth_gbs,
              c.device_op_rate_gops, c.device_gemm_gflops);
  const std::string dir = cuda::cache_dir();
  size_t files = 0, bytes = 0;
  std::error_code ec;
  if (!dir.empty())
    for (const auto& e : std::filesystem::directory_iterator(dir, ec))
      if (e.path().extension() == ".cubin" || e.path().extension() == ".spv") {
        ++files;
        bytes += e.file_size(ec);
      }
  std::printf("kernel cache: %s (%zu kernels, %.1f KB)\n", dir.empty() ? "(disabled)" : dir.c_str(),
              files, bytes / 1e3);
  return 0;
}

std::string device_summary() {
  const cuda::CacheStats cs = cuda::cache_stats();
  std::string s;
  if (cs.compiles + cs.disk_hits + cs.memory_hits == 0) return s;
  char buf[400];
  std::snprintf(buf, sizeof buf,
                "gpu kernels: %lld compiled (%.1f ms in NVRTC), %lld loaded from the disk cache, "
                "%lld memory-cache hits\n",
                static_cast<long long>(cs.compiles), cs.compile_seconds * 1e3,
                static_cast<long long>(cs.disk_hits), static_cast<long long>(cs.memory_hits));
  s += buf;
  if (cuda::Device* d = cuda::Device::get()) {
    const cuda::TransferStats& t = d->stats();
    std::snprintf(buf, sizeof buf,
                  "transfers: %lld uploads (%.3f MB, %.3f ms), %lld gathers (%.3f MB, %.3f ms), "
                  "%lld fault-flag checks, %lld size reads\n",
                  static_cast<long long>(t.uploads), t.upload_bytes / 1e6, t.upload_seconds * 1e3,
                  static_cast<long long>(t.downloads), t.download_bytes / 1e6,
                  t.download_seconds * 1e3, static_cast<long long>(t.fault_checks),
                  static_cast<long long>(t.size_reads));
    s += buf;
  }
  return s;
}

}  // namespace matfuse::cli
