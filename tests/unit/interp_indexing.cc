// Indexing and indexed assignment (MATLAB subsref/subsasgn semantics).
#include <gtest/gtest.h>

#include <chrono>
#include <string>
#include <vector>

#include "interp/indexing.h"

using namespace matfuse;

namespace {

Value mat(const Dims& d, std::vector<double> v) {
  Tensor t = Tensor::uninit(ClassId::Double, d);
  double* p = t.mutable_data<double>();
  for (size_t i = 0; i < v.size(); ++i) p[i] = v[i];
  return Value(std::move(t));
}
Value row(std::vector<double> v) { return mat(Dims(1, (int64_t)v.size()), v); }
Value col(std::vector<double> v) { return mat(Dims((int64_t)v.size(), 1), v); }
/// 1:n in dims d.
Value iota(const Dims& d) {
  std::vector<double> v(d.numel());
  for (size_t i = 0; i < v.size(); ++i) v[i] = double(i + 1);
  return mat(d, v);
}
Value mask(const Dims& d, std::vector<bool> b) {
  Tensor t = Tensor::uninit(ClassId::Logical, d);
  bool* p = t.mutable_data<bool>();
  for (size_t i = 0; i < b.size(); ++i) p[i] = b[i];
  return Value(std::move(t));
}
const Value C = Value::from_chars(":");

std::vector<double> vals(const Value& v) {
  Tensor t = v.tensor();
  std::vector<double> out;
  for (int64_t i = 0; i < t.numel(); ++i) out.push_back(t.get_double(i));
  return out;
}

Value P(const Value& b, std::vector<Value> idx) { return index_paren(b, idx); }
void A(Value& b, std::vector<Value> idx, const Value& r, bool defined = true) {
  assign_paren(b, defined, idx, r);
}

template <class F>
std::pair<std::string, std::string> err_of(F&& f) {
  try {
    f();
  } catch (const MatlabError& e) {
    return {e.identifier(), e.message()};
  }
  return {"", ""};
}

}  // namespace

TEST(Indexing, EndIndex) {
  Dims d{2, 3, 4};
  EXPECT_EQ(end_index(d, 0, 1), 24);
  EXPECT_EQ(end_index(d, 0, 2), 2);
  EXPECT_EQ(end_index(d, 1, 2), 12);
  EXPECT_EQ(end_index(d, 1, 3), 3);
  EXPECT_EQ(end_index(d, 2, 3), 4);
  EXPECT_EQ(end_index(d, 3, 4), 1);
}

TEST(Indexing, LinearReadShapes) {
  Value r = row({10, 20, 30, 40});
  Value c = col({10, 20, 30, 40});
  EXPECT_EQ(P(r, {3.0}).scalar(), 30);
  EXPECT_EQ(P(r, {col({1, 2})}).dims(), Dims(1, 2));   // vector keeps A's orientation
  EXPECT_EQ(P(c, {row({1, 2})}).dims(), Dims(2, 1));
  EXPECT_EQ(P(r, {C}).dims(), Dims(4, 1));               // A(:) is a column
  Value m = iota(Dims(3, 3));
  EXPECT_EQ(P(m, {row({1, 5, 9})}).dims(), Dims(1, 3)); // matrix: index's shape
  EXPECT_EQ(vals(P(m, {row({1, 5, 9})})), (std::vector<double>{1, 5, 9}));
  EXPECT_EQ(P(r, {mat(Dims(2, 2), {1, 2, 3, 4})}).dims(), Dims(2, 2));
  Value s = 7.0;
  EXPECT_EQ(P(s, {col({1, 1, 1})}).dims(), Dims(3, 1));
  // Empty indices.
  EXPECT_EQ(P(r, {Value()}).dims(), Dims(0, 0));
  EXPECT_EQ(P(r, {mat(Dims(1, 0), {})}).dims(), Dims(1, 0));
  EXPECT_EQ(P(c, {mat(Dims(1, 0), {})}).dims(), Dims(0, 1));
}

