// Misc builtins: isequal, error/warning/assert identifiers, tic/toc, getenv, deal, ...
// (exist, feval, func2str, str2func and rethrow are the interpreter's: interp_registry.cc)
#include <gtest/gtest.h>

#include <cmath>

#include "builtins/misc.h"
#include "builtins_fake_ctx.h"

using namespace matfuse;
using namespace matfuse::testing;

namespace {

/// Runs a builtin expected to throw; returns the error (identifier, message).
std::pair<std::string, std::string> thrown(FakeCtx& c, const std::string& name, std::vector<Value> args) {
  try {
    c.run(name, args, 0);
  } catch (const MatlabError& e) {
    return {e.identifier(), e.message()};
  }
  return {"<none>", "<none>"};
}

TEST(Isequal, NumericClassesAndDims) {
  FakeCtx c;
  EXPECT_TRUE(c.run1("isequal", {Value(1.0), Value(Tensor::scalar(1, ClassId::Int8))}).truthy());
  EXPECT_TRUE(c.run1("isequal", {str("a"), Value(97.0)}).truthy());
  EXPECT_TRUE(c.run1("isequal", {row({1, 2}), row({1, 2}), row({1, 2})}).truthy());
  EXPECT_FALSE(c.run1("isequal", {row({1, 2}), row({1, 2}), row({1, 3})}).truthy());
  Tensor col = Tensor::uninit(ClassId::Double, Dims(2, 1));
  col.set_double(0, 1);
  col.set_double(1, 2);
  EXPECT_FALSE(c.run1("isequal", {row({1, 2}), Value(col)}).truthy());
  EXPECT_TRUE(c.run1("isequal", {Value(), Value(Tensor::zeros(ClassId::Double, Dims(0, 0)))}).truthy());
  EXPECT_FALSE(c.run1("isequal", {Value(), Value(Tensor::zeros(ClassId::Double, Dims(1, 0)))}).truthy());
  EXPECT_TRUE(c.run1("isequal", {Value::logical(true), Value(1.0)}).truthy());
}
TEST(Isequal, NaN) {
  FakeCtx c;
  EXPECT_FALSE(c.run1("isequal", {Value(NAN), Value(NAN)}).truthy());
  EXPECT_TRUE(c.run1("isequaln", {Value(NAN), Value(NAN)}).truthy());
  EXPECT_TRUE(c.run1("isequaln", {row({1, NAN}), row({1, NAN})}).truthy());
}
TEST(Isequal, CellsStructsStrings) {
  FakeCtx c;
  EXPECT_TRUE(c.run1("isequal", {cellrow({str("a"), Value(1.0)}), cellrow({str("a"), Value(1.0)})}).truthy());
  EXPECT_FALSE(c.run1("isequal", {cellrow({str("a")}), cellrow({str("b")})}).truthy());
  Value s1 = c.run1("struct", {str("a"), Value(1.0), str("b"), Value(2.0)});
  Value s2 = c.run1("struct", {str("b"), Value(2.0), str("a"), Value(1.0)});
  Value s3 = c.run1("struct", {str("a"), Value(1.0)});
  EXPECT_TRUE(c.run1("isequal", {s1, s2}).truthy());
  EXPECT_FALSE(c.run1("isequal", {s1, s3}).truthy());
  EXPECT_TRUE(c.run1("isequal", {Value::from_string("ab"), str("ab")}).truthy());
  EXPECT_FALSE(c.run1("isequal", {cellrow({}), Value()}).truthy());
  EXPECT_TRUE(c.run1("isequal", {handle("sin"), handle("sin")}).truthy());
  EXPECT_FALSE(c.run1("isequal", {handle("sin"), handle("cos")}).truthy());
}

TEST(Error, MessageOnlyIsLiteral) {
  FakeCtx c;
  auto e = thrown(c, "error", {str("Value: 50%\\n")});
  EXPECT_EQ(e.first, "");
  EXPECT_EQ(e.second, "Value: 50%\\n");
}
TEST(Error, FormatArgs) {
  FakeCtx c;
  auto e = thrown(c, "error", {str("x is %d"), Value(3.0)});
  EXPECT_EQ(e.first, "");
  EXPECT_EQ(e.second, "x is 3");
}
TEST(Error, IdentifierForm) {
  FakeCtx c;
  auto e = thrown(c, "error", {str("my:id"), str("bad %s"), str("thing")});
  EXPECT_EQ(e.first, "my:id");
  EXPECT_EQ(e.second, "bad thing");
  auto e2 = thrown(c, "error", {str("my:id"), str("two args")});
  EXPECT_EQ(e2.first, "my:id");
  EXPECT_EQ(e2.second, "two args");
  // A lone identifier-looking text is the message.
  auto e3 = thrown(c, "error", {str("a:b")});
  EXPECT_EQ(e3.first, "");
  EXPECT_EQ(e3.second, "a:b");
  // Whitespace: not an identifier.
  auto e4 = thrown(c, "error", {str("Error: %d"), Value(4.0)});
  EXPECT_EQ(e4.first, "");
  EXPECT_EQ(e4.second, "Error: 4");
}
TEST(Error, EmptyMessageDoesNothing) {
  FakeCtx c;
  EXPECT_NO_THROW(c.run("error", {str("")}, 0));
}
TEST(Error, StructForm) {
  FakeCtx c;
  Value s = c.run1("struct", {str("message"), str("boom"), str("identifier"), str("a:b")});
  auto e = thrown(c, "error", {s});
  EXPECT_EQ(e.first, "a:b");
  EXPECT_EQ(e.second, "boom");
}
TEST(Warning, PrintsAndRecords) {
  FakeCtx c;
  c.run("warning", {str("careful %d"), Value(1.0)}, 0);
  EXPECT_EQ(c.err.str(), "Warning: careful 1\n");
  c.run("warning", {str("my:w"), str("second")}, 0);
  Outputs o = c.run("lastwarn", {}, 2);
  EXPECT_EQ(o[0].to_text(), "second");
  EXPECT_EQ(o[1].to_text(), "my:w");
}
TEST(Warning, OffById) {
  FakeCtx c;
  c.run("warning", {str("off"), str("my:w")}, 0);
  c.run("warning", {str("my:w"), str("hidden")}, 0);
  EXPECT_EQ(c.err.str(), "");
  c.run("warning", {str("other:w"), str("shown")}, 0);
  EXPECT_EQ(c.err.str(), "Warning: shown\n");
  c.run("warning", {str("on"), str("my:w")}, 0);
  c.run("warning", {str("my:w"), str("back")}, 0);
  EXPECT_NE(c.err.str().find("back"), std::string::npos);
}
TEST(Warning, OffAll) {
  FakeCtx c;
  c.run("warning", {str("off"), str("all")}, 0);
  c.run("warning", {str("x")}, 0);
  EXPECT_EQ(c.err.str(), "");
  c.run("warning", {str("on"), str("all")}, 0);
  c.run("warning", {str("y")}, 0);
  EXPECT_EQ(c.err.str(), "Warning: y\n");
  Value st = c.run1("warning", {str("query"), str("all")});
  ASSERT_TRUE(st.is_struct());
}

TEST(Assert, Forms) {
  FakeCtx c;
  EXPECT_NO_THROW(c.run("assert", {Value::logical(true)}, 0));
  EXPECT_NO_THROW(c.run("assert", {row({1, 2})}, 0));
  auto e = thrown(c, "assert", {Value::logical(false)});
  EXPECT_EQ(e.first, "MATLAB:assertion:failed");
  EXPECT_EQ(e.second, "Assertion failed.");
  auto e2 = thrown(c, "assert", {Value(0.0), str("x must be %d"), Value(2.0)});
  EXPECT_EQ(e2.second, "x must be 2");
  auto e3 = thrown(c, "assert", {Value(0.0), str("my:id"), str("msg %s"), str("here")});
  EXPECT_EQ(e3.first, "my:id");
  EXPECT_EQ(e3.second, "msg here");
}

TEST(TicToc, Basic) {
  FakeCtx c;
  EXPECT_EQ(error_id([&] { c.run("toc", {}, 1); }), "MATLAB:toc:callTicFirst");
  c.run("tic", {}, 0);
  double t = c.run1("toc", {}).to_double();
  EXPECT_GE(t, 0);
  EXPECT_LT(t, 5);
  c.run("toc", {}, 0);
  EXPECT_EQ(c.out.str().rfind("Elapsed time is ", 0), 0u);
  EXPECT_NE(c.out.str().find(" seconds.\n"), std::string::npos);
  Value id = c.run1("tic", {});
  EXPECT_EQ(id.cls(), ClassId::UInt64);
  EXPECT_GE(c.run1("toc", {id}).to_double(), 0);
}

TEST(Env, GetSet) {
  FakeCtx c;
  c.run("setenv", {str("MATFUSE_TEST_VAR"), str("hello")}, 0);
  EXPECT_EQ(c.run1("getenv", {str("MATFUSE_TEST_VAR")}).to_text(), "hello");
  EXPECT_TRUE(c.run1("getenv", {str("MATFUSE_SURELY_UNSET_VAR")}).is_empty());
}

TEST(Deal, Forms) {
  FakeCtx c;
  Outputs o = c.run("deal", {Value(7.0)}, 3);
  ASSERT_EQ(o.size(), 3u);
  EXPECT_EQ(o[2].to_double(), 7);
  Outputs p = c.run("deal", {Value(1.0), Value(2.0)}, 2);
  EXPECT_EQ(p[1].to_double(), 2);
  EXPECT_EQ(error_id([&] { c.run("deal", {Value(1.0), Value(2.0)}, 3); }), "MATLAB:deal:narginchk");
}

TEST(Isvarname, Rules) {
  EXPECT_TRUE(is_valid_varname("a_1"));
  EXPECT_FALSE(is_valid_varname("1a"));
  EXPECT_FALSE(is_valid_varname("end"));
  EXPECT_FALSE(is_valid_varname("_x"));
  EXPECT_FALSE(is_valid_varname(std::string(64, 'a')));
  FakeCtx c;
  EXPECT_FALSE(c.run1("isvarname", {Value(1.0)}).truthy());
}

TEST(Platform, ComputerAndFlags) {
  FakeCtx c;
  EXPECT_FALSE(c.run1("computer", {}).to_text().empty());
  EXPECT_NE(c.run1("isunix", {}).truthy(), c.run1("ispc", {}).truthy());
  EXPECT_FALSE(c.run1("version", {}).to_text().empty());
  EXPECT_NO_THROW(c.run("pause", {Value(0.0)}, 0));
  EXPECT_NO_THROW(c.run("clc", {}, 0));
}

}  // namespace
