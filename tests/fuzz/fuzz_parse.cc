// libFuzzer target: the lexer and parser on arbitrary text (a script or function file).
// Outcome for each input: a parse tree or a MatlabError (parse error); never a crash.
#include <cstddef>
#include <cstdint>
#include <string>

#include "lang/parser.h"
#include "runtime/error.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  try {
    auto file = matfuse::parse_source(text, "fuzz.m");
    (void)file;
  } catch (const matfuse::MatlabError&) {
  }
  return 0;
}
