// libFuzzer target: the text and CSV readers (readmatrix, readcell, load -ascii, str2num,
// str2double, textscan-free parsing) on a file or string whose bytes are the input.
#include <cstddef>
#include <cstdint>
#include <cstdio>

#include "fuzz_util.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  matfuse::fuzz::init_once();
  for (const char* name : {"in.csv", "in.txt"}) {
    std::FILE* f = std::fopen(name, "wb");
    if (!f) return 0;
    std::fwrite(data, 1, size, f);
    std::fclose(f);
  }
  matfuse::fuzz::Sandbox box;
  box.run("A = readmatrix('in.csv');");
  box.run("C = readcell('in.csv');");
  box.run("B = load('in.txt', '-ascii');");
  box.run("t = fileread('in.txt'); x = str2double(t); y = strsplit(t, ','); z = str2num(t);");
  return 0;
}
