// Interpreter: control flow (if, for, while, switch, try/catch, break/continue/return).
#include "interp_test_util.h"

namespace matfuse::test {
namespace {

TEST(InterpControl, IfElseifElse) {
  Snippet r;
  r("x = 5; if x > 10, y = 1; elseif x > 3, y = 2; else, y = 3; end");
  EXPECT_EQ(r.num("y"), 2);
  // Arrays: true only when nonempty and all nonzero.
  r("if [1 1 0], a = 1; else, a = 0; end; if [], b = 1; else, b = 0; end; if [2 3], c = 1; end");
  EXPECT_EQ(r.num("a"), 0);
  EXPECT_EQ(r.num("b"), 0);
  EXPECT_EQ(r.num("c"), 1);
}

TEST(InterpControl, ForOverRangeAndValues) {
  Snippet r;
  r("s = 0; for i = 1:10, s = s + i; end");
  EXPECT_EQ(r.num("s"), 55);
  EXPECT_EQ(r.num("i"), 10);
  r("s = 0; for i = 10:-3:1, s = s + i; end");  // 10 7 4 1
  EXPECT_EQ(r.num("s"), 22);
  r("s = 0; for t = 0:0.1:1, s = s + 1; end");
  EXPECT_EQ(r.num("s"), 11);
  // Columns of a matrix.
  r("n = 0; for c = [1 2; 3 4], n = n + 1; last = c; end");
  EXPECT_EQ(r.num("n"), 2);
  const Value* last = r.in.base_var("last");
  ASSERT_TRUE(last);
  EXPECT_EQ(last->dims(), Dims(2, 1));
  // Cell array: each iteration gets a 1x1 cell.
  r("k = 0; for c = {1, 'a', [1 2]}, if iscell(c), k = k + 1; end, end");
  EXPECT_EQ(r.num("k"), 3);
  // Empty range: no iterations, loop variable becomes empty.
  r("m = 0; for j = 1:0, m = 1; end");
  EXPECT_EQ(r.num("m"), 0);
  EXPECT_TRUE(r.in.base_var("j")->is_empty());
}

TEST(InterpControl, WhileBreakContinue) {
  Snippet r;
  r("n = 0; s = 0; while true, n = n + 1; if n > 10, break; end, if mod(n, 2) == 0, continue; end, "
    "s = s + n; end");
  EXPECT_EQ(r.num("s"), 25);
  EXPECT_EQ(r.num("n"), 11);
  // break only leaves the innermost loop.
  r("c = 0; for i = 1:3, for j = 1:3, if j == 2, break; end, c = c + 1; end, end");
  EXPECT_EQ(r.num("c"), 3);
}

TEST(InterpControl, Switch) {
  Snippet r;
  r("x = 3; switch x, case 1, y = 10; case {2, 3}, y = 20; otherwise, y = 30; end");
  EXPECT_EQ(r.num("y"), 20);
  r("s = 'abc'; switch s, case 'ab', y = 1; case 'abc', y = 2; end");
  EXPECT_EQ(r.num("y"), 2);
  r("s = 'zz'; switch s, case {'a', 'b'}, y = 1; otherwise, y = 99; end");
  EXPECT_EQ(r.num("y"), 99);
  // A char case never matches a number.
  r("switch 97, case 'a', y = 1; otherwise, y = 0; end");
  EXPECT_EQ(r.num("y"), 0);
}

TEST(InterpControl, TryCatch) {
  Snippet r;
  std::string out = r(
      "try\n"
      "  error('my:ident', 'Value %d is bad', 7);\n"
      "catch err\n"
      "  disp(err.identifier); disp(err.message);\n"
      "end\n");
  EXPECT_EQ(out, "my:ident\nValue 7 is bad\n");
  out = r("try, x = [1 2 3]; y = x(5); catch e, disp(e.identifier); end");
  EXPECT_EQ(out, "MATLAB:badsubscript\n");
  out = r("try, undefined_thing_xyz; catch e, disp(e.message); end");
  EXPECT_EQ(out, "Unrecognized function or variable 'undefined_thing_xyz'.\n");
  // catch without identifier; execution continues after the statement.
  r("ok = 0; try, error('boom'); catch, ok = 1; end");
  EXPECT_EQ(r.num("ok"), 1);
  // err.stack is a struct array with file, name, line.
  r("try, error('a:b', 'c'); catch e, st = e.stack; end");
  const Value* st = r.in.base_var("st");
  ASSERT_TRUE(st && st->is_struct());
  EXPECT_GE(st->struct_array().field_index("line"), 0);
}

TEST(InterpControl, ReturnInScript) {
  Snippet r;
  r("a = 1; if a == 1, return; end; a = 2;");
  EXPECT_EQ(r.num("a"), 1);
}

TEST(InterpControl, DisplayOfResults) {
  Snippet r;
  std::string out = r("x = 3");
  EXPECT_NE(out.find("x ="), std::string::npos);
  out = r("x = 4;");
  EXPECT_EQ(out, "");
  out = r("v = [1 2 3]; v(2) = 7");
  EXPECT_NE(out.find("v ="), std::string::npos);
  EXPECT_NE(out.find("7"), std::string::npos);
  out = r("1 + 1");
  EXPECT_NE(out.find("ans ="), std::string::npos);
  EXPECT_EQ(r.num("ans"), 2);
  // A call that returns nothing does not display or set ans.
  out = r("disp('hi')");
  EXPECT_EQ(out, "hi\n");
  EXPECT_EQ(r.num("ans"), 2);
  // A bare variable displays under its own name and leaves ans alone.
  out = r("x");
  EXPECT_NE(out.find("x ="), std::string::npos);
}

TEST(InterpControl, ScalarLoopBenchmarkValue) {
  Snippet r;
  r("s = 0; for i = 1:1000, s = s + sqrt(i) * mod(i, 7); end");
  double s = 0;
  for (int i = 1; i <= 1000; ++i) s = s + std::sqrt(static_cast<double>(i)) * (i % 7);
  EXPECT_DOUBLE_EQ(r.num("s"), s);
  // The evaluator's scalar mod/rem agree with the array builtins.
  r("xs = [-7 -1 5 6 7 -6 5.5]; ys = [3 3 -3 3 0 3 2]; ok = 1; "
    "mv = mod(xs, ys); rv = rem(xs, ys); "
    "for k = 1:7, if mod(xs(k), ys(k)) ~= mv(k), ok = 0; end, "
    "q = rem(xs(k), ys(k)); if ~(q == rv(k) || (isnan(q) && isnan(rv(k)))), ok = 0; end, end");
  EXPECT_EQ(r.num("ok"), 1);
  // sqrt of a negative scalar still goes to the complex builtin.
  r("z = sqrt(-4);");
  const Value* z = r.in.base_var("z");
  ASSERT_TRUE(z);
  EXPECT_TRUE(z->is_tensor() && z->tensor().is_complex());
}

}  // namespace
}  // namespace matfuse::test
