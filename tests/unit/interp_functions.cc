// Interpreter: user functions, handles, closures, recursion, varargin/varargout, globals.
#include "interp_test_util.h"

namespace matfuse::test {
namespace {

TEST(InterpFunctions, FunctionFilesAndMultipleOutputs) {
  TempDir d;
  d.write("f1.m",
          "function [a, b] = f1(x, varargin)\n"
          "a = x * 2;\n"
          "b = numel(varargin) + nargin * 100;\n"
          "end\n");
  Snippet r;
  r.in.add_path(d.path.string());
  r("[p, q] = f1(3, 'a', 'b');");
  EXPECT_EQ(r.num("p"), 6);
  EXPECT_EQ(r.num("q"), 302);
  r("[~, q2] = f1(1);");
  EXPECT_EQ(r.num("q2"), 100);
  MatlabError e = r.fails("[a, b, c] = f1(1);");
  EXPECT_EQ(e.identifier(), "MATLAB:TooManyOutputs");
}

TEST(InterpFunctions, TooManyInputsAndUnassignedOutput) {
  TempDir d;
  d.write("g.m", "function y = g(x)\nif x > 0\n  y = 1;\nend\nend\n");
  Snippet r;
  r.in.add_path(d.path.string());
  MatlabError e = r.fails("g(1, 2)");
  EXPECT_EQ(e.identifier(), "MATLAB:TooManyInputs");
  EXPECT_EQ(e.message(), "Too many input arguments.");
  e = r.fails("z = g(-1);");
  EXPECT_EQ(e.identifier(), "MATLAB:unassignedOutputs");
  EXPECT_EQ(e.message(),
            "Output argument \"y\" (and possibly others) not assigned a value in the execution "
            "with \"g\" function.");
  // Called as a statement, an unassigned output is fine.
  r("g(-1);");
}

TEST(InterpFunctions, RecursionAndLocalFunctions) {
  TempDir d;
  d.write("fib.m",
          "function r = fib(n)\n"
          "if n < 2\n  r = n;\nelse\n  r = fib(n-1) + helper(n-2);\nend\nend\n"
          "function r = helper(n)\nr = fib(n);\nend\n");
  d.write("inf_rec.m", "function r = inf_rec(n)\nr = inf_rec(n + 1);\nend\n");
  Snippet r;
  r.in.add_path(d.path.string());
  r("x = fib(20);");
  EXPECT_EQ(r.num("x"), 6765);
  // helper is local to fib.m: not visible from outside.
  MatlabError e = r.fails("helper(3)");
  EXPECT_EQ(e.identifier(), "MATLAB:UndefinedFunction");
  e = r.fails("inf_rec(1)");
  EXPECT_EQ(e.identifier(), "MATLAB:recursionLimit");
}

TEST(InterpFunctions, VarargoutAndNargout) {
  TempDir d;
  d.write("vo.m",
          "function varargout = vo(n)\n"
          "for k = 1:nargout\n  varargout{k} = k * n;\nend\nend\n");
  Snippet r;
  r.in.add_path(d.path.string());
  r("[a, b, c] = vo(10);");
  EXPECT_EQ(r.num("a"), 10);
  EXPECT_EQ(r.num("b"), 20);
  EXPECT_EQ(r.num("c"), 30);
  r("n1 = nargin('vo'); n2 = nargout('vo');");
  EXPECT_EQ(r.num("n1"), 1);
  EXPECT_EQ(r.num("n2"), -1);
}

TEST(InterpFunctions, AnonymousClosuresCaptureByValue) {
  Snippet r;
  r("a = 10; f = @(x) x + a; a = 100; y = f(1);");
  EXPECT_EQ(r.num("y"), 11);
  r("g = @(x, y) x * y; z = g(3, 4);");
  EXPECT_EQ(r.num("z"), 12);
  // Nested anonymous functions capture through both levels.
  r("k = 2; mk = @(m) @(x) x * m * k; h = mk(5); w = h(3);");
  EXPECT_EQ(r.num("w"), 30);
  // Handles to builtins and feval.
  r("s = @sqrt; q = s(16); q2 = feval(@max, [1 7 3]); q3 = feval('abs', -2);");
  EXPECT_EQ(r.num("q"), 4);
  EXPECT_EQ(r.num("q2"), 7);
  EXPECT_EQ(r.num("q3"), 2);
  // Multiple outputs through an anonymous function.
  r("sz = @(m) size(m); [nr, nc] = sz(zeros(2, 5));");
  EXPECT_EQ(r.num("nr"), 2);
  EXPECT_EQ(r.num("nc"), 5);
  MatlabError e = r.fails("f(1, 2)");
  EXPECT_EQ(e.identifier(), "MATLAB:TooManyInputs");
  std::string s = r("disp(func2str(f))");
  EXPECT_EQ(s, "@(x)x+a\n");
}

TEST(InterpFunctions, GlobalAndPersistent) {
  TempDir d;
  d.write("counter.m",
          "function n = counter()\n"
          "persistent c\n"
          "if isempty(c)\n  c = 0;\nend\n"
          "c = c + 1;\nn = c;\nend\n");
  d.write("readg.m", "function v = readg()\nglobal G\nv = G;\nG = G + 1;\nend\n");
  Snippet r;
  r.in.add_path(d.path.string());
  r("counter(); counter(); n = counter();");
  EXPECT_EQ(r.num("n"), 3);
  r("global G\nG = 41;\nv = readg();");
  EXPECT_EQ(r.num("v"), 41);
  EXPECT_EQ(r.num("G"), 42);
}

TEST(InterpFunctions, CommaSeparatedLists) {
  Snippet r;
  r("c = {1, 2, 3}; m = [c{:}]; t = max(c{2:3});");
  EXPECT_EQ(r.in.base_var("m")->numel(), 3);
  EXPECT_EQ(r.num("t"), 3);
  r("[a, b] = c{1:2};");
  EXPECT_EQ(r.num("a"), 1);
  EXPECT_EQ(r.num("b"), 2);
  r("c2 = {}; [c2{1:3}] = deal(7, 8, 9); c23 = c2{3}; st(1).a = 1; st(2).a = 2; "
    "[st.a] = deal(10, 20); st2 = st(2).a;");
  EXPECT_EQ(r.num("c23"), 9);
  EXPECT_EQ(r.num("st2"), 20);
  r("s(1).f = 5; s(2).f = 6; v = [s.f];");
  EXPECT_EQ(r.in.base_var("v")->numel(), 2);
  // end inside indexing, including in a function-call-looking expression of a variable.
  r("x = 1:10; e1 = x(end); e2 = x(end-1); e3 = x(min(end, 3));");
  EXPECT_EQ(r.num("e1"), 10);
  EXPECT_EQ(r.num("e2"), 9);
  EXPECT_EQ(r.num("e3"), 3);
}

TEST(InterpFunctions, IndexedAssignmentChains) {
  Snippet r;
  r("s.a(2).b{3} = 7; v = s.a(2).b{3}; n = numel(s.a(2).b);");
  EXPECT_EQ(r.num("v"), 7);
  EXPECT_EQ(r.num("n"), 3);
  r("x = []; x(end+1) = 1; x(end+1) = 2; x(2) = []; k = numel(x);");
  EXPECT_EQ(r.num("k"), 1);
  r("c = {}; c{2} = 'hi'; w = numel(c);");
  EXPECT_EQ(r.num("w"), 2);
  r("q.data = zeros(1, 3); q.data(2) = 5; y = q.data(2);");
  EXPECT_EQ(r.num("y"), 5);
}

TEST(InterpFunctions, EvalAssigninExist) {
  Snippet r;
  r("eval('e1 = 3 + 4;'); e2 = eval('e1 * 2');");
  EXPECT_EQ(r.num("e1"), 7);
  EXPECT_EQ(r.num("e2"), 14);
  r("eval('error(''x:y'', ''z'')', 'caught = 1;');");
  EXPECT_EQ(r.num("caught"), 1);
  r("assignin('base', 'made', 12); ex1 = exist('made'); ex2 = exist('sin'); ex3 = exist('nope_q');");
  EXPECT_EQ(r.num("made"), 12);
  EXPECT_EQ(r.num("ex1"), 1);
  EXPECT_EQ(r.num("ex2"), 5);
  EXPECT_EQ(r.num("ex3"), 0);
}

}  // namespace
}  // namespace matfuse::test
