// Run-time options: the table of MATFUSE_* variables and their parsers (see options.h).
#include "runtime/options.h"

#include <cctype>
#include <cerrno>
#include <cstdlib>
#include <mutex>

#include "runtime/error.h"

namespace matfuse {
namespace {

std::string lower(std::string_view s) {
  std::string l(s);
  for (char& c : l) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return l;
}

[[noreturn]] void invalid(std::string_view name, const char* accepted, std::string_view value) {
  throw_error("matfuse:invalidOption", "%.*s must be %s (got '%.*s').",
              static_cast<int>(name.size()), name.data(), accepted,
              static_cast<int>(value.size()), value.data());
}

constexpr const char* kBool = "0 or 1 (also off/on, false/true, no/yes)";

bool parse_bool(std::string_view name, std::string_view v) {
  const std::string l = lower(v);
  if (l == "1" || l == "on" || l == "true" || l == "yes") return true;
  if (l == "0" || l == "off" || l == "false" || l == "no") return false;
  invalid(name, kBool, v);
}

/// A whole decimal integer in [lo, hi].
int64_t parse_int(std::string_view name, std::string_view v, int64_t lo, int64_t hi,
                  const char* accepted) {
  const std::string s(v);
  char* end = nullptr;
  errno = 0;
  const long long x = std::strtoll(s.c_str(), &end, 10);
  if (end == s.c_str() || *end != '\0' || errno == ERANGE || x < lo || x > hi)
    invalid(name, accepted, v);
  return x;
}

// One parser per field (plain functions: OptionSpec holds a function pointer).
#define MF_BOOL_FIELD(fn, field) \
  void fn(Options& o, std::string_view n, std::string_view v) { o.field = parse_bool(n, v); }
#define MF_TEXT_FIELD(fn, field) \
  void fn(Options& o, std::string_view, std::string_view v) { o.field = std::string(v); }
MF_BOOL_FIELD(p_lazy, lazy)
MF_BOOL_FIELD(p_loop_replay, loop_replay)
MF_BOOL_FIELD(p_debug_fusion, debug_fusion)
MF_BOOL_FIELD(p_plan_reference, plan_reference)
MF_BOOL_FIELD(p_verify_plans, verify_plans)
MF_BOOL_FIELD(p_dump_kernels, dump_kernels)
MF_BOOL_FIELD(p_allow_tf32, allow_tf32)
MF_TEXT_FIELD(p_calibration, calibration)
MF_TEXT_FIELD(p_kernel_cache, kernel_cache)
MF_TEXT_FIELD(p_history, history)
MF_TEXT_FIELD(p_figures, figures_dir)
#undef MF_BOOL_FIELD
#undef MF_TEXT_FIELD

constexpr const char* kLazyMin = "a whole number of elements >= 1";
constexpr const char* kLimit = "a whole number from 4 to 65536";
constexpr const char* kDevice = "auto, cpu, gpu, cuda or vulkan";
constexpr const char* kMath = "exact or fast";
constexpr const char* kDump = "a comma-separated list of after:PASS or after:all";
constexpr const char* kThreads = "a whole number from 1 to 4096";
constexpr const char* kOrdinal = "a device ordinal (a whole number >= 0)";
constexpr const char* kBytes = "a positive number of bytes";

void p_lazy_min(Options& o, std::string_view n, std::string_view v) {
  o.lazy_min = parse_int(n, v, 1, INT64_MAX, kLazyMin);
}
void p_lazy_nodes(Options& o, std::string_view n, std::string_view v) {
  o.lazy_nodes = static_cast<int>(parse_int(n, v, 4, 1 << 16, kLimit));
}
void p_lazy_depth(Options& o, std::string_view n, std::string_view v) {
  o.lazy_depth = static_cast<int>(parse_int(n, v, 4, 1 << 16, kLimit));
}
void p_device(Options& o, std::string_view n, std::string_view v) {
  const auto d = parse_device_option(v);
  if (!d) invalid(n, kDevice, v);
  o.device = *d;
}
void p_math(Options& o, std::string_view n, std::string_view v) {
  const auto m = parse_math_option(v);
  if (!m) invalid(n, kMath, v);
  o.math = *m;
}
void p_dump(Options& o, std::string_view n, std::string_view v) {
  std::vector<std::string> passes;
  size_t pos = 0;
  while (pos <= v.size()) {
    size_t end = v.find(',', pos);
    if (end == std::string_view::npos) end = v.size();
    const std::string_view item = v.substr(pos, end - pos);
    if (item.size() <= 6 || item.substr(0, 6) != "after:") invalid(n, kDump, v);
    passes.emplace_back(item.substr(6));
    pos = end + 1;
  }
  o.dump_after = std::move(passes);
}
void p_threads(Options& o, std::string_view n, std::string_view v) {
  o.threads = static_cast<int>(parse_int(n, v, 1, 4096, kThreads));
}
void p_cuda_device(Options& o, std::string_view n, std::string_view v) {
  o.cuda_device = static_cast<int>(parse_int(n, v, 0, 1 << 20, kOrdinal));
}
void p_vulkan_device(Options& o, std::string_view n, std::string_view v) {
  o.vulkan_device = static_cast<int>(parse_int(n, v, 0, 1 << 20, kOrdinal));
}
void p_max_array_bytes(Options& o, std::string_view n, std::string_view v) {
  const std::string s(v);
  char* end = nullptr;
  const double x = std::strtod(s.c_str(), &end);
  if (end == s.c_str() || *end != '\0' || !(x > 0) || !(x < 1e300)) invalid(n, kBytes, v);
  o.max_array_bytes = x;
}

const OptionSpec kSpecs[] = {
    {"MATFUSE_LAZY", kBool, "capture array operations in the acceleration graph (0: all eager)",
     "", p_lazy},
    {"MATFUSE_LAZY_MIN", kLazyMin,
     "fewest elements of a result that is captured (default 32768)", "", p_lazy_min},
    {"MATFUSE_LAZY_NODES", kLimit,
     "computed nodes of one pending graph before it is forced (default 128)", "", p_lazy_nodes},
    {"MATFUSE_LAZY_DEPTH", kLimit,
     "longest path of one pending graph before it is forced (default 64)", "", p_lazy_depth},
    {"MATFUSE_LOOP_REPLAY", kBool, "replay fused loop chunks without interpreting them (default 1)",
     "", p_loop_replay},
    {"MATFUSE_DEBUG_FUSION", kBool,
     "print why operations did not fuse and why a loop was not replayed", "", p_debug_fusion},
    {"MATFUSE_DUMP", kDump, "print the plan after the named planner passes", "", p_dump},
    {"MATFUSE_PLAN_REFERENCE", kBool,
     "plan with the from-scratch (quadratic) reference checks; plans are identical", "",
     p_plan_reference},
    {"MATFUSE_VERIFY_PLANS", kBool,
     "check every plan after each planner pass (always on in debug builds and the test suite)",
     "", p_verify_plans},
    {"MATFUSE_CALIBRATION", "a file path",
     "placement calibration profile (default $XDG_CACHE_HOME/matfuse/calibration.txt)", "",
     p_calibration},
    {"MATFUSE_DEVICE", kDevice,
     "where fused kernels run (auto: costed per group; gpu: CUDA, else Vulkan)", "--device",
     p_device},
    {"MATFUSE_MATH", kMath, "math mode of generated kernels (docs/math-modes.md)", "--math",
     p_math},
    {"MATFUSE_DUMP_KERNELS", kBool, "print every generated kernel (host text and CUDA source)", "",
     p_dump_kernels},
    {"MATFUSE_THREADS", kThreads, "host provider worker threads (default: one per core)", "",
     p_threads},
    {"MATFUSE_CUDA_DEVICE", kOrdinal, "the CUDA device to use (default 0)", "", p_cuda_device},
    {"MATFUSE_VULKAN_DEVICE", kOrdinal,
     "the Vulkan device to use, an index into the driver's list (default: the first discrete "
     "GPU, else integrated, else any)", "", p_vulkan_device},
    {"MATFUSE_KERNEL_CACHE", "a folder",
     "kernel cache folder (default $XDG_CACHE_HOME/matfuse/kernels)", "", p_kernel_cache},
    {"MATFUSE_ALLOW_TF32", kBool, "let cuBLAS use TF32 tensor cores for single products", "",
     p_allow_tf32},
    {"MATFUSE_MAX_ARRAY_BYTES", kBytes, "largest array (default: physical memory)", "",
     p_max_array_bytes},
    {"MATFUSE_HISTORY", "a file path", "prompt history (default ~/.matfuse_history)", "",
     p_history},
    {"MATFUSE_FIGURES", "a folder", "at the end, write every open figure as DIR/figureN.png",
     "--figures", p_figures},
};

Options from_environment() {
  return options_from([](const char* name) -> std::optional<std::string> {
    const char* v = std::getenv(name);  // the one place that reads MATFUSE_* variables
    if (!v) return std::nullopt;
    return std::string(v);
  });
}

Options& storage() {
  static Options o = from_environment();
  return o;
}

}  // namespace

std::span<const OptionSpec> option_specs() { return kSpecs; }

Options options_from(const std::function<std::optional<std::string>(const char*)>& lookup) {
  Options o;
  for (const OptionSpec& s : kSpecs) {
    const std::optional<std::string> v = lookup(s.env);
    if (v && !v->empty()) s.parse(o, s.env, *v);
  }
  return o;
}

const Options& options() { return storage(); }
Options& mutable_options() { return storage(); }

std::optional<DeviceOption> parse_device_option(std::string_view s) {
  const std::string l = lower(s);
  if (l == "auto") return DeviceOption::Auto;
  if (l == "cpu") return DeviceOption::Cpu;
  if (l == "gpu") return DeviceOption::Gpu;
  if (l == "cuda") return DeviceOption::Cuda;
  if (l == "vulkan") return DeviceOption::Vulkan;
  return std::nullopt;
}

std::optional<MathOption> parse_math_option(std::string_view s) {
  const std::string l = lower(s);
  if (l == "exact") return MathOption::Exact;
  if (l == "fast") return MathOption::Fast;
  return std::nullopt;
}

}  // namespace matfuse
