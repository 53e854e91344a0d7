// Acceleration graph: interning, shape/class inference, creation errors.
#include <gtest/gtest.h>

#include <cmath>

#include "accel/capture/graph.h"
#include "accel/capture/lazy.h"
#include "runtime_accel_util.h"

namespace matfuse::accel {
namespace {

using testing::error_id;
using testing::make;

TEST(AccelGraph, StructurallyEqualNodesAreOneObject) {
  Tensor t = make(Dims(3, 1), {1, 2, 3});
  NodeRef x = input(t);
  NodeRef a = binary(OpId::Add, unary(OpId::Sin, x), constant(1));
  NodeRef b = binary(OpId::Add, unary(OpId::Sin, input(t)), constant(1));
  EXPECT_EQ(a.get(), b.get());
  EXPECT_EQ(a->hash, b->hash);
  // A different tensor with equal values is a different input.
  NodeRef y = input(make(Dims(3, 1), {1, 2, 3}));
  EXPECT_NE(x.get(), y.get());
  // Constants differ by value, class and bits (0 vs -0).
  EXPECT_NE(constant(0.0).get(), constant(-0.0).get());
  EXPECT_NE(constant(1.0).get(), constant(1.0, ClassId::Single).get());
}

TEST(AccelGraph, ParamValuesAreIdentityButNotShape) {
  NodeRef p1 = param(3, ParamRole::LoopIndex), p2 = param(4, ParamRole::LoopIndex);
  EXPECT_NE(p1.get(), p2.get());
  EXPECT_EQ(p1->shape_hash, p2->shape_hash);
  EXPECT_EQ(p1.get(), param(3, ParamRole::LoopIndex).get());
  NodeRef r1 = rand(Dims(10, 1), ClassId::Double, 7, 100);
  NodeRef r2 = rand(Dims(10, 1), ClassId::Double, 7, 200);
  EXPECT_NE(r1.get(), r2.get());
  EXPECT_EQ(r1->shape_hash, r2->shape_hash);
}

TEST(AccelGraph, ExpiredNodesLeaveTheTable) {
  const size_t before = interned_node_count();
  {
    NodeRef x = input(make(Dims(2, 2), {1, 2, 3, 4}));
    NodeRef y = unary(OpId::Exp, binary(OpId::Mul, x, x));
    EXPECT_GE(interned_node_count(), before + 3);
  }
  EXPECT_EQ(interned_node_count(), before);
}

TEST(AccelGraph, ShapeAndClassInference) {
  NodeRef col = input(make(Dims(3, 1), {1, 2, 3}, ClassId::Single));
  NodeRef row = input(make(Dims(1, 4), {1, 2, 3, 4}));
  NodeRef s = binary(OpId::Mul, col, row);
  EXPECT_EQ(s->dims, Dims(3, 4));
  EXPECT_EQ(s->cls, ClassId::Single);
  EXPECT_EQ(binary(OpId::Lt, col, row)->cls, ClassId::Logical);
  NodeRef i8 = input(make(Dims(3, 1), {1, 2, 3}, ClassId::Int8));
  EXPECT_EQ(binary(OpId::Add, i8, constant(2.5))->cls, ClassId::Int8);
  EXPECT_EQ(unary(OpId::Abs, input(make(Dims(1, 2), {1, 0}, ClassId::Logical)))->cls,
            ClassId::Double);
  NodeRef m = reduce(ReduceKind::Mean, s, {0});
  EXPECT_EQ(m->dims, Dims(1, 4));
  EXPECT_EQ(m->cls, ClassId::Single);
  EXPECT_EQ(reduce(ReduceKind::Sum, i8, {0})->cls, ClassId::Double);  // MATLAB: integer sums default to double
  EXPECT_EQ(reduce(ReduceKind::Sum, i8, {0}, false, ReduceOut::Native)->cls, ClassId::Int8);
  EXPECT_EQ(reduce(ReduceKind::Mean, i8, {0})->cls, ClassId::Double);
  EXPECT_EQ(reduce(ReduceKind::Any, s, {0, 1})->dims, Dims(1, 1));
  EXPECT_EQ(reduce(ReduceKind::Sum, s, {5})->dims, Dims(3, 4));
  EXPECT_EQ(matmul(input(make(Dims(2, 3), {1, 2, 3, 4, 5, 6})), input(make(Dims(3, 1), {1, 1, 1})))
                ->dims,
            Dims(2, 1));
  EXPECT_EQ(transpose(row)->dims, Dims(4, 1));
  EXPECT_EQ(eye(3, 5)->dims, Dims(3, 5));
  EXPECT_EQ(linspace(0, 1, 7, ClassId::Single)->cls, ClassId::Single);
}

TEST(AccelGraph, CreationRaisesTheEagerErrors) {
  NodeRef a = input(make(Dims(3, 1), {1, 2, 3}));
  NodeRef b = input(make(Dims(4, 1), {1, 2, 3, 4}));
  EXPECT_EQ(error_id([&] { binary(OpId::Add, a, b); }), "MATLAB:sizeDimensionsMustMatch");
  NodeRef i8 = input(make(Dims(3, 1), {1, 2, 3}, ClassId::Int8));
  NodeRef i16 = input(make(Dims(3, 1), {1, 2, 3}, ClassId::Int16));
  EXPECT_EQ(error_id([&] { binary(OpId::Add, i8, i16); }), "MATLAB:mixedIntegerTypes");
  EXPECT_EQ(error_id([&] { unary(OpId::Sin, i8); }), "MATLAB:UndefinedFunction");
  EXPECT_EQ(error_id([&] { reduce(ReduceKind::Sum, a, {0, 0}); }),
            "MATLAB:getdimarg:vecdimsMustBeUniquePositiveIntegers");
  EXPECT_EQ(error_id([&] { matmul(a, b); }), "MATLAB:innerdim");
  NodeRef x = input(make(Dims(2, 3), {1, 2, 3, 4, 5, 6}));
  EXPECT_EQ(error_id([&] { slice(x, {constant(1), param(4)}, {1, 1}, {2, 1}); }),
            "MATLAB:badsubscript");
  EXPECT_EQ(slice(x, {constant(1), param(3)}, {1, 1}, {2, 1})->dims, Dims(2, 1));
}

TEST(AccelGraph, TopoOrderPutsProducersFirst) {
  NodeRef x = input(make(Dims(2, 1), {1, 2}));
  NodeRef y = unary(OpId::Exp, x);
  NodeRef z = binary(OpId::Add, y, x);
  NodeRef roots[] = {z};
  auto order = topo_order(roots);
  ASSERT_EQ(order.size(), 3u);
  EXPECT_EQ(order[0], x.get());
  EXPECT_EQ(order[1], y.get());
  EXPECT_EQ(order[2], z.get());
  EXPECT_NE(dump_graph(roots).find("exp"), std::string::npos);
}

// Forcing stores the value beside the node: the interned node keeps its kind, inputs and hash,
// an equal structure still finds it, and the lazy value now reads an Input of the value.
TEST(AccelGraph, ForcingNeverRewritesAnInternedNode) {
  Tensor t = make(Dims(3, 1), {0, 1, 2});
  NodeRef x = input(t);
  NodeRef y = unary(OpId::Exp, x);
  const size_t hash = y->hash;
  Tensor lazy = make_lazy(y);
  Tensor copy = lazy;  // shares the pending value
  ASSERT_TRUE(lazy.is_lazy());
  EXPECT_DOUBLE_EQ(lazy.get_double(1), std::exp(1.0));  // forces
  EXPECT_EQ(y->kind, NodeKind::Elementwise);
  EXPECT_EQ(y->category, Category::Elementwise);
  ASSERT_EQ(y->inputs.size(), 1u);
  EXPECT_EQ(y->inputs[0].get(), x.get());
  EXPECT_EQ(y->hash, hash);
  EXPECT_EQ(unary(OpId::Exp, x).get(), y.get());  // the table still finds it
  ASSERT_TRUE(y->forced.has());
  EXPECT_DOUBLE_EQ(y->value_tensor().get_double(2), std::exp(2.0));
  // The other copy of the pending value reads an Input of the stored value.
  ASSERT_TRUE(copy.is_lazy());
  EXPECT_EQ(copy.node()->kind, NodeKind::Input);
  EXPECT_EQ(copy.node()->tensor.storage().get(), y->value_tensor().storage().get());
  // A graph built on the forced node is evaluated on the stored value.
  NodeRef z = binary(OpId::Add, y, constant(1));
  Tensor lz = make_lazy(z);
  EXPECT_DOUBLE_EQ(lz.get_double(0), 2.0);
}

}  // namespace
}  // namespace matfuse::accel
