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
        if ((u->kind == NodeKind::Transpose || u->kind == NodeKind::Slice) &&
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
}

}  // namespace matfuse::accel