TEST(Indexing, SubscriptsAndNd) {
  Value m = iota(Dims(3, 4));  // column-major 1..12
  EXPECT_EQ(P(m, {2.0, 3.0}).scalar(), 8);
  Value c2 = P(m, {C, 2.0});
  EXPECT_EQ(c2.dims(), Dims(3, 1));
  EXPECT_EQ(vals(c2), (std::vector<double>{4, 5, 6}));
  Value r2 = P(m, {2.0, C});
  EXPECT_EQ(vals(r2), (std::vector<double>{2, 5, 8, 11}));
  EXPECT_EQ(vals(P(m, {row({3, 1}), row({4, 1})})), (std::vector<double>{12, 10, 3, 1}));
  Value a = iota(Dims{2, 3, 4});
  EXPECT_EQ(P(a, {2.0, 3.0, 4.0}).scalar(), 24);
  Value page = P(a, {C, C, 2.0});
  EXPECT_EQ(page.dims(), Dims(2, 3));
  EXPECT_EQ(vals(page)[0], 7);
  // Fewer subscripts: the last spans the folded dims.
  EXPECT_EQ(P(a, {1.0, 12.0}).scalar(), 23);
  EXPECT_EQ(P(a, {C, C}).dims(), Dims(2, 12));
  // More subscripts: trailing ones are fine.
  EXPECT_EQ(P(m, {3.0, 4.0, 1.0, 1.0}).scalar(), 12);
  EXPECT_EQ(P(a, {1.0, C, 1.0}).dims(), Dims(1, 3));
  EXPECT_EQ(P(a, {C, 1.0, C}).dims(), (Dims{2, 1, 4}));
}

TEST(Indexing, LogicalMasks) {
  Value r = row({10, 20, 30, 40});
  EXPECT_EQ(vals(P(r, {mask(Dims(1, 4), {true, false, true, false})})),
            (std::vector<double>{10, 30}));
  // Shorter mask is fine; column mask on a row keeps the row orientation.
  Value sel = P(r, {mask(Dims(2, 1), {false, true})});
  EXPECT_EQ(sel.dims(), Dims(1, 1));
  EXPECT_EQ(sel.scalar(), 20);
  Value m = iota(Dims(2, 2));
  Value mm = P(m, {mask(Dims(2, 2), {true, false, false, true})});
  EXPECT_EQ(mm.dims(), Dims(2, 1));
  EXPECT_EQ(P(m, {mask(Dims(2, 2), {false, false, false, false})}).dims(), Dims(0, 1));
  // Longer mask with a true past the end.
  auto e = err_of([&] { P(r, {mask(Dims(1, 5), {0, 0, 0, 0, 1})}); });
  EXPECT_EQ(e.first, "MATLAB:badsubscript");
  EXPECT_EQ(e.second, "Index exceeds the number of array elements. Index must not exceed 4.");
  // Longer mask with false past the end.
  EXPECT_EQ(P(r, {mask(Dims(1, 5), {1, 0, 0, 0, 0})}).scalar(), 10);
  // Logical subscript per dimension.
  EXPECT_EQ(vals(P(m, {mask(Dims(1, 2), {false, true}), C})), (std::vector<double>{2, 4}));
}

TEST(Indexing, ReadErrors) {
  Value r = row({1, 2, 3, 4});
  auto e = err_of([&] { P(r, {5.0}); });
  EXPECT_EQ(e.first, "MATLAB:badsubscript");
  EXPECT_EQ(e.second, "Index exceeds the number of array elements. Index must not exceed 4.");
  Value m = iota(Dims(3, 3));
  e = err_of([&] { P(m, {1.0, 4.0}); });
  EXPECT_EQ(e.second, "Index in position 2 exceeds array bounds. Index must not exceed 3.");
  e = err_of([&] { P(r, {0.0}); });
  EXPECT_EQ(e.first, "MATLAB:badsubscript");
  EXPECT_EQ(e.second, "Array indices must be positive integers or logical values.");
  e = err_of([&] { P(r, {1.5}); });
  EXPECT_EQ(e.second, "Array indices must be positive integers or logical values.");
  e = err_of([&] { P(m, {row({1, -1}), 1.0}); });
  EXPECT_EQ(e.second,
            "Index in position 1 is invalid. Array indices must be positive integers or logical "
            "values.");
  e = err_of([&] { P(m, {1.0, 1.0, 2.0}); });
  EXPECT_EQ(e.second, "Index in position 3 exceeds array bounds. Index must not exceed 1.");
}

