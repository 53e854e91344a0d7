// NVRTC compilation and the kernel cache (DESIGN.md decision 11).
//
// - Key: 64-bit FNV-1a of (source, NVRTC options, device architecture, NVRTC version, matfuse's
//   kernel ABI version kKernelAbi). Bump kKernelAbi whenever the launch ABI of codegen.h or the
//   meaning of generated code changes without the source text changing.
// - In memory: key -> loaded module and its entry points, for the life of the process.
// - On disk: `$XDG_CACHE_HOME/matfuse/kernels/<key>.cubin` (default `~/.cache/matfuse/kernels`;
//   MATFUSE_KERNEL_CACHE overrides the folder, an empty value disables the disk cache). Each
//   file holds a header (magic, ABI, key, payload size, payload checksum) and the CUBIN; it is
//   written to a temporary file and renamed, so readers never see a partial entry; an entry
//   whose header or checksum does not match (corrupt, truncated, another key) is recompiled and
//   rewritten.
// - MATFUSE_DUMP_KERNELS=1 prints each generated CUDA source to stderr when it is compiled.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "providers/cuda/codegen.h"
#include "providers/cuda/cuda_device.h"

namespace matfuse::cuda {

constexpr int kKernelAbi = 1;

/// Where a compiled program came from.
enum class CacheSource : uint8_t { Memory, Disk, Compiled };

struct CompiledProgram {
  CUmodule module = nullptr;
  std::vector<CUfunction> functions;  ///< one per Program::launches entry
  uint64_t key = 0;
};

struct CompileResult {
  const CompiledProgram* program = nullptr;
  CacheSource source = CacheSource::Memory;
  double seconds = 0;  ///< NVRTC compile (or disk load) time
};

/// Compiles (or finds) program p for dev. Raises MatlabError("matfuse:nvrtc", log) when NVRTC
/// rejects the source, "matfuse:notAvailable" without NVRTC.
CompileResult compile(Device& dev, const Program& p);

/// The provider's fixed library kernels (FFT, linear algebra, windows, selection): `source`
/// (a string with static storage) compiled once per process with its kernels `entries`, in
/// order (functions[i] is entries[i]). Raises as compile() does; a failed compile is retried
/// on the next call.
const CompiledProgram& library_program(Device& dev, const char* source,
                                       const std::vector<std::string>& entries);

/// Cache statistics since process start (accel-info, --profile).
struct CacheStats {
  int64_t memory_hits = 0, disk_hits = 0, compiles = 0, corrupt_entries = 0;
  double compile_seconds = 0;
};
CacheStats cache_stats();
/// Counts a use of an already loaded program found without compile() (the provider keeps the
/// loaded program with its rendered source).
void note_memory_hit();
/// The disk cache folder ("" when disabled).
std::string cache_dir();
/// NVRTC options used for dev (also part of the key).
std::vector<std::string> nvrtc_options(const Device& dev, const Program& p);

}  // namespace matfuse::cuda
