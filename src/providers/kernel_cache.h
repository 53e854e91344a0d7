// The on-disk kernel cache shared by the device providers (CUDA: CUBIN, Vulkan: SPIR-V): one
// file per key, <cache_dir()>/<key as 16 hex digits>.<ext>, holding a header (magic, ABI
// version, key, payload size, FNV-1a checksum of the payload) and the payload. Entries are
// written atomically (runtime/atomic_file.h), so a crash or a full disk never leaves a torn
// entry; an entry that fails any header check is treated as absent and reported corrupt.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

namespace matfuse::kernel_cache {

constexpr uint64_t kFnvBasis = 1469598103934665603ull;
/// FNV-1a of n bytes, continuing from h.
uint64_t fnv1a(const void* data, size_t n, uint64_t h = kFnvBasis);
/// FNV-1a of s and its terminating NUL (so "ab","c" and "a","bc" differ), continuing from h.
uint64_t fnv1a(const std::string& s, uint64_t h);

/// The cache folder: MATFUSE_KERNEL_CACHE, else $XDG_CACHE_HOME/matfuse/kernels, else
/// ~/.cache/matfuse/kernels; "" (no disk cache) when none applies.
std::string cache_dir();

/// An entry kind: the file extension, an 8-byte magic and the ABI version of its payloads.
struct EntryKind {
  const char* ext;
  char magic[8];
  int32_t abi;
};

/// The payload of entry `key`, or "" when absent; *corrupt is set when a file exists but fails
/// a check (magic, ABI, key, size, checksum).
std::string read_entry(const EntryKind& kind, uint64_t key, bool* corrupt);
/// Writes entry `key` atomically; an unwritable or full cache is ignored (it only costs a
/// recompilation later).
void write_entry(const EntryKind& kind, uint64_t key, const std::string& payload);

}  // namespace matfuse::kernel_cache
