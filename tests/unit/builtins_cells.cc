// Cell and struct builtins: cell, struct forms, fieldnames, isfield, rmfield, cellfun, arrayfun,
// num2cell, cell2mat.
#include <gtest/gtest.h>

#include "builtins_fake_ctx.h"

using namespace matfuse;
using namespace matfuse::testing;

namespace {

TEST(Cell, Sizes) {
  FakeCtx c;
  EXPECT_EQ(c.run1("cell", {Value(3.0)}).dims(), Dims(3, 3));
  EXPECT_EQ(c.run1("cell", {Value(2.0), Value(4.0)}).dims(), Dims(2, 4));
  Value v = c.run1("cell", {row({1, 2, 3})});
  EXPECT_EQ(v.dims(), Dims({1, 2, 3}));
  EXPECT_TRUE(v.cell()[0].is_empty());
}

TEST(Struct, Forms) {
  FakeCtx c;
  Value e = c.run1("struct", {});
  ASSERT_TRUE(e.is_struct());
  EXPECT_EQ(e.dims(), Dims(1, 1));
  EXPECT_TRUE(e.struct_array().fields().empty());

  Value s = c.run1("struct", {str("a"), Value(1.0), str("b"), str("x")});
  ASSERT_EQ(s.dims(), Dims(1, 1));
  EXPECT_EQ(s.struct_array().fields(), (std::vector<std::string>{"a", "b"}));
  EXPECT_EQ(s.struct_array().get(0, 1).to_text(), "x");

  Value arr = c.run1("struct", {str("a"), cellrow({Value(1.0), Value(2.0)}), str("b"), Value(7.0)});
  ASSERT_EQ(arr.dims(), Dims(1, 2));
  EXPECT_EQ(arr.struct_array().get(1, 0).to_double(), 2);
  EXPECT_EQ(arr.struct_array().get(1, 1).to_double(), 7);

  Value wrapped = c.run1("struct", {str("c"), cellrow({cellrow({Value(1.0), Value(2.0)})})});
  ASSERT_EQ(wrapped.dims(), Dims(1, 1));
  EXPECT_TRUE(wrapped.struct_array().get(0, 0).is_cell());
  EXPECT_EQ(wrapped.struct_array().get(0, 0).numel(), 2);

  Value empty = c.run1("struct", {str("a"), Value(CellArray(Dims(0, 0)))});
  EXPECT_EQ(empty.dims(), Dims(0, 0));
  EXPECT_EQ(empty.struct_array().fields().size(), 1u);

  EXPECT_EQ(error_id([&] { c.run1("struct", {str("a")}); }), "MATLAB:struct:FieldValuePairs");
  EXPECT_EQ(error_id([&] {
              c.run1("struct", {str("a"), cellrow({Value(1.0), Value(2.0)}), str("b"),
                                cellrow({Value(1.0), Value(2.0), Value(3.0)})});
            }),
            "MATLAB:struct:DimensionMismatch");
}

TEST(Struct, FieldFunctions) {
  FakeCtx c;
  Value s = c.run1("struct", {str("a"), Value(1.0), str("b"), Value(2.0)});
  Value names = c.run1("fieldnames", {s});
  ASSERT_EQ(names.dims(), Dims(2, 1));
  EXPECT_EQ(names.cell()[1].to_text(), "b");
  EXPECT_TRUE(c.run1("isfield", {s, str("a")}).truthy());
  EXPECT_FALSE(c.run1("isfield", {s, str("z")}).truthy());
  EXPECT_FALSE(c.run1("isfield", {Value(1.0), str("a")}).truthy());
  Value many = c.run1("isfield", {s, cellrow({str("b"), str("q")})});
  EXPECT_EQ(many.tensor().get_double(0), 1);
  EXPECT_EQ(many.tensor().get_double(1), 0);
  Value r = c.run1("rmfield", {s, str("a")});
  EXPECT_EQ(r.struct_array().fields(), (std::vector<std::string>{"b"}));
  EXPECT_EQ(error_id([&] { c.run1("rmfield", {s, str("zz")}); }), "MATLAB:rmfield:InvalidFieldname");
  Value s2 = c.run1("setfield", {s, str("c"), Value(9.0)});
  EXPECT_EQ(c.run1("getfield", {s2, str("c")}).to_double(), 9);
  EXPECT_EQ(error_id([&] { c.run1("fieldnames", {Value(1.0)}); }), "MATLAB:fieldnames:InvalidInput");
}

TEST(Iscellstr, Cases) {
  FakeCtx c;
  EXPECT_TRUE(c.run1("iscellstr", {cellrow({str("a"), str("")})}).truthy());
  EXPECT_FALSE(c.run1("iscellstr", {cellrow({str("a"), Value(1.0)})}).truthy());
  EXPECT_FALSE(c.run1("iscellstr", {str("a")}).truthy());
  EXPECT_TRUE(c.run1("iscellstr", {Value(CellArray(Dims(0, 0)))}).truthy());
}

TEST(Cellfun, UniformWithHandle) {
  FakeCtx c;
  Value r = c.run1("cellfun", {handle("strlength"), cellrow({str("ab"), str("xyz")})});
  ASSERT_EQ(r.dims(), Dims(1, 2));
  EXPECT_EQ(r.cls(), ClassId::Double);
  EXPECT_EQ(r.tensor().get_double(1), 3);
}
TEST(Cellfun, NameStringAndLegacy) {
  FakeCtx c;
  Value cells = cellrow({Value(), str("ab"), row({1, 2, 3})});
  Value e = c.run1("cellfun", {str("isempty"), cells});
  EXPECT_TRUE(e.is_logical());
  EXPECT_EQ(e.tensor().get_double(0), 1);
  EXPECT_EQ(e.tensor().get_double(1), 0);
  Value l = c.run1("cellfun", {str("length"), cells});
  EXPECT_EQ(l.tensor().get_double(2), 3);
  Value u = c.run1("cellfun", {str("upper"), cellrow({str("a")}), str("UniformOutput"), Value::logical(false)});
  EXPECT_EQ(u.cell()[0].to_text(), "A");
}
TEST(Cellfun, NonUniform) {
  FakeCtx c;
  Value r = c.run1("cellfun", {handle("upper"), cellrow({str("ab"), str("c")}), str("UniformOutput"),
                               Value::logical(false)});
  ASSERT_TRUE(r.is_cell());
  EXPECT_EQ(r.cell()[0].to_text(), "AB");
}
TEST(Cellfun, MultipleOutputs) {
  FakeCtx c;
  Outputs o = c.run("cellfun", {handle("twice"), cellrow({Value(5.0), row({1, 2})}), str("UniformOutput"),
                                Value::logical(false)},
                    2);
  ASSERT_EQ(o.size(), 2u);
  EXPECT_EQ(o[1].cell()[1].to_double(), 2);
}
TEST(Cellfun, UniformErrors) {
  FakeCtx c;
  EXPECT_EQ(error_id([&] { c.run1("cellfun", {handle("pair"), cellrow({Value(1.0)})}); }),
            "MATLAB:cellfun:NotAScalarOutput");
  EXPECT_EQ(error_id([&] { c.run1("cellfun", {handle("upper"), cellrow({str("a"), Value(true)})}); }),
            "MATLAB:cellfun:MismatchInTypes");
  EXPECT_EQ(error_id([&] { c.run1("cellfun", {handle("upper"), row({1, 2})}); }),
            "MATLAB:cellfun:NotACell");
  EXPECT_EQ(error_id([&] {
              c.run1("cellfun", {handle("strcmp"), cellrow({str("a")}), cellrow({str("a"), str("b")})});
            }),
            "MATLAB:cellfun:AllInputsSameSize");
}
TEST(Cellfun, ErrorHandler) {
  FakeCtx c;
  Value r = c.run1("cellfun", {handle("fail"), cellrow({Value(1.0), Value(2.0)}), str("ErrorHandler"),
                               handle("handler")});
  EXPECT_EQ(r.tensor().get_double(1), -1);
  EXPECT_EQ(error_id([&] { c.run1("cellfun", {handle("fail"), cellrow({Value(1.0)})}); }), "test:fail");
}
TEST(Cellfun, EmptyCellGivesEmptyDouble) {
  FakeCtx c;
  Value r = c.run1("cellfun", {handle("strlength"), Value(CellArray(Dims(0, 0)))});
  EXPECT_EQ(r.dims(), Dims(0, 0));
  EXPECT_EQ(r.cls(), ClassId::Double);
}
TEST(Cellfun, NoOutputs) {
  FakeCtx c;
  Outputs o = c.run("cellfun", {handle("silent"), cellrow({Value(1.0)})}, 0);
  EXPECT_TRUE(o.empty());
}
TEST(Arrayfun, OverNumericAndStruct) {
  FakeCtx c;
  Value r = c.run1("arrayfun", {handle("numel1"), row({4, 5, 6})});
  EXPECT_EQ(r.dims(), Dims(1, 3));
  EXPECT_EQ(r.tensor().get_double(2), 1);
  Value s = c.run1("struct", {str("a"), cellrow({Value(1.0), Value(2.0)})});
  Value f = c.run1("arrayfun", {handle("numel1"), s});
  EXPECT_EQ(f.dims(), Dims(1, 2));
  EXPECT_EQ(error_id([&] { c.run1("arrayfun", {handle("isfield"), s, str("a")}); }),
            "MATLAB:arrayfun:AllInputsSameSize");
}
TEST(Arrayfun, CharInputIsData) {
  FakeCtx c;
  Value r = c.run1("arrayfun", {handle("upper"), str("ab")});
  EXPECT_EQ(r.cls(), ClassId::Char);
  EXPECT_EQ(r.tensor().to_utf8(), "AB");
}
TEST(Num2cell, Basic) {
  FakeCtx c;
  Value r = c.run1("num2cell", {row({1, 2})});
  ASSERT_TRUE(r.is_cell());
  EXPECT_EQ(r.cell()[1].to_double(), 2);
}
TEST(Cell2mat, Basic) {
  FakeCtx c;
  CellArray cc(Dims(2, 2));
  cc.at(0) = row({1, 2});
  cc.at(1) = row({5, 6});
  cc.at(2) = Value(3.0);
  cc.at(3) = Value(7.0);
  Value m = c.run1("cell2mat", {Value(cc)});
  ASSERT_EQ(m.dims(), Dims(2, 3));
  EXPECT_EQ(m.tensor().get_double(1), 5);  // (2,1)
  EXPECT_EQ(m.tensor().get_double(4), 3);  // (1,3)
  EXPECT_TRUE(c.run1("cell2mat", {Value(CellArray(Dims(0, 0)))}).is_empty());
}

}  // namespace
