// Internal to the CUDA code generator: the pieces shared by the elementwise renderer
// (codegen.cc) and the reduction renderer (codegen_reduce.cc).
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "accel/emit/kernel_ir.h"
#include "accel/emit/schedule.h"
#include "providers/cuda/codegen.h"

namespace matfuse::cuda::detail {

/// Threads per block of every generated launch.
constexpr int kBlock = 256;

/// Throws MatlabError("matfuse:codegen", msg).
[[noreturn]] void unsupported(const std::string& msg);

/// C type of a value type ("double", "float", "bool").
const char* ctype(accel::VType t);
/// Storage type of class c in device buffers (launch ABI item 1); throws for 64-bit integers.
const char* storage_type(ClassId c);
/// Bytes of one element of class c in device buffers.
int storage_bytes(ClassId c);
/// Exact C literal of v in type t.
std::string literal(double v, accel::VType t);

/// One phase (body or epilogue) of a kernel being rendered over `space`, with its schedule
/// (accel/emit/schedule.h: hoisting, common subexpressions, divisors): the renderer prints what
/// the schedule says.
struct Phase {
  const accel::Kernel* k = nullptr;
  const std::vector<accel::Instr>* code = nullptr;
  Dims space;
  char pfx = 'v';                  ///< value names: v<N> (body), e<N> (epilogue)
  accel::PhaseSchedule sched;
  /// sched.hoisted: a uniform value computed once per thread, before the loop.
  const std::vector<bool>& hoisted = sched.hoisted;
  /// sched.alias[v]: the first value computing the same thing as v (common subexpressions are
  /// emitted once; name(v) is the alias's name).
  const std::vector<int>& alias = sched.alias;
  /// ReduceResult r reads this expression (epilogue of a reduction).
  std::vector<std::string> reduce_exprs;

  Phase(const accel::Kernel& kernel, const std::vector<accel::Instr>& c, const Dims& s, char p);
  Phase(const Phase&) = delete;
  Phase& operator=(const Phase&) = delete;
  std::string name(int v) const { return pfx + std::to_string(alias.empty() ? v : alias[v]); }
  /// Instructions emitted (not aliases of earlier ones) that are not hoisted.
  int point_instrs() const { return sched.point_instrs(); }
  /// Whether a non-hoisted instruction is of kind kd.
  bool has_kind(accel::IKind kd) const;
  bool contiguous(int access) const;
  /// The access is twice the contiguous one (a part of an interleaved complex buffer: offset
  /// base + 2i).
  bool interleaved(int access) const;
  bool uniform_access(int access) const;
  /// Whether every offset of access a over the space is known to lie in [0, 2^51) (a constant
  /// base, no parameter terms, non-negative strides): mf_i2d_'s range.
  bool offsets_below_2p51(int access) const;
  /// The divisor of value v when v is a float division computed per point whose divisor is
  /// computed once per thread (hoisted; its reciprocal then is too, named name(d) + "r"),
  /// else -1 (sched.divisor).
  int hoisted_divisor(int v) const { return sched.divisor[v]; }
  /// The per-thread declarations generator v reads (its parameters, named name(v) + "a",
  /// "b", "d", "f", "l"); empty for other instructions.
  std::string gen_setup(int v) const;
  /// A single linspace generator of a fast-mode kernel (computed in single precision).
  bool fast_linspace(const accel::Instr& in) const {
    return k->math == accel::MathMode::Fast && in.kind == accel::IKind::Gen &&
           in.gen == accel::GenKind::Linspace && in.type == accel::VType::F32;
  }
  /// Declarations of the values computed once per thread (uniform ones) and the per-thread
  /// parts of per-point instructions (divisor reciprocals, gen_setup).
  std::string hoisted_code() const;
  /// Statements computing every non-hoisted value at linear index `i` (a long long variable).
  /// `load_expr`, when set, may return the expression of a non-uniform Load or of an Rng value
  /// (the group path of elementwise kernels).
  std::string point_code(const std::function<std::string(int)>& load_expr = {}) const;
  /// The decomposed index x<d> of linear index `i`, when some access of the phase needs it.
  std::string index_code() const;
  /// point_code's statements for the values lo <= v < hi only (no index decomposition).
  std::string range_code(size_t lo, size_t hi,
                         const std::function<std::string(int)>& load_expr = {}) const;
  /// Offset expression of access a at linear index i (x<k>: decomposed index when needed).
  std::string offset(int access) const;
  /// The call computing Rng value v: `mf_rand[n]_{f,d}<sfx>(key, offset + pos)`, with pos the
  /// element's stream index expression (before the parameter offset).
  std::string rng_call(int v, const std::string& sfx, const std::string& pos) const;
  /// Value v of this phase converted to the storage type of class c.
  std::string store_expr(int v, ClassId c) const;

private:
  std::string instr_code(int v, const std::function<std::string(int)>& load_expr) const;
};

/// Kernel parameter list of the launch ABI (codegen.h), shared by every entry of a program.
std::string param_list(const accel::Kernel& k, const Program& prog);
/// Declarations of the access bases `ab<N>` (base plus parameter terms), one per access.
std::string access_bases(const accel::Kernel& k);
/// Whether any instruction of code may set the fault flag.
bool may_fault(const std::vector<accel::Instr>& code);

/// One store of a map kernel (render_map): value `value` as `expr` (in storage type `st` of
/// `bytes` bytes) at `scalar` (an lvalue at linear index i); when `contiguous`, element i is at
/// `base` + i, and groups of elements may be stored as vectors.
struct MapStore {
  int value = -1;
  std::string st, expr, base, scalar;
  int bytes = 4;
  bool contiguous = false;
};

/// The stores of the kernel outputs computed by phase ph (with in_body_only, the in_body
/// outputs of a reduction body).
std::vector<MapStore> output_map_stores(const accel::Kernel& k, const Phase& ph, bool in_body_only);

/// Renders entry `entry`: phase ph evaluated at every point of ph.space with `stores`, one
/// launch appended to prog (codegen.cc). The elementwise and matmul-epilogue kernels, and the
/// map pass of heavy reductions.
void render_map(const accel::Kernel& k, const Target& t, const Phase& ph,
                const std::vector<MapStore>& stores, const std::string& entry, Program& prog);

/// Renders a reduction kernel (fusion_kind reduction) into prog (codegen_reduce.cc).
void render_reduction(const accel::Kernel& k, const Target& t, Program& prog);

}  // namespace matfuse::cuda::detail
