// Plan: the fusion groups of a set of roots (DESIGN.md decisions 4 and 5).
//
// Roles of nodes in a plan
// - computed: Elementwise, Cast, Reduce, MatMul nodes; each belongs to exactly one group.
// - inlined leaves: Constant and Param (uniform values), Generators (recomputed in every
//   consumer kernel, decision 6), Transpose, Slice and Diag (strided reads of a materialised
//   buffer; a Diag that ends a matrix product's epilogue chain is computed by the product's
//   matmul_epilogue group instead).
//   A generator or movement node that must exist as an array (a root, an operand of a matrix
//   product, the base of another movement) is `materialise`d instead: it gets a group of its
//   own (fusion_kind elementwise) that writes it.
// - materialised sources: Input nodes and group outputs. A group output is a member with a user
//   outside its group, or a root.
// Groups are formed by passes (accel/plan/passes/passes.h) that run in accel/plan/pipeline.cc; each fusion
// decision is a Decision (yes, or a rule and a reason), and MATFUSE_DEBUG_FUSION=1 prints every
// rejection. finalize() puts every still unassigned computed node in a group of its own,
// computes outputs and sources and orders the groups so that producers run first.
#pragma once

#include <climits>
#include <span>
#include <string>
#include <unordered_map>
#include <vector>

#include "accel/capture/graph.h"
#include "accel/emit/kernel_ir.h"

namespace matfuse::accel {

/// A fusion decision: yes, or no with the rule that refused and why.
struct Decision {
  bool ok = true;
  std::string rule;
  std::string reason;
  static Decision yes() { return {}; }
  static Decision no(std::string rule, std::string reason) {
    return {false, std::move(rule), std::move(reason)};
  }
  explicit operator bool() const { return ok; }
};

struct NodeInfo {
  std::vector<const Node*> users;  ///< distinct consumers, in topological order
  int topo = 0;                    ///< position in Plan::order
  bool root = false;
  bool materialise = false;  ///< generator/movement node written to memory (see above)
  /// Cheap elementwise node recomputed inside each consumer group instead of being stored
  /// (inline_generators): like an inlined generator, it belongs to no group.
  bool recompute = false;
  int group = -1;  ///< during the passes possibly a group since merged away: use Plan::group_of
};

struct FusionGroup {
  FusionKind kind = FusionKind::Elementwise;  ///< structural kind: how the group lowers
  /// The pattern label_patterns recognised (a pattern FusionKind), else equal to `kind`.
  FusionKind label = FusionKind::Elementwise;
  /// The fusion_kind reported by --profile, --graph and telemetry: the pattern, else `kind`.
  FusionKind reported_kind() const { return label >= FusionKind::CenteredGram ? label : kind; }
  std::vector<const Node*> members;  ///< topological order after finalize()
  std::vector<const Node*> outputs;  ///< members read outside the group, or roots
  std::vector<const Node*> sources;  ///< materialised nodes read (Inputs, other groups' outputs)
  const Node* anchor = nullptr;      ///< the reduction or matrix product the group grew from
  bool alive = true;                 ///< false after being merged into another group
  // Planner bookkeeping, kept up to date by Plan::assign / Plan::merge_groups (finalize()
  // renumbers the edges with the groups):
  const Node* lead = nullptr;  ///< first member assigned (merges keep it; its rejection text)
  mutable int merged_into = -1;  ///< after merge_groups(into, this): into (union-find link)
  int topo_lo = INT_MAX;  ///< smallest NodeInfo::topo of a member
  int topo_hi = -1;       ///< largest NodeInfo::topo of a member
  std::vector<int> deps;  ///< groups this group reads directly (the set deps_of computes)
  std::vector<int> rdeps; ///< groups that read this group directly
};

struct Plan {
  std::vector<NodeRef> roots;
  std::vector<const Node*> order;  ///< every reachable node, producers first
  std::unordered_map<const Node*, NodeInfo> info;
  std::vector<FusionGroup> groups;

  NodeInfo& at(const Node* n) { return info.at(n); }
  const NodeInfo& at(const Node* n) const { return info.at(n); }
  /// Group computing n (-1: none), resolving groups merged away.
  int group_of(const Node* n) const { return resolve(info.at(n).group); }
  /// g, or the live group it was merged into.
  int resolve(int g) const;

  /// Creates an empty group; returns its index.
  int new_group(FusionKind kind, const Node* anchor = nullptr);
  /// Adds n to group g (n must be unassigned).
  void assign(const Node* n, int g);
  /// Moves every member of `from` into `into` (the members' NodeInfo::group is left naming
  /// `from`; group_of resolves it). Members are in no particular order until finalize().
  void merge_groups(int into, int from);

  /// Whether group a reads (transitively) a value of group b (a != b).
  bool depends_on(int a, int b) const;
  /// Whether adding n to g keeps the group graph acyclic.
  Decision can_join(const Node* n, int g) const;
  /// Whether merging g1 and g2 keeps the group graph acyclic.
  Decision can_merge(int g1, int g2) const;
  /// Materialised nodes that n reads when it is computed (through inlined leaves).
  void reads_of(const Node* n, std::vector<const Node*>& out) const;

  /// See the file comment. Groups are renumbered in execution order.
  void finalize();
  /// Text of the groups (MATFUSE_DUMP).
  std::string str() const;

  // Scratch of the graph walks in can_join (visit stamps indexed by NodeInfo::topo).
  mutable std::vector<uint32_t> walk_mark;
  mutable uint32_t walk_epoch = 0;
  mutable std::vector<uint32_t> group_mark;  ///< the same for group searches (by group index)
  mutable uint32_t group_epoch = 0;
};

/// Planner cost (decision 8 traces): the acyclicity checks use group dependency sets kept up to
/// date on assign/merge and prune node walks by the groups' topological bounds, so planning a
/// loop trace is near-linear in its size. With reference planning on (this thread, or
/// MATFUSE_PLAN_REFERENCE=1) they walk the graph from scratch as the first planner did
/// (quadratic); both give identical plans (tests compare them).
void set_reference_planning(bool on);
bool reference_planning();

/// Whether the planner computes n in a group (Elementwise, Cast, Reduce, MatMul, or a
/// materialised generator/movement node).
bool is_computed(const Plan& p, const Node* n);

/// Builds the unplanned plan of roots: order, users, root flags; no groups.
Plan build_plan(std::span<const NodeRef> roots);

/// Records a refused fusion: printed to stderr when MATFUSE_DEBUG_FUSION=1 as
/// "fusion rejected: NODE | rule | reason".
void note_rejection(const Node* n, const Decision& d);
/// Rejections noted on this thread since the last build_plan() ("NODE | rule | reason").
const std::vector<std::string>& rejection_log();

}  // namespace matfuse::accel
