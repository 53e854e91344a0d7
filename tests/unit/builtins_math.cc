// Tests of the math family (math_special.cc, math_trig.cc, math_number.cc): documented forms,
// classes, sizes, values against MATLAB/Octave-known results and error identifiers.
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "builtins/registry.h"
#include "builtins_fake_ctx.h"

namespace matfuse {
namespace {

using testing::error_id;
using testing::FakeCtx;
using testing::row;
using testing::str;

std::vector<double> vals(const Value& v) {
  const Tensor t = v.tensor();
  std::vector<double> r;
  for (int64_t i = 0; i < t.numel(); ++i) r.push_back(t.get_double(i));
  return r;
}
Value typed(double v, ClassId c) { return Value(Tensor::scalar(v, c)); }
Value mat(int64_t m, int64_t n, std::vector<double> v) {
  Tensor t = Tensor::uninit(ClassId::Double, Dims(m, n));
  for (size_t i = 0; i < v.size(); ++i) t.set_double(static_cast<int64_t>(i), v[i]);
  return Value(t);
}

TEST(MathSpecial, GammaFamily) {
  FakeCtx c;
  EXPECT_DOUBLE_EQ(c.run1("gamma", {5.0}).scalar(), 24.0);
  EXPECT_DOUBLE_EQ(c.run1("gamma", {0.5}).scalar(), std::sqrt(M_PI));
  EXPECT_EQ(vals(c.run1("gamma", {row({0, -1, -2})})), (std::vector<double>{INFINITY, INFINITY, INFINITY}));
  EXPECT_NEAR(c.run1("gammaln", {10.0}).scalar(), 12.801827480081469, 1e-13);
  EXPECT_EQ(c.run1("gamma", {typed(3, ClassId::Single)}).class_name(), "single");
  EXPECT_EQ(error_id([&] { c.run1("gamma", {typed(3, ClassId::Int8)}); }), "MATLAB:UndefinedFunction");
  EXPECT_EQ(error_id([&] { c.run1("gamma", {Value(Tensor::complex_scalar({1, 1}))}); }),
            "MATLAB:gamma:notFullReal");
  EXPECT_EQ(error_id([&] { c.run1("gamma", {testing::cellrow({1.0})}); }), "MATLAB:UndefinedFunction");
  // The scalar fast path agrees with the full function.
  const Builtin* g = builtins().find("gamma");
  ASSERT_NE(g->scalar1, nullptr);
  EXPECT_EQ(g->scalar1(-3.0), INFINITY);
}

TEST(MathSpecial, ErfAndInverses) {
  FakeCtx c;
  EXPECT_NEAR(c.run1("erf", {0.3}).scalar(), 0.32862675945912739, 1e-16);
  EXPECT_NEAR(c.run1("erfc", {2.0}).scalar(), 0.0046777349810472658, 1e-18);
  EXPECT_NEAR(c.run1("erfinv", {0.5}).scalar(), 0.47693627620446988, 1e-15);
  EXPECT_EQ(vals(c.run1("erfinv", {row({1, -1, 0, 2})}))[0], INFINITY);
  EXPECT_EQ(vals(c.run1("erfinv", {row({1, -1, 0, 2})}))[1], -INFINITY);
  EXPECT_TRUE(std::isnan(vals(c.run1("erfinv", {row({2})}))[0]));
  EXPECT_EQ(c.run1("erfcinv", {1.0}).scalar(), 0.0);
  EXPECT_EQ(c.run1("erfcinv", {0.0}).scalar(), INFINITY);
  EXPECT_EQ(c.run1("erfcinv", {2.0}).scalar(), -INFINITY);
  // Round trips across the domain, including the tails where 1 - x loses digits.
  for (double x : {-0.999999, -0.7, -0.2, 1e-5, 0.3, 0.6, 0.9, 0.999, 0.999999}) {
    const double y = c.run1("erfinv", {x}).scalar();
    EXPECT_NEAR(std::erf(y), x, 4e-16) << x;
    if (x > 0.5) EXPECT_NEAR(std::erfc(y) / (1 - x), 1.0, 1e-13) << x;
  }
  for (double q : {1e-300, 1e-100, 1e-10, 0.01, 0.3, 1.2, 1.9}) {
    const double y = c.run1("erfcinv", {q}).scalar();
    EXPECT_NEAR(std::erfc(y) / q, 1.0, 1e-13) << q;
  }
  EXPECT_EQ(c.run1("erfinv", {typed(0.5, ClassId::Single)}).class_name(), "single");
}

TEST(MathSpecial, RootsAndRealFunctions) {
  FakeCtx c;
  EXPECT_EQ(c.run1("nthroot", {-27.0, 3.0}).scalar(), -3.0);
  EXPECT_EQ(c.run1("nthroot", {16.0, 4.0}).scalar(), 2.0);
  Value r = c.run1("nthroot", {mat(2, 1, {8, 81}), row({3, 4})});  // implicit expansion
  EXPECT_EQ(r.dims(), Dims(2, 2));
  const std::vector<double> rv = vals(r), want{2, 4.3267487109222245, 1.6817928305074290, 3};
  EXPECT_EQ(rv[0], 2.0);
  EXPECT_EQ(rv[3], 3.0);
  for (int i = 1; i < 3; ++i) EXPECT_NEAR(rv[i], want[i], 1e-15);
  EXPECT_EQ(c.run1("nthroot", {typed(8, ClassId::Single), 3.0}).class_name(), "single");
  EXPECT_EQ(error_id([&] { c.run1("nthroot", {-8.0, 2.0}); }), "MATLAB:nthroot:NegXNotOddIntegerN");
  EXPECT_EQ(error_id([&] { c.run1("nthroot", {Value(Tensor::complex_scalar({1, 1})), 2.0}); }),
            "MATLAB:nthroot:ComplexInput");
  EXPECT_EQ(c.run1("cbrt", {-8.0}).scalar(), -2.0);
  EXPECT_EQ(c.run1("realsqrt", {16.0}).scalar(), 4.0);
  EXPECT_EQ(error_id([&] { c.run1("realsqrt", {row({1, -1})}); }), "MATLAB:realsqrt:complexResult");
  EXPECT_EQ(error_id([&] { c.run1("reallog", {-1.0}); }), "MATLAB:reallog:complexResult");
  EXPECT_EQ(c.run1("reallog", {1.0}).scalar(), 0.0);
  EXPECT_EQ(c.run1("realpow", {2.0, 10.0}).scalar(), 1024.0);
  EXPECT_EQ(error_id([&] { c.run1("realpow", {-8.0, 1.0 / 3}); }), "MATLAB:realpow:complexResult");
  EXPECT_EQ(c.run1("pow2", {10.0}).scalar(), 1024.0);
  EXPECT_EQ(c.run1("pow2", {3.0, 2.0}).scalar(), 12.0);
  EXPECT_EQ(c.run1("pow2", {typed(3, ClassId::Single)}).class_name(), "single");
  EXPECT_EQ(vals(c.run1("nextpow2", {row({0, 1, 2, 3, 1000, -5, 0.3})})),
            (std::vector<double>{0, 0, 1, 2, 10, 3, -1}));
  Value ni = c.run1("nextpow2", {typed(100, ClassId::UInt8)});
  EXPECT_EQ(ni.class_name(), "uint8");
  EXPECT_EQ(vals(ni)[0], 7.0);
}

TEST(MathTrig, ExactAtMultiples) {
  FakeCtx c;
  EXPECT_EQ(vals(c.run1("sinpi", {row({0, 0.5, 1, 1.5, 2, -0.5})})),
            (std::vector<double>{0, 1, 0, -1, 0, -1}));
  EXPECT_EQ(vals(c.run1("cospi", {row({0, 0.5, 1, 1.5, -1})})), (std::vector<double>{1, 0, -1, 0, -1}));
  EXPECT_NEAR(c.run1("sinpi", {0.25}).scalar(), std::sqrt(0.5), 2e-16);
  EXPECT_EQ(vals(c.run1("sind", {row({0, 90, 180, 270, 360, -90})})),
            (std::vector<double>{0, 1, 0, -1, 0, -1}));
  EXPECT_EQ(vals(c.run1("cosd", {row({0, 90, 180, 270, 60})}))[1], 0.0);
  EXPECT_EQ(vals(c.run1("cosd", {row({0, 90, 180, 270})})), (std::vector<double>{1, 0, -1, 0}));
  EXPECT_EQ(vals(c.run1("tand", {row({0, 45, 90, 135, -45})})),
            (std::vector<double>{0, 1, INFINITY, -1, -1}));
  EXPECT_EQ(c.run1("asind", {1.0}).scalar(), 90.0);
  EXPECT_EQ(c.run1("atand", {1.0}).scalar(), 45.0);
  EXPECT_TRUE(std::isnan(c.run1("sind", {INFINITY}).scalar()));
  EXPECT_EQ(c.run1("sind", {typed(30, ClassId::Single)}).class_name(), "single");
  // Complex input goes through sin(pi/180*z).
  Value z = c.run1("sind", {Value(Tensor::complex_scalar({90, 1}))});
  EXPECT_TRUE(z.tensor().is_complex());
  EXPECT_NEAR(z.tensor().get_complex(0).real(), std::cosh(M_PI / 180), 1e-12);
  EXPECT_EQ(error_id([&] { c.run1("sind", {typed(3, ClassId::Int16)}); }), "MATLAB:UndefinedFunction");
}

TEST(MathTrig, ReciprocalAndDegrees) {
  FakeCtx c;
  EXPECT_DOUBLE_EQ(c.run1("sec", {1.0}).scalar(), 1 / std::cos(1.0));
  EXPECT_DOUBLE_EQ(c.run1("csc", {1.0}).scalar(), 1 / std::sin(1.0));
  EXPECT_DOUBLE_EQ(c.run1("cot", {1.0}).scalar(), 1 / std::tan(1.0));
  EXPECT_EQ(c.run1("cot", {0.0}).scalar(), INFINITY);
  EXPECT_DOUBLE_EQ(c.run1("asec", {2.0}).scalar(), std::acos(0.5));
  EXPECT_DOUBLE_EQ(c.run1("acsc", {2.0}).scalar(), std::asin(0.5));
  EXPECT_DOUBLE_EQ(c.run1("acot", {2.0}).scalar(), std::atan(0.5));
  EXPECT_DOUBLE_EQ(c.run1("sech", {1.0}).scalar(), 1 / std::cosh(1.0));
  EXPECT_DOUBLE_EQ(c.run1("csch", {1.0}).scalar(), 1 / std::sinh(1.0));
  EXPECT_DOUBLE_EQ(c.run1("coth", {1.0}).scalar(), 1 / std::tanh(1.0));
  EXPECT_TRUE(c.run1("asec", {0.5}).tensor().is_complex());  // acos(2)
  EXPECT_EQ(c.run1("sec", {typed(1, ClassId::Single)}).class_name(), "single");
  EXPECT_EQ(c.run1("deg2rad", {180.0}).scalar(), M_PI);
  EXPECT_EQ(c.run1("rad2deg", {M_PI}).scalar(), 180.0);
  EXPECT_EQ(c.run1("deg2rad", {typed(90, ClassId::Single)}).class_name(), "single");
  EXPECT_EQ(error_id([&] { c.run1("deg2rad", {typed(90, ClassId::Int32)}); }),
            "MATLAB:deg2rad:nonFloatInput");
}

TEST(MathNumber, FactorialAndNchoosek) {
  FakeCtx c;
  EXPECT_EQ(vals(c.run1("factorial", {row({0, 1, 5, 10, 171})})),
            (std::vector<double>{1, 1, 120, 3628800, INFINITY}));
  Value f8 = c.run1("factorial", {typed(6, ClassId::Int8)});
  EXPECT_EQ(f8.class_name(), "int8");
  EXPECT_EQ(vals(f8)[0], 127.0);  // saturates
  EXPECT_EQ(vals(c.run1("factorial", {typed(35, ClassId::Single)}))[0], INFINITY);
  EXPECT_EQ(error_id([&] { c.run1("factorial", {-1.0}); }), "MATLAB:factorial:NNegativeInt");
  EXPECT_EQ(error_id([&] { c.run1("factorial", {2.5}); }), "MATLAB:factorial:NNegativeInt");
  EXPECT_EQ(c.run1("nchoosek", {10.0, 3.0}).scalar(), 120.0);
  EXPECT_EQ(c.run1("nchoosek", {5.0, 0.0}).scalar(), 1.0);
  EXPECT_EQ(c.run1("nchoosek", {60.0, 30.0}).scalar(), 118264581564861424.0);
  EXPECT_EQ(c.run1("nchoosek", {typed(10, ClassId::UInt8), 5.0}).class_name(), "uint8");
  Value m = c.run1("nchoosek", {row({1, 2, 3, 4}), 3.0});
  EXPECT_EQ(m.dims(), Dims(4, 3));
  EXPECT_EQ(vals(m), (std::vector<double>{1, 1, 1, 2, 2, 2, 3, 3, 3, 4, 4, 4}));
  Value cc = c.run1("nchoosek", {testing::cellrow({str("a"), str("b"), str("c")}), 2.0});
  ASSERT_TRUE(cc.is_cell());
  EXPECT_EQ(cc.dims(), Dims(3, 2));
  EXPECT_EQ(cc.cell()[2].to_text(), "b");  // rows {a,b}, {a,c}, {b,c}: (3,1) is 'b'
  EXPECT_EQ(c.run1("nchoosek", {row({1, 2}), 3.0}).dims(), Dims(0, 3));
  EXPECT_EQ(error_id([&] { c.run1("nchoosek", {3.0, 5.0}); }), "MATLAB:nchoosek:InvalidArg2");
  EXPECT_EQ(error_id([&] { c.run1("nchoosek", {5.0, 1.5}); }), "MATLAB:nchoosek:InvalidArg2");
  EXPECT_EQ(error_id([&] { c.run1("nchoosek", {-5.0, 1.0}); }), "MATLAB:nchoosek:InvalidArg1");
}

TEST(MathNumber, Primes) {
  FakeCtx c;
  Value p = c.run1("primes", {30.0});
  EXPECT_EQ(p.dims(), Dims(1, 10));
  EXPECT_EQ(vals(p), (std::vector<double>{2, 3, 5, 7, 11, 13, 17, 19, 23, 29}));
  EXPECT_EQ(c.run1("primes", {1.0}).dims(), Dims(1, 0));
  EXPECT_EQ(c.run1("primes", {typed(20, ClassId::Int16)}).class_name(), "int16");
  EXPECT_EQ(error_id([&] { c.run1("primes", {row({1, 2})}); }), "MATLAB:primes:InputNotScalar");
  Value ip = c.run1("isprime", {row({0, 1, 2, 9, 97, 7919, 4294967291.0, 9007199254740881.0})});
  EXPECT_EQ(ip.class_name(), "logical");
  EXPECT_EQ(vals(ip), (std::vector<double>{0, 0, 1, 0, 1, 1, 1, 1}));
  Tensor big = Tensor::uninit(ClassId::UInt64, Dims(1, 2));
  big.mutable_data<uint64_t>()[0] = 18446744073709551557ull;  // largest 64-bit prime
  big.mutable_data<uint64_t>()[1] = 18446744073709551559ull;
  EXPECT_EQ(vals(c.run1("isprime", {Value(big)})), (std::vector<double>{1, 0}));
  EXPECT_EQ(error_id([&] { c.run1("isprime", {-3.0}); }), "MATLAB:isprime:InputNotPosInt");
  EXPECT_EQ(error_id([&] { c.run1("isprime", {2.5}); }), "MATLAB:isprime:InputNotPosInt");
}

TEST(MathNumber, GcdLcm) {
  FakeCtx c;
  EXPECT_EQ(vals(c.run1("gcd", {row({12, 18, -4, 0}), 8.0})), (std::vector<double>{4, 2, 4, 8}));
  EXPECT_EQ(c.run1("gcd", {0.0, 0.0}).scalar(), 0.0);
  Value g = c.run1("gcd", {mat(2, 1, {12, 15}), row({9, 10})});  // implicit expansion
  EXPECT_EQ(g.dims(), Dims(2, 2));
  EXPECT_EQ(vals(g), (std::vector<double>{3, 3, 2, 5}));
  Outputs b = c.run("gcd", {12.0, -18.0}, 3);
  ASSERT_EQ(b.size(), 3u);
  EXPECT_EQ(b[0].scalar(), 6.0);
  EXPECT_EQ(12 * b[1].scalar() + -18 * b[2].scalar(), 6.0);
  EXPECT_EQ(c.run1("gcd", {typed(12, ClassId::Int32), 8.0}).class_name(), "int32");
  EXPECT_EQ(error_id([&] { c.run1("gcd", {typed(12, ClassId::Int32), typed(8, ClassId::Int8)}); }),
            "MATLAB:mixedIntegerTypes");
  EXPECT_EQ(error_id([&] { c.run1("gcd", {2.5, 2.0}); }), "MATLAB:gcd:NonIntInputs");
  EXPECT_EQ(error_id([&] { c.run1("gcd", {row({1, 2}), row({1, 2, 3})}); }),
            "MATLAB:sizeDimensionsMustMatch");
  EXPECT_EQ(vals(c.run1("lcm", {row({4, 6}), 10.0})), (std::vector<double>{20, 30}));
  EXPECT_EQ(error_id([&] { c.run1("lcm", {0.0, 3.0}); }), "MATLAB:lcm:InputNotPosInt");
}

TEST(MathNumber, CrossDot) {
  FakeCtx c;
  EXPECT_EQ(vals(c.run1("cross", {row({1, 2, 3}), row({4, 5, 6})})), (std::vector<double>{-3, 6, -3}));
  Value cc = c.run1("cross", {mat(3, 2, {1, 0, 0, 0, 1, 0}), mat(3, 2, {0, 1, 0, 0, 0, 1})});
  EXPECT_EQ(cc.dims(), Dims(3, 2));
  EXPECT_EQ(vals(cc), (std::vector<double>{0, 0, 1, 1, 0, 0}));
  Value cd = c.run1("cross", {mat(2, 3, {1, 0, 0, 1, 0, 0}), mat(2, 3, {0, 0, 1, 0, 0, 1}), 2.0});
  EXPECT_EQ(vals(cd), (std::vector<double>{0, 1, 0, 0, 1, 0}));  // [0 0 1; 1 0 0]
  EXPECT_EQ(error_id([&] { c.run1("cross", {row({1, 2}), row({3, 4})}); }),
            "MATLAB:cross:InvalidDimAorBForCrossProd");
  EXPECT_EQ(error_id([&] { c.run1("cross", {row({1, 2, 3}), mat(3, 2, {1, 2, 3, 4, 5, 6})}); }),
            "MATLAB:cross:InputSizeMismatch");
  EXPECT_EQ(c.run1("dot", {row({1, 2, 3}), mat(3, 1, {4, 5, 6})}).scalar(), 32.0);
  EXPECT_EQ(vals(c.run1("dot", {mat(2, 2, {1, 3, 2, 4}), mat(2, 2, {1, 3, 2, 4})})),
            (std::vector<double>{10, 20}));
  EXPECT_EQ(vals(c.run1("dot", {mat(2, 2, {1, 3, 2, 4}), mat(2, 2, {1, 3, 2, 4}), 2.0})),
            (std::vector<double>{5, 25}));
  // Complex: conj of the first argument.
  Value z = c.run1("dot", {Value(Tensor::complex_scalar({0, 1})), Value(Tensor::complex_scalar({0, 1}))});
  EXPECT_EQ(z.tensor().get_complex(0), std::complex<double>(1, 0));
  EXPECT_EQ(error_id([&] { c.run1("dot", {typed(1, ClassId::Int8), typed(1, ClassId::Int8)}); }),
            "MATLAB:dot:integerClass");
  EXPECT_EQ(error_id([&] { c.run1("dot", {row({1, 2}), mat(2, 2, {1, 2, 3, 4})}); }),
            "MATLAB:dot:InputSizeMismatch");
}

}  // namespace
}  // namespace matfuse
