// Kernel IR: the backend-neutral description of one fusion group (DESIGN.md decision 9).
//
// Semantics contract
// - A Kernel runs over an iteration space `space` (column-major over its dims: point p has the
//   linear index i = Σ idx_k * Π_{j<k} space[j]). The SSA `body` is evaluated at every point;
//   each instruction defines one value, numbered by its position, and uses only earlier values.
// - Value types: F64 (double; also integer and char classes, which hold exact integers in a
//   double), F32 (single), Bool (logical). `cls` is the MATLAB class the value stands for.
//   `uniform` values are the same at every point (parameters, constants and ops over them).
// - Loads read kernel input buffers (host layout of a Tensor of the input's class) at the
//   element offset given by an Access: base + Σ idx_k*strides[k] + Σ coef*(int64)param[slot].
//   Broadcast dimensions have stride 0, transposes and slices are just strides and bases.
// - Op applies the scalar functor of ops.def (runtime/scalar_ops.h, the eager engine's functors)
//   to operands already converted to the op's work type. With `check_real` the kernel faults
//   when an element leaves the real domain (Op::real_ok false); the caller then re-runs the
//   group with the eager engine, which gives the complex result. Saturate rounds half away from
//   zero and saturates to an integer class (integer ops compute in double, as the eager engine).
//   Convert to Bool faults on NaN (MATLAB:nologicalnan comes from the eager re-run).
// - Rng: stream position = param[slot2] (u64 offset) + element index (value a, exact integer),
//   key = param[slot]; value = mf_rand_{d,f} / mf_randn_{d,f} of runtime/philox.inc at that
//   position, bit-identical to the eager rand/randn. Gen: the index functions of linspace,
//   colon and eye on value a.
// - Reduction kernels (fusion_kind reduction): `space` is the reduction input's dims in
//   iteration order (reduced dims contiguous, as runtime/reduce_layout.h arranges them), viewed
//   as (pre, n, post): point (i, j, p) has linear index i + pre*(j + n*p), output element
//   i + pre*p. Each KReduce folds one body value over j. Summation order is the eager one
//   (runtime/reduce.h): every lane sums pairwise over j (blocks of <= 128 summed left to right,
//   longer ranges split at n/2 and the halves added), whatever pre is; prod, min, max, any, all
//   run left to right. Hence fused and eager reductions agree bit for bit. The `epilogue` then
//   runs over `out_space` (ReduceResult k reads the folded value) and defines the outputs.
//   Outputs marked `in_body` are body values (elementwise producers of the reductions that are
//   also needed outside), written at every point of `space` during the same pass over the data.
// - MatMul kernels (matmul, matmul_epilogue): C = op(A)*op(B) by BLAS gemm; the `epilogue` runs
//   over the m x n output (MatMulResult reads C). With KMatMul::diag (a matmul_epilogue ended by
//   diag) the epilogue runs over the main diagonal only: out_space is min(m,n) x 1 and its
//   point k stands for the point (k,k) of C, so MatMulResult reads C at k*(m+1) and every other
//   epilogue access already maps k to the element at (k,k) (a full m x n operand: stride m+1; a
//   row or column vector: stride 1; a scalar: stride 0). The epilogue is never evaluated off
//   the diagonal.
// - Outputs: elementwise kernels write body values, reduction/matmul kernels epilogue values,
//   each converted to its class and stored at its Access.
// - text() is the canonical form and the kernel cache key: parameter values are not part of it
//   (only slots and types), so traces that differ only in Param values give identical text.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "accel/capture/graph.h"
#include "runtime/ops.h"

