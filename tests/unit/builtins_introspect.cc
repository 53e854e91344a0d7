// Introspection builtins: typecast, validateattributes, orderfields, mat2cell, inputname, and
// the interpreter-provided narginchk/evalin/assignin they work with.
#include "interp_test_util.h"

namespace matfuse::test {
namespace {

TEST(BuiltinsIntrospect, Typecast) {
  Snippet s;
  s("a = typecast(single(1), 'uint32'); b = typecast(uint8([1 0 0 0 2 0 0 0])', 'int32'); "
    "c = typecast(int16(-1), 'uint16'); d = typecast(uint32(0), 'uint8');");
  EXPECT_EQ(s.num("a"), 1065353216);
  EXPECT_EQ(s.in.base_var("a")->class_name(), "uint32");
  EXPECT_EQ(s.in.base_var("b")->dims(), Dims(2, 1));
  EXPECT_EQ(s.in.base_var("b")->tensor().get_double(1), 2);
  EXPECT_EQ(s.num("c"), 65535);
  EXPECT_EQ(s.in.base_var("d")->dims(), Dims(1, 4));
  EXPECT_EQ(s.fails("typecast(uint8([1 2 3]), 'int16')").identifier(),
            "MATLAB:typecast:tooFewInputs");
  EXPECT_EQ(s.fails("typecast('ab', 'uint8')").identifier(), "MATLAB:typecast:inputMustBeNumeric");
  EXPECT_EQ(s.fails("typecast(1, 'logical')").identifier(), "MATLAB:typecast:invalidType");
}

TEST(BuiltinsIntrospect, ValidateattributesPassesAndFails) {
  Snippet s;
  s("validateattributes(int8([1 2 3]), {'integer'}, {'positive', 'row', 'increasing', "
    "'numel', 3, 'size', [1 NaN], '<=', 3});");
  struct Case {
    const char* code;
    const char* id;
  } cases[] = {
      {"validateattributes(-1, {'numeric'}, {'positive'})", "MATLAB:expectedPositive"},
      {"validateattributes(-1, {'numeric'}, {'nonnegative'})", "MATLAB:expectedNonnegative"},
      {"validateattributes(1.5, {'double'}, {'integer'})", "MATLAB:expectedInteger"},
      {"validateattributes(Inf, {'double'}, {'finite'})", "MATLAB:expectedFinite"},
      {"validateattributes([], {'double'}, {'nonempty'})", "MATLAB:expectedNonempty"},
      {"validateattributes([1 2], {'double'}, {'scalar'})", "MATLAB:expectedScalar"},
      {"validateattributes(ones(2), {'double'}, {'vector'})", "MATLAB:expectedVector"},
      {"validateattributes([1;2], {'double'}, {'row'})", "MATLAB:expectedRow"},
      {"validateattributes([1 2], {'double'}, {'column'})", "MATLAB:expectedColumn"},
      {"validateattributes(ones(2,2,2), {'double'}, {'2d'})", "MATLAB:expected2D"},
      {"validateattributes([1 2], {'double'}, {'numel', 3})", "MATLAB:incorrectNumel"},
      {"validateattributes([1 2], {'double'}, {'size', [2 1]})", "MATLAB:incorrectSize"},
      {"validateattributes(1i, {'double'}, {'real'})", "MATLAB:expectedReal"},
      {"validateattributes(NaN, {'double'}, {'nonnan'})", "MATLAB:expectedNonNaN"},
      {"validateattributes([2 1], {'double'}, {'increasing'})", "MATLAB:expectedIncreasing"},
      {"validateattributes('a', {'numeric'}, {})", "MATLAB:invalidType"},
      {"validateattributes(int8(1), {'float'}, {})", "MATLAB:invalidType"},
      {"validateattributes(1, {'double'}, {'bogus'})",
       "MATLAB:validateattributes:badAttributeString"},
  };
  for (const auto& c : cases) EXPECT_EQ(s.fails(c.code).identifier(), c.id) << c.code;
  MatlabError e = s.fails("validateattributes(0, {'double'}, {'positive'}, 'f', 'alpha', 2)");
  EXPECT_EQ(std::string(e.message()), "Expected input number 2, alpha, to be positive.");
}

TEST(BuiltinsIntrospect, NarginchkInFunction) {
  TempDir d;
  d.write("nf.m", "function r = nf(varargin)\n  narginchk(1, 2);\n  r = nargin;\nend\n");
  Snippet s;
  s.in.add_path(d.path.string());
  s("a = nf(1, 2);");
  EXPECT_EQ(s.num("a"), 2);
  EXPECT_EQ(s.fails("nf()").identifier(), "MATLAB:narginchk:notEnoughInputs");
  EXPECT_EQ(s.fails("nf(1, 2, 3)").identifier(), "MATLAB:narginchk:tooManyInputs");
}

TEST(BuiltinsIntrospect, OrderfieldsForms) {
  Snippet s;
  s("s = struct('b', 1, 'a', 2, 'c', 3); [t, p] = orderfields(s); f = fieldnames(t); "
    "ok1 = isequal(f', {'a', 'b', 'c'}) && isequal(p, [2; 1; 3]) && t.a == 2; "
    "u = orderfields(s, {'c', 'a', 'b'}); ok2 = isequal(fieldnames(u)', {'c', 'a', 'b'}); "
    "v = orderfields(s, [3 2 1]); ok3 = isequal(fieldnames(v)', {'c', 'a', 'b'}); "
    "w = orderfields(s, struct('c', 0, 'b', 0, 'a', 0)); fw = fieldnames(w); ok4 = strcmp(fw{1}, 'c');");
  for (const char* v : {"ok1", "ok2", "ok3", "ok4"}) EXPECT_EQ(s.num(v), 1) << v;
  EXPECT_EQ(s.fails("orderfields(s, {'a'})").identifier(), "MATLAB:orderfields:StructFieldMismatch");
  EXPECT_EQ(s.fails("orderfields(s, [1 1 2])").identifier(), "MATLAB:orderfields:InvalidPermutation");
  EXPECT_EQ(s.fails("orderfields(5)").identifier(), "MATLAB:orderfields:InvalidInput");
}

TEST(BuiltinsIntrospect, Mat2cellBlocks) {
  Snippet s;
  s("A = reshape(1:12, 3, 4); C = mat2cell(A, [1 2], [3 1]); sz = size(C); "
    "ok1 = isequal(sz, [2 2]) && isequal(C{2,1}, [2 5 8; 3 6 9]) && isequal(C{1,2}, 10); "
    "D = mat2cell(A, [2 1]); ok2 = isequal(size(D), [2 1]) && isequal(D{2}, [3 6 9 12]); "
    "E = mat2cell({1, 2, 3}, 1, [2 1]); ok3 = iscell(E{1}) && numel(E{1}) == 2; "
    "F = mat2cell(int8(1:4), 1, [1 3]); ok4 = isa(F{2}, 'int8') && isequal(F{2}, int8(2:4));");
  for (const char* v : {"ok1", "ok2", "ok3", "ok4"}) EXPECT_EQ(s.num(v), 1) << v;
  EXPECT_EQ(s.fails("mat2cell(A, [1 1], 4)").identifier(), "MATLAB:mat2cell:DimensionMismatch");
  EXPECT_EQ(s.fails("mat2cell(A, [-1 4], 4)").identifier(), "MATLAB:mat2cell:InvalidDimension");
}

TEST(BuiltinsIntrospect, EvalinAssigninIsaIsfieldInputname) {
  TempDir d;
  d.write("setb.m", "function setb()\n  assignin('base', 'zz', 41);\n  y = evalin('base', 'zz + 1');\n  assignin('base', 'yy', y);\nend\n");
  Snippet s;
  s.in.add_path(d.path.string());
  s("setb(); st.a = 1; f = isfield(st, {'a', 'q'}); n = isa(int8(1), 'numeric') + "
    "isa(single(1), 'float') + isa(uint16(1), 'integer') + isa(true, 'numeric');");
  EXPECT_EQ(s.num("zz"), 41);
  EXPECT_EQ(s.num("yy"), 42);
  EXPECT_EQ(s.in.base_var("f")->dims(), Dims(1, 2));
  EXPECT_EQ(s.in.base_var("f")->tensor().get_double(1), 0);
  EXPECT_EQ(s.num("n"), 3);
  EXPECT_EQ(s.fails("inputname(1)").identifier(), "matfuse:notAvailable");
}

}  // namespace
}  // namespace matfuse::test
