// FFT at the acceleration level: the builtins' entry to the providers' FFT library calls
// (provider.h FftCall), so that builtins never see a provider.
//
// fft_lanes() places one batch of transforms like a kernel (DESIGN.md decision 14): every usable
// provider that supports LibraryCall::Fft prices it (Provider::estimate_seconds with the bytes
// it lacks from Provider::resident and about 5 n log2(n) operations per lane), the cheapest runs
// it (MATFUSE_DEVICE=cpu|gpu restricts the choice as for kernels), and a device that raises
// hands it to the host provider. A device result stays on the device (a device-only tensor, no
// gather), so FFT -> elementwise -> inverse FFT chains run there without host trips: the
// elementwise work between the transforms is captured and fused like any other (complex values
// included) and its group is placed where its input lives. Each call adds an `fft` group to the
// telemetry (--profile).
#pragma once

#include <cstdint>

#include "runtime/tensor.h"

namespace matfuse::accel {

/// Transform kinds (provider.h FftCall::Kind has the formulas).
enum class FftKind : uint8_t {
  Forward,           ///< complex x -> complex, unnormalised
  Inverse,           ///< complex x -> complex, scaled by 1/n
  RealForward,       ///< real x -> complex (full conjugate-symmetric spectrum)
  SymmetricInverse,  ///< complex x (conjugate symmetric) -> real, scaled by 1/n
};

/// The transforms of every lane of x along 0-based dimension dim (length n = x.dims()[dim] > 0).
/// x: class double or single (the result has x's class), complex for Forward, Inverse and
/// SymmetricInverse, real for RealForward; lazy values are forced first. Result dims are x's;
/// complex except for SymmetricInverse. May live only on a device. Raises matfuse:notAvailable
/// when no provider has an FFT (a build without FFTW and no device).
Tensor fft_lanes(FftKind kind, const Tensor& x, int dim);

/// Whether every lane of complex x along dim is conjugate symmetric:
/// x(k) == conj(x(mod(n - k, n))) for all k (MATLAB's test before ifft returns a real result).
/// A device-resident x is tested on the device by a fused reduction (only the answer moves).
bool fft_conj_symmetric(const Tensor& x, int dim);
/// The fused-graph form of the same test (what a device-resident x runs; any materialised x).
bool fft_conj_symmetric_graph(const Tensor& x, int dim);

}  // namespace matfuse::accel
