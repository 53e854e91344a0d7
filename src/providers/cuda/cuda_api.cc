// Run-time loading of the CUDA driver, NVRTC and cuBLAS (see cuda_api.h).
#include "providers/cuda/cuda_api.h"
#include "runtime/options.h"

#include <dlfcn.h>

#include <cstdlib>
#include <initializer_list>
#include <mutex>
#include <vector>

namespace matfuse::cuda {
namespace {

// The cuSOLVER entry points, by name (cuSOLVER manual, section 2.4 dense legacy API).
#define MF_CUSOLVER_ENTRIES(X) \
  X(cusolverDnCreate) X(cusolverDnSetStream) X(cusolverDnSgetrf_bufferSize) \
  X(cusolverDnDgetrf_bufferSize) X(cusolverDnSgetrf) X(cusolverDnDgetrf) X(cusolverDnSgetrs) \
  X(cusolverDnDgetrs) X(cusolverDnSpotrf_bufferSize) X(cusolverDnDpotrf_bufferSize) \
  X(cusolverDnSpotrf) X(cusolverDnDpotrf) X(cusolverDnSpotrs) X(cusolverDnDpotrs) \
  X(cusolverDnSgeqrf_bufferSize) X(cusolverDnDgeqrf_bufferSize) X(cusolverDnSgeqrf) \
  X(cusolverDnDgeqrf) X(cusolverDnSormqr_bufferSize) X(cusolverDnDormqr_bufferSize) \
  X(cusolverDnSormqr) X(cusolverDnDormqr) X(cusolverDnSorgqr_bufferSize) \
  X(cusolverDnDorgqr_bufferSize) X(cusolverDnSorgqr) X(cusolverDnDorgqr) \
  X(cusolverDnSsyevd_bufferSize) X(cusolverDnDsyevd_bufferSize) X(cusolverDnSsyevd) \
  X(cusolverDnDsyevd) X(cusolverDnSgesvd_bufferSize) X(cusolverDnDgesvd_bufferSize) \
  X(cusolverDnSgesvd) X(cusolverDnDgesvd)


struct Loaded {
  Api api{};
  bool driver = false, nvrtc = false, cublas = false, cusolver = false, cufft = false;
  std::string error;
};

void* open_first(std::initializer_list<const char*> names) {
  for (const char* n : names)
    if (void* h = dlopen(n, RTLD_NOW | RTLD_LOCAL)) return h;
  return nullptr;
}

/// dlsym of the first name found (versioned driver symbols first).
template <class F> bool bind(void* lib, F& fn, std::initializer_list<const char*> names) {
  for (const char* n : names)
    if (void* p = dlsym(lib, n)) {
      fn = reinterpret_cast<F>(p);
      return true;
    }
  return false;
}

Loaded load() {
  Loaded L;
  Api& a = L.api;
  if (options().device == DeviceOption::Cpu || options().device == DeviceOption::Vulkan) {
    L.error = options().device == DeviceOption::Cpu ? "MATFUSE_DEVICE=cpu" : "MATFUSE_DEVICE=vulkan";
    return L;
  }
  void* drv = open_first({"libcuda.so.1", "libcuda.so"});
  if (!drv) {
    L.error = "no CUDA driver (libcuda.so.1 not found)";
    return L;
  }
  bool ok = true;
  ok &= bind(drv, a.cuInit, {"cuInit"});
  ok &= bind(drv, a.cuDriverGetVersion, {"cuDriverGetVersion"});
  ok &= bind(drv, a.cuDeviceGetCount, {"cuDeviceGetCount"});
  ok &= bind(drv, a.cuDeviceGet, {"cuDeviceGet"});
  ok &= bind(drv, a.cuDeviceGetName, {"cuDeviceGetName"});
  ok &= bind(drv, a.cuDeviceGetAttribute, {"cuDeviceGetAttribute"});
  ok &= bind(drv, a.cuDeviceTotalMem, {"cuDeviceTotalMem_v2", "cuDeviceTotalMem"});
  ok &= bind(drv, a.cuDevicePrimaryCtxRetain, {"cuDevicePrimaryCtxRetain"});
  ok &= bind(drv, a.cuCtxSetCurrent, {"cuCtxSetCurrent"});
  ok &= bind(drv, a.cuCtxSynchronize, {"cuCtxSynchronize"});
  ok &= bind(drv, a.cuStreamCreate, {"cuStreamCreate"});
  ok &= bind(drv, a.cuStreamSynchronize, {"cuStreamSynchronize"});
  ok &= bind(drv, a.cuDeviceGetDefaultMemPool, {"cuDeviceGetDefaultMemPool"});
  ok &= bind(drv, a.cuMemPoolSetAttribute, {"cuMemPoolSetAttribute"});
  ok &= bind(drv, a.cuMemAllocAsync, {"cuMemAllocAsync"});
  ok &= bind(drv, a.cuMemFreeAsync, {"cuMemFreeAsync"});
  ok &= bind(drv, a.cuMemGetInfo, {"cuMemGetInfo_v2", "cuMemGetInfo"});
  ok &= bind(drv, a.cuMemcpyHtoDAsync, {"cuMemcpyHtoDAsync_v2", "cuMemcpyHtoDAsync"});
  ok &= bind(drv, a.cuMemcpyDtoHAsync, {"cuMemcpyDtoHAsync_v2", "cuMemcpyDtoHAsync"});
  ok &= bind(drv, a.cuMemcpyDtoDAsync, {"cuMemcpyDtoDAsync_v2", "cuMemcpyDtoDAsync"});
  ok &= bind(drv, a.cuMemsetD32Async, {"cuMemsetD32Async"});
  ok &= bind(drv, a.cuModuleLoadData, {"cuModuleLoadData"});
  ok &= bind(drv, a.cuModuleGetFunction, {"cuModuleGetFunction"});
  ok &= bind(drv, a.cuLaunchKernel, {"cuLaunchKernel"});
  ok &= bind(drv, a.cuEventCreate, {"cuEventCreate"});
  ok &= bind(drv, a.cuEventRecord, {"cuEventRecord"});
  ok &= bind(drv, a.cuEventSynchronize, {"cuEventSynchronize"});
  ok &= bind(drv, a.cuEventElapsedTime, {"cuEventElapsedTime_v2", "cuEventElapsedTime"});
  ok &= bind(drv, a.cuEventDestroy, {"cuEventDestroy_v2", "cuEventDestroy"});
  ok &= bind(drv, a.cuGetErrorString, {"cuGetErrorString"});
  bind(drv, a.cuMemHostRegister, {"cuMemHostRegister_v2", "cuMemHostRegister"});
  bind(drv, a.cuMemHostUnregister, {"cuMemHostUnregister"});
  if (!ok) {
    L.error = "the CUDA driver lacks an entry point matfuse needs (driver too old)";
    return L;
  }
  L.driver = true;

  void* rtc = open_first({"libnvrtc.so", "libnvrtc.so.13", "libnvrtc.so.12"});
  if (rtc) {
    bool r = true;
    r &= bind(rtc, a.nvrtcVersion, {"nvrtcVersion"});
    r &= bind(rtc, a.nvrtcCreateProgram, {"nvrtcCreateProgram"});
    r &= bind(rtc, a.nvrtcCompileProgram, {"nvrtcCompileProgram"});
    r &= bind(rtc, a.nvrtcGetProgramLogSize, {"nvrtcGetProgramLogSize"});
    r &= bind(rtc, a.nvrtcGetProgramLog, {"nvrtcGetProgramLog"});
    r &= bind(rtc, a.nvrtcGetCUBINSize, {"nvrtcGetCUBINSize"});
    r &= bind(rtc, a.nvrtcGetCUBIN, {"nvrtcGetCUBIN"});
    r &= bind(rtc, a.nvrtcDestroyProgram, {"nvrtcDestroyProgram"});
    r &= bind(rtc, a.nvrtcGetErrorString, {"nvrtcGetErrorString"});
    L.nvrtc = r;
  }
  if (!L.nvrtc) L.error = "NVRTC (libnvrtc.so) not found: fused kernels stay on the host";

  void* blas = open_first({"libcublas.so", "libcublas.so.13", "libcublas.so.12"});
  if (blas) {
    bool r = true;
    r &= bind(blas, a.cublasCreate, {"cublasCreate_v2"});
    r &= bind(blas, a.cublasSetStream, {"cublasSetStream_v2"});
    r &= bind(blas, a.cublasSetMathMode, {"cublasSetMathMode"});
    r &= bind(blas, a.cublasSgemm, {"cublasSgemm_v2"});
    r &= bind(blas, a.cublasDgemm, {"cublasDgemm_v2"});
    bind(blas, a.cublasSsyrk, {"cublasSsyrk_v2"});  // optional
    bind(blas, a.cublasDsyrk, {"cublasDsyrk_v2"});
    bind(blas, a.cublasSgemv, {"cublasSgemv_v2"});
    bind(blas, a.cublasDgemv, {"cublasDgemv_v2"});
    L.cublas = r;
  }
  if (!L.cublas && L.error.empty())
    L.error = "cuBLAS (libcublas.so) not found: matrix products stay on the host";
  if (L.cublas) {
    bool r = true;
    r &= bind(blas, a.cublasStrsm, {"cublasStrsm_v2"});
    r &= bind(blas, a.cublasDtrsm, {"cublasDtrsm_v2"});
    r &= bind(blas, a.cublasSgeam, {"cublasSgeam"});
    r &= bind(blas, a.cublasDgeam, {"cublasDgeam"});
    void* sol = r ? open_first({"libcusolver.so", "libcusolver.so.12", "libcusolver.so.11"})
                  : nullptr;
    if (sol) {
#define MF_SOLVER(name) r &= bind(sol, a.name, {#name});
      MF_CUSOLVER_ENTRIES(MF_SOLVER)
#undef MF_SOLVER
      L.cusolver = r;
    }
  }

  // cuFFT 11.x ships with CUDA 12, cuFFT 12.x with CUDA 13.
  void* fft = open_first({"libcufft.so", "libcufft.so.12", "libcufft.so.11"});
  if (fft) {
    bool r = true;
    r &= bind(fft, a.cufftCreate, {"cufftCreate"});
    r &= bind(fft, a.cufftMakePlanMany64, {"cufftMakePlanMany64"});
    r &= bind(fft, a.cufftSetStream, {"cufftSetStream"});
    r &= bind(fft, a.cufftExecC2C, {"cufftExecC2C"});
    r &= bind(fft, a.cufftExecR2C, {"cufftExecR2C"});
    r &= bind(fft, a.cufftExecC2R, {"cufftExecC2R"});
    r &= bind(fft, a.cufftExecZ2Z, {"cufftExecZ2Z"});
    r &= bind(fft, a.cufftExecD2Z, {"cufftExecD2Z"});
    r &= bind(fft, a.cufftExecZ2D, {"cufftExecZ2D"});
    r &= bind(fft, a.cufftDestroy, {"cufftDestroy"});
    L.cufft = r;
  }
  return L;
}

const Loaded& loaded() {
  static const Loaded L = load();
  return L;
}

}  // namespace

const Api* api() { return loaded().driver ? &loaded().api : nullptr; }
const std::string& load_error() { return loaded().error; }
bool have_nvrtc() { return loaded().nvrtc; }
bool have_cublas() { return loaded().cublas; }
bool have_cusolver() { return loaded().cusolver; }

std::vector<const char*> cusolver_entry_names() {
#define MF_NAME(name) #name,
  return {MF_CUSOLVER_ENTRIES(MF_NAME)};
#undef MF_NAME
}
bool have_cufft() { return loaded().cufft; }

std::string error_text(CUresult r) {
  const char* s = nullptr;
  if (const Api* a = api()) a->cuGetErrorString(r, &s);
  return "CUDA error " + std::to_string(r) + (s ? std::string(": ") + s : std::string());
}

}  // namespace matfuse::cuda