namespace matfuse::accel {

enum class VType : uint8_t { F64, F32, Bool };

/// How a kernel may round (DESIGN.md decision 7). Exact: every backend gives the host
/// provider's bits. Fast (opt-in: --math fast, MATFUSE_MATH=fast, feature('MathMode','fast')):
/// the schedule pass fast_math_rewrite() has multiplied by the reciprocal of uniform divisors and
/// made single(linspace(...)) a single-precision generator, and a backend may evaluate
/// single-precision elementary functions, single linspace and contractions (FMA) with the
/// approximations documented in docs/math-modes.md, each within its stated bound.
enum class MathMode : uint8_t { Exact, Fast };
std::string_view math_mode_name(MathMode m);
std::string_view vtype_name(VType t);
/// Storage type of values of class c (F32 single, Bool logical, F64 otherwise).
VType vtype_of(ClassId c);
/// The range [*lo, *hi] that Saturate and integer Cast clamp to, for char and the 8- to 32-bit
/// integer classes; false for every other class (64-bit integers: the bounds are not exact
/// doubles, so backends do not render them).
bool saturation_range(ClassId c, double* lo, double* hi);
/// The smallest d with 2^d >= v (0 for v <= 1): the depth of a pairwise tree over v terms, as
/// the reduction renderers of every device provider count it.
inline int ceil_log2(int64_t v) {
  int d = 0;
  while ((int64_t{1} << d) < v) ++d;
  return d;
}

/// Every fusion group carries one (DESIGN.md decision 5); the kinds and their names are listed
/// in accel/emit/fusion_kinds.def. `loop` = an elementwise kernel that fuses several iterations
/// of a loop trace (distinct loop-index / RNG-offset Params). The first five are structural
/// (they say how a group lowers: Kernel::fusion_kind is one of them); the others are labels of
/// recognised patterns (label_patterns, accel/plan/passes), reported by --profile, --graph and
/// telemetry for the groups that compute them.
enum class FusionKind : uint8_t {
#define MF_FUSION_KIND(kind, name) kind,
#include "accel/emit/fusion_kinds.def"
#undef MF_FUSION_KIND
};
std::string_view fusion_kind_name(FusionKind k);

struct Access {
  std::vector<int64_t> strides;                    ///< one per dimension of the phase's space
  int64_t base = 0;
  std::vector<std::pair<int, int64_t>> param_terms;  ///< (param slot, coefficient)
};

struct KInput {
  ClassId cls = ClassId::Double;
};

enum class IKind : uint8_t {
  Load,          ///< input[input] at access
  Const,         ///< imm
  Param,         ///< param[slot] (double value)
  Iota,          ///< element offset given by access (an exact integer in F64)
  Convert,       ///< a converted to `type` (Bool: != 0, NaN faults)
  Op,            ///< op(a[, b]) in the work type of the operands
  Saturate,      ///< round half away from zero, saturate to integer class cls
  Cast,          ///< MATLAB class conversion of a to cls
  Rng,           ///< rand/randn (gen) of key param[slot], offset param[slot2], index a
  Gen,           ///< linspace/colon/eye (gen) of index a; params slot, slot2, slot3; imm = rows
  ReduceResult,  ///< folded value of reduces[reduce] (epilogue only)
  MatMulResult,  ///< gemm result (epilogue only)
};

struct Instr {
  IKind kind = IKind::Const;
  VType type = VType::F64;
  ClassId cls = ClassId::Double;
  bool uniform = false;
  int a = -1, b = -1;
  int input = -1, access = -1;
  int slot = -1, slot2 = -1, slot3 = -1;
  int reduce = -1;
  double imm = 0;
  OpId op{};
  bool check_real = false;
  GenKind gen{};
};

struct KReduce {
  ReduceKind kind = ReduceKind::Sum;
  bool omitnan = false;
  VType acc = VType::F64;  ///< accumulation type (type of body value `value`)
  int value = -1;          ///< body value folded
};

struct KOutput {
  int value = -1;  ///< in body (elementwise) or epilogue (reduction, matmul)
  ClassId cls = ClassId::Double;
  int access = -1;
  /// Reduction kernels only: a body value (a prologue result that is also needed outside the
  /// kernel), stored at every point of `space` while the reductions fold; its access has the
  /// body's rank. Always false in elementwise and matmul kernels.
  bool in_body = false;
};

struct KMatMul {
  int a = -1, b = -1;           ///< kernel inputs
  bool trans_a = false, trans_b = false;
  int64_t m = 0, n = 0, k = 0;  ///< C is m x n, inner dimension k
  int64_t lda = 1, ldb = 1;
  VType type = VType::F64;
  /// Epilogue over the main diagonal of C only (out_space min(m,n) x 1, see the contract).
  bool diag = false;
  /// a == b with trans_a != trans_b: C = A.'*A or A*A.' is symmetric; a provider may compute
  /// one triangle (syrk) and MatMulResult then reads C(i,j) of the strict upper triangle at
  /// (j,i): C below is the lower triangle, the product's value everywhere.
  bool syrk = false;
  /// A scalar factor folded into the product (BLAS alpha): C = alpha * op(A)*op(B) with
  /// alpha = v (alpha_div false) or 1/v (true), v = param[alpha_slot] when alpha_slot >= 0,
  /// else alpha_imm. Folded from an epilogue's first op C*s, s*C or C/s of a scalar s.
  double alpha_imm = 1;
  int alpha_slot = -1;
  bool alpha_div = false;
};

struct Kernel {
  FusionKind fusion_kind = FusionKind::Elementwise;
  Dims space;                      ///< body iteration space
  std::vector<KInput> inputs;
  std::vector<bool> param_u64;     ///< slot types: u64 (RNG key/offset) or double
  std::vector<Access> accesses;    ///< referenced by Load/Iota/KOutput
  std::vector<Instr> body;
  std::vector<KReduce> reduces;
  int64_t pre = 1, n = 1, post = 1;  ///< reduction view of `space`
  Dims out_space;                    ///< epilogue iteration space
  std::vector<Instr> epilogue;
  std::optional<KMatMul> matmul;
  std::vector<KOutput> outputs;
  MathMode math = MathMode::Exact;  ///< part of text() only when Fast (exact texts unchanged)

  /// Canonical text (cache key; MATFUSE_DUMP_KERNELS).
  std::string text() const;
  /// Elements of the iteration space(s), for telemetry.
  int64_t elements() const;
  /// Elements of input `input` (numel elements) that the kernel loads, for telemetry: the
  /// footprint of each Load's access over its space (a slice X(:, t) reads one column), summed
  /// and capped at numel.
  int64_t elements_read(int input, int64_t numel) const;
};

/// Checks the SSA and index invariants; returns "" when valid, else the first problem.
std::string verify_kernel(const Kernel& k);

}  // namespace matfuse::accel
