// GLSL compute shaders from the kernel IR for the Vulkan provider (issue 23).
//
// Covered: elementwise and loop kernels (fusion_kind elementwise, loop and the recognised
// labels that lower to them) whose instructions have an exact GLSL rendering: loads, stores of
// every class but 64-bit integers, constants, parameters, element offsets, conversions, class
// casts with MATLAB's saturation, the colon and eye generators, and the ops + - .* ./ .\ ,
// max, min, uminus, comparisons, logical ops, abs, sign, floor, ceil, round, fix, sqrt, real,
// conj, isnan, isinf, isfinite and x.^2; through the GLSL ports of vulkan_math.h, the
// single-precision elementary functions of runtime/mf_math.inc, mod and rem (both precisions),
// rand and randn (runtime/philox.inc, single and double); and linspace. Reduction and
// matrix-product kernels with such instructions render too (vulkan_reduce.cc). Everything else
// (double-precision elementary functions, asinh/acosh/atanh) raises matfuse:codegen, and the
// executor runs the group on the next provider (the host), as --profile reports.
//
// Exactness (DESIGN.md decision 7): every floating temporary is `precise` (SPIR-V
// NoContraction: no FMA contraction, no reassociation), constants are written as their bits,
// and round half away from zero is computed from trunc (exact). Division and sqrt are exact
// only where the device rounds them correctly, which Vulkan does not promise (2.5 ulp), and
// fma() only where it is fused: the caller passes Caps from a probe of the device
// (vulkan_provider.cc), and without them kernels with those ops are not rendered. Double precision needs shaderFloat64; 8- and 16-bit classes
// need the 8-/16-bit storage features.
//
// Launch ABI: push constant = the 64-bit device address of an argument block of 8-byte slots:
// the inputs' addresses, the outputs' addresses, the parameters (double or u64), then the
// address of a 4-byte fault flag (0: none; kernel_ir.h FaultCode values otherwise), then, for
// kernels that need it, the address of scratch memory (Shader::scratch_bytes). One dispatch of
// `groups` workgroups of kLocalSize invocations in a grid-stride loop over the iteration space,
// followed by the dispatches of Shader::more (reductions, products).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "accel/emit/kernel_ir.h"

namespace matfuse::vk {

constexpr int kLocalSize = 256;

/// What the device can run exactly (from the device's features and the probe).
struct Caps {
  bool float64 = false;       ///< shaderFloat64 and exact double + - * and conversions
  bool storage8 = false, storage16 = false;
  bool div32 = false, div64 = false;    ///< correctly rounded division
  bool sqrt32 = false, sqrt64 = false;  ///< correctly rounded sqrt
  bool fma32 = false, fma64 = false;    ///< fma() fused (one rounding)
  bool cvt = false;  ///< double -> float and 64-bit integer -> double round to nearest
  uint32_t max_groups = 65535;
};

/// A further dispatch of a kernel (reduction combine passes, a product's epilogue).
struct Stage {
  std::string glsl;
  uint32_t groups = 1;
};

struct Shader {
  std::string glsl;
  uint32_t groups = 1;
  bool may_fault = false;
  size_t arg_slots = 0;  ///< 8-byte slots of the argument block
  /// Dispatches after this one, in order, each seeing the previous ones' writes (one
  /// submission; vulkan_reduce.cc).
  std::vector<Stage> more;
  /// Bytes of device scratch memory for the dispatches; its address is the argument slot
  /// after the fault flag (only when nonzero).
  size_t scratch_bytes = 0;
};

/// The shader of kernel k, or raises matfuse:codegen naming what is not covered.
Shader render(const accel::Kernel& k, const Caps& caps);

}  // namespace matfuse::vk
