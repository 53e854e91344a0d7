// The schedule passes on the kernel IR (accel/emit/schedule.h): annotations of hand-built
// phases (hoisting, common subexpressions, divisors, squares), and the rewrite
// apply_schedule() checked against the host provider: every group of a broad set of plans gives
// the same bits with and without it.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <unordered_map>

#include "accel/emit/lower.h"
#include "accel/emit/schedule.h"
#include "accel/plan/pipeline.h"
#include "providers/host/host_provider.h"
#include "runtime_accel_util.h"

namespace matfuse::accel {
namespace {

using testing::fill;
using testing::random_tensor;
using testing::same_bits;

Instr make_instr(IKind kind, VType t, bool uniform, int a = -1, int b = -1) {
  Instr in;
  in.kind = kind;
  in.type = t;
  in.cls = t == VType::F32 ? ClassId::Single : t == VType::Bool ? ClassId::Logical : ClassId::Double;
  in.uniform = uniform;
  in.a = a;
  in.b = b;
  return in;
}

Instr op(OpId o, int a, int b = -1, bool uniform = false) {
  Instr in = make_instr(IKind::Op, VType::F64, uniform, a, b);
  in.op = o;
  return in;
}

/// An elementwise kernel over 10 x 3 with one input x (contiguous), one scalar input s
/// (uniform access) and parameter slot 0: the body's last value is the output.
Kernel elementwise(std::vector<Instr> body) {
  Kernel k;
  k.space = Dims(10, 3);
  k.inputs = {KInput{ClassId::Double}, KInput{ClassId::Double}};
  k.param_u64 = {false};
  k.accesses = {Access{{1, 10}, 0, {}}, Access{{0, 0}, 0, {}}};
  k.body = std::move(body);
  k.outputs = {KOutput{static_cast<int>(k.body.size()) - 1, ClassId::Double, 0, false}};
  return k;
}

Instr load(int input, int access, bool uniform) {
  Instr in = make_instr(IKind::Load, VType::F64, uniform);
  in.input = input;
  in.access = access;
  return in;
}

Instr konst(double v) {
  Instr in = make_instr(IKind::Const, VType::F64, true);
  in.imm = v;
  return in;
}

Instr iota(int access) {
  Instr in = make_instr(IKind::Iota, VType::F64, false);
  in.access = access;
  return in;
}

/// rand (uniform, double) at the stream positions given by value idx; key slot 0, stream
/// offset slot `off` (the same key, offset and positions give the same values: one value).
Instr rng(int idx, int off) {
  Instr in = make_instr(IKind::Rng, VType::F64, false, idx);
  in.gen = GenKind::Rand;
  in.slot = 0;
  in.slot2 = off;
  return in;
}

/// schedule_map of k's body with one store of its last value (`bytes` per element).
MapSchedule map_of(const Kernel& k, int bytes = 8, bool contiguous = true,
                   const MapLimits& lim = {}) {
  const PhaseSchedule s = schedule_phase(k, k.body);
  return schedule_map(k, k.body, k.space, s,
                      {MapStoreShape{static_cast<int>(k.body.size()) - 1, bytes, contiguous}}, lim);
}

TEST(AccelMapSchedule, ContiguousLightBodiesTakeTheVectorPath) {
  // x + s: the contiguous load moves as groups, the uniform one is read once per thread.
  Kernel k = elementwise({load(0, 0, false), load(1, 1, true), load(0, 0, false),
                          op(OpId::Add, 0, 1), op(OpId::Mul, 3, 2)});
  MapSchedule m = map_of(k);
  EXPECT_EQ(m.path, MapSchedule::Path::Vector);
  EXPECT_EQ(m.width, 2);                           // 16 bytes of doubles
  EXPECT_EQ(m.group_loads, std::vector<int>{0});   // value 2 is an alias of 0, 1 is uniform
  EXPECT_TRUE(m.rng_groups.empty());
  EXPECT_FALSE(m.partial);
  EXPECT_EQ(m.segments(), 1);
  EXPECT_EQ(m.segment_starts, (std::vector<size_t>{0, 5}));
  EXPECT_EQ(m.restores, std::vector<std::vector<int>>(1));
  EXPECT_EQ(m.crosses, std::vector<bool>(5, false));
  // The width follows the widest element moved: single data 4, bytes clamp at 4.
  k.inputs[0].cls = ClassId::Single;
  EXPECT_EQ(map_of(k, 4).width, 4);
  EXPECT_EQ(map_of(k, 8).width, 2);  // a double store
  k.inputs[0].cls = ClassId::UInt8;
  EXPECT_EQ(map_of(k, 1).width, 4);
  k.inputs[0].cls = ClassId::Int16;
  EXPECT_EQ(map_of(k, 1, true, MapLimits{32, 24, 4}).width, 4);
  EXPECT_EQ(map_of(k, 2, true, MapLimits{8, 24, 4}).width, 4);
  EXPECT_EQ(map_of(k, 4, true, MapLimits{8, 24, 4}).width, 2);
}

TEST(AccelMapSchedule, PlainPathForStridedHeavyOrTinyPhases) {
  Kernel k = elementwise({load(0, 0, false), konst(1), op(OpId::Add, 0, 1)});
  EXPECT_EQ(map_of(k).path, MapSchedule::Path::Vector);
  // A store that is not contiguous.
  MapSchedule m = map_of(k, 8, false);
  EXPECT_EQ(m.path, MapSchedule::Path::Plain);
  EXPECT_EQ(m.width, 1);
  EXPECT_EQ(m.segments(), 0);
  EXPECT_TRUE(m.group_loads.empty());
  // A strided load (the transpose of the space).
  Kernel t = k;
  t.accesses[0].strides = {3, 1};
  EXPECT_EQ(map_of(t).path, MapSchedule::Path::Plain);
  // Strides 0 along dimensions of extent 1 keep an access contiguous.
  Kernel c = k;
  c.space = Dims(1, 30);
  c.accesses[0].strides = {0, 1};
  EXPECT_TRUE(contiguous_access(c, 0, c.space));
  EXPECT_EQ(map_of(c).path, MapSchedule::Path::Vector);
  c.accesses[0].strides = {5, 1};
  EXPECT_FALSE(contiguous_access(c, 0, c.space));
  // One point.
  Kernel one = k;
  one.space = Dims(1, 1);
  EXPECT_EQ(map_of(one).path, MapSchedule::Path::Plain);
  // More than 24 point instructions: compute bound.
  std::vector<Instr> body{load(0, 0, false)};
  for (int i = 0; i < 24; ++i) body.push_back(op(OpId::Sin, i));
  Kernel heavy = elementwise(body);
  EXPECT_EQ(schedule_phase(heavy, heavy.body).point_instrs(), 25);
  EXPECT_EQ(map_of(heavy).path, MapSchedule::Path::Plain);
  EXPECT_EQ(map_of(heavy, 8, true, MapLimits{16, 25, 4}).path, MapSchedule::Path::Vector);
}

TEST(AccelMapSchedule, RandomNumbersComputeFourLanesPerThread) {
  // x .* rand + rand over consecutive stream positions, 30 points: groups of 4, the last one
  // partial; each group Rng value starts a segment.
  Kernel k = elementwise({load(0, 0, false),       // 0 x
                          iota(0),                 // 1 stream index
                          rng(1, 1),               // 2
                          op(OpId::Mul, 0, 2),     // 3
                          rng(1, 2),               // 4 (another stream offset)
                          op(OpId::Add, 3, 4),     // 5
                          op(OpId::Add, 5, 0)});   // 6 reads x from the first segment
  k.param_u64 = {true, true, true};
  MapSchedule m = map_of(k);
  EXPECT_EQ(m.path, MapSchedule::Path::RngGroups);
  EXPECT_EQ(m.width, 4);
  EXPECT_TRUE(m.partial);
  EXPECT_EQ(m.rng_groups, (std::vector<int>{2, 4}));
  EXPECT_EQ(m.group_loads, std::vector<int>{0});
  EXPECT_TRUE(m.is_rng_group(4));
  EXPECT_FALSE(m.is_rng_group(3));
  EXPECT_TRUE(m.is_group_load(0));
  ASSERT_EQ(m.segments(), 3);
  EXPECT_EQ(m.segment_starts, (std::vector<size_t>{0, 2, 4, 7}));
  // x crosses from segment 0 into 1 (the product) and 2 (the sum); the product into 2.
  EXPECT_EQ(m.restores[0], std::vector<int>{});
  EXPECT_EQ(m.restores[1], std::vector<int>{0});
  EXPECT_EQ(m.restores[2], (std::vector<int>{3, 0}));
  EXPECT_EQ(m.crosses, (std::vector<bool>{true, false, false, true, false, false, false}));
  // A multiple of 4 points: no partial group.
  k.space = Dims(4, 3);
  k.accesses[0].strides = {1, 4};
  EXPECT_FALSE(map_of(k).partial);
  // Fewer points than lanes, or positions that are not consecutive: per point, and no vector
  // path either (the body has random numbers).
  Kernel few = k;
  few.space = Dims(3, 1);
  few.accesses = {Access{{1, 0}, 0, {}}, Access{{0, 0}, 0, {}}};
  EXPECT_EQ(map_of(few).path, MapSchedule::Path::Plain);
  Kernel strided = k;
  strided.accesses.push_back(Access{{2, 8}, 0, {}});
  strided.body[1].access = 2;
  EXPECT_EQ(map_of(strided).path, MapSchedule::Path::Plain);
}

TEST(AccelMapSchedule, StoresOfEarlierSegmentsCrossOver) {
  // The stored value is computed before the last group Rng value: it crosses into the last
  // segment, where the stores are written.
  Kernel k = elementwise({iota(0), rng(0, 1), op(OpId::Neg, 1), rng(0, 2), op(OpId::Abs, 3),
                          op(OpId::Neg, 2)});
  k.param_u64 = {true, true, true};
  const PhaseSchedule s = schedule_phase(k, k.body);
  const MapSchedule m = schedule_map(k, k.body, k.space, s, {{2, 8, true}, {4, 4, false}});
  ASSERT_EQ(m.path, MapSchedule::Path::RngGroups);
  EXPECT_EQ(m.segment_starts, (std::vector<size_t>{0, 1, 3, 6}));
  EXPECT_EQ(m.restores[2], std::vector<int>{2});
  EXPECT_TRUE(m.crosses[2]);
  EXPECT_FALSE(m.crosses[4]);
}

TEST(AccelSchedule, HoistsUniformValuesAndTheirDivisors) {
  Instr p = make_instr(IKind::Param, VType::F64, true);
  p.slot = 0;
  Kernel k = elementwise({
      load(0, 0, false),          // 0 x
      load(1, 1, true),           // 1 s (uniform access)
      p,                          // 2 p
      op(OpId::Add, 1, 2, true),  // 3 s + p: hoisted
      op(OpId::Div, 0, 3),        // 4 x / (s + p): per point, divisor hoisted
      op(OpId::LDiv, 3, 0),       // 5 (s + p) .\ x: the same divisor
      op(OpId::Div, 3, 0),        // 6 (s + p) / x: the divisor varies
      op(OpId::Add, 4, 5),
      op(OpId::Add, 7, 6),
  });
  ASSERT_EQ(verify_kernel(k), "");
  const PhaseSchedule s = schedule_phase(k, k.body);
  EXPECT_EQ(s.hoisted, (std::vector<bool>{false, true, true, true, false, false, false, false, false}));
  EXPECT_EQ(s.hoisted_values, (std::vector<int>{1, 2, 3}));
  EXPECT_EQ(s.divisor, (std::vector<int>{-1, -1, -1, -1, 3, 3, -1, -1, -1}));
  ASSERT_EQ(s.setup.size(), 1u);  // one reciprocal for both quotients
  EXPECT_EQ(s.setup[0].kind, ThreadSetup::Kind::Reciprocal);
  EXPECT_EQ(s.setup[0].value, 3);
  EXPECT_EQ(s.point_instrs(), 6);
}

TEST(AccelSchedule, StridedLoadsAreNeverHoisted) {
  Kernel k = elementwise({load(0, 0, true), konst(1), op(OpId::Add, 0, 1, true)});
  // A uniform-flagged load through a strided access stays per point, and so does its user.
  const PhaseSchedule s = schedule_phase(k, k.body);
  EXPECT_EQ(s.hoisted, (std::vector<bool>{false, true, false}));
}

TEST(AccelSchedule, CommonSubexpressionsAreMergedOnce) {
  Instr g = make_instr(IKind::Gen, VType::F64, false, 0);
  g.gen = GenKind::Linspace;
  g.slot = 0;
  g.slot2 = 0;
  g.imm = 30;
  Kernel k = elementwise({
      load(0, 0, false),      // 0
      load(0, 0, false),      // 1 = 0
      op(OpId::Sin, 0),       // 2
      op(OpId::Sin, 1),       // 3 = 2 (operands by representative)
      op(OpId::Mul, 2, 3),    // 4
      op(OpId::Mul, 3, 2),    // 5 = 4: both read 2 twice once operands are representatives
      op(OpId::Sub, 0, 2),    // 6
      op(OpId::Sub, 2, 0),    // 7: operand order differs: kept
      konst(2),               // 8
      konst(2),               // 9 = 8
      g,                      // 10 generators are never merged
      g,                      // 11
      op(OpId::Add, 4, 5),    // 12
      op(OpId::Add, 10, 11),  // 13
      op(OpId::Add, 6, 7),    // 14
      op(OpId::Add, 12, 13),  // 15
      op(OpId::Add, 14, 15),  // 16
  });
  ASSERT_EQ(verify_kernel(k), "");
  const PhaseSchedule s = schedule_phase(k, k.body);
  EXPECT_EQ(s.alias,
            (std::vector<int>{0, 0, 2, 2, 4, 4, 6, 7, 8, 8, 10, 11, 12, 13, 14, 15, 16}));
  ASSERT_EQ(s.setup.size(), 2u);  // both generators' parameters, per thread
  EXPECT_EQ(s.setup[0].kind, ThreadSetup::Kind::GenParams);
  EXPECT_EQ(s.setup[0].value, 10);
  EXPECT_EQ(s.setup[1].value, 11);
  EXPECT_EQ(s.point_instrs(), 12);  // every representative but the constant 8 (hoisted)
}

TEST(AccelSchedule, SquaresOnlyForTheConstantExponentTwo) {
  Instr p = make_instr(IKind::Param, VType::F64, true);
  p.slot = 0;
  Instr two_f = make_instr(IKind::Convert, VType::F32, true, 1);
  Instr xf = make_instr(IKind::Convert, VType::F32, false, 0);
  Instr powf_ = make_instr(IKind::Op, VType::F32, false, 5, 4);
  powf_.op = OpId::Pow;
  Kernel k = elementwise({
      load(0, 0, false),     // 0
      konst(2),              // 1
      op(OpId::Pow, 0, 1),   // 2 x.^2
      p,                     // 3 a parameter (its value is not known when scheduling)
      two_f,                 // 4 single(2)
      xf,                    // 5 single(x)
      powf_,                 // 6 single(x).^single(2)
      op(OpId::Pow, 0, 3),   // 7 x.^p
      konst(3),              // 8
      op(OpId::Pow, 0, 8),   // 9 x.^3
      op(OpId::Add, 2, 7),
  });
  ASSERT_EQ(verify_kernel(k), "");
  const PhaseSchedule s = schedule_phase(k, k.body);
  EXPECT_TRUE(s.square[2]);
  EXPECT_TRUE(s.square[6]);
  EXPECT_FALSE(s.square[7]);
  EXPECT_FALSE(s.square[9]);
}

TEST(AccelSchedule, RewriteMergesSquaresAndDropsUnusedValues) {
  Kernel k = elementwise({
      load(0, 0, false),     // 0
      load(0, 0, false),     // 1 = 0
      konst(2),              // 2
      op(OpId::Pow, 0, 2),   // 3 -> 0 .* 0
      op(OpId::Pow, 1, 2),   // 4 = 3
      op(OpId::Add, 3, 4),   // 5
  });
  k.body[3].check_real = true;
  k.body[4].check_real = true;
  apply_schedule(k);
  ASSERT_EQ(verify_kernel(k), "");
  ASSERT_EQ(k.body.size(), 3u);  // x, x.*x, sum (the constant 2 is left without a use)
  EXPECT_EQ(k.body[1].kind, IKind::Op);
  EXPECT_EQ(k.body[1].op, OpId::Mul);
  EXPECT_EQ(k.body[1].a, 0);
  EXPECT_EQ(k.body[1].b, 0);
  EXPECT_FALSE(k.body[1].check_real);
  EXPECT_EQ(k.body[2].a, 1);
  EXPECT_EQ(k.body[2].b, 1);
  EXPECT_EQ(k.outputs[0].value, 2);
}

// ---- the rewrite against the host provider --------------------------------------------------

/// Values of the plan's nodes computed so far: a group's input that is not a leaf is an
/// earlier group's output (as the evaluator's value_of, accel/run/evaluate.cc).
using Computed = std::unordered_map<const Node*, Tensor>;

/// Runs kernel k of group lg on the host provider; the outputs, or nothing when it faulted.
std::vector<Tensor> run_host(const LoweredGroup& lg, const Kernel& k, const Computed& done,
                             bool* ok) {
  KernelArgs args;
  std::vector<Tensor> outs;
  for (const Node* n : lg.input_nodes) {
    if (n->kind == NodeKind::Input) {
      args.inputs.push_back(n->tensor.raw());
    } else {
      const auto it = done.find(n);
      EXPECT_NE(it, done.end()) << "group input computed by no earlier group";
      if (it == done.end()) {
        *ok = false;
        return outs;
      }
      args.inputs.push_back(it->second.raw());
    }
  }
  for (const Node* n : lg.param_nodes) args.params.push_back({n->value, n->bits});
  for (size_t i = 0; i < lg.output_nodes.size(); ++i) {
    const Node* n = lg.output_nodes[i];
    if (lg.output_imag[i]) {  // the imaginary part: the real part's interleaved buffer
      outs.push_back(outs.back());
      args.outputs.push_back(args.outputs.back());
      continue;
    }
    outs.push_back(Tensor::uninit(n->cls, n->dims, n->complex));
    std::memset(outs.back().mutable_raw(), 0, outs.back().numel() * outs.back().elem_bytes());
    args.outputs.push_back(outs.back().mutable_raw());
  }
  *ok = host::host_provider().run(k, args).ok;
  return outs;
}

int g_groups = 0;  // groups compared

/// Every group of the plan of roots gives the same bits and faults alike with the rewrite;
/// returns how many groups the rewrite changed.
int check_groups(const std::string& label, const std::vector<NodeRef>& roots) {
  const Plan p = plan_fusion(roots);
  int changed = 0;
  Computed done;
  for (size_t g = 0; g < p.groups.size(); ++g) {
    std::string why;
    const auto lg = lower_group(p, static_cast<int>(g), &why);
    if (!lg) continue;
    Kernel s = lg->kernel;
    apply_schedule(s);
    EXPECT_EQ(verify_kernel(s), "") << label;
    changed += s.text() != lg->kernel.text();
    ++g_groups;
    bool ok0 = false, ok1 = false;
    const std::vector<Tensor> a = run_host(*lg, lg->kernel, done, &ok0);
    const std::vector<Tensor> b = run_host(*lg, s, done, &ok1);
    EXPECT_EQ(ok0, ok1) << label << " group " << g;
    if (!ok0 || !ok1) continue;
    for (size_t i = 0; i < a.size(); ++i)
      if (!lg->output_imag[i]) done[lg->output_nodes[i]] = a[i];
    for (size_t i = 0; i < a.size(); ++i)
      EXPECT_TRUE(same_bits(a[i], b[i])) << label << " group " << g << " output " << i;
  }
  return changed;
}

TEST(AccelSchedule, RewriteGivesTheHostProvidersBits) {
  int changed = 0;
  const Dims d(37, 29);
  for (ClassId fc : {ClassId::Double, ClassId::Single}) {
    const std::string cn(class_name(fc));
    NodeRef x = input(random_tensor(d, fc, 1, -3, 3));
    NodeRef y = input(random_tensor(d, fc, 2, 0.05, 2));
    NodeRef col = input(random_tensor(Dims(37, 1), fc, 3, -3, 3));
    NodeRef sq = binary(OpId::Pow, x, constant(2));
    // squares (also of negative values, of a broadcast column and under a cast)
    changed += check_groups("squares-" + cn,
                            {binary(OpId::Add, sq, binary(OpId::Pow, col, constant(2))),
                             cast(binary(OpId::Pow, binary(OpId::Mul, y, constant(300)),
                                         constant(2)), ClassId::Int16)});
    // x.^2 whose square root stays real; other exponents
    changed += check_groups("pow-" + cn, {unary(OpId::Sqrt, sq), binary(OpId::Pow, y, constant(0.5)),
                                          binary(OpId::Pow, x, constant(3)),
                                          binary(OpId::Pow, x, param(2))});
    // divisions by uniform divisors, a parameter and a constant
    changed += check_groups("div-" + cn,
                            {binary(OpId::Div, x, binary(OpId::Add, param(3), constant(1))),
                             binary(OpId::LDiv, constant(7), y), binary(OpId::Div, constant(1), y)});
    // reductions and their epilogues
    changed += check_groups("reduce-" + cn,
                            {binary(OpId::Div, reduce(ReduceKind::Sum, sq, {0}), constant(37)),
                             reduce(ReduceKind::Max, binary(OpId::Pow, col, constant(2)), {0}),
                             binary(OpId::Sub, x, reduce(ReduceKind::Mean, x, {0}))});
    // generators and random numbers
    changed += check_groups("gen-" + cn,
                            {binary(OpId::Pow, linspace(-2, 2, 1001, fc), constant(2)),
                             binary(OpId::Mul, rand(Dims(40, 25), fc, 0x77ull, 3),
                                    rand(Dims(40, 25), fc, 0x77ull, 3))});
    // a matrix product with an epilogue
    NodeRef a = input(random_tensor(Dims(20, 30), fc, 5));
    NodeRef b = input(random_tensor(Dims(30, 10), fc, 6));
    changed += check_groups("matmul-" + cn,
                            {binary(OpId::Pow, matmul(a, b), constant(2))});
  }
  // integer classes: computed in double, saturated
  NodeRef i8 = input(fill(Dims(300, 7), ClassId::Int8,
                          [](int64_t i) { return static_cast<double>((i * 7919) % 251) - 125; }));
  changed += check_groups("int8", {binary(OpId::Pow, i8, constant(2)),
                                   binary(OpId::Div, i8, constant(3, ClassId::Int8))});
  // NaN and infinities squared; a domain fault still faults
  NodeRef sp = input(fill(Dims(64, 1), ClassId::Double, [](int64_t i) {
    const double v[] = {NAN, INFINITY, -INFINITY, -0.0, 1e200, -1e-200, 5e-324, -3};
    return v[i % 8];
  }));
  changed += check_groups("special", {binary(OpId::Pow, sp, constant(2)),
                                      unary(OpId::Sqrt, binary(OpId::Sub, sp, constant(1)))});
  EXPECT_GE(g_groups, 20);
  EXPECT_GT(changed, 0);  // the rewrite did act on some of these kernels
}

}  // namespace
}  // namespace matfuse::accel
