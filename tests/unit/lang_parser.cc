// Parser tests: structure checked through a compact S-expression dump of the AST.
#include <gtest/gtest.h>

#include <cstdio>

// GCC 12 reports a false -Wrestrict inside std::string concatenation (GCC bug 105651).
#pragma GCC diagnostic ignored "-Wrestrict"

#include "lang/parser.h"
#include "runtime/error.h"

namespace matfuse {
namespace {

using namespace ast;

std::string dump(const Expr* e);
std::string dump(const Block& b);

std::string dump_list(const std::vector<ExprPtr>& v) {
  std::string s;
  for (const auto& e : v) s += " " + dump(e.get());
  return s;
}

std::string dump(const Expr* e) {
  if (!e) return "~";
  switch (e->kind) {
    case ExprKind::Number: {
      auto* n = static_cast<const NumberExpr*>(e);
      char buf[64];
      std::snprintf(buf, sizeof buf, "%g%s", n->value, n->imaginary ? "i" : "");
      return buf;
    }
    case ExprKind::String: {
      auto* s = static_cast<const StringExpr*>(e);
      return s->is_string ? "\"" + s->value + "\"" : "'" + s->value + "'";
    }
    case ExprKind::Ident:
      return static_cast<const IdentExpr*>(e)->name;
    case ExprKind::Colon:
      return ":";
    case ExprKind::End:
      return "end";
    case ExprKind::Unary: {
      auto* u = static_cast<const UnaryExpr*>(e);
      const char* op = u->op == UnOp::Neg ? "u-" : u->op == UnOp::Plus ? "u+" : "~";
      return std::string("(") + op + " " + dump(u->operand.get()) + ")";
    }
    case ExprKind::Postfix: {
      auto* p = static_cast<const PostfixExpr*>(e);
      return std::string("(") + (p->op == PostOp::CTranspose ? "'" : ".'") + " " +
             dump(p->operand.get()) + ")";
    }
    case ExprKind::Binary: {
      auto* b = static_cast<const BinaryExpr*>(e);
      return std::string("(") + binop_text(b->op) + " " + dump(b->lhs.get()) + " " +
             dump(b->rhs.get()) + ")";
    }
    case ExprKind::Range: {
      auto* r = static_cast<const RangeExpr*>(e);
      std::string s = "(: " + dump(r->start.get());
      if (r->step) s += " " + dump(r->step.get());
      return s + " " + dump(r->stop.get()) + ")";
    }
    case ExprKind::Index: {
      auto* x = static_cast<const IndexExpr*>(e);
      return std::string(x->is_brace ? "({} " : "(() ") + dump(x->base.get()) + dump_list(x->args) +
             ")";
    }
    case ExprKind::Field: {
      auto* f = static_cast<const FieldExpr*>(e);
      if (f->dynamic) return "(.() " + dump(f->base.get()) + " " + dump(f->dynamic.get()) + ")";
      return "(. " + dump(f->base.get()) + " " + f->name + ")";
    }
    case ExprKind::Matrix:
    case ExprKind::CellLit: {
      auto* m = static_cast<const MatrixExpr*>(e);
      std::string s = e->kind == ExprKind::Matrix ? "[" : "{";
      for (size_t r = 0; r < m->rows.size(); ++r) {
        if (r) s += ";";
        for (size_t c = 0; c < m->rows[r].size(); ++c)
          s += (c ? " " : "") + dump(m->rows[r][c].get());
      }
      return s + (e->kind == ExprKind::Matrix ? "]" : "}");
    }
    case ExprKind::AnonFn: {
      auto* a = static_cast<const AnonFnExpr*>(e);
      std::string s = "(@ (";
      for (size_t i = 0; i < a->params.size(); ++i) s += (i ? " " : "") + a->params[i];
      return s + ") " + dump(a->body.get()) + ")";
    }
    case ExprKind::FuncHandle:
      return "@" + static_cast<const FuncHandleExpr*>(e)->name;
  }
  return "?";
}

std::string dump(const Stmt* st) {
  std::string s;
  switch (st->kind) {
    case StmtKind::Expr:
      s = dump(static_cast<const ExprStmt*>(st)->expr.get());
      break;
    case StmtKind::Assign: {
      auto* a = static_cast<const AssignStmt*>(st);
      if (a->multi) {
        s = "(= [";
        for (size_t i = 0; i < a->targets.size(); ++i)
          s += (i ? " " : "") + dump(a->targets[i].get());
        s += "]";
      } else {
        s = "(= " + dump(a->targets[0].get());
      }
      s += " " + dump(a->rhs.get()) + ")";
      break;
    }
    case StmtKind::If: {
      auto* i = static_cast<const IfStmt*>(st);
      s = "(if";
      for (const auto& c : i->clauses)
        s += " (" + (c.cond ? dump(c.cond.get()) : std::string("else")) + dump(c.body) + ")";
      s += ")";
      break;
    }
    case StmtKind::For: {
      auto* f = static_cast<const ForStmt*>(st);
      s = "(for " + dump(f->var.get()) + " " + dump(f->range.get()) + dump(f->body) + ")";
      break;
    }
    case StmtKind::While: {
      auto* w = static_cast<const WhileStmt*>(st);
      s = "(while " + dump(w->cond.get()) + dump(w->body) + ")";
      break;
    }
    case StmtKind::Switch: {
      auto* w = static_cast<const SwitchStmt*>(st);
      s = "(switch " + dump(w->subject.get());
      for (const auto& c : w->cases)
        s += c.value ? " (case " + dump(c.value.get()) + dump(c.body) + ")"
                     : " (otherwise" + dump(c.body) + ")";
      s += ")";
      break;
    }
    case StmtKind::Try: {
      auto* t = static_cast<const TryStmt*>(st);
      s = "(try (" + dump(t->body).substr(t->body.empty() ? 0 : 1) + ") catch" +
          (t->catch_var.empty() ? "" : " " + t->catch_var) + " (" +
          dump(t->handler).substr(t->handler.empty() ? 0 : 1) + "))";
      break;
    }
    case StmtKind::Break:
      s = "break";
      break;
    case StmtKind::Continue:
      s = "continue";
      break;
    case StmtKind::Return:
      s = "return";
      break;
    case StmtKind::Global:
    case StmtKind::Persistent: {
      auto* d = static_cast<const DeclStmt*>(st);
      s = st->kind == StmtKind::Global ? "(global" : "(persistent";
      for (const auto& n : d->names) s += " " + n;
      s += ")";
      break;
    }
    case StmtKind::Command: {
      auto* c = static_cast<const CommandStmt*>(st);
      s = "(cmd " + c->name;
      for (const auto& a : c->args) s += " " + a;
      s += ")";
      break;
    }
  }
  bool simple = st->kind == StmtKind::Expr || st->kind == StmtKind::Assign ||
                st->kind == StmtKind::Command || st->kind == StmtKind::Global ||
                st->kind == StmtKind::Persistent || st->kind == StmtKind::Break ||
                st->kind == StmtKind::Continue || st->kind == StmtKind::Return;
  if (simple && !st->print) s += ";";
  return s;
}

std::string dump(const Block& b) {
  std::string s;
  for (const auto& st : b) s += " " + dump(st.get());
  return s;
}

std::string dump(const FunctionDef& f) {
  std::string s = "(function [";
  for (size_t i = 0; i < f.outputs.size(); ++i) s += (i ? " " : "") + f.outputs[i];
  s += "] " + f.name + " (";
  for (size_t i = 0; i < f.params.size(); ++i) s += (i ? " " : "") + f.params[i];
  s += ")" + dump(f.body);
  for (const auto& n : f.nested) s += " " + dump(*n);
  return s + ")";
}

std::string dump(const ParsedFile& f) {
  std::string s = f.is_script ? "script:" + dump(f.script_body) : "functions:";
  for (const auto& fn : f.functions) s += " " + dump(*fn);
  return s;
}

// Parses a script and dumps its statements (without the "script:" prefix).
std::string P(const std::string& src) {
  auto f = parse_source(src, "t.m");
  std::string s = dump(*f);
  return s.substr(std::string("script: ").size());
}

// Dumps the expression of `x = SRC;` / a single expression statement.
std::string E(const std::string& src) {
  auto f = parse_source("ans__ = " + src + ";", "t.m");
  auto* a = static_cast<const AssignStmt*>(f->script_body.at(0).get());
  return dump(a->rhs.get());
}

struct ErrorInfo {
  std::string id, message;
  int line = 0, column = 0;
};

ErrorInfo parse_error(const std::string& src, const std::string& path = "t.m") {
  try {
    parse_source(src, path);
  } catch (const MatlabError& e) {
    ErrorInfo info{e.identifier(), e.message()};
    if (!e.stack().empty()) {
      info.line = e.stack()[0].line;
      info.column = e.stack()[0].column;
    }
    return info;
  }
  return {"none", "parsed without error"};
}

TEST(Parser, Precedence) {
  EXPECT_EQ(E("-2^2"), "(u- (^ 2 2))");
  EXPECT_EQ(E("2^-1"), "(^ 2 (u- 1))");
  EXPECT_EQ(E("2^-1^2"), "(^ (^ 2 (u- 1)) 2)");
  EXPECT_EQ(E("a:b:c+1"), "(: a b (+ c 1))");
  EXPECT_EQ(E("1:n-1"), "(: 1 (- n 1))");
  EXPECT_EQ(E("~a == b"), "(== (~ a) b)");
  EXPECT_EQ(E("a & b | c"), "(| (& a b) c)");
  EXPECT_EQ(E("a | b & c"), "(| a (& b c))");
  EXPECT_EQ(E("a || b && c"), "(|| a (&& b c))");
  EXPECT_EQ(E("a && b | c"), "(&& a (| b c))");
  EXPECT_EQ(E("x.^2'"), "(' (.^ x 2))");
  EXPECT_EQ(E("a'*b"), "(* (' a) b)");
  EXPECT_EQ(E("-a'"), "(u- (' a))");
  EXPECT_EQ(E("a.'"), "(.' a)");
  EXPECT_EQ(E("1 + 2 * 3"), "(+ 1 (* 2 3))");
  EXPECT_EQ(E("a - b - c"), "(- (- a b) c)");
  EXPECT_EQ(E("a / b * c"), "(* (/ a b) c)");
  EXPECT_EQ(E("a \\ b .\\ c ./ d"), "(./ (.\\ (\\ a b) c) d)");
  EXPECT_EQ(E("2^3^2"), "(^ (^ 2 3) 2)");
  EXPECT_EQ(E("a < b + 1"), "(< a (+ b 1))");
  EXPECT_EQ(E("1:3 == 2"), "(== (: 1 3) 2)");
  EXPECT_EQ(E("a ~= b"), "(~= a b)");
  EXPECT_EQ(E("a != b"), "(~= a b)");
  EXPECT_EQ(E("!a"), "(~ a)");
  EXPECT_EQ(E("-x.^2"), "(u- (.^ x 2))");
  EXPECT_EQ(E("(1 + 2) * 3"), "(* (+ 1 2) 3)");
  EXPECT_EQ(E("--a"), "(u- (u- a))");
  EXPECT_EQ(E("a >= b <= c"), "(<= (>= a b) c)");
}

TEST(Parser, Literals) {
  EXPECT_EQ(E("[1 -2]"), "[1 (u- 2)]");
  EXPECT_EQ(E("[1 - 2]"), "[(- 1 2)]");
  EXPECT_EQ(E("[1 -  2]"), "[(- 1 2)]");
  EXPECT_EQ(E("[a' b']"), "[(' a) (' b)]");
  EXPECT_EQ(E("[a 'str']"), "[a 'str']");
  EXPECT_EQ(E("[x(1) (2)]"), "[(() x 1) 2]");
  EXPECT_EQ(E("[1 2; 3 4]"), "[1 2;3 4]");
  EXPECT_EQ(E("[1, 2\n 3, 4]"), "[1 2;3 4]");
  EXPECT_EQ(E("[1 2;]"), "[1 2]");
  EXPECT_EQ(E("[1 2,]"), "[1 2]");
  EXPECT_EQ(E("[\n 1 2 % first\n 3 4 ...\n 5\n]"), "[1 2;3 4 5]");
  EXPECT_EQ(E("[]"), "[]");
  EXPECT_EQ(E("{}"), "{}");
  EXPECT_EQ(E("{1, 'x'}"), "{1 'x'}");
  EXPECT_EQ(E("{1, 'a'; [], {}}"), "{1 'a';[] {}}");
  EXPECT_EQ(E("{@(x) x+1, 2}"), "{(@ (x) (+ x 1)) 2}");
  EXPECT_EQ(E("'it''s'"), "'it's'");
  EXPECT_EQ(E("\"say \"\"hi\"\"\""), "\"say \"hi\"\"");
  EXPECT_EQ(E("3i"), "3i");
  EXPECT_EQ(E("2.5j + 1e3i"), "(+ 2.5i 1000i)");
  EXPECT_EQ(E("0x1F + 0b101"), "(+ 31 5)");
  EXPECT_EQ(E("1_000_000"), "1e+06");
  EXPECT_EQ(E("[1 2]'"), "(' [1 2])");
}

TEST(Parser, IndexingAndFields) {
  EXPECT_EQ(E("x(end)"), "(() x end)");
  EXPECT_EQ(E("x(y(end))"), "(() x (() y end))");
  EXPECT_EQ(E("x(end-1, :)"), "(() x (- end 1) :)");
  EXPECT_EQ(E("x(:)"), "(() x :)");
  EXPECT_EQ(E("x([1 end])"), "(() x [1 end])");
  EXPECT_EQ(E("c{end}{1}"), "({} ({} c end) 1)");
  EXPECT_EQ(E("s.a"), "(. s a)");
  EXPECT_EQ(E("s.(name)"), "(.() s name)");
  EXPECT_EQ(E("s.a(2).b{3}"), "({} (. (() (. s a) 2) b) 3)");
  EXPECT_EQ(E("f()"), "(() f)");
  EXPECT_EQ(E("x(2:end)'"), "(' (() x (: 2 end)))");
  EXPECT_EQ(E("plot(x, LineWidth=2)"), "(() plot x 'LineWidth' 2)");
}

TEST(Parser, Handles) {
  EXPECT_EQ(E("@sin"), "@sin");
  EXPECT_EQ(E("@pkg.fn"), "@pkg.fn");
  EXPECT_EQ(E("@(x) x.^2 + a"), "(@ (x) (+ (.^ x 2) a))");
  EXPECT_EQ(E("@() 42"), "(@ () 42)");
  EXPECT_EQ(E("@ (x) x"), "(@ (x) x)");
  EXPECT_EQ(E("@(x, ~) x"), "(@ (x ~) x)");
  EXPECT_EQ(E("@(x) @(y) x + y"), "(@ (x) (@ (y) (+ x y)))");
  auto src = [](const std::string& text) {
    auto f = parse_source("f = " + text + ";", "");
    auto* a = static_cast<const AssignStmt*>(f->script_body[0].get());
    return static_cast<const AnonFnExpr*>(a->rhs.get())->source();
  };
  EXPECT_EQ(src("@(x) x.^2 + a"), "@(x)x.^2+a");
  EXPECT_EQ(src("@(x, y) [x y; 1e-3 'a''b']"), "@(x,y)[x,y;1e-3,'a''b']");
  EXPECT_EQ(src("@() disp(\"hi\")"), "@()disp(\"hi\")");
  EXPECT_EQ(src("@(v) v(end) != 2"), "@(v)v(end)~=2");
  // A nested function's text is its range of the outermost one's.
  auto f = parse_source("f = @(x) @(y) x + y;", "");
  auto* a = static_cast<const AssignStmt*>(f->script_body[0].get());
  auto* outer = static_cast<const AnonFnExpr*>(a->rhs.get());
  auto* inner = static_cast<const AnonFnExpr*>(outer->body.get());
  EXPECT_EQ(outer->source(), "@(x)@(y)x+y");
  EXPECT_EQ(inner->source(), "@(y)x+y");
  EXPECT_EQ(inner->text.get(), outer->text.get());
}

TEST(Parser, NestedAnonymousFunctionsShareOneText) {
  // 1,000 levels (this thread's 8 MiB stack allows about 1,100; the interpreter's thread has
  // a 1 GiB stack): one text shared, not 1,000 copies (20,000 levels took 1.6 GB before).
  std::string code = "f = ";
  for (int i = 0; i < 1000; ++i) code += "@() ";
  code += "7;";
  auto f = parse_source(code, "");
  auto* a = static_cast<const AssignStmt*>(f->script_body[0].get());
  const auto* e = static_cast<const AnonFnExpr*>(a->rhs.get());
  const std::string* text = e->text.get();
  int depth = 0;
  while (e->body->kind == ExprKind::AnonFn) {
    e = static_cast<const AnonFnExpr*>(e->body.get());
    ASSERT_EQ(e->text.get(), text);
    ++depth;
  }
  EXPECT_EQ(depth, 999);
  EXPECT_EQ(e->source(), "@()7");
}

TEST(Parser, NestingBeyondTheStackIsARecursionLimitError) {
  // Runs on the test's ordinary thread (8 MiB stack): the parser stops at half of it.
  auto expect_limit = [](const std::string& code) {
    try {
      parse_source(code, "deep.m");
      ADD_FAILURE() << "no error for nesting of " << code.size() << " characters";
    } catch (const MatlabError& e) {
      EXPECT_EQ(e.identifier(), "MATLAB:recursionLimit");
      EXPECT_NE(e.message().find("deep.m:1:"), std::string::npos) << e.message();
    }
  };
  const int n = 1000000;
  expect_limit("x = " + std::string(n, '(') + "1" + std::string(n, ')'));
  expect_limit("x = " + std::string(n, '[') + "1" + std::string(n, ']'));
  expect_limit("x = " + std::string(n, '-') + "1");
  expect_limit("x = 2^" + std::string(n, '-') + "1");
  std::string ifs;
  for (int i = 0; i < 200000; ++i) ifs += "if 1\n";
  try {
    parse_source(ifs, "deep.m");
    ADD_FAILURE() << "no error";
  } catch (const MatlabError& e) {
    EXPECT_TRUE(e.identifier() == "MATLAB:recursionLimit") << e.identifier();
  }
  // Moderate nesting parses.
  EXPECT_NO_THROW(parse_source("x = " + std::string(500, '(') + "1" + std::string(500, ')'), ""));
}

TEST(Parser, Statements) {
  EXPECT_EQ(P("x = 1"), "(= x 1)");
  EXPECT_EQ(P("x = 1;"), "(= x 1);");
  EXPECT_EQ(P("x = 1, y = 2; z"), "(= x 1) (= y 2); z");
  EXPECT_EQ(P("x(i).f{2} = e;"), "(= ({} (. (() x i) f) 2) e);");
  EXPECT_EQ(P("x(end+1) = 5;"), "(= (() x (+ end 1)) 5);");
  EXPECT_EQ(P("[a, ~, c] = f(1);"), "(= [a ~ c] (() f 1));");
  EXPECT_EQ(P("[a b] = deal(1, 2)"), "(= [a b] (() deal 1 2))");
  EXPECT_EQ(P("[s.a, t{2}] = f;"), "(= [(. s a) ({} t 2)] f);");
  EXPECT_EQ(P("[1 2]"), "[1 2]");
  EXPECT_EQ(P("if a, b; elseif c, d, else e; end"), "(if (a b;) (c d) (else e;))");
  EXPECT_EQ(P("if x\n  y = 1;\nend"), "(if (x (= y 1);))");
  EXPECT_EQ(P("if x, y = 1 end"), "(if (x (= y 1)))");
  EXPECT_EQ(P("for k = 1:n\n s = s + k;\nend"), "(for k (: 1 n) (= s (+ s k));)");
  EXPECT_EQ(P("for (k = 1:3) disp(k); end"), "(for k (: 1 3) (() disp k);)");
  EXPECT_EQ(P("for k = [1 2 3], end"), "(for k [1 2 3])");
  EXPECT_EQ(P("parfor i = 1:4\nend"), "(for i (: 1 4))");
  EXPECT_EQ(P("while k < 3\n k = k + 1;\n if k, break; end\n continue\nend"),
            "(while (< k 3) (= k (+ k 1)); (if (k break;)) continue)");
  EXPECT_EQ(P("switch x\n  case 1\n    a;\n  case {2, 3}\n    b;\n  otherwise\n    c;\nend"),
            "(switch x (case 1 a;) (case {2 3} b;) (otherwise c;))");
  EXPECT_EQ(P("switch s, case 'a', x = 1; end"), "(switch s (case 'a' (= x 1);))");
  EXPECT_EQ(P("try\n x = 1;\ncatch err\n disp(err.message);\nend"),
            "(try ((= x 1);) catch err ((() disp (. err message));))");
  EXPECT_EQ(P("try, x; catch, y; end"), "(try (x;) catch (y;))");
  EXPECT_EQ(P("try\n x;\ncatch disp(1)\nend"), "(try (x;) catch ((() disp 1)))");
  EXPECT_EQ(P("try\n x;\nend"), "(try (x;) catch ())");
  EXPECT_EQ(P("global a b\npersistent c"), "(global a b) (persistent c)");
  EXPECT_EQ(P("return;"), "return;");
  EXPECT_EQ(
      P("format long\nhold on;\nclose all\nclc\nclear x y\nwarning off\nmore off\ndisp hello"),
      "(cmd format long) (cmd hold on); (cmd close all) clc (cmd clear x y) "
      "(cmd warning off) (cmd more off) (cmd disp hello)");
  EXPECT_EQ(P("x = 3; x -1"), "(= x 3); (- x 1)");
  EXPECT_EQ(P("disp (x)"), "(() disp x)");
  EXPECT_EQ(P("if x\n y\nendif\nwhile 0\nendwhile\nfor i=1\nendfor"),
            "(if (x y)) (while 0) (for i 1)");
  EXPECT_EQ(P("try\nx\ncatch e\ny\nend_try_catch\nswitch 1\nendswitch"),
            "(try (x) catch e (y)) (switch 1)");
  EXPECT_EQ(P("%{\nblock\n%}\nx = 1; % trailing\n% only a comment"), "(= x 1);");
  EXPECT_EQ(P("x = 1 + ...\n    2;"), "(= x (+ 1 2));");
}

TEST(Parser, KnownWorkspaceVariables) {
  auto f = parse_source("x -1", "", std::vector<std::string>{"x"});
  EXPECT_EQ(dump(f->script_body[0].get()), "(- x 1)");
  auto g = parse_source("x -1", "", std::vector<std::string>{});
  EXPECT_EQ(dump(g->script_body[0].get()), "(cmd x -1)");
}

TEST(Parser, Locations) {
  auto f = parse_source("x = 1;\n  if a\n    y = b + c;\n  end", "t.m");
  ASSERT_EQ(f->script_body.size(), 2u);
  EXPECT_EQ(f->script_body[0]->loc.line, 1);
  EXPECT_EQ(f->script_body[0]->loc.column, 1);
  auto* i = static_cast<const IfStmt*>(f->script_body[1].get());
  EXPECT_EQ(i->loc.line, 2);
  EXPECT_EQ(i->loc.column, 3);
  auto* a = static_cast<const AssignStmt*>(i->clauses[0].body[0].get());
  EXPECT_EQ(a->loc.line, 3);
  EXPECT_EQ(a->loc.column, 5);
  EXPECT_EQ(a->rhs->loc.line, 3);
  EXPECT_EQ(a->rhs->loc.column, 11);  // the '+'
  EXPECT_EQ(a->targets[0]->loc.column, 5);
}

TEST(Parser, FunctionFiles) {
  auto f = parse_source(
      "function [a, b] = f(x, varargin)\n  a = x;\n  b = g(x);\nend\n"
      "function y = g(~)\n  y = 1;\nend\n",
      "dir/f.m");
  EXPECT_FALSE(f->is_script);
  EXPECT_EQ(f->name, "f");
  EXPECT_EQ(f->path, "dir/f.m");
  EXPECT_EQ(dump(*f),
            "functions: (function [a b] f (x varargin) (= a x); (= b (() g x));) "
            "(function [y] g (~) (= y 1);)");

  // Unterminated functions.
  auto u = parse_source("function f\ndisp(1)\nfunction y = g()\ny = 2;\n", "f.m");
  EXPECT_EQ(dump(*u), "functions: (function [] f () (() disp 1)) (function [y] g () (= y 2);)");

  // Unterminated functions with end-terminated blocks inside.
  auto v = parse_source("function f\nfor i=1:2\nend\nfunction g\nif 1, end\n", "f.m");
  EXPECT_EQ(dump(*v), "functions: (function [] f () (for i (: 1 2))) (function [] g () (if (1)))");

  // Nested functions.
  auto n = parse_source(
      "function outer\n  x = 1;\n  function inner\n    x = 2;\n  end\n  inner();\nend\n", "o.m");
  EXPECT_EQ(dump(*n),
            "functions: (function [] outer () (= x 1); (() inner); "
            "(function [] inner () (= x 2);))");
  EXPECT_EQ(n->functions[0]->loc.line, 1);
  EXPECT_EQ(n->functions[0]->nested[0]->loc.line, 3);

  // Leading comments, endfunction.
  auto c = parse_source("% help text\n\nfunction r = h()\nr = 1;\nendfunction\n", "h.m");
  EXPECT_EQ(dump(*c), "functions: (function [r] h () (= r 1);)");
}

TEST(Parser, ScriptsWithLocalFunctions) {
  auto f = parse_source("x = sq(3);\ndisp(x)\n\nfunction y = sq(v)\n  y = v^2;\nend\n", "s.m");
  EXPECT_TRUE(f->is_script);
  EXPECT_EQ(f->name, "s");
  EXPECT_EQ(dump(*f), "script: (= x (() sq 3)); (() disp x) (function [y] sq (v) (= y (^ v 2));)");
  auto empty = parse_source("", "");
  EXPECT_TRUE(empty->is_script);
  EXPECT_TRUE(empty->script_body.empty());
}

TEST(Parser, Errors) {
  struct Case {
    const char* src;
    const char* id;
    const char* message;
  };
  const Case cases[] = {
      {"x = (1 + 2", "MATLAB:unbalancedBrackets",
       "t.m:1:11: Parse error: expected ')' to close '(' opened at line 1 column 5, found end of "
       "input"},
      {"x = [1 2", "MATLAB:unbalancedBrackets", nullptr},
      {"x = [1 2)", "MATLAB:unbalancedBrackets", nullptr},
      {"y = 'abc", "MATLAB:unterminatedString",
       "t.m:1:5: Parse error: character vector is not terminated properly"},
      {"for i = 1:3\n  x = i;\n", "MATLAB:missingEnd",
       "t.m:3:1: Parse error: 'for' opened at line 1 is missing its 'end'"},
      {"x = 1;\nif x\n  while 1\n  end\n", "MATLAB:missingEnd",
       "t.m:5:1: Parse error: 'if' opened at line 2 is missing its 'end'"},
      {"x = 1 2", "MATLAB:syntax",
       "t.m:1:7: Parse error: expected an operator, ',' , ';' or end of line, found number '2'"},
      {"x = ", "MATLAB:syntax", "t.m:1:5: Parse error: expected an expression, found end of input"},
      {"x = 1 +;", "MATLAB:syntax", "t.m:1:8: Parse error: expected an expression, found ';'"},
      {"end", "MATLAB:syntax", nullptr},
      {"x + 1 = 3", "MATLAB:syntax", nullptr},
      {"f(1 2)", "MATLAB:syntax", "t.m:1:5: Parse error: expected ',' or ')', found number '2'"},
      {"s.(1", "MATLAB:unbalancedBrackets", nullptr},
      {"x = @", "MATLAB:syntax", nullptr},
      {"else", "MATLAB:syntax", nullptr},
      {"switch x\n  y = 1;\nend", "MATLAB:syntax",
       "t.m:2:3: Parse error: expected 'case', 'otherwise' or 'end', found identifier 'y'"},
      {"x = $", "MATLAB:syntax", "t.m:1:5: Parse error: invalid character '$' in the program text"},
      {"for = 3", "MATLAB:syntax", nullptr},
      {"function f\nfor i=1:2\nend\nend\nfunction g\n", "MATLAB:missingEnd",
       "t.m:6:1: Parse error: 'function' opened at line 5 is missing its 'end'"},
      {"if x\n y\nendwhile", "MATLAB:syntax",
       "t.m:3:1: Parse error: expected 'end' to close 'if' opened at line 1, found 'endwhile'"},
      {"x = [1 2 end]", "MATLAB:syntax", nullptr},
      {"a = 1;\nb = (\n2)", "MATLAB:unbalancedBrackets", nullptr},
      {"x = (1 + 2;", "MATLAB:unbalancedBrackets",
       "t.m:1:11: Parse error: expected ')' to close '(' opened at line 1 column 5, found ';'"},
      {"y = f(1, 2;", "MATLAB:unbalancedBrackets", nullptr},
  };
  for (const Case& c : cases) {
    ErrorInfo e = parse_error(c.src);
    EXPECT_EQ(e.id, c.id) << c.src << "\n" << e.message;
    if (c.message) {
      EXPECT_EQ(e.message, c.message) << c.src;
    }
    EXPECT_GT(e.line, 0) << c.src;
  }
  // The earlier syntax error wins over a later lexical one.
  EXPECT_EQ(parse_error("x = 1 2\ny = 'abc").id, "MATLAB:syntax");
  // Stack frame and a path-less message.
  try {
    parse_source("\n  x = )", "");
    FAIL();
  } catch (const MatlabError& e) {
    EXPECT_EQ(e.message(), "2:7: Parse error: unexpected ')' without a matching opening bracket");
    ASSERT_EQ(e.stack().size(), 1u);
    EXPECT_EQ(e.stack()[0].line, 2);
    EXPECT_EQ(e.stack()[0].column, 7);
    EXPECT_EQ(e.stack()[0].file, "");
  }
}

}  // namespace
}  // namespace matfuse
