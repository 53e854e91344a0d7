// The CUDA libraries matfuse uses, loaded at run time (DESIGN.md decision 10).
//
// matfuse is built without the CUDA toolkit: this header declares the few driver API, NVRTC,
// cuBLAS and cuFFT entry points it calls (their C ABI is stable across CUDA 12 and 13), and
// load() opens libcuda.so.1, libnvrtc, libcublas and libcufft with dlopen on first use. The same binary therefore runs
// on a machine without a GPU or driver, where available() is false and the host provider runs
// everything.
//
// Sources: CUDA Driver API, NVRTC, cuBLAS and cuSOLVER reference manuals (function signatures,
// enum values of CU_DEVICE_ATTRIBUTE_*, CU_MEMPOOL_ATTR_RELEASE_THRESHOLD, cublasOperation_t,
// cublasMath_t, cublasFillMode_t, cublasSideMode_t, cublasDiagType_t, cusolverEigMode_t; the
// cuSOLVER dense (cusolverDn) legacy API of section 2.4: <t>getrf, <t>getrs, <t>potrf, <t>potrs,
// <t>geqrf, <t>ormqr, <t>orgqr, <t>syevd, <t>gesvd and their _bufferSize queries).
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
#include <vector>

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
struct cusolverDnContext;
using cusolverDnHandle_t = cusolverDnContext*;
using cusolverStatus_t = int;
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
constexpr int CUBLAS_FILL_MODE_LOWER = 0, CUBLAS_FILL_MODE_UPPER = 1;
constexpr int CUBLAS_DEFAULT_MATH = 0, CUBLAS_PEDANTIC_MATH = 2, CUBLAS_TF32_TENSOR_OP_MATH = 3;
constexpr int CUBLAS_SIDE_LEFT = 0, CUBLAS_SIDE_RIGHT = 1;
constexpr int CUBLAS_DIAG_NON_UNIT = 0, CUBLAS_DIAG_UNIT = 1;
constexpr int CUSOLVER_EIG_MODE_NOVECTOR = 0, CUSOLVER_EIG_MODE_VECTOR = 1;
constexpr int CUSOLVER_STATUS_ALLOC_FAILED = 2;
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
  // cuBLAS (dense linear algebra helpers)
  cublasStatus_t (*cublasStrsm)(cublasHandle_t, int, int, int, int, int, int, const float*,
                                const float*, int, float*, int);
  cublasStatus_t (*cublasDtrsm)(cublasHandle_t, int, int, int, int, int, int, const double*,
                                const double*, int, double*, int);
  cublasStatus_t (*cublasSgeam)(cublasHandle_t, int, int, int, int, const float*, const float*,
                                int, const float*, const float*, int, float*, int);
  cublasStatus_t (*cublasDgeam)(cublasHandle_t, int, int, int, int, const double*,
                                const double*, int, const double*, const double*, int, double*,
                                int);
  // cuSOLVER dense (legacy 32-bit API); the stream argument is a CUstream (cudaStream_t).
  cusolverStatus_t (*cusolverDnCreate)(cusolverDnHandle_t*);
  cusolverStatus_t (*cusolverDnSetStream)(cusolverDnHandle_t, CUstream);
  cusolverStatus_t (*cusolverDnSgetrf_bufferSize)(cusolverDnHandle_t, int, int, float*, int, int*);
  cusolverStatus_t (*cusolverDnDgetrf_bufferSize)(cusolverDnHandle_t, int, int, double*, int,
                                                  int*);
  cusolverStatus_t (*cusolverDnSgetrf)(cusolverDnHandle_t, int, int, float*, int, float*, int*,
                                       int*);
  cusolverStatus_t (*cusolverDnDgetrf)(cusolverDnHandle_t, int, int, double*, int, double*, int*,
                                       int*);
  cusolverStatus_t (*cusolverDnSgetrs)(cusolverDnHandle_t, int, int, int, const float*, int,
                                       const int*, float*, int, int*);
  cusolverStatus_t (*cusolverDnDgetrs)(cusolverDnHandle_t, int, int, int, const double*, int,
                                       const int*, double*, int, int*);
  cusolverStatus_t (*cusolverDnSpotrf_bufferSize)(cusolverDnHandle_t, int, int, float*, int,
                                                  int*);
  cusolverStatus_t (*cusolverDnDpotrf_bufferSize)(cusolverDnHandle_t, int, int, double*, int,
                                                  int*);
  cusolverStatus_t (*cusolverDnSpotrf)(cusolverDnHandle_t, int, int, float*, int, float*, int,
                                       int*);
  cusolverStatus_t (*cusolverDnDpotrf)(cusolverDnHandle_t, int, int, double*, int, double*, int,
                                       int*);
  cusolverStatus_t (*cusolverDnSpotrs)(cusolverDnHandle_t, int, int, int, const float*, int,
                                       float*, int, int*);
  cusolverStatus_t (*cusolverDnDpotrs)(cusolverDnHandle_t, int, int, int, const double*, int,
                                       double*, int, int*);
  cusolverStatus_t (*cusolverDnSgeqrf_bufferSize)(cusolverDnHandle_t, int, int, float*, int,
                                                  int*);
  cusolverStatus_t (*cusolverDnDgeqrf_bufferSize)(cusolverDnHandle_t, int, int, double*, int,
                                                  int*);
  cusolverStatus_t (*cusolverDnSgeqrf)(cusolverDnHandle_t, int, int, float*, int, float*, float*,
                                       int, int*);
  cusolverStatus_t (*cusolverDnDgeqrf)(cusolverDnHandle_t, int, int, double*, int, double*,
                                       double*, int, int*);
  cusolverStatus_t (*cusolverDnSormqr_bufferSize)(cusolverDnHandle_t, int, int, int, int, int,
                                                  const float*, int, const float*, const float*,
                                                  int, int*);
  cusolverStatus_t (*cusolverDnDormqr_bufferSize)(cusolverDnHandle_t, int, int, int, int, int,
                                                  const double*, int, const double*,
                                                  const double*, int, int*);
  cusolverStatus_t (*cusolverDnSormqr)(cusolverDnHandle_t, int, int, int, int, int, const float*,
                                       int, const float*, float*, int, float*, int, int*);
  cusolverStatus_t (*cusolverDnDormqr)(cusolverDnHandle_t, int, int, int, int, int,
                                       const double*, int, const double*, double*, int, double*,
                                       int, int*);
  cusolverStatus_t (*cusolverDnSorgqr_bufferSize)(cusolverDnHandle_t, int, int, int, const float*,
                                                  int, const float*, int*);
  cusolverStatus_t (*cusolverDnDorgqr_bufferSize)(cusolverDnHandle_t, int, int, int,
                                                  const double*, int, const double*, int*);
  cusolverStatus_t (*cusolverDnSorgqr)(cusolverDnHandle_t, int, int, int, float*, int,
                                       const float*, float*, int, int*);
  cusolverStatus_t (*cusolverDnDorgqr)(cusolverDnHandle_t, int, int, int, double*, int,
                                       const double*, double*, int, int*);
  cusolverStatus_t (*cusolverDnSsyevd_bufferSize)(cusolverDnHandle_t, int, int, int, const float*,
                                                  int, const float*, int*);
  cusolverStatus_t (*cusolverDnDsyevd_bufferSize)(cusolverDnHandle_t, int, int, int,
                                                  const double*, int, const double*, int*);
  cusolverStatus_t (*cusolverDnSsyevd)(cusolverDnHandle_t, int, int, int, float*, int, float*,
                                       float*, int, int*);
  cusolverStatus_t (*cusolverDnDsyevd)(cusolverDnHandle_t, int, int, int, double*, int, double*,
                                       double*, int, int*);
  cusolverStatus_t (*cusolverDnSgesvd_bufferSize)(cusolverDnHandle_t, int, int, int*);
  cusolverStatus_t (*cusolverDnDgesvd_bufferSize)(cusolverDnHandle_t, int, int, int*);
  cusolverStatus_t (*cusolverDnSgesvd)(cusolverDnHandle_t, signed char, signed char, int, int,
                                       float*, int, float*, float*, int, float*, int, float*, int,
                                       float*, int*);
  cusolverStatus_t (*cusolverDnDgesvd)(cusolverDnHandle_t, signed char, signed char, int, int,
                                       double*, int, double*, double*, int, double*, int, double*,
                                       int, double*, int*);
  // cuBLAS, optional (null when absent: the provider then uses gemm): symmetric rank-k
  // product (uplo, trans, n, k, alpha, A, lda, beta, C, ldc) and matrix-vector product
  // (trans, m, n, alpha, A, lda, x, incx, beta, y, incy).
  cublasStatus_t (*cublasSsyrk)(cublasHandle_t, int, int, int, int, const float*, const float*,
                                int, const float*, float*, int);
  cublasStatus_t (*cublasDsyrk)(cublasHandle_t, int, int, int, int, const double*,
                                const double*, int, const double*, double*, int);
  cublasStatus_t (*cublasSgemv)(cublasHandle_t, int, int, int, const float*, const float*, int,
                                const float*, int, const float*, float*, int);
  cublasStatus_t (*cublasDgemv)(cublasHandle_t, int, int, int, const double*, const double*,
                                int, const double*, int, const double*, double*, int);
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
/// Whether cuSOLVER (libcusolver) and the cuBLAS entries it is paired with (trsm, geam) were
/// found: the dense linear algebra of LibraryCall::Solve.
bool have_cusolver();
/// The cuSOLVER symbols load() binds (tests check them against an installed libcusolver).
std::vector<const char*> cusolver_entry_names();
/// Whether cuFFT (FFT library calls) was found.
bool have_cufft();

/// Text of a driver error code ("CUDA_ERROR_OUT_OF_MEMORY: out of memory").
std::string error_text(CUresult r);

}  // namespace matfuse::cuda
