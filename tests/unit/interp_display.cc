// Golden-string tests of MATLAB value display (display_value / disp_value).
// Expected strings follow the MATLAB R2023 command window (format loose, width 80).
#include <gtest/gtest.h>

#include <sstream>

#include "interp/display.h"

namespace matfuse {
namespace {

Value mat(int64_t rows, int64_t cols, std::initializer_list<double> row_major,
          ClassId cls = ClassId::Double) {
  Tensor t = Tensor::uninit(cls, Dims(rows, cols));
  int64_t k = 0;
  for (double v : row_major) {
    t.set_double((k % cols) * rows + k / cols, v);
    ++k;
  }
  return Value(t);
}

Value cplx(std::initializer_list<std::complex<double>> row) {
  Tensor t = Tensor::uninit(ClassId::Double, Dims(1, static_cast<int64_t>(row.size())), true);
  int64_t k = 0;
  for (auto z : row) t.set_complex(k++, z);
  return Value(t);
}

Value strings(std::initializer_list<const char*> row) {
  StringArray s(Dims(1, static_cast<int64_t>(row.size())));
  int64_t k = 0;
  for (auto* x : row) s.at(k++) = std::string(x);
  return Value(s);
}

class Handle : public FunctionObject {
public:
  explicit Handle(std::string t) : text_(std::move(t)) {}
  std::string display() const override { return text_; }
  std::string name() const override { return ""; }

private:
  std::string text_;
};

std::string show(const Value& v, const char* name = "x",
                 NumericFormat f = NumericFormat::Short, bool compact = false) {
  Session s;
  s.format = f;
  s.compact = compact;
  std::ostringstream os;
  display_value(os, v, name, s);
  return os.str();
}

std::string dsp(const Value& v, NumericFormat f = NumericFormat::Short) {
  Session s;
  s.format = f;
  std::ostringstream os;
  disp_value(os, v, s);
  return os.str();
}

// ----- double scalars -----------------------------------------------------------------

TEST(Display, IntegerScalar) { EXPECT_EQ(show(5.0), "x =\n\n     5\n\n"); }
TEST(Display, NegativeIntegerScalar) { EXPECT_EQ(show(-5.0), "x =\n\n    -5\n\n"); }
TEST(Display, NonIntegerScalar) { EXPECT_EQ(show(M_PI), "x =\n\n    3.1416\n\n"); }
TEST(Display, NegativeNonIntegerScalar) { EXPECT_EQ(show(-M_PI), "x =\n\n   -3.1416\n\n"); }
TEST(Display, TwoDigitScalar) { EXPECT_EQ(show(12.3456789), "x =\n\n   12.3457\n\n"); }
TEST(Display, LargeIntegerScalar) { EXPECT_EQ(show(2020.0), "x =\n\n        2020\n\n"); }
// MathWorks Answers 296466: B = 1234.56789 displays 1.2346e+03 in format short.
TEST(Display, LargeScalarUsesENotation) { EXPECT_EQ(show(1234.56789), "x =\n\n   1.2346e+03\n\n"); }
TEST(Display, SmallScalarUsesENotation) { EXPECT_EQ(show(1e-4), "x =\n\n   1.0000e-04\n\n"); }
TEST(Display, NonFiniteScalars) {
  EXPECT_EQ(show(NAN), "x =\n\n   NaN\n\n");
  EXPECT_EQ(show(INFINITY), "x =\n\n   Inf\n\n");
  EXPECT_EQ(show(-INFINITY), "x =\n\n  -Inf\n\n");
}
TEST(Display, AnsName) { EXPECT_EQ(show(7.0, "ans"), "ans =\n\n     7\n\n"); }
TEST(Display, FormatLongScalar) {
  EXPECT_EQ(show(M_PI, "x", NumericFormat::Long), "x =\n\n   3.141592653589793\n\n");
  EXPECT_EQ(show(1.0 / 3, "x", NumericFormat::Long), "x =\n\n   0.333333333333333\n\n");
  EXPECT_EQ(show(1234.5, "x", NumericFormat::Long), "x =\n\n   1.234500000000000e+03\n\n");
  EXPECT_EQ(show(5.0, "x", NumericFormat::Long), "x =\n\n     5\n\n");
}
TEST(Display, FormatShortE) { EXPECT_EQ(show(M_PI, "x", NumericFormat::ShortE), "x =\n\n   3.1416e+00\n\n"); }
TEST(Display, Compact) {
  EXPECT_EQ(show(5.0, "x", NumericFormat::Short, true), "x =\n     5\n");
  EXPECT_EQ(show(mat(1, 2, {1, 2}), "x", NumericFormat::Short, true), "x =\n     1     2\n");
}

// ----- double matrices ----------------------------------------------------------------

TEST(Display, IntegerRow) { EXPECT_EQ(show(mat(1, 3, {1, 2, 3})), "x =\n\n     1     2     3\n\n"); }
TEST(Display, MagicFour) {
  EXPECT_EQ(show(mat(4, 4, {16, 2, 3, 13, 5, 11, 10, 8, 9, 7, 6, 12, 4, 14, 15, 1}), "ans"),
            "ans =\n\n    16     2     3    13\n     5    11    10     8\n"
            "     9     7     6    12\n     4    14    15     1\n\n");
}
TEST(Display, IntegerMatrixWithNegativesAndNonFinite) {
  EXPECT_EQ(show(mat(1, 4, {-1, 100, NAN, -INFINITY})), "x =\n\n    -1   100   NaN  -Inf\n\n");
}
TEST(Display, WideIntegers) {
  EXPECT_EQ(show(mat(1, 2, {1, 2020})), "x =\n\n           1        2020\n\n");
}
TEST(Display, NonIntegerMatrixZerosPrintAsZero) {
  EXPECT_EQ(show(mat(2, 3, {1.5, NAN, -INFINITY, 0, 2, 3})),
            "x =\n\n    1.5000       NaN      -Inf\n         0    2.0000    3.0000\n\n");
}
TEST(Display, ScaleFactorLarge) {
  EXPECT_EQ(show(mat(1, 2, {1000.5, 1})), "x =\n\n   1.0e+03 *\n\n    1.0005    0.0010\n\n");
  EXPECT_EQ(show(mat(1, 2, {225323.23, 523.23})),
            "x =\n\n   1.0e+05 *\n\n    2.2532    0.0052\n\n");
}
TEST(Display, ScaleFactorSmall) {
  EXPECT_EQ(show(mat(1, 2, {1e-5, 2e-5})), "x =\n\n   1.0e-05 *\n\n    1.0000    2.0000\n\n");
}
TEST(Display, NoScaleForTinyNextToLarge) {
  EXPECT_EQ(show(mat(1, 2, {3.2376, 9.2534e-7})), "x =\n\n    3.2376    0.0000\n\n");
}
TEST(Display, ColumnsSplitIntegers) {
  Tensor t = Tensor::uninit(ClassId::Double, Dims(1, 20));
  for (int i = 0; i < 20; ++i) t.set_double(i, i + 1);
  std::string first = "  Columns 1 through 13\n\n";
  for (int i = 1; i <= 13; ++i) first += (i < 10 ? "     " : "    ") + std::to_string(i);
  std::string second = "  Columns 14 through 20\n\n";
  for (int i = 14; i <= 20; ++i) second += "    " + std::to_string(i);
  EXPECT_EQ(show(Value(t)), "x =\n\n" + first + "\n\n" + second + "\n\n");
}
TEST(Display, ColumnsSplitNonIntegers) {
  Tensor t = Tensor::uninit(ClassId::Double, Dims(1, 10));
  for (int i = 0; i < 10; ++i) t.set_double(i, 0.5);
  std::string row8, row2;
  for (int i = 0; i < 8; ++i) row8 += "    0.5000";
  for (int i = 0; i < 2; ++i) row2 += "    0.5000";
  EXPECT_EQ(show(Value(t)), "x =\n\n  Columns 1 through 8\n\n" + row8 +
                                "\n\n  Columns 9 through 10\n\n" + row2 + "\n\n");
}
TEST(Display, FormatLongMatrix) {
  EXPECT_EQ(show(mat(2, 1, {M_PI, 1}), "x", NumericFormat::Long),
            "x =\n\n   3.141592653589793\n   1.000000000000000\n\n");
}
TEST(Display, NdPages) {
  Tensor t = Tensor::zeros(ClassId::Double, Dims({1, 2, 2}));
  for (int i = 0; i < 4; ++i) t.set_double(i, i + 1);
  EXPECT_EQ(show(Value(t)),
            "x(:,:,1) =\n\n     1     2\n\n\nx(:,:,2) =\n\n     3     4\n\n");
}

// ----- empties ------------------------------------------------------------------------

TEST(Display, EmptyDouble) { EXPECT_EQ(show(Value()), "x =\n\n     []\n\n"); }
TEST(Display, EmptyShapes) {
  EXPECT_EQ(show(Value(Tensor::zeros(ClassId::Double, Dims(0, 3)))),
            "x =\n\n  0\xC3\x97" "3 empty double matrix\n\n");
  EXPECT_EQ(show(Value(Tensor::zeros(ClassId::Double, Dims(1, 0)))),
            "x =\n\n  1\xC3\x97" "0 empty double row vector\n\n");
  EXPECT_EQ(show(Value::from_chars("")), "x =\n\n  0\xC3\x97" "0 empty char array\n\n");
  EXPECT_EQ(show(Value(CellArray())), "x =\n\n  0\xC3\x97" "0 empty cell array\n\n");
}

// ----- other classes ------------------------------------------------------------------

TEST(Display, SingleScalar) {
  EXPECT_EQ(show(Value(Tensor::scalar(M_PI, ClassId::Single))), "x =\n\n  single\n\n    3.1416\n\n");
}
TEST(Display, IntegerClassScalar) {
  EXPECT_EQ(show(Value(Tensor::scalar(5, ClassId::Int8))), "x =\n\n  int8\n\n   5\n\n");
  EXPECT_EQ(show(Value(Tensor::scalar(-5, ClassId::Int8))), "x =\n\n  int8\n\n   -5\n\n");
}
TEST(Display, IntegerClassRow) {
  EXPECT_EQ(show(mat(1, 2, {10, 200}, ClassId::Int32)),
            "x =\n\n  1\xC3\x97" "2 int32 row vector\n\n    10   200\n\n");
}
TEST(Display, LogicalScalarAndArray) {
  EXPECT_EQ(show(Value::logical(true)), "x =\n\n  logical\n\n   1\n\n");
  EXPECT_EQ(show(mat(1, 2, {1, 0}, ClassId::Logical)),
            "x =\n\n  1\xC3\x97" "2 logical array\n\n   1   0\n\n");
}
TEST(Display, CharRowAndMatrix) {
  EXPECT_EQ(show(Value::from_chars("hello")), "x =\n\n    'hello'\n\n");
  Tensor t = Tensor::uninit(ClassId::Char, Dims(2, 2));
  char16_t* d = t.mutable_data<char16_t>();
  d[0] = u'a'; d[1] = u'c'; d[2] = u'b'; d[3] = u'd';
  EXPECT_EQ(show(Value(t)), "x =\n\n  2\xC3\x97" "2 char array\n\n    'ab'\n    'cd'\n\n");
}
TEST(Display, StringScalarAndArray) {
  EXPECT_EQ(show(Value::from_string("hello")), "x = \n\n    \"hello\"\n\n");
  EXPECT_EQ(show(strings({"a", "bb"})),
            "x = \n\n  1\xC3\x97" "2 string array\n\n    \"a\"    \"bb\"\n\n");
}
TEST(Display, ComplexScalarAndRow) {
  EXPECT_EQ(show(Value(Tensor::complex_scalar({3, 4}))), "x =\n\n   3.0000 + 4.0000i\n\n");
  EXPECT_EQ(show(cplx({{1, 2}, {3, -4}})), "x =\n\n   1.0000 + 2.0000i   3.0000 - 4.0000i\n\n");
}
TEST(Display, CellArray) {
  CellArray c(Dims(1, 2));
  c.at(0) = 1.0;
  c.at(1) = Value::from_chars("abc");
  EXPECT_EQ(show(Value(c), "c"), "c =\n\n  1\xC3\x97" "2 cell array\n\n    {[1]}    {'abc'}\n\n");
}
TEST(Display, CellColumnPadding) {
  CellArray c(Dims(2, 2));
  c.at(0) = 1.0;
  c.at(1) = 22.0;
  c.at(2) = Value::from_chars("x");
  c.at(3) = Value::from_chars("abc");
  EXPECT_EQ(dsp(Value(c)), "    {[ 1]}    {'x'  }\n    {[22]}    {'abc'}\n");
}
TEST(Display, CellElementSummaries) {
  CellArray c(Dims(1, 4));
  c.at(0) = mat(1, 3, {1, 2, 3});
  c.at(1) = mat(2, 2, {1, 2, 3, 4});
  c.at(2) = Value(CellArray());
  c.at(3) = Value::from_chars("");
  EXPECT_EQ(dsp(Value(c)),
            "    {[1 2 3]}    {2\xC3\x97" "2 double}    {0\xC3\x97" "0 cell}    {0\xC3\x97"
            "0 char}\n");
}
TEST(Display, ScalarStruct) {
  StructArray s;
  s.add_field("a");
  s.add_field("b");
  s.at(0, 0) = 1.0;
  s.at(0, 1) = Value::from_chars("x");
  EXPECT_EQ(show(Value(s), "s"), "s = \n\n  struct with fields:\n\n    a: 1\n    b: 'x'\n\n");
}
TEST(Display, StructFieldAlignmentAndValues) {
  StructArray s;
  s.add_field("a");
  s.add_field("abc");
  s.add_field("m");
  s.add_field("e");
  s.at(0, 0) = M_PI;
  s.at(0, 1) = mat(1, 3, {1, 2, 3});
  s.at(0, 2) = mat(2, 2, {1, 2, 3, 4});
  EXPECT_EQ(dsp(Value(s)),
            "      a: 3.1416\n    abc: [1 2 3]\n      m: [2\xC3\x97" "2 double]\n      e: []\n");
}
TEST(Display, StructArray) {
  StructArray s(Dims(1, 2));
  s.add_field("a");
  s.add_field("b");
  EXPECT_EQ(show(Value(s), "s"),
            "s = \n\n  1\xC3\x97" "2 struct array with fields:\n\n    a\n    b\n\n");
}
TEST(Display, FunctionHandle) {
  Value f(std::shared_ptr<const FunctionObject>(std::make_shared<Handle>("@(x)x.^2")));
  EXPECT_EQ(show(f, "f"), "f =\n\n  function_handle with value:\n\n    @(x)x.^2\n\n");
  EXPECT_EQ(dsp(f), "    @(x)x.^2\n");
}

// ----- disp ---------------------------------------------------------------------------

TEST(Disp, Numbers) {
  EXPECT_EQ(dsp(5.0), "     5\n");
  EXPECT_EQ(dsp(M_PI), "    3.1416\n");
  EXPECT_EQ(dsp(mat(1, 3, {1, 2, 3})), "     1     2     3\n");
  EXPECT_EQ(dsp(mat(1, 2, {1000.5, 1})), "   1.0e+03 *\n\n    1.0005    0.0010\n");
  EXPECT_EQ(dsp(Value(Tensor::scalar(5, ClassId::Int8))), "   5\n");
}
TEST(Disp, TextAndEmpty) {
  EXPECT_EQ(dsp(Value::from_chars("abc")), "abc\n");
  EXPECT_EQ(dsp(Value::from_string("str")), "str\n");
  EXPECT_EQ(dsp(Value()), "");
}

}  // namespace
}  // namespace matfuse
