// Loop replay in the interpreter (DESIGN.md decision 8; the accel side is accel/run/replay.h).
//
// A numeric `for` loop whose body is pure array code is interpreted for a few iterations, then
// its remaining full chunks run as repeated launches of the chunk kernel without interpreting
// or capturing anything:
// - Eligible bodies (checked on the AST when the loop starts): only assignments `v = expr;` to
//   plain variables (not displayed, not the loop variable), whose expressions use numbers,
//   strings, variables, operators (no && / ||), transposes, indexing of variables whose
//   subscripts are `:` or affine in the loop variable (numbers, `end`, the loop variable,
//   variables the body does not assign, + - and * by a loop-free factor, ranges of those), and
//   calls to the pure builtins of pure_builtins() (elementwise math, rand/randn/zeros/ones,
//   class conversions, reductions). So every iteration runs the same operations on the same
//   shapes, and the only per-iteration scalars are loop indices and RNG offsets, affine in
//   the iteration number.
// - Iterations 1 and 2 run normally; every loop-carried variable (assigned in
//   the body and read there before its assignment) must then hold a lazy value. The
//   growth of their pending graph per iteration gives the chunk length K that stays under the
//   graph limits (lazy.h). The loop-carried values (and the pending values of loop-invariant
//   variables the body reads: computed arrays, and rand/randn arrays when an enclosing loop
//   will run this loop again, which are then stored instead of regenerated) are forced at the end of iteration 2 and after
//   each of the next two chunks of K iterations (reason loop_chunk). When both chunks ran as
//   one identical kernel (accel::match_chunks) and consumed the same number of RNG counters,
//   the remaining full chunks are launched directly (accel::replay_chunk); the carried
//   variables, the loop variable and the RNG stream are then set as if the iterations had been
//   interpreted, and the last iterations (at least one) are interpreted. Any mismatch, fault or other forced
//   evaluation in between turns replay off for this loop, which then simply runs on.
// - A later execution of the same loop statement (an enclosing loop, a function called again)
//   that records a first chunk with the same kernel text, chunk length, loop range start and
//   step, RNG draws per chunk, parameter roles and input bindings (each carried input is the
//   chunk-start value of the variable whose chunk-end value feeds it, the others are not
//   carried variables) replays from that chunk with the parameter steps the earlier execution
//   matched, without interpreting a second chunk: the same launches and values as the two-chunk
//   path, one chunk's interpretation and planning sooner.
// - Sooner still, without tracing any chunk (reuse_untraced): right after the alignment force
//   of a later execution, the kept chunk kernel is launched from the first chunk on when
//   everything its trace could see is as before: the chunk length and loop range, each
//   loop-invariant variable the body reads (class, size, and its values when it has at most 16
//   elements on the host, else the identity of its stored array or pending node; the kept spec
//   holds arrays up to 1 MiB, so that writing one gives it new storage, and needs a larger one
//   to be a kernel input that is not a double vector), and each
//   carried variable's class and size. Its parameters are rebound: loop indices as kept (same
//   range, same iterations), RNG offsets shifted by the stream's advance since then, RNG keys
//   set to the current key. It needs every kernel input that is not carried to be an invariant
//   variable's array, and every loop index and RNG offset parameter to step per chunk (a fixed
//   offset would come from a generator made before the loop).
// - MATFUSE_LOOP_REPLAY=0 turns it off.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "accel/run/replay.h"
#include "lang/ast.h"

namespace matfuse {

class Interpreter;

class LoopReplayer {
public:
  /// For loop `f` over n iterations, loop variable slot `var_slot`, value x0 + k*dx; *k is the
  /// caller's iteration counter. Every numeric for loop constructs one (inactive when the body
  /// is not eligible): the thread's stack of them tells whether an enclosing loop will run
  /// this one again.
  LoopReplayer(Interpreter& in, const ast::ForStmt& f, int var_slot, int64_t n, double x0,
               double dx, const int64_t* k);
  ~LoopReplayer();
  LoopReplayer(const LoopReplayer&) = delete;
  LoopReplayer& operator=(const LoopReplayer&) = delete;
  bool active() const { return phase_ != Phase::Off; }
  /// Called after iteration k (0-based) ran; returns how many further iterations were replayed
  /// (the caller skips them), 0 when none.
  int64_t after_iteration(int64_t k);

private:
  enum class Phase : uint8_t { Off, Probe, ChunkA, ChunkB };
  bool collect_roots(std::vector<accel::NodeRef>& roots) const;
  /// Adds the pending values of loop-invariant variables that the chunks should read from
  /// memory (computed values; rand/randn arrays), so that every chunk reads the same inputs.
  void add_invariants(std::vector<accel::NodeRef>& roots) const;
  /// Forces the assigned variables (reason loop_chunk); with record, the single-kernel run
  /// (and slot_out_: per assigned variable, the kernel output holding its value).
  std::optional<accel::ChunkRun> force_chunk(bool record);
  /// Launches the remaining full chunks after iteration k; returns the iterations replayed.
  /// Replays the remaining full chunks after spec.last (iteration k ends it); rng_step: RNG
  /// positions drawn per chunk. Returns the iterations skipped.
  int64_t fast_forward(const accel::ReplaySpec& spec, int64_t k, uint64_t rng_step);
  /// The spec of an earlier execution of this loop statement, when chunk `a` (this execution's
  /// first recorded chunk) matches it (see the contract above).
  std::optional<accel::ReplaySpec> reuse_spec(const accel::ChunkRun& a) const;
  /// Keeps `spec` (matched in this execution) for later executions of this loop statement.
  void keep_spec(const accel::ReplaySpec& spec) const;
  /// Right after the alignment force: the kept spec of this loop statement, rebound to the
  /// current values without tracing a chunk (see the contract above), with *rng_step the RNG
  /// positions per chunk; nullopt when anything the trace could see differs.
  std::optional<accel::ReplaySpec> reuse_untraced(uint64_t* rng_step);

  /// Whether an enclosing loop of the same frame has iterations left and does not assign
  /// `slot` (so this loop, reading it, runs again with the same value).
  bool enclosing_loop_rereads(int slot) const;

  Interpreter& in_;
  const ast::ForStmt& stmt_;
  const void* frame_;
  const int64_t* k_;
  LoopReplayer* outer_;
  int var_slot_;
  int64_t n_;
  double x0_, dx_;
  Phase phase_ = Phase::Off;
  std::vector<int> assigned_;  ///< slots of the loop-carried variables (see BodyCheck)
  std::vector<int> invariant_; ///< slots of variables the body reads but does not assign
  std::vector<int> slot_out_;  ///< per assigned_ entry: output index in the last chunk
  int64_t k_len_ = 0;          ///< chunk length K
  int64_t in_chunk_ = 0;       ///< iterations of the current chunk run so far
  int size1_count_ = 0, size1_depth_ = 0;
  uint64_t serial_ = 0;        ///< accel::evaluation_serial() after our last force
  uint64_t rng_[3] = {};       ///< RNG offsets at the chunk boundaries
  std::optional<accel::ChunkRun> run_a_;
  /// Nodes of the carried variables when the chunks start (forced at the end of iteration 2).
  std::vector<const accel::Node*> align_nodes_;
};

}  // namespace matfuse
