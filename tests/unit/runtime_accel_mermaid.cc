// The --graph Mermaid text (accel/run/mermaid.cc): structure of the diagram of real runs (subgraphs
// per fusion group, classDef and class lines, labels, edges), links across evaluations, the
// size limits, and gpu placement from a device provider's record.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "accel/capture/lazy.h"
#include "accel/run/mermaid.h"
#include "accel/plan/pipeline.h"
#include "interp_test_util.h"

namespace matfuse::accel {
namespace {

struct LazyGuard {
  LazyConfig saved = lazy_config();
  explicit LazyGuard(int64_t min_numel) { lazy_config().min_numel = min_numel; }
  ~LazyGuard() { lazy_config() = saved; }
};

/// Records the diagram of code run in a fresh interpreter.
std::string diagram_of(const std::string& code) {
  reset_graph_recording();
  set_graph_recording(true);
  {
    test::Snippet s;
    s(code);
  }
  set_graph_recording(false);
  std::string text = graph_mermaid();
  reset_graph_recording();
  return text;
}

/// The parsed lines of a diagram.
struct Diagram {
  std::vector<std::string> lines;
  std::map<std::string, std::string> label;          ///< node id -> label text
  std::map<std::string, std::string> node_class;     ///< node id -> class
  std::map<std::string, std::string> subgraph;       ///< subgraph id -> title
  std::map<std::string, std::string> subgraph_class; ///< subgraph id -> class
  std::map<std::string, std::string> parent;         ///< node id -> enclosing subgraph id
  std::vector<std::pair<std::string, std::string>> edges;
  int class_defs = 0;
  std::set<std::string> defined_classes;
  std::string error;  ///< first line the parser did not understand

  explicit Diagram(const std::string& text) {
    std::istringstream is(text);
    std::string l, current;
    static const std::regex node_re(R"re(^ *(\w+)(\[\(|\(\[|\[)"([^"]*)"(\)\]|\]\)|\])$)re");
    static const std::regex sub_re(R"re(^  subgraph (\w+)\["([^"]*)"\]$)re");
    static const std::regex class_re(R"re(^  class ([\w,]+) (\w+)$)re");
    static const std::regex def_re(R"re(^  classDef (\w+) .*$)re");
    static const std::regex edge_re(R"re(^  (\w+) --> (\w+)$)re");
    std::smatch m;
    while (std::getline(is, l)) {
      lines.push_back(l);
      if (lines.size() == 1) {
        if (l != "flowchart TD") error = l;
        continue;
      }
      if (std::regex_match(l, m, sub_re)) {
        subgraph[m[1]] = m[2];
        current = m[1];
      } else if (l == "  end") {
        current.clear();
      } else if (l == "    direction TB" || l.rfind("  %%", 0) == 0) {
      } else if (std::regex_match(l, m, def_re)) {
        ++class_defs;
        defined_classes.insert(m[1]);
      } else if (std::regex_match(l, m, class_re)) {
        std::stringstream ids(m[1]);
        std::string id;
        while (std::getline(ids, id, ','))
          (subgraph.count(id) ? subgraph_class : node_class)[id] = m[2];
      } else if (std::regex_match(l, m, edge_re)) {
        edges.push_back({m[1], m[2]});
      } else if (std::regex_match(l, m, node_re)) {
        label[m[1]] = m[3];
        if (!current.empty()) parent[m[1]] = current;
      } else if (error.empty()) {
        error = l;
      }
    }
  }
  int count_class(const std::string& c) const {
    int n = 0;
    for (const auto& [id, cls] : node_class) n += cls == c;
    return n;
  }
  std::string id_of(const std::string& lab) const {
    for (const auto& [id, l] : label)
      if (l == lab) return id;
    return "";
  }
};

/// text with node ids eEnS renamed N0, N1, ... in order of first appearance.
std::string canonical_ids(const std::string& text) {
  static const std::regex id_re(R"re(e\d+n\d+)re");
  std::map<std::string, std::string> names;
  std::string out;
  auto it = std::sregex_iterator(text.begin(), text.end(), id_re);
  size_t last = 0;
  for (; it != std::sregex_iterator(); ++it) {
    const std::string id = it->str();
    if (!names.count(id)) names[id] = "N" + std::to_string(names.size());
    out += text.substr(last, it->position() - last) + names[id];
    last = it->position() + id.size();
  }
  return out + text.substr(last);
}

