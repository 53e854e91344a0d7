// Subcommands of the matfuse executable about the acceleration layer.
#pragma once

#include <string>

namespace matfuse::cli {

/// `matfuse calibrate`: measures host and device throughputs and writes the placement profile
/// (accel/plan/placement.h calibration_path()). Returns the exit status.
int calibrate();
/// `matfuse accel-info`: device, driver, NVRTC/cuBLAS, calibration in use, kernel cache.
int accel_info();
/// Device lines for --profile (kernel compiles and cache hits, transfers); "" when no device
/// work ran.
std::string device_summary();

}  // namespace matfuse::cli
