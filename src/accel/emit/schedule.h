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
// schedule_map() decides how a map phase (a phase evaluated at every point of its space, with
// stores: elementwise kernels, matmul epilogues, the map pass of heavy reductions) groups
// consecutive points per thread: the vector width, which loads and stores move as groups, and
// the random-number lane groups (MapSchedule).
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

/// Whether access `a` runs over `space` in order, point i at offset base + i: along every
/// dimension its stride is the space's own (column-major) stride, 0 along dimensions of extent
/// 1. The access must have the space's rank.
bool contiguous_access(const Kernel& k, int a, const Dims& space);

/// One store of a map phase: the value stored, the bytes of one stored element, and whether
/// point i is stored at base + i (contiguous_access, or a staging buffer written in order).
struct MapStoreShape {
  int value = -1;
  int bytes = 4;
  bool contiguous = false;
};

/// The limits of the grouped paths of a map phase (the defaults are the CUDA backend's).
struct MapLimits {
  int vector_bytes = 16;       ///< bytes moved by one vector load or store
  int max_vector_instrs = 24;  ///< heavier bodies (point instructions) are compute bound
  int rng_lanes = 4;           ///< points per random-number group (4 single or 2 + 2 double lanes)
};

/// How a map phase over n points groups consecutive points per thread (schedule_map):
/// - Plain: one point per iteration of a grid-stride loop;
/// - Vector: a light, memory-bound phase (no Rng, at most max_vector_instrs point instructions)
///   whose non-uniform loads and stores are all contiguous moves groups of `width` =
///   clamp(vector_bytes / widest element, 2, 4) points by vector loads and stores (when the
///   pointers are aligned), the remaining n mod width points by the plain loop;
/// - RngGroups: a phase with rand/randn over consecutive stream positions (an Rng of a
///   contiguous F64 Iota) and n >= rng_lanes computes `width` = rng_lanes points per thread, so
///   that one Philox block serves all its lanes; contiguous loads and stores move as groups
///   (vectors when aligned), the others per point; no tail loop: the last group is `partial`
///   when width does not divide n.
/// Every path computes each point with the same operations, so the same bits.
struct MapSchedule {
  enum class Path : uint8_t { Plain, Vector, RngGroups };
  Path path = Path::Plain;
  int width = 1;         ///< points per group (1 on the plain path)
  bool partial = false;  ///< RngGroups: the last group has fewer than width points
  /// Contiguous non-uniform loads (representatives, not hoisted) read width points at a time.
  std::vector<int> group_loads;
  /// Rng values over consecutive stream positions, computed for the width lanes of a group by
  /// one call (RngGroups).
  std::vector<int> rng_groups;
  /// Segments of a group's body: segment j is [segment_starts[j], segment_starts[j + 1]); a
  /// new one starts at each group Rng value, whose lanes are computed between two lane loops so
  /// that one block of random numbers is live at a time. One segment [0, size) without Rng
  /// groups; empty on the plain path.
  std::vector<size_t> segment_starts;
  /// Per segment: the representatives of earlier segments it reads, in order of first use.
  std::vector<std::vector<int>> restores;
  /// Per value: computed in one segment and read in a later one (kept per lane in between).
  std::vector<bool> crosses;

  bool grouped() const { return path != Path::Plain; }
  int segments() const { return segment_starts.empty() ? 0 : int(segment_starts.size()) - 1; }
  bool is_group_load(int v) const;
  bool is_rng_group(int v) const;
};

/// Schedules map phase `code` of kernel k over `space` (s = schedule_phase(k, code)) with the
/// stores `stores`; the accesses of the phase's loads and iotas must have the space's rank.
MapSchedule schedule_map(const Kernel& k, const std::vector<Instr>& code, const Dims& space,
                         const PhaseSchedule& s, const std::vector<MapStoreShape>& stores,
                         const MapLimits& limits = {});

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
