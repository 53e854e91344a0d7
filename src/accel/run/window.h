// Moving-window statistics and cumulative sums at the acceleration level: the builtins' entry
// to the providers' WindowCall and ScanCall library entries (provider.h), so builtins never see
// a provider.
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

/// Lanes below which cumulative_sum leaves long lanes to the host (one device thread per lane).
inline constexpr int64_t kScanMinLanes = 64;
/// Lane length one device thread sums quickly enough whatever the number of lanes.
inline constexpr int64_t kScanMaxSerial = 4096;

/// cumsum(x, dim) ('reverse' when reverse, 'omitnan' when omitnan) of real double or single x
/// that lives on a device (or is a pending value placed there), on that device, with the
/// host's bits (provider.h ScanCall); the result stays on the device and adds a `scan` group to
/// the telemetry. nullopt (the builtin's host loop runs) for host-resident or other data, and
/// for fewer than kScanMinLanes lanes longer than kScanMaxSerial.
std::optional<Tensor> cumulative_sum(const Tensor& x, int dim, bool reverse, bool omitnan);

}  // namespace matfuse::accel
