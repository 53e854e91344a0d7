// Placement cost model and calibration profile (see placement.h).
#include "accel/plan/placement.h"

#include "runtime/atomic_file.h"
#include "runtime/error.h"
#include "runtime/options.h"

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

namespace matfuse::accel {
namespace {

std::atomic<int> g_mode{-1};

struct Field {
  const char* key;
  double Calibration::*member;
};
constexpr Field kFields[] = {
    {"host_bandwidth_gbs", &Calibration::host_bandwidth_gbs},
    {"host_op_rate_gops", &Calibration::host_op_rate_gops},
    {"host_gemm_gflops", &Calibration::host_gemm_gflops},
    {"upload_gbs", &Calibration::upload_gbs},
    {"download_gbs", &Calibration::download_gbs},
    {"launch_us", &Calibration::launch_us},
    {"device_bandwidth_gbs", &Calibration::device_bandwidth_gbs},
    {"device_op_rate_gops", &Calibration::device_op_rate_gops},
    {"device_gemm_gflops", &Calibration::device_gemm_gflops},
    {"host_sync_us", &Calibration::host_sync_us},
};

Calibration load() {
  Calibration c;
  c.source = "defaults";
  const std::string path = calibration_path();
  std::ifstream f(path);
  if (!f) return c;
  std::string line;
  int found = 0;
  while (std::getline(f, line)) {
    const size_t eq = line.find('=');
    if (line.empty() || line[0] == '#' || eq == std::string::npos) continue;
    std::string key = line.substr(0, eq);
    while (!key.empty() && key.back() == ' ') key.pop_back();
    const double v = std::strtod(line.c_str() + eq + 1, nullptr);
    for (const Field& fl : kFields)
      if (key == fl.key && v > 0) {
        c.*fl.member = v;
        ++found;
      }
  }
  if (found) {
    c.measured = true;
    c.source = path;
  }
  return c;
}

/// Relative cost of one SSA instruction (an op's cost column in ops.def: transcendental
/// functions cost several simple ops).
double op_weight(const Instr& in) {
  switch (in.kind) {
    case IKind::Op: return op_cost(in.op);
    case IKind::Rng: return 24;
    case IKind::Load: case IKind::Const: case IKind::Param: return 0.25;
    default: return 1;
  }
}

}  // namespace

std::string calibration_path() {
  if (!options().calibration.empty()) return options().calibration;
  if (const char* x = std::getenv("XDG_CACHE_HOME"); x && *x)
    return std::string(x) + "/matfuse/calibration.txt";
  if (const char* h = std::getenv("HOME"); h && *h)
    return std::string(h) + "/.cache/matfuse/calibration.txt";
  return "";
}

const Calibration& calibration() {
  static const Calibration c = load();
  return c;
}

bool save_calibration(const Calibration& c, const std::string& path) {
  if (path.empty()) return false;
  std::error_code ec;
  std::filesystem::create_directories(std::filesystem::path(path).parent_path(), ec);
  std::ostringstream f;
  f << "# matfuse calibration profile (matfuse calibrate)\n";
  for (const Field& fl : kFields) f << fl.key << " = " << c.*fl.member << "\n";
  try {
    write_file_atomic(path, f.str());  // a failed write keeps the previous profile
  } catch (const MatlabError&) {
    return false;
  }
  return true;
}

DeviceMode device_mode() {
  int m = g_mode.load();
  if (m < 0) {
    const DeviceOption d = options().device;
    m = d == DeviceOption::Cpu   ? int(DeviceMode::Cpu)
        : d == DeviceOption::Auto ? int(DeviceMode::Auto)
                                  : int(DeviceMode::Gpu);
    g_mode.store(m);
  }
  return static_cast<DeviceMode>(m);
}

void set_device_mode(DeviceMode m) { g_mode.store(static_cast<int>(m)); }

void kernel_work(const Kernel& k, KernelCost& c) {
  const double pts = static_cast<double>(k.space.numel());
  double w = 0;
  for (const Instr& in : k.body) w += in.uniform ? 0 : op_weight(in);
  c.ops = w * pts;
  if (!k.epilogue.empty()) {
    double we = 0;
    for (const Instr& in : k.epilogue) we += in.uniform ? 0 : op_weight(in);
    c.ops += we * static_cast<double>(k.out_space.numel());
  }
  c.launches = 1;
  if (k.fusion_kind == FusionKind::Reduction) c.launches = 2;
  if (k.matmul) {
    c.flops = 2.0 * static_cast<double>(k.matmul->m) * static_cast<double>(k.matmul->n) *
              static_cast<double>(k.matmul->k);
    c.launches = 2;
  }
}

}  // namespace matfuse::accel
