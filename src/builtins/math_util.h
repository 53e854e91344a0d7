// Helpers shared by the math_*.cc and arrays_*.cc builtin files (the "math" and "arrays"
// families): argument checks, calls to other builtins, and index maps for implicit expansion.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "builtins/registry.h"
#include "runtime/value.h"

namespace matfuse::mathutil {

/// Calls registered builtin `name` with args and returns its first output (so composite
/// functions such as sec = 1./cos reuse the elementwise ops, their class rules and lazy capture).
Value call1(CallContext& ctx, const char* name, std::vector<Value> args);

/// Throws MATLAB:UndefinedFunction ("Undefined function 'fname' for input arguments of type
/// 'cls'.").
[[noreturn]] void undefined_for(const char* fname, const Value& v);

/// The floating-point tensor of a double/single argument; char and logical become double.
/// Integer classes, cells, structs, ... throw MATLAB:UndefinedFunction. Complex input throws
/// MATLAB:<fname>:notFullReal unless allow_complex.
Tensor float_arg(const Value& v, const char* fname, bool allow_complex = false);

/// A real tensor of x's class (double or single) with f applied to every element (in double).
template <class F> Tensor map_real(const Tensor& x, F f) {
  Tensor r = Tensor::uninit(x.cls(), x.dims());
  const int64_t n = x.numel();
  if (x.cls() == ClassId::Single) {
    const float* s = x.data<float>();
    float* d = r.mutable_data<float>();
    for (int64_t i = 0; i < n; ++i) d[i] = static_cast<float>(f(static_cast<double>(s[i])));
  } else {
    const double* s = x.data<double>();
    double* d = r.mutable_data<double>();
    for (int64_t i = 0; i < n; ++i) d[i] = f(s[i]);
  }
  return r;
}

/// 0-based dimension from a dim argument (positive integer scalar), else
/// MATLAB:getdimarg:dimensionMustBePositiveInteger.
int dim_arg(const Value& v);
/// 0-based first dimension whose size is not 1 (0 when all are 1).
int first_nonsingleton(const Dims& d);

/// Source index (linear, 0-based) into an array of dims `in` for every element of `out`, where
/// `in` broadcasts to `out` (each dimension equal to out's or 1).
std::vector<int64_t> broadcast_map(const Dims& in, const Dims& out);

/// Every element of v as double (v numeric, logical or char; else MATLAB:UndefinedFunction).
std::vector<double> doubles_of(const Value& v, const char* fname);

/// True when d is an integer value (finite, no fraction).
bool is_int_value(double d);

}  // namespace matfuse::mathutil
