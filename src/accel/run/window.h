// Moving-window statistics at the acceleration level: the builtins' entry to the providers'
// WindowCall library entry (provider.h), so builtins never see a provider.
//
// moving_window() runs movsum/movmean/movvar/movstd/movmax/movmin with MATLAB's default options
// ('shrink' ends, 'includenan') on a device provider when placement says so: the input already
// lives on the device (or is a pending value placed there), or it is large enough that the
// device's estimate, upload included, beats the host's O(n) estimate. Otherwise it returns
// nullopt and the builtin runs its host algorithm. A device result stays on the device. Each
// device call adds a `window` group to the telemetry (--profile).
#pragma once

#include <cstdint>
#include <optional>

#include "runtime/tensor.h"

namespace matfuse::accel {

enum class WindowKind : uint8_t { Sum, Mean, Var, Std, Max, Min };

/// Statistic `kind` over windows of kb elements behind and kf ahead along 0-based dim of x
/// (class double or single, real; the result has x's class and dims); w: var/std
/// normalization (0: count - 1, 1: count). nullopt: the host should compute it.
std::optional<Tensor> moving_window(WindowKind kind, const Tensor& x, int dim, int64_t kb,
                                    int64_t kf, int w);

}  // namespace matfuse::accel
