// Lazy values: registry of pending values, the force hook, graph limits, sink reasons and the
// --graph hook (the recorder is mermaid.cc).
#include "accel/capture/lazy.h"

#include <algorithm>
#include <span>
#include <atomic>
#include <cstdlib>
#include <mutex>
#include <sstream>
#include <string>
#include <unordered_map>
#include <unordered_set>

#include "accel/run/evaluate.h"
#include "accel/run/mermaid.h"
#include "accel/plan/pipeline.h"
#include "runtime/error.h"
#include "runtime/options.h"

namespace matfuse::accel {
namespace {

// ---- configuration ----------------------------------------------------------------------------

LazyConfig read_config() {
  const Options& o = options();
  LazyConfig c;
  c.enabled = o.lazy;
  c.loop_replay = o.loop_replay;
  c.min_numel = o.lazy_min;
  c.node_limit = o.lazy_nodes;
  c.depth_limit = o.lazy_depth;
  return c;
}

// ---- registry of pending values ---------------------------------------------------------------

struct Registry {
  std::vector<std::weak_ptr<const LazyRef>> refs;
  size_t since_sweep = 0;
  void sweep() {
    refs.erase(std::remove_if(refs.begin(), refs.end(),
                              [](const std::weak_ptr<const LazyRef>& w) {
                                auto r = w.lock();
                                return !r || r->node->kind == NodeKind::Input;
                              }),
               refs.end());
    since_sweep = 0;
  }
};
// The interpreter is single-threaded; the registry is still guarded so that tests running
// interpreters on several threads stay safe.
std::mutex g_mu;
Registry& registry() {
  static Registry* r = new Registry();  // never destroyed: tensors may outlive statics
  return *r;
}


std::atomic<LiveValuesHook> g_live_hook{nullptr};

/// Whether n ends a walk of a pending graph: a leaf, or a forced node (its value is stored).
bool settled(const Node* n) { return n->is_leaf() || n->forced.has(); }

/// Whether n is computed by a kernel (not settled, not an inlined generator).
bool is_computed_node(const Node* n) {
  return !settled(n) && n->kind != NodeKind::Generator;
}

/// Computed nodes of the pending graph of root (stops at leaves and forced nodes).
void computed_nodes(const Node* root, std::unordered_set<const Node*>& out) {
  std::vector<const Node*> stack{root};
  std::unordered_set<const Node*> seen{root};
  while (!stack.empty()) {
    const Node* n = stack.back();
    stack.pop_back();
    if (is_computed_node(n)) out.insert(n);
    if (n->forced.has()) continue;
    for (const NodeRef& i : n->inputs)
      if (seen.insert(i.get()).second) stack.push_back(i.get());
  }
}

/// The graph of roots read on stored values: every forced node (value in its slot) becomes an
/// Input of that value, and each node above one is rebuilt on the new inputs (with_inputs);
/// nodes with no forced node below them stay themselves. Interned nodes are never rewritten.
std::vector<NodeRef> on_stored_values(const std::vector<NodeRef>& roots) {
  std::unordered_map<const Node*, NodeRef> memo;  // node -> its replacement (null if none)
  std::vector<std::pair<const Node*, size_t>> stack;
  auto resolve = [&](const NodeRef& root) -> NodeRef {
    if (auto it = memo.find(root.get()); it != memo.end()) return it->second;
    stack.push_back({root.get(), 0});
    while (!stack.empty()) {
      auto& [n, i] = stack.back();
      if (n->forced.has()) {
        memo[n] = input(n->forced.get());
        stack.pop_back();
        continue;
      }
      if (i < n->inputs.size()) {
        const Node* c = n->inputs[i++].get();
        if (!memo.count(c)) stack.push_back({c, 0});
        continue;
      }
      bool changed = false;
      for (const NodeRef& c : n->inputs) changed = changed || memo.at(c.get()) != nullptr;
      NodeRef self;
      if (changed) {
        std::vector<NodeRef> ins;
        ins.reserve(n->inputs.size());
        for (const NodeRef& c : n->inputs) {
          const NodeRef& m = memo.at(c.get());
          ins.push_back(m ? m : c);
        }
        self = with_inputs(*n, std::move(ins));
      }
      memo[n] = std::move(self);  // null: unchanged
      stack.pop_back();
    }
    return memo.at(root.get());
  };
  std::vector<NodeRef> out;
  out.reserve(roots.size());
  for (const NodeRef& r : roots) {
    NodeRef x = resolve(r);
    out.push_back(x ? x : r);
  }
  return out;
}

/// Input leaves made for forced nodes -> the forced node (identity only), see forced_origin.
struct Origins {
  std::unordered_map<const Node*, std::pair<std::weak_ptr<const Node>, const Node*>> m;
  void prune() {
    std::erase_if(m, [](const auto& e) { return e.second.first.expired(); });
  }
};
Origins& origins() {  // guarded by g_mu
  static Origins* o = new Origins();
  return *o;
}

/// Stores each value beside its node (see the contract) and points every pending value of a
/// node at an Input of its value, so later graphs read the stored value and the node's history
/// is freed with the node.
void materialize(std::span<const NodeRef> nodes, std::span<const Tensor> values) {
  std::unordered_map<const Node*, NodeRef> leaf_of;
  for (size_t i = 0; i < nodes.size(); ++i) {
    if (nodes[i]->kind == NodeKind::Input) continue;
    nodes[i]->forced.set(values[i]);
    leaf_of.emplace(nodes[i].get(), input(values[i]));
  }
  std::lock_guard<std::mutex> l(g_mu);
  Origins& o = origins();
  if (o.m.size() > 4096) o.prune();
  for (const auto& [node, leaf] : leaf_of) o.m[leaf.get()] = {leaf, node};
  for (const auto& w : registry().refs)
    if (auto r = w.lock())
      if (auto it = leaf_of.find(r->node.get()); it != leaf_of.end()) r->node = it->second;
}

// ---- the force hook ---------------------------------------------------------------------------

Tensor force_hook(const std::shared_ptr<const Node>& node) {
  if (!node->has_value()) force_nodes({node}, thread_sink_reason());
  MF_ASSERT(node->has_value(), "forced node has no value");
  return node->value_tensor();
}

/// Computed-node count (stops past limit) and depth of the pending graph of root.
void graph_size(const Node* root, int limit, int& count, int& depth) {
  std::unordered_map<const Node*, int> d;  // depth of each visited node
  std::vector<std::pair<const Node*, size_t>> stack{{root, 0}};
  d[root] = -1;
  count = 0;
  while (!stack.empty()) {
    auto& [n, i] = stack.back();
    if (i < n->inputs.size()) {
      const Node* c = n->inputs[i++].get();
      if (!d.count(c)) {
        d[c] = -1;
        stack.push_back({c, 0});
      }
      continue;
    }
    int dn = 0;
    if (!settled(n)) {
      for (const NodeRef& c : n->inputs) dn = std::max(dn, d[c.get()]);
      dn += 1;
      ++count;
    }
    d[n] = dn;
    stack.pop_back();
    if (count > limit) break;
  }
  depth = 0;
  for (auto& [n, v] : d) depth = std::max(depth, v);
}

// ---- incremental limit check ----------------------------------------------------------------
// check_limits runs on every captured value; walking the whole pending graph each time made a
// loop trace of k nodes cost O(k^2) (most of the host time of RNG loop workloads). The memo keeps,
// per recently checked node, an upper bound `ub` of its computed-node count (1 + the bounds of
// its distinct inputs; exact after a walk) and its exact depth, so a fresh node costs O(inputs).
// Only when the bound passes the limit (sharing inflates sums) is the exact walk done, so the
// decisions are exactly those of graph_size. Counts and depths only change when nodes are
// materialised, which force_nodes announces by bumping g_force_epoch (the memo is then dropped).

std::atomic<uint64_t> g_force_epoch{0};

struct LimitSize {
  int ub = 0;     ///< >= computed-node count; limit + 1 means "over the limit" (exact)
  int depth = 0;  ///< exact when ub <= limit
};

struct LimitMemo {
  uint64_t epoch = 0;
  std::unordered_map<const Node*, std::pair<NodeRef, LimitSize>> m;  // NodeRef pins the address
};
LimitMemo& limit_memo() {
  thread_local LimitMemo memo;
  return memo;
}

/// Exact size of n by a walk (graph_size), capped at limit + 1.
LimitSize walked_size(const Node* n, int limit) {
  int count = 0, depth = 0;
  graph_size(n, limit, count, depth);
  return {std::min(count, limit + 1), depth};
}

LimitSize memo_size(const NodeRef& n, int limit, LimitMemo& memo) {
  if (settled(n.get())) return {};
  if (auto it = memo.m.find(n.get()); it != memo.m.end()) return it->second.second;
  long long ub = 1;
  int depth = 0;
  for (size_t i = 0; i < n->inputs.size(); ++i) {
    const NodeRef& c = n->inputs[i];
    bool dup = false;
    for (size_t j = 0; j < i && !dup; ++j) dup = n->inputs[j].get() == c.get();
    if (dup || settled(c.get())) continue;
    LimitSize s;
    if (auto it = memo.m.find(c.get()); it != memo.m.end()) {
      s = it->second.second;
    } else {
      s = walked_size(c.get(), limit);
      memo.m.emplace(c.get(), std::make_pair(c, s));
    }
    ub += s.ub;
    depth = std::max(depth, s.depth);
  }
  LimitSize r{static_cast<int>(std::min<long long>(ub, limit + 1)), depth + 1};
  if (r.ub > limit) r = walked_size(n.get(), limit);
  memo.m.emplace(n.get(), std::make_pair(n, r));
  return r;
}

}  // namespace

LazyConfig& lazy_config() {
  static LazyConfig c = read_config();
  return c;
}

Tensor make_lazy(const NodeRef& node, bool maybe_complex) {
  static const bool hooked = [] {
    Tensor::set_force_hook(&force_hook);
    return true;
  }();
  (void)hooked;
  if (node->has_value()) return node->value_tensor();
  auto ref = std::make_shared<LazyRef>();
  ref->node = node;
  ref->maybe_complex = maybe_complex && !node->complex;
  {
    std::lock_guard<std::mutex> l(g_mu);
    Registry& r = registry();
    r.refs.push_back(ref);
    if (++r.since_sweep >= 256) r.sweep();
  }
  return Tensor::lazy(std::move(ref), node->cls, node->dims, node->complex);
}

Tensor check_limits(const Tensor& t) {
  if (!t.is_lazy()) return t;
  const NodeRef n = t.node();
  const LazyConfig& c = lazy_config();
  LimitMemo& memo = limit_memo();
  const uint64_t epoch = g_force_epoch.load(std::memory_order_relaxed);
  if (memo.epoch != epoch || memo.m.size() > 8192) {
    memo.m.clear();
    memo.epoch = epoch;
  }
  const LimitSize s = memo_size(n, c.node_limit, memo);
  if (s.ub > c.node_limit) force_nodes({n}, SinkReason::NodeLimit);
  else if (s.depth > c.depth_limit) force_nodes({n}, SinkReason::DepthLimit);
  else return t;
  return n->value_tensor();
}

void force_nodes(const std::vector<NodeRef>& roots_in, SinkReason reason,
                 EvalObserver* observer) {
  std::vector<NodeRef> roots;
  std::unordered_set<const Node*> root_set;
  for (const NodeRef& r : roots_in)
    if (!r->has_value() && root_set.insert(r.get()).second) roots.push_back(r);
  if (roots.empty()) return;
  limit_memo().m.clear();  // releases the pinned nodes of this thread's trace

  // Pending values sharing a computed node with the roots join them (to a fixpoint).
  std::unordered_set<const Node*> computed;
  for (const NodeRef& r : roots) computed_nodes(r.get(), computed);
  // Values held only by dead variables do not join (liveness hook, see the contract).
  std::unordered_set<const Node*> dead;
  if (LiveValuesHook hook = g_live_hook.load(std::memory_order_relaxed))
    if (!hook(dead)) dead.clear();
  {
    std::lock_guard<std::mutex> l(g_mu);
    Registry& reg = registry();
    reg.sweep();
    std::vector<std::pair<NodeRef, std::unordered_set<const Node*>>> pending;
    for (const auto& w : reg.refs) {
      auto ref = w.lock();
      if (!ref || root_set.count(ref->node.get()) || dead.count(ref->node.get())) continue;
      std::unordered_set<const Node*> mine;
      computed_nodes(ref->node.get(), mine);
      pending.push_back({ref->node, std::move(mine)});
    }
    bool grew = true;
    while (grew) {
      grew = false;
      for (auto& [node, mine] : pending) {
        if (!node || root_set.count(node.get())) continue;
        bool shares = false;
        for (const Node* n : mine)
          if (computed.count(n)) {
            shares = true;
            break;
          }
        if (!shares) continue;
        root_set.insert(node.get());
        roots.push_back(node);
        computed.insert(mine.begin(), mine.end());
        grew = true;
      }
    }
  }

  // rand/randn arrays that several groups would regenerate are stored instead.
  for (NodeRef& g : generators_to_store(roots))
    if (root_set.insert(g.get()).second) roots.push_back(std::move(g));

  // Pending values held only by dead variables may read nodes forced since they were built.
  const std::vector<NodeRef> planned = on_stored_values(roots);
  std::optional<Plan> plan;
  if (graph_recording()) plan = plan_fusion(planned);
  std::vector<Tensor> values = evaluate(planned, reason, observer);
  if (plan) record_graph(*plan, telemetry().last(), planned, values);
  plan.reset();
  materialize(roots, values);
  if (planned != roots) materialize(planned, values);
  g_force_epoch.fetch_add(1, std::memory_order_relaxed);  // sizes changed: drop limit memos
}

void set_live_values_hook(LiveValuesHook fn) { g_live_hook.store(fn, std::memory_order_relaxed); }

const Node* forced_origin(const Node* n) {
  if (n->kind != NodeKind::Input) return n;
  std::lock_guard<std::mutex> l(g_mu);
  const auto& m = origins().m;
  const auto it = m.find(n);
  if (it == m.end() || it->second.first.expired()) return n;
  return it->second.second;
}

size_t pending_count() {
  std::lock_guard<std::mutex> l(g_mu);
  Registry& r = registry();
  r.sweep();
  return r.refs.size();
}

SinkScope::SinkScope(SinkReason r) : prev_(thread_sink_reason()) { thread_sink_reason() = r; }
SinkScope::~SinkScope() { thread_sink_reason() = prev_; }
SinkReason current_sink_reason() { return thread_sink_reason(); }

Tensor settled_value(const Tensor& t) {
  if (!t.is_lazy() || !t.node()->has_value()) return t;
  Tensor v = t;
  v.force();  // the node's stored value: no evaluation
  return v;
}

}  // namespace matfuse::accel
