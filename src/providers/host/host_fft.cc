// The host provider's FFT library entry (provider.h FftCall): FFTW's guru interface with plans
// cached by shape, threads for large arrays. Builds without FFTW (MATFUSE_HAVE_FFTW undefined)
// raise matfuse:notAvailable naming the library.
//
// Source: FFTW 3 manual, "Guru Interface" (fftw_plan_guru64_dft, _r2c, _c2r, new-array
// execute functions) and "Multi-threaded FFTW".
#include <algorithm>
#include <complex>
#include <map>
#include <memory>
#include <mutex>
#include <thread>
#include <tuple>

#include "providers/host/host_provider.h"
#include "runtime/error.h"

#ifdef MATFUSE_HAVE_FFTW
#include <fftw3.h>
#endif

namespace matfuse::host {
namespace {

#ifdef MATFUSE_HAVE_FFTW
enum class FftKind { Forward, Backward, R2C, C2R };

/// FFTW's functions for one precision.
template <class R>
struct Fftw;
template <>
struct Fftw<double> {
  using plan = fftw_plan;
  using cplx = fftw_complex;
  using iodim = fftw_iodim64;
  static plan c2c(const iodim* d, const iodim* h, cplx* i, cplx* o, int sign, unsigned f) {
    return fftw_plan_guru64_dft(1, d, 2, h, i, o, sign, f);
  }
  static plan r2c(const iodim* d, const iodim* h, double* i, cplx* o, unsigned f) {
    return fftw_plan_guru64_dft_r2c(1, d, 2, h, i, o, f);
  }
  static plan c2r(const iodim* d, const iodim* h, cplx* i, double* o, unsigned f) {
    return fftw_plan_guru64_dft_c2r(1, d, 2, h, i, o, f);
  }
  static void run_c2c(plan p, cplx* i, cplx* o) { fftw_execute_dft(p, i, o); }
  static void run_r2c(plan p, double* i, cplx* o) { fftw_execute_dft_r2c(p, i, o); }
  static void run_c2r(plan p, cplx* i, double* o) { fftw_execute_dft_c2r(p, i, o); }
  static int align(const void* p) {
    return fftw_alignment_of(static_cast<double*>(const_cast<void*>(p)));
  }
#ifdef MATFUSE_HAVE_FFTW_THREADS
  static void threads(int n) {
    static bool init = fftw_init_threads() != 0;
    if (init) fftw_plan_with_nthreads(n);
  }
#else
  static void threads(int) {}
#endif
};
template <>
struct Fftw<float> {
  using plan = fftwf_plan;
  using cplx = fftwf_complex;
  using iodim = fftwf_iodim64;
  static plan c2c(const iodim* d, const iodim* h, cplx* i, cplx* o, int sign, unsigned f) {
    return fftwf_plan_guru64_dft(1, d, 2, h, i, o, sign, f);
  }
  static plan r2c(const iodim* d, const iodim* h, float* i, cplx* o, unsigned f) {
    return fftwf_plan_guru64_dft_r2c(1, d, 2, h, i, o, f);
  }
  static plan c2r(const iodim* d, const iodim* h, cplx* i, float* o, unsigned f) {
    return fftwf_plan_guru64_dft_c2r(1, d, 2, h, i, o, f);
  }
  static void run_c2c(plan p, cplx* i, cplx* o) { fftwf_execute_dft(p, i, o); }
  static void run_r2c(plan p, float* i, cplx* o) { fftwf_execute_dft_r2c(p, i, o); }
  static void run_c2r(plan p, cplx* i, float* o) { fftwf_execute_dft_c2r(p, i, o); }
  static int align(const void* p) {
    return fftwf_alignment_of(static_cast<float*>(const_cast<void*>(p)));
  }
#ifdef MATFUSE_HAVE_FFTW_THREADS
  static void threads(int n) {
    static bool init = fftwf_init_threads() != 0;
    if (init) fftwf_plan_with_nthreads(n);
  }
#else
  static void threads(int) {}
#endif
};

/// Transforms of length n along one dimension of an array laid out as (stride, n, outer),
/// through FFTW plans cached by (kind, n, stride, outer, in-place, alignments): a plan is made
/// once (FFTW_ESTIMATE; threads for arrays of 2^18 elements and more) and then executed on
/// each call's arrays with FFTW's new-array execute functions. FFTW's planner is not
/// thread-safe: one mutex guards planning and the cache.
template <class R>
void fftw_lanes(FftKind kind, int64_t n, int64_t stride, int64_t outer, void* in, void* out) {
  using F = Fftw<R>;
  using Key = std::tuple<int, int64_t, int64_t, int64_t, bool, int, int>;
  static std::mutex mu;
  static std::map<Key, typename F::plan> cache;
  Key key{static_cast<int>(kind), n, stride, outer, in == out, F::align(in), F::align(out)};
  typename F::plan plan;
  {
    std::lock_guard<std::mutex> lock(mu);
    auto it = cache.find(key);
    if (it == cache.end()) {
      typename F::iodim d{n, stride, stride};
      typename F::iodim h[2] = {{stride, 1, 1}, {outer, stride * n, stride * n}};
      int hw = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
      F::threads(n * stride * outer >= (int64_t{1} << 18) ? hw : 1);
      unsigned flags = FFTW_ESTIMATE;
      auto* ci = static_cast<typename F::cplx*>(in);
      auto* co = static_cast<typename F::cplx*>(out);
      switch (kind) {
        case FftKind::Forward:
          plan = F::c2c(&d, h, ci, co, FFTW_FORWARD, flags);
          break;
        case FftKind::Backward:
          plan = F::c2c(&d, h, ci, co, FFTW_BACKWARD, flags);
          break;
        case FftKind::R2C:
          plan = F::r2c(&d, h, static_cast<R*>(in), co, flags);
          break;
        case FftKind::C2R:
          plan = F::c2r(&d, h, ci, static_cast<R*>(out), flags);
          break;
      }
      if (!plan)
        throw_error("matfuse:fftw", "FFTW could not plan a transform of length %lld.",
                    static_cast<long long>(n));
      it = cache.emplace(key, plan).first;
    }
    plan = it->second;
  }
  switch (kind) {
    case FftKind::Forward:
    case FftKind::Backward:
      F::run_c2c(plan, static_cast<typename F::cplx*>(in), static_cast<typename F::cplx*>(out));
      break;
    case FftKind::R2C:
      F::run_r2c(plan, static_cast<R*>(in), static_cast<typename F::cplx*>(out));
      break;
    case FftKind::C2R:
      F::run_c2r(plan, static_cast<typename F::cplx*>(in), static_cast<R*>(out));
      break;
  }
}

template <class R> void run_fft(const FftCall& f) {
  const int64_t total = f.n * f.stride * f.outer;
  using C = std::complex<R>;
  switch (f.kind) {
    case FftCall::Kind::Forward:
    case FftCall::Kind::Inverse: {
      const bool inv = f.kind == FftCall::Kind::Inverse;
      fftw_lanes<R>(inv ? FftKind::Backward : FftKind::Forward, f.n, f.stride, f.outer,
                    const_cast<void*>(f.in), f.out);  // out of place: FFTW keeps the input
      if (inv) {
        R* o = static_cast<R*>(f.out);
        // MATLAB's 1/n: single multiplies by the rounded reciprocal, double divides.
        if constexpr (std::is_same_v<R, float>) {
          const float s = 1.0f / static_cast<float>(f.n);
          for (int64_t i = 0; i < 2 * total; ++i) o[i] *= s;
        } else {
          for (int64_t i = 0; i < 2 * total; ++i) o[i] /= static_cast<double>(f.n);
        }
      }
      break;
    }
    case FftCall::Kind::RealForward: {
      fftw_lanes<R>(FftKind::R2C, f.n, f.stride, f.outer, const_cast<void*>(f.in), f.out);
      C* o = static_cast<C*>(f.out);
      for (int64_t q = 0; q < f.outer; ++q)
        for (int64_t k = f.n / 2 + 1; k < f.n; ++k) {
          C* dst = o + (q * f.n + k) * f.stride;
          const C* src = o + (q * f.n + (f.n - k)) * f.stride;
          for (int64_t p = 0; p < f.stride; ++p) dst[p] = std::conj(src[p]);
        }
      break;
    }
    case FftCall::Kind::SymmetricInverse: {
      // c2r overwrites its input: transform a copy.
      std::unique_ptr<C[]> scratch(new C[static_cast<size_t>(std::max<int64_t>(total, 1))]);
      std::copy(static_cast<const C*>(f.in), static_cast<const C*>(f.in) + total, scratch.get());
      fftw_lanes<R>(FftKind::C2R, f.n, f.stride, f.outer, scratch.get(), f.out);
      R* o = static_cast<R*>(f.out);
      const R s = R(1) / static_cast<R>(f.n);
      for (int64_t i = 0; i < total; ++i) o[i] *= s;
      break;
    }
  }
}
#endif

}  // namespace

void HostProvider::fft(const FftCall& f) {
  if (f.n <= 0 || f.stride <= 0 || f.outer <= 0) return;
#ifdef MATFUSE_HAVE_FFTW
  if (f.f32)
    run_fft<float>(f);
  else
    run_fft<double>(f);
#else
  throw_error("matfuse:notAvailable", "FFT on the host needs FFTW, which this build lacks.");
#endif
}

}  // namespace matfuse::host
