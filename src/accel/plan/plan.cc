// Plan bookkeeping: groups, acyclicity checks, finalize (see plan.h).
#include "accel/plan/plan.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <sstream>
#include <unordered_set>

#include "runtime/error.h"
#include "runtime/options.h"

namespace matfuse::accel {
namespace {

thread_local std::vector<std::string> t_rejections;

bool debug_fusion() {
  return options().debug_fusion;
}

}  // namespace

void note_rejection(const Node* n, const Decision& d) {
  std::string line = (n ? n->str() : std::string("?")) + " | " + d.rule + " | " + d.reason;
  if (debug_fusion()) std::fprintf(stderr, "fusion rejected: %s\n", line.c_str());
  t_rejections.push_back(std::move(line));
}

const std::vector<std::string>& rejection_log() { return t_rejections; }

bool is_computed(const Plan& p, const Node* n) {
  switch (n->category) {  // one category per node kind (node_kinds.def)
    case Category::Elementwise: return !p.at(n).recompute;
    case Category::Cast:
    case Category::Reduction:
    case Category::MatMul: return true;
    case Category::Generator:
    case Category::Movement: return p.at(n).materialise;
    case Category::Leaf: return false;
  }
  return false;
}

Plan build_plan(std::span<const NodeRef> roots) {
  t_rejections.clear();
  Plan p;
  p.roots.assign(roots.begin(), roots.end());
  p.order = topo_order(roots);
  p.info.reserve(p.order.size());  // one table allocation, no rehash while it fills
  for (size_t i = 0; i < p.order.size(); ++i) p.info[p.order[i]].topo = static_cast<int>(i);
  for (const Node* n : p.order) {
    for (const NodeRef& in : n->inputs) {
      auto& users = p.info[in.get()].users;
      if (users.empty() || users.back() != n) users.push_back(n);
    }
  }
  for (const NodeRef& r : roots) p.info[r.get()].root = true;
  return p;
}

int Plan::new_group(FusionKind kind, const Node* anchor) {
  FusionGroup g;
  g.kind = kind;
  g.anchor = anchor;
  groups.push_back(std::move(g));
  return static_cast<int>(groups.size()) - 1;
}

namespace {

/// Computed nodes that read n (directly or through inlined movement nodes).
void readers_of(const Plan& p, const Node* n, std::vector<const Node*>& out) {
  for (const Node* u : p.at(n).users) {
    if (is_computed(p, u)) out.push_back(u);
    else if (u->category == Category::Movement || p.at(u).recompute)
      readers_of(p, u, out);  // through inlined nodes to the groups that evaluate them
  }
}

/// Records that group a reads group b (a != b) in both directions.
void add_dep(std::vector<FusionGroup>& gs, int a, int b) {
  std::vector<int>& d = gs[a].deps;
  if (std::find(d.begin(), d.end(), b) != d.end()) return;
  d.push_back(b);
  gs[b].rdeps.push_back(a);
}

void erase_value(std::vector<int>& v, int x) {
  v.erase(std::remove(v.begin(), v.end(), x), v.end());
}

}  // namespace

void Plan::assign(const Node* n, int g) {
  NodeInfo& ni = at(n);
  MF_ASSERT(ni.group < 0, "node assigned twice: " + n->str());
  ni.group = g;
  FusionGroup& G = groups[g];
  if (G.members.empty() && !G.lead) G.lead = n;
  G.members.push_back(n);
  G.topo_lo = std::min(G.topo_lo, ni.topo);
  G.topo_hi = std::max(G.topo_hi, ni.topo);
  // Group edges through n: the groups n reads, and the groups whose members read n.
  std::vector<const Node*> tmp;
  reads_of(n, tmp);
  for (const Node* r : tmp) {
    const int h = r->kind == NodeKind::Input ? -1 : group_of(r);
    if (h >= 0 && h != g) add_dep(groups, g, h);
  }
  tmp.clear();
  readers_of(*this, n, tmp);
  for (const Node* u : tmp) {
    const int k = group_of(u);
    if (k >= 0 && k != g) add_dep(groups, k, g);
  }
}

int Plan::resolve(int g) const {
  if (g < 0 || groups[g].merged_into < 0) return g;
  int root = g;
  while (groups[root].merged_into >= 0) root = groups[root].merged_into;
  while (groups[g].merged_into >= 0) {  // path compression
    const int next = groups[g].merged_into;
    groups[g].merged_into = root;
    g = next;
  }
  return root;
}

void Plan::merge_groups(int into, int from) {
  if (into == from) return;
  FusionGroup& F = groups[from];
  FusionGroup& I = groups[into];
  // Union by size: the larger member list is kept, the smaller appended; node labels stay and
  // resolve through merged_into.
  if (F.members.size() > I.members.size()) I.members.swap(F.members);
  I.members.insert(I.members.end(), F.members.begin(), F.members.end());
  F.merged_into = into;
  I.topo_lo = std::min(I.topo_lo, F.topo_lo);
  I.topo_hi = std::max(I.topo_hi, F.topo_hi);
  // Re-point the edges of `from` at `into` (dropping the one between them).
  const std::vector<int> fdeps = std::move(F.deps), frdeps = std::move(F.rdeps);
  F.deps.clear();
  F.rdeps.clear();
  for (int h : fdeps) {
    erase_value(groups[h].rdeps, from);
    if (h != into) add_dep(groups, into, h);
  }
  for (int k : frdeps) {
    erase_value(groups[k].deps, from);
    if (k != into) add_dep(groups, k, into);
  }
  F.members.clear();
  F.alive = false;
}

void Plan::reads_of(const Node* n, std::vector<const Node*>& out) const {
  for (const NodeRef& ir : n->inputs) {
    const Node* i = ir.get();
    if (i->kind == NodeKind::Input || is_computed(*this, i)) {
      out.push_back(i);
    } else if (i->category == Category::Movement || at(i).recompute) {
      reads_of(i, out);  // an inlined movement or recomputed node reads its inputs
    }
    // Constants, Params and inlined generators read nothing materialised.
  }
}

namespace {

thread_local bool t_reference = options().plan_reference;

/// Groups that members of g read (recomputed from the members; the reference for
/// FusionGroup::deps).
std::vector<int> deps_of(const Plan& p, int g) {
  std::vector<int> d;
  std::vector<const Node*> reads;
  for (const Node* m : p.groups[g].members) {
    reads.clear();
    p.reads_of(m, reads);
    for (const Node* r : reads) {
      const int h = r->kind == NodeKind::Input ? -1 : p.group_of(r);
      if (h >= 0 && h != g && std::find(d.begin(), d.end(), h) == d.end()) d.push_back(h);
    }
  }
  return d;
}

bool depends_on_reference(const Plan& p, int a, int b) {
  std::vector<int> stack{a};
  std::unordered_set<int> seen{a};
  while (!stack.empty()) {
    int g = stack.back();
    stack.pop_back();
    for (int h : deps_of(p, g)) {
      if (h == b) return true;
      if (seen.insert(h).second) stack.push_back(h);
    }
  }
  return false;
}

/// Whether a node upstream of n (n excluded) belongs to group g (walk of the whole cone).
bool upstream_in_group_reference(const Plan& p, const Node* n, int g) {
  std::vector<const Node*> stack;
  std::unordered_set<const Node*> seen;
  for (const NodeRef& i : n->inputs) stack.push_back(i.get());
  while (!stack.empty()) {
    const Node* x = stack.back();
    stack.pop_back();
    if (!seen.insert(x).second) continue;
    if (p.group_of(x) == g) return true;
    for (const NodeRef& i : x->inputs) stack.push_back(i.get());
  }
  return false;
}

/// Whether a node downstream of n (n included) belongs to group g (walk of the whole cone).
bool downstream_in_group_reference(const Plan& p, const Node* n, int g) {
  std::vector<const Node*> stack{n};
  std::unordered_set<const Node*> seen;
  while (!stack.empty()) {
    const Node* x = stack.back();
    stack.pop_back();
    if (!seen.insert(x).second) continue;
    if (p.group_of(x) == g) return true;
    for (const Node* u : p.at(x).users) stack.push_back(u);
  }
  return false;
}

/// Fresh visit stamp for the two walks of a search (marks indexed by NodeInfo::topo).
uint32_t new_walk(const Plan& p) {
  if (p.walk_mark.size() != 2 * p.order.size() || ++p.walk_epoch == 0) {
    p.walk_mark.assign(2 * p.order.size(), 0);
    p.walk_epoch = 1;
  }
  return p.walk_epoch;
}

/// One depth-first walk of a bidirectional search: over inputs (up) or users (down), skipping
/// nodes outside the topological window [lo, hi], seeded by a node list.
struct Walk {
  const Plan& p;
  bool up;
  int lo, hi;
  uint32_t* mark;  // visit stamps of this walk
  uint32_t stamp;
  std::span<const Node* const> seeds;
  size_t next_seed = 0;
  std::vector<const Node*> stack;

