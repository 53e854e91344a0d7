// Run-time options: every MATFUSE_* environment variable and every command-line switch of the
// matfuse executable, in one structure, read and validated in one place (options.cc).
//
// Contract:
// - options() is the process-wide structure. On first use it is filled from the environment
//   (option_specs() lists each variable with its accepted values); the CLI then overwrites the
//   fields its switches name (a switch wins over its variable) before any script runs.
// - An empty variable counts as unset. An invalid value is an error naming the variable and the
//   accepted values: MatlabError "matfuse:invalidOption", e.g.
//   "MATFUSE_DEVICE must be auto, cpu or gpu (got 'tpu')." The CLI reports it and exits with
//   status 2.
// - Nothing else in src/ reads a MATFUSE_* variable; the README's table of options lists each
//   entry of option_specs() (a unit test checks both).
// - Fields are plain values (no accel or provider types): the layers above map them to their own
//   enums (accel::DeviceMode, accel::MathMode).
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace matfuse {

/// Where fused kernels run (MATFUSE_DEVICE, --device): Auto costs each group; Cpu keeps every
/// group on the host; Gpu forces groups to the device provider (CUDA, else Vulkan); Cuda and
/// Vulkan force them to that provider only.
enum class DeviceOption : uint8_t { Auto, Cpu, Gpu, Cuda, Vulkan };
/// Math mode of generated kernels (MATFUSE_MATH, --math): docs/math-modes.md.
enum class MathOption : uint8_t { Exact, Fast };

struct Options {
  // ---- capture (accel/capture)
  bool lazy = true;              ///< MATFUSE_LAZY: capture array operations in the graph
  int64_t lazy_min = 32768;      ///< MATFUSE_LAZY_MIN: fewest elements of a captured result
  int lazy_nodes = 128;          ///< MATFUSE_LAZY_NODES: computed nodes of one pending graph
  int lazy_depth = 64;           ///< MATFUSE_LAZY_DEPTH: longest path of one pending graph
  bool loop_replay = true;       ///< MATFUSE_LOOP_REPLAY: replay fused loop chunks
  // ---- plan (accel/plan)
  bool debug_fusion = false;     ///< MATFUSE_DEBUG_FUSION: print every fusion rejection
  std::vector<std::string> dump_after;  ///< MATFUSE_DUMP=after:PASS[,after:PASS]: pass names
  bool plan_reference = false;   ///< MATFUSE_PLAN_REFERENCE: the quadratic reference planner
  bool verify_plans = false;     ///< MATFUSE_VERIFY_PLANS: run the plan verifier after each pass
  std::string calibration;       ///< MATFUSE_CALIBRATION: calibration profile path ("" default)
  // ---- run (accel/run, providers)
  DeviceOption device = DeviceOption::Auto;  ///< MATFUSE_DEVICE, --device
  MathOption math = MathOption::Exact;       ///< MATFUSE_MATH, --math
  bool dump_kernels = false;     ///< MATFUSE_DUMP_KERNELS: print every generated kernel
  int threads = 0;               ///< MATFUSE_THREADS: host worker threads (0: one per core)
  int cuda_device = 0;           ///< MATFUSE_CUDA_DEVICE: CUDA device ordinal
  int vulkan_device = -1;        ///< MATFUSE_VULKAN_DEVICE: Vulkan device index (-1: choose)
  std::string kernel_cache;      ///< MATFUSE_KERNEL_CACHE: kernel cache folder ("" default)
  bool allow_tf32 = false;       ///< MATFUSE_ALLOW_TF32: cuBLAS may use TF32 tensor cores
  double max_array_bytes = 0;    ///< MATFUSE_MAX_ARRAY_BYTES: largest array (0: physical memory)
  // ---- command line (src/cli)
  std::string history;           ///< MATFUSE_HISTORY: prompt history file ("" default)
  std::string figures_dir;       ///< MATFUSE_FIGURES, --figures: write open figures at the end
  std::string script;            ///< script.m
  std::vector<std::string> code; ///< -e CODE (repeatable)
  bool interactive = false;      ///< -i
  bool profile = false;          ///< --profile
  std::string graph_file;        ///< --graph FILE
  std::string trace_file;        ///< --trace FILE
  bool install_kernel = false;   ///< --install-kernel
  std::string kernel_prefix;     ///< --prefix DIR (with --install-kernel)
  std::string kernel_connection; ///< --jupyter-kernel -f FILE
};

/// One environment variable: its name, the accepted values (as the error message and the README
/// say them), what it does, the switch that sets the same field ("" if none), and its parser
/// (throws matfuse:invalidOption naming the variable and the accepted values).
struct OptionSpec {
  const char* env;
  const char* accepted;
  const char* meaning;
  const char* cli;
  void (*parse)(Options& o, std::string_view name, std::string_view value);
};

/// Every MATFUSE_* variable, in the README's order.
std::span<const OptionSpec> option_specs();

/// Options from an environment (lookup returns nullopt for an unset variable); throws
/// matfuse:invalidOption for the first invalid value.
Options options_from(const std::function<std::optional<std::string>(const char*)>& lookup);

/// The process-wide options (the environment's on first use; throws like options_from).
const Options& options();
/// The same structure for writing: the CLI (its switches) and tests only, before work starts.
Options& mutable_options();

/// --device / MATFUSE_DEVICE and --math / MATFUSE_MATH values; nullopt when invalid.
std::optional<DeviceOption> parse_device_option(std::string_view s);
std::optional<MathOption> parse_math_option(std::string_view s);

}  // namespace matfuse
