// libFuzzer target: the interpreter on whole scripts (mutations of tests/scripts seed them).
// Scripts that would touch the machine (shell, files, exit, stdin) are skipped; each run has a
// statement budget and arrays are capped (fuzz_util.h). Any MatlabError is a fine outcome.
#include <cstddef>
#include <cstdint>
#include <string>

#include "builtins/registry.h"
#include "fuzz_util.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  matfuse::fuzz::init_once();
  if (size > 4096) return 0;
  const std::string text(reinterpret_cast<const char*>(data), size);
  if (matfuse::fuzz::unsafe_text(text)) return 0;
  matfuse::fuzz::Sandbox box;
  box.run(text);
  return 0;
}
