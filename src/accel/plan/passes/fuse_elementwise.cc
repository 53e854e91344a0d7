// Pass fuse_elementwise: maximal elementwise regions (see passes.h).
#include <algorithm>
#include <set>
#include <unordered_set>

#include "accel/plan/passes/passes.h"

namespace matfuse::accel {
namespace {

bool elementwise_group(const FusionGroup& g) {
  return g.alive && g.lead && (g.kind == FusionKind::Elementwise || g.kind == FusionKind::Loop) &&
         g.anchor == nullptr;
}

/// Whether group g holds the trace of several loop iterations (decision 8): its members were
/// created in at least two different iterations of a for/while body (Node::iteration), or
/// read loop-index Params of several iterations (slices X(:, t)).
bool spans_iterations(const FusionGroup& g) {
  std::set<uint64_t> its;
  for (const Node* m : g.members) {
    if (m->iteration) its.insert(m->iteration);
    for (const NodeRef& i : m->inputs)
      if (i->kind == NodeKind::Param && i->role == ParamRole::LoopIndex && i->iteration)
        its.insert(i->iteration);
    if (its.size() >= 2) return true;
  }
  return false;
}

}  // namespace

void fuse_elementwise(Plan& p) {
  for (const Node* c : p.order) {
    if ((c->kind != NodeKind::Elementwise && c->kind != NodeKind::Cast) || p.at(c).group >= 0 ||
        !is_computed(p, c))
      continue;
    std::vector<int> candidates;
    for (const NodeRef& ir : c->inputs) {
      const Node* i = ir.get();
      if (!is_computed(p, i) || i->kind == NodeKind::Input) continue;
      const int g = p.group_of(i);
      if (g < 0) continue;
      const FusionGroup& G = p.groups[g];
      if (!elementwise_group(G)) {
        note_rejection(c, Decision::no("elementwise.kind", "producer %" + std::to_string(i->serial) +
                                                               " is in a " +
                                                               std::string(fusion_kind_name(G.kind)) +
                                                               " group"));
        continue;
      }
      if (G.lead->dims != c->dims) {
        note_rejection(c, Decision::no("elementwise.space",
                                       "iteration space " + c->dims.str() +
                                           " differs from producer's " +
                                           G.lead->dims.str()));
        continue;
      }
      if (std::find(candidates.begin(), candidates.end(), g) == candidates.end())
        candidates.push_back(g);
    }
    int home = -1;
    for (int g : candidates) {
      Decision d = p.can_join(c, g);
      if (d) {
        home = g;
        break;
      }
      note_rejection(c, d);
    }
    if (home < 0) home = p.new_group(FusionKind::Elementwise);
    p.assign(c, home);
    for (int g : candidates) {
      if (g == home || !p.groups[g].alive) continue;
      Decision d = p.can_merge(home, g);
      if (d) p.merge_groups(home, g);
      else note_rejection(c, d);
    }
  }
  // Sibling regions: same iteration space and a common source read once for both.
  std::vector<int> live;  // no group becomes elementwise below; merged ones are skipped
  for (size_t g = 0; g < p.groups.size(); ++g)
    if (elementwise_group(p.groups[g])) live.push_back(static_cast<int>(g));
  std::vector<const Node*> tmp;
  for (size_t i = 0; i < live.size(); ++i) {
    const int g = live[i];
    if (!elementwise_group(p.groups[g])) continue;
    std::unordered_set<const Node*> reads_g;  // reads of g's members, grown with each merge
    bool have_reads = false;
    for (size_t j = i + 1; j < live.size(); ++j) {
      const int h = live[j];
      if (!elementwise_group(p.groups[h]) || p.groups[h].lead->dims != p.groups[g].lead->dims)
        continue;
      if (!have_reads) {
        tmp.clear();
        for (const Node* m : p.groups[g].members) p.reads_of(m, tmp);
        reads_g.insert(tmp.begin(), tmp.end());
        have_reads = true;
      }
      tmp.clear();
      for (const Node* m : p.groups[h].members) p.reads_of(m, tmp);
      bool shared = false;
      for (const Node* r : tmp) shared |= reads_g.count(r) > 0 && p.group_of(r) != g;
      if (!shared) continue;
      Decision d = p.can_merge(g, h);
      if (d) {
        p.merge_groups(g, h);
        reads_g.insert(tmp.begin(), tmp.end());
      } else {
        note_rejection(p.groups[h].lead, d);
      }
    }
  }
  for (FusionGroup& g : p.groups) {
    if (!elementwise_group(g)) continue;
    if (spans_iterations(g)) g.kind = FusionKind::Loop;
  }
}

}  // namespace matfuse::accel
