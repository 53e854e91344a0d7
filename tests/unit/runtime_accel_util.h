// Shared helpers of the runtime_accel_* tests.
#pragma once

#include <gtest/gtest.h>

#include <cstring>
#include <initializer_list>
#include <random>
#include <string>

#include "accel/capture/graph.h"
#include "runtime/error.h"
#include "runtime/tensor.h"

namespace matfuse::accel::testing {

inline Tensor make(const Dims& d, std::initializer_list<double> v, ClassId cls = ClassId::Double) {
  Tensor t = Tensor::uninit(cls, d);
  int64_t i = 0;
  for (double x : v) t.set_double(i++, x);
  return t;
}

/// Tensor of dims d with values from f(i).
template <class F> Tensor fill(const Dims& d, ClassId cls, F&& f) {
  Tensor t = Tensor::uninit(cls, d);
  for (int64_t i = 0; i < t.numel(); ++i) t.set_double(i, f(i));
  return t;
}

/// Uniform values in [lo, hi) from a seeded generator.
inline Tensor random_tensor(const Dims& d, ClassId cls, uint32_t seed, double lo = -2,
                            double hi = 2) {
  std::mt19937 g(seed);
  std::uniform_real_distribution<double> u(lo, hi);
  return fill(d, cls, [&](int64_t) { return u(g); });
}

/// Same class, dims, complexity and bytes (bitwise equality, NaN payloads included).
inline ::testing::AssertionResult same_bits(const Tensor& a, const Tensor& b) {
  if (a.cls() != b.cls())
    return ::testing::AssertionFailure() << "class " << class_name(a.cls()) << " vs "
                                         << class_name(b.cls());
  if (a.dims() != b.dims())
    return ::testing::AssertionFailure() << "dims " << a.dims().str() << " vs " << b.dims().str();
  if (a.is_complex() != b.is_complex())
    return ::testing::AssertionFailure() << "complexity differs";
  const size_t n = static_cast<size_t>(a.numel() * a.elem_bytes());
  if (n && std::memcmp(a.raw(), b.raw(), n) != 0) {
    for (int64_t i = 0; i < a.numel(); ++i)
      if (a.get_double(i) != b.get_double(i) &&
          !(std::isnan(a.get_double(i)) && std::isnan(b.get_double(i))))
        return ::testing::AssertionFailure()
               << "element " << i << ": " << a.get_double(i) << " vs " << b.get_double(i);
    return ::testing::AssertionFailure() << "bytes differ (signed zeros or NaN payloads)";
  }
  return ::testing::AssertionSuccess();
}

template <class F> std::string error_id(F&& f) {
  try {
    f();
  } catch (const MatlabError& e) {
    return e.identifier();
  }
  return "";
}

}  // namespace matfuse::accel::testing
