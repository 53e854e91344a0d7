// The CUDA device: context, stream, stream-ordered memory pool, transfers, residency of tensors
// (DESIGN.md decisions 10 and 12).
//
// - One device (ordinal 0, or MATFUSE_CUDA_DEVICE), its primary context and one non-blocking
//   stream: every matfuse kernel, copy and cuBLAS call is ordered on that stream, so no
//   synchronisation is needed between kernels; the host waits only when it reads device data
//   (a gather) or reads a fault flag.
// - Memory comes from the device's default stream-ordered pool (cuMemAllocAsync) with the
//   release threshold raised so freed blocks are reused instead of returned to the driver: no
//   cudaMalloc per kernel. Out of memory: the pool is drained (stream synchronised) and the
//   allocation retried once, then MatlabError "matfuse:gpuOutOfMemory" naming the request size.
// - Residency: device_pointer(t) returns the device address of a tensor's elements, uploading
//   its host copy once and attaching the device copy to the tensor's Storage, so later kernels
//   reuse it. Kernel results are device-only tensors (Tensor::on_device) gathered on first host
//   access.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "providers/cuda/cuda_api.h"
#include "runtime/tensor.h"

namespace matfuse::cuda {

struct DeviceInfo {
  std::string name;
  int ordinal = 0;
  int cc_major = 0, cc_minor = 0;
  int sm_count = 0;
  int max_threads_per_block = 0;
  size_t total_memory = 0;  ///< bytes
  int driver_version = 0;   ///< e.g. 13000
  int nvrtc_major = 0, nvrtc_minor = 0;
};

/// Transfer counters (telemetry, --profile).
struct TransferStats {
  int64_t uploads = 0, upload_bytes = 0;
  int64_t downloads = 0, download_bytes = 0;
  double upload_seconds = 0, download_seconds = 0;
  int64_t fault_checks = 0;  ///< fault flags read back (a wait for the stream, not a gather)
  int64_t size_reads = 0;    ///< result sizes read back (mask counts: 8 bytes, not a gather)
};

class Device {
public:
  /// The device, initialised on first call; null when there is no usable CUDA device (no
  /// driver, no device, MATFUSE_DEVICE=cpu). Never throws.
  static Device* get();
  /// Why get() is null ("" otherwise).
  static const std::string& unavailable_reason();

  const DeviceInfo& info() const { return info_; }
  CUstream stream() const { return stream_; }
  const Api& api() const { return *api_; }

  /// Device memory of `bytes` (freed when the returned copy is destroyed, stream-ordered).
  /// Raises matfuse:gpuOutOfMemory.
  std::unique_ptr<DeviceCopy> allocate(size_t bytes);
  /// Copies host -> device (ordered on the stream; src may be reused on return).
  void upload(CUdeviceptr dst, const void* src, size_t bytes);
  /// Copies device -> host, waiting for the stream (all earlier kernels) first.
  void download(void* dst, CUdeviceptr src, size_t bytes);
  /// Reads a kernel's 4-byte fault flag, waiting for the stream (counted as a fault check, not
  /// a gather).
  int read_fault_flag(CUdeviceptr flag);
  /// Reads several fault flags with one wait for the stream (one fault check).
  std::vector<int> read_fault_flags(const std::vector<CUdeviceptr>& flags);
  /// Reads one int64 the stream computes (a result size), waiting for the stream; counted as a
  /// size read, not a gather.
  int64_t read_size(CUdeviceptr p);
  /// Reads a small result the stream computes (a histogram, a few candidates of a selection),
  /// waiting for the stream; counted as a size read, not a gather.
  void read_back(void* dst, CUdeviceptr src, size_t bytes);
  /// Waits for all work on the stream. Raises MatlabError on an asynchronous device fault.
  void synchronize();
  /// (free, total) device memory in bytes.
  std::pair<size_t, size_t> memory_info();
  TransferStats& stats() { return stats_; }

  /// Raises MatlabError("matfuse:cudaError", "<what>: <driver message>") unless r succeeded.
  void check(CUresult r, const char* what) const;

private:
  Device() = default;
  bool init(std::string* why);
  const Api* api_ = nullptr;
  DeviceInfo info_;
  CUcontext ctx_ = nullptr;
  CUstream stream_ = nullptr;
  TransferStats stats_;
};

/// Device address of t's elements on `dev` (uploads t's host copy once and keeps the device
/// copy with t's storage). t must be materialised (not lazy) or it is forced.
CUdeviceptr device_pointer(Device& dev, const Tensor& t);
/// Whether t (materialised) has a copy on the CUDA device (never forces, never uploads).
bool on_cuda(const Tensor& t);
/// A device-only tensor of class cls and dims (kernel output; complex: interleaved parts).
Tensor device_tensor(Device& dev, ClassId cls, const Dims& dims, bool complex = false);

}  // namespace matfuse::cuda
