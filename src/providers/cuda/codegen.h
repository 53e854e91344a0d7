// CUDA C code generation from the kernel IR (DESIGN.md decisions 9 and 10).
//
// Semantics contract
// - render() turns one accel::Kernel into one NVRTC translation unit (`Program::source`) and the
//   ordered list of launches that compute it. The source is self-contained: it carries the device
//   prelude (the op functions of runtime/scalar_ops.inc, one per op of runtime/ops.def, and the
//   shared texts runtime/mf_math.inc and runtime/philox.inc), needs no
//   system header, and compiles with NVRTC options `--std=c++17 --fmad=false
//   -arch=sm_XY` (no fast math: results match the host provider within 2 ulp for
//   transcendental functions and exactly for arithmetic, comparisons, rounding, RNG).
// - Every entry point of a program has the same parameter list, in this order (the launch ABI):
//     1. one pointer per kernel input, `const T* __restrict__` with T the storage type of the
//        input's class (double, float, bool, char16_t as unsigned short, int8..uint32 as
//        signed char / unsigned char / short / unsigned short / int / unsigned int);
//     2. one pointer per kernel output, `T* __restrict__` (storage type of KOutput::cls);
//     3. one value per parameter slot: `double`, or `unsigned long long` for param_u64 slots;
//     4. when the kernel has a matmul: `const T* mm`, the m x n column-major gemm result
//        (T = float for VType::F32, double otherwise), computed by the provider before launch 0;
//        with KMatMul::diag the epilogue's point i reads mm[i*(m+1)] (the main diagonal);
//     5. when Program::scratch_bytes > 0: `unsigned char* scratch` (device memory of that size,
//        16-byte aligned, contents undefined at entry);
//     6. when Program::may_fault: `int* fault` (device int the provider zeroes before launch 0;
//        a kernel sets it to a nonzero FaultCode when a value leaves the real domain or NaN is
//        converted to logical; outputs are then unspecified and the caller re-runs the group
//        with the eager engine, as with the host provider).
// - Iteration spaces, strides, bases and the reduction view are compile-time constants of the
//   source; parameter values are not (so one compiled program serves every chunk of a loop
//   trace, decision 8). Indices are 64-bit where the space or an offset can exceed 2^31 - 1.
// - Elementwise kernels: a grid-stride loop; when every access is contiguous over the same
//   space (or uniform) and the body is light (no Rng, few instructions), a vectorized path moves
//   16 bytes per load and store; a body with rand/randn computes 4 consecutive elements per
//   thread (one Philox block serves them). The renderer prints the schedule of each phase
//   (accel/emit/schedule.h; the grouped paths, their width and grouped loads are the phase's
//   map schedule, accel::schedule_map): common subexpressions are emitted once; values uniform over the
//   grid are computed once per thread before the loop, and so are the per-thread parts of
//   per-point instructions: the reciprocal of a hoisted divisor (each quotient is then one
//   multiplication and two FMA residual steps with the division's bits, mf_div_rcp) and a
//   generator's parameters (linspace's 1/(n-1) is a literal). Squares (x.^2) stay mf_Pow calls,
//   which compute a*a for the exponent 2 once inlined.
// - Reductions give the host provider's bits: every lane follows the host's pairwise summation
//   tree (kernel_ir.h), leaves summed left to right by one thread, the tree combined in the same
//   shape (launches mf_reduce_leaves, mf_reduce_combine<q>, mf_reduce_final, or one mf_reduce);
//   prod runs left to right (one thread per lane). No floating-point atomics.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "accel/emit/kernel_ir.h"

namespace matfuse::cuda {

/// What the code generator needs to know about the device.
struct Target {
  int cc_major = 9, cc_minor = 0;  ///< compute capability (sm_90 on an H200)
  int sm_count = 132;              ///< multiprocessors (grid sizing)
  int max_threads_per_block = 1024;
};

/// Codes written to the fault flag.
enum FaultCode : int { kNoFault = 0, kFaultComplex = 1, kFaultLogicalNaN = 2 };

/// One launch of a program: entry point name, grid and block, dynamic shared memory.
struct Launch {
  std::string entry;
  unsigned grid_x = 1, grid_y = 1, grid_z = 1;
  unsigned block_x = 256, block_y = 1, block_z = 1;
  unsigned shared_bytes = 0;
};

struct Program {
  std::string source;            ///< complete NVRTC translation unit
  std::vector<Launch> launches;  ///< run in this order on one stream
  size_t scratch_bytes = 0;      ///< see the launch ABI, item 5
  bool may_fault = false;        ///< see the launch ABI, item 6
  /// A fast-mode kernel (accel::MathMode::Fast): compiled with --fmad=true (FMA contraction).
  bool fast_math = false;
};

/// Renders kernel k for target t. Throws MatlabError("matfuse:codegen", ...) for an IR
/// construct it does not handle (the caller then runs the group on the host provider).
Program render(const accel::Kernel& k, const Target& t);

/// Whether the prelude has mf_fast_<Op>(float) for op (fast mode's library functions).
bool has_fast_op(OpId op);

/// The fast-mode functions (mf_fast_<Op>), appended to the prelude of fast programs only.
const std::string& fast_prelude();

/// The device prelude alone (op functions, Philox, conversions): used by tests that check the
/// prelude compiles, and prepended to every Program::source.
const std::string& device_prelude();

}  // namespace matfuse::cuda
