// The CUDA libraries matfuse uses, loaded at run time (DESIGN.md decision 10).
//
// matfuse is built without the CUDA toolkit: this header declares the few driver API, NVRTC,
// cuBLAS and cuFFT entry points it calls (their C ABI is stable across CUDA 12 and 13), and
// load() opens libcuda.so.1, libnvrtc, libcublas and libcufft with dlopen on first use. The same binary therefore runs
// on a machine without a GPU or driver, where available() is false and the host provider runs
// everything.
//
// Sources: CUDA Driver API, NVRTC and cuBLAS reference manuals (function signatures, enum values
// of CU_DEVICE_ATTRIBUTE_*, CU_MEMPOOL_ATTR_RELEASE_THRESHOLD, cublasOperation_t,
// cublasMath_t); the cuFFT API reference (cufftCreate, cufftMakePlanMany64 and its advanced
// data layout, cufftSetStream, cufftExec*, cufftDestroy; cufftType values CUFFT_R2C 0x2a,
// CUFFT_C2R 0x2c, CUFFT_C2C 0x29, CUFFT_D2Z 0x6a, CUFFT_Z2D 0x6c, CUFFT_Z2Z 0x69; directions
// CUFFT_FORWARD -1, CUFFT_INVERSE 1).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

namespace matfuse::cuda {

using CUresult = int;
using CUdevice = int;
using CUdeviceptr = unsigned long long;
struct CUctx_st;
using CUcontext = CUctx_st*;
struct CUstream_st;
using CUstream = CUstream_st*;
struct CUmod_st;
using CUmodule = CUmod_st*;
struct CUfunc_st;
using CUfunction = CUfunc_st*;
struct CUevent_st;
using CUevent = CUevent_st*;
struct CUmemPoolHandle_st;
using CUmemoryPool = CUmemPoolHandle_st*;
struct _nvrtcProgram;
using nvrtcProgram = _nvrtcProgram*;
using nvrtcResult = int;
struct cublasContext;
using cublasHandle_t = cublasContext*;
using cublasStatus_t = int;
using cufftHandle = int;
using cufftResult = int;

constexpr CUresult CUDA_SUCCESS = 0;
constexpr CUresult CUDA_ERROR_OUT_OF_MEMORY = 2;
constexpr int CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK = 1;
constexpr int CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT = 16;
constexpr int CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR = 75;
constexpr int CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR = 76;
constexpr int CU_DEVICE_ATTRIBUTE_MEMORY_CLOCK_RATE = 36;
constexpr int CU_DEVICE_ATTRIBUTE_GLOBAL_MEMORY_BUS_WIDTH = 37;
constexpr int CU_MEMPOOL_ATTR_RELEASE_THRESHOLD = 4;
constexpr unsigned CU_STREAM_NON_BLOCKING = 1;
constexpr int CUBLAS_OP_N = 0, CUBLAS_OP_T = 1;
constexpr int CUBLAS_DEFAULT_MATH = 0, CUBLAS_PEDANTIC_MATH = 2, CUBLAS_TF32_TENSOR_OP_MATH = 3;
constexpr int CUFFT_R2C = 0x2a, CUFFT_C2R = 0x2c, CUFFT_C2C = 0x29;
constexpr int CUFFT_D2Z = 0x6a, CUFFT_Z2D = 0x6c, CUFFT_Z2Z = 0x69;
constexpr int CUFFT_FORWARD = -1, CUFFT_INVERSE = 1;

/// Entry points; null members were not found (only the required ones make available() true).
struct Api {
  // driver
  CUresult (*cuInit)(unsigned);
  CUresult (*cuDriverGetVersion)(int*);
  CUresult (*cuDeviceGetCount)(int*);
  CUresult (*cuDeviceGet)(CUdevice*, int);
  CUresult (*cuDeviceGetName)(char*, int, CUdevice);
  CUresult (*cuDeviceGetAttribute)(int*, int, CUdevice);
  CUresult (*cuDeviceTotalMem)(size_t*, CUdevice);
  CUresult (*cuDevicePrimaryCtxRetain)(CUcontext*, CUdevice);
  CUresult (*cuCtxSetCurrent)(CUcontext);
  CUresult (*cuCtxSynchronize)();
  CUresult (*cuStreamCreate)(CUstream*, unsigned);
  CUresult (*cuStreamSynchronize)(CUstream);
  CUresult (*cuDeviceGetDefaultMemPool)(CUmemoryPool*, CUdevice);
  CUresult (*cuMemPoolSetAttribute)(CUmemoryPool, int, void*);
  CUresult (*cuMemAllocAsync)(CUdeviceptr*, size_t, CUstream);
  CUresult (*cuMemFreeAsync)(CUdeviceptr, CUstream);
  CUresult (*cuMemGetInfo)(size_t*, size_t*);
  CUresult (*cuMemcpyHtoDAsync)(CUdeviceptr, const void*, size_t, CUstream);
  CUresult (*cuMemcpyDtoHAsync)(void*, CUdeviceptr, size_t, CUstream);
  CUresult (*cuMemcpyDtoDAsync)(CUdeviceptr, CUdeviceptr, size_t, CUstream);
  CUresult (*cuMemsetD32Async)(CUdeviceptr, unsigned, size_t, CUstream);
  CUresult (*cuModuleLoadData)(CUmodule*, const void*);
  CUresult (*cuModuleGetFunction)(CUfunction*, CUmodule, const char*);
  CUresult (*cuLaunchKernel)(CUfunction, unsigned, unsigned, unsigned, unsigned, unsigned,
                             unsigned, unsigned, CUstream, void**, void**);
  CUresult (*cuEventCreate)(CUevent*, unsigned);
  CUresult (*cuEventRecord)(CUevent, CUstream);
  CUresult (*cuEventSynchronize)(CUevent);
  CUresult (*cuEventElapsedTime)(float*, CUevent, CUevent);
  CUresult (*cuEventDestroy)(CUevent);
  CUresult (*cuGetErrorString)(CUresult, const char**);
  CUresult (*cuMemHostRegister)(void*, size_t, unsigned);
  CUresult (*cuMemHostUnregister)(void*);
  // NVRTC
  nvrtcResult (*nvrtcVersion)(int*, int*);
  nvrtcResult (*nvrtcCreateProgram)(nvrtcProgram*, const char*, const char*, int,
                                    const char* const*, const char* const*);
  nvrtcResult (*nvrtcCompileProgram)(nvrtcProgram, int, const char* const*);
  nvrtcResult (*nvrtcGetProgramLogSize)(nvrtcProgram, size_t*);
  nvrtcResult (*nvrtcGetProgramLog)(nvrtcProgram, char*);
  nvrtcResult (*nvrtcGetCUBINSize)(nvrtcProgram, size_t*);
  nvrtcResult (*nvrtcGetCUBIN)(nvrtcProgram, char*);
  nvrtcResult (*nvrtcDestroyProgram)(nvrtcProgram*);
  const char* (*nvrtcGetErrorString)(nvrtcResult);
  // cuBLAS
  cublasStatus_t (*cublasCreate)(cublasHandle_t*);
  cublasStatus_t (*cublasSetStream)(cublasHandle_t, CUstream);
  cublasStatus_t (*cublasSetMathMode)(cublasHandle_t, int);
  cublasStatus_t (*cublasSgemm)(cublasHandle_t, int, int, int, int, int, const float*,
                                const float*, int, const float*, int, const float*, float*, int);
  cublasStatus_t (*cublasDgemm)(cublasHandle_t, int, int, int, int, int, const double*,
                                const double*, int, const double*, int, const double*, double*,
                                int);
  // cuFFT
  cufftResult (*cufftCreate)(cufftHandle*);
  cufftResult (*cufftMakePlanMany64)(cufftHandle, int, long long*, long long*, long long,
                                     long long, long long*, long long, long long, int, long long,
                                     size_t*);
  cufftResult (*cufftSetStream)(cufftHandle, CUstream);
  cufftResult (*cufftExecC2C)(cufftHandle, void*, void*, int);
  cufftResult (*cufftExecR2C)(cufftHandle, float*, void*);
  cufftResult (*cufftExecC2R)(cufftHandle, void*, float*);
  cufftResult (*cufftExecZ2Z)(cufftHandle, void*, void*, int);
  cufftResult (*cufftExecD2Z)(cufftHandle, double*, void*);
  cufftResult (*cufftExecZ2D)(cufftHandle, void*, double*);
  cufftResult (*cufftDestroy)(cufftHandle);
};

/// The loaded entry points (loads on first call; never throws). Null when the driver library
/// is missing.
const Api* api();
/// Why api() is null or NVRTC/cuBLAS are missing ("" when everything loaded).
const std::string& load_error();
/// Whether NVRTC (kernels) and cuBLAS (matrix products) were found.
bool have_nvrtc();
bool have_cublas();
/// Whether cuFFT (FFT library calls) was found.
bool have_cufft();

/// Text of a driver error code ("CUDA_ERROR_OUT_OF_MEMORY: out of memory").
std::string error_text(CUresult r);

}  // namespace matfuse::cuda
