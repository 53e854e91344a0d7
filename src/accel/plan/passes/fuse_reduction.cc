// Pass fuse_reduction: reduction groups with sibling sharing, producer prologue and a small
// elementwise epilogue (see passes.h).
#include <algorithm>
#include <unordered_set>

#include "accel/plan/passes/passes.h"

namespace matfuse::accel {
namespace {

constexpr int kMaxEpilogue = 32;

bool elementwise_like(const Node* n) {
  return n->kind == NodeKind::Elementwise || n->kind == NodeKind::Cast;
}
/// Elementwise nodes a group can take (recomputed ones stay outside every group).
bool groupable(const Plan& p, const Node* n) { return elementwise_like(n) && is_computed(p, n); }

/// Nodes of the elementwise cone above x with x's shape, and the leaves/sources it reads.
void cone(const Plan& p, const Node* x, std::unordered_set<const Node*>& out) {
  std::vector<const Node*> stack{x};
  while (!stack.empty()) {
    const Node* n = stack.back();
    stack.pop_back();
    if (!out.insert(n).second) continue;
    if (elementwise_like(n) && n->dims == x->dims)
      for (const NodeRef& i : n->inputs) stack.push_back(i.get());
  }
}

bool shares_source(const std::unordered_set<const Node*>& a,
                   const std::unordered_set<const Node*>& b) {
  for (const Node* n : a)
    if (n->kind != NodeKind::Constant && n->kind != NodeKind::Param && b.count(n)) return true;
  return false;
}

/// Computed consumers of n (through inlined movement nodes).
void readers(const Plan& p, const Node* n, std::vector<const Node*>& out) {
  for (const Node* u : p.at(n).users) {
    if (is_computed(p, u)) out.push_back(u);
    else if (u->category == Category::Movement || p.at(u).recompute)
      readers(p, u, out);
  }
}

}  // namespace

void fuse_reduction(Plan& p) {
  struct RG {
    int group;
    const Node* first;
    std::unordered_set<const Node*> cone;
  };
  std::vector<RG> made;
  // 1. Sibling reductions share a group.
  for (const Node* r : p.order) {
    if (r->kind != NodeKind::Reduce || p.at(r).group >= 0) continue;
    std::unordered_set<const Node*> c;
    cone(p, r->inputs[0].get(), c);
    int joined = -1;
    for (RG& g : made) {
      const Node* f = g.first;
      if (f->inputs[0]->dims != r->inputs[0]->dims || f->reduce_mask != r->reduce_mask ||
          f->dims != r->dims)
        continue;
      if (!shares_source(g.cone, c)) continue;
      if (c.count(f) || g.cone.count(r)) continue;  // one feeds the other
      Decision d = p.can_join(r, g.group);
      if (!d) {
        note_rejection(r, d);
        continue;
      }
      p.assign(r, g.group);
      g.cone.insert(c.begin(), c.end());
      joined = g.group;
      break;
    }
    if (joined < 0) {
      const int g = p.new_group(FusionKind::Reduction, r);
      p.assign(r, g);
      made.push_back({g, r, std::move(c)});
    }
  }
  // 2. Prologue: producers whose every consumer is in the group (reverse topological order, so
  //    consumers are decided first).
  for (RG& g : made) {
    const Dims& in_dims = g.first->inputs[0]->dims;
    for (auto it = p.order.rbegin(); it != p.order.rend(); ++it) {
      const Node* n = *it;
      if (!g.cone.count(n) || !groupable(p, n) || p.at(n).group >= 0) continue;
      if (n->dims != in_dims) {
        note_rejection(n, Decision::no("reduction.prologue", "shape " + n->dims.str() +
                                                                  " differs from the reduced "
                                                                  "input " + in_dims.str()));
        continue;
      }
      std::vector<const Node*> rd;
      readers(p, n, rd);
      bool inside = !rd.empty() && !p.at(n).root;
      for (const Node* u : rd) inside &= p.group_of(u) == g.group;
      if (!inside) {
        // Also needed outside (a root, or a consumer elsewhere): the reduction kernel writes it
        // from its body in the same pass (KOutput::in_body), when the groups stay acyclic.
        Decision d = p.can_join(n, g.group);
        if (!d) {
          note_rejection(n, d);
          continue;
        }
      }
      p.assign(n, g.group);
    }
  }
  // 2b. Sibling consumers: elementwise nodes of the reduced input's shape that read prologue
  //     values (e.g. z = y + 1 next to s = sum(y)) are computed in the same body and written
  //     from it, so y need not be stored for them.
  for (RG& g : made) {
    const Dims& in_dims = g.first->inputs[0]->dims;
    for (const Node* n : p.order) {
      if (!groupable(p, n) || p.at(n).group >= 0 || n->dims != in_dims) continue;
      bool reads_prologue = false, reads_tail = false;
      for (const NodeRef& i : n->inputs) {
        if (p.group_of(i.get()) != g.group) continue;
        if (i->kind == NodeKind::Reduce) reads_tail = true;
        else reads_prologue = true;
      }
      if (!reads_prologue || reads_tail) continue;
      Decision d = p.can_join(n, g.group);
      if (!d) {
        note_rejection(n, d);
        continue;
      }
      p.assign(n, g.group);
    }
  }
  // 3. Epilogue: elementwise consumers of the reduced shape.
  for (RG& g : made) {
    const Dims& out_dims = g.first->dims;
    std::unordered_set<const Node*> tail;  // reductions and epilogue members
    for (const Node* m : p.groups[g.group].members)
      if (m->kind == NodeKind::Reduce) tail.insert(m);
    int added = 0;
    for (const Node* n : p.order) {
      if (added >= kMaxEpilogue) break;
      if (!groupable(p, n) || p.at(n).group >= 0 || n->dims != out_dims) continue;
      bool uses_tail = false, uses_prologue = false;
      for (const NodeRef& i : n->inputs) {
        if (tail.count(i.get())) uses_tail = true;
        else if (p.group_of(i.get()) == g.group) uses_prologue = true;
      }
      if (!uses_tail) continue;
      if (uses_prologue) {
        note_rejection(n, Decision::no("reduction.epilogue", "reads a prologue value"));
        continue;
      }
      Decision d = p.can_join(n, g.group);
      if (!d) {
        note_rejection(n, d);
        continue;
      }
      p.assign(n, g.group);
      tail.insert(n);
      ++added;
    }
  }
}

}  // namespace matfuse::accel
