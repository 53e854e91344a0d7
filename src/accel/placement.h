// Placement: host or device for each fusion group, by estimated time (DESIGN.md decision 13).
//
// Model (seconds), from the calibration profile (measured by `matfuse calibrate`, or defaults):
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

#include "accel/kernel_ir.h"

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

struct GroupCost {
  int64_t bytes_in = 0;        ///< materialised inputs read
  int64_t bytes_out = 0;       ///< outputs written
  int64_t upload_bytes = 0;    ///< inputs that have no device copy
  int64_t gather_bytes = 0;    ///< inputs that have no host copy
  int64_t download_bytes = 0;  ///< outputs a host sink reads right away
  double flops = 0;
  double ops = 0;              ///< weighted SSA ops x points
  int launches = 1;
};

struct Placement {
  bool device = false;
  double host_seconds = 0, device_seconds = 0;
  std::string reason;  ///< "cheaper on gpu", "forced by MATFUSE_DEVICE=cpu", "no gpu: ..."
};

/// Work measures of kernel k (ops, flops, launches); the byte fields are the caller's.
void kernel_work(const Kernel& k, GroupCost& c);
/// Chooses host or device for a group with costs c; device_ok false when no device provider
/// can run it (the reason is then `why_not`).
Placement place(const GroupCost& c, bool device_ok, const std::string& why_not);

}  // namespace matfuse::accel
