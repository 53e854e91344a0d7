// Property test: random expression DAGs over random shapes (implicit expansion included),
// fused (evaluate) against unfused (evaluate_eager, the eager engine), bit for bit, including
// the MATLAB error when one is raised.
#include <gtest/gtest.h>

#include <cstdlib>
#include <functional>
#include <random>

#include "accel/run/eager.h"
#include "accel/run/evaluate.h"
#include "runtime_accel_util.h"

namespace matfuse::accel {
namespace {

using testing::random_tensor;
using testing::same_bits;

struct DagBuilder {
  std::mt19937 rng;
  int64_t rows, cols;
  std::vector<NodeRef> pool;

  explicit DagBuilder(uint32_t seed) : rng(seed) {
    std::uniform_int_distribution<int> pick(0, 3);
    const int64_t sizes[] = {1, 3, 17, 64, 129, 700, 2500};
    std::uniform_int_distribution<int> sz(0, 6);
    rows = sizes[sz(rng)];
    cols = pick(rng) == 0 ? 1 : sizes[sz(rng) % 4 + 1];
  }
  int any(int n) { return std::uniform_int_distribution<int>(0, n - 1)(rng); }
  Dims shape() {
    switch (any(4)) {
      case 0: return Dims(1, 1);
      case 1: return Dims(rows, 1);
      case 2: return Dims(1, cols);
      default: return Dims(rows, cols);
    }
  }
  ClassId cls() {
    switch (any(6)) {
      case 0: return ClassId::Single;
      case 1: return ClassId::Int32;
      case 2: return ClassId::Logical;
      default: return ClassId::Double;
    }
  }
  NodeRef leaf() {
    const Dims d = shape();
    switch (any(5)) {
      case 0: return rand(d, any(2) ? ClassId::Double : ClassId::Single, 42, any(1000));
      case 1: return randn(d, ClassId::Double, 43, any(1000));
      case 2: return constant(std::uniform_real_distribution<double>(-3, 3)(rng));
      default: {
        const ClassId c = cls();
        if (c == ClassId::Logical)
          return input(testing::fill(d, c, [&](int64_t) { return any(2); }));
        Tensor t = random_tensor(d, c, static_cast<uint32_t>(rng()), -4, 4);
        if (c == ClassId::Double && any(4) == 0) t.set_double(0, std::nan(""));
        return input(t);
      }
    }
  }
  NodeRef operand() { return pool.empty() || any(4) == 0 ? leaf() : pool[any(static_cast<int>(pool.size()))]; }

