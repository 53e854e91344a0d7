// The CUDA device: context, stream, memory pool, transfers, residency (see cuda_device.h).
#include "providers/cuda/cuda_device.h"

#include <chrono>
#include <cstdlib>
#include <cstring>
#include <mutex>

#include "accel/run/telemetry.h"
#include "runtime/error.h"
#include "runtime/options.h"

namespace matfuse::cuda {
namespace {

double now_seconds() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

/// A pool block holding a tensor's bytes on the device.
class CudaBuffer final : public DeviceCopy {
public:
  CudaBuffer(Device& dev, CUdeviceptr p, size_t bytes) : dev_(dev), ptr_(p), bytes_(bytes) {}
  ~CudaBuffer() override {
    if (ptr_) dev_.api().cuMemFreeAsync(ptr_, dev_.stream());
  }
  void* device_ptr() const override { return reinterpret_cast<void*>(ptr_); }
  void download(void* host, size_t bytes) const override {
    dev_.download(host, ptr_, bytes < bytes_ ? bytes : bytes_);
  }
  const char* provider() const override { return "cuda"; }

private:
  Device& dev_;
  CUdeviceptr ptr_;
  size_t bytes_;
};

std::string g_unavailable;

}  // namespace

void Device::check(CUresult r, const char* what) const {
  if (r == CUDA_SUCCESS) return;
  throw_error("matfuse:cudaError", "%s failed: %s", what, error_text(r).c_str());
}

bool Device::init(std::string* why) {
  api_ = cuda::api();
  if (!api_) {
    *why = load_error();
    return false;
  }
  const Api& a = *api_;
  if (a.cuInit(0) != CUDA_SUCCESS) {
    *why = "cuInit failed (no usable GPU or driver)";
    return false;
  }
  int count = 0;
  if (a.cuDeviceGetCount(&count) != CUDA_SUCCESS || count == 0) {
    *why = "no CUDA device";
    return false;
  }
  const int ordinal = options().cuda_device;
  if (ordinal < 0 || ordinal >= count) {
    *why = "MATFUSE_CUDA_DEVICE names no device";
    return false;
  }
  CUdevice d = 0;
  if (a.cuDeviceGet(&d, ordinal) != CUDA_SUCCESS ||
      a.cuDevicePrimaryCtxRetain(&ctx_, d) != CUDA_SUCCESS ||
      a.cuCtxSetCurrent(ctx_) != CUDA_SUCCESS ||
      a.cuStreamCreate(&stream_, CU_STREAM_NON_BLOCKING) != CUDA_SUCCESS) {
    *why = "could not create a CUDA context and stream";
    return false;
  }
  char name[256] = {0};
  a.cuDeviceGetName(name, sizeof name, d);
  info_.name = name;
  info_.ordinal = ordinal;
  a.cuDeviceGetAttribute(&info_.cc_major, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, d);
  a.cuDeviceGetAttribute(&info_.cc_minor, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, d);
  a.cuDeviceGetAttribute(&info_.sm_count, CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT, d);
  a.cuDeviceGetAttribute(&info_.max_threads_per_block, CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK,
                         d);
  a.cuDeviceTotalMem(&info_.total_memory, d);
  a.cuDriverGetVersion(&info_.driver_version);
  if (a.nvrtcVersion) a.nvrtcVersion(&info_.nvrtc_major, &info_.nvrtc_minor);
  // Keep freed blocks in the pool (no return to the driver between kernels).
  CUmemoryPool pool = nullptr;
  if (a.cuDeviceGetDefaultMemPool(&pool, d) == CUDA_SUCCESS) {
    uint64_t threshold = UINT64_MAX;
    a.cuMemPoolSetAttribute(pool, CU_MEMPOOL_ATTR_RELEASE_THRESHOLD, &threshold);
  }
  return true;
}

Device* Device::get() {
  static Device* dev = [] {
    auto* d = new Device();  // intentionally never destroyed: buffers may outlive statics
    std::string why;
    if (!d->init(&why)) {
      g_unavailable = why.empty() ? "CUDA unavailable" : why;
      delete d;
      return static_cast<Device*>(nullptr);
    }
    return d;
  }();
  if (dev) {
    // The context is current per thread; bind it on threads that have not used it yet.
    thread_local bool bound = false;
    if (!bound) {
      dev->api_->cuCtxSetCurrent(dev->ctx_);
      bound = true;
    }
  }
  return dev;
}

const std::string& Device::unavailable_reason() {
  get();
  return g_unavailable;
}

std::unique_ptr<DeviceCopy> Device::allocate(size_t bytes) {
  const size_t want = bytes ? (bytes + 255) / 256 * 256 : 256;
  CUdeviceptr p = 0;
  CUresult r = api_->cuMemAllocAsync(&p, want, stream_);
  if (r == CUDA_ERROR_OUT_OF_MEMORY) {
    // Freed blocks return to the pool in stream order: wait for them and retry once.
    api_->cuStreamSynchronize(stream_);
    r = api_->cuMemAllocAsync(&p, want, stream_);
  }
  if (r == CUDA_ERROR_OUT_OF_MEMORY) {
    auto [free_b, total_b] = memory_info();
    throw_error("matfuse:gpuOutOfMemory",
                "Out of memory on the GPU. The request needs %.3f GB; %.3f GB of %.3f GB are "
                "free.",
                static_cast<double>(want) / 1e9, static_cast<double>(free_b) / 1e9,
                static_cast<double>(total_b) / 1e9);
  }
  check(r, "cuMemAllocAsync");
  return std::make_unique<CudaBuffer>(*this, p, bytes);
}

void Device::upload(CUdeviceptr dst, const void* src, size_t bytes) {
  if (!bytes) return;
  const double t0 = now_seconds();
  check(api_->cuMemcpyHtoDAsync(dst, src, bytes, stream_), "upload (cuMemcpyHtoDAsync)");
  stats_.uploads++;
  stats_.upload_bytes += static_cast<int64_t>(bytes);
  stats_.upload_seconds += now_seconds() - t0;
}

void Device::download(void* dst, CUdeviceptr src, size_t bytes) {
  const double t0 = now_seconds();
  if (bytes) check(api_->cuMemcpyDtoHAsync(dst, src, bytes, stream_), "gather (cuMemcpyDtoHAsync)");
  check(api_->cuStreamSynchronize(stream_), "gather (cuStreamSynchronize)");
  stats_.downloads++;
  stats_.download_bytes += static_cast<int64_t>(bytes);
  accel::telemetry().record_sync("gather", static_cast<int64_t>(bytes));
  stats_.download_seconds += now_seconds() - t0;
}

int Device::read_fault_flag(CUdeviceptr flag) { return read_fault_flags({flag})[0]; }

std::vector<int> Device::read_fault_flags(const std::vector<CUdeviceptr>& flags) {
  std::vector<int> codes(flags.size(), 0);
  for (size_t i = 0; i < flags.size(); ++i)
    check(api_->cuMemcpyDtoHAsync(&codes[i], flags[i], sizeof(int), stream_), "fault flag read");
  check(api_->cuStreamSynchronize(stream_), "fault flag read (cuStreamSynchronize)");
  stats_.fault_checks++;
  accel::telemetry().record_sync("fault check", static_cast<int64_t>(flags.size() * sizeof(int)));
  return codes;
}

int64_t Device::read_size(CUdeviceptr p) {
  int64_t v = 0;
  check(api_->cuMemcpyDtoHAsync(&v, p, sizeof v, stream_), "size read (cuMemcpyDtoHAsync)");
  check(api_->cuStreamSynchronize(stream_), "size read (cuStreamSynchronize)");
  stats_.size_reads++;
  return v;
}

void Device::read_back(void* dst, CUdeviceptr src, size_t bytes) {
  if (bytes)
    check(api_->cuMemcpyDtoHAsync(dst, src, bytes, stream_), "read back (cuMemcpyDtoHAsync)");
  check(api_->cuStreamSynchronize(stream_), "read back (cuStreamSynchronize)");
  stats_.size_reads++;
}

void Device::synchronize() { check(api_->cuStreamSynchronize(stream_), "cuStreamSynchronize"); }

std::pair<size_t, size_t> Device::memory_info() {
  size_t f = 0, t = 0;
  api_->cuMemGetInfo(&f, &t);
  return {f, t};
}

CUdeviceptr device_pointer(Device& dev, const Tensor& t) {
  const std::shared_ptr<Storage>& s = t.storage();
  const DeviceCopy* d = s->device();
  if (!d || std::strcmp(d->provider(), "cuda") != 0) {
    std::unique_ptr<DeviceCopy> buf = dev.allocate(s->bytes());
    dev.upload(reinterpret_cast<CUdeviceptr>(buf->device_ptr()), s->host_read(), s->bytes());
    s->attach_device(std::move(buf));
    d = s->device();
  }
  return reinterpret_cast<CUdeviceptr>(d->device_ptr()) + t.storage_offset();
}

bool on_cuda(const Tensor& t) {
  if (t.is_lazy()) return false;
  const DeviceCopy* d = t.storage()->device();
  return d && std::strcmp(d->provider(), "cuda") == 0;
}

Tensor device_tensor(Device& dev, ClassId cls, const Dims& dims, bool complex) {
  const size_t bytes = static_cast<size_t>(dims.numel()) * static_cast<size_t>(element_size(cls)) *
                       (complex ? 2 : 1);
  return Tensor::on_device(cls, dims, complex, dev.allocate(bytes));
}

}  // namespace matfuse::cuda
