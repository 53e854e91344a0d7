// Schedule passes on the kernel IR (DESIGN.md decision 9): the backend-neutral analysis that
// decides where and how often each value of a phase is computed. A backend prints (or executes)
// what the schedule says; it does not redo the analysis.
//
// A phase is a kernel's body (over Kernel::space) or epilogue (over Kernel::out_space).
// schedule_phase() annotates it without changing the IR (the kernel text, the cache key, stays
// the same):
// - hoisting of per-thread work: a uniform value (Instr::uniform) whose operands are hoisted
//   too, and that reads no ReduceResult / MatMulResult and no non-uniform access, is computed
//   once per thread before the loop over points (`hoisted`, listed in order in
//   `hoisted_values`);
// - common subexpressions: alias[v] is the first value computing the same instruction over the
//   same (aliased) operands; only representatives (alias[v] == v) are computed, every use of v
//   reads its representative. Generators (IKind::Gen) are never merged.
// - division by a uniform divisor in the form exact mode allows: a per-point quotient whose
//   divisor is hoisted (`divisor[v]`, the divisor's representative) may use a reciprocal of the
//   divisor computed once per thread, provided the backend then gives the division's bits (the
//   CUDA backend's mf_div_rcp: a product, two FMA residual steps and a range check). The
//   per-thread parts of per-point instructions, in the order a backend computes them, are
//   `setup`: such reciprocals (once per divisor, at its first use) and the parameters of
//   per-point generators.
// - strength reduction: `square[v]` marks v = x.^2 with the constant exponent 2, which is x.*x
//   bit for bit (scalar::Pow and the CUDA mf_Pow compute a*a for the exponent 2; the result is
//   always real, so no domain check is needed).
//
// apply_schedule() performs the rewrites that are IR transformations (common subexpressions
// merged, values left without a use removed, squares as products). Its kernel gives the same
// bits as the original on every provider; the kernel text changes, so callers that key caches
// on the text take it before.
#pragma once

#include <cstdint>
#include <vector>

#include "accel/emit/kernel_ir.h"

namespace matfuse::accel {

/// A per-thread part of a per-point instruction (PhaseSchedule::setup).
struct ThreadSetup {
  enum class Kind : uint8_t {
    Reciprocal,  ///< the reciprocal of hoisted divisor `value` (a representative)
    GenParams,   ///< the parameters of per-point generator `value` (IKind::Gen)
  };
  Kind kind = Kind::Reciprocal;
  int value = -1;
};

/// Annotations of one phase (see the file comment); every vector has one entry per value.
struct PhaseSchedule {
  std::vector<bool> hoisted;       ///< computed once per thread, before the point loop
  std::vector<int> alias;          ///< common-subexpression representative (alias[v] <= v)
  std::vector<int> divisor;        ///< hoisted divisor representative of a per-point quotient, or -1
  std::vector<bool> square;        ///< x.^2 with the constant exponent 2: x.*x
  std::vector<int> hoisted_values;  ///< hoisted representatives, in order
  std::vector<ThreadSetup> setup;   ///< per-thread parts of per-point instructions, in order

  /// Whether v is computed (not an alias of an earlier value).
  bool representative(int v) const { return alias[v] == v; }
  /// Representatives computed at every point (neither aliases nor hoisted).
  int point_instrs() const;
};

/// Whether every stride of access `a` is 0 (the same element at every point).
bool uniform_access(const Kernel& k, int a);

/// Schedules phase `code` of kernel k (k.body or k.epilogue; k must pass verify_kernel).
PhaseSchedule schedule_phase(const Kernel& k, const std::vector<Instr>& code);

/// Removes the values of `code` without a use (instructions that may fault stay: a domain
/// check, a conversion to logical); `roots` are the phase's uses from outside (outputs,
/// reductions), renumbered in place.
void remove_unused(std::vector<Instr>& code, const std::vector<int*>& roots);

/// Rewrites kernel k by its schedule: squares become products, common subexpressions are
/// merged, unused values removed. Outputs, inputs, accesses and parameters keep their numbers;
/// the kernel stays valid (verify_kernel) and computes the same bits.
void apply_schedule(Kernel& k);

}  // namespace matfuse::accel
