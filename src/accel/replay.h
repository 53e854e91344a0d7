// Loop replay (DESIGN.md decision 8): running further chunks of a loop trace without building
// their graphs.
//
// Semantics contract
// - A ChunkRecorder, passed as the observer of the force of one chunk of a loop (a force at an
//   iteration boundary), captures that evaluation when it is a single fusion group that ran as
//   one kernel (on any provider): the kernel, its canonical text, the
//   input tensors and the nodes they came from, the parameter values and roles, and the outputs.
//   Anything else (several groups, the eager fallback, more than one evaluation while armed)
//   leaves the recording invalid.
// - match_chunks(a, b) compares two consecutive recorded chunks of the same loop. They replay
//   when the canonical texts are equal, every kernel input of b is either the same tensor as in
//   a (loop invariant) or the value of one of a's outputs (loop carried), and every parameter
//   either has the same value in a and b or is a loop index or RNG counter offset (the only
//   Params whose values the graph lets vary per iteration); those advance by b - a per chunk.
//   The caller guarantees (static check of the loop body) that the iterations run the same
//   statements with the same shapes, so the loop indices and RNG offsets are affine in the
//   chunk number and chunk j after b has parameter values b + j*(b - a).
// - replay_chunk runs chunk j of a spec with the outputs of chunk j - 1 as carried inputs, on
//   the provider that ran b, and records it in telemetry (reason loop_chunk, one group, fusion
//   kind of b). It returns false when the kernel faulted or the provider failed; the caller
//   then resumes the loop by interpretation from the start of chunk j (nothing was changed).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "accel/graph.h"
#include "accel/kernel_ir.h"
#include "accel/observer.h"
#include "runtime/tensor.h"

namespace matfuse::accel {

/// Records the evaluation it is passed to (force_nodes / evaluate's observer).
class ChunkRecorder final : public EvalObserver {
public:
  /// The single-kernel evaluation, or nullopt when there was none or anything else ran.
  std::optional<ChunkRun> take();

  void on_evaluation() override;
  void on_kernel(ChunkRun run) override;
  void on_other_group() override;

private:
  int evaluations_ = 0;
  bool valid_ = true;
  std::optional<ChunkRun> run_;
};

/// Number of evaluate() calls so far in this process (replay checks that nothing else was
/// forced between two chunk boundaries); evaluate() calls count_evaluation().
uint64_t evaluation_serial();
void count_evaluation();

/// Computed-node count (non-leaf nodes, generators included, as the graph limits count them)
/// and depth of the pending graph of roots.
void trace_size(const std::vector<NodeRef>& roots, int& count, int& depth);

/// Two matched chunks (see the contract).
struct ReplaySpec {
  ChunkRun last;                  ///< chunk b (its parameter values and outputs)
  std::vector<int> carried_from;  ///< per kernel input: index of the output of the previous
                                  ///< chunk feeding it, or -1 (invariant: last.inputs[i])
  std::vector<ParamValue> step;   ///< per parameter: advance per chunk (0 when fixed)
};

/// The replay spec of consecutive chunks a and b, or nullopt with *why.
std::optional<ReplaySpec> match_chunks(const ChunkRun& a, const ChunkRun& b, std::string* why);

/// Runs chunk j >= 1 after spec.last with `prev` (the outputs of chunk j - 1) and sets
/// `outputs`; false when the kernel faulted or could not run (see the contract).
bool replay_chunk(const ReplaySpec& spec, int64_t j, const std::vector<Tensor>& prev,
                  std::vector<Tensor>& outputs);

}  // namespace matfuse::accel
