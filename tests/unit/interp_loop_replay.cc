// Loop replay (interp/loop_replay.h, accel/run/replay.h): the remaining chunks of a pure array loop
// run as launches of the chunk kernel, with the same results as interpreting every iteration.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>

#include "accel/capture/lazy.h"
#include "accel/run/telemetry.h"
#include "interp_test_util.h"

namespace matfuse::test {
namespace {

struct ReplayGuard {
  accel::LazyConfig saved = accel::lazy_config();
  explicit ReplayGuard(bool on) {
    accel::lazy_config().loop_replay = on;
    accel::lazy_config().min_numel = 1024;
  }
  ~ReplayGuard() { accel::lazy_config() = saved; }
};

struct ReplayRun {
  std::vector<Tensor> values;  ///< the named variables after the code
  int64_t replayed = 0;        ///< evaluations with reason loop_chunk that ran a replay
  int64_t chunk_forces = 0;    ///< all loop_chunk evaluations
  std::vector<int64_t> group_elements;  ///< elements of every group run
};

/// Runs code with replay on or off and returns the host copies of `names`.
ReplayRun run(const std::string& code, const std::vector<std::string>& names, bool replay) {
  ReplayGuard g(replay);
  Snippet s;
  accel::telemetry().clear();
  s(code);
  ReplayRun r;
  for (const auto& e : accel::telemetry().snapshot()) {
    for (const auto& gr : e.groups) r.group_elements.push_back(gr.elements);
    if (e.reason != accel::SinkReason::LoopChunk) continue;
    ++r.chunk_forces;
    for (const auto& gr : e.groups)
      if (gr.placement == "loop replay") ++r.replayed;
  }
  for (const auto& n : names) {
    const Value* v = s.in.base_var(n);
    EXPECT_NE(v, nullptr) << n;
    if (v) r.values.push_back(v->tensor());
  }
  return r;
}

void expect_same_bits(const ReplayRun& a, const ReplayRun& b) {
  ASSERT_EQ(a.values.size(), b.values.size());
  for (size_t i = 0; i < a.values.size(); ++i) {
    const Tensor& x = a.values[i];
    const Tensor& y = b.values[i];
    ASSERT_EQ(x.cls(), y.cls()) << i;
    ASSERT_EQ(x.dims(), y.dims()) << i;
    EXPECT_EQ(std::memcmp(x.raw(), y.raw(), static_cast<size_t>(x.numel() * x.elem_bytes())), 0)
        << "variable " << i << " differs";
  }
}

TEST(LoopReplay, EmaOverColumnsOfARandomMatrixMatchesInterpretation) {
  const std::string code =
      "rng(2); C = 2048; T = 300; X = randn(C, T, 'single');"
      "y = zeros(C, 1, 'single'); a = single(0.01);"
      "for t = 1:T, y = a * X(:, t) + (1 - a) * y; end";
  const ReplayRun on = run(code, {"y", "t"}, true), off = run(code, {"y", "t"}, false);
  expect_same_bits(on, off);
  EXPECT_GT(on.replayed, 5);  // most of the 300 iterations ran as replayed chunks
  EXPECT_EQ(off.replayed, 0);
  EXPECT_EQ(on.values[1].get_double(0), 300.0);
}

TEST(LoopReplay, RandnInsideTheLoopKeepsTheRngStream) {
  // Z is written before it is read (not carried): the last iteration, interpreted, sets it.
  const std::string code =
      "rng(0); M = 4096; S = ones(M, 1, 'single') * 100;"
      "for t = 1:256, Z = randn(M, 1, 'single'); S = S .* exp(0.0001 + 0.01 .* Z); end;"
      "after = rand(3, 1);";
  const ReplayRun on = run(code, {"S", "Z", "after", "t"}, true);
  const ReplayRun off = run(code, {"S", "Z", "after", "t"}, false);
  expect_same_bits(on, off);
  EXPECT_GT(on.replayed, 0);
}

TEST(LoopReplay, LaterExecutionsOfALoopReuseItsMatchedChunks) {
  // Run again by an enclosing loop (another seed each time), the inner loop replays from its
  // first chunk on with the kernel and steps its first execution matched, rebinding the RNG
  // key and offsets: 3 planned loop_chunk evaluations the first time (alignment, chunks a and
  // b), then only the alignment.
  const std::string body =
      "S = ones(M, 1, 'single') * 100;"
      "  for t = T0:T0+255, Z = randn(M, 1, 'single'); S = S .* exp(0.0001 + 0.01 .* Z); end;"
      "  s(r) = sum(S); end";
  const std::string same = "M = 4096; s = zeros(1, 3); for r = 1:3, rng(r); T0 = 1; " + body;
  const ReplayRun on = run(same, {"s", "S", "Z", "t"}, true);
  const ReplayRun off = run(same, {"s", "S", "Z", "t"}, false);
  expect_same_bits(on, off);
  EXPECT_EQ(on.chunk_forces - on.replayed, 3 + 1 + 1);
  // A loop range that starts elsewhere is probed again (its loop indices would differ).
  const std::string moved = "M = 4096; s = zeros(1, 2); for r = 1:2, rng(r); T0 = r; " + body;
  const ReplayRun on2 = run(moved, {"s", "S", "Z", "t"}, true);
  const ReplayRun off2 = run(moved, {"s", "S", "Z", "t"}, false);
  expect_same_bits(on2, off2);
  EXPECT_EQ(on2.chunk_forces - on2.replayed, 3 + 3);
}

TEST(LoopReplay, ALaterExecutionTracesAgainWhatItsTraceCouldSeeChanged) {
  // Each repetition changes something the body's trace depends on: then the loop is traced
  // again (chunk a, and b unless a matches the kept kernel), never replayed untraced, and the
  // values are those of interpretation.
  const std::string tail =
      "  for t = 1:200, y = a * X(:, t) + (1 - a) * y; end; s(r) = sum(y); end";
  for (const std::string& rep : {
           // a loop-invariant scalar (a constant of the kernel text)
           std::string("rng(2); C = 2048; X = randn(C, 200, 'single'); s = zeros(1, 3);"
                       "for r = 1:3, a = single(0.01 * r); y = zeros(C, 1, 'single');"),
           // a loop-invariant array: another stored array each time
           std::string("rng(2); C = 2048; s = zeros(1, 3); a = single(0.01);"
                       "for r = 1:3, X = randn(C, 200, 'single') + r; y = zeros(C, 1, 'single');"),
           // a subscript vector's values, written in place (it becomes the slice's offsets)
           std::string("X = reshape(single(1:4096*200), 4096, 200); rows = (1:2048)';"
                       "s = zeros(1, 3); a = single(0.01);"
                       "for r = 1:3, y = zeros(2048, 1, 'single');"
                       "  for t = 1:200, y = a * X(rows, t) + (1 - a) * y; end; s(r) = sum(y);"
                       "  for q = 1:numel(rows), rows(q) = rows(q) + 7; end; end;"),
           // the carried variable's size (nothing else: the body reads no other variable)
           std::string("s = zeros(1, 3); for r = 1:3, y = rand(1024 * r, 1);"
                       "  for t = 1:200, y = 0.5 * y + sin(y); end; s(r) = sum(y); end;")}) {
    const std::string code = rep.find("end;") != std::string::npos ? rep : rep + tail;
    const ReplayRun on = run(code, {"s", "y"}, true), off = run(code, {"s", "y"}, false);
    expect_same_bits(on, off);
    EXPECT_GE(on.chunk_forces - on.replayed, 3 + 2 + 2) << rep;
    EXPECT_GT(on.replayed, 0) << rep;
  }
  // Unchanged, the same loop replays untraced after its first execution.
  const std::string same =
      "rng(2); C = 2048; X = randn(C, 200, 'single'); s = zeros(1, 3); a = single(0.01);"
      "for r = 1:3, y = zeros(C, 1, 'single');" + tail;
  const ReplayRun on = run(same, {"s", "y"}, true), off = run(same, {"s", "y"}, false);
  expect_same_bits(on, off);
  EXPECT_EQ(on.chunk_forces - on.replayed, 3 + 1 + 1);
}

TEST(LoopReplay, ARandomMatrixAnEnclosingLoopReadsAgainIsStoredOnce) {
  // Alone, the loop regenerates X(:, t) inside its kernels (AccelGolden.EmaOverSlices...);
  // run again by an enclosing loop, X is stored once and then read.
  const std::string code =
      "rng(2); C = 2048; T = 200; X = randn(C, T, 'single'); s = zeros(1, 3);"
      "for r = 1:3, y = zeros(C, 1, 'single');"
      "  for t = 1:T, y = 0.01 * X(:, t) + 0.99 * y; end; s(r) = sum(y); end";
  const ReplayRun on = run(code, {"s", "y"}, true), off = run(code, {"s", "y"}, false);
  expect_same_bits(on, off);
  auto stored = [](const ReplayRun& r) {
    return std::count(r.group_elements.begin(), r.group_elements.end(), 2048 * 200);
  };
  EXPECT_EQ(stored(on), 1);
  EXPECT_EQ(stored(off), 0);
  EXPECT_GT(on.replayed, 0);
}

TEST(LoopReplay, AffineSubscriptsAndSteppedRanges) {
  const std::string code =
      "X = reshape(single(1:4096*400), 4096, 400); y = zeros(4096, 1, 'single');"
      "for t = 2:2:398, y = 0.5 * y + X(:, t - 1) - 0.25 * X(:, t + 1); end";
  const ReplayRun on = run(code, {"y", "t"}, true), off = run(code, {"y", "t"}, false);
  expect_same_bits(on, off);
  EXPECT_GT(on.replayed, 0);
  EXPECT_EQ(on.values[1].get_double(0), 398.0);
}

TEST(LoopReplay, BodiesWithSideEffectsOrControlFlowAreInterpreted) {
  for (const char* body : {"y = y * 0.5 + 1; if t > 1000, y = y + 1; end",
                           "y = y * 0.5 + 1; s = sum(y(:));",  // a reduction: two groups
                           "y = y * 0.5 + t;"}) {               // t is a changing constant
    const std::string code = std::string("y = ones(4096, 1); for t = 1:200, ") + body + " end";
    const ReplayRun on = run(code, {"y"}, true), off = run(code, {"y"}, false);
    expect_same_bits(on, off);
    EXPECT_EQ(on.replayed, 0) << body;
  }
}

TEST(LoopReplay, AFunctionFileShadowingAPureBuiltinRunsEveryIteration) {
  // tanh.m on the path shadows the builtin and has a side effect: no replay may skip it.
  TempDir dir;
  dir.write("tanh.m", "function y = tanh(x)\n  fprintf('.');\n  y = x * 0.5;\nend\n");
  ReplayGuard g(true);
  Snippet s;
  s("addpath('" + dir.path.string() + "');");
  accel::telemetry().clear();
  const std::string out = s("y = ones(4096, 1); for t = 1:200, y = tanh(y) + 1; end");
  EXPECT_EQ(out, std::string(200, '.'));
}

}  // namespace
}  // namespace matfuse::test
