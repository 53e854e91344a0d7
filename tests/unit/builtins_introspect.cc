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


TEST(BuiltinsIntrospect, ValidateattributesThreeDAndDiag) {
  Snippet s;
  s("validateattributes(rand(5,5,5), {}, {'3d'}); validateattributes(diag([1 2 3]), {}, {'diag'});");
  EXPECT_EQ(s.fails("validateattributes(ones(1,2,3,4), {}, {'3d'})").identifier(),
            "MATLAB:expected3D");
  EXPECT_EQ(s.fails("validateattributes([1 2; 3 4], {}, {'diag'})").identifier(),
            "MATLAB:expectedDiagonal");
  EXPECT_EQ(s.fails("validateattributes(ones(2,2,2), {}, {'diag'})").identifier(),
            "MATLAB:expectedDiagonal");
}

TEST(BuiltinsIntrospect, LastwarnEmptyIsZeroByZero) {
  Snippet s;
  s("lastwarn(''); [m, id] = lastwarn(); a = size(m, 1); b = size(id, 2);");
  EXPECT_EQ(s.num("a"), 0);
  EXPECT_EQ(s.num("b"), 0);
}

TEST(BuiltinsIntrospect, NchoosekLargeCoefficientWarns) {
  Snippet s;
  s("lastwarn(''); x = nchoosek(10, 3); [~, id0] = lastwarn(); ok0 = isempty(id0); "
    "y = nchoosek(100, 45); [~, id] = lastwarn(); ok = strcmp(id, 'MATLAB:nchoosek:LargeCoefficient');");
  EXPECT_EQ(s.num("x"), 120);
  EXPECT_EQ(s.num("ok0"), 1);
  EXPECT_EQ(s.num("ok"), 1);
}

TEST(BuiltinsIntrospect, SetLegacyFlagAndOptionChecks) {
  Snippet s;
  s("[c, ia, ib] = union([5 7 1], [3 1 1], 'legacy'); "
    "ok1 = isequal(c, [1 3 5 7]) && isequal(ia, [1 2]) && isequal(ib, [3 1]); "
    "[c, ia, ib] = intersect([7 1 7 7 4], [7 0 4 4 0], 'legacy'); "
    "ok2 = isequal(c, [4 7]) && isequal(ia, [5 4]) && isequal(ib, [4 1]); "
    "[y, i, j] = unique([1 1 2 3 3 3 4], 'legacy'); "
    "ok3 = isequal(i, [2 3 6 7]) && isequal(j, [1 1 2 3 3 3 4]); "
    "ok4 = isequal(size(union((1:3)', 2:5, 'legacy')), [1 5]); "
    "lastwarn(''); u = unique({'1'}, 'rows'); [~, wid] = lastwarn(); "
    "ok5 = strcmp(wid, 'MATLAB:UNIQUE:RowsFlagIgnored');");
  EXPECT_EQ(s.num("ok1"), 1);
  EXPECT_EQ(s.num("ok2"), 1);
  EXPECT_EQ(s.num("ok3"), 1);
  EXPECT_EQ(s.num("ok4"), 1);
  EXPECT_EQ(s.num("ok5"), 1);
  EXPECT_EQ(s.fails("unique(1, 'sorted', 'stable')").identifier(), "MATLAB:UNIQUE:SetOrderConflict");
  EXPECT_EQ(s.fails("unique(1, 'first', 'last')").identifier(), "MATLAB:UNIQUE:OccurrenceConflict");
  EXPECT_EQ(s.fails("unique(1, 'legacy', 'stable')").identifier(), "MATLAB:UNIQUE:SetOrderConflict");
  EXPECT_EQ(s.fails("unique(1, 2)").identifier(), "MATLAB:UNIQUE:UnknownInput");
}

