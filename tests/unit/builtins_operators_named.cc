// Operators called by name (plus, minus, ..., ge, gt, uminus, ctranspose), the inverse and
// degree trigonometric functions without other tests (acosd, acoth, acsch, asech, asinh, atanh,
// cotd, cscd, secd) and the floating-point constants (eps, flintmax, realmax, realmin).
#include "builtins_check.h"

namespace matfuse::test {
namespace {

TEST(BuiltinsOperatorsNamed, BinaryTable) {
  Snippet s;
  s("a = [1 2 3]; b = [3 2 1]; c = [1; 2];");
  struct Case {
    const char* expr;
    const char* want;
  } cases[] = {
      {"plus(a, b)", "[4 4 4]"},
      {"minus(a, b)", "[-2 0 2]"},
      {"minus(a, c)", "[0 1 2; -1 0 1]"},  // implicit expansion
      {"minus(int8(-100), int8(100))", "int8(-128)"},  // saturation
      {"minus(single(1), 0.5)", "single(0.5)"},
      {"times(a, b)", "[3 4 3]"},
      {"rdivide(a, b)", "[1/3 1 3]"},
      {"rdivide(1, 0)", "Inf"},
      {"rdivide(int8(7), int8(2))", "int8(4)"},  // rounds
      {"ldivide(a, b)", "[3 1 1/3]"},
      {"ldivide(2, [4 6])", "[2 3]"},
      {"ldivide(c, a)", "[1 2 3; 0.5 1 1.5]"},
      {"lt(a, b)", "logical([1 0 0])"},
      {"le(a, b)", "logical([1 1 0])"},
      {"gt(a, b)", "logical([0 0 1])"},
      {"ge(a, b)", "logical([0 1 1])"},
      {"ne(a, b)", "logical([1 0 1])"},
      {"eq(a, b)", "logical([0 1 0])"},
      {"ge(a, c)", "logical([1 1 1; 0 1 1])"},
      {"lt(NaN, 1)", "false"},
      {"ne(NaN, NaN)", "true"},
      {"gt('b', 'a')", "true"},
      {"le(int8(5), 5.5)", "true"},
      {"gt(1+2i, 2)", "false"},  // real parts compared
      {"ne(1+2i, 1)", "true"},
      {"ge([], 1)", "logical(zeros(0, 0))"},
      {"minus(zeros(0, 3), 1)", "zeros(0, 3)"},
  };
  for (const auto& c : cases) check(s, c.expr, c.want);
  const char* mismatched[] = {"plus([1 2], [1 2 3])", "minus([1 2], [1 2 3])",
                              "ldivide([1 2], [1 2 3])", "rdivide([1 2], [1 2 3])",
                              "ge([1 2], [1 2 3])", "gt([1 2], [1 2 3])", "le([1 2], [1 2 3])",
                              "lt([1 2], [1 2 3])", "ne([1 2], [1 2 3])"};
  for (const char* code : mismatched) check_error(s, code, "MATLAB:sizeDimensionsMustMatch");
  check_error(s, "plus(1)", "MATLAB:minrhs");
  check_error(s, "minus(int8(1), int16(1))", "MATLAB:mixedIntegerTypes");
}

TEST(BuiltinsOperatorsNamed, Unary) {
  Snippet s;
  check(s, "uminus([1 -2 0])", "[-1 2 0]");
  check(s, "uminus(int8(-128))", "int8(127)");  // saturation
  check(s, "uminus(true)", "-1");             // logical becomes double
  check(s, "uminus('a')", "-97");
  check(s, "uplus([1 -2])", "[1 -2]");
  check(s, "uplus(int8(-3))", "int8(-3)");
  check(s, "uplus(true)", "1");  // logical and char become double
  check(s, "uplus('a')", "97");
  check(s, "ctranspose([1 2; 3 4])", "[1 3; 2 4]");
  check(s, "ctranspose([1+2i, 3])", "[1-2i; 3]");  // conjugates
  check(s, "ctranspose('ab')", "['a'; 'b']");
  check(s, "ctranspose(zeros(0, 3))", "zeros(3, 0)");
  check(s, "ctranspose({1, 2})", "{1; 2}");
  check_error(s, "ctranspose(ones(2, 2, 2))", "MATLAB:transpose:NDArray");
  check_error(s, "uminus({1})", "MATLAB:UndefinedFunction");
}

TEST(BuiltinsOperatorsNamed, InverseHyperbolicAndDegreeTrig) {
  Snippet s;
  check(s, "asinh([0 1 -1])", "[0 0.881373587019543 -0.881373587019543]", 1e-14);
  check(s, "atanh([0 0.5])", "[0 0.549306144334055]", 1e-14);
  check(s, "atanh(1)", "Inf");
  check(s, "atanh(2)", "complex(0.549306144334055, 1.5707963267949)", 1e-14);
  check(s, "acoth(2)", "0.549306144334055", 1e-14);
  check(s, "acoth(1)", "Inf");
  check(s, "acsch(1)", "0.881373587019543", 1e-14);
  check(s, "acsch(0)", "Inf");
  check(s, "asech(0.5)", "1.31695789692482", 1e-14);
  check(s, "asech(1)", "0");
  check(s, "acosd([1 0.5 0 -1])", "[0 60 90 180]", 1e-13);
  check(s, "acosd(2)", "complex(0, 75.4561292902169)", 1e-12);
  check(s, "cotd([45 90])", "[1 0]", 1e-15);
  check(s, "cotd(0)", "Inf");
  check(s, "cscd([30 90])", "[2 1]", 1e-14);
  check(s, "cscd(180)", "Inf");  // exact multiples of 180
  check(s, "secd([0 60])", "[1 2]", 1e-14);
  check(s, "secd(90)", "Inf");   // exact odd multiples of 90
  check(s, "asinh(single(1))", "single(0.881373587019543)", 1e-6);
  check(s, "class(secd(single(60)))", "'single'");
  check(s, "atanh([])", "[]");
  check(s, "asinh('a')", "asinh(97)");  // char is numeric
  check_error(s, "acosd({1})", "MATLAB:UndefinedFunction");
}

TEST(BuiltinsOperatorsNamed, FloatConstants) {
  Snippet s;
  check(s, "eps", "2^-52");
  check(s, "eps(1)", "2^-52");
  check(s, "eps(1000)", "2^-43");
  check(s, "eps(0)", "2^-1074");  // smallest denormal
  check(s, "eps([1 2])", "[2^-52 2^-51]");
  check(s, "eps('single')", "single(2^-23)");
  check(s, "eps(single(1))", "single(2^-23)");
  check(s, "eps(Inf)", "NaN");
  check(s, "flintmax", "2^53");
  check(s, "flintmax('single')", "single(2^24)");
  check(s, "realmax", "1.7976931348623157e308", 0);
  check(s, "realmax('single')", "single(3.4028234663852886e38)", 0);
  check(s, "realmin", "2^-1022");
  check(s, "realmin('single')", "single(2^-126)");
  check(s, "realmax('like', single(1))", "realmax('single')");
  check_error(s, "eps('x')", "MATLAB:invalidInputClass");
  check_error(s, "realmax('int8')", "MATLAB:invalidInputClass");
  check_error(s, "flintmax('int8')", "MATLAB:invalidInputClass");
  check_error(s, "realmin('int8')", "MATLAB:invalidInputClass");
}

}  // namespace
}  // namespace matfuse::test