  /// Next node visited; nullptr when the walk is exhausted.
  const Node* step() {
    for (;;) {
      const Node* x;
      if (!stack.empty()) {
        x = stack.back();
        stack.pop_back();
      } else if (next_seed < seeds.size()) {
        x = seeds[next_seed++];
      } else {
        return nullptr;
      }
      const NodeInfo& xi = p.at(x);
      if (xi.topo < lo || xi.topo > hi || mark[xi.topo] == stamp) continue;
      mark[xi.topo] = stamp;
      if (up) {
        for (const NodeRef& i : x->inputs) stack.push_back(i.get());
      } else {
        for (const Node* u : xi.users) stack.push_back(u);
      }
      return x;
    }
  }
};

/// Runs walk a (from n, looking for a member of group g) and walk b (from g's members, looking
/// for n) one step each in turn; true when either finds its target, false when either ends.
bool meet(const Plan& p, Walk& a, Walk& b, const Node* n, int g) {
  for (;;) {
    const Node* x = a.step();
    if (!x) return false;
    if (p.group_of(x) == g) return true;
    const Node* y = b.step();
    if (y == n) return true;
    if (!y) return false;
  }
}

/// upstream_in_group_reference by a bidirectional search: upwards from n, stopping below the
/// group's first member (along an edge the topological position grows), and downwards from the
/// group's members up to n, one node each in turn; the first walk to decide answers, so the
/// cost is about twice the smaller of the two cones.
bool upstream_in_group(const Plan& p, const Node* n, int g) {
  if (t_reference) return upstream_in_group_reference(p, n, g);
  if (p.group_of(n) == g) return upstream_in_group_reference(p, n, g);  // not met in can_join
  const FusionGroup& G = p.groups[g];
  const int tn = p.at(n).topo;
  if (tn <= G.topo_lo) return false;
  const uint32_t stamp = new_walk(p);
  uint32_t* marks = p.walk_mark.data();
  std::vector<const Node*> inputs;
  for (const NodeRef& i : n->inputs) inputs.push_back(i.get());
  Walk a{p, true, G.topo_lo, tn - 1, marks, stamp, inputs, 0, {}};
  Walk b{p, false, G.topo_lo, tn, marks + p.order.size(), stamp, G.members, 0, {}};
  return meet(p, a, b, n, g);
}

/// downstream_in_group_reference by the same bidirectional search (downwards from n, upwards
/// from the group's members).
bool downstream_in_group(const Plan& p, const Node* n, int g) {
  if (t_reference) return downstream_in_group_reference(p, n, g);
  const FusionGroup& G = p.groups[g];
  const int tn = p.at(n).topo;
  if (tn > G.topo_hi) return false;
  const uint32_t stamp = new_walk(p);
  uint32_t* marks = p.walk_mark.data();
  const Node* start[1] = {n};
  Walk a{p, false, tn, G.topo_hi, marks, stamp, start, 0, {}};
  Walk b{p, true, tn, G.topo_hi, marks + p.order.size(), stamp, G.members, 0, {}};
  return meet(p, a, b, n, g);
}

Decision can_merge_reference(const Plan& p, int g1, int g2) {
  for (int pass = 0; pass < 2; ++pass) {
    const int a = pass ? g2 : g1, b = pass ? g1 : g2;
    for (int h : deps_of(p, a))
      if (h != b && depends_on_reference(p, h, b))
        return Decision::no("acyclic", "a path between the groups leaves through group " +
                                           std::to_string(h));
  }
  return Decision::yes();
}

}  // namespace

void set_reference_planning(bool on) { t_reference = on; }
bool reference_planning() { return t_reference; }

bool Plan::depends_on(int a, int b) const {
  if (t_reference) return depends_on_reference(*this, a, b);
  // Depth-first search over the maintained group edges (FusionGroup::deps).
  if (group_mark.size() < groups.size()) group_mark.resize(groups.size(), 0);
  if (++group_epoch == 0) {
    std::fill(group_mark.begin(), group_mark.end(), 0);
    group_epoch = 1;
  }
  const uint32_t stamp = group_epoch;
  std::vector<int> stack{a};
  group_mark[a] = stamp;
  while (!stack.empty()) {
    const int g = stack.back();
    stack.pop_back();
    for (int h : groups[g].deps) {
      if (h == b) return true;
      if (group_mark[h] != stamp) {
        group_mark[h] = stamp;
        stack.push_back(h);
      }
    }
  }
  return false;
}

namespace {

bool is_move(const Node* n) { return n->category == Category::Movement; }

/// Whether n reads a member of group g through an inlined movement node: a strided read of an
/// element another point of the same kernel computes, so the member must be materialised by
/// an earlier group instead (a transpose or slice of an in-kernel value cannot be inlined).
bool moves_from_group(const Plan& p, const Node* n, int g) {
  for (const NodeRef& ir : n->inputs) {
    const Node* i = ir.get();
    if (!is_move(i) || is_computed(p, i)) continue;
    std::vector<const Node*> reads;
    p.reads_of(i, reads);
    for (const Node* r : reads)
      if (r->kind != NodeKind::Input && p.group_of(r) == g) return true;
  }
  return false;
}

/// Whether a computed node of group g reads n through an inlined movement node.
bool group_moves_from(const Plan& p, const Node* n, int g) {
  for (const Node* u : p.at(n).users) {
    if (!is_move(u) || is_computed(p, u)) continue;
    for (const Node* w : p.at(u).users)
      if (p.group_of(w) == g) return true;
  }
  return false;
}

}  // namespace

Decision Plan::can_join(const Node* n, int g) const {
  if (moves_from_group(*this, n, g) || group_moves_from(*this, n, g))
    return Decision::no("movement", "%" + std::to_string(n->serial) +
                                        " and the group would read each other's elements "
                                        "through a transpose or slice");
  std::vector<const Node*> reads;
  reads_of(n, reads);
  std::vector<int> read_groups;
  for (const Node* r : reads) {
    if (r->kind == NodeKind::Input || group_of(r) == g) continue;
    const int h = group_of(r);
    if (h >= 0) read_groups.push_back(h);
    if (h >= 0 && depends_on(h, g))
      return Decision::no("acyclic", "input %" + std::to_string(r->serial) +
                                         " is computed by a group that reads this group");
    // r (or a node between the group and r, not yet placed) is computed from the group.
    if (upstream_in_group(*this, r, g))
      return Decision::no("acyclic", "input %" + std::to_string(r->serial) +
                                         " is computed from this group");
  }
  std::vector<const Node*> readers;
  readers_of(*this, n, readers);
  for (const Node* u : readers) {
    const int h = group_of(u);
    if (h == g) continue;
    bool cycle = h >= 0 && depends_on(g, h);
    for (int rg : read_groups) cycle |= h >= 0 && (rg == h || depends_on(rg, h));
    // u (outside) feeds the group: the group would read a value computed from its own.
    cycle |= downstream_in_group(*this, u, g);
    if (cycle)
      return Decision::no("acyclic", "consumer %" + std::to_string(u->serial) +
                                         " feeds this group");
  }
  return Decision::yes();
}

Decision Plan::can_merge(int g1, int g2) const {
  for (int pass = 0; pass < 2; ++pass)
    for (const Node* m : groups[pass ? g2 : g1].members)
      if (moves_from_group(*this, m, pass ? g1 : g2))
        return Decision::no("movement", "%" + std::to_string(m->serial) +
                                            " reads the other group's elements through a "
                                            "transpose or slice");
  if (t_reference) return can_merge_reference(*this, g1, g2);
  for (int pass = 0; pass < 2; ++pass) {
    const int a = pass ? g2 : g1, b = pass ? g1 : g2;
    for (int h : groups[a].deps)
      if (h != b && depends_on(h, b))
        return can_merge_reference(*this, g1, g2);  // same answer; its text names the group
  }
  return Decision::yes();
}

namespace {
uint64_t first_serial(const FusionGroup& g) {
  uint64_t s = UINT64_MAX;
  for (const Node* m : g.members) s = std::min(s, m->serial);
  return s;
}
}  // namespace

void Plan::finalize() {
  for (const Node* n : order) {
    if (!is_computed(*this, n) || at(n).group >= 0) continue;
    FusionKind k = n->kind == NodeKind::Reduce   ? FusionKind::Reduction
                   : n->kind == NodeKind::MatMul ? FusionKind::MatMul
                                                 : FusionKind::Elementwise;
    assign(n, new_group(k, (n->kind == NodeKind::Reduce || n->kind == NodeKind::MatMul) ? n : nullptr));
  }
  for (auto& [n, ni] : info) ni.group = resolve(ni.group);
  // Keep live groups, members in topological order.
  std::vector<FusionGroup> live;
  std::vector<int> remap(groups.size(), -1);
  for (size_t g = 0; g < groups.size(); ++g) {
    if (!groups[g].alive || groups[g].members.empty()) continue;
    remap[g] = static_cast<int>(live.size());
    live.push_back(std::move(groups[g]));
  }
  groups = std::move(live);
  for (auto& [n, ni] : info)
    if (ni.group >= 0) ni.group = remap[ni.group];
  for (FusionGroup& g : groups)
    std::sort(g.members.begin(), g.members.end(),
              [&](const Node* a, const Node* b) { return at(a).topo < at(b).topo; });
  // Execution order: Kahn's algorithm, ties broken by the earliest created member (program
  // order, so that the first failing operation is usually the one whose error surfaces).
  const int ng = static_cast<int>(groups.size());
  std::vector<std::vector<int>> deps(ng);
  std::vector<int> indeg(ng, 0);
  for (int g = 0; g < ng; ++g) {
    deps[g] = deps_of(*this, g);
    indeg[g] = static_cast<int>(deps[g].size());
  }
  std::vector<uint64_t> first(ng);
  for (int g = 0; g < ng; ++g) first[g] = first_serial(groups[g]);
  std::vector<int> exec;
  std::vector<bool> done(ng, false);
  for (int step = 0; step < ng; ++step) {
    int best = -1;
    for (int g = 0; g < ng; ++g) {
      if (done[g]) continue;
      bool ready = true;
      for (int h : deps[g]) ready &= done[h];
      if (ready && (best < 0 || first[g] < first[best])) best = g;
    }
    MF_ASSERT(best >= 0, "fusion groups form a cycle");
    done[best] = true;
    exec.push_back(best);
  }
  std::vector<FusionGroup> ordered;
  std::vector<int> pos(ng);
  for (int i = 0; i < ng; ++i) {
    pos[exec[i]] = i;
    ordered.push_back(std::move(groups[exec[i]]));
  }
  groups = std::move(ordered);
  for (auto& [n, ni] : info)
    if (ni.group >= 0) ni.group = pos[ni.group];
  // Group edges in the final numbering.
  for (int g = 0; g < ng; ++g) groups[g].deps.clear(), groups[g].rdeps.clear();
  for (int g = 0; g < ng; ++g)
    for (int h : deps[g]) add_dep(groups, pos[g], pos[h]);
  // Outputs and sources.
  std::vector<const Node*> tmp;
  for (int g = 0; g < ng; ++g) {
    FusionGroup& G = groups[g];
    G.outputs.clear();
    G.sources.clear();
    for (const Node* m : G.members) {
      bool out = at(m).root;
      tmp.clear();
      readers_of(*this, m, tmp);
      for (const Node* u : tmp) out |= group_of(u) != g;
      if (out) G.outputs.push_back(m);
      tmp.clear();
      reads_of(m, tmp);
      for (const Node* r : tmp)
        if ((r->kind == NodeKind::Input || group_of(r) != g) &&
            std::find(G.sources.begin(), G.sources.end(), r) == G.sources.end())
          G.sources.push_back(r);
    }
  }
}

std::string Plan::str() const {
  std::ostringstream os;
  auto list = [&](const std::vector<const Node*>& v) {
    std::string s;
    for (const Node* n : v) s += (s.empty() ? "%" : " %") + std::to_string(n->serial);
    return s;
  };
  for (size_t g = 0; g < groups.size(); ++g) {
    const FusionGroup& G = groups[g];
    if (!G.alive) continue;
    os << "group " << g << " " << fusion_kind_name(G.reported_kind())
       << ": members [" << list(G.members)
       << "] outputs [" << list(G.outputs) << "] sources [" << list(G.sources) << "]\n";
    for (const Node* m : G.members) os << "    " << m->str() << "\n";
  }
  for (const Node* n : order)
    if (!is_computed(*this, n) && n->kind != NodeKind::Input && n->kind != NodeKind::Constant &&
        n->kind != NodeKind::Param)
      os << "inlined " << n->str() << "\n";
  return os.str();
}

}  // namespace matfuse::accel
