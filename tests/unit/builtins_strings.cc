// String builtins: str2double, strcmp family, strcat, strtrim, strsplit, strjoin, strrep, ...
#include <gtest/gtest.h>

#include <cmath>

#include "builtins_fake_ctx.h"

using namespace matfuse;
using namespace matfuse::testing;

namespace {

std::string text(const Value& v) { return v.is_empty() && v.is_char() ? "" : v.to_text(); }

TEST(Str2double, Basic) {
  FakeCtx c;
  EXPECT_EQ(c.run1("str2double", {str("3.25")}).to_double(), 3.25);
  EXPECT_EQ(c.run1("str2double", {str(" 2.5 ")}).to_double(), 2.5);
  EXPECT_EQ(c.run1("str2double", {str("1e3")}).to_double(), 1000);
  EXPECT_EQ(c.run1("str2double", {str("-inf")}).to_double(), -INFINITY);
  EXPECT_EQ(c.run1("str2double", {str("Inf")}).to_double(), INFINITY);
  EXPECT_EQ(c.run1("str2double", {str("1,200.5")}).to_double(), 1200.5);
  EXPECT_TRUE(std::isnan(c.run1("str2double", {str("abc")}).to_double()));
  EXPECT_TRUE(std::isnan(c.run1("str2double", {str("1 2")}).to_double()));
  EXPECT_TRUE(std::isnan(c.run1("str2double", {str("")}).to_double()));
  EXPECT_TRUE(std::isnan(c.run1("str2double", {Value(5.0)}).to_double()));
}
TEST(Str2double, Complex) {
  FakeCtx c;
  Tensor t = c.run1("str2double", {str("1+2i")}).tensor();
  ASSERT_TRUE(t.is_complex());
  EXPECT_EQ(t.get_complex(0), std::complex<double>(1, 2));
  EXPECT_EQ(c.run1("str2double", {str("-3.5j")}).tensor().get_complex(0), std::complex<double>(0, -3.5));
}
TEST(Str2double, CellAndString) {
  FakeCtx c;
  Tensor t = c.run1("str2double", {cellrow({str("1"), str("x"), Value(3.0)})}).tensor();
  EXPECT_EQ(t.dims(), Dims(1, 3));
  EXPECT_EQ(t.get_double(0), 1);
  EXPECT_TRUE(std::isnan(t.get_double(1)));
  EXPECT_TRUE(std::isnan(t.get_double(2)));
  EXPECT_EQ(c.run1("str2double", {Value::from_string("42")}).to_double(), 42);
}
TEST(Str2num, UsesEval) {
  FakeCtx c;
  Outputs o = c.run("str2num", {str("1 2 3")}, 2);
  EXPECT_EQ(c.last_eval, "[1 2 3]");
  EXPECT_EQ(o[0].numel(), 3);
  EXPECT_TRUE(o[1].truthy());
  Outputs bad = c.run("str2num", {str("@@")}, 2);
  EXPECT_TRUE(bad[0].is_empty());
  EXPECT_FALSE(bad[1].truthy());
}

TEST(Strcmp, Forms) {
  FakeCtx c;
  EXPECT_TRUE(c.run1("strcmp", {str("abc"), str("abc")}).truthy());
  EXPECT_FALSE(c.run1("strcmp", {str("abc"), str("abd")}).truthy());
  EXPECT_FALSE(c.run1("strcmp", {str("abc"), Value(5.0)}).truthy());
  EXPECT_TRUE(c.run1("strcmp", {str("abc"), Value::from_string("abc")}).truthy());
  Value r = c.run1("strcmp", {cellrow({str("a"), str("b"), Value(1.0)}), str("b")});
  ASSERT_EQ(r.dims(), Dims(1, 3));
  EXPECT_TRUE(r.is_logical());
  EXPECT_EQ(r.tensor().get_double(0), 0);
  EXPECT_EQ(r.tensor().get_double(1), 1);
  EXPECT_EQ(r.tensor().get_double(2), 0);
  Value rr = c.run1("strcmp", {cellrow({str("a"), str("b")}), cellrow({str("a"), str("c")})});
  EXPECT_EQ(rr.tensor().get_double(0), 1);
  EXPECT_EQ(rr.tensor().get_double(1), 0);
  EXPECT_EQ(error_id([&] {
              c.run1("strcmp", {cellrow({str("a"), str("b")}), cellrow({str("a"), str("b"), str("c")})});
            }),
            "MATLAB:strcmp:InputsSizeMismatch");
}
TEST(Strcmp, CaseAndPrefix) {
  FakeCtx c;
  EXPECT_TRUE(c.run1("strcmpi", {str("ABC"), str("abc")}).truthy());
  EXPECT_TRUE(c.run1("strncmp", {str("abcdef"), str("abcxyz"), Value(3.0)}).truthy());
  EXPECT_FALSE(c.run1("strncmp", {str("abcdef"), str("abcxyz"), Value(4.0)}).truthy());
  EXPECT_TRUE(c.run1("strncmpi", {str("ABcd"), str("abCX"), Value(3.0)}).truthy());
}

TEST(Strcat, CharTrimsTrailingWhitespace) {
  FakeCtx c;
  EXPECT_EQ(text(c.run1("strcat", {str("a "), str("b "), str(" c")})), "ab c");
}
TEST(Strcat, CellForm) {
  FakeCtx c;
  Value r = c.run1("strcat", {cellrow({str("a "), str("b")}), str("x")});
  ASSERT_TRUE(r.is_cell());
  EXPECT_EQ(r.cell()[0].to_text(), "a x");
  EXPECT_EQ(r.cell()[1].to_text(), "bx");
}
TEST(Strcat, StringForm) {
  FakeCtx c;
  Value r = c.run1("strcat", {Value::from_string("a "), str("b")});
  ASSERT_TRUE(r.is_string());
  EXPECT_EQ(r.to_text(), "a b");
}

TEST(Case, UpperLower) {
  FakeCtx c;
  EXPECT_EQ(text(c.run1("upper", {str("aBc1")})), "ABC1");
  EXPECT_EQ(text(c.run1("lower", {str("aBc1")})), "abc1");
  Value r = c.run1("upper", {cellrow({str("x"), str("yz")})});
  EXPECT_EQ(r.cell()[1].to_text(), "YZ");
  EXPECT_TRUE(c.run1("upper", {Value::from_string("q")}).is_string());
}

TEST(Trim, StrtrimDeblank) {
  FakeCtx c;
  EXPECT_EQ(text(c.run1("strtrim", {str("  a b \t\n")})), "a b");
  EXPECT_EQ(text(c.run1("deblank", {str("  a  ")})), "  a");
  Value r = c.run1("strtrim", {cellrow({str(" x "), str("y ")})});
  EXPECT_EQ(r.cell()[0].to_text(), "x");
  EXPECT_EQ(error_id([&] { c.run1("strtrim", {cellrow({Value(1.0)})}); }),
            "MATLAB:strtrim:InputClass");
}

TEST(Split, DefaultWhitespaceCollapses) {
  FakeCtx c;
  Value r = c.run1("strsplit", {str("a  b c")});
  ASSERT_EQ(r.dims(), Dims(1, 3));
  EXPECT_EQ(r.cell()[0].to_text(), "a");
  EXPECT_EQ(r.cell()[1].to_text(), "b");
  EXPECT_EQ(r.cell()[2].to_text(), "c");
}
TEST(Split, Delimiter) {
  FakeCtx c;
  Value r = c.run1("strsplit", {str("a,b,,c"), str(",")});
  ASSERT_EQ(r.numel(), 3);
  Value r2 = c.run1("strsplit", {str("a,b,,c"), str(","), str("CollapseDelimiters"), Value::logical(false)});
  ASSERT_EQ(r2.numel(), 4);
  EXPECT_TRUE(r2.cell()[2].is_empty());
  Value r3 = c.run1("strsplit", {str("a\tb"), str("\\t")});
  EXPECT_EQ(r3.numel(), 2);
}
TEST(Join, Strjoin) {
  FakeCtx c;
  EXPECT_EQ(text(c.run1("strjoin", {cellrow({str("a"), str("b"), str("c")})})), "a b c");
  EXPECT_EQ(text(c.run1("strjoin", {cellrow({str("a"), str("b")}), str(", ")})), "a, b");
  EXPECT_EQ(text(c.run1("strjoin", {cellrow({str("a"), str("b")}), str("\\n")})), "a\nb");
}
TEST(Replace, StrrepOverlapping) {
  FakeCtx c;
  EXPECT_EQ(text(c.run1("strrep", {str("hello world"), str("o"), str("0")})), "hell0 w0rld");
  EXPECT_EQ(text(c.run1("strrep", {str("abc 2 def 22 ghi 222 jkl 2222"), str("22"), str("*")})),
            "abc 2 def * ghi ** jkl ***");
  Value r = c.run1("strrep", {cellrow({str("aa"), str("ba")}), str("a"), str("x")});
  EXPECT_EQ(r.cell()[1].to_text(), "bx");
}
TEST(Match, ContainsStartsEnds) {
  FakeCtx c;
  EXPECT_TRUE(c.run1("contains", {str("hello"), str("ell")}).truthy());
  EXPECT_FALSE(c.run1("contains", {str("hello"), str("ELL")}).truthy());
  EXPECT_TRUE(c.run1("contains", {str("hello"), str("ELL"), str("IgnoreCase"), Value::logical(true)}).truthy());
  EXPECT_TRUE(c.run1("startsWith", {str("hello"), str("he")}).truthy());
  EXPECT_TRUE(c.run1("endsWith", {str("hello"), str("lo")}).truthy());
  Value r = c.run1("endsWith", {cellrow({str("a.m"), str("b.c")}), str(".m")});
  EXPECT_EQ(r.tensor().get_double(0), 1);
  EXPECT_EQ(r.tensor().get_double(1), 0);
  EXPECT_TRUE(c.run1("contains", {str("abc"), cellrow({str("x"), str("b")})}).truthy());
}
TEST(StringFn, Conversions) {
  FakeCtx c;
  Value s = c.run1("string", {str("abc")});
  ASSERT_TRUE(s.is_string());
  EXPECT_EQ(s.to_text(), "abc");
  EXPECT_EQ(c.run1("string", {Value(M_PI)}).to_text(), "3.1416");
  EXPECT_EQ(c.run1("string", {Value(42.0)}).to_text(), "42");
  EXPECT_EQ(c.run1("string", {Value::logical(true)}).to_text(), "true");
  Value sc = c.run1("string", {cellrow({str("a"), Value(2.0)})});
  EXPECT_EQ(sc.dims(), Dims(1, 2));
  EXPECT_EQ(*sc.string_array()[1], "2");
}
TEST(Misc, BlanksNewlineStrlengthIsspace) {
  FakeCtx c;
  EXPECT_EQ(text(c.run1("blanks", {Value(3.0)})), "   ");
  EXPECT_EQ(c.run1("blanks", {Value(0.0)}).dims(), Dims(1, 0));
  EXPECT_EQ(text(c.run1("newline", {})), "\n");
  EXPECT_EQ(c.run1("strlength", {str("abcd")}).to_double(), 4);
  Value l = c.run1("strlength", {cellrow({str("ab"), str("")})});
  EXPECT_EQ(l.tensor().get_double(0), 2);
  EXPECT_EQ(l.tensor().get_double(1), 0);
  Value sp = c.run1("isspace", {str("a b\t")});
  EXPECT_EQ(sp.tensor().get_double(0), 0);
  EXPECT_EQ(sp.tensor().get_double(1), 1);
  EXPECT_EQ(sp.tensor().get_double(3), 1);
}

}  // namespace