TEST(BuiltinsIntrospect, CorrcoefOptionChecks) {
  Snippet s;
  s("r = corrcoef([1 2 3 4]', [2 4 5 9]', 'Alpha', 0.05, 'Rows', 'all'); ok = abs(r(1,1) - 1) < 1e-15;");
  EXPECT_EQ(s.num("ok"), 1);
  EXPECT_EQ(s.fails("corrcoef(1, 2, 'alpha', -1)").identifier(), "MATLAB:corrcoef:InvalidAlpha");
  EXPECT_EQ(s.fails("corrcoef(1, 2, 'alpha', '1')").identifier(), "MATLAB:corrcoef:InvalidAlpha");
  EXPECT_EQ(s.fails("corrcoef(1, 2, 'rows', 'foobar')").identifier(), "MATLAB:corrcoef:InvalidRows");
  EXPECT_EQ(s.fails("corrcoef(1, 2, 'alpha')").identifier(), "MATLAB:corrcoef:MissingValue");
}

TEST(BuiltinsIntrospect, Interp1ComplexPartsSeparately) {
  Snippet s;
  s("xp = 0:2:10; yp = sin(2*pi*xp/5); xi = [0 2.2 4 6.6 10]; "
    "ok1 = isequal(interp1(xp, yp + 1i*yp.^2, xi, 'pchip'), "
    "interp1(xp, yp, xi, 'pchip') + 1i*interp1(xp, yp.^2, xi, 'pchip')); "
    "ok2 = isequal(interp1(xp, yp + 1i*yp.^2, xi, 'spline'), "
    "interp1(xp, yp, xi, 'spline') + 1i*interp1(xp, yp.^2, xi, 'spline'));");
  EXPECT_EQ(s.num("ok1"), 1);
  EXPECT_EQ(s.num("ok2"), 1);
}

TEST(BuiltinsIntrospect, StrcatCharMatricesAndCells) {
  Snippet s;
  s("a = strcat(['ab ';'cde'], ['ab ';'cde']); ok1 = isequal(a, ['abab  ';'cdecde']); "
    "ok2 = isequal(strcat(['a';'b'], 'c'), ['ac';'bc']); "
    "ok3 = isequal(strcat({'ab '}, 'ab '), {'ab ab'}); "
    "ok4 = isequal(strcat('ab ', {'ab '}), {'abab '});");
  EXPECT_EQ(s.num("ok1"), 1);
  EXPECT_EQ(s.num("ok2"), 1);
  EXPECT_EQ(s.num("ok3"), 1);
  EXPECT_EQ(s.num("ok4"), 1);
}

TEST(BuiltinsIntrospect, StrsplitRegularExpression) {
  Snippet s;
  s("t = ['a' char(9) ' ' char(10) 'b']; [p, m] = strsplit(t, '\\s', 'DelimiterType', 'RegularExpression'); "
    "ok1 = isequal(p, {'a', 'b'}) && isequal(m, {[char(9) ' ' char(10)]}); "
    "[p, m] = strsplit(t, '\\s', 'DelimiterType', 'RegularExpression', 'CollapseDelimiters', false); "
    "ok2 = numel(p) == 4 && isequal(size(p{2}), [0 0]) && numel(m) == 3; "
    "q = strsplit('a,,b', ',', 'CollapseDelimiters', false); ok3 = isequal(size(q{2}), [0 0]);");
  EXPECT_EQ(s.num("ok1"), 1);
  EXPECT_EQ(s.num("ok2"), 1);
  EXPECT_EQ(s.num("ok3"), 1);
  EXPECT_EQ(s.fails("strsplit(['abc';'xyz'])").identifier(), "MATLAB:strsplit:InvalidStringType");
}

TEST(BuiltinsSignalPP, MkppUnmkppPpval) {
  Snippet s;
  s("pp = mkpp([0 1 3], [1 0 2; -1 2 0]); "  // pieces x^2+2 on [0,1), -(x-1)^2+2(x-1) on [1,3]
    "ok1 = isequal(fieldnames(pp), {'form';'breaks';'coefs';'pieces';'order';'dim'}); "
    "ok2 = strcmp(pp.form, 'pp') && pp.pieces == 2 && pp.order == 3 && pp.dim == 1; "
    "v = ppval(pp, [-1 0 0.5 1 2 4 NaN]); "
    "ok3 = isequal(v(1:6), [3 2 2.25 0 1 -3]) && isnan(v(7)); "
    "pp2 = mkpp([0 1 2], 1:8, 2); w = ppval(pp2, [0.5 1.5; 1 2]); "
    "ok4 = isequal(size(w), [2 2 2]) && isequal(size(pp2.coefs), [4 2]); "
    "[b, c, l, k, d] = unmkpp(pp2); ok5 = isequal(b, [0 1 2]) && l == 2 && k == 2 && d == 2;");
  for (const char* v : {"ok1", "ok2", "ok3", "ok4", "ok5"}) EXPECT_EQ(s.num(v), 1) << v;
  EXPECT_EQ(s.fails("mkpp(1, 1)").identifier(), "MATLAB:mkpp:BreaksTooFew");
  EXPECT_EQ(s.fails("mkpp([0 1 2], 1:5)").identifier(), "MATLAB:mkpp:PPNumberMismatchCoeffs");
  EXPECT_EQ(s.fails("ppval(struct('form', 'ab'), 2)").identifier(), "MATLAB:ppval:InvalidPP");
  EXPECT_EQ(s.fails("unmkpp(1)").identifier(), "MATLAB:unmkpp:InvalidPP");
}

