// Planner golden tests (XLA style): build a small graph, run the pipeline, check the fusion
// groups (count and fusion_kind), then check the fused values against the eager engine.
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>

#include "accel/run/eager.h"
#include "accel/run/evaluate.h"
#include "accel/emit/lower.h"
#include "accel/plan/passes/passes.h"
#include "accel/plan/pipeline.h"
#include "accel/run/telemetry.h"
#include "runtime_accel_util.h"

namespace matfuse::accel {
namespace {

using testing::random_tensor;
using testing::same_bits;

std::vector<std::string> kinds(const Plan& p) {
  std::vector<std::string> k;
  for (const FusionGroup& g : p.groups) k.emplace_back(fusion_kind_name(g.kind));
  return k;
}

bool logged(const std::string& text) {
  for (const std::string& l : rejection_log())
    if (l.find(text) != std::string::npos) return true;
  return false;
}

/// Fused and eager values of roots agree bit for bit.
void expect_fused_equals_eager(std::vector<NodeRef> roots) {
  std::vector<Tensor> fused = evaluate(roots);
  std::vector<Tensor> eager = evaluate_eager(roots);
  ASSERT_EQ(fused.size(), eager.size());
  for (size_t i = 0; i < fused.size(); ++i) EXPECT_TRUE(same_bits(fused[i], eager[i])) << "root " << i;
}

// The Release build of CI runs this binary: the verifier must check every plan the tests build
// (test_setup.cc turns it on), and it must catch a broken plan.
TEST(AccelPlanner, VerifierChecksEveryTestPlan) {
  EXPECT_TRUE(verify_plans());
  NodeRef x = input(random_tensor(Dims(64, 1), ClassId::Double, 3));
  NodeRef s = reduce(ReduceKind::Sum, unary(OpId::Exp, x), {0});
  std::vector<NodeRef> roots{s};
  Plan p = plan_fusion(roots);
  EXPECT_EQ(verify_plan(p, true), "");
  ASSERT_FALSE(p.groups.empty());
  p.groups[0].members.push_back(p.groups[0].members.front());  // a node twice in one group
  EXPECT_NE(verify_plan(p, true), "");
}

TEST(AccelPlanner, RandChainMeanIsOneReductionKernel) {
  // x = rand(1024,1,'single'); y = sin(x).*x + 0.5; m = mean(y)
  NodeRef x = rand(Dims(1024, 1), ClassId::Single, 0x1234, 0);
  NodeRef y = binary(OpId::Add, binary(OpId::Mul,
                                       unary(OpId::Sin, x), x),
                     constant(0.5));
  NodeRef m = reduce(ReduceKind::Mean, y, {0});
  std::vector<NodeRef> roots{m};
  Plan p = plan_fusion(roots);
  ASSERT_EQ(p.groups.size(), 1u) << p.str();
  EXPECT_EQ(kinds(p)[0], "reduction");
  // rand is inlined (recomputed in the kernel), never an input buffer.
  auto lg = lower_group(p, 0, nullptr);
  ASSERT_TRUE(lg.has_value());
  EXPECT_TRUE(lg->kernel.inputs.empty());
  EXPECT_EQ(lg->kernel.reduces.size(), 1u);
  expect_fused_equals_eager(roots);
  EXPECT_EQ(telemetry().last().groups.at(0).provider, "host");
}

TEST(AccelPlanner, SiblingConsumerJoinsTheReductionPass) {
  // y = exp(x) feeds both z = y + 1 and s = sum(y): z is computed in the reduction's body and
  // written from it (one pass over x); y itself is not stored.
  NodeRef x = input(random_tensor(Dims(1000, 1), ClassId::Double, 1));
  NodeRef y = unary(OpId::Exp, x);
  NodeRef z = binary(OpId::Add, y, constant(1));
  NodeRef s = reduce(ReduceKind::Sum, y, {0});
  std::vector<NodeRef> roots{z, s};
  Plan p = plan_fusion(roots);
  ASSERT_EQ(p.groups.size(), 1u) << p.str();
  EXPECT_EQ(kinds(p), (std::vector<std::string>{"reduction"}));
  EXPECT_EQ(p.groups[0].outputs.size(), 2u);  // z (body output) and s
  auto lg = lower_group(p, 0, nullptr);
  ASSERT_TRUE(lg);
  int body_outs = 0;
  for (const KOutput& o : lg->kernel.outputs) body_outs += o.in_body;
  EXPECT_EQ(body_outs, 1);
  expect_fused_equals_eager(roots);
}

TEST(AccelPlanner, BranchedConsumerSplitsAChain) {
  // y = exp(x) feeds s = sum(y) and z = y ./ s: z needs the finished sum, so the chain splits
  // at y: the reduction kernel writes y from its body, a second kernel computes z.
  NodeRef x = input(random_tensor(Dims(1000, 1), ClassId::Double, 1));
  NodeRef y = unary(OpId::Exp, x);
  NodeRef s = reduce(ReduceKind::Sum, y, {0});
  NodeRef z = binary(OpId::Div, y, s);
  std::vector<NodeRef> roots{z};
  Plan p = plan_fusion(roots);
  ASSERT_EQ(p.groups.size(), 2u) << p.str();
  EXPECT_EQ(kinds(p), (std::vector<std::string>{"reduction", "elementwise"}));
  EXPECT_EQ(p.groups[0].outputs.size(), 2u);  // y and s leave the reduction kernel
  EXPECT_EQ(p.groups[1].members.size(), 1u);
  expect_fused_equals_eager(roots);
}

TEST(AccelPlanner, ElementwiseRegionWithSeveralOutputs) {
  NodeRef a = input(random_tensor(Dims(300, 7), ClassId::Double, 2));
  NodeRef row = input(random_tensor(Dims(1, 7), ClassId::Double, 3));
  NodeRef t = binary(OpId::Mul, unary(OpId::Cos, a), row);  // broadcast load of row
  NodeRef u = binary(OpId::Sub, t, constant(2));
  NodeRef v = binary(OpId::Max, t, a);
  std::vector<NodeRef> roots{u, v};
  Plan p = plan_fusion(roots);
  ASSERT_EQ(p.groups.size(), 1u) << p.str();
  EXPECT_EQ(kinds(p)[0], "elementwise");
  EXPECT_EQ(p.groups[0].outputs.size(), 2u);
  expect_fused_equals_eager(roots);
}

TEST(AccelPlanner, MatmulWithTwoConsumersTakesNoEpilogue) {
  NodeRef A = input(random_tensor(Dims(64, 32), ClassId::Double, 4));
  NodeRef B = input(random_tensor(Dims(32, 16), ClassId::Double, 5));
  NodeRef C = matmul(A, B);
  NodeRef D = binary(OpId::Mul, C, constant(2));
  NodeRef E = binary(OpId::Add, C, constant(1));
  std::vector<NodeRef> roots{D, E};
  Plan p = plan_fusion(roots);
  ASSERT_EQ(p.groups.size(), 2u) << p.str();
  EXPECT_EQ(kinds(p), (std::vector<std::string>{"matmul", "elementwise"}));
  EXPECT_TRUE(logged("2 consumers"));
  expect_fused_equals_eager(roots);
}

TEST(AccelPlanner, MatmulEpilogueChain) {
  // max(A*B' .* 0.5 + bias_row, 0) .^ 2 : one matmul_epilogue kernel (B' is a gemm flag).
  NodeRef A = input(random_tensor(Dims(40, 24), ClassId::Single, 6));
  NodeRef B = input(random_tensor(Dims(30, 24), ClassId::Single, 7));
  NodeRef bias = input(random_tensor(Dims(1, 30), ClassId::Single, 8));
  NodeRef y = binary(OpId::Mul, matmul(A, transpose(B)), constant(0.5));
  y = binary(OpId::Add, y, bias);
  y = binary(OpId::Max, y, constant(0));
  y = binary(OpId::Pow, y, constant(2));
  std::vector<NodeRef> roots{y};
  Plan p = plan_fusion(roots);
  ASSERT_EQ(p.groups.size(), 1u) << p.str();
  EXPECT_EQ(kinds(p)[0], "matmul_epilogue");
  auto lg = lower_group(p, 0, nullptr);
  ASSERT_TRUE(lg.has_value());
  EXPECT_TRUE(lg->kernel.matmul->trans_b);
  expect_fused_equals_eager(roots);
}

TEST(AccelPlanner, DiagEndsTheMatmulEpilogue) {
  // diag(max(A*B*2 + r - c, 0)) with A*B 30 x 25: one matmul_epilogue kernel whose epilogue
  // runs at the 25 diagonal points (bias row, bias column and a full operand read at (k,k)).
  NodeRef A = input(random_tensor(Dims(30, 20), ClassId::Double, 21));
  NodeRef B = input(random_tensor(Dims(20, 25), ClassId::Double, 22));
  NodeRef r = input(random_tensor(Dims(1, 25), ClassId::Double, 23));
  NodeRef c = input(random_tensor(Dims(30, 1), ClassId::Double, 24));
  NodeRef F = input(random_tensor(Dims(30, 25), ClassId::Double, 25));
  NodeRef y = binary(OpId::Add, binary(OpId::Mul, matmul(A, B), constant(2)), r);
  y = binary(OpId::Sub, binary(OpId::Sub, y, c), F);
  NodeRef d = diag(binary(OpId::Max, y, constant(0)));
  EXPECT_EQ(d->dims, Dims(25, 1));
  std::vector<NodeRef> roots{d};
  Plan p = plan_fusion(roots);
  ASSERT_EQ(p.groups.size(), 1u) << p.str();
  EXPECT_EQ(kinds(p)[0], "matmul_epilogue");
  ASSERT_EQ(p.groups[0].outputs.size(), 1u);
  EXPECT_EQ(p.groups[0].outputs[0], d.get());
  auto lg = lower_group(p, 0, nullptr);
  ASSERT_TRUE(lg.has_value());
  const Kernel& k = lg->kernel;
  ASSERT_TRUE(k.matmul.has_value());
  EXPECT_TRUE(k.matmul->diag);
  EXPECT_EQ(k.out_space, Dims(25, 1));
  EXPECT_EQ(k.elements(), 25);
  // The full operand F is read at k*(30+1), r at k, c at k.
  std::vector<int64_t> strides;
  for (const Instr& in : k.epilogue)
    if (in.kind == IKind::Load) strides.push_back(k.accesses[in.access].strides[0]);
  std::sort(strides.begin(), strides.end());
  EXPECT_EQ(strides, (std::vector<int64_t>{1, 1, 31}));
  EXPECT_EQ(verify_kernel(k), "");
  expect_fused_equals_eager(roots);
}

TEST(AccelPlanner, DiagOfWideProductSingleAndTransposedOperand) {
  // diag(A*B' + 1) in single with A*B' 12 x 40 (m < n): 12 diagonal points.
  NodeRef A = input(random_tensor(Dims(12, 16), ClassId::Single, 26));
  NodeRef B = input(random_tensor(Dims(40, 16), ClassId::Single, 27));
  NodeRef d = diag(binary(OpId::Add, matmul(A, transpose(B)), constant(1, ClassId::Single)));
  std::vector<NodeRef> roots{d};
  Plan p = plan_fusion(roots);
  ASSERT_EQ(p.groups.size(), 1u) << p.str();
  EXPECT_EQ(kinds(p)[0], "matmul_epilogue");
  auto lg = lower_group(p, 0, nullptr);
  ASSERT_TRUE(lg.has_value());
  EXPECT_TRUE(lg->kernel.matmul->diag);
  EXPECT_TRUE(lg->kernel.matmul->trans_b);
  EXPECT_EQ(lg->kernel.out_space, Dims(12, 1));
  expect_fused_equals_eager(roots);
  // A bare diag(X'*W) is a matmul_epilogue too (the diag is its whole epilogue).
  NodeRef W = input(random_tensor(Dims(12, 9), ClassId::Single, 28));
  std::vector<NodeRef> r2{diag(matmul(transpose(A), W))};  // 16 x 9 -> 9 x 1
  Plan p2 = plan_fusion(r2);
  ASSERT_EQ(p2.groups.size(), 1u) << p2.str();
  EXPECT_EQ(kinds(p2)[0], "matmul_epilogue");
  EXPECT_EQ(r2[0]->dims, Dims(9, 1));
  expect_fused_equals_eager(r2);
}

TEST(AccelPlanner, DiagOfProductWithTwoConsumersKeepsTheProduct) {
  NodeRef A = input(random_tensor(Dims(24, 10), ClassId::Double, 29));
  NodeRef B = input(random_tensor(Dims(10, 18), ClassId::Double, 30));
  NodeRef C = matmul(A, B);
  NodeRef d = diag(C);
  NodeRef e = binary(OpId::Add, C, constant(1));
  std::vector<NodeRef> roots{d, e};
  Plan p = plan_fusion(roots);
  const std::vector<std::string> ks = kinds(p);
  EXPECT_EQ(std::count(ks.begin(), ks.end(), "matmul_epilogue"), 0) << p.str();
  EXPECT_EQ(ks[0], "matmul") << p.str();
  EXPECT_TRUE(logged("2 consumers"));
  expect_fused_equals_eager(roots);
}

TEST(AccelPlanner, DiagWithoutAProduct) {
  // diag(A + B): the elementwise group writes A + B, the diagonal is a strided read of it.
  NodeRef A = input(random_tensor(Dims(21, 33), ClassId::Double, 31));
  NodeRef B = input(random_tensor(Dims(21, 33), ClassId::Double, 32));
  NodeRef d = diag(binary(OpId::Add, A, B));
  std::vector<NodeRef> roots{d};
  Plan p = plan_fusion(roots);
  ASSERT_EQ(p.groups.size(), 2u) << p.str();
  EXPECT_EQ(kinds(p), (std::vector<std::string>{"elementwise", "elementwise"}));
  EXPECT_EQ(p.groups[1].outputs[0], d.get());
  expect_fused_equals_eager(roots);
  // Consumed by more elementwise work, the diagonal is inlined into the consumer's kernel.
  NodeRef e = binary(OpId::Mul, diag(binary(OpId::Sub, A, B)), constant(3));
  std::vector<NodeRef> r2{e};
  Plan p2 = plan_fusion(r2);
  ASSERT_EQ(p2.groups.size(), 2u) << p2.str();
  expect_fused_equals_eager(r2);
  // The diagonal of a generator needs no memory: eye evaluated at the diagonal indices.
  NodeRef g = binary(OpId::Add, diag(eye(30, 20)), constant(1));
  std::vector<NodeRef> r3{g};
  Plan p3 = plan_fusion(r3);
  ASSERT_EQ(p3.groups.size(), 1u) << p3.str();
  expect_fused_equals_eager(r3);
}

TEST(AccelPlanner, SiblingSumAndSumOfSquaresShareOneKernel) {
  NodeRef x = input(random_tensor(Dims(5000, 1), ClassId::Double, 9));
  NodeRef s1 = reduce(ReduceKind::Sum, x, {0});
  NodeRef s2 = reduce(ReduceKind::Sum, binary(OpId::Pow, x, constant(2)), {0});
  std::vector<NodeRef> roots{s1, s2};
  Plan p = plan_fusion(roots);
  ASSERT_EQ(p.groups.size(), 1u) << p.str();
  EXPECT_EQ(kinds(p)[0], "reduction");
  auto lg = lower_group(p, 0, nullptr);
  ASSERT_TRUE(lg.has_value());
  EXPECT_EQ(lg->kernel.reduces.size(), 2u);
  EXPECT_EQ(lg->kernel.inputs.size(), 1u);  // one pass over x
  expect_fused_equals_eager(roots);
}

TEST(AccelPlanner, ReductionEpilogue) {
  // v = sum(x.^2)/n - mean(x)^2 over columns: one reduction kernel with its epilogue.
  NodeRef x = input(random_tensor(Dims(777, 9), ClassId::Double, 10));
  NodeRef ss = reduce(ReduceKind::Sum, binary(OpId::Mul, x, x), {0});
  NodeRef mu = reduce(ReduceKind::Mean, x, {0});
  NodeRef v = binary(OpId::Sub, binary(OpId::Div, ss, constant(777)), binary(OpId::Mul, mu, mu));
  std::vector<NodeRef> roots{v};
  Plan p = plan_fusion(roots);
  ASSERT_EQ(p.groups.size(), 1u) << p.str();
  EXPECT_EQ(kinds(p)[0], "reduction");
  expect_fused_equals_eager(roots);
}

/// S = S .* exp(a + b .* randn_t), 16 steps, RNG offsets as Params.
NodeRef trace(const Tensor& s0, uint64_t base) {
  const int64_t n = s0.numel();
  NodeRef S = input(s0);
  for (int t = 0; t < 16; ++t) {
    LoopIteration iteration;  // as the interpreter does for each iteration of a loop body
    NodeRef r = randn(s0.dims(), ClassId::Double, 0xABCDEF, base + static_cast<uint64_t>(t * n));
    S = binary(OpId::Mul, S,
               unary(OpId::Exp, binary(OpId::Add, constant(-0.01),
                                       binary(OpId::Mul, constant(0.2), r))));
  }
  return S;
}

TEST(AccelPlanner, LoopTraceGivesOneKernelWithParamLiftedText) {
  Tensor s0 = random_tensor(Dims(3000, 1), ClassId::Double, 11, 1, 2);
  NodeRef t1 = trace(s0, 0), t2 = trace(s0, 987654321);
  std::vector<NodeRef> r1{t1}, r2{t2};
  Plan p1 = plan_fusion(r1), p2 = plan_fusion(r2);
  ASSERT_EQ(p1.groups.size(), 1u) << p1.str();
  ASSERT_EQ(p2.groups.size(), 1u);
  EXPECT_EQ(kinds(p1)[0], "loop");
  auto k1 = lower_group(p1, 0, nullptr), k2 = lower_group(p2, 0, nullptr);
  ASSERT_TRUE(k1 && k2);
  EXPECT_EQ(k1->kernel.text(), k2->kernel.text());
  EXPECT_EQ(k1->kernel.param_u64.size(), 17u);  // key + 16 offsets
  EXPECT_NE(t1->hash, t2->hash);
  EXPECT_EQ(t1->shape_hash, t2->shape_hash);
  expect_fused_equals_eager(r1);
  expect_fused_equals_eager(r2);
  EXPECT_TRUE(telemetry().last().groups.at(0).cache_hit);
}

TEST(AccelPlanner, GeneratorRequestedAsOutputIsMaterialised) {
  NodeRef g = rand(Dims(100, 3), ClassId::Double, 5, 0);
  NodeRef y = binary(OpId::Add, g, constant(1));
  std::vector<NodeRef> roots{g, y};
  Plan p = plan_fusion(roots);
  EXPECT_TRUE(p.at(g.get()).materialise);
  expect_fused_equals_eager(roots);
}

TEST(AccelPlanner, IndependentWorkDoesNotFuseAcrossAReductionCycle) {
  // z = x + mean(x) (broadcast of the reduction into x's shape): reduction, then elementwise.
  NodeRef x = input(random_tensor(Dims(400, 1), ClassId::Double, 12));
  NodeRef y = unary(OpId::Abs, x);
  NodeRef z = binary(OpId::Sub, y, reduce(ReduceKind::Mean, y, {0}));
  std::vector<NodeRef> roots{z};
  Plan p = plan_fusion(roots);
  // abs(x) is computed in the reduction's pass and written from its body for the subtraction.
  ASSERT_EQ(p.groups.size(), 2u) << p.str();
  EXPECT_EQ(kinds(p), (std::vector<std::string>{"reduction", "elementwise"}));
  expect_fused_equals_eager(roots);
}

// ---- planner cost on loop traces (issue 4) ---------------------------------------------------

/// W4 (EMA) trace of `steps` iterations: y = a*X(:,t) + (1-a)*y over single columns.
NodeRef ema_trace(const NodeRef& X, int steps) {
  const int64_t c = X->dims[0];
  NodeRef y = zeros(Dims(c, 1), ClassId::Single);
  NodeRef a = constant(0.01, ClassId::Single), b = constant(0.99, ClassId::Single);
  for (int t = 1; t <= steps; ++t) {
    LoopIteration iteration;
    NodeRef xt = slice(X, {constant(1), param(t, ParamRole::LoopIndex)}, {1, 1}, {c, 1});
    y = binary(OpId::Add, binary(OpId::Mul, a, xt), binary(OpId::Mul, b, y));
  }
  return y;
}

/// W3 (GBM) trace; with `means`, a running mean every 8 steps (reduction groups, merges).
std::vector<NodeRef> gbm_trace(const Tensor& s0, int steps, bool means) {
  NodeRef S = input(s0);
  NodeRef acc = constant(0);
  for (int t = 0; t < steps; ++t) {
    LoopIteration iteration;
    NodeRef r = randn(s0.dims(), ClassId::Double, 77, static_cast<uint64_t>(t) * 64);
    S = binary(OpId::Mul, S, unary(OpId::Exp, binary(OpId::Add, constant(-0.01),
                                                     binary(OpId::Mul, constant(0.2), r))));
    if (means && t % 8 == 7) acc = binary(OpId::Add, acc, reduce(ReduceKind::Mean, S, {0}));
  }
  return {S, acc};
}

/// Groups of a plan as text (kind, members, outputs, sources by serial) for comparisons.
std::string plan_signature(const Plan& p) {
  std::string s;
  auto list = [&](const std::vector<const Node*>& v) {
    for (const Node* n : v) s += " %" + std::to_string(n->serial);
  };
  for (const FusionGroup& g : p.groups) {
    s += std::string(fusion_kind_name(g.kind)) + ":";
    list(g.members);
    s += " |";
    list(g.outputs);
    s += " |";
    list(g.sources);
    s += "\n";
  }
  return s;
}

/// Plans roots with the maintained-edge planner and with the reference graph walks; returns
/// both plans' signatures and the fast planner's best time over `reps` runs (seconds).
struct Planned {
  std::string fast, reference;
  std::vector<std::string> fast_log, reference_log;
  size_t groups = 0;
  double seconds = 0;
};
Planned plan_both(const std::vector<NodeRef>& roots, int reps, bool reference = true) {
  Planned r;
  r.seconds = 1e30;
  for (int i = 0; i < reps; ++i) {
    const auto t0 = std::chrono::steady_clock::now();
    Plan p = plan_fusion(roots);
    r.seconds = std::min(
        r.seconds, std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
    r.fast = plan_signature(p);
    r.groups = p.groups.size();
  }
  r.fast_log = rejection_log();
  if (!reference) return r;
  set_reference_planning(true);
  Plan q = plan_fusion(roots);
  set_reference_planning(false);
  r.reference = plan_signature(q);
  r.reference_log = rejection_log();
  return r;
}

TEST(AccelPlanner, LoopTracePlansMatchTheReferenceWalks) {
  NodeRef X = input(random_tensor(Dims(50, 512), ClassId::Single, 21));
  for (int steps : {64, 512}) {
    Planned e = plan_both({ema_trace(X, steps)}, 1);
    EXPECT_EQ(e.fast, e.reference) << steps;
    EXPECT_EQ(e.fast_log, e.reference_log);
    EXPECT_EQ(e.groups, 1u);  // the whole trace is one loop kernel
    EXPECT_EQ(e.fast.rfind("loop:", 0), 0u);
    for (bool means : {false, true}) {
      Planned g = plan_both(
          gbm_trace(random_tensor(Dims(40, 1), ClassId::Double, 22, 1, 2), steps, means), 1);
      EXPECT_EQ(g.fast, g.reference) << steps;
      EXPECT_EQ(g.fast_log, g.reference_log);
      // Without means: one loop kernel. With them: the S chain is the means' prologue, written
      // from the reduction pass (the running sums are its epilogue).
      if (!means) {
        EXPECT_EQ(g.groups, 1u);
      }
      EXPECT_EQ(g.fast.rfind(means ? "reduction:" : "loop:", 0), 0u);
    }
  }
}

}  // namespace
}  // namespace matfuse::accel
