// Lazy values: the bridge between the interpreter's Tensors and the acceleration graph
// (DESIGN.md decisions 1, 2, 6 and 8).
//
// Semantics contract
// - make_lazy(node) returns a Tensor that holds the node (Tensor::is_lazy); its class, dims and
//   size never force it. Every copy of that Tensor shares one LazyRef, whose liveness says that
//   the value is still pending: a registry of weak references lists the pending values.
// - A lazy tensor is forced (runtime Tensor::raw() calls the hook registered here) for a named
//   SinkReason: the innermost SinkScope of the thread, HostBuiltin when there is none. Forcing
//   evaluates, in one accel::evaluate() call, the node and every other pending value that shares
//   a computed node with it (transitively), so no intermediate is computed twice. Generators
//   alone do not count as shared: they are recomputed in each consumer (decision 6).
// - After evaluation each root's value is stored beside its node (Node::forced; the interned
//   node itself never changes, so its hash and identity stay valid), and every pending value
//   of the root is pointed at an Input node of the stored value. So later graphs built on it
//   (a loop trace forced every k iterations, decision 8) read the stored value instead of
//   recomputing the earlier chunks, and the history of a trace is freed with the old node.
//   A pending graph that still holds a forced node (a value held only by a dead variable) is
//   rebuilt on Inputs of the stored values when it is forced.
// - Graph limits: check_limits() forces a freshly captured value whose pending graph has more
//   than node_limit computed nodes (NodeLimit) or is deeper than depth_limit (DepthLimit).
// - Configuration: MATFUSE_LAZY=0 turns capture off; MATFUSE_LAZY_MIN=N sets the size threshold
//   (elements, default 32768): an operation is captured when an operand is lazy or the result
//   has at least N elements; MATFUSE_LAZY_NODES / MATFUSE_LAZY_DEPTH set the graph limits.
//   Tests change it with lazy_config().
// - Liveness (set_live_values_hook): the interpreter can say which pending values are held only
//   by variables that the program never reads again (dead at the statement being executed, in
//   every active frame). Such a value does not join a forced evaluation as a co-evaluated value:
//   it stays lazy and is computed later if it is ever needed, so writing it to memory is saved
//   when it is not. Roots are always evaluated, and values held by live variables or by
//   anything the interpreter cannot see (temporaries of a statement) join as before. This
//   changes only which values are co-evaluated, never results. A hook that returns false
//   (it cannot tell) leaves the behaviour as without a hook.
#pragma once

#include <cstdint>
#include <string>
#include <unordered_set>
#include <vector>

#include "accel/capture/graph.h"
#include "accel/run/observer.h"
#include "accel/run/telemetry.h"
#include "runtime/tensor.h"

namespace matfuse::accel {

struct LazyConfig {
  bool enabled = true;         ///< MATFUSE_LAZY (0 = off)
  int64_t min_numel = 32768;   ///< MATFUSE_LAZY_MIN
  // Chunk size of loop traces. Planning a pending graph costs about the square of its size, so
  // smaller chunks cost less per loop iteration; on the H200, W4 (ema) took 294 ms at 256/128
  // and 145 ms at 128/64, W3 (gbm) 14.1 and 11.6 ms. MATFUSE_LAZY_NODES / MATFUSE_LAZY_DEPTH
  // override them.
  int node_limit = 128;        ///< computed nodes of one pending graph
  int depth_limit = 64;        ///< longest path of one pending graph
  bool loop_replay = true;     ///< MATFUSE_LOOP_REPLAY (0 = off): interp/loop_replay.h
};
/// The process-wide configuration (read from the environment on first use).
LazyConfig& lazy_config();

/// A lazy Tensor holding node (registers the force hook on first use). maybe_complex: see
/// LazyRef.
Tensor make_lazy(const NodeRef& node, bool maybe_complex = false);

/// t's value when it is at hand without computing anything: t itself when materialised, the
/// stored value of a lazy t whose node was already forced (or is an Input leaf); a lazy t still
/// pending is returned as it is (still lazy).
Tensor settled_value(const Tensor& t);

/// When t's pending graph exceeds a limit, forces it (reason NodeLimit or DepthLimit) and
/// returns the materialised tensor; otherwise returns t.
Tensor check_limits(const Tensor& t);

/// Evaluates roots together with the pending values sharing nodes with them, materialises them,
/// and records the evaluation (see the contract). `observer`, when given, watches the evaluation
/// (evaluate.h).
void force_nodes(const std::vector<NodeRef>& roots, SinkReason reason,
                 EvalObserver* observer = nullptr);

/// Fills `dead` with the nodes of pending values that are held only by dead variables (see the
/// contract); returns false when it cannot tell (then every sharing value is co-evaluated).
using LiveValuesHook = bool (*)(std::unordered_set<const Node*>& dead);
/// Installs the liveness hook consulted by force_nodes (null removes it).
void set_live_values_hook(LiveValuesHook fn);

/// The forced node whose stored value the Input leaf n was made for when it was forced (identity
/// only: the node may be gone), or n itself. Loop replay matches a chunk's inputs to the
/// previous chunk's outputs with it (ChunkRun::input_nodes).
const Node* forced_origin(const Node* n);

/// Number of pending (live, not yet computed) lazy values.
size_t pending_count();

/// Sets the thread's sink reason while alive (nested scopes: the innermost wins).
class SinkScope {
public:
  explicit SinkScope(SinkReason r);
  ~SinkScope();
  SinkScope(const SinkScope&) = delete;
  SinkScope& operator=(const SinkScope&) = delete;

private:
  SinkReason prev_;
};
/// The reason a force on this thread would be recorded with now.
SinkReason current_sink_reason();

// ---- --graph ---------------------------------------------------------------------------------

/// Starts (or stops) recording the plans of forced evaluations for graph_mermaid().
void set_graph_recording(bool on);
/// Forgets every recorded plan (graph_mermaid() then describes only later evaluations).
void reset_graph_recording();
/// Mermaid flowchart of the recorded plans (layout in accel/run/mermaid.cc): one subgraph per
/// fusion group titled "K: fusion_kind on provider" (K numbered like --profile's rows), member
/// nodes in class cpu (host provider, eager fallback) or gpu (device providers), inlined leaves
/// inside the group that uses them, data edges between nodes (also across evaluations). With
/// nothing recorded, a single note node says so.
std::string graph_mermaid();

}  // namespace matfuse::accel