TEST(BuiltinsSignalPP, Interp1PPMatchesInterp1) {
  Snippet s;
  s("xp = 0:2:10; yp = sin(2*pi*xp/5); xi = [-1 0 2.2 4 6.6 10 11]; ok = true; "
    "m = {'linear', 'nearest', 'pchip', 'spline', 'cubic'}; "
    "for i = 1:numel(m), d = ppval(interp1(xp, yp, m{i}, 'pp'), xi) - "
    "interp1(xp, yp, xi, m{i}, 'extrap'); ok = ok && max(abs(d)) < 1e-14; end; "
    "q = ppval(interp1(xp, yp, 'next', 'pp'), [0 1 2 3]); okn = isequal(q, yp([1 2 2 3])); "
    "pl = interp1(xp, yp, 'linear', 'pp'); okl = pl.order == 2 && pl.pieces == 5; "
    "pm = interp1(xp, [yp' 2*yp'], 'linear', 'pp'); "
    "okm = pm.dim == 2 && max(max(abs(ppval(pm, xi(2:6)) - "
    "interp1(xp, [yp' 2*yp'], xi(2:6))'))) < 1e-14;");
  EXPECT_EQ(s.num("ok"), 1);
  EXPECT_EQ(s.num("okn"), 1);
  EXPECT_EQ(s.num("okl"), 1);
  EXPECT_EQ(s.num("okm"), 1);
}

TEST(BuiltinsArraysSpecial, ToeplitzHankel) {
  Snippet s;
  s("ok1 = isequal(toeplitz([1 2 3]), [1 2 3; 2 1 2; 3 2 1]); "
    "ok2 = isequal(toeplitz([1 2 3], [1 -3 -5 -7]), [1 -3 -5 -7; 2 1 -3 -5; 3 2 1 -3]); "
    "ok3 = isequal(toeplitz([1 2i]), [1 2i; -2i 1]); "
    "ok4 = isequal(hankel(1:3), [1 2 3; 2 3 0; 3 0 0]); "
    "ok5 = isequal(hankel(1:3, 3:6), [1 2 3 4; 2 3 4 5; 3 4 5 6]); "
    "ok6 = isa(toeplitz(single([1 2])), 'single'); "
    "lastwarn(''); h = hankel(1:3, 4:6); [~, id] = lastwarn; "
    "ok7 = isequal(h, [1 2 3; 2 3 5; 3 5 6]) && strcmp(id, 'MATLAB:hankel:AntiDiagonalConflict'); "
    "lastwarn(''); t = toeplitz([1 2], [9 3]); [~, id2] = lastwarn; "
    "ok8 = isequal(t, [1 3; 2 1]) && strcmp(id2, 'MATLAB:toeplitz:DiagonalConflict');");
  for (const char* v : {"ok1", "ok2", "ok3", "ok4", "ok5", "ok6", "ok7", "ok8"})
    EXPECT_EQ(s.num(v), 1) << v;
  EXPECT_EQ(s.fails("toeplitz([1 2; 3 4])").identifier(), "MATLAB:toeplitz:InputNotVector");
  EXPECT_EQ(s.fails("hankel(1:4, [1 2; 3 4])").identifier(), "MATLAB:hankel:InputNotVector");
}

}  // namespace
}  // namespace matfuse::test
