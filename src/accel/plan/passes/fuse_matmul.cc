// Pass fuse_matmul_epilogue: matrix products and their single-consumer elementwise chains,
// optionally ended by a diag (see passes.h).
#include "accel/plan/passes/passes.h"

namespace matfuse::accel {

void fuse_matmul_epilogue(Plan& p) {
  for (const Node* mm : p.order) {
    if (mm->kind != NodeKind::MatMul || p.at(mm).group >= 0) continue;
    const int g = p.new_group(FusionKind::MatMul, mm);
    p.assign(mm, g);
    // Adds u to the group (now a matmul_epilogue), or notes why it cannot join.
    auto join = [&](const Node* u) {
      Decision d = p.can_join(u, g);
      if (!d) {
        note_rejection(u, d);
        return false;
      }
      p.assign(u, g);
      p.groups[g].kind = FusionKind::MatMulEpilogue;
      return true;
    };
    const Node* cur = mm;
    for (;;) {
      const NodeInfo& ci = p.at(cur);
      if (ci.root) break;
      if (ci.users.size() != 1) {
        note_rejection(cur, Decision::no("matmul_epilogue", std::to_string(ci.users.size()) +
                                                                " consumers"));
        break;
      }
      const Node* u = ci.users[0];
      // An optional final diag (materialised by inline_generators for this purpose): the
      // epilogue then runs over the diagonal points only, and the chain ends here.
      if (u->kind == NodeKind::Diag && is_computed(p, u) && p.at(u).group < 0) {
        join(u);
        break;
      }
      if ((u->kind != NodeKind::Elementwise && u->kind != NodeKind::Cast) || !is_computed(p, u)) {
        note_rejection(u, Decision::no("matmul_epilogue", "consumer is not elementwise"));
        break;
      }
      if (u->dims != mm->dims) {
        note_rejection(u, Decision::no("matmul_epilogue", "consumer broadcasts the product to " +
                                                              u->dims.str()));
        break;
      }
      if (p.at(u).group >= 0) break;
      bool twice = false;  // e.g. C .* C: both operands are the chain
      if (u->inputs.size() == 2 && u->inputs[0] == u->inputs[1]) twice = true;
      if (twice) {
        note_rejection(u, Decision::no("matmul_epilogue", "uses the product twice"));
        break;
      }
      if (!join(u)) break;
      cur = u;
    }
  }
}

}  // namespace matfuse::accel
