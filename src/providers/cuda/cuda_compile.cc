// NVRTC compilation and the kernel cache (see cuda_compile.h).
#include "providers/cuda/cuda_compile.h"

#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <mutex>
#include <unordered_map>

#include "providers/kernel_cache.h"
#include "runtime/error.h"
#include "runtime/options.h"

namespace matfuse::cuda {
namespace {

const kernel_cache::EntryKind kCubin{"cubin", {'M', 'F', 'C', 'U', 'B', 'I', 'N', '1'}, kKernelAbi};
using kernel_cache::fnv1a;

double now() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

struct Cache {
  std::mutex mu;
  std::unordered_map<uint64_t, CompiledProgram> programs;
  CacheStats stats;
};
Cache& cache() {
  static Cache* c = new Cache();
  return *c;
}

bool dump_kernels() {
  return options().dump_kernels;
}

std::string read_entry(uint64_t key, bool* corrupt) {
  return kernel_cache::read_entry(kCubin, key, corrupt);
}
void write_entry(uint64_t key, const std::string& cubin) {
  kernel_cache::write_entry(kCubin, key, cubin);
}

std::string nvrtc_compile(Device& dev, const Program& p) {
  const Api& a = dev.api();
  if (!have_nvrtc())
    throw_error("matfuse:notAvailable", "GPU kernels need NVRTC (libnvrtc.so), which is not "
                "installed.");
  nvrtcProgram prog = nullptr;
  if (a.nvrtcCreateProgram(&prog, p.source.c_str(), "matfuse_kernel.cu", 0, nullptr, nullptr) != 0)
    throw_error("matfuse:nvrtc", "nvrtcCreateProgram failed.");
  const std::vector<std::string> opts = nvrtc_options(dev, p);
  std::vector<const char*> argv;
  for (const std::string& o : opts) argv.push_back(o.c_str());
  const nvrtcResult r = a.nvrtcCompileProgram(prog, static_cast<int>(argv.size()), argv.data());
  if (r != 0) {
    size_t n = 0;
    a.nvrtcGetProgramLogSize(prog, &n);
    std::string log(n, '\0');
    if (n) a.nvrtcGetProgramLog(prog, log.data());
    a.nvrtcDestroyProgram(&prog);
    if (dump_kernels()) std::fprintf(stderr, "%s\n", p.source.c_str());
    throw_error("matfuse:nvrtc", "NVRTC could not compile a generated kernel (%s):\n%s",
                a.nvrtcGetErrorString(r), log.c_str());
  }
  size_t n = 0;
  a.nvrtcGetCUBINSize(prog, &n);
  std::string cubin(n, '\0');
  a.nvrtcGetCUBIN(prog, cubin.data());
  a.nvrtcDestroyProgram(&prog);
  return cubin;
}

}  // namespace

std::string cache_dir() { return kernel_cache::cache_dir(); }

std::vector<std::string> nvrtc_options(const Device& dev, const Program& p) {
  const DeviceInfo& i = dev.info();
  return {"--gpu-architecture=sm_" + std::to_string(i.cc_major) + std::to_string(i.cc_minor),
          "--std=c++17", p.fast_math ? "--fmad=true" : "--fmad=false", "-default-device"};
}

CacheStats cache_stats() {
  std::lock_guard<std::mutex> l(cache().mu);
  return cache().stats;
}

void note_memory_hit() {
  std::lock_guard<std::mutex> l(cache().mu);
  cache().stats.memory_hits++;
}

CompileResult compile(Device& dev, const Program& p) {
  Cache& c = cache();
  const DeviceInfo& info = dev.info();
  uint64_t key = fnv1a(p.source, 1469598103934665603ull);
  for (const std::string& o : nvrtc_options(dev, p)) key = fnv1a(o, key);
  const std::string ver = std::to_string(info.cc_major) + "." + std::to_string(info.cc_minor) +
                          "/nvrtc " + std::to_string(info.nvrtc_major) + "." +
                          std::to_string(info.nvrtc_minor) + "/abi " + std::to_string(kKernelAbi);
  key = fnv1a(ver, key);
  for (const Launch& l : p.launches) key = fnv1a(l.entry, key);

  std::lock_guard<std::mutex> lock(c.mu);
  if (auto it = c.programs.find(key); it != c.programs.end()) {
    c.stats.memory_hits++;
    return {&it->second, CacheSource::Memory, 0};
  }
  const double t0 = now();
  bool corrupt = false;
  std::string cubin = read_entry(key, &corrupt);
  CacheSource src = CacheSource::Disk;
  if (corrupt) c.stats.corrupt_entries++;
  if (cubin.empty()) {
    if (dump_kernels()) std::fprintf(stderr, "// ---- CUDA kernel %016llx ----\n%s\n",
                                     static_cast<unsigned long long>(key), p.source.c_str());
    cubin = nvrtc_compile(dev, p);
    write_entry(key, cubin);
    src = CacheSource::Compiled;
  }
  CompiledProgram cp;
  cp.key = key;
  CUresult r = dev.api().cuModuleLoadData(&cp.module, cubin.data());
  if (r != CUDA_SUCCESS && src == CacheSource::Disk) {
    // A valid-looking entry the driver rejects: recompile once.
    c.stats.corrupt_entries++;
    cubin = nvrtc_compile(dev, p);
    write_entry(key, cubin);
    src = CacheSource::Compiled;
    r = dev.api().cuModuleLoadData(&cp.module, cubin.data());
  }
  dev.check(r, "cuModuleLoadData");
  for (const Launch& l : p.launches) {
    CUfunction f = nullptr;
    dev.check(dev.api().cuModuleGetFunction(&f, cp.module, l.entry.c_str()),
              "cuModuleGetFunction");
    cp.functions.push_back(f);
  }
  const double secs = now() - t0;
  if (src == CacheSource::Compiled) {
    c.stats.compiles++;
    c.stats.compile_seconds += secs;
  } else {
    c.stats.disk_hits++;
  }
  auto [it, inserted] = c.programs.emplace(key, std::move(cp));
  (void)inserted;
  return {&it->second, src, secs};
}

const CompiledProgram& library_program(Device& dev, const char* source,
                                       const std::vector<std::string>& entries) {
  static std::mutex mu;
  static auto* programs = new std::unordered_map<const char*, const CompiledProgram*>();
  std::lock_guard<std::mutex> l(mu);
  if (auto it = programs->find(source); it != programs->end()) return *it->second;
  Program p;
  p.source = source;
  for (const std::string& e : entries) p.launches.push_back({e});
  const CompiledProgram* c = compile(dev, p).program;
  programs->emplace(source, c);
  return *c;
}

}  // namespace matfuse::cuda