TEST(Indexing, ClassesPreservedOnRead) {
  Value s = Value::from_chars("hello");
  Value sub = P(s, {row({1, 2})});
  EXPECT_TRUE(sub.is_char());
  EXPECT_EQ(sub.tensor().to_utf8(), "he");
  Value i8 = Value(row({1, 2, 3}).tensor().to_class(ClassId::Int8));
  EXPECT_EQ(P(i8, {2.0}).class_name(), "int8");
  Tensor z = Tensor::uninit(ClassId::Double, Dims(1, 2), true);
  z.set_complex(0, {1, 2});
  z.set_complex(1, {3, 0});
  Value zv = P(Value(z), {1.0});
  EXPECT_TRUE(zv.tensor().is_complex());
  EXPECT_EQ(zv.tensor().get_complex(0), std::complex<double>(1, 2));
}

TEST(Indexing, AssignBasics) {
  Value r = row({1, 2, 3});
  A(r, {2.0}, 20.0);
  EXPECT_EQ(vals(r), (std::vector<double>{1, 20, 3}));
  A(r, {row({1, 3})}, row({7, 9}));
  EXPECT_EQ(vals(r), (std::vector<double>{7, 20, 9}));
  A(r, {C}, 0.0);
  EXPECT_EQ(vals(r), (std::vector<double>{0, 0, 0}));
  Value m = iota(Dims(2, 3));
  A(m, {C, 2.0}, col({30, 40}));
  EXPECT_EQ(vals(m), (std::vector<double>{1, 2, 30, 40, 5, 6}));
  A(m, {1.0, C}, row({-1, -2, -3}));
  EXPECT_EQ(vals(m), (std::vector<double>{-1, 2, -2, 40, -3, 6}));
  // Non-singleton dims must match in order: a column into a row slot is fine.
  A(m, {2.0, C}, col({7, 8, 9}));
  EXPECT_EQ(vals(m), (std::vector<double>{-1, 7, -2, 8, -3, 9}));
  A(m, {mask(Dims(2, 3), {1, 0, 0, 0, 0, 1})}, 100.0);
  EXPECT_EQ(vals(m)[0], 100);
  EXPECT_EQ(vals(m)[5], 100);
}

TEST(Indexing, AssignInPlaceWhenUnshared) {
  Value r = iota(Dims(1, 1000));
  const void* before = r.tensor().raw();
  A(r, {5.0}, 1.0);
  A(r, {row({1, 2})}, row({3, 4}));
  EXPECT_EQ(r.tensor().raw(), before);
  Value copy = r;  // shared: the write must not change copy
  A(r, {1.0}, 99.0);
  EXPECT_EQ(vals(copy)[0], 3);
  EXPECT_EQ(vals(r)[0], 99);
}

TEST(Indexing, Growth) {
  Value r = row({1, 2});
  A(r, {5.0}, 5.0);
  EXPECT_EQ(r.dims(), Dims(1, 5));
  EXPECT_EQ(vals(r), (std::vector<double>{1, 2, 0, 0, 5}));
  Value c = col({1, 2});
  A(c, {3.0}, 3.0);
  EXPECT_EQ(c.dims(), Dims(3, 1));
  Value s = 4.0;
  A(s, {3.0}, 1.0);
  EXPECT_EQ(s.dims(), Dims(1, 3));
  Value m = iota(Dims(2, 2));
  A(m, {3.0, 3.0}, 9.0);
  EXPECT_EQ(m.dims(), Dims(3, 3));
  EXPECT_EQ(vals(m), (std::vector<double>{1, 2, 0, 3, 4, 0, 0, 0, 9}));
  A(m, {1.0, 1.0, 2.0}, 5.0);
  EXPECT_EQ(m.dims(), (Dims{3, 3, 2}));
  EXPECT_EQ(vals(m)[9], 5);
  Value m2 = iota(Dims(2, 2));
  auto e = err_of([&] { A(m2, {7.0}, 1.0); });
  EXPECT_EQ(e.first, "MATLAB:indexed_matrix_cannot_be_resized");
  EXPECT_EQ(e.second, "Attempt to grow array along ambiguous dimension.");
  // Undefined variable: class follows rhs, zero fill.
  Value u;
  A(u, {3.0}, Value(Tensor::scalar(7, ClassId::Int16)), false);
  EXPECT_EQ(u.class_name(), "int16");
  EXPECT_EQ(u.dims(), Dims(1, 3));
  Value u2;
  A(u2, {2.0, C}, row({1, 2, 3}), false);
  EXPECT_EQ(u2.dims(), Dims(2, 3));
  EXPECT_EQ(vals(u2), (std::vector<double>{0, 1, 0, 2, 0, 3}));
  Value u3;
  A(u3, {C, 1.0}, col({4, 5}), false);
  EXPECT_EQ(u3.dims(), Dims(2, 1));
}

