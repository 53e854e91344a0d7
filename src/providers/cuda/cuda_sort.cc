// sort on the device (provider.h SortCall): the CUB plugin libmatfuse_cub.so
// (cub/cub_sort.cu), built where a CUDA compiler was found at build time and opened here on
// first use, like the CUDA libraries. Its scratch comes from the device's stream-ordered pool;
// nothing waits for the device.
#include <dlfcn.h>
#include <unistd.h>

#include <string>

#include "providers/cuda/cuda_provider.h"
#include "runtime/error.h"

namespace matfuse::cuda {
namespace {

struct CubPlugin {
  size_t (*scratch)(int elem_bytes, long long lanes, long long len) = nullptr;
  int (*sort)(int kind, int elem_bytes, int descend, int nan_first, long long lanes,
              long long len, const void* x, void* values, double* index, void* scratch,
              size_t scratch_bytes, void* stream) = nullptr;
  std::string error;
};

/// The plugin: the library this build made (MATFUSE_CUB_LIBRARY), else libmatfuse_cub.so
/// beside the executable or on the loader's path.
const CubPlugin& plugin() {
  static const CubPlugin p = [] {
    CubPlugin r;
    std::string names[3];
#ifdef MATFUSE_CUB_LIBRARY
    names[0] = MATFUSE_CUB_LIBRARY;
#endif
    char exe[4096];
    const ssize_t len = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (len > 0) {
      std::string dir(exe, static_cast<size_t>(len));
      names[1] = dir.substr(0, dir.rfind('/') + 1) + "libmatfuse_cub.so";
    }
    names[2] = "libmatfuse_cub.so";
    void* h = nullptr;
    for (const std::string& n : names)
      if (!n.empty() && (h = dlopen(n.c_str(), RTLD_NOW | RTLD_LOCAL))) break;
    if (!h) {
      r.error = "the CUB sort plugin (libmatfuse_cub.so) was not built or cannot be opened";
      return r;
    }
    r.scratch = reinterpret_cast<decltype(r.scratch)>(dlsym(h, "mfcub_sort_scratch"));
    r.sort = reinterpret_cast<decltype(r.sort)>(dlsym(h, "mfcub_sort"));
    if (!r.scratch || !r.sort) r.error = "libmatfuse_cub.so lacks its entry points";
    return r;
  }();
  return p;
}

/// The plugin's element kind: 0 floating point, 1 signed, 2 unsigned integer (logical, char).
int kind_of(ClassId c) { return is_float_class(c) ? 0 : is_signed_integer(c) ? 1 : 2; }

}  // namespace

void CudaProvider::sort(const SortCall& c) {
  const CubPlugin& p = plugin();
  if (!p.error.empty()) throw_error("matfuse:notAvailable", "%s.", p.error.c_str());
  const int eb = element_size(c.cls);
  const size_t bytes = p.scratch(eb, c.lanes, c.len);
  if (bytes == 0)
    throw_error("matfuse:notAvailable", "The device sort takes at most 2^31 - 1 elements.");
  auto scratch = dev_.allocate(bytes);
  const int rc = p.sort(kind_of(c.cls), eb, c.descend, c.nan_first, c.lanes, c.len, c.x, c.values,
                        c.index, scratch->device_ptr(), bytes, dev_.stream());
  if (rc != 0) throw_error("matfuse:cudaError", "The CUB sort failed (CUDA error %d).", rc);
}

}  // namespace matfuse::cuda
