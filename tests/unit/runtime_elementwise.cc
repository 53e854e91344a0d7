// The broadcasting engine (runtime/elementwise.h) and the scalar op semantics (scalar_ops.h).
#include <gtest/gtest.h>

#include <cmath>
#include <initializer_list>
#include <limits>

#include "runtime/ops.h"
#include "runtime/elementwise.h"
#include "runtime/error.h"
#include "runtime/scalar_ops.h"

namespace matfuse {
namespace {

Tensor mk(const Dims& d, std::initializer_list<double> v, ClassId cls = ClassId::Double) {
  Tensor t = Tensor::uninit(cls, d);
  int64_t i = 0;
  for (double x : v) t.set_double(i++, x);
  return t;
}
Tensor row(std::initializer_list<double> v, ClassId cls = ClassId::Double) {
  return mk(Dims(1, static_cast<int64_t>(v.size())), v, cls);
}
Tensor sc(double v, ClassId cls = ClassId::Double) { return Tensor::scalar(v, cls); }

template <class F> std::string error_id(F&& f) {
  try {
    f();
  } catch (const MatlabError& e) {
    return e.identifier();
  }
  return "";
}

TEST(OpTable, NamesAndProperties) {
  EXPECT_EQ(op_name(OpId::Add), "plus");
  EXPECT_EQ(op_arity(OpId::Sqrt), 1);
  EXPECT_EQ(op_category(OpId::Lt), OpCategory::Compare);
  EXPECT_TRUE(op_has(OpId::Sqrt, kRealToComplex));
  EXPECT_FALSE(op_has(OpId::Sin, kIntOk));
  EXPECT_TRUE(op_returns_logical(OpId::IsNaN));
  EXPECT_EQ(op_from_name("atan2"), OpId::Atan2);
  EXPECT_FALSE(op_from_name("nosuch").has_value());
  EXPECT_EQ(op_identity(OpId::Mul), 1.0);
  EXPECT_TRUE(std::isinf(op_identity(OpId::Max)));
}

TEST(ScalarOps, MatlabRules) {
  EXPECT_EQ(scalar::Round::apply(2.5), 3.0);
  EXPECT_EQ(scalar::Round::apply(-2.5), -3.0);
  EXPECT_EQ(scalar::Fix::apply(-2.7), -2.0);
  EXPECT_EQ(scalar::Mod::apply(-1.0, 3.0), 2.0);
  EXPECT_EQ(scalar::Mod::apply(1.0, -3.0), -2.0);
  EXPECT_EQ(scalar::Mod::apply(5.0, 0.0), 5.0);
  EXPECT_EQ(scalar::Rem::apply(-1.0, 3.0), -1.0);
  EXPECT_TRUE(std::isnan(scalar::Rem::apply(5.0, 0.0)));
  const double nan = std::numeric_limits<double>::quiet_NaN();
  EXPECT_EQ(mf_max(nan, 2.0), 2.0);
  EXPECT_EQ(mf_max(1.0, nan), 1.0);
  EXPECT_EQ(mf_min(3.0, nan), 3.0);
  EXPECT_TRUE(std::isnan(mf_max(nan, nan)));
  EXPECT_EQ(scalar::Sign::apply(-0.5), -1.0);
  EXPECT_EQ((int_apply<scalar::Div>(int32_t(7), int32_t(2))), 4);
  EXPECT_EQ((int_apply<scalar::Div>(int32_t(-7), int32_t(2))), -4);
  EXPECT_EQ((int_apply<scalar::Add>(int8_t(100), int8_t(100))), 127);
  EXPECT_EQ((int_apply<scalar::Sub>(uint8_t(3), uint8_t(5))), 0);
  EXPECT_EQ((int_apply<scalar::Mul>(int64_t(3037000499), int64_t(3037000499))),
            int64_t(9223372030926249001LL));
  EXPECT_FALSE(scalar::Eq::apply(nan, nan));
  EXPECT_TRUE(scalar::Ne::apply(nan, nan));
}

TEST(Elementwise, SameShapeAndScalar) {
  Tensor r = apply_binary(OpId::Add, row({1, 2, 3}), row({10, 20, 30}));
  EXPECT_EQ(r.dims(), Dims(1, 3));
  EXPECT_EQ(r.get_double(2), 33);
  r = apply_binary(OpId::Mul, sc(2), row({1, 2, 3}));
  EXPECT_EQ(r.get_double(1), 4);
  r = apply_binary(OpId::Div, row({1, 2, 3}), sc(2));
  EXPECT_EQ(r.get_double(2), 1.5);
  r = apply_binary(OpId::LDiv, sc(2), row({4, 8}));  // 2 .\ [4 8] == [2 4]
  EXPECT_EQ(r.get_double(1), 4);
  r = apply_binary(OpId::Div, sc(1), sc(0));
  EXPECT_TRUE(std::isinf(r.get_double(0)));
}

TEST(Elementwise, Broadcasting) {
  // 3x1 .* 1x4 -> 3x4
  Tensor col = mk(Dims(3, 1), {1, 2, 3});
  Tensor r = apply_binary(OpId::Mul, col, row({1, 10, 100, 1000}));
  ASSERT_EQ(r.dims(), Dims(3, 4));
  EXPECT_EQ(r.get_double(0), 1);
  EXPECT_EQ(r.get_double(2), 3);
  EXPECT_EQ(r.get_double(3 * 2 + 1), 200);
  EXPECT_EQ(r.get_double(3 * 3 + 2), 3000);
  // N-d: 2x1x2 + 1x3 -> 2x3x2
  Tensor a = mk(Dims{2, 1, 2}, {1, 2, 3, 4});
  Tensor b = row({10, 20, 30});
  r = apply_binary(OpId::Add, a, b);
  ASSERT_EQ(r.dims(), (Dims{2, 3, 2}));
  // element (2,3,2) = a(2,1,2) + b(3) = 4 + 30; linear 1 + 2*2 + 6 = 11
  EXPECT_EQ(r.get_double(11), 34);
  EXPECT_EQ(r.get_double(6), 13);  // (1,1,2)
  // Empty broadcast: 0x3 + 1x3 -> 0x3
  r = apply_binary(OpId::Add, Tensor::zeros(ClassId::Double, Dims(0, 3)), row({1, 2, 3}));
  EXPECT_EQ(r.dims(), Dims(0, 3));
}

TEST(Elementwise, IncompatibleSizes) {
  EXPECT_EQ(error_id([] { apply_binary(OpId::Add, row({1, 2, 3}), row({1, 2})); }),
            "MATLAB:sizeDimensionsMustMatch");
  EXPECT_EQ(error_id([] { apply_binary(OpId::Lt, row({1, 2, 3}), row({1, 2})); }),
            "MATLAB:sizeDimensionsMustMatch");
}

TEST(Elementwise, IntegerClasses) {
  Tensor r = apply_binary(OpId::Add, sc(100, ClassId::Int8), sc(100, ClassId::Int8));
  EXPECT_EQ(r.cls(), ClassId::Int8);
  EXPECT_EQ(r.get_double(0), 127);
  r = apply_binary(OpId::Div, sc(7, ClassId::Int32), sc(2, ClassId::Int32));
  EXPECT_EQ(r.cls(), ClassId::Int32);
  EXPECT_EQ(r.get_double(0), 4);
  // int op double array is allowed and keeps the integer class (rounded).
  r = apply_binary(OpId::Add, row({1, 2}, ClassId::UInt8), row({0.5, -5}));
  EXPECT_EQ(r.cls(), ClassId::UInt8);
  EXPECT_EQ(r.get_double(0), 2);
  EXPECT_EQ(r.get_double(1), 0);
  r = apply_binary(OpId::Mul, sc(3, ClassId::Int16), sc(1.5, ClassId::Single));
  EXPECT_EQ(r.cls(), ClassId::Int16);
  EXPECT_EQ(r.get_double(0), 5);  // 4.5 rounds away from zero
  EXPECT_EQ(error_id([] { apply_binary(OpId::Add, sc(1, ClassId::Int8), sc(1, ClassId::Int16)); }),
            "MATLAB:mixedIntegerTypes");
  // int64 stays exact beyond 2^53.
  Tensor big = Tensor::uninit(ClassId::Int64, Dims(1, 1));
  big.mutable_data<int64_t>()[0] = (int64_t(1) << 53) + 1;
  r = apply_binary(OpId::Add, big, sc(2));
  EXPECT_EQ(r.data<int64_t>()[0], (int64_t(1) << 53) + 3);
  r = apply_unary(OpId::Neg, sc(-128, ClassId::Int8));
  EXPECT_EQ(r.get_double(0), 127);
  r = apply_unary(OpId::Abs, sc(-128, ClassId::Int8));
  EXPECT_EQ(r.get_double(0), 127);
  r = apply_binary(OpId::Pow, sc(2, ClassId::Int8), sc(7));
  EXPECT_EQ(r.get_double(0), 127);
  r = apply_binary(OpId::Mod, sc(-1, ClassId::Int8), sc(3, ClassId::Int8));
  EXPECT_EQ(r.get_double(0), 2);
  r = apply_binary(OpId::Div, sc(5, ClassId::Int8), sc(0, ClassId::Int8));
  EXPECT_EQ(r.get_double(0), 127);
  EXPECT_EQ(error_id([] { apply_unary(OpId::Sin, sc(1, ClassId::Int8)); }), "MATLAB:UndefinedFunction");
}

TEST(Elementwise, CharLogicalSingle) {
  Tensor r = apply_binary(OpId::Add, Tensor::from_string("a"), sc(1));
  EXPECT_EQ(r.cls(), ClassId::Double);
  EXPECT_EQ(r.get_double(0), 98);
  r = apply_binary(OpId::Add, Tensor::logical_scalar(true), Tensor::logical_scalar(true));
  EXPECT_EQ(r.cls(), ClassId::Double);
  EXPECT_EQ(r.get_double(0), 2);
  r = apply_binary(OpId::Mul, sc(2, ClassId::Single), row({1, 2}));
  EXPECT_EQ(r.cls(), ClassId::Single);
  r = apply_unary(OpId::Neg, Tensor::logical_scalar(true));
  EXPECT_EQ(r.cls(), ClassId::Double);
  EXPECT_EQ(r.get_double(0), -1);
  r = apply_unary(OpId::Sqrt, sc(4, ClassId::Single));
  EXPECT_EQ(r.cls(), ClassId::Single);
  EXPECT_EQ(r.get_double(0), 2);
}

TEST(Elementwise, Comparisons) {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  Tensor r = apply_binary(OpId::Eq, row({1, nan, 3}), row({1, nan, 4}));
  EXPECT_EQ(r.cls(), ClassId::Logical);
  EXPECT_TRUE(r.data<bool>()[0]);
  EXPECT_FALSE(r.data<bool>()[1]);
  EXPECT_FALSE(r.data<bool>()[2]);
  r = apply_binary(OpId::Ne, sc(nan), sc(nan));
  EXPECT_TRUE(r.data<bool>()[0]);
  r = apply_binary(OpId::Lt, sc(nan), sc(1));
  EXPECT_FALSE(r.data<bool>()[0]);
  // Mixed integer classes may be compared.
  r = apply_binary(OpId::Lt, sc(1, ClassId::Int8), sc(2, ClassId::Int16));
  EXPECT_TRUE(r.data<bool>()[0]);
  // Complex: ordering uses real parts, == uses both.
  Tensor z = Tensor::complex_scalar({1, 5});
  EXPECT_FALSE(apply_binary(OpId::Lt, z, sc(1)).data<bool>()[0]);
  EXPECT_TRUE(apply_binary(OpId::Le, z, sc(1)).data<bool>()[0]);
  EXPECT_FALSE(apply_binary(OpId::Eq, z, sc(1)).data<bool>()[0]);
}

TEST(Elementwise, LogicalOps) {
  Tensor r = apply_binary(OpId::And, row({1, 0, 2}), sc(1));
  EXPECT_EQ(r.cls(), ClassId::Logical);
  EXPECT_TRUE(r.data<bool>()[0]);
  EXPECT_FALSE(r.data<bool>()[1]);
  r = apply_binary(OpId::Xor, row({1, 0}), row({1, 1}));
  EXPECT_FALSE(r.data<bool>()[0]);
  EXPECT_TRUE(r.data<bool>()[1]);
  r = apply_unary(OpId::Not, row({0, 3}));
  EXPECT_TRUE(r.data<bool>()[0]);
  EXPECT_FALSE(r.data<bool>()[1]);
  EXPECT_EQ(error_id([] { apply_binary(OpId::Or, sc(std::nan("")), sc(1)); }), "MATLAB:nologicalnan");
}

TEST(Elementwise, ComplexResults) {
  Tensor r = apply_unary(OpId::Sqrt, sc(-4));
  ASSERT_TRUE(r.is_complex());
  EXPECT_NEAR(r.get_complex(0).real(), 0, 1e-15);
  EXPECT_EQ(r.get_complex(0).imag(), 2);
  r = apply_unary(OpId::Sqrt, row({-4, 4}));
  ASSERT_TRUE(r.is_complex());
  EXPECT_EQ(r.get_complex(1), std::complex<double>(2, 0));
  r = apply_unary(OpId::Sqrt, row({1, 4}));
  EXPECT_FALSE(r.is_complex());
  r = apply_unary(OpId::Log, sc(-1));
  ASSERT_TRUE(r.is_complex());
  EXPECT_NEAR(r.get_complex(0).imag(), M_PI, 1e-15);
  EXPECT_EQ(apply_unary(OpId::Log, sc(0)).get_double(0), -INFINITY);
  r = apply_binary(OpId::Pow, sc(-8), sc(1.0 / 3));
  ASSERT_TRUE(r.is_complex());
  EXPECT_NEAR(r.get_complex(0).real(), 1.0, 1e-12);
  EXPECT_NEAR(r.get_complex(0).imag(), std::sqrt(3.0), 1e-12);
  EXPECT_FALSE(apply_binary(OpId::Pow, sc(-2), sc(3)).is_complex());
  // MATLAB's branch side: asin(2) = pi/2 - 1.3170i, acos(2) = 0 + 1.3170i.
  r = apply_unary(OpId::Asin, sc(2));
  EXPECT_NEAR(r.get_complex(0).real(), M_PI / 2, 1e-12);
  EXPECT_NEAR(r.get_complex(0).imag(), -1.3169578969248166, 1e-12);
  r = apply_unary(OpId::Acos, sc(2));
  EXPECT_NEAR(r.get_complex(0).imag(), 1.3169578969248166, 1e-12);
  r = apply_unary(OpId::Acos, sc(-2));
  EXPECT_NEAR(r.get_complex(0).imag(), -1.3169578969248166, 1e-12);
  r = apply_unary(OpId::Atanh, sc(2));
  EXPECT_NEAR(r.get_complex(0).imag(), M_PI / 2, 1e-12);
  // Complex arithmetic drops all-zero imaginary parts; (1i)^2 is exactly -1.
  Tensor i1 = Tensor::complex_scalar({0, 1});
  r = apply_binary(OpId::Pow, i1, sc(2));
  EXPECT_FALSE(r.is_complex());
  EXPECT_EQ(r.get_double(0), -1);
  r = apply_binary(OpId::Mul, Tensor::complex_scalar({1, 2}), Tensor::complex_scalar({1, -2}));
  EXPECT_FALSE(r.is_complex());
  EXPECT_EQ(r.get_double(0), 5);
  r = apply_unary(OpId::Abs, Tensor::complex_scalar({3, 4}));
  EXPECT_FALSE(r.is_complex());
  EXPECT_EQ(r.get_double(0), 5);
  EXPECT_EQ(error_id([] { apply_binary(OpId::Mod, Tensor::complex_scalar({1, 1}), sc(2)); }),
            "MATLAB:realInputsRequired");
}

TEST(Elementwise, MathAndRounding) {
  Tensor r = apply_binary(OpId::Mod, row({-4, -1, 7, 9}), sc(3));
  EXPECT_EQ(r.get_double(0), 2);
  EXPECT_EQ(r.get_double(1), 2);
  EXPECT_EQ(r.get_double(2), 1);
  EXPECT_EQ(r.get_double(3), 0);
  r = apply_binary(OpId::Mod, row({-4, -1, 7, 9}), sc(-3));
  EXPECT_EQ(r.get_double(0), -1);
  EXPECT_EQ(r.get_double(2), -2);
  r = apply_binary(OpId::Rem, row({-4, 7}), sc(3));
  EXPECT_EQ(r.get_double(0), -1);
  EXPECT_EQ(r.get_double(1), 1);
  r = apply_unary(OpId::Round, row({-2.5, 2.5, 0.4}));
  EXPECT_EQ(r.get_double(0), -3);
  EXPECT_EQ(r.get_double(1), 3);
  EXPECT_EQ(r.get_double(2), 0);
  r = apply_binary(OpId::Atan2, sc(1), sc(-1));
  EXPECT_DOUBLE_EQ(r.get_double(0), 3 * M_PI / 4);
  r = apply_binary(OpId::Hypot, sc(3), sc(4));
  EXPECT_EQ(r.get_double(0), 5);
  r = apply_binary(OpId::Max, row({1, std::nan(""), 5}), sc(3));
  EXPECT_EQ(r.get_double(1), 3);
  EXPECT_EQ(r.get_double(2), 5);
  r = apply_unary(OpId::IsNaN, row({1, std::nan("")}));
  EXPECT_EQ(r.cls(), ClassId::Logical);
  EXPECT_TRUE(r.data<bool>()[1]);
  r = apply_unary(OpId::IsFinite, sc(3, ClassId::Int8));
  EXPECT_TRUE(r.data<bool>()[0]);
  r = apply_unary(OpId::Floor, sc(7, ClassId::UInt16));
  EXPECT_EQ(r.cls(), ClassId::UInt16);
  r = apply_unary(OpId::Sign, row({-3, 0, 2}));
  EXPECT_EQ(r.get_double(0), -1);
  EXPECT_EQ(r.get_double(1), 0);
  r = apply_unary(OpId::Angle, sc(-1));
  EXPECT_DOUBLE_EQ(r.get_double(0), M_PI);
}

}  // namespace
}  // namespace matfuse