TEST(Indexing, AssignErrors) {
  Value r = row({1, 2, 3});
  auto e = err_of([&] { A(r, {row({1, 2})}, row({1, 2, 3})); });
  EXPECT_EQ(e.first, "MATLAB:subsassignnumelmismatch");
  EXPECT_EQ(e.second,
            "Unable to perform assignment because the left and right sides have a different "
            "number of elements.");
  Value m = iota(Dims(3, 3));
  e = err_of([&] { A(m, {row({1, 2}), 1.0}, row({1, 2, 3})); });
  EXPECT_EQ(e.first, "MATLAB:subsassigndimmismatch");
  EXPECT_EQ(e.second,
            "Unable to perform assignment because the size of the left side is 2-by-1 and the "
            "size of the right side is 1-by-3.");
  e = err_of([&] { A(r, {0.0}, 1.0); });
  EXPECT_EQ(e.first, "MATLAB:badsubscript");
  e = err_of([&] {
    CellArray c(Dims(1, 1));
    A(r, {1.0}, Value(c));
  });
  EXPECT_EQ(e.second, "Conversion to double from cell is not possible.");
  EXPECT_EQ(vals(r), (std::vector<double>{1, 2, 3}));  // failed assignment leaves r intact
}

TEST(Indexing, ClassConversionOnAssign) {
  Value i8 = Value(row({1, 2, 3}).tensor().to_class(ClassId::Int8));
  A(i8, {1.0}, 300.0);
  EXPECT_EQ(i8.class_name(), "int8");
  EXPECT_EQ(vals(i8)[0], 127);
  A(i8, {row({2, 3})}, row({-2.5, 1000}));
  EXPECT_EQ(vals(i8), (std::vector<double>{127, -3, 127}));
  Value d = row({1, 2});
  A(d, {1.0}, Value(Tensor::scalar(5, ClassId::Int8)));
  EXPECT_EQ(d.class_name(), "double");
  A(d, {2.0}, Value::from_chars("A"));
  EXPECT_EQ(vals(d)[1], 65);
  Tensor z = Tensor::complex_scalar({0, 1});
  A(d, {1.0}, Value(z));
  EXPECT_TRUE(d.tensor().is_complex());
  EXPECT_EQ(d.tensor().get_complex(0), std::complex<double>(0, 1));
  Value lg = mask(Dims(1, 2), {true, false});
  auto e = err_of([&] { A(lg, {1.0}, NAN); });
  EXPECT_EQ(e.first, "MATLAB:nologicalnan");
  Value ch = Value::from_chars("abc");
  A(ch, {2.0}, 66.0);
  EXPECT_TRUE(ch.is_char());
  EXPECT_EQ(ch.tensor().to_utf8(), "aBc");
  // [] takes the right-hand side's class.
  Value empty;
  A(empty, {2.0}, Value::from_chars("x"));
  EXPECT_TRUE(empty.is_char());
  EXPECT_EQ(empty.dims(), Dims(1, 2));
}

