// Pass inline_generators: decides which generator and movement nodes are recomputed inside
// their consumers and which are materialised (see passes.h).
#include "accel/passes/passes.h"

namespace matfuse::accel {

void inline_generators(Plan& p) {
  for (const Node* n : p.order) {
    const bool gen = n->kind == NodeKind::Generator;
    const bool move = n->kind == NodeKind::Transpose || n->kind == NodeKind::Slice;
    if (!gen && !move) continue;
    NodeInfo& ni = p.at(n);
    Decision d = Decision::yes();
    if (ni.root) {
      d = Decision::no("inline_generators", "the value itself is requested");
    } else {
      for (const Node* u : ni.users) {
        if (u->kind == NodeKind::MatMul && !(n->kind == NodeKind::Transpose)) {
          d = Decision::no("inline_generators", "operand of a matrix product needs memory");
          break;
        }
        // A slice of a generator is the generator evaluated at the selected elements' linear
        // indices (lower.cc), so it needs no memory; other movement bases do.
        const bool gen_slice = gen && u->kind == NodeKind::Slice;
        if ((u->kind == NodeKind::Transpose || u->kind == NodeKind::Slice) && !gen_slice &&
            u->inputs[0].get() == n) {
          d = Decision::no("inline_generators", "base of a movement node needs memory");
          break;
        }
      }
    }
    if (!d) {
      ni.materialise = true;
      note_rejection(n, d);
    }
  }
  // One cheap arithmetic op over values that are at hand anyway (leaves, generators, roots,
  // broadcast reduction results), read by several consumers: each consumer group recomputes it
  // rather than one group storing it for the others (x - mean(x) read by a variance and by a
  // normalisation costs a load of x either way, but storing it costs a write and a read).
  for (const Node* n : p.order) {
    if (n->kind != NodeKind::Elementwise || n->inputs.size() != 2) continue;
    if (n->op != OpId::Add && n->op != OpId::Sub && n->op != OpId::Mul && n->op != OpId::Max &&
        n->op != OpId::Min)
      continue;
    if (n->cls != ClassId::Single && n->cls != ClassId::Double) continue;
    NodeInfo& ni = p.at(n);
    if (ni.root || ni.users.size() < 2) continue;
    bool ok = true;
    for (const Node* u : ni.users)
      ok &= u->kind == NodeKind::Elementwise || u->kind == NodeKind::Cast ||
            u->kind == NodeKind::Reduce;
    for (const NodeRef& i : n->inputs) {
      const Node* x = i.get();
      ok &= x->is_leaf() || x->kind == NodeKind::Generator || p.at(x).root ||
            (x->kind == NodeKind::Reduce && x->numel() < n->numel());
    }
    if (ok) ni.recompute = true;
  }
}

}  // namespace matfuse::accel
