// The planner pipeline (see pipeline.h).
#include "accel/plan/pipeline.h"

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <unordered_map>
#include <unordered_set>

#include "accel/plan/passes/passes.h"
#include "runtime/error.h"
#include "runtime/options.h"

namespace matfuse::accel {
namespace {

/// Whether MATFUSE_DUMP asks for a dump after pass `name`.
bool dump_after(const char* name) {
  for (const std::string& pass : options().dump_after)
    if (pass == "all" || pass == name) return true;
  return false;
}

void finalize_pass(Plan& p) { p.finalize(); }

// -1: not set yet (then MATFUSE_VERIFY_PLANS decides in Release builds). Constant-initialised,
// so a test binary's set_verify_plans(true) at static initialisation is never overwritten.
#ifdef NDEBUG
std::atomic<int> g_verify{-1};
#else
std::atomic<int> g_verify{1};
#endif

}  // namespace

void run_pipeline(Plan& p) {
  struct Pass {
    const char* name;
    void (*run)(Plan&);
  };
  static const Pass kPasses[] = {
      {"inline_generators", inline_generators},
      // Matrix products first: a chain after a product is its epilogue rather than a
      // reduction's prologue (the reduction then reads the finished value).
      {"fuse_matmul_epilogue", fuse_matmul_epilogue},
      {"fuse_reduction", fuse_reduction},
      {"fuse_elementwise", fuse_elementwise},
      {"finalize", finalize_pass},
      {"label_patterns", label_patterns},
  };
  bool final_seen = false;  // finalize ran: every computed node has a group from then on
  for (const Pass& pass : kPasses) {
    pass.run(p);
    final_seen = final_seen || pass.run == finalize_pass;
    if (dump_after(pass.name))
      std::fprintf(stderr, "--- plan after %s ---\n%s", pass.name, p.str().c_str());
    if (verify_plans()) {
      const std::string bad = verify_plan(p, final_seen);
      MF_ASSERT(bad.empty(), std::string("plan invalid after ") + pass.name + ": " + bad);

    }
  }
}

void set_verify_plans(bool on) { g_verify.store(on ? 1 : 0, std::memory_order_relaxed); }
bool verify_plans() {
  int v = g_verify.load(std::memory_order_relaxed);
  if (v < 0) {
    v = options().verify_plans ? 1 : 0;
    g_verify.store(v, std::memory_order_relaxed);
  }
  return v == 1;
}

Plan plan_fusion(std::span<const NodeRef> roots) {
  Plan p = build_plan(roots);
  run_pipeline(p);
  return p;
}

std::vector<NodeRef> generators_to_store(std::span<const NodeRef> roots) {
  constexpr int64_t kMinStore = 65536;
  // Candidates: large rand/randn generators with two consumers or more.
  std::unordered_map<const Node*, std::pair<NodeRef, int>> cand;
  for (const Node* n : topo_order(roots))
    for (const NodeRef& i : n->inputs)
      if (i->kind == NodeKind::Generator && (i->gen == GenKind::Rand || i->gen == GenKind::Randn) &&
          i->numel() >= kMinStore &&
          static_cast<double>(i->numel()) * element_size(i->cls) <= Tensor::max_array_bytes() / 8)
        cand.try_emplace(i.get(), i, 0).first->second.second++;
  std::erase_if(cand, [](const auto& c) { return c.second.second < 2; });
  for (const NodeRef& r : roots) cand.erase(r.get());
  if (cand.empty()) return {};
  const Plan p = plan_fusion(roots);
  std::vector<NodeRef> out;
  for (const auto& [g, c] : cand) {
    if (!p.info.count(g) || p.group_of(g) >= 0) continue;  // already computed once
    int64_t consumed = 0;
    for (const FusionGroup& G : p.groups) {
      if (!G.alive) continue;
      // g itself or inlined slices of it, once per group (also through recomputed nodes).
      std::unordered_set<const Node*> read, seen;
      std::vector<const Node*> stack(G.members.begin(), G.members.end());
      while (!stack.empty()) {
        const Node* m = stack.back();
        stack.pop_back();
        for (const NodeRef& i : m->inputs) {
          const bool direct = i.get() == g;
          const bool slice = (i->kind == NodeKind::Slice || i->kind == NodeKind::Diag) &&
                             i->inputs[0].get() == g &&
                             p.group_of(i.get()) < 0;
          if ((direct || slice) && read.insert(i.get()).second) consumed += i->numel();
          if (p.info.count(i.get()) && p.at(i.get()).recompute && seen.insert(i.get()).second)
            stack.push_back(i.get());
        }
      }
    }
    if (consumed > g->numel()) out.push_back(c.first);
  }
  return out;
}

}  // namespace matfuse::accel
