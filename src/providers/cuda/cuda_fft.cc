// The CUDA provider's FFT library entry (provider.h FftCall) through cuFFT.
//
// - Plans: cufftMakePlanMany64 with the advanced data layout, cached by (type, n, strides,
//   distances, batch) for the life of the process and bound to the device stream, so
//   transforms queue behind the kernels that produce their input and nothing waits.
// - Layout (stride, n, outer): stride 1 is one batched plan (distance n, batch outer); stride
//   > 1 is a plan over the stride interleaved lanes (element stride `stride`, distance 1),
//   executed once per outer block.
// - Real-to-complex writes the n/2 + 1 lower coefficients of each lane in place of the full
//   output; the NVRTC kernel mf_fft_fill then writes Y(k) = conj(Y(n - k)) for k > n/2 (the
//   host provider's conjugate fill, exactly). Complex-to-real overwrites its input (cuFFT
//   manual, "Data layout"), so it reads a packed copy of the lower halves, scaled by 1/n on the
//   way (mf_fft_half). Complex inverses are scaled afterwards as the host provider scales
//   them: single multiplies by the rounded 1/n, double divides by n (mf_fft_scale).
//
// Source: cuFFT API reference (cufftMakePlanMany64, "Advanced Data Layout", cufftExecR2C/C2R
// layouts with n/2 + 1 complex outputs per lane, cufftSetStream).
#include <algorithm>
#include <map>
#include <mutex>
#include <tuple>

#include "providers/cuda/cuda_provider.h"
#include "runtime/error.h"

namespace matfuse::cuda {
namespace {

const char* kFftKernels = R"(
struct alignas(8) mf_c32 { float x, y; };
struct alignas(16) mf_c64 { double x, y; };
template <class C>
__device__ void fill(C* y, long long n, long long stride, long long outer) {
  const long long h = n - n / 2 - 1;
  const long long total = h * stride * outer;
  for (long long t = blockIdx.x * (long long)blockDim.x + threadIdx.x; t < total;
       t += (long long)gridDim.x * blockDim.x) {
    const long long p = t % stride, r = t / stride, k = n / 2 + 1 + r % h, q = r / h;
    C v = y[(q * n + (n - k)) * stride + p];
    v.y = -v.y;
    y[(q * n + k) * stride + p] = v;
  }
}
extern "C" __global__ void mf_fft_fill_f(mf_c32* y, long long n, long long stride,
                                         long long outer) {
  fill(y, n, stride, outer);
}
extern "C" __global__ void mf_fft_fill_d(mf_c64* y, long long n, long long stride,
                                         long long outer) {
  fill(y, n, stride, outer);
}
// The lower n/2 + 1 coefficients of each lane, times s, packed as (stride, n/2 + 1, outer):
// the input of a complex-to-real transform (which overwrites it), with the 1/n folded in.
template <class C, class R>
__device__ void half(const C* x, C* y, long long n, long long stride, long long outer, R s) {
  const long long h = n / 2 + 1;
  const long long total = h * stride * outer;
  for (long long t = blockIdx.x * (long long)blockDim.x + threadIdx.x; t < total;
       t += (long long)gridDim.x * blockDim.x) {
    const long long p = t % stride, r = t / stride, k = r % h, q = r / h;
    C v = x[(q * n + k) * stride + p];
    v.x = v.x * s;
    v.y = v.y * s;
    y[t] = v;
  }
}
extern "C" __global__ void mf_fft_half_f(const mf_c32* x, mf_c32* y, long long n,
                                         long long stride, long long outer, float s) {
  half(x, y, n, stride, outer, s);
}
extern "C" __global__ void mf_fft_half_d(const mf_c64* x, mf_c64* y, long long n,
                                         long long stride, long long outer, double s) {
  half(x, y, n, stride, outer, s);
}
extern "C" __global__ void mf_fft_scale_f(float* y, long long count, float s) {
  for (long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x; i < count;
       i += (long long)gridDim.x * blockDim.x)
    y[i] = y[i] * s;
}
extern "C" __global__ void mf_fft_scale_d(double* y, long long count, double n) {
  for (long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x; i < count;
       i += (long long)gridDim.x * blockDim.x)
    y[i] = y[i] / n;
}
)";

enum Entry { kFillF, kFillD, kScaleF, kScaleD, kHalfF, kHalfD };

const CompiledProgram& fft_kernels(Device& dev) {
  return library_program(dev, kFftKernels, {"mf_fft_fill_f", "mf_fft_fill_d", "mf_fft_scale_f",
                                            "mf_fft_scale_d", "mf_fft_half_f", "mf_fft_half_d"});
}

void launch(Device& dev, Entry e, long long work, void** params) {
  if (work <= 0) return;
  const long long blocks = std::min<long long>((work + 255) / 256,
                                               std::max(1, dev.info().sm_count) * 32LL);
  dev.check(dev.api().cuLaunchKernel(fft_kernels(dev).functions[e],
                                     static_cast<unsigned>(blocks), 1, 1, 256, 1, 1, 0,
                                     dev.stream(), params, nullptr),
            "cuLaunchKernel");
}

using PlanKey = std::tuple<int, long long, long long, long long, long long, long long, long long>;

/// A cached plan of `batch` transforms of length n of cuFFT type `type`.
cufftHandle plan(Device& dev, int type, long long n, long long istride, long long idist,
                 long long ostride, long long odist, long long batch) {
  static std::mutex mu;
  static std::map<PlanKey, cufftHandle> cache;
  const PlanKey key{type, n, istride, idist, ostride, odist, batch};
  std::lock_guard<std::mutex> l(mu);
  auto it = cache.find(key);
  if (it != cache.end()) return it->second;
  const Api& a = dev.api();
  cufftHandle h = 0;
  if (a.cufftCreate(&h) != 0) throw_error("matfuse:cudaError", "cufftCreate failed.");
  long long nn[1] = {n}, inembed[1] = {n}, onembed[1] = {n};
  size_t work = 0;
  const cufftResult r = a.cufftMakePlanMany64(h, 1, nn, inembed, istride, idist, onembed,
                                              ostride, odist, type, batch, &work);
  if (r != 0) {
    a.cufftDestroy(h);
    if (r == 2)  // CUFFT_ALLOC_FAILED
      throw_error("matfuse:gpuOutOfMemory", "Out of memory on the GPU planning an FFT of "
                  "length %lld.", n);
    throw_error("matfuse:cudaError", "cuFFT could not plan a transform of length %lld "
                "(status %d).", n, r);
  }
  a.cufftSetStream(h, dev.stream());
  cache.emplace(key, h);
  return h;
}

}  // namespace

