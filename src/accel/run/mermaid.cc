// The --graph recorder: Mermaid flowchart text of the evaluated plans (see mermaid.h, lazy.h).
//
// Layout of the text (deterministic: ids come from node serials and evaluation/group counters,
// every list follows the plan's topological order):
//   flowchart TD
//   classDef cpu/gpu/leaf ...            node colours (placement; leaves grey)
//   classDef cpuGroup/gpuGroup ...       subgraph frames
//   %% eval E: forced by REASON          one block per forced evaluation:
//   subgraph eEgK["K: KIND on PROVIDER"]   one per fusion group, K numbered like --profile's #
//     direction TB
//     eEnS["op<br/>class dims"]            computed members (rectangles)
//     eEnS(["scalar 0.5"])                 leaves inlined only into this group (stadiums)
//     eEgKs["N ops: ...<br/>class dims"]   instead of the nodes, for a group too large to draw
//   end
//   class eEgK cpuGroup                  frame class of each group
//   eEnS[("input<br/>class dims")]       materialised inputs (cylinders); shared leaves
//   class ID,ID,... cpu|gpu|leaf         one line per class
//   eEnA --> eEnB                        data edges, no duplicates. A value computed by an
//                                        earlier evaluation keeps its id (same node, or same
//                                        storage), so its edges lead back to that group.
// Mermaid refuses diagrams of more than 500 edges: past a budget, evaluations are drawn with
// every group summarised, then left out and counted in a closing note.
#include "accel/run/mermaid.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <memory>
#include <set>
#include <sstream>
#include <string>
#include <unordered_map>
#include <vector>

#include "accel/capture/lazy.h"

