// MATLAB's gpuArray flag: helpers shared by the GPU builtins (gpu.cc), the operators and the
// interpreter's call path (DESIGN.md decision 12).
//
// gpuArray-ness is a user-visible property of a value (Tensor::gpu_array), separate from
// residency: plain scripts run on the device automatically and keep class double/single, while
// a flagged value reads class 'gpuArray' and makes the functions it is passed to return
// gpuArrays too (MATLAB: "functions of gpuArrays return gpuArrays"). Without a device a flagged
// value is host-backed and behaves identically except for existsOnGPU.
#pragma once

#include <string_view>

#include "builtins/registry.h"

namespace matfuse {

/// v with the gpuArray flag set when it is numeric or logical (Scalar kind becomes a flagged
/// 1x1 Array); other kinds (char, cell, struct, string ...) are returned unchanged.
Value mark_gpu(Value v);
/// v with the flag cleared (same values, no gather; a flagged 1x1 double becomes Scalar kind).
Value strip_gpu(const Value& v);
/// Whether any argument is a flagged gpuArray (cheap: no tensor copies).
inline bool any_gpu(Args args) {
  for (const Value& a : args)
    if (a.is_gpu_array()) return true;
  return false;
}
/// Whether builtin `name` returns gpuArrays for gpuArray inputs: false for introspection and
/// query builtins (size, class, isa, isreal, isequal, gather ...) and for output sinks.
bool gpu_propagates(std::string_view name);
/// Whether builtin `name` accepts a trailing 'gpuArray' type name (zeros, ones, rand, randn,
/// randi, eye, true, false, Inf, NaN, cast ...).
bool gpu_typename_builtin(std::string_view name);
/// Whether v is the text 'gpuArray' (case-insensitive, char row or string scalar).
bool is_gpuarray_text(const Value& v);

/// Calls builtin b with MATLAB's gpuArray rules: a trailing 'gpuArray' type name of a
/// constructor is removed and its outputs are flagged; when an input is a gpuArray and b
/// propagates, numeric and logical outputs are flagged. Plain calls go straight to b->fn.
Outputs call_builtin_gpu_aware(const Builtin& b, CallContext& ctx, Args args, int nargout);

}  // namespace matfuse
