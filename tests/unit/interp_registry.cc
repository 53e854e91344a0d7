// The builtin tables: one registration per name (library and interpreter tables together), and
// the interpreter's builtins that need the workspace (exist, feval, func2str, str2func, rethrow).
#include "builtins/registry.h"
#include "interp_test_util.h"

namespace matfuse::test {
namespace {

Outputs none(CallContext&, Args, int) { return {}; }

TEST(Registry, RefusesDuplicateName) {
  Registry r;
  r.add("alpha", none);
  EXPECT_THROW(r.add("alpha", none), InternalError);
  EXPECT_EQ(r.size(), 1u);
  try {
    r.add("alpha", none);
  } catch (const InternalError& e) {
    EXPECT_NE(std::string(e.what()).find("'alpha' is registered twice"), std::string::npos);
  }
}

TEST(Registry, InterpreterAndLibraryTablesAreDisjoint) {
  Snippet r;  // the constructor asserts it too
  for (const auto& n : r.in.own_builtins_.names())
    EXPECT_EQ(builtins().find(n), nullptr) << n << " is registered in both tables";
  for (const char* n : {"exist", "feval", "func2str", "str2func", "rethrow", "ismethod"})
    EXPECT_NE(r.in.own_builtins_.find(n), nullptr) << n;
  EXPECT_NE(builtins().find("format"), nullptr);
}

TEST(Registry, ExistKinds) {
  Snippet r;
  r("myvar = 1; a = exist('myvar'); b = exist('myvar', 'var'); c = exist('sprintf', 'var');");
  r("d = exist('sprintf', 'builtin'); e = exist('no_such_thing_xyz'); f = exist('/tmp');");
  r("g = exist('eval', 'builtin'); h = exist('sprintf', 'class');");
  EXPECT_EQ(r.num("a"), 1);
  EXPECT_EQ(r.num("b"), 1);
  EXPECT_EQ(r.num("c"), 0);
  EXPECT_EQ(r.num("d"), 5);
  EXPECT_EQ(r.num("e"), 0);
  EXPECT_EQ(r.num("f"), 7);
  EXPECT_EQ(r.num("g"), 5);
  EXPECT_EQ(r.num("h"), 0);
  EXPECT_EQ(r.fails("exist('x', 'nonsense')").identifier(), "MATLAB:exist:InvalidType");
  EXPECT_EQ(r.fails("[p, q] = exist('x');").identifier(), "MATLAB:TooManyOutputs");
}

TEST(Registry, FevalFunc2strStr2func) {
  Snippet r;
  EXPECT_EQ(r("disp(feval('upper', 'ab'))"), "AB\n");
  EXPECT_EQ(r("disp(feval(@upper, 'cd'))"), "CD\n");
  EXPECT_EQ(r("disp(func2str(@sin))"), "sin\n");
  EXPECT_EQ(r("h = str2func('cos'); disp(h(0))"), "     1\n");
  // Anonymous function text captures nothing from the caller's workspace.
  r("k = 5; g = str2func('@(x) x + 1');");
  EXPECT_EQ(r("disp(g(1))"), "     2\n");
  EXPECT_EQ(r.fails("g2 = str2func('@(x) x + k'); g2(1)").identifier(),
            "MATLAB:UndefinedFunction");
  EXPECT_EQ(r.fails("feval(3)").identifier(), "MATLAB:feval:ArgumentNotFunctionNameOrHandle");
}

TEST(Registry, RethrowFromStruct) {
  Snippet r;
  MatlabError e = r.fails(
      "s = struct('message', 'm', 'identifier', 'x:y', 'stack', "
      "struct('file', 'f.m', 'name', 'f', 'line', 3)); rethrow(s)");
  EXPECT_EQ(e.identifier(), "x:y");
  EXPECT_EQ(e.message(), "m");
  ASSERT_GE(e.stack().size(), 1u);
  EXPECT_EQ(e.stack()[0].line, 3);
}

TEST(Registry, FormatCommandAndFunctionForms) {
  Snippet r;
  r("format long e");
  EXPECT_EQ(r.session.format, NumericFormat::LongE);
  r("format short compact");
  EXPECT_EQ(r.session.format, NumericFormat::Short);
  EXPECT_TRUE(r.session.compact);
  r("format");
  EXPECT_FALSE(r.session.compact);
  r("f = format('longG');");
  EXPECT_EQ(r.session.format, NumericFormat::LongG);
  EXPECT_EQ(r("disp(f.NumericFormat)"), "short\n");
}

}  // namespace
}  // namespace matfuse::test
