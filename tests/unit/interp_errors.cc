// Interpreter: error stacks, MATLAB-style error text, command syntax, resolver slots.
#include "interp_test_util.h"
#include "lang/parser.h"

namespace matfuse::test {
namespace {

TEST(InterpErrors, StackHasFileAndLine) {
  TempDir d;
  std::string f = d.write("bad.m", "function bad()\nx = 1;\ny = x(3);\nend\n");
  std::string s = d.write("main_script.m", "a = 1;\n\nbad();\n");
  Snippet r;
  try {
    r.in.run_file(s);
    FAIL() << "expected an error";
  } catch (const MatlabError& e) {
    EXPECT_EQ(e.identifier(), "MATLAB:badsubscript");
    ASSERT_EQ(e.stack().size(), 2u);
    EXPECT_EQ(e.stack()[0].name, "bad");
    EXPECT_EQ(e.stack()[0].line, 3);
    EXPECT_EQ(e.stack()[0].file, f);
    EXPECT_EQ(e.stack()[1].name, "main_script");
    EXPECT_EQ(e.stack()[1].line, 3);
    std::string text = format_error(e);
    EXPECT_NE(text.find("\nError in bad (line 3)\n"), std::string::npos) << text;
    EXPECT_NE(text.find("Error in main_script (line 3)\n"), std::string::npos) << text;
  }
}

TEST(InterpErrors, ErrorUsingBuiltin) {
  Snippet r;
  MatlabError e = r.fails("x = zeros(2) * ones(3);");
  EXPECT_FALSE(e.identifier().empty());
  e = r.fails("y = nonexistent_function_q(1);");
  EXPECT_EQ(e.identifier(), "MATLAB:UndefinedFunction");
  EXPECT_EQ(format_error(e), "Unrecognized function or variable 'nonexistent_function_q'.\n");
  MatlabError m("MATLAB:TooManyInputs", "Too many input arguments.");
  m.raised_by() = "sqrt";
  EXPECT_EQ(format_error(m), "Error using sqrt\nToo many input arguments.\n");
}

TEST(InterpErrors, OutputBeforeErrorIsKept) {
  Snippet r;
  try {
    r.in.run_text("disp('first'); error('stop:here', 'stopped');");
    FAIL();
  } catch (const MatlabError& e) {
    EXPECT_EQ(e.message(), "stopped");
  }
  EXPECT_EQ(r.out.str(), "first\n");
}

TEST(InterpCommands, CommandSyntax) {
  Snippet r;
  r("format long");
  EXPECT_EQ(r.session.format, NumericFormat::Long);
  r("format short");
  EXPECT_EQ(r.session.format, NumericFormat::Short);
  r("format compact");
  EXPECT_TRUE(r.session.compact);
  r("format loose");
  EXPECT_FALSE(r.session.compact);
  EXPECT_EQ(r("disp hello"), "hello\n");
  r("hold on\nclose all\nfigure\ndrawnow");
  r("a = 1; b = 2; c = 3;");
  r("clear a b");
  EXPECT_EQ(r.in.base_var("a"), nullptr);
  EXPECT_EQ(r.in.base_var("b"), nullptr);
  EXPECT_NE(r.in.base_var("c"), nullptr);
  r("clear");
  EXPECT_EQ(r.in.base_var("c"), nullptr);
}

TEST(InterpResolver, SlotsAssigned) {
  auto file = parse_source("function y = f(x)\nt = x + 1;\ny = t * sin(x);\ng = @(z) z + t;\nend\n",
                           "f.m");
  auto unit = std::make_shared<CodeUnit>();
  unit->file = std::move(file);
  Session s;
  Interpreter in(s);
  ast::FunctionDef& def = *unit->file->functions[0];
  Layout* L = in.resolve_function_def(*unit, def);
  ASSERT_TRUE(L);
  // Parameters first, then outputs.
  ASSERT_GE(def.frame_names.size(), 4u);
  EXPECT_EQ(def.frame_names[0], "x");
  EXPECT_EQ(def.frame_names[1], "y");
  EXPECT_GE(L->find("t"), 0);
  EXPECT_GE(L->find("sin"), 0);  // every identifier has a slot; unset means "function"
  // The anonymous function's layout: parameter z, then captured t.
  const auto& body = def.body;
  const auto& assign = static_cast<const ast::AssignStmt&>(*body[2]);
  const auto& anon = static_cast<const ast::AnonFnExpr&>(*assign.rhs);
  ASSERT_EQ(anon.frame_names.size(), 2u);
  EXPECT_EQ(anon.frame_names[0], "z");
  EXPECT_EQ(anon.frame_names[1], "t");
  ASSERT_EQ(anon.capture_outer_slots.size(), 1u);
  EXPECT_EQ(anon.capture_outer_slots[0], L->find("t"));
  // Identifiers carry their slots.
  const auto& a0 = static_cast<const ast::AssignStmt&>(*body[0]);
  EXPECT_EQ(static_cast<const ast::IdentExpr&>(*a0.targets[0]).slot, L->find("t"));
}

}  // namespace
}  // namespace matfuse::test
