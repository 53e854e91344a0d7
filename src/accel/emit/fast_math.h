// Math modes (DESIGN.md decision 7): exact by default, fast on request.
//
// - The process-wide mode starts from MATFUSE_MATH ("exact" or "fast"; any other value is an
//   error at start-up: runtime/options.h), the CLI switch `--math exact|fast`, and scripts
//   switch it with `feature('MathMode', 'fast')`. Lowering stamps the mode into every kernel
//   (Kernel::math), so the kernel text and every cache key include it.
// - fast_math_rewrite() is the backend-neutral part of fast mode: a schedule pass on the kernel
//   IR, run by lowering on kernels of fast mode, that every provider then executes alike.
//   The approximations that belong to a backend (single-precision elementary functions, FMA
//   contraction, single-precision linspace arithmetic) are chosen by that backend from
//   Kernel::math; their error bounds are documented in docs/math-modes.md.
#pragma once

#include <optional>
#include <string_view>

#include "accel/emit/kernel_ir.h"

namespace matfuse::accel {

/// The mode kernels are lowered in now.
MathMode math_mode();
/// Sets the mode for kernels lowered from now on (values already computed keep their bits).
void set_math_mode(MathMode m);
/// "exact" / "fast" (case-insensitive) -> mode; nullopt for anything else.
std::optional<MathMode> parse_math_mode(std::string_view s);

/// Rewrites kernel k (lowered in MathMode::Fast; sets k.math = Fast):
/// - a quotient of floating-point class whose divisor is uniform and whose dividend is not
///   becomes a product by the divisor's reciprocal, computed once (uniform): a/d -> a*(1/d)
///   (within 1.5 ulp of the quotient while 1/d and the result are normal numbers);
/// - single(x) of a double linspace generator becomes a single linspace generator (which a
///   backend in fast mode may compute in single precision; in exact mode the two are the same);
/// - instructions left without a use are removed (faulting ones are kept).
/// The kernel stays valid (verify_kernel); outputs, inputs and parameters keep their numbers.
void fast_math_rewrite(Kernel& k);

}  // namespace matfuse::accel