  NodeRef step() {
    static const OpId unary_ops[] = {OpId::Sin, OpId::Exp, OpId::Abs, OpId::Neg, OpId::Floor,
                                     OpId::Round, OpId::Sqrt, OpId::Log, OpId::Tanh, OpId::Sign,
                                     OpId::IsNaN, OpId::Not, OpId::Expm1};
    static const OpId binary_ops[] = {OpId::Add, OpId::Sub, OpId::Mul, OpId::Div, OpId::LDiv,
                                      OpId::Max, OpId::Min, OpId::Pow, OpId::Lt, OpId::Ge,
                                      OpId::Eq, OpId::And, OpId::Or, OpId::Atan2, OpId::Hypot,
                                      OpId::Mod, OpId::Rem};
    const int kind = any(10);
    try {
      if (kind < 3) {
        return unary(unary_ops[any(std::size(unary_ops))], operand());
      } else if (kind < 8) {
        NodeRef a = operand(), b = operand();
        return binary(binary_ops[any(std::size(binary_ops))], a, b);
      } else if (kind < 9) {
        static const ReduceKind kinds[] = {ReduceKind::Sum, ReduceKind::Prod, ReduceKind::Mean,
                                           ReduceKind::Min, ReduceKind::Max, ReduceKind::Any,
                                           ReduceKind::All};
        std::vector<int> dims;
        switch (any(3)) {
          case 0: dims = {0}; break;
          case 1: dims = {1}; break;
          default: dims = {0, 1};
        }
        return reduce(kinds[any(7)], operand(), dims, any(2) == 0);
      } else {
        static const ClassId to[] = {ClassId::Single, ClassId::Double, ClassId::Int32,
                                     ClassId::UInt8};
        return cast(operand(), to[any(4)]);
      }
    } catch (const MatlabError&) {
      return nullptr;  // creation refused (class or size rules): try another step
    }
  }
};

std::string outcome(const std::function<std::vector<Tensor>()>& f, std::vector<Tensor>& out) {
  try {
    out = f();
  } catch (const MatlabError& e) {
    return e.identifier();
  } catch (const InternalError& e) {
    return std::string("internal: ") + e.what();
  }
  return "";
}

TEST(AccelProperty, RandomDagsFusedEqualsEager) {
  // MATFUSE_PROPERTY_SEEDS=N runs N seeds (default 300).
  const char* env = std::getenv("MATFUSE_PROPERTY_SEEDS");
  const uint32_t seeds = env ? static_cast<uint32_t>(std::atoi(env)) : 300u;
  int compared = 0;
  for (uint32_t seed = 1; seed <= seeds; ++seed) {
    DagBuilder b(seed);
    const int steps = 3 + b.any(14);
    for (int i = 0; i < steps; ++i)
      if (NodeRef n = b.step()) b.pool.push_back(n);
    if (b.pool.empty()) continue;
    std::vector<NodeRef> roots{b.pool.back()};
    for (int i = 0; i < 2; ++i) roots.push_back(b.pool[b.any(static_cast<int>(b.pool.size()))]);
    std::vector<Tensor> fused, eager;
    const std::string ef = outcome([&] { return evaluate(roots); }, fused);
    const std::string ee = outcome([&] { return evaluate_eager(roots); }, eager);
    // Both fail or both succeed. (When several independent operations fail, the fused path
    // may raise another one's error first: groups run in a different order than nodes.)
    ASSERT_EQ(ef.empty(), ee.empty()) << "seed " << seed << ": " << ef << " vs " << ee << "\n"
                                      << dump_graph(roots);
    if (ee.find("internal") == std::string::npos) {  // eager-engine asserts are not ours
      ASSERT_EQ(ef.find("internal"), std::string::npos) << "seed " << seed << ": " << ef;
    }
    if (!ef.empty()) continue;
    for (size_t i = 0; i < roots.size(); ++i)
      ASSERT_TRUE(same_bits(fused[i], eager[i])) << "seed " << seed << " root " << i << "\n"
                                                 << dump_graph(roots);
    ++compared;
  }
  EXPECT_GT(compared, static_cast<int>(seeds * 2 / 3));
}

/// An affine slice with the builder's shape: X(r0 + (0:rows-1)*sr, c0 + (0:cols-1)) of a
/// larger generator, input or computed value X, the starts per-trace Params (loop indices).
NodeRef random_slice(DagBuilder& b) {
  const int64_t sr = 1 + b.any(2), extra_r = b.any(5), extra_c = b.any(4);
  const Dims base((b.rows - 1) * sr + 1 + extra_r, b.cols + extra_c);
  NodeRef x;
  switch (b.any(4)) {
    case 0: x = rand(base, b.any(2) ? ClassId::Double : ClassId::Single, 44, b.any(1000)); break;
    case 1: x = randn(base, ClassId::Single, 45, b.any(1000)); break;
    case 2: x = input(random_tensor(base, ClassId::Double, 1000u + b.any(1000))); break;
    default:
      x = unary(OpId::Exp, input(random_tensor(base, ClassId::Single, 2000u + b.any(1000))));
  }
  const bool col = b.any(3) == 0;  // X(rows, t): one column
  std::vector<NodeRef> starts{param(1 + b.any(static_cast<int>(extra_r) + 1), ParamRole::LoopIndex),
                              param(1 + b.any(static_cast<int>(extra_c) + 1), ParamRole::LoopIndex)};
  return slice(x, starts, {sr, 1}, {b.rows, col ? 1 : b.cols});
}

TEST(AccelProperty, RandomDagsWithSlicesFusedEqualsEager) {
  // Slices of generators (recomputed at the selected elements), of inputs and of computed
  // values, mixed into random expression DAGs.
  const char* env = std::getenv("MATFUSE_PROPERTY_SEEDS");
  const uint32_t seeds = env ? static_cast<uint32_t>(std::atoi(env)) : 200u;
  int compared = 0;
  for (uint32_t seed = 1; seed <= seeds; ++seed) {
    DagBuilder b(seed + 7000);
    const int steps = 3 + b.any(10);
    for (int i = 0; i < steps; ++i) {
      NodeRef n = b.any(3) == 0 ? random_slice(b) : b.step();
      if (n) b.pool.push_back(n);
    }
    if (b.pool.empty()) continue;
    std::vector<NodeRef> roots{b.pool.back(), b.pool[b.any(static_cast<int>(b.pool.size()))]};
    std::vector<Tensor> fused, eager;
    const std::string ef = outcome([&] { return evaluate(roots); }, fused);
    const std::string ee = outcome([&] { return evaluate_eager(roots); }, eager);
    ASSERT_EQ(ef.empty(), ee.empty()) << "seed " << seed << ": " << ef << " vs " << ee << "\n"
                                      << dump_graph(roots);
    if (!ef.empty()) continue;
    for (size_t i = 0; i < roots.size(); ++i)
      ASSERT_TRUE(same_bits(fused[i], eager[i])) << "seed " << seed << " root " << i << "\n"
                                                 << dump_graph(roots);
    ++compared;
  }
  EXPECT_GT(compared, static_cast<int>(seeds / 2));
}

}  // namespace
}  // namespace matfuse::accel
