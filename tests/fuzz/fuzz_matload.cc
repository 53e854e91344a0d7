// libFuzzer target: load of a MAT-file whose bytes are the input (seeded with MAT-files saved
// by matfuse and by GNU Octave). Outcome: the variables, or MATLAB:load:unableToReadMatFile.
#include <cstddef>
#include <cstdint>
#include <cstdio>

#include "fuzz_util.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  matfuse::fuzz::init_once();
  std::FILE* f = std::fopen("in.mat", "wb");
  if (!f) return 0;
  std::fwrite(data, 1, size, f);
  std::fclose(f);
  matfuse::fuzz::Sandbox box;
  box.run("S = load('in.mat');");
  return 0;
}