TEST(Indexing, Deletion) {
  Value r = row({1, 2, 3, 4});
  delete_elements(r, std::vector<Value>{row({1, 3})});
  EXPECT_EQ(vals(r), (std::vector<double>{2, 4}));
  EXPECT_EQ(r.dims(), Dims(1, 2));
  Value c = col({1, 2, 3});
  A(c, {2.0}, Value());  // rhs [] deletes
  EXPECT_EQ(c.dims(), Dims(2, 1));
  Value m = iota(Dims(3, 3));
  delete_elements(m, std::vector<Value>{C, 2.0});
  EXPECT_EQ(m.dims(), Dims(3, 2));
  EXPECT_EQ(vals(m), (std::vector<double>{1, 2, 3, 7, 8, 9}));
  delete_elements(m, std::vector<Value>{mask(Dims(3, 1), {true, false, true}), C});
  EXPECT_EQ(vals(m), (std::vector<double>{2, 8}));
  Value m2 = iota(Dims(2, 2));
  delete_elements(m2, std::vector<Value>{2.0});
  EXPECT_EQ(m2.dims(), Dims(1, 3));
  EXPECT_EQ(vals(m2), (std::vector<double>{1, 3, 4}));
  Value m3 = iota(Dims(3, 3));
  auto e = err_of([&] { delete_elements(m3, std::vector<Value>{1.0, 1.0}); });
  EXPECT_EQ(e.second, "A null assignment can have only one non-colon index.");
  // A subscript naming every position counts as ':'.
  delete_elements(m3, std::vector<Value>{row({1, 2, 3}), 1.0});
  EXPECT_EQ(m3.dims(), Dims(3, 2));
  Value a = iota(Dims{2, 3, 4});
  delete_elements(a, std::vector<Value>{C, C, 2.0});
  EXPECT_EQ(a.dims(), (Dims{2, 3, 3}));
  EXPECT_EQ(vals(a)[6], 13);
  Value all = iota(Dims(2, 2));
  delete_elements(all, std::vector<Value>{C});
  EXPECT_EQ(all.dims(), Dims(0, 0));
  Value out = row({1, 2});
  e = err_of([&] { delete_elements(out, std::vector<Value>{3.0}); });
  EXPECT_EQ(e.first, "MATLAB:subsdeldimmismatch");
}

TEST(Indexing, Cells) {
  CellArray c0(Dims(1, 3));
  c0.at(0) = 1.0;
  c0.at(1) = Value::from_chars("two");
  c0.at(2) = row({3, 3});
  Value c = c0;
  Value sub = P(c, {row({1, 2})});
  EXPECT_TRUE(sub.is_cell());
  EXPECT_EQ(sub.dims(), Dims(1, 2));
  std::vector<Value> got = index_brace(c, std::vector<Value>{row({2, 3})});
  ASSERT_EQ(got.size(), 2u);
  EXPECT_EQ(got[0].tensor().to_utf8(), "two");
  EXPECT_EQ(index_brace(c, std::vector<Value>{1.0})[0].scalar(), 1);
  // Brace assignment grows with [] elements.
  assign_brace(c, true, std::vector<Value>{5.0}, 50.0);
  EXPECT_EQ(c.dims(), Dims(1, 5));
  EXPECT_TRUE(c.cell()[3].is_empty());
  EXPECT_EQ(c.cell()[4].scalar(), 50);
  // c(idx) = {v} broadcasts, c(idx) = [] deletes.
  CellArray one(Dims(1, 1));
  one.at(0) = Value::from_chars("x");
  A(c, {row({1, 2})}, Value(one));
  EXPECT_EQ(c.cell()[1].tensor().to_utf8(), "x");
  A(c, {row({1, 2})}, Value());
  EXPECT_EQ(c.dims(), Dims(1, 3));
  EXPECT_EQ(c.cell()[2].scalar(), 50);
  auto e = err_of([&] { A(c, {1.0}, 5.0); });
  EXPECT_EQ(e.first, "MATLAB:invalidConversion");
  EXPECT_EQ(e.second, "Conversion to cell from double is not possible.");
  // Undefined base with braces becomes a cell.
  Value u;
  assign_brace(u, false, std::vector<Value>{2.0, 2.0}, 1.0);
  EXPECT_TRUE(u.is_cell());
  EXPECT_EQ(u.dims(), Dims(2, 2));
  e = err_of([&] { index_brace(Value(1.0), std::vector<Value>{1.0}); });
  EXPECT_EQ(e.first, "MATLAB:cellRefFromNonCell");
  Value num = row({1, 2});
  e = err_of([&] { assign_brace(num, true, std::vector<Value>{1.0}, 1.0); });
  EXPECT_EQ(e.first, "MATLAB:cellAssToNonCell");
}

