// GLSL ports of the host's single-precision elementary functions (runtime/mf_math.inc) and of
// its random number transforms (runtime/philox.inc) for the Vulkan provider, with the host's
// bits (DESIGN.md decision 7).
//
// The text is split into parts (a bit set, MathParts); a shader carries only the parts its
// kernel calls and their dependencies (math_prelude), so that kernels without elementary
// functions compile as before and a kernel with one function does not compile the others.
// Each part follows its C source operation for operation: the same order, the same constants
// (as bits: MF_U2D / MF_U2F of their IEEE codes), every floating temporary `precise` (SPIR-V
// NoContraction), and MF_FMA / MF_FMAF (one rounding) as GLSL fma() where the probe of the
// device found it fused, else as an exact software fma: Vulkan does not promise a fused fma
// (it may be a multiply and an add, as on Mesa's lavapipe). Division, sqrt and the narrowing
// conversions are used only where the probe found them exact (math_unsupported).
//
// Not ported (the host runs them): double-precision elementary functions (the host's come from
// the C library, which no device reproduces) and asinh/acosh/atanh (glibc's asinhf ... on the
// host). mod and rem (fmod, exact) are ported in both precisions.
#pragma once

#include <cstdint>
#include <string>

#include "accel/emit/kernel_ir.h"

namespace matfuse::vk {

struct Caps;

/// A set of parts of the GLSL math text (bits of the enum in vulkan_math.cc).
using MathParts = uint32_t;

/// The GLSL function (mf_sinf, mf_powf, ...) that computes op on float (single) or double
/// operands as the host's scalar_ops.inc does, adding the parts it needs to *parts; "" when op
/// has none here (the elementary functions in double precision, ops without a port). Binary
/// functions take (a, b) in the op's operand order. mod and rem exist in both precisions (fmod
/// is exact, so an integer port has the C library's bits).
std::string math_function(OpId op, bool single, MathParts* parts);

/// The GLSL function of rand (gen Rand) or randn (gen Randn) at a stream position:
/// mf_rand_f / mf_randn_f (single) or mf_rand_d / mf_randn_d (double), each (uint64_t key,
/// uint64_t position) as runtime/philox.inc; adds its parts to *parts.
std::string rng_function(accel::GenKind gen, bool single, MathParts* parts);

/// Why the device cannot run these parts with the host's bits, or "" when it can (needs:
/// double precision, correctly rounded division and sqrt, round-to-nearest narrowing
/// conversions, as Caps says; a device without a fused fma gets the software fma, which
/// computes in double precision).
std::string math_unsupported(MathParts parts, const Caps& caps);

/// The GLSL condition under which op's real result does not exist at operands a (and b) of
/// GLSL type T (scalar_ops.inc's mf_ok_<Op> negated: sqrt and the logarithms of negative
/// values, asin/acos/atanh outside [-1, 1], acosh below 1, a negative base with a finite
/// non-integer exponent), or "" for an op without a check here. Uses mf_floor of
/// vulkan_codegen.cc for the power's integer test.
std::string real_domain_violation(OpId op, const std::string& a, const std::string& b,
                                  const std::string& T);

/// The GLSL text of the parts and of the parts they use, in dependency order ("" for none),
/// with MF_FMA / MF_FMAF defined as the device's fma() where caps says it is fused, else as the
/// exact software fma of vulkan_math.cc (both give the host's one rounding).
std::string math_prelude(MathParts parts, const Caps& caps);

/// The GLSL of the exact software fma alone: float mf_fmaf_sw(float, float, float) and
/// double mf_fma64_sw(double, double, double) (a*b + c rounded once to nearest even), which the
/// prelude uses on devices whose fma() is not fused; for tests against the host's fma.
std::string software_fma_glsl();

}  // namespace matfuse::vk
