// Liveness analysis (interp/liveness.h) and liveness-aware co-evaluation of lazy values:
// values held only by dead variables are not materialised when another value is forced.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "accel/capture/lazy.h"
#include "accel/run/telemetry.h"
#include "interp/liveness.h"
#include "interp_test_util.h"

namespace matfuse {
namespace {

using accel::EvaluationRecord;
using accel::lazy_config;
using accel::LazyConfig;
using accel::telemetry;

// ---- the analysis ------------------------------------------------------------------------------

/// Parses a function file and analyses its first function.
struct Analysed {
  test::Snippet s;
  std::shared_ptr<CodeUnit> unit;
  Layout* layout = nullptr;
  const Liveness* live = nullptr;
  explicit Analysed(const std::string& text) {
    unit = s.in.unit_from_text(text, "");
    ast::FunctionDef& def = *unit->file->functions.at(0);
    layout = s.in.resolve_function_def(*unit, def);
    live = function_liveness(s.in, *unit, def, *layout);
  }
  const ast::Block& body() const { return unit->file->functions.at(0)->body; }
  /// Whether variable `name` is live at statement st.
  bool live_at(const ast::Stmt* st, const std::string& name) const {
    return live->is_live(st, layout->find(name));
  }
};

TEST(Liveness, StraightLineKillsAndOutputs) {
  Analysed a(
      "function r = f(a)\n"
      "  x = a + 1;\n"
      "  y = x * 2 + x;\n"
      "  r = sum(y);\n"
      "  r = r + a;\n"
      "end\n");
  ASSERT_FALSE(a.live->unknown);
  const auto& b = a.body();
  EXPECT_TRUE(a.live_at(b[0].get(), "a"));   // read again later
  EXPECT_FALSE(a.live_at(b[0].get(), "x"));  // assigned here before any read
  EXPECT_TRUE(a.live_at(b[1].get(), "x"));   // read twice by the statement
  EXPECT_FALSE(a.live_at(b[1].get(), "y"));
  EXPECT_FALSE(a.live_at(b[2].get(), "y"));  // read once, by the call that forces
  EXPECT_FALSE(a.live_at(b[2].get(), "x"));  // never read again
  EXPECT_TRUE(a.live_at(b[2].get(), "a"));
  EXPECT_FALSE(a.live_at(b[3].get(), "y"));
}

TEST(Liveness, LoopBackEdgeAndPartialAssignment) {
  Analysed a(
      "function r = g(n)\n"
      "  r = 0; t = 0; v = zeros(1, 3); w = 1;\n"
      "  for k = 1:n\n"
      "    r = r + t;\n"
      "    t = k;\n"
      "    v(2) = k;\n"
      "  end\n"
      "  w = 2;\n"
      "end\n");
  ASSERT_FALSE(a.live->unknown);
  const auto& loop = static_cast<const ast::ForStmt&>(*a.body()[4]);
  const ast::Stmt* first = loop.body[0].get();
  const ast::Stmt* second = loop.body[1].get();
  const ast::Stmt* third = loop.body[2].get();
  EXPECT_FALSE(a.live_at(first, "t"));   // read once, here
  EXPECT_TRUE(a.live_at(first, "k"));    // read by the next statements
  EXPECT_FALSE(a.live_at(second, "t"));  // overwritten before the next read
  EXPECT_TRUE(a.live_at(third, "t"));    // read at the next iteration (back edge)
  EXPECT_TRUE(a.live_at(third, "r"));    // output, and read next iteration
  EXPECT_TRUE(a.live_at(&loop, "t"));    // the loop as a whole reads t
  EXPECT_FALSE(a.live_at(first, "n"));   // the range is evaluated once
  EXPECT_FALSE(a.live_at(first, "w"));   // reassigned after the loop, never read
}

TEST(Liveness, TryHandlerAndAnonymousCapture) {
  Analysed a(
      "function r = h(n)\n"
      "  z = n; q = n;\n"
      "  try\n"
      "    q = 2;\n"
      "    r = q;\n"
      "  catch\n"
      "    r = z;\n"
      "  end\n"
      "  g = @() q + 1;\n"
      "  r = r + g();\n"
      "end\n");
  ASSERT_FALSE(a.live->unknown);
  const auto& t = static_cast<const ast::TryStmt&>(*a.body()[2]);
  EXPECT_TRUE(a.live_at(t.body[1].get(), "z"));  // the handler may still run
  EXPECT_TRUE(a.live_at(t.body[1].get(), "q"));  // captured by the anonymous function later
  EXPECT_FALSE(a.live_at(t.handler[0].get(), "n"));
  EXPECT_FALSE(a.live_at(a.body()[3].get(), "z"));
}

TEST(Liveness, EvalMakesTheBodyUnknown) {
  Analysed a(
      "function r = e(n)\n"
      "  x = n;\n"
      "  r = 1;\n"
      "  eval('r = x;');\n"
      "end\n");
  EXPECT_TRUE(a.live->unknown);
  EXPECT_TRUE(a.live_at(a.body()[1].get(), "x"));
}

// ---- co-evaluation -----------------------------------------------------------------------------

/// Captures everything of at least 100 elements for one test.
struct LazyGuard {
  LazyConfig saved = lazy_config();
  LazyGuard() { lazy_config().min_numel = 100; }
  ~LazyGuard() { lazy_config() = saved; }
};

int64_t bytes_written(const EvaluationRecord& e) {
  int64_t b = 0;
  for (const auto& g : e.groups) b += g.bytes_written;
  return b;
}

const char* kW1Loop =
    "N = 4096; acc = 0;\n"
    "for r = 1:3\n"
    "  x = single(linspace(0, 4*pi, N)); y0 = sin(x) .* exp(-x / 10);\n"
    "  y1 = y0 .* cos(x / 4) + 0.25 * y0 .^ 2; y2 = tanh(y1) + 0.1 * y1;\n"
    "  c = sum(y2, 'double'); s = sprintf('%.4f', c); acc = acc + c;\n"
    "end\n"
    "fprintf('%.4f\\n', acc);\n";

/// Runs a program (nothing read after it) with capture on; returns its output and evaluations.
std::string run_program(const std::string& code, std::vector<EvaluationRecord>& evals) {
  test::Snippet s;
  telemetry().clear();
  s.out.str("");
  s.in.run_text(code, /*program=*/true);
  evals = telemetry().snapshot();
  return s.out.str();
}

std::string run_eager(const std::string& code) {
  const bool was = lazy_config().enabled;
  lazy_config().enabled = false;
  test::Snippet s;
  std::string out = s(code);
  lazy_config().enabled = was;
  return out;
}

TEST(LivenessCoEvaluation, DeadLoopVariablesAreNotWritten) {
  if (!lazy_config().enabled) GTEST_SKIP() << "lazy capture disabled";
  LazyGuard g;
  std::vector<EvaluationRecord> evals;
  const std::string out = run_program(kW1Loop, evals);
  EXPECT_EQ(out, run_eager(kW1Loop));
  ASSERT_EQ(evals.size(), 3u);  // one per iteration
  for (const EvaluationRecord& e : evals) {
    ASSERT_EQ(e.groups.size(), 1u);
    EXPECT_EQ(e.groups[0].fusion_kind, "reduction");
    EXPECT_EQ(bytes_written(e), 8);  // only c (x, y0, y1, y2 are dead)
  }
}

TEST(LivenessCoEvaluation, WithoutProgramLivenessEverythingIsWritten) {
  if (!lazy_config().enabled) GTEST_SKIP() << "lazy capture disabled";
  LazyGuard g;
  test::Snippet s;  // REPL-like text: the base workspace stays, every variable is live
  telemetry().clear();
  s(kW1Loop);
  const auto evals = telemetry().snapshot();
  ASSERT_EQ(evals.size(), 3u);
  EXPECT_EQ(bytes_written(evals[0]), 8 + 4 * 4 * 4096);
}

TEST(LivenessCoEvaluation, VariableReadLaterIsCoEvaluated) {
  if (!lazy_config().enabled) GTEST_SKIP() << "lazy capture disabled";
  LazyGuard g;
  const std::string code =
      "x = single(linspace(0, 1, 2048)); y = sin(x) .* x; z = y + 1;\n"
      "c = sum(y, 'double'); fprintf('%.5f\\n', c);\n"
      "fprintf('%.5f\\n', y(5));\n";
  std::vector<EvaluationRecord> evals;
  const std::string out = run_program(code, evals);
  EXPECT_EQ(out, run_eager(code));
  ASSERT_EQ(evals.size(), 1u);  // y was written with c: y(5) needs no second evaluation
  EXPECT_EQ(bytes_written(evals[0]), 8 + 4 * 2048);  // c and y; z is dead
}

TEST(LivenessCoEvaluation, DeadLocalOfAFunction) {
  if (!lazy_config().enabled) GTEST_SKIP() << "lazy capture disabled";
  LazyGuard g;
  test::TempDir dir;
  dir.write("sumsin.m",
            "function s = sumsin(n)\n"
            "  x = linspace(0, 1, n); y = exp(x) .* x;\n"
            "  s = sum(y);\n"
            "  fprintf('%.6f\\n', s);\n"
            "  s = s * 2;\n"
            "end\n");
  const std::string main = dir.write("main.m", "v = sumsin(3000); fprintf('%.6f\\n', v);\n");
  test::Snippet s;
  telemetry().clear();
  s.in.run_file(main);
  const auto evals = telemetry().snapshot();
  ASSERT_EQ(evals.size(), 1u);
  EXPECT_EQ(bytes_written(evals[0]), 8);  // y is dead inside sumsin
  const std::string eager = run_eager(
      "x = linspace(0, 1, 3000); y = exp(x) .* x; s = sum(y); fprintf('%.6f\\n', s);"
      "fprintf('%.6f\\n', 2*s);");
  EXPECT_EQ(s.out.str(), eager);
}

TEST(LivenessCoEvaluation, ValueUsedAfterEvalIsRight) {
  if (!lazy_config().enabled) GTEST_SKIP() << "lazy capture disabled";
  LazyGuard g;
  const std::string code =
      "x = single(linspace(0, 1, 2048)); y = cos(x) .* x;\n"
      "c = sum(y, 'double'); fprintf('%.5f\\n', c);\n"
      "eval('w = y(7);'); fprintf('%.6f\\n', w);\n";
  std::vector<EvaluationRecord> evals;
  const std::string out = run_program(code, evals);
  EXPECT_EQ(out, run_eager(code));
  ASSERT_GE(evals.size(), 1u);
  EXPECT_EQ(bytes_written(evals[0]), 8 + 2 * 4 * 2048);  // eval: c, x and y are written
}

TEST(LivenessCoEvaluation, ScriptCallingScriptKeepsEverything) {
  if (!lazy_config().enabled) GTEST_SKIP() << "lazy capture disabled";
  LazyGuard g;
  test::TempDir dir;
  dir.write("show_y.m", "fprintf('%.6f\\n', y(9));\n");
  const std::string main = dir.write(
      "main.m",
      "x = single(linspace(0, 1, 2048)); y = tanh(x) .* x;\n"
      "c = sum(y, 'double'); fprintf('%.5f\\n', c);\n"
      "show_y\n");
  test::Snippet s;
  telemetry().clear();
  s.in.run_file(main);
  const auto evals = telemetry().snapshot();
  ASSERT_EQ(evals.size(), 1u);  // y co-evaluated with c: the script reads it
  EXPECT_EQ(bytes_written(evals[0]), 8 + 2 * 4 * 2048);  // c, x and y
  EXPECT_EQ(s.out.str(),
            run_eager("x = single(linspace(0, 1, 2048)); y = tanh(x) .* x;\n"
                      "c = sum(y, 'double'); fprintf('%.5f\\n', c);\n"
                      "fprintf('%.6f\\n', y(9));\n"));
}

}  // namespace
}  // namespace matfuse