TEST(Indexing, Structs) {
  Value s;
  set_field(s, false, "a", 1.0);
  ASSERT_TRUE(s.is_struct());
  EXPECT_EQ(s.dims(), Dims(1, 1));
  set_field(s, true, "b", Value::from_chars("hi"));
  EXPECT_EQ(get_field(s, "b")[0].tensor().to_utf8(), "hi");
  // s(3) = s grows the struct array with [] fields.
  Value t = s;
  A(s, {3.0}, t);
  EXPECT_EQ(s.dims(), Dims(1, 3));
  std::vector<Value> as = get_field(s, "a");
  ASSERT_EQ(as.size(), 3u);
  EXPECT_TRUE(as[1].is_empty());
  EXPECT_EQ(as[2].scalar(), 1);
  Value two = P(s, {row({1, 3})});
  EXPECT_EQ(two.dims(), Dims(1, 2));
  auto e = err_of([&] { get_field(s, "zz"); });
  EXPECT_EQ(e.first, "MATLAB:nonExistentField");
  EXPECT_EQ(e.second, "Unrecognized field name \"zz\".");
  e = err_of([&] { set_field(s, true, "a", 2.0); });
  EXPECT_EQ(e.second, "Scalar structure required for this assignment.");
  Value x = 5.0;
  e = err_of([&] { set_field(x, true, "a", 2.0); });
  EXPECT_EQ(e.second,
            "Unable to perform assignment because dot indexing is not supported for variables "
            "of this type.");
  e = err_of([&] { get_field(x, "a"); });
  EXPECT_EQ(e.first, "MATLAB:structRefFromNonStruct");
  Value other;
  set_field(other, false, "q", 1.0);
  e = err_of([&] { A(s, {1.0}, other); });
  EXPECT_EQ(e.first, "MATLAB:heterogeneousStrucAssignment");
  A(s, {2.0}, Value());  // deletion
  EXPECT_EQ(s.dims(), Dims(1, 2));
}

TEST(Indexing, Strings) {
  Value s = Value::from_string("a");
  A(s, {3.0}, Value::from_string("c"));
  ASSERT_TRUE(s.is_string());
  EXPECT_EQ(s.dims(), Dims(1, 3));
  EXPECT_FALSE(s.string_array()[1].has_value());  // grown with <missing>
  A(s, {2.0}, Value::from_chars("bee"));
  EXPECT_EQ(*s.string_array()[1], "bee");
  std::vector<Value> b = index_brace(s, std::vector<Value>{2.0});
  ASSERT_EQ(b.size(), 1u);
  EXPECT_TRUE(b[0].is_char());
  EXPECT_EQ(b[0].tensor().to_utf8(), "bee");
  assign_brace(s, true, std::vector<Value>{1.0}, Value::from_chars("zz"));
  EXPECT_EQ(*s.string_array()[0], "zz");
  A(s, {1.0}, 42.0);
  EXPECT_EQ(*s.string_array()[0], "42");
  Value sub = P(s, {row({1, 3})});
  EXPECT_TRUE(sub.is_string());
  EXPECT_EQ(sub.dims(), Dims(1, 2));
}

TEST(Indexing, GrowthLoops) {
  // x(end+1) = k appends in a loop (the interpreter's common pattern); cells append likewise.
  Value x, c;
  for (int k = 1; k <= 5000; ++k) {
    assign_paren(x, k > 1, std::vector<Value>{double(k)}, double(k));
    assign_brace(c, k > 1, std::vector<Value>{double(k)}, double(2 * k));
  }
  EXPECT_EQ(x.dims(), Dims(1, 5000));
  EXPECT_EQ(vals(x)[4999], 5000);
  EXPECT_EQ(vals(x)[0], 1);
  EXPECT_EQ(c.dims(), Dims(1, 5000));
  EXPECT_EQ(c.cell()[4999].scalar(), 10000);
  // Column growth by subscripts in a loop keeps earlier columns in place.
  Value m;
  for (int j = 1; j <= 50; ++j)
    assign_paren(m, j > 1, std::vector<Value>{Value::from_chars(":"), double(j)},
                 col({double(j), double(-j)}));
  EXPECT_EQ(m.dims(), Dims(2, 50));
  EXPECT_EQ(vals(m)[97], -49);
}
