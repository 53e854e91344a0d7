// Pass-independent plan verifier (see passes.h); run between passes in debug builds.
#include <unordered_set>

#include "accel/plan/passes/passes.h"

namespace matfuse::accel {

std::string verify_plan(const Plan& p, bool final) {
  for (const Node* n : p.order) {
    const NodeInfo& ni = p.at(n);
    const bool computed = is_computed(p, n);
    if (!computed && ni.group >= 0) return "inlined node in a group: " + n->str();
    if (computed && ni.group < 0 && final) return "computed node without group: " + n->str();
    if (ni.group >= static_cast<int>(p.groups.size())) return "bad group index: " + n->str();
    const int g = p.group_of(n);
    if (g >= 0 && !p.groups[g].alive) return "node in a dead group: " + n->str();
    if (n->kind == NodeKind::Generator && ni.group >= 0 && !ni.materialise)
      return "generator stored without being materialised: " + n->str();
  }
  for (size_t g = 0; g < p.groups.size(); ++g) {
    const FusionGroup& G = p.groups[g];
    if (!G.alive) continue;
    std::unordered_set<const Node*> seen;
    for (const Node* m : G.members) {
      if (!seen.insert(m).second) return "node twice in group " + std::to_string(g);
      if (p.group_of(m) != static_cast<int>(g)) return "membership mismatch: " + m->str();
      if ((G.kind == FusionKind::Elementwise || G.kind == FusionKind::Loop) &&
          m->dims != G.members.front()->dims)
        return "elementwise group with two iteration spaces: " + m->str();
    }
    if (G.kind == FusionKind::Reduction) {
      int nred = 0;
      for (const Node* m : G.members) nred += m->kind == NodeKind::Reduce;
      if (nred == 0) return "reduction group without a reduction";
    }
    if (final)
      for (size_t h = 0; h < p.groups.size(); ++h)
        if (h != g && p.depends_on(static_cast<int>(g), static_cast<int>(h)) &&
            p.depends_on(static_cast<int>(h), static_cast<int>(g)))
          return "groups " + std::to_string(g) + " and " + std::to_string(h) + " form a cycle";
  }
  return "";
}

}  // namespace matfuse::accel
