// libFuzzer target: the printf-family format parser. The input's first byte picks an argument
// set; the rest is the format text given to sprintf (and num2str, which takes a format too).
#include <cstddef>
#include <cstdint>
#include <string>

#include "builtins/registry.h"
#include "fuzz_util.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  matfuse::fuzz::init_once();
  if (size < 1 || size > 2048) return 0;
  static const char* kArgs[] = {"", "1", "-2.5, NaN, Inf", "'abc', 3", "[1 2; 3 4]",
                                "int8(-5), uint64(18446744073709551615)", "{1}", "1+2i",
                                "true, 'x', [], 1e308"};
  const char* args = kArgs[data[0] % (sizeof(kArgs) / sizeof(kArgs[0]))];
  matfuse::Value fmt = matfuse::Value::from_chars(
      std::string(reinterpret_cast<const char*>(data + 1), size - 1));
  matfuse::fuzz::Sandbox box;
  box.in.assign_variable("fmt", fmt);
  box.run(std::string("s = sprintf(fmt") + (*args ? ", " : "") + args + ");");
  box.run(std::string("s = num2str(pi, fmt);"));
  return 0;
}
