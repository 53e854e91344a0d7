// Run-time options: parsing and validation of every MATFUSE_* variable, the README table, and
// no other reader of MATFUSE_* variables in src/.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <string>

#include "runtime/error.h"
#include "runtime/options.h"

namespace matfuse {
namespace {

Options from(const std::map<std::string, std::string>& env) {
  return options_from([&](const char* name) -> std::optional<std::string> {
    auto it = env.find(name);
    if (it == env.end()) return std::nullopt;
    return it->second;
  });
}

std::string error_of(const std::map<std::string, std::string>& env) {
  try {
    from(env);
  } catch (const MatlabError& e) {
    EXPECT_EQ(e.identifier(), "matfuse:invalidOption");
    return e.message();
  }
  ADD_FAILURE() << "no error";
  return "";
}

TEST(Options, DefaultsWhenUnsetOrEmpty) {
  const Options o = from({{"MATFUSE_DEVICE", ""}, {"MATFUSE_LAZY", ""}});
  EXPECT_TRUE(o.lazy);
  EXPECT_EQ(o.lazy_min, 32768);
  EXPECT_EQ(o.lazy_nodes, 128);
  EXPECT_EQ(o.lazy_depth, 64);
  EXPECT_EQ(o.device, DeviceOption::Auto);
  EXPECT_EQ(o.math, MathOption::Exact);
  EXPECT_FALSE(o.dump_kernels);
  EXPECT_EQ(o.threads, 0);
  EXPECT_EQ(o.max_array_bytes, 0);
}

TEST(Options, ValidValues) {
  const Options o = from({{"MATFUSE_LAZY", "0"},
                          {"MATFUSE_LAZY_MIN", "1"},
                          {"MATFUSE_LAZY_NODES", "256"},
                          {"MATFUSE_DEVICE", "GPU"},
                          {"MATFUSE_MATH", "fast"},
                          {"MATFUSE_DUMP", "after:fuse_elementwise,after:all"},
                          {"MATFUSE_DUMP_KERNELS", "on"},
                          {"MATFUSE_THREADS", "3"},
                          {"MATFUSE_MAX_ARRAY_BYTES", "268435456"},
                          {"MATFUSE_KERNEL_CACHE", "/x/y"}});
  EXPECT_FALSE(o.lazy);
  EXPECT_EQ(o.lazy_min, 1);
  EXPECT_EQ(o.lazy_nodes, 256);
  EXPECT_EQ(o.device, DeviceOption::Gpu);
  EXPECT_EQ(o.math, MathOption::Fast);
  ASSERT_EQ(o.dump_after.size(), 2u);
  EXPECT_EQ(o.dump_after[0], "fuse_elementwise");
  EXPECT_EQ(o.dump_after[1], "all");
  EXPECT_TRUE(o.dump_kernels);
  EXPECT_EQ(o.threads, 3);
  EXPECT_EQ(o.max_array_bytes, 268435456.0);
  EXPECT_EQ(o.kernel_cache, "/x/y");
}

TEST(Options, InvalidValuesNameTheVariableAndTheAcceptedValues) {
  EXPECT_EQ(error_of({{"MATFUSE_DEVICE", "tpu"}}),
            "MATFUSE_DEVICE must be auto, cpu, gpu, cuda or vulkan (got 'tpu').");
  EXPECT_EQ(error_of({{"MATFUSE_MATH", "quick"}}), "MATFUSE_MATH must be exact or fast (got 'quick').");
  EXPECT_EQ(error_of({{"MATFUSE_LAZY", "maybe"}}),
            "MATFUSE_LAZY must be 0 or 1 (also off/on, false/true, no/yes) (got 'maybe').");
  EXPECT_EQ(error_of({{"MATFUSE_LAZY_MIN", "0"}}),
            "MATFUSE_LAZY_MIN must be a whole number of elements >= 1 (got '0').");
  EXPECT_EQ(error_of({{"MATFUSE_LAZY_MIN", "12abc"}}),
            "MATFUSE_LAZY_MIN must be a whole number of elements >= 1 (got '12abc').");
  EXPECT_EQ(error_of({{"MATFUSE_LAZY_DEPTH", "2"}}),
            "MATFUSE_LAZY_DEPTH must be a whole number from 4 to 65536 (got '2').");
  EXPECT_EQ(error_of({{"MATFUSE_THREADS", "-1"}}),
            "MATFUSE_THREADS must be a whole number from 1 to 4096 (got '-1').");
  EXPECT_EQ(error_of({{"MATFUSE_CUDA_DEVICE", "x"}}),
            "MATFUSE_CUDA_DEVICE must be a device ordinal (a whole number >= 0) (got 'x').");
  EXPECT_EQ(error_of({{"MATFUSE_MAX_ARRAY_BYTES", "-5"}}),
            "MATFUSE_MAX_ARRAY_BYTES must be a positive number of bytes (got '-5').");
  EXPECT_EQ(error_of({{"MATFUSE_DUMP", "before:x"}}),
            "MATFUSE_DUMP must be a comma-separated list of after:PASS or after:all "
            "(got 'before:x').");
}

#ifdef MATFUSE_SOURCE_DIR
std::string read_text(const std::filesystem::path& p) {
  std::ifstream f(p);
  std::stringstream ss;
  ss << f.rdbuf();
  return ss.str();
}

TEST(Options, ReadmeTableListsEveryVariable) {
  const std::string readme = read_text(std::filesystem::path(MATFUSE_SOURCE_DIR) / "README.md");
  ASSERT_FALSE(readme.empty());
  for (const OptionSpec& s : option_specs()) {
    const std::string row = std::string("| `") + s.env + "` | ";
    const size_t at = readme.find(row);
    ASSERT_NE(at, std::string::npos) << s.env << " has no row in the README's table";
    const std::string line = readme.substr(at, readme.find('\n', at) - at);
    EXPECT_NE(line.find(s.accepted), std::string::npos) << line;
    if (*s.cli) EXPECT_NE(line.find(s.cli), std::string::npos) << line;
  }
}

TEST(Options, NoOtherReaderOfMatfuseVariables) {
  namespace fs = std::filesystem;
  const fs::path src = fs::path(MATFUSE_SOURCE_DIR) / "src";
  for (const auto& e : fs::recursive_directory_iterator(src)) {
    if (!e.is_regular_file() || e.path().filename() == "options.cc") continue;
    const std::string text = read_text(e.path());
    EXPECT_EQ(text.find("getenv(\"MATFUSE_"), std::string::npos) << e.path();
  }
}
#endif

}  // namespace
}  // namespace matfuse
