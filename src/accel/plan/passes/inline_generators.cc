// Pass inline_generators: decides which generator and movement nodes are recomputed inside
// their consumers and which are materialised (see passes.h).
#include <unordered_set>

#include "accel/plan/passes/passes.h"

namespace matfuse::accel {
namespace {

/// The Diag that ends the single-consumer elementwise chain after matrix product mm (the
/// links fuse_matmul_epilogue follows), or nullptr.
const Node* diag_after_chain(const Plan& p, const Node* mm) {
  const Node* cur = mm;
  for (int depth = 0; depth < 4096; ++depth) {
    const NodeInfo& ci = p.at(cur);
    if (ci.root || ci.users.size() != 1) return nullptr;
    const Node* u = ci.users[0];
    if (u->kind == NodeKind::Diag) return u;
    if ((u->kind != NodeKind::Elementwise && u->kind != NodeKind::Cast) || u->dims != mm->dims)
      return nullptr;
    if (u->inputs.size() == 2 && u->inputs[0] == u->inputs[1]) return nullptr;
    cur = u;
  }
  return nullptr;
}

}  // namespace

void inline_generators(Plan& p) {
  // A diagonal that ends a matrix product's epilogue chain is computed by the product's kernel
  // (fuse_matmul_epilogue), which evaluates the epilogue at the diagonal points only.
  std::unordered_set<const Node*> epilogue_diags;
  for (const Node* n : p.order)
    if (n->kind == NodeKind::MatMul)
      if (const Node* d = diag_after_chain(p, n)) epilogue_diags.insert(d);
  for (const Node* n : p.order) {
    const bool gen = n->kind == NodeKind::Generator;
    const bool move = n->category == Category::Movement;
    if (!gen && !move) continue;
    NodeInfo& ni = p.at(n);
    if (epilogue_diags.count(n)) {
      ni.materialise = true;  // not a refusal: the product's group computes it
      continue;
    }
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
        const bool gen_slice = gen && (u->kind == NodeKind::Slice || u->kind == NodeKind::Diag);
        const bool u_move = u->category == Category::Movement;
        if (u_move && !gen_slice &&
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
    if (!op_has(n->op, kRecompute)) continue;  // the kRecompute flag of ops.def
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
