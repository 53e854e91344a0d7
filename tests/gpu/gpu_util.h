// Helpers for the GPU tests (ctest label `gpu`): run MATLAB code with placement forced to the
// host or the device and compare the results.
#pragma once

#include <gtest/gtest.h>

#include <cstring>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "accel/capture/lazy.h"
#include "accel/plan/placement.h"
#include "accel/run/telemetry.h"
#include "interp_test_util.h"
#include "providers/cuda/cuda_device.h"

namespace matfuse::gputest {

/// Skips the test when no CUDA device is usable (CI machines).
#define MATFUSE_REQUIRE_GPU()                                                            \
  do {                                                                                   \
    if (!::matfuse::cuda::Device::get())                                                 \
      GTEST_SKIP() << "no CUDA device: " << ::matfuse::cuda::Device::unavailable_reason(); \
  } while (0)

/// Host values of named variables after running code, and the groups that ran.
struct ScriptRun {
  std::map<std::string, Tensor> vars;
  std::vector<accel::GroupRecord> groups;
  /// Groups of fusion_kind `kind` that ran on provider `provider` ("cuda", "host").
  int count(const std::string& kind, const std::string& provider) const {
    int n = 0;
    for (const auto& g : groups)
      if (g.fusion_kind == kind && g.provider == provider) ++n;
    return n;
  }
  std::string summary() const {
    std::string s;
    for (const auto& g : groups)
      s += g.fusion_kind + "@" + g.provider + "(" + g.placement +
           (g.fallback.empty() ? "" : "; fallback: " + g.fallback) + ") ";
    return s;
  }
};

/// Runs code in a fresh interpreter with placement forced to mode; reads every variable in
/// `names` (forcing and gathering it inside the same mode).
inline ScriptRun run_in(accel::DeviceMode mode, const std::string& code,
                        const std::vector<std::string>& names) {
  accel::set_device_mode(mode);
  accel::telemetry().clear();
  ScriptRun r;
  {
    test::Snippet s;
    s(code);
    for (const std::string& n : names) {
      const Value* v = s.in.base_var(n);
      if (!v) {
        ADD_FAILURE() << "no variable " << n;
        continue;
      }
      Tensor t = v->tensor();
      (void)t.raw();
      r.vars[n] = t;
    }
  }
  for (const auto& e : accel::telemetry().snapshot())
    for (const auto& g : e.groups) r.groups.push_back(g);
  accel::set_device_mode(accel::DeviceMode::Auto);
  return r;
}

/// Bitwise equality of class, size, complexity and bytes.
inline ::testing::AssertionResult bitwise_equal(const Tensor& a, const Tensor& b) {
  if (a.cls() != b.cls() || a.dims() != b.dims() || a.is_complex() != b.is_complex())
    return ::testing::AssertionFailure()
           << "class/size differ: " << class_name(a.cls()) << " " << a.dims().str() << " vs "
           << class_name(b.cls()) << " " << b.dims().str();
  const size_t bytes = static_cast<size_t>(a.numel()) * a.elem_bytes();
  if (bytes && std::memcmp(a.raw(), b.raw(), bytes) != 0) {
    for (int64_t i = 0; i < a.numel(); ++i)
      if (a.get_double(i) != b.get_double(i) &&
          !(a.get_double(i) != a.get_double(i) && b.get_double(i) != b.get_double(i)))
        return ::testing::AssertionFailure() << "element " << i << ": " << a.get_double(i)
                                             << " vs " << b.get_double(i);
    return ::testing::AssertionFailure() << "bytes differ (NaN payload or -0)";
  }
  return ::testing::AssertionSuccess();
}

/// |a - b| <= tol * max(1, max|b|) elementwise (matrix products: summation order differs).
inline ::testing::AssertionResult near_equal(const Tensor& a, const Tensor& b, double tol) {
  if (a.cls() != b.cls() || a.dims() != b.dims())
    return ::testing::AssertionFailure() << "class/size differ";
  double scale = 1;
  for (int64_t i = 0; i < b.numel(); ++i) scale = std::max(scale, std::abs(b.get_double(i)));
  for (int64_t i = 0; i < a.numel(); ++i)
    if (!(std::abs(a.get_double(i) - b.get_double(i)) <= tol * scale))
      return ::testing::AssertionFailure() << "element " << i << ": " << a.get_double(i)
                                           << " vs " << b.get_double(i);
  return ::testing::AssertionSuccess();
}

/// Runs code on the host and on the device; asserts every variable in `exact` is bitwise equal
/// and every variable in `approx` within tol; returns the device run (for kind checks).
/// The host run and the device run of code, every variable in `exact` asserted bitwise equal
/// and every variable in `approx` within tol.
inline std::pair<ScriptRun, ScriptRun> host_and_device_runs(const std::string& code,
                                                            const std::vector<std::string>& exact,
                                                            const std::vector<std::string>& approx,
                                                            double tol) {
  std::vector<std::string> all = exact;
  all.insert(all.end(), approx.begin(), approx.end());
  ScriptRun h = run_in(accel::DeviceMode::Cpu, code, all);
  ScriptRun d = run_in(accel::DeviceMode::Gpu, code, all);
  for (const auto& n : exact)
    EXPECT_TRUE(bitwise_equal(d.vars[n], h.vars[n])) << n << " in:\n" << code;
  for (const auto& n : approx)
    EXPECT_TRUE(near_equal(d.vars[n], h.vars[n], tol)) << n << " in:\n" << code;
  return {std::move(h), std::move(d)};
}

inline ScriptRun compare_host_device(const std::string& code,
                                     const std::vector<std::string>& exact,
                                     const std::vector<std::string>& approx = {},
                                     double tol = 0) {
  auto [h, d] = host_and_device_runs(code, exact, approx, tol);
  EXPECT_EQ(h.count("elementwise", "cuda") + h.count("reduction", "cuda"), 0) << h.summary();
  return d;
}

}  // namespace matfuse::gputest