TEST(AccelMermaid, RandSinMeanIsOneCpuSubgraph) {
  LazyGuard g(1000);
  const std::string text =
      diagram_of("x = rand(1024,1,'single'); y = sin(x).*x + 0.5; m = mean(y); disp(m)");
  Diagram d(text);
  ASSERT_EQ(d.error, "") << text;
  EXPECT_EQ(d.class_defs, 5) << text;
  EXPECT_TRUE(d.defined_classes.count("cpu") && d.defined_classes.count("gpu")) << text;
  ASSERT_EQ(d.subgraph.size(), 1u) << text;
  const std::string sg = d.subgraph.begin()->first;
  EXPECT_EQ(d.subgraph.begin()->second, "1: reduction on host");
  EXPECT_EQ(d.subgraph_class[sg], "cpuGroup");
  // rand, sin, times, plus, mean: computed on the host, inside the group; the RNG key, counter
  // offset and the scalar 0.5 are leaves inlined into the same group.
  EXPECT_EQ(d.count_class("cpu"), 5) << text;
  EXPECT_EQ(d.count_class("gpu"), 0) << text;
  EXPECT_EQ(d.count_class("leaf"), 3) << text;
  EXPECT_EQ(d.label.size(), 8u) << text;
  for (const char* lab : {"rand<br/>single 1024x1", "sin<br/>single 1024x1",
                          "times<br/>single 1024x1", "plus<br/>single 1024x1",
                          "mean<br/>single 1x1", "scalar 0.5", "rng key", "rng offset"}) {
    const std::string id = d.id_of(lab);
    ASSERT_NE(id, "") << lab << "\n" << text;
    EXPECT_EQ(d.parent[id], sg) << lab;
  }
  EXPECT_EQ(d.node_class[d.id_of("sin<br/>single 1024x1")], "cpu");
  EXPECT_EQ(d.node_class[d.id_of("scalar 0.5")], "leaf");
  // Edges: key, offset -> rand; rand -> sin, times; sin -> times; times, 0.5 -> plus; plus ->
  // mean. Every endpoint is a drawn node.
  EXPECT_EQ(d.edges.size(), 8u) << text;
  for (const auto& [a, b] : d.edges) {
    EXPECT_TRUE(d.label.count(a)) << a;
    EXPECT_TRUE(d.label.count(b)) << b;
  }
  const std::pair<std::string, std::string> plus_mean{d.id_of("plus<br/>single 1024x1"),
                                                      d.id_of("mean<br/>single 1x1")};
  EXPECT_EQ(std::count(d.edges.begin(), d.edges.end(), plus_mean), 1);

  // Deterministic: the same script gives the same text, up to the node serials in the ids
  // (which keep counting within one process).
  EXPECT_EQ(
      canonical_ids(diagram_of(
          "x = rand(1024,1,'single'); y = sin(x).*x + 0.5; m = mean(y); disp(m)")),
      canonical_ids(text));
}

TEST(AccelMermaid, LaterEvaluationLinksBackToTheGroupThatComputedItsInput) {
  LazyGuard g(1000);
  const std::string text = diagram_of(
      "x = rand(5000,1); y = exp(x); disp(sum(y) > 0)\n"
      "z = y .* 3; disp(sum(z) > 0)");
  Diagram d(text);
  ASSERT_EQ(d.error, "") << text;
  ASSERT_GE(d.subgraph.size(), 2u) << text;
  // y, computed in the first evaluation, is read by the second without a new input node.
  for (const auto& [id, lab] : d.label) EXPECT_EQ(lab.rfind("input", 0), std::string::npos) << text;
  bool cross = false;
  for (const auto& [a, b] : d.edges)
    cross |= a.rfind("e1", 0) == 0 && b.rfind("e2", 0) == 0 && d.parent.count(a) &&
             d.parent.count(b);
  EXPECT_TRUE(cross) << text;
}

TEST(AccelMermaid, LargeGroupsAreSummarisedAndTheDiagramStaysUnderMermaidsEdgeLimit) {
  LazyGuard g(1000);
  const std::string text = diagram_of(
      "x = rand(4000,1,'single');\n"
      "for k = 1:300, x = x .* 0.999 + 0.001; end\n"
      "disp(sum(x) > 0)");
  Diagram d(text);
  ASSERT_EQ(d.error, "") << text;
  EXPECT_LE(d.edges.size(), 500u);
  bool summary = false;
  for (const auto& [id, lab] : d.label) summary |= lab.find(" ops: ") != std::string::npos;
  EXPECT_TRUE(summary) << text;
  for (const auto& [sg, title] : d.subgraph) {
    int members = 0;
    for (const auto& [id, parent] : d.parent) members += parent == sg;
    EXPECT_LE(members, 40) << title;
  }
}

TEST(AccelMermaid, NothingRecordedIsANote) {
  reset_graph_recording();
  Diagram d(graph_mermaid());
  EXPECT_EQ(d.error, "");
  EXPECT_TRUE(d.subgraph.empty());
  ASSERT_EQ(d.label.size(), 1u);
  EXPECT_NE(d.label.begin()->second.find("ran eagerly"), std::string::npos);
  EXPECT_EQ(d.node_class[d.label.begin()->first], "leaf");
}

TEST(AccelMermaid, DeviceProviderGroupsAreGpuAndLabelsAreEscaped) {
  // A plan recorded with a device provider's telemetry: members take class gpu.
  Tensor t = Tensor::uninit(ClassId::Double, Dims{3000, 1});
  for (int64_t i = 0; i < t.numel(); ++i) t.set_double(i, double(i));
  NodeRef x = input(t);
  NodeRef y = binary(OpId::Add, unary(OpId::Exp, x), constant(std::nan("")));
  std::vector<NodeRef> roots{y};
  Plan p = plan_fusion(roots);
  EvaluationRecord rec;
  rec.reason = SinkReason::Display;
  for (size_t g = 0; g < p.groups.size(); ++g) rec.groups.push_back({.provider = "cuda"});
  reset_graph_recording();
  record_graph(p, rec, roots, {});
  const std::string text = graph_mermaid();
  reset_graph_recording();
  Diagram d(text);
  ASSERT_EQ(d.error, "") << text;
  ASSERT_EQ(d.subgraph.size(), 1u) << text;
  EXPECT_EQ(d.subgraph.begin()->second, "1: elementwise on cuda");
  EXPECT_EQ(d.subgraph_class.begin()->second, "gpuGroup");
  EXPECT_EQ(d.count_class("gpu"), 2) << text;  // exp, plus
  EXPECT_EQ(d.count_class("cpu"), 0) << text;
  EXPECT_NE(d.id_of("const NaN"), "") << text;
  EXPECT_NE(d.id_of("input<br/>double 3000x1"), "") << text;
}

}  // namespace
}  // namespace matfuse::accel
