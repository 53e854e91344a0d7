// The on-disk kernel cache (see kernel_cache.h).
#include "providers/kernel_cache.h"

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>

#include "runtime/atomic_file.h"
#include "runtime/error.h"
#include "runtime/options.h"

namespace matfuse::kernel_cache {
namespace {

struct Header {
  char magic[8];
  int32_t abi;
  int32_t reserved;
  uint64_t key;
  uint64_t size;
  uint64_t checksum;
};

std::string entry_path(const EntryKind& kind, uint64_t key) {
  const std::string dir = cache_dir();
  if (dir.empty()) return "";
  char name[48];
  std::snprintf(name, sizeof name, "%016llx.%s", static_cast<unsigned long long>(key), kind.ext);
  return dir + "/" + name;
}

}  // namespace

uint64_t fnv1a(const void* data, size_t n, uint64_t h) {
  const auto* p = static_cast<const unsigned char*>(data);
  for (size_t i = 0; i < n; ++i) {
    h ^= p[i];
    h *= 1099511628211ull;
  }
  return h;
}

uint64_t fnv1a(const std::string& s, uint64_t h) { return fnv1a(s.data(), s.size() + 1, h); }

std::string cache_dir() {
  if (!options().kernel_cache.empty()) return options().kernel_cache;
  if (const char* x = std::getenv("XDG_CACHE_HOME"); x && *x)
    return std::string(x) + "/matfuse/kernels";
  if (const char* h = std::getenv("HOME"); h && *h) return std::string(h) + "/.cache/matfuse/kernels";
  return "";
}

std::string read_entry(const EntryKind& kind, uint64_t key, bool* corrupt) {
  *corrupt = false;
  const std::string path = entry_path(kind, key);
  if (path.empty()) return {};
  std::ifstream f(path, std::ios::binary);
  if (!f) return {};
  Header h{};
  f.read(reinterpret_cast<char*>(&h), sizeof h);
  std::string payload;
  bool ok = static_cast<bool>(f) && std::memcmp(h.magic, kind.magic, 8) == 0 &&
            h.abi == kind.abi && h.key == key && h.size > 0 && h.size < (1ull << 30);
  if (ok) {
    payload.resize(h.size);
    f.read(payload.data(), static_cast<std::streamsize>(h.size));
    ok = static_cast<bool>(f) && fnv1a(payload.data(), payload.size()) == h.checksum;
  }
  if (!ok) {
    *corrupt = true;
    return {};
  }
  return payload;
}

void write_entry(const EntryKind& kind, uint64_t key, const std::string& payload) {
  const std::string path = entry_path(kind, key);
  if (path.empty()) return;
  std::error_code ec;
  std::filesystem::create_directories(cache_dir(), ec);
  Header h{};
  std::memcpy(h.magic, kind.magic, 8);
  h.abi = kind.abi;
  h.key = key;
  h.size = payload.size();
  h.checksum = fnv1a(payload.data(), payload.size());
  std::string bytes(reinterpret_cast<const char*>(&h), sizeof h);
  bytes += payload;
  try {
    write_file_atomic(path, bytes);  // temporary file, fsync, checked close, rename
  } catch (const MatlabError&) {
    // An unwritable or full cache only costs recompilation.
  }
}

}  // namespace matfuse::kernel_cache
