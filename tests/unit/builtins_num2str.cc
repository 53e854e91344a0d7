// num2str, int2str, mat2str, disp, display and format builtins (io family).
#include <gtest/gtest.h>

#include <sstream>
#include <vector>

#include "builtins/registry.h"
#include "interp/display.h"

namespace matfuse {
namespace {

class FakeCtx : public CallContext {
public:
  FakeCtx() { session_.out = &out; }
  Session& session() override { return session_; }
  Outputs call(const Value&, Args, int) override { return {}; }
  Outputs call_named(std::string_view, Args, int) override { return {}; }
  /// As the interpreter displays (interp/calls.cc Interpreter::display).
  void display(const Value& v, std::string_view name) override {
    if (name.empty()) disp_value(out, v, session_);
    else display_value(out, v, name, session_);
  }
  int exist(std::string_view) override { return 0; }
  Outputs eval_text(std::string_view, int) override { return {}; }
  std::ostringstream out;

private:
  Session session_;
};

Outputs call(FakeCtx& ctx, const char* name, std::vector<Value> args, int nargout = 1) {
  const Builtin* b = builtins().find(name);
  EXPECT_NE(b, nullptr) << name;
  if (!b) return {};
  return b->fn(ctx, Args(args.data(), args.size()), nargout);
}

std::string text(FakeCtx& ctx, const char* name, std::vector<Value> args) {
  Outputs o = call(ctx, name, std::move(args));
  if (o.empty()) return "<none>";
  return o[0].is_empty() ? std::string() : o[0].tensor().to_utf8();
}

/// Rows of a char matrix result.
std::vector<std::string> rows(const Value& v) {
  Tensor t = v.tensor();
  std::vector<std::string> out(t.dims().rows());
  for (int64_t r = 0; r < t.dims().rows(); ++r)
    for (int64_t c = 0; c < t.dims().cols(); ++c)
      out[r] += static_cast<char>(t.data<char16_t>()[c * t.dims().rows() + r]);
  return out;
}

Value mat(int64_t r, int64_t c, std::initializer_list<double> row_major,
          ClassId cls = ClassId::Double) {
  Tensor t = Tensor::uninit(cls, Dims(r, c));
  int64_t k = 0;
  for (double v : row_major) {
    t.set_double((k % c) * r + k / c, v);
    ++k;
  }
  return Value(t);
}

std::string error_id(FakeCtx& ctx, const char* name, std::vector<Value> args) {
  try {
    call(ctx, name, std::move(args));
  } catch (const MatlabError& e) {
    return e.identifier();
  }
  return "";
}

TEST(Num2str, Scalars) {
  FakeCtx ctx;
  EXPECT_EQ(text(ctx, "num2str", {M_PI}), "3.1416");
  EXPECT_EQ(text(ctx, "num2str", {42.0}), "42");
  EXPECT_EQ(text(ctx, "num2str", {-M_PI}), "-3.1416");
  EXPECT_EQ(text(ctx, "num2str", {123.456}), "123.456");
  EXPECT_EQ(text(ctx, "num2str", {0.000123456}), "0.00012346");
  EXPECT_EQ(text(ctx, "num2str", {NAN}), "NaN");
  EXPECT_EQ(text(ctx, "num2str", {-INFINITY}), "-Inf");
  EXPECT_EQ(text(ctx, "num2str", {1e10}), "10000000000");
}
TEST(Num2str, PrecisionAndFormat) {
  FakeCtx ctx;
  EXPECT_EQ(text(ctx, "num2str", {M_PI, 8.0}), "3.1415927");
  EXPECT_EQ(text(ctx, "num2str", {M_PI, Value::from_chars("%10.5f")}), "3.14159");
  EXPECT_EQ(text(ctx, "num2str", {mat(1, 2, {1, 2}), Value::from_chars("%d,")}), "1,2,");
}
TEST(Num2str, Matrices) {
  FakeCtx ctx;
  EXPECT_EQ(text(ctx, "num2str", {mat(1, 3, {1, 10, 100})}), "1   10  100");
  EXPECT_EQ(text(ctx, "num2str", {mat(1, 2, {M_PI, 2.5})}), "3.1416         2.5");
  EXPECT_EQ(text(ctx, "num2str", {mat(1, 3, {1, NAN, INFINITY})}), "1  NaN  Inf");
  Outputs o = call(ctx, "num2str", {mat(2, 2, {1, -2, 3, 4})});
  EXPECT_EQ(rows(o[0]), (std::vector<std::string>{"1 -2", "3  4"}));
}
TEST(Num2str, OtherClasses) {
  FakeCtx ctx;
  EXPECT_EQ(text(ctx, "num2str", {Value::logical(true)}), "1");
  EXPECT_EQ(text(ctx, "num2str", {mat(1, 3, {1, 2, 3}, ClassId::Int8)}), "1  2  3");
  EXPECT_EQ(text(ctx, "num2str", {Value::from_chars("abc")}), "abc");
  EXPECT_EQ(text(ctx, "num2str", {Value(Tensor::complex_scalar({3, 4}))}), "3+4i");
  EXPECT_EQ(text(ctx, "num2str", {Value(Tensor::complex_scalar({1.5, -2.25}))}), "1.5-2.25i");
  EXPECT_EQ(text(ctx, "num2str", {Value()}), "");
  EXPECT_FALSE(error_id(ctx, "num2str", {Value(CellArray(Dims(1, 1)))}).empty());
}
TEST(Int2str, RoundsHalfAwayFromZero) {
  FakeCtx ctx;
  EXPECT_EQ(text(ctx, "int2str", {2.5}), "3");
  EXPECT_EQ(text(ctx, "int2str", {-2.5}), "-3");
  EXPECT_EQ(text(ctx, "int2str", {mat(1, 2, {1.2, 3.7})}), "1  4");
}
TEST(Mat2str, Basics) {
  FakeCtx ctx;
  EXPECT_EQ(text(ctx, "mat2str", {mat(2, 2, {1, 2, 3, 4})}), "[1 2;3 4]");
  EXPECT_EQ(text(ctx, "mat2str", {mat(2, 2, {1.5, -2, 3, 4})}), "[1.5 -2;3 4]");
  EXPECT_EQ(text(ctx, "mat2str", {5.0}), "5");
  EXPECT_EQ(text(ctx, "mat2str", {M_PI}), "3.14159265358979");
  EXPECT_EQ(text(ctx, "mat2str", {M_PI, 4.0}), "3.142");
  EXPECT_EQ(text(ctx, "mat2str", {mat(1, 2, {NAN, -INFINITY})}), "[NaN -Inf]");
  EXPECT_EQ(text(ctx, "mat2str", {Value(Tensor::zeros(ClassId::Double, Dims(0, 3)))}),
            "zeros(0,3)");
}
TEST(Mat2str, ClassesAndText) {
  FakeCtx ctx;
  EXPECT_EQ(text(ctx, "mat2str", {mat(1, 2, {1, 0}, ClassId::Logical)}), "[true false]");
  EXPECT_EQ(text(ctx, "mat2str", {Value::logical(true)}), "true");
  EXPECT_EQ(text(ctx, "mat2str", {Value::from_chars("it's")}), "'it''s'");
  EXPECT_EQ(text(ctx, "mat2str", {mat(1, 2, {1, -1}, ClassId::Int16), Value::from_chars("class")}),
            "int16([1 -1])");
  Tensor z = Tensor::uninit(ClassId::Double, Dims(1, 2), true);
  z.set_complex(0, {1, 2});
  z.set_complex(1, {3, -4});
  EXPECT_EQ(text(ctx, "mat2str", {Value(z)}), "[1+2i 3-4i]");
  EXPECT_EQ(error_id(ctx, "mat2str", {Value(Tensor::zeros(ClassId::Double, Dims({2, 2, 2})))}),
            "MATLAB:mat2str:TwoDInput");
}
TEST(DispBuiltin, WritesToSessionOut) {
  FakeCtx ctx;
  call(ctx, "disp", {M_PI}, 0);
  call(ctx, "disp", {Value::from_chars("abc")}, 0);
  EXPECT_EQ(ctx.out.str(), "    3.1416\nabc\n");
  EXPECT_EQ(error_id(ctx, "disp", {}), "MATLAB:minrhs");
}
TEST(DisplayBuiltin, UsesGivenName) {
  FakeCtx ctx;
  call(ctx, "display", {5.0, Value::from_chars("y")}, 0);
  EXPECT_EQ(ctx.out.str(), "y =\n\n     5\n\n");
}
TEST(FormatBuiltin, SetsSession) {
  FakeCtx ctx;
  call(ctx, "format", {Value::from_chars("long")}, 0);
  EXPECT_EQ(ctx.session().format, NumericFormat::Long);
  call(ctx, "disp", {M_PI}, 0);
  EXPECT_EQ(ctx.out.str(), "   3.141592653589793\n");
  call(ctx, "format", {Value::from_chars("compact")}, 0);
  EXPECT_TRUE(ctx.session().compact);
  call(ctx, "format", {Value::from_chars("long"), Value::from_chars("g")}, 0);
  EXPECT_EQ(ctx.session().format, NumericFormat::LongG);
  Outputs prev = call(ctx, "format", {Value::from_chars("shortE")}, 1);
  ASSERT_EQ(prev.size(), 1u);
  EXPECT_TRUE(prev[0].is_struct());
  EXPECT_EQ(ctx.session().format, NumericFormat::ShortE);
  call(ctx, "format", {}, 0);
  EXPECT_EQ(ctx.session().format, NumericFormat::Short);
  EXPECT_FALSE(ctx.session().compact);
  EXPECT_FALSE(error_id(ctx, "format", {Value::from_chars("nonsense")}).empty());
}

}  // namespace
}  // namespace matfuse