namespace matfuse::accel {
namespace {

bool g_on = false;
std::string g_body;
int g_evals = 0;
int g_groups = 0;
/// Mermaid id of every node drawn so far, by serial (materialised values keep their node and
/// serial when forced, so a later evaluation that reads one finds the id it was drawn with).
std::unordered_map<uint64_t, std::string> g_ids;
/// Mermaid id of every root value drawn so far, by storage (a forced value read again is often
/// wrapped in a new Input node; the storage, still alive, identifies it).
struct StoredValue {
  std::weak_ptr<Storage> storage;
  size_t offset = 0;
  std::string id;
};
std::vector<StoredValue> g_values;

/// Id under which t's storage was drawn as a root value ("" when none).
std::string stored_id(const Tensor& t) {
  if (t.is_lazy() || t.numel() == 0 || !t.storage()) return "";
  for (const StoredValue& v : g_values)
    if (v.offset == t.storage_offset() && v.storage.lock() == t.storage()) return v.id;
  return "";
}

/// Text made safe inside a quoted Mermaid label.
std::string escape(std::string_view s) {
  std::string o;
  for (char c : s) {
    switch (c) {
      case '"': o += "#quot;"; break;
      case '<': o += "#lt;"; break;
      case '>': o += "#gt;"; break;
      case '#': o += "#35;"; break;
      case '\n': o += ' '; break;
      default: o += c;
    }
  }
  return o;
}

std::string number(double v) {
  if (std::isnan(v)) return "NaN";
  if (std::isinf(v)) return v > 0 ? "Inf" : "-Inf";
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.6g", v);
  return buf;
}

/// Short label: op name, then class and size (escaped; "<br/>" is the only markup).
std::string node_label(const Node* n) {
  std::string op;
  switch (n->kind) {
    case NodeKind::Constant: return escape("const " + number(n->value));
    case NodeKind::Param:
      switch (n->role) {
        case ParamRole::RngKey: return "rng key";
        case ParamRole::RngOffset: return "rng offset";
        case ParamRole::LoopIndex: return "loop index";
        case ParamRole::Scalar: return escape("scalar " + number(n->value));
      }
      return "param";
    case NodeKind::Elementwise: op = std::string(op_name(n->op)); break;
    case NodeKind::Generator: op = std::string(gen_kind_name(n->gen)); break;
    case NodeKind::Reduce: op = std::string(reduce_kind_name(n->reduce)); break;
    case NodeKind::MatMul: op = "mtimes"; break;
    case NodeKind::Transpose: op = n->conj ? "ctranspose" : "transpose"; break;
    default: op = std::string(node_kind_name(n->kind)); break;  // input, cast, slice, diag
  }
  return escape(op) + "<br/>" + escape(class_name(n->cls)) + " " + escape(n->dims.str());
}

bool is_gpu_provider(const std::string& p) { return p != "host" && p != "eager" && !p.empty(); }

/// Groups with more nodes than this are drawn as one summary node.
constexpr int kMaxGroupNodes = 40;
/// Edge budget of the whole diagram (Mermaid refuses more than 500 edges by default): an
/// evaluation that would pass it is drawn with every group summarised, and one that would still
/// pass it is left out (counted in a closing note).
constexpr int kEdgeBudget = 450;

int g_edges = 0;
int g_skipped_evals = 0;
int g_skipped_groups = 0;

/// "N ops: 64 exp, 128 times, ...<br/>class dims" for a summarised group: the three most
/// frequent ops (ties by name) and the class and size of its first output.
std::string summary_label(const FusionGroup& G) {
  std::map<std::string, int> count;
  for (const Node* n : G.members) {
    const std::string l = node_label(n);
    count[l.substr(0, l.find("<br/>"))]++;
  }
  std::vector<std::pair<int, std::string>> by;
  for (const auto& [name, c] : count) by.push_back({-c, name});
  std::sort(by.begin(), by.end());
  std::string s = std::to_string(G.members.size()) + " ops:";
  for (size_t i = 0; i < by.size() && i < 3; ++i)
    s += (i ? ", " : " ") + std::to_string(-by[i].first) + " " + by[i].second;
  if (by.size() > 3) s += ", ...";
  const Node* out = G.outputs.empty() ? G.members.back() : G.outputs.front();
  return s + "<br/>" + escape(class_name(out->cls)) + " " + escape(out->dims.str());
}

/// Mermaid text of evaluation e (groups numbered from first_group + 1). Sets `edges` to the
/// number of edges drawn and `ids` to the ids this evaluation gives to node serials.
std::string render_eval(const Plan& p, const EvaluationRecord& rec, int e, int first_group,
                        bool summarise_all, int& edges,
                        std::vector<std::pair<uint64_t, std::string>>& ids) {
  const std::string pre = "e" + std::to_string(e);
  std::ostringstream os;
  os << "  %% eval " << e << ": forced by " << sink_reason_name(rec.reason) << "\n";

  // Group of each member; home group of each inlined leaf (the one group all its users are in,
  // directly or through other inlined leaves; -1 when shared or unused).
  std::unordered_map<const Node*, int> group, home;
  for (size_t g = 0; g < p.groups.size(); ++g)
    for (const Node* n : p.groups[g].members) group[n] = static_cast<int>(g);
  for (auto it = p.order.rbegin(); it != p.order.rend(); ++it) {
    const Node* n = *it;
    if (group.count(n) || n->kind == NodeKind::Input) continue;
    int h = -2;  // -2: no user yet
    for (const Node* u : p.at(n).users) {
      auto gi = group.find(u);
      auto hi = home.find(u);
      const int hu = gi != group.end() ? gi->second : (hi != home.end() ? hi->second : -1);
      h = (h == -2 || h == hu) ? hu : -1;
    }
    home[n] = h < 0 ? -1 : h;
  }
  auto owner = [&](const Node* n) {
    auto gi = group.find(n);
    if (gi != group.end()) return gi->second;
    auto hi = home.find(n);
    return hi != home.end() ? hi->second : -1;
  };

  // Which groups are summarised (too many nodes, or all of them when asked).
  std::vector<int> size(p.groups.size(), 0);
  for (const Node* n : p.order)
    if (owner(n) >= 0) ++size[owner(n)];
  std::vector<bool> summarised(p.groups.size());
  for (size_t g = 0; g < p.groups.size(); ++g)
    summarised[g] = summarise_all || size[g] > kMaxGroupNodes;
  auto sg_id = [&](size_t g) { return pre + "g" + std::to_string(first_group + 1 + g); };

  // Ids: a node drawn by an earlier evaluation keeps its id (see the file comment); the nodes
  // of a summarised group all take the id of its summary node.
  std::unordered_map<const Node*, std::string> id;
  std::set<const Node*> drawn_before;
  for (const Node* n : p.order) {
    auto it = g_ids.find(n->serial);
    const int o = owner(n);
    const std::string stored = n->kind == NodeKind::Input ? stored_id(n->tensor) : "";
    if (n->kind == NodeKind::Input && it != g_ids.end()) {
      id[n] = it->second;
      drawn_before.insert(n);
    } else if (!stored.empty()) {
      id[n] = stored;
      drawn_before.insert(n);
    } else if (o >= 0 && summarised[o]) {
      id[n] = sg_id(o) + "s";
    } else {
      id[n] = pre + "n" + std::to_string(n->serial);
    }
  }

  std::map<std::string, std::vector<std::string>> classes;  // class -> node ids, ordered
  auto shape = [&](const Node* n) {
    if (n->kind == NodeKind::Input) return id[n] + "[(\"" + node_label(n) + "\")]";
    if (group.count(n)) return id[n] + "[\"" + node_label(n) + "\"]";
    return id[n] + "([\"" + node_label(n) + "\"])";
  };

  std::vector<std::string> group_class;
  for (size_t g = 0; g < p.groups.size(); ++g) {
    const FusionGroup& G = p.groups[g];
    const std::string provider = g < rec.groups.size() ? rec.groups[g].provider : "host";
    const std::string placement = is_gpu_provider(provider) ? "gpu" : "cpu";
    os << "  subgraph " << sg_id(g) << "[\"" << first_group + 1 + g << ": "
       << escape(fusion_kind_name(G.reported_kind())) << " on " << escape(provider) << "\"]\n"
       << "    direction TB\n";
    if (summarised[g]) {
      os << "    " << sg_id(g) << "s[\"" << summary_label(G) << "\"]\n";
      classes[placement].push_back(sg_id(g) + "s");
    } else {
      for (const Node* n : p.order) {
        if (owner(n) != static_cast<int>(g)) continue;
        os << "    " << shape(n) << "\n";
        // Generators and movement nodes inlined here are computed by this group's kernel.
        const bool computed = group.count(n) || n->category == Category::Generator ||
                              n->category == Category::Movement;
        classes[computed ? placement : "leaf"].push_back(id[n]);
      }
    }
    os << "  end\n";
    group_class.push_back("  class " + sg_id(g) + " " + placement + "Group\n");
  }
  for (const std::string& s : group_class) os << s;
  for (const Node* n : p.order) {
    if (owner(n) >= 0 || drawn_before.count(n)) continue;
    os << "  " << shape(n) << "\n";
    classes["leaf"].push_back(id[n]);
  }
  for (const auto& [cls, list] : classes) {
    os << "  class ";
    for (size_t i = 0; i < list.size(); ++i) os << (i ? "," : "") << list[i];
    os << " " << cls << "\n";
  }
  std::set<std::pair<std::string, std::string>> seen;
  edges = 0;
  for (const Node* n : p.order)
    for (const NodeRef& in : n->inputs) {
      const std::string& a = id[in.get()];
      const std::string& b = id[n];
      if (a != b && seen.insert({a, b}).second) {
        os << "  " << a << " --> " << b << "\n";
        ++edges;
      }
    }
  ids.clear();
  for (const Node* n : p.order)
    if (!drawn_before.count(n)) ids.push_back({n->serial, id[n]});
  return os.str();
}

}  // namespace

bool graph_recording() { return g_on; }

void set_graph_recording(bool on) { g_on = on; }

void reset_graph_recording() {
  g_body.clear();
  g_evals = 0;
  g_groups = 0;
  g_ids.clear();
  g_values.clear();
  g_edges = 0;
  g_skipped_evals = 0;
  g_skipped_groups = 0;
}

void record_graph(const Plan& p, const EvaluationRecord& rec, std::span<const NodeRef> roots,
                  std::span<const Tensor> values) {
  const int e = ++g_evals;
  const int first_group = g_groups;
  g_groups += static_cast<int>(p.groups.size());
  int edges = 0;
  std::vector<std::pair<uint64_t, std::string>> ids;
  std::string text = render_eval(p, rec, e, first_group, false, edges, ids);
  if (g_edges + edges > kEdgeBudget)
    text = render_eval(p, rec, e, first_group, true, edges, ids);
  if (g_edges + edges > kEdgeBudget) {
    ++g_skipped_evals;
    g_skipped_groups += static_cast<int>(p.groups.size());
    return;
  }
  g_edges += edges;
  for (const auto& [serial, id] : ids) g_ids[serial] = id;
  std::erase_if(g_values, [](const StoredValue& v) { return v.storage.expired(); });
  for (size_t i = 0; i < roots.size() && i < values.size(); ++i) {
    const Tensor& t = values[i];
    auto it = g_ids.find(roots[i]->serial);
    if (it == g_ids.end() || t.is_lazy() || t.numel() == 0 || !t.storage()) continue;
    g_values.push_back({t.storage(), t.storage_offset(), it->second});
  }
  g_body += text;
}

std::string graph_mermaid() {
  std::string s =
      "flowchart TD\n"
      "  classDef cpu fill:#dbeafe,stroke:#1d4ed8,color:#0b1a33\n"
      "  classDef gpu fill:#dcfce7,stroke:#15803d,color:#052e16\n"
      "  classDef leaf fill:#f3f4f6,stroke:#9ca3af,color:#374151\n"
      "  classDef cpuGroup fill:#f8fbff,stroke:#1d4ed8,stroke-dasharray:4 3\n"
      "  classDef gpuGroup fill:#f7fef9,stroke:#15803d,stroke-dasharray:4 3\n";
  if (g_evals == 0)
    return s +
           "  none[\"no lazy evaluation was recorded: every operation ran eagerly<br/>"
           "(arrays below MATFUSE_LAZY_MIN elements, or capture off)\"]\n"
           "  class none leaf\n";
  s += g_body;
  if (g_skipped_evals > 0)
    s += "  more[\"" + std::to_string(g_skipped_evals) + " more evaluations (" +
         std::to_string(g_skipped_groups) +
         " groups) not drawn: diagram size limit; see --profile\"]\n  class more leaf\n";
  return s;
}

}  // namespace matfuse::accel