void CudaProvider::fft(const FftCall& f) {
  if (!have_cufft())
    throw_error("matfuse:notAvailable", "GPU FFTs need cuFFT (libcufft.so), which is not "
                "installed.");
  if (f.n <= 0 || f.stride <= 0 || f.outer <= 0) return;
  const Api& a = dev_.api();
  const long long n = f.n, stride = f.stride, outer = f.outer, total = n * stride * outer;
  const size_t rb = f.f32 ? 4 : 8;
  // One plan covers `batch` lanes; `calls` executions at `step` elements apart cover the rest.
  const bool contiguous = stride == 1;
  const long long dist = contiguous ? n : 1, batch = contiguous ? outer : stride;
  const long long calls = contiguous ? 1 : outer, step = contiguous ? 0 : n * stride;
  auto check = [](cufftResult r) {
    if (r != 0) throw_error("matfuse:cudaError", "cuFFT execution failed (status %d).", r);
  };
  auto* in = static_cast<char*>(const_cast<void*>(f.in));
  auto* out = static_cast<char*>(f.out);
  switch (f.kind) {
    case FftCall::Kind::Forward:
    case FftCall::Kind::Inverse: {
      const int dir = f.kind == FftCall::Kind::Forward ? CUFFT_FORWARD : CUFFT_INVERSE;
      const cufftHandle h =
          plan(dev_, f.f32 ? CUFFT_C2C : CUFFT_Z2Z, n, stride, dist, stride, dist, batch);
      for (long long q = 0; q < calls; ++q) {
        void* i = in + q * step * 2 * rb;
        void* o = out + q * step * 2 * rb;
        check(f.f32 ? a.cufftExecC2C(h, i, o, dir) : a.cufftExecZ2Z(h, i, o, dir));
      }
      break;
    }
    case FftCall::Kind::RealForward: {
      const cufftHandle h =
          plan(dev_, f.f32 ? CUFFT_R2C : CUFFT_D2Z, n, stride, dist, stride, dist, batch);
      for (long long q = 0; q < calls; ++q) {
        void* i = in + q * step * rb;
        void* o = out + q * step * 2 * rb;
        check(f.f32 ? a.cufftExecR2C(h, static_cast<float*>(i), o)
                    : a.cufftExecD2Z(h, static_cast<double*>(i), o));
      }
      long long nn = n, ss = stride, oo = outer;
      void* params[] = {&out, &nn, &ss, &oo};
      launch(dev_, f.f32 ? kFillF : kFillD, (n - n / 2 - 1) * stride * outer, params);
      break;
    }
    case FftCall::Kind::SymmetricInverse: {
      // cuFFT's complex-to-real transform reads n/2 + 1 coefficients per lane and overwrites
      // them: it reads a packed copy of the lower halves, scaled by 1/n on the way (so no pass
      // scales the result).
      const long long hn = n / 2 + 1;
      std::unique_ptr<DeviceCopy> copy =
          dev_.allocate(static_cast<size_t>(hn * stride * outer) * 2 * rb);
      void* c = copy->device_ptr();
      {
        long long nn = n, ss = stride, oo = outer;
        float sf = 1.0f / static_cast<float>(n);
        double sd = 1.0 / static_cast<double>(n);
        void* params[] = {&in, &c, &nn, &ss, &oo, f.f32 ? static_cast<void*>(&sf) : &sd};
        launch(dev_, f.f32 ? kHalfF : kHalfD, hn * stride * outer, params);
      }
      const long long hdist = contiguous ? hn : 1, hstep = contiguous ? 0 : hn * stride;
      const cufftHandle h =
          plan(dev_, f.f32 ? CUFFT_C2R : CUFFT_Z2D, n, stride, hdist, stride, dist, batch);
      for (long long q = 0; q < calls; ++q) {
        void* i = static_cast<char*>(c) + q * hstep * 2 * rb;
        void* o = out + q * step * rb;
        check(f.f32 ? a.cufftExecC2R(h, i, static_cast<float*>(o))
                    : a.cufftExecZ2D(h, i, static_cast<double*>(o)));
      }
      break;  // `copy` is freed stream-ordered, after the transforms
    }
  }
  if (f.kind == FftCall::Kind::Inverse) {
    long long count = 2 * total;
    if (f.f32) {
      float s = 1.0f / static_cast<float>(n);
      void* params[] = {&out, &count, &s};
      launch(dev_, kScaleF, count, params);
    } else {
      double dn = static_cast<double>(n);
      void* params[] = {&out, &count, &dn};
      launch(dev_, kScaleD, count, params);
    }
  }
}

}  // namespace matfuse::cuda
