// Host provider execution: fused kernels against the eager engine, bit for bit, across classes,
// generators, movement, reductions, faults and fallbacks.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>
#include <complex>
#include <limits>
#include <random>

#include "accel/run/eager.h"
#include "accel/run/fft.h"
#include "accel/run/evaluate.h"
#include "accel/emit/lower.h"
#include "accel/plan/pipeline.h"
#include "runtime/options.h"
#include "runtime_accel_util.h"

namespace matfuse::accel {
namespace {

using testing::error_id;
using testing::fill;
using testing::make;
using testing::random_tensor;
using testing::same_bits;

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

/// Fused (evaluate) and eager values agree bit for bit; with `host`, every group ran as a host
/// kernel (no eager fallback).
void expect_same(std::vector<NodeRef> roots, bool host = true) {
  std::vector<Tensor> fused = evaluate(roots);
  const EvaluationRecord rec = telemetry().last();
  std::vector<Tensor> eager = evaluate_eager(roots);
  ASSERT_EQ(fused.size(), eager.size());
  for (size_t i = 0; i < fused.size(); ++i) EXPECT_TRUE(same_bits(fused[i], eager[i])) << "root " << i;
  if (host) {
    for (const GroupRecord& g : rec.groups) {
      EXPECT_EQ(g.provider, "host") << g.fusion_kind << " fell back: " << g.fallback;
    }
  }
}

const GroupRecord& last_group(size_t i = 0) {
  static EvaluationRecord rec;
  rec = telemetry().last();
  return rec.groups.at(i);
}

TEST(AccelExec, IntegerArithmeticSaturatesEachStep) {
  NodeRef x = input(fill(Dims(5000, 1), ClassId::Int32,
                         [](int64_t i) { return (i % 2 ? 1 : -1) * (i * 997 % 2147483) * 1000.0; }));
  NodeRef y = binary(OpId::Add, binary(OpId::Div, binary(OpId::Mul, x, constant(3)), constant(2)),
                     constant(0.4));
  NodeRef u8 = input(fill(Dims(5000, 1), ClassId::UInt8, [](int64_t i) { return i % 256; }));
  NodeRef z = binary(OpId::Sub, u8, constant(100.5));
  expect_same({y, z, unary(OpId::Abs, x), binary(OpId::Mod, x, constant(7))});
  EXPECT_EQ(last_group().provider, "host");
}

TEST(AccelExec, MixedClassesComparisonsAndLogicals) {
  NodeRef s = input(random_tensor(Dims(70, 40), ClassId::Single, 1));
  NodeRef d = input(random_tensor(Dims(70, 1), ClassId::Double, 2));
  NodeRef l = binary(OpId::Gt, s, d);  // compared in double
  NodeRef m = binary(OpId::And, l, binary(OpId::Lt, s, constant(1.5, ClassId::Single)));
  NodeRef c = input(Tensor::from_string("hello world"));
  expect_same({binary(OpId::Mul, s, d), l, m, unary(OpId::Not, m), binary(OpId::Add, c, constant(1)),
               cast(binary(OpId::Mul, s, constant(100)), ClassId::Int16), cast(s, ClassId::Double),
               unary(OpId::IsNaN, s), unary(OpId::IsFinite, c)});
}

TEST(AccelExec, NaNToLogicalRaisesTheEagerError) {
  NodeRef x = input(make(Dims(3, 1), {1, kNaN, 0}));
  NodeRef y = binary(OpId::Or, x, constant(1));
  EXPECT_EQ(error_id([&] { evaluate(y); }), "MATLAB:nologicalnan");
  EXPECT_EQ(error_id([&] { evaluate(cast(x, ClassId::Logical)); }), "MATLAB:nologicalnan");
}

TEST(AccelExec, DomainFaultFallsBackToComplexEagerResult) {
  NodeRef x = input(random_tensor(Dims(3000, 1), ClassId::Double, 3, -1, 1));
  NodeRef y = binary(OpId::Add, unary(OpId::Sqrt, x), constant(1));
  Tensor r = evaluate(y);
  EXPECT_TRUE(r.is_complex());
  expect_same({y}, false);
  EXPECT_EQ(last_group().provider, "eager");
  EXPECT_EQ(last_group().fallback, "result is complex");
  // In the real domain the kernel runs.
  NodeRef z = unary(OpId::Sqrt, unary(OpId::Abs, x));
  expect_same({z});
  EXPECT_EQ(last_group().provider, "host");
}

TEST(AccelExec, SinglePowSpecialCasesMatchEager) {
  // The host kernel runs pow's branch-free path over every element and redoes the special cases
  // (negative, zero, infinite and NaN bases; infinite and NaN exponents); the eager engine calls
  // the scalar function per element. Exponents along columns (broadcast), per element and
  // uniform; non-integer exponents only meet bases that are not below 0 (no complex results).
  const double inf = std::numeric_limits<double>::infinity();
  const std::vector<double> xs = {0.0, -0.0, 1.0, -1.0, 0.5, -2.0, 3.0, -3.5, 1e-45, -1e-45, 1e-40,
                                  3.4e38, -3.4e38, inf, -inf, kNaN, 0.999, 1.001, 7.25, 16.0};
  const std::vector<double> yi = {0.0, -0.0, 1.0, 2.0, 3.0, -3.0, -2.0, 127.0, -149.0, 1e9, inf,
                                  -inf, kNaN, 16777217.0};
  const std::vector<double> yr = {1.8, -0.5, 0.25, 1e-3, -1e-3, 40.5, -40.5, 2.0, inf, kNaN};
  auto vec = [](const std::vector<double>& v, bool column) {
    const int64_t n = static_cast<int64_t>(v.size());
    return input(fill(column ? Dims(n, 1) : Dims(1, n), ClassId::Double,
                      [&](int64_t i) { return v[i]; }));
  };
  auto col = [&](const std::vector<double>& v) { return vec(v, true); };
  auto row = [&](const std::vector<double>& v) { return vec(v, false); };
  NodeRef x = cast(col(xs), ClassId::Single);
  NodeRef ax = cast(unary(OpId::Abs, col(xs)), ClassId::Single);
  NodeRef grid_int = binary(OpId::Pow, x, cast(row(yi), ClassId::Single));
  NodeRef grid_real = binary(OpId::Pow, ax, cast(row(yr), ClassId::Single));
  expect_same({grid_int, grid_real, binary(OpId::Pow, ax, constant(1.8, ClassId::Single)),
               binary(OpId::Pow, constant(2.5, ClassId::Single), cast(row(yi), ClassId::Single)),
               binary(OpId::Pow, ax, ax)});
  Tensor r = evaluate(binary(OpId::Pow, x, constant(3.0, ClassId::Single)));
  EXPECT_EQ(r.data<float>()[5], -8.0f);  // (-2)^3
  EXPECT_EQ(r.data<float>()[1], 0.0f);
  EXPECT_TRUE(std::signbit(r.data<float>()[1]));  // (-0)^3 = -0
}

TEST(AccelExec, SliceWithParamAndTranspose) {
  Tensor X = random_tensor(Dims(50, 8), ClassId::Double, 4);
  NodeRef x = input(X);
  auto column = [&](double t) {
    return binary(OpId::Mul, slice(x, {constant(1), param(t, ParamRole::LoopIndex)}, {1, 1}, {50, 1}),
                  constant(2));
  };
  expect_same({column(3)});
  expect_same({column(8)});
  std::vector<NodeRef> r3{column(3)}, r5{column(5)};
  Plan p3 = plan_fusion(r3), p5 = plan_fusion(r5);
  EXPECT_EQ(lower_group(p3, 0, nullptr)->kernel.text(), lower_group(p5, 0, nullptr)->kernel.text());
  // Every other row, reversed columns: steps 2 and -1.
  NodeRef s = slice(x, {constant(2), constant(8)}, {2, -1}, {20, 8});
  expect_same({binary(OpId::Add, s, constant(1))});
  NodeRef y = input(random_tensor(Dims(8, 50), ClassId::Double, 5));
  expect_same({binary(OpId::Add, transpose(x), y), transpose(x)});
}

TEST(AccelExec, GeneratorsMatchEager) {
  NodeRef e = eye(40, 70);
  NodeRef lin = linspace(-3, 5, 70);
  NodeRef col = colon_range(0, 0.1, 40, 3.9);
  NodeRef sl = linspace(0, 1, 70, ClassId::Single);
  NodeRef cs = colon_range(1, 0.25, 40, 10.75, ClassId::Single);
  NodeRef a = binary(OpId::Add, binary(OpId::Mul, e, lin), transpose(col));
  expect_same({a, binary(OpId::Mul, sl, transpose(cs)), binary(OpId::Add, ones(Dims(40, 70)), zeros(Dims(40, 1)))});
  NodeRef r = randn(Dims(33, 17), ClassId::Single, 99, 12345);
  NodeRef u = rand(Dims(1, 17), ClassId::Double, 99, 777);
  expect_same({binary(OpId::Add, r, u), r});
}

TEST(AccelExec, ReductionsMatchEagerBitForBit) {
  Tensor big = random_tensor(Dims(100003, 1), ClassId::Double, 6);
  NodeRef b = input(big);
  expect_same({reduce(ReduceKind::Sum, b, {0}), reduce(ReduceKind::Mean, unary(OpId::Exp, b), {0})});
  NodeRef bs = cast(b, ClassId::Single);
  expect_same({reduce(ReduceKind::Sum, bs, {0}), reduce(ReduceKind::Max, bs, {0})});
  NodeRef m = input(random_tensor(Dims(300, 200), ClassId::Double, 7));
  for (std::vector<int> dims : {std::vector<int>{0}, {1}, {0, 1}, {2}}) {
    expect_same({reduce(ReduceKind::Sum, m, dims), reduce(ReduceKind::Prod, m, dims),
                 reduce(ReduceKind::Mean, m, dims), reduce(ReduceKind::Min, m, dims, true),
                 reduce(ReduceKind::Max, m, dims, true),
                 reduce(ReduceKind::Any, binary(OpId::Gt, m, constant(1.9)), dims),
                 reduce(ReduceKind::All, binary(OpId::Gt, m, constant(-1.99)), dims)});
  }
}

TEST(AccelExec, ReductionsWithNaNAndClasses) {
  Tensor t = random_tensor(Dims(9, 300), ClassId::Double, 8);
  for (int64_t i = 0; i < t.numel(); i += 7) t.set_double(i, kNaN);
  t.set_double(3, 0.0);
  t.set_double(4, -0.0);
  NodeRef x = input(t);
  for (int d = 0; d < 2; ++d) {
    expect_same({reduce(ReduceKind::Sum, x, {d}, true), reduce(ReduceKind::Mean, x, {d}, true),
                 reduce(ReduceKind::Prod, x, {d}, true), reduce(ReduceKind::Sum, x, {d}),
                 reduce(ReduceKind::Max, x, {d}, false), reduce(ReduceKind::Min, x, {d}, true),
                 reduce(ReduceKind::Any, x, {d}), reduce(ReduceKind::All, x, {d})});
  }
  NodeRef i8 = input(fill(Dims(500, 3), ClassId::Int8, [](int64_t i) { return i % 120; }));
  NodeRef lg = input(fill(Dims(500, 3), ClassId::Logical, [](int64_t i) { return i % 3 == 0; }));
  expect_same({reduce(ReduceKind::Sum, i8, {0}), reduce(ReduceKind::Mean, i8, {0}),
               reduce(ReduceKind::Sum, i8, {0}, false, ReduceOut::Double),
               reduce(ReduceKind::Max, i8, {1}), reduce(ReduceKind::Sum, lg, {0}),
               reduce(ReduceKind::Max, lg, {0}), reduce(ReduceKind::Mean, i8, {0}, false, ReduceOut::Native)});
}

TEST(AccelExec, NonContiguousReducedDimsArePermutedLikeEager) {
  NodeRef x = input(random_tensor(Dims{6, 5, 40}, ClassId::Double, 9));
  NodeRef y = binary(OpId::Mul, x, x);
  expect_same({reduce(ReduceKind::Sum, y, {0, 2})});
  expect_same({reduce(ReduceKind::Max, y, {0, 2}, true)});
  expect_same({reduce(ReduceKind::Sum, y, {1})});
  expect_same({reduce(ReduceKind::Mean, y, {1, 2})});
}

TEST(AccelExec, EmptyArraysUseTheEagerEngine) {
  NodeRef x = input(Tensor::zeros(ClassId::Double, Dims(0, 3)));
  expect_same({unary(OpId::Exp, x), reduce(ReduceKind::Sum, x, {0})}, false);
  EXPECT_EQ(last_group().provider, "eager");
}

TEST(AccelExec, DumpHookPrintsThePlan) {
  mutable_options().dump_after = {"fuse_elementwise"};  // MATFUSE_DUMP=after:fuse_elementwise
  ::testing::internal::CaptureStderr();
  NodeRef x = input(random_tensor(Dims(10, 1), ClassId::Double, 10));
  std::vector<NodeRef> roots{unary(OpId::Exp, x)};
  Plan p = plan_fusion(roots);
  const std::string err = ::testing::internal::GetCapturedStderr();
  mutable_options().dump_after.clear();
  EXPECT_NE(err.find("--- plan after fuse_elementwise ---"), std::string::npos);
  EXPECT_NE(err.find("group 0 elementwise"), std::string::npos);
}

}  // namespace
TEST(AccelExec, FusedConjugateSymmetryTestAgreesWithTheHostLoop) {
  // Lanes along each dim of a 3-D complex array, symmetric by construction, then broken at one
  // element (a pair, the first element's or the middle element's imaginary part).
  std::mt19937 g(5);
  std::normal_distribution<double> u;
  for (int n : {1, 2, 3, 6, 7}) {
    for (int dim = 0; dim < 3; ++dim) {
      for (ClassId cls : {ClassId::Double, ClassId::Single}) {
        Dims d({3, 4, 2});
        d.set(dim, n);
        d.normalize();
        Tensor x = Tensor::uninit(cls, d, true);
        int64_t stride = 1, outer = 1;
        for (int k = 0; k < dim; ++k) stride *= d[k];
        for (int k = dim + 1; k < d.ndims(); ++k) outer *= d[k];
        for (int64_t q = 0; q < outer; ++q)
          for (int64_t p = 0; p < stride; ++p)
            for (int64_t k = 0; k <= n / 2; ++k) {
              const auto at = [&](int64_t j) { return p + stride * (j + n * q); };
              const bool self = k == 0 || 2 * k == n;
              const std::complex<double> v(u(g), self ? 0.0 : u(g));
              x.set_complex(at(k), v);
              if (!self) x.set_complex(at(n - k), std::conj(v));
            }
        SCOPED_TRACE("n " + std::to_string(n) + " dim " + std::to_string(dim));
        EXPECT_TRUE(fft_conj_symmetric(x, dim));
        EXPECT_TRUE(fft_conj_symmetric_graph(x, dim));
        for (int64_t k : {int64_t{0}, int64_t{n / 2}, int64_t{n - 1}}) {
          Tensor y = x;
          const int64_t i = stride * (k + n * (outer - 1));  // lane of the last outer block
          y.set_complex(i, y.get_complex(i) + std::complex<double>(0, 0.5));
          EXPECT_FALSE(fft_conj_symmetric(y, dim)) << k;
          EXPECT_EQ(fft_conj_symmetric_graph(y, dim), fft_conj_symmetric(y, dim)) << k;
        }
      }
    }
  }
}

}  // namespace matfuse::accel
