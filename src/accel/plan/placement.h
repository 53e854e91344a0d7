// Placement inputs (DESIGN.md decision 14): the calibration profile, the device mode, and the
// work measures of a kernel. Each provider prices a launch with them
// (Provider::estimate_seconds); device_dispatch.h compares the estimates.
//
// Model of the shipped providers (seconds), from the calibration profile (measured by
// `matfuse calibrate`, or defaults):
//   host   = bytes_touched / host_bandwidth + flops / host_flops + ops*elements / host_op_rate
//            + gather of device-only inputs (bytes / download_bandwidth)
//   device = launches * launch_latency + bytes_touched / device_bandwidth + flops / device_flops
//            + upload of host-only inputs (bytes / upload_bandwidth)
//            + download of outputs a host sink will read now (bytes / download_bandwidth)
// where bytes_touched = bytes of materialised inputs read + bytes written, ops = SSA
// instructions of the kernel body (transcendental ops weigh 8), flops = 2mnk for matrix
// products. The cheaper side wins; MATFUSE_DEVICE=cpu|gpu (or --device) forces a side.
#pragma once

#include <cstdint>
#include <string>

#include "accel/emit/kernel_ir.h"
#include "accel/run/provider.h"

namespace matfuse::accel {

/// Throughputs of this machine (units in the names).
struct Calibration {
  // Defaults: host figures of a small 2-core machine, device figures measured by `matfuse
  // calibrate` on an H200 (launch_us includes planning and lowering of one group).
  double host_bandwidth_gbs = 10;       ///< host memory, GB/s (all cores)
  double host_op_rate_gops = 8;         ///< simple kernel ops per second, G/s (all cores)
  double host_gemm_gflops = 60;         ///< OpenBLAS sgemm/dgemm
  double upload_gbs = 6.5;              ///< host -> device, pageable, GB/s
  double download_gbs = 14;             ///< device -> host, GB/s
  double launch_us = 50;                ///< one group on the device, microseconds
  double device_bandwidth_gbs = 3300;   ///< device memory, GB/s
  double device_op_rate_gops = 11700;   ///< simple kernel ops per second, G/s
  double device_gemm_gflops = 49000;    ///< cuBLAS fp32/fp64, GFLOP/s
  /// A host group reading device-only data first waits for every queued device launch (a host
  /// synchronisation), and device consumers of its result upload it again: microseconds added
  /// to a host estimate that gathers (a model constant, not measured by `calibrate`; without
  /// it a norm of a device vector went to the host at every step of a power iteration).
  double host_sync_us = 150;
  bool measured = false;                ///< loaded from a calibration file
  std::string source;                   ///< file read, or "defaults"
};

/// The profile in use: $MATFUSE_CALIBRATION, else calibration.txt beside the kernel cache
/// (`$XDG_CACHE_HOME/matfuse/calibration.txt`), else defaults.
const Calibration& calibration();
/// Path the profile is read from / written to.
std::string calibration_path();
/// Writes c as `key = value` lines; false when the file cannot be written.
bool save_calibration(const Calibration& c, const std::string& path);

enum class DeviceMode : uint8_t { Auto, Cpu, Gpu };
/// MATFUSE_DEVICE (auto when unset); set_device_mode overrides (the CLI's --device).
DeviceMode device_mode();
void set_device_mode(DeviceMode m);

/// Work measures of kernel k (ops, flops, launches) into c; the byte fields are the caller's.
void kernel_work(const Kernel& k, KernelCost& c);

}  // namespace matfuse::accel
