// sprintf / fprintf / format engine tests.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <fstream>

#include "builtins/format.h"
#include "builtins_fake_ctx.h"

using namespace matfuse;
using namespace matfuse::testing;

namespace {

std::string sp(const char* fmt, std::vector<Value> args = {}) {
  FakeCtx ctx;
  args.insert(args.begin(), Value::from_chars(fmt));
  Value v = ctx.run1("sprintf", args);
  EXPECT_TRUE(v.is_char());
  return v.is_empty() ? std::string() : v.tensor().to_utf8();
}

TEST(Sprintf, LiteralOnly) { EXPECT_EQ(sp("x"), "x"); }
TEST(Sprintf, EmptyFormatIs1x0) {
  FakeCtx ctx;
  Value v = ctx.run1("sprintf", {Value::from_chars("")});
  EXPECT_EQ(v.dims(), Dims(1, 0));
  EXPECT_TRUE(v.is_char());
}
TEST(Sprintf, Integer) { EXPECT_EQ(sp("%d", {Value(42.0)}), "42"); }
TEST(Sprintf, NegativeInteger) { EXPECT_EQ(sp("%i", {Value(-7.0)}), "-7"); }
TEST(Sprintf, RecyclingVector) { EXPECT_EQ(sp("%d, ", {row({1, 2, 3})}), "1, 2, 3, "); }
TEST(Sprintf, RecyclingStopsAtFirstConversionWithoutData) {
  EXPECT_EQ(sp("%d %d\n", {row({1, 2, 3})}), "1 2\n3 ");
}
TEST(Sprintf, StopsBeforeMissingData) { EXPECT_EQ(sp("%d %s\n", {Value(5.0)}), "5 "); }
TEST(Sprintf, NoArgsStopsAtConversion) { EXPECT_EQ(sp("hello %d world"), "hello "); }
TEST(Sprintf, EmptyArgPrintsLiterals) { EXPECT_EQ(sp("a%db", {Value()}), "ab"); }
TEST(Sprintf, MultipleArgsFlattened) {
  EXPECT_EQ(sp("%d-%d;", {row({1, 2}), Value(3.0), Value(4.0)}), "1-2;3-4;");
}
TEST(Sprintf, ColumnMajorMatrix) {
  Tensor t = Tensor::uninit(ClassId::Double, Dims(2, 2));
  t.set_double(0, 1); t.set_double(1, 2); t.set_double(2, 3); t.set_double(3, 4);
  EXPECT_EQ(sp("%d", {Value(t)}), "1234");
}
TEST(Sprintf, NonIntegerWithD) { EXPECT_EQ(sp("%d", {Value(1.5)}), "1.500000e+00"); }
TEST(Sprintf, NonIntegerWithDKeepsPrecision) { EXPECT_EQ(sp("%.2d", {Value(M_PI)}), "3.14e+00"); }
TEST(Sprintf, NaNWithD) { EXPECT_EQ(sp("%d", {Value(NAN)}), "NaN"); }
TEST(Sprintf, InfWithF) { EXPECT_EQ(sp("%f", {Value(INFINITY)}), "Inf"); }
TEST(Sprintf, MinusInfWidth) { EXPECT_EQ(sp("%6.1f|", {Value(-INFINITY)}), "  -Inf|"); }
TEST(Sprintf, NaNLeftJustified) { EXPECT_EQ(sp("%-6d|", {Value(NAN)}), "NaN   |"); }
TEST(Sprintf, InfIgnoresZeroFlag) { EXPECT_EQ(sp("%06d|", {Value(INFINITY)}), "   Inf|"); }
TEST(Sprintf, Float) { EXPECT_EQ(sp("%f", {Value(M_PI)}), "3.141593"); }
TEST(Sprintf, FloatPrecision) { EXPECT_EQ(sp("%.2f", {Value(2.675)}), "2.67"); }
TEST(Sprintf, WidthPrecision) { EXPECT_EQ(sp("%8.3f|", {Value(M_PI)}), "   3.142|"); }
TEST(Sprintf, ZeroPad) { EXPECT_EQ(sp("%05.1f", {Value(-2.5)}), "-02.5"); }
TEST(Sprintf, ZeroPadInteger) { EXPECT_EQ(sp("%025d", {Value(123456.0)}), "0000000000000000000123456"); }
TEST(Sprintf, LeftJustify) { EXPECT_EQ(sp("%-5d|", {Value(3.0)}), "3    |"); }
TEST(Sprintf, PlusFlag) { EXPECT_EQ(sp("%+d %+d", {Value(3.0), Value(-3.0)}), "+3 -3"); }
TEST(Sprintf, SpaceFlag) { EXPECT_EQ(sp("% d", {Value(3.0)}), " 3"); }
TEST(Sprintf, StarWidth) { EXPECT_EQ(sp("%*d", {Value(5.0), Value(3.0)}), "    3"); }
TEST(Sprintf, StarPrecision) { EXPECT_EQ(sp("%.*f", {Value(2.0), Value(M_PI)}), "3.14"); }
TEST(Sprintf, Exponent) { EXPECT_EQ(sp("%e", {Value(12345.678)}), "1.234568e+04"); }
TEST(Sprintf, ExponentUpper) { EXPECT_EQ(sp("%E", {Value(0.5)}), "5.000000E-01"); }
TEST(Sprintf, GeneralSmall) { EXPECT_EQ(sp("%g", {Value(0.0001)}), "0.0001"); }
TEST(Sprintf, GeneralLarge) { EXPECT_EQ(sp("%g", {Value(1e10)}), "1e+10"); }
TEST(Sprintf, GeneralUpper) { EXPECT_EQ(sp("%G", {Value(1e-10)}), "1E-10"); }
TEST(Sprintf, GeneralPrecision) { EXPECT_EQ(sp("%0.5g", {Value(1.0 / 2.220446049250313e-16)}), "4.5036e+15"); }
TEST(Sprintf, Hex) { EXPECT_EQ(sp("%x %X", {Value(255.0), Value(255.0)}), "ff FF"); }
TEST(Sprintf, HexAlternate) { EXPECT_EQ(sp("%#x", {Value(255.0)}), "0xff"); }
TEST(Sprintf, Octal) { EXPECT_EQ(sp("%o", {Value(8.0)}), "10"); }
TEST(Sprintf, HexNonIntegerFallsBackToE) { EXPECT_EQ(sp("%x", {Value(1.5)}), "1.500000e+00"); }
TEST(Sprintf, UnsignedNegativeFallsBackToE) { EXPECT_EQ(sp("%u", {Value(-3.0)}), "-3.000000e+00"); }
TEST(Sprintf, StringArg) { EXPECT_EQ(sp("%s", {str("abc")}), "abc"); }
TEST(Sprintf, StringWidth) { EXPECT_EQ(sp("%5s|%-5s|", {str("ab"), str("cd")}), "   ab|cd   |"); }
TEST(Sprintf, StringPrecisionTruncates) { EXPECT_EQ(sp("%.3s", {str("abcdef")}), "abc"); }
TEST(Sprintf, TwoStrings) { EXPECT_EQ(sp("%s-%s", {str("ab"), str("cd")}), "ab-cd"); }
TEST(Sprintf, MixedNumbersAndStrings) {
  EXPECT_EQ(sp("%d %s;", {Value(1.0), str("abc"), Value(2.0), str("de")}), "1 abc;2 de;");
}
TEST(Sprintf, CharArgToD) { EXPECT_EQ(sp("%d,", {str("ab")}), "97,98,"); }
TEST(Sprintf, NumbersToS) { EXPECT_EQ(sp("%s", {row({72, 105})}), "Hi"); }
TEST(Sprintf, NonIntegerToS) { EXPECT_EQ(sp("%s", {Value(65.5)}), "6.550000e+01"); }
TEST(Sprintf, CharConversion) { EXPECT_EQ(sp("%c%c%c", {str("hey")}), "hey"); }
TEST(Sprintf, CharConversionOfNumber) { EXPECT_EQ(sp("%c", {Value(65.0)}), "A"); }
TEST(Sprintf, PercentLiteral) { EXPECT_EQ(sp("%d%%", {Value(5.0)}), "5%"); }
TEST(Sprintf, EscapesInFormat) { EXPECT_EQ(sp("a\\tb\\nc\\\\"), "a\tb\nc\\"); }
TEST(Sprintf, HexAndOctalEscapes) { EXPECT_EQ(sp("\\x41\\102"), "AB"); }
TEST(Sprintf, EscapesNotProcessedInArgs) { EXPECT_EQ(sp("%s", {str("a\\nb")}), "a\\nb"); }
TEST(Sprintf, LogicalPrintsAsNumber) { EXPECT_EQ(sp("%d", {Value::logical(true)}), "1"); }
TEST(Sprintf, IntegerClass) {
  EXPECT_EQ(sp("%d %f", {Value(Tensor::scalar(5, ClassId::Int8)), Value(Tensor::scalar(7, ClassId::Int32))}),
            "5 7.000000");
}
TEST(Sprintf, Int64Exact) {
  Tensor t = Tensor::uninit(ClassId::Int64, Dims::scalar());
  t.mutable_data<int64_t>()[0] = 9007199254740993LL;
  EXPECT_EQ(sp("%d", {Value(t)}), "9007199254740993");
}
TEST(Sprintf, LargeIntegerValuedDouble) { EXPECT_EQ(sp("%d", {Value(1e20)}), "100000000000000000000"); }
TEST(Sprintf, NegativeZero) { EXPECT_EQ(sp("%d", {Value(-0.0)}), "0"); }
TEST(Sprintf, ComplexPrintsRealPart) {
  EXPECT_EQ(sp("%d", {Value(Tensor::complex_scalar({3, 4}))}), "3");
}
TEST(Sprintf, StringClassFormatGivesString) {
  FakeCtx ctx;
  Value v = ctx.run1("sprintf", {Value::from_string("%d!"), Value(3.0)});
  ASSERT_TRUE(v.is_string());
  EXPECT_EQ(v.to_text(), "3!");
}
TEST(Sprintf, StringClassArgument) {
  EXPECT_EQ(sp("<%s>", {Value::from_string("hi")}), "<hi>");
}
TEST(Sprintf, CellArgumentIsError) {
  EXPECT_EQ(error_id([] { sp("%d", {cellrow({Value(1.0)})}); }), "MATLAB:sprintf:InvalidInputType");
}
TEST(Sprintf, NoFormatIsError) {
  FakeCtx ctx;
  EXPECT_EQ(error_id([&] { ctx.run("sprintf", {}); }), "MATLAB:minrhs");
}

TEST(Fprintf, WritesToSessionOut) {
  FakeCtx ctx;
  ctx.run("fprintf", {str("%d-%d\\n"), row({1, 2, 3, 4})}, 0);
  EXPECT_EQ(ctx.out.str(), "1-2\n3-4\n");
}
TEST(Fprintf, Fid1And2) {
  FakeCtx ctx;
  ctx.run("fprintf", {Value(1.0), str("out\\n")}, 0);
  ctx.run("fprintf", {Value(2.0), str("err %s\\n"), str("x")}, 0);
  EXPECT_EQ(ctx.out.str(), "out\n");
  EXPECT_EQ(ctx.err.str(), "err x\n");
}
TEST(Fprintf, ReturnsByteCount) {
  FakeCtx ctx;
  Value n = ctx.run1("fprintf", {str("abc")});
  EXPECT_EQ(n.to_double(), 3);
}
TEST(Fprintf, FileRoundTrip) {
  FakeCtx ctx;
  std::string path = ::testing::TempDir() + "/matfuse_fmt_test.txt";
  Value fid = ctx.run1("fopen", {str(path.c_str()), str("w")});
  ASSERT_GE(fid.to_double(), 3);
  ctx.run("fprintf", {fid, str("line %d\\n"), row({1, 2})}, 0);
  EXPECT_EQ(ctx.run1("fclose", {fid}).to_double(), 0);
  Value rf = ctx.run1("fopen", {str(path.c_str()), str("r")});
  EXPECT_EQ(ctx.run1("fgetl", {rf}).to_text(), "line 1");
  EXPECT_EQ(ctx.run1("fgets", {rf}).to_text(), "line 2\n");
  EXPECT_TRUE(ctx.run1("feof", {rf}).truthy());
  EXPECT_EQ(ctx.run1("fgetl", {rf}).to_double(), -1);
  ctx.run("fclose", {rf}, 0);
  std::remove(path.c_str());
}
TEST(Fprintf, FopenMissingFileGivesMinusOne) {
  FakeCtx ctx;
  Outputs o = ctx.run("fopen", {str("/nonexistent/dir/file.txt")}, 2);
  EXPECT_EQ(o[0].to_double(), -1);
  EXPECT_FALSE(o[1].to_text().empty());
}
TEST(Fprintf, InvalidFid) {
  FakeCtx ctx;
  EXPECT_EQ(error_id([&] { ctx.run("fprintf", {Value(99.0), str("x")}, 0); }),
            "MATLAB:FileIO:InvalidFid");
}

TEST(FormatHelpers, MessageIdentifier) {
  EXPECT_TRUE(is_message_identifier("MATLAB:test"));
  EXPECT_TRUE(is_message_identifier("a:b:c_d"));
  EXPECT_FALSE(is_message_identifier("abc"));
  EXPECT_FALSE(is_message_identifier("Value: %d"));
  EXPECT_FALSE(is_message_identifier("a:b c"));
  EXPECT_FALSE(is_message_identifier(":ab"));
  EXPECT_FALSE(is_message_identifier("ab:"));
  EXPECT_FALSE(is_message_identifier("x:%d"));
}

}  // namespace
