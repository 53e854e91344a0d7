// parfor variable classification (parallel/classify.h) on parsed loops: each class, the
// reduction kinds, the slicing forms, and the errors of loops that cannot be classified.
#include <gtest/gtest.h>

#include <cmath>
#include <set>

#include "lang/parser.h"
#include "parallel/classify.h"
#include "runtime/error.h"

namespace matfuse::parallel {
namespace {

struct Parsed {
  std::unique_ptr<ast::ParsedFile> file;
  const ast::ForStmt* loop = nullptr;
};

Parsed parse_loop(const std::string& code) {
  Parsed p;
  p.file = parse_source(code, "");
  for (const auto& s : p.file->script_body)
    if (s->kind == ast::StmtKind::For && static_cast<const ast::ForStmt&>(*s).parfor)
      p.loop = static_cast<const ast::ForStmt*>(s.get());
  EXPECT_NE(p.loop, nullptr);
  return p;
}

/// Classifies the first parfor of code; `defined` are the variables that exist before it.
ParforPlan classify(const std::string& code, std::set<std::string> defined) {
  Parsed p = parse_loop(code);
  return classify_parfor(*p.loop, [&](const std::string& n) { return defined.count(n) > 0; });
}

MatlabError classify_error(const std::string& code, std::set<std::string> defined) {
  try {
    classify(code, defined);
  } catch (const MatlabError& e) {
    return e;
  }
  ADD_FAILURE() << "no error for: " << code;
  return MatlabError("", "");
}

TEST(ParforClassify, EveryClassInOneLoop) {
  ParforPlan p = classify(
      "parfor i = 1:n\n"
      "  t = A(i, :) * c;\n"
      "  y(i) = sum(t) + f(i);\n"
      "  s = s + t(1);\n"
      "end\n",
      {"n", "A", "c", "y", "s"});
  EXPECT_EQ(p.loop_var, "i");
  EXPECT_EQ(p.vars.at("i"), VarClass::Loop);
  EXPECT_EQ(p.vars.at("t"), VarClass::Temporary);
  EXPECT_EQ(p.vars.at("A"), VarClass::Sliced);
  EXPECT_EQ(p.vars.at("y"), VarClass::Sliced);
  EXPECT_EQ(p.vars.at("c"), VarClass::Broadcast);
  EXPECT_EQ(p.vars.at("s"), VarClass::Reduction);
  EXPECT_EQ(p.vars.count("f"), 0u);    // a function: not defined, not assigned
  EXPECT_EQ(p.vars.count("sum"), 0u);
  EXPECT_TRUE(p.sliced.at("A").input);
  EXPECT_FALSE(p.sliced.at("A").output);
  EXPECT_EQ(p.sliced.at("A").position, 0);
  EXPECT_EQ(p.sliced.at("A").nsubs, 2);
  EXPECT_TRUE(p.sliced.at("y").output);
  EXPECT_EQ(p.reductions.at("s").kind, ReductionKind::Plus);
  EXPECT_EQ(p.broadcast, std::vector<std::string>{"c"});
  EXPECT_EQ(p.temporaries, std::vector<std::string>{"t"});
}

TEST(ParforClassify, ReductionKinds) {
  struct Case {
    const char* stmt;
    ReductionKind kind;
  } cases[] = {
      {"x = x + i;", ReductionKind::Plus},       {"x = i + x;", ReductionKind::Plus},
      {"x = x - i;", ReductionKind::Plus},       {"x = x + i - 2*i;", ReductionKind::Plus},
      {"x = x * M(i);", ReductionKind::Times},   {"x = M(i) * x;", ReductionKind::TimesLeft},
      {"x = x .* i;", ReductionKind::ElemTimes}, {"x = x & i > 0;", ReductionKind::And},
      {"x = x | i > 0;", ReductionKind::Or},     {"x = [x, i];", ReductionKind::HorzRight},
      {"x = [i x];", ReductionKind::HorzLeft},   {"x = [x; i];", ReductionKind::VertRight},
      {"x = [i; x];", ReductionKind::VertLeft},  {"x = min(x, i);", ReductionKind::FnRight},
      {"x = union(i, x);", ReductionKind::FnLeft},
  };
  for (const Case& c : cases) {
    ParforPlan p = classify(std::string("parfor i = 1:4\n") + c.stmt + "\nend\n", {"x", "M"});
    ASSERT_EQ(p.vars.count("x"), 1u) << c.stmt;
    EXPECT_EQ(p.vars.at("x"), VarClass::Reduction) << c.stmt;
    EXPECT_EQ(p.reductions.at("x").kind, c.kind) << c.stmt;
  }
  ParforPlan p = classify("parfor i = 1:4\nx = max(x, i);\nif i > 2\nx = max(x, 2*i);\nend\nend\n",
                          {"x"});
  EXPECT_EQ(p.vars.count("x"), 1u);
  EXPECT_EQ(p.reductions.at("x").function, "max");
  MatlabError e = classify_error("parfor i = 1:4\nx = max(x, i);\nx = min(x, i);\nend\n", {"x"});
  EXPECT_EQ(e.identifier(), "MATLAB:parfor:UnclassifiedVariable");
  e = classify_error("parfor i = 1:4\nx = x + i;\nx = x * i;\nend\n", {"x"});
  EXPECT_EQ(e.identifier(), "MATLAB:parfor:UnclassifiedVariable");
}

TEST(ParforClassify, SlicingForms) {
  ParforPlan p = classify(
      "parfor k = 1:n\n"
      "  a = B(k+1, :, end) + C{k} + D(2, k-1) + E(j, k + off);\n"
      "  for j2 = 1:3\n"
      "    Z(k, j2) = a;\n"
      "  end\n"
      "end\n",
      {"n", "B", "C", "D", "E", "j", "off", "Z"});
  EXPECT_EQ(p.sliced.at("B").offset, 1);
  EXPECT_EQ(p.sliced.at("B").nsubs, 3);
  EXPECT_TRUE(p.sliced.at("C").brace);
  EXPECT_EQ(p.sliced.at("D").position, 1);
  EXPECT_EQ(p.sliced.at("D").offset, -1);
  EXPECT_EQ(p.sliced.at("E").offset_var, "off");
  EXPECT_EQ(p.vars.at("j"), VarClass::Broadcast);
  EXPECT_EQ(p.vars.at("Z"), VarClass::Sliced);  // a nested for index in another subscript
  EXPECT_EQ(p.vars.at("j2"), VarClass::Temporary);
  // Read with two different index forms: broadcast (read only), not sliced.
  p = classify("parfor k = 1:3\n  y = x(k) + x(k+1);\nend\n", {"x"});
  EXPECT_EQ(p.vars.at("x"), VarClass::Broadcast);
  // x(2*k) is no sliced form; x read whole is broadcast.
  p = classify("parfor k = 1:3\n  y = x(2*k) + numel(x);\nend\n", {"x"});
  EXPECT_EQ(p.vars.at("x"), VarClass::Broadcast);
  // A struct array sliced output through a field.
  p = classify("parfor k = 1:3\n  s(k).a = k;\nend\n", {});
  EXPECT_EQ(p.vars.at("s"), VarClass::Sliced);
}

TEST(ParforClassify, TemporariesAndAnonymousFunctions) {
  ParforPlan p = classify(
      "parfor k = 1:3\n"
      "  g = @(v) v + w;\n"
      "  t = zeros(1, 3);\n"
      "  t(2) = g(k);\n"
      "  try\n"
      "    r(k) = t(2);\n"
      "  catch err\n"
      "  end\n"
      "end\n",
      {"w"});
  EXPECT_EQ(p.vars.at("g"), VarClass::Temporary);
  EXPECT_EQ(p.vars.at("t"), VarClass::Temporary);
  EXPECT_EQ(p.vars.at("err"), VarClass::Temporary);
  EXPECT_EQ(p.vars.at("w"), VarClass::Broadcast);  // captured by the anonymous function
  EXPECT_EQ(p.vars.at("r"), VarClass::Sliced);
  EXPECT_EQ(p.vars.count("v"), 0u);  // a parameter, not a variable of the loop
}

TEST(ParforClassify, Errors) {
  struct Case {
    const char* body;
    const char* id;
  } cases[] = {
      {"x(2) = k;", "MATLAB:parfor:UnclassifiedVariable"},
      {"x(k) = 1; y = x(k+1);", "MATLAB:parfor:UnclassifiedVariable"},
      {"x(k) = 1; y = x;", "MATLAB:parfor:UnclassifiedVariable"},
      {"s = s + k; disp(s)", "MATLAB:parfor:UnclassifiedVariable"},
      {"q.f = k;", "MATLAB:parfor:UnclassifiedVariable"},
      {"k = 2;", "MATLAB:parfor:LoopVariableAssigned"},
      {"break", "MATLAB:parfor:IllegalStatement"},
      {"return", "MATLAB:parfor:IllegalStatement"},
      {"global g", "MATLAB:parfor:IllegalStatement"},
      {"eval('a = 1');", "MATLAB:parfor:TransparencyViolation"},
      {"clear x", "MATLAB:parfor:TransparencyViolation"},
  };
  for (const Case& c : cases) {
    MatlabError e =
        classify_error(std::string("parfor k = 1:3\n") + c.body + "\nend\n", {"x", "s", "q"});
    EXPECT_EQ(e.identifier(), c.id) << c.body;
  }
  // break inside a nested loop is fine.
  EXPECT_NO_THROW(classify("parfor k = 1:3\nfor j = 1:2\nbreak\nend\nend\n", {}));
  MatlabError e = classify_error("parfor k = 1:3\nx(2) = k;\nend\n", {"x"});
  EXPECT_EQ(e.message().substr(0, 48), "The variable x in a parfor cannot be classified.");
}

TEST(ParforClassify, RangeMustBeConsecutiveIncreasingIntegers) {
  EXPECT_NO_THROW(check_parfor_range({}));
  EXPECT_NO_THROW(check_parfor_range({-2, -1, 0, 1}));
  for (const std::vector<double>& bad :
       {std::vector<double>{0, 0.2, 0.4}, {1, 3, 5}, {3, 2, 1}, {1, 1}, {1, std::nan("")}}) {
    try {
      check_parfor_range(bad);
      ADD_FAILURE() << "no error";
    } catch (const MatlabError& e) {
      EXPECT_EQ(e.identifier(), "MATLAB:parfor:InvalidRange");
      EXPECT_EQ(e.message(), "The range of a parfor-loop must be increasing consecutive integers.");
    }
  }
}

}  // namespace
}  // namespace matfuse::parallel
