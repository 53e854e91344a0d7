// Operators on Values (builtins/operators.h), the colon operator, and the elementwise builtins.
#include <gtest/gtest.h>

#include <cmath>

#include "builtins/operators.h"
#include "builtins/registry.h"
#include "builtins_fake_ctx.h"

namespace matfuse {
namespace {

using testing::error_id;
using testing::FakeCtx;
using testing::row;
using B = ast::BinOp;

Value int8v(double v) { return Value(Tensor::scalar(v, ClassId::Int8)); }

TEST(Operators, ScalarFastPath) {
  Value r = binary_op(B::Add, Value(1.5), Value(2.0));
  ASSERT_TRUE(r.is_scalar_double());
  EXPECT_EQ(r.scalar(), 3.5);
  EXPECT_EQ(binary_op(B::Div, Value(1.0), Value(4.0)).scalar(), 0.25);
  EXPECT_EQ(binary_op(B::LDiv, Value(4.0), Value(1.0)).scalar(), 0.25);
  EXPECT_EQ(binary_op(B::Pow, Value(2.0), Value(10.0)).scalar(), 1024);
  Value c = binary_op(B::Lt, Value(1.0), Value(2.0));
  EXPECT_EQ(c.class_name(), "logical");
  EXPECT_TRUE(c.truthy());
  EXPECT_FALSE(binary_op(B::Eq, Value(NAN), Value(NAN)).truthy());
  // Negative base with a fractional exponent leaves the fast path and goes complex.
  Value z = binary_op(B::Pow, Value(-8.0), Value(1.0 / 3));
  EXPECT_TRUE(z.tensor().is_complex());
  EXPECT_EQ(error_id([] { binary_op(B::And, Value(NAN), Value(1.0)); }), "MATLAB:nologicalnan");
  EXPECT_EQ(unary_op(ast::UnOp::Neg, Value(2.0)).scalar(), -2);
  EXPECT_EQ(unary_op(ast::UnOp::Not, Value(0.0)).class_name(), "logical");
}

TEST(Operators, ArraysAndClasses) {
  Value col(Tensor::uninit(ClassId::Double, Dims(3, 1)));
  Value r = binary_op(B::EMul, Value(row({1, 2, 3})).tensor().reshaped(Dims(3, 1)), row({1, 10, 100, 1000}));
  EXPECT_EQ(r.dims(), Dims(3, 4));
  EXPECT_EQ(r.tensor().get_double(11), 3000);
  r = binary_op(B::Mul, Value(2.0), row({1, 2}));  // scalar * array is elementwise
  EXPECT_EQ(r.tensor().get_double(1), 4);
  r = binary_op(B::Div, row({2, 4}), Value(2.0));
  EXPECT_EQ(r.tensor().get_double(1), 2);
  r = binary_op(B::Add, int8v(100), int8v(100));
  EXPECT_EQ(r.class_name(), "int8");
  EXPECT_EQ(r.tensor().get_double(0), 127);
  EXPECT_EQ(error_id([] { binary_op(B::Add, int8v(1), Value(Tensor::scalar(1, ClassId::UInt8))); }),
            "MATLAB:mixedIntegerTypes");
  EXPECT_EQ(error_id([] { binary_op(B::Add, row({1, 2, 3}), row({1, 2})); }),
            "MATLAB:sizeDimensionsMustMatch");
  EXPECT_EQ(error_id([] { binary_op(B::Add, Value(CellArray(Dims(1, 1))), Value(1.0)); }),
            "MATLAB:UndefinedFunction");
  r = binary_op(B::Add, Value::from_chars("ab"), Value(1.0));
  EXPECT_EQ(r.class_name(), "double");
  EXPECT_EQ(r.tensor().get_double(1), 99);
}

TEST(Operators, ShortCircuitAndStrings) {
  EXPECT_TRUE(binary_op(B::OrOr, Value(1.0), Value(0.0)).truthy());
  EXPECT_EQ(error_id([] { binary_op(B::AndAnd, row({1, 1}), Value(1.0)); }), "MATLAB:nonLogicalConditional");
  Value s = Value::from_string("abc");
  EXPECT_TRUE(binary_op(B::Eq, s, Value::from_chars("abc")).truthy());
  EXPECT_TRUE(binary_op(B::Ne, s, Value::from_string("abd")).truthy());
  Value cat = binary_op(B::Add, s, Value::from_string("de"));
  ASSERT_TRUE(cat.is_string());
  EXPECT_EQ(*cat.string_array()[0], "abcde");
}

TEST(Operators, Transpose) {
  EXPECT_EQ(transpose_op(Value(3.0), true).scalar(), 3);
}

TEST(Colon, Ranges) {
  Value r = colon_op(Value(1.0), nullptr, Value(5.0));
  EXPECT_EQ(r.dims(), Dims(1, 5));
  EXPECT_EQ(r.tensor().get_double(4), 5);
  Value s(0.1);
  r = colon_op(Value(0.0), &s, Value(1.0));
  EXPECT_EQ(r.dims(), Dims(1, 11));
  EXPECT_EQ(r.tensor().get_double(10), 1.0);
  r = colon_op(Value(5.0), nullptr, Value(1.0));
  EXPECT_EQ(r.dims(), Dims(1, 0));
  EXPECT_EQ(r.class_name(), "double");
  Value m1(-1.0);
  r = colon_op(Value(3.0), &m1, Value(1.0));
  EXPECT_EQ(r.dims(), Dims(1, 3));
  EXPECT_EQ(r.tensor().get_double(2), 1);
  Value z(0.0);
  EXPECT_EQ(colon_op(Value(1.0), &z, Value(3.0)).dims(), Dims(1, 0));
  r = colon_op(Value(1.0), nullptr, Value(3.7));
  EXPECT_EQ(r.dims(), Dims(1, 3));
  Value half(0.5);
  r = colon_op(Value(1.0), &half, Value(2.6));
  EXPECT_EQ(r.dims(), Dims(1, 4));
  EXPECT_EQ(r.tensor().get_double(3), 2.5);
  r = colon_op(int8v(1), nullptr, int8v(3));
  EXPECT_EQ(r.class_name(), "int8");
  EXPECT_EQ(r.dims(), Dims(1, 3));
  r = colon_op(Value(Tensor::scalar(0, ClassId::Single)), &s, Value(1.0));
  EXPECT_EQ(r.class_name(), "single");
  EXPECT_EQ(r.numel(), 11);
  r = colon_op(Value::from_chars("a"), nullptr, Value::from_chars("e"));
  EXPECT_EQ(r.class_name(), "char");
  EXPECT_EQ(r.tensor().to_utf8(), "abcde");
  r = colon_op(Value(Tensor()), nullptr, Value(3.0));
  EXPECT_EQ(r.dims(), Dims(1, 0));
  EXPECT_EQ(colon_op(Value(1.0), nullptr, Value(NAN)).numel(), 1);
  // Counts that need the tolerance.
  struct Case { double a, s, b; int64_t n; };
  for (Case c : {Case{1, -0.1, 0, 11}, Case{-1, -0.1, -2, 11}, Case{0, 0.01, 1, 101},
                 Case{1, 0.2, 2, 6}, Case{0, M_PI / 4, 2 * M_PI, 9}, Case{0, 0.1, 0.35, 4}}) {
    Value st(c.s);
    Value v = colon_op(Value(c.a), &st, Value(c.b));
    EXPECT_EQ(v.numel(), c.n) << c.a << ":" << c.s << ":" << c.b;
    EXPECT_DOUBLE_EQ(v.tensor().get_double(0), c.a);
  }
  Value two(2.0);
  r = colon_op(int8v(-5), &two, int8v(5));
  EXPECT_EQ(r.numel(), 6);
  EXPECT_EQ(r.tensor().get_double(5), 5);
  EXPECT_EQ(error_id([] { colon_op(int8v(1), nullptr, Value(Tensor::scalar(3, ClassId::Int16))); }),
            "MATLAB:colon:mixedIntegerTypes");
}

TEST(ElementwiseBuiltins, Registered) {
  FakeCtx ctx;
  EXPECT_EQ(ctx.run1("plus", {Value(1.0), Value(2.0)}).scalar(), 3);
  EXPECT_EQ(ctx.run1("mod", {Value(-1.0), Value(3.0)}).scalar(), 2);
  EXPECT_EQ(ctx.run1("rem", {Value(-1.0), Value(3.0)}).scalar(), -1);
  EXPECT_EQ(ctx.run1("abs", {Value(-2.0)}).scalar(), 2);
  EXPECT_EQ(ctx.run1("hypot", {Value(3.0), Value(4.0)}).scalar(), 5);
  EXPECT_EQ(ctx.run1("isnan", {Value(NAN)}).class_name(), "logical");
  EXPECT_TRUE(ctx.run1("sqrt", {Value(-4.0)}).tensor().is_complex());
  EXPECT_EQ(ctx.run1("sqrt", {Value(4.0)}).scalar(), 2);
  Value c = ctx.run1("complex", {Value(1.0), Value(0.0)});
  EXPECT_TRUE(c.tensor().is_complex());
  EXPECT_EQ(ctx.run1("imag", {c}).scalar(), 0);
  EXPECT_EQ(ctx.run1("round", {Value(3.14159), Value(2.0)}).scalar(), 3.14);
  EXPECT_EQ(ctx.run1("round", {Value(1234.0), Value(-2.0)}).scalar(), 1200);
  EXPECT_EQ(ctx.run1("round", {Value(-2.5)}).scalar(), -3);
  EXPECT_EQ(error_id([&] { ctx.run1("sin", {Value(CellArray(Dims(1, 1)))}); }), "MATLAB:UndefinedFunction");
  EXPECT_EQ(error_id([&] { ctx.run1("sin", {}); }), "MATLAB:minrhs");

  // Scalar fast paths agree with the full functions, and exist only where results stay real.
  const Builtin* sinb = builtins().find("sin");
  ASSERT_NE(sinb, nullptr);
  ASSERT_NE(sinb->scalar1, nullptr);
  EXPECT_EQ(sinb->scalar1(0.5), std::sin(0.5));
  EXPECT_EQ(builtins().find("sqrt")->scalar1, nullptr);
  EXPECT_EQ(builtins().find("log")->scalar1, nullptr);
  EXPECT_EQ(builtins().find("power")->scalar2, nullptr);
  EXPECT_EQ(builtins().find("eq")->scalar2, nullptr);
  ASSERT_NE(builtins().find("mod")->scalar2, nullptr);
  EXPECT_EQ(builtins().find("mod")->scalar2(5.0, 0.0), 5);
  ASSERT_NE(builtins().find("atan2")->scalar2, nullptr);
}

}  // namespace
}  // namespace matfuse
