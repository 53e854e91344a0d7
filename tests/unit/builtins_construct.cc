// Tests of the construct family: zeros/ones/eye/linspace/repmat/colon, concatenation rules,
// reshape/permute/squeeze and the shape functions.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "builtins/construct.h"
#include "builtins/registry.h"

using namespace matfuse;

namespace {

struct ConstructCtx : CallContext {
  Session s;
  Session& session() override { return s; }
  Outputs call(const Value&, Args, int) override { throw_error("test:nocall", "no calls"); }
  Outputs call_named(std::string_view, Args, int) override {
    throw_error("test:nocall", "no calls");
  }
  void display(const Value&, std::string_view) override {}
  int exist(std::string_view) override { return 0; }
  Outputs eval_text(std::string_view, int) override { throw_error("test:nocall", "no eval"); }
};

Outputs callN(const char* name, std::vector<Value> args, int nargout) {
  static ConstructCtx ctx;
  const Builtin* b = builtins().find(name);
  EXPECT_NE(b, nullptr) << name;
  return b->fn(ctx, args, nargout);
}
Value call(const char* name, std::vector<Value> args) { return callN(name, std::move(args), 1).at(0); }

template <class F>
std::string error_id(F f) {
  try {
    f();
  } catch (const MatlabError& e) {
    return e.identifier();
  }
  return "<no error>";
}

Value str(const char* s) { return Value::from_chars(s); }
Value row(std::vector<double> v) {
  Tensor t = Tensor::uninit(ClassId::Double, Dims(1, static_cast<int64_t>(v.size())));
  for (size_t i = 0; i < v.size(); ++i) t.set_double(static_cast<int64_t>(i), v[i]);
  return Value(t);
}
Value mat(int64_t m, int64_t n, ClassId c = ClassId::Double) {
  Tensor t = Tensor::uninit(c, Dims(m, n));
  for (int64_t i = 0; i < m * n; ++i) t.set_double(i, static_cast<double>(i + 1));
  return Value(t);
}
std::vector<double> values(const Value& v) {
  Tensor t = v.tensor();
  std::vector<double> out;
  for (int64_t i = 0; i < t.numel(); ++i) out.push_back(t.get_double(i));
  return out;
}

}  // namespace

TEST(Construct, ZerosOnesSizeForms) {
  EXPECT_EQ(call("zeros", {}).dims(), Dims(1, 1));
  EXPECT_EQ(call("zeros", {3.0}).dims(), Dims(3, 3));
  EXPECT_EQ(call("zeros", {2.0, 3.0}).dims(), Dims(2, 3));
  EXPECT_EQ(call("ones", {row({2, 3, 4})}).dims(), (Dims{2, 3, 4}));
  EXPECT_EQ(call("ones", {2.0, 3.0, 1.0}).dims(), Dims(2, 3));
  EXPECT_EQ(call("zeros", {-2.0, 3.0}).dims(), Dims(0, 3));
  EXPECT_EQ(call("zeros", {Value()}).dims(), Dims(0, 0));
  EXPECT_EQ(values(call("ones", {2.0, 2.0})), (std::vector<double>{1, 1, 1, 1}));
  EXPECT_EQ(error_id([] { call("zeros", {2.5}); }), "MATLAB:NonIntegerInput");
  EXPECT_EQ(error_id([] { call("zeros", {2.0, row({1, 2})}); }), "MATLAB:NonScalarInput");
}

TEST(Construct, ClassNamesAndLike) {
  EXPECT_EQ(call("zeros", {2.0, str("single")}).class_name(), "single");
  EXPECT_EQ(call("ones", {2.0, 3.0, str("int8")}).class_name(), "int8");
  EXPECT_EQ(call("ones", {1.0, str("uint16")}).tensor().get_double(0), 1.0);
  EXPECT_EQ(call("zeros", {2.0, str("logical")}).class_name(), "logical");
  EXPECT_EQ(call("eye", {3.0, str("int32")}).class_name(), "int32");
  Value p = Value(Tensor::scalar(1, ClassId::UInt8));
  Value z = call("zeros", {2.0, 4.0, str("like"), p});
  EXPECT_EQ(z.class_name(), "uint8");
  EXPECT_EQ(z.dims(), Dims(2, 4));
  Value cp = Value(Tensor::complex_scalar({1, 2}, ClassId::Single));
  Value o = call("ones", {2.0, str("like"), cp});
  EXPECT_TRUE(o.tensor().is_complex());
  EXPECT_EQ(o.class_name(), "single");
  EXPECT_EQ(error_id([] { call("zeros", {2.0, str("foo")}); }), "MATLAB:invalidInputClass");
}

TEST(Construct, Eye) {
  Value e = call("eye", {2.0, 3.0});
  EXPECT_EQ(e.dims(), Dims(2, 3));
  EXPECT_EQ(values(e), (std::vector<double>{1, 0, 0, 1, 0, 0}));
  EXPECT_EQ(call("eye", {}).dims(), Dims(1, 1));
  EXPECT_NE(error_id([] { call("eye", {row({2, 2, 2})}); }), "<no error>");
}

TEST(Construct, Linspace) {
  Value l = call("linspace", {0.0, 1.0, 5.0});
  EXPECT_EQ(values(l), (std::vector<double>{0, 0.25, 0.5, 0.75, 1}));
  EXPECT_EQ(call("linspace", {0.0, 1.0}).dims(), Dims(1, 100));
  EXPECT_EQ(call("linspace", {0.0, 1.0}).tensor().get_double(99), 1.0);
  EXPECT_EQ(call("linspace", {1.0, 2.0, 0.0}).dims(), Dims(1, 0));
  EXPECT_EQ(values(call("linspace", {1.0, 2.0, 1.0})), (std::vector<double>{2}));
  Value s = call("linspace", {Value(Tensor::scalar(0, ClassId::Single)), 1.0, 3.0});
  EXPECT_EQ(s.class_name(), "single");
  // exact endpoints for an awkward step
  Value w = call("linspace", {0.1, 0.7, 7.0});
  EXPECT_EQ(w.tensor().get_double(6), 0.7);
}

TEST(Construct, Repmat) {
  Value r = call("repmat", {row({1, 2}), 2.0, 2.0});
  EXPECT_EQ(r.dims(), Dims(2, 4));
  EXPECT_EQ(values(r), (std::vector<double>{1, 1, 2, 2, 1, 1, 2, 2}));
  EXPECT_EQ(call("repmat", {5.0, 3.0}).dims(), Dims(3, 3));
  EXPECT_EQ(call("repmat", {row({1, 2}), row({1, 2, 2})}).dims(), (Dims{1, 4, 2}));
  CellArray c(Dims(1, 1));
  c.at(0) = str("ab");
  Value rc = call("repmat", {Value(c), 2.0, 3.0});
  ASSERT_TRUE(rc.is_cell());
  EXPECT_EQ(rc.dims(), Dims(2, 3));
  EXPECT_EQ(rc.cell()[5].to_text(), "ab");
  EXPECT_EQ(call("repmat", {mat(2, 2, ClassId::Int16), 1.0, 2.0}).class_name(), "int16");
}

TEST(Concat, ClassRules) {
  std::vector<Value> p1 = {str("AB"), 67.0};
  Value v = horzcat(p1);
  EXPECT_EQ(v.class_name(), "char");
  EXPECT_EQ(v.to_text(), "ABC");
  std::vector<Value> p2 = {Value(Tensor::scalar(5, ClassId::Int8)), 3.7, Value(Tensor::scalar(300, ClassId::Int16))};
  Value i = horzcat(p2);
  EXPECT_EQ(i.class_name(), "int8");  // leftmost integer class
  EXPECT_EQ(values(i), (std::vector<double>{5, 4, 127}));
  std::vector<Value> p3 = {Value(Tensor::scalar(1, ClassId::Single)), 2.0};
  EXPECT_EQ(horzcat(p3).class_name(), "single");
  std::vector<Value> p4 = {Value::logical(true), Value::logical(false)};
  EXPECT_EQ(horzcat(p4).class_name(), "logical");
  std::vector<Value> p5 = {Value::logical(true), 2.0};
  EXPECT_EQ(horzcat(p5).class_name(), "double");
  std::vector<Value> p6 = {Value(Tensor::complex_scalar({1, 2})), 3.0};
  EXPECT_TRUE(horzcat(p6).tensor().is_complex());
  std::vector<Value> p7 = {str("a"), Value::logical(true)};
  EXPECT_EQ(error_id([&] { horzcat(p7); }), "MATLAB:invalidConversion");
}

TEST(Concat, ShapesAndEmpties) {
  std::vector<Value> p = {mat(2, 2), mat(2, 1)};
  Value h = horzcat(p);
  EXPECT_EQ(h.dims(), Dims(2, 3));
  EXPECT_EQ(values(h), (std::vector<double>{1, 2, 3, 4, 1, 2}));
  std::vector<Value> q = {mat(1, 2), mat(2, 2)};
  Value v = vertcat(q);
  EXPECT_EQ(v.dims(), Dims(3, 2));
  EXPECT_EQ(values(v), (std::vector<double>{1, 1, 2, 2, 3, 4}));
  std::vector<Value> bad = {mat(2, 2), mat(3, 1)};
  EXPECT_EQ(error_id([&] { horzcat(bad); }), "MATLAB:catenate:dimensionMismatch");
  std::vector<Value> e = {Value(), mat(2, 2), Value()};
  EXPECT_EQ(horzcat(e).dims(), Dims(2, 2));
  std::vector<Value> e2 = {Value(Tensor::zeros(ClassId::Double, Dims(1, 0))), row({1, 2})};
  EXPECT_EQ(vertcat(e2).dims(), Dims(1, 2));
  std::vector<Value> e3 = {Value(Tensor::zeros(ClassId::Double, Dims(0, 3))),
                           Value(Tensor::zeros(ClassId::Double, Dims(0, 3)))};
  EXPECT_EQ(vertcat(e3).dims(), Dims(0, 3));
  std::vector<Value> e4 = {Value(Tensor::zeros(ClassId::Char, Dims(0, 0))), 65.0};
  EXPECT_EQ(horzcat(e4).class_name(), "char");
  std::vector<Value> c3 = {mat(2, 2), mat(2, 2)};
  Value c = cat_dim(3, c3);
  EXPECT_EQ(c.dims(), (Dims{2, 2, 2}));
  EXPECT_EQ(values(c)[4], 1.0);
}

TEST(Concat, CellsStructsStrings) {
  CellArray a(Dims(1, 1));
  a.at(0) = 1.0;
  std::vector<Value> p = {Value(a), 2.0, Value()};
  Value c = horzcat(p);
  ASSERT_TRUE(c.is_cell());
  EXPECT_EQ(c.dims(), Dims(1, 2));
  EXPECT_EQ(c.cell()[1].scalar(), 2.0);
  std::vector<Value> pc = {Value(a), Value(a)};
  EXPECT_EQ(vertcat(pc).dims(), Dims(2, 1));

  StructArray s1(Dims(1, 1)), s2(Dims(1, 1));
  s1.at(0, s1.add_field("x")) = 1.0;
  s1.at(0, s1.add_field("y")) = 2.0;
  s2.at(0, s2.add_field("y")) = 20.0;
  s2.at(0, s2.add_field("x")) = 10.0;
  std::vector<Value> ps = {Value(s1), Value(s2)};
  Value s = horzcat(ps);
  ASSERT_TRUE(s.is_struct());
  EXPECT_EQ(s.dims(), Dims(1, 2));
  EXPECT_EQ(s.struct_array().get(1, s.struct_array().field_index("x")).scalar(), 10.0);
  StructArray s3(Dims(1, 1));
  s3.add_field("z");
  std::vector<Value> pb = {Value(s1), Value(s3)};
  EXPECT_EQ(error_id([&] { horzcat(pb); }), "MATLAB:catenate:structFieldBad");

  std::vector<Value> pstr = {Value::from_string("a"), str("bc"), 5.0};
  Value st = horzcat(pstr);
  ASSERT_TRUE(st.is_string());
  EXPECT_EQ(st.dims(), Dims(1, 3));
  EXPECT_EQ(*st.string_array()[1], "bc");
  EXPECT_EQ(*st.string_array()[2], "5");
}

TEST(Concat, Builtins) {
  EXPECT_EQ(call("horzcat", {1.0, 2.0}).dims(), Dims(1, 2));
  EXPECT_EQ(call("vertcat", {1.0, 2.0}).dims(), Dims(2, 1));
  EXPECT_EQ(call("cat", {3.0, 1.0, 2.0}).dims(), (Dims{1, 1, 2}));
  EXPECT_EQ(error_id([] { call("cat", {0.0, 1.0}); }), "MATLAB:catenate:invalidDimension");
}

TEST(Shape, Reshape) {
  Value r = call("reshape", {mat(2, 3), 3.0, 2.0});
  EXPECT_EQ(r.dims(), Dims(3, 2));
  EXPECT_EQ(values(r), (std::vector<double>{1, 2, 3, 4, 5, 6}));
  EXPECT_EQ(call("reshape", {mat(2, 6), Value(), 3.0}).dims(), Dims(4, 3));
  EXPECT_EQ(call("reshape", {mat(2, 6), row({3, 2, 2})}).dims(), (Dims{3, 2, 2}));
  EXPECT_EQ(error_id([] { call("reshape", {mat(2, 3), 4.0, 2.0}); }),
            "MATLAB:getReshapeDims:notSameNumel");
  EXPECT_EQ(error_id([] { call("reshape", {mat(2, 3), 4.0, Value()}); }),
            "MATLAB:getReshapeDims:notDivisible");
  CellArray c(Dims(1, 4));
  EXPECT_EQ(call("reshape", {Value(c), 2.0, 2.0}).dims(), Dims(2, 2));
}

TEST(Shape, PermuteSqueeze) {
  Value p = call("permute", {mat(2, 3), row({2, 1})});
  EXPECT_EQ(p.dims(), Dims(3, 2));
  EXPECT_EQ(values(p), (std::vector<double>{1, 3, 5, 2, 4, 6}));
  Value a = call("reshape", {mat(1, 24), row({2, 3, 4})});
  Value q = call("permute", {a, row({3, 1, 2})});
  EXPECT_EQ(q.dims(), (Dims{4, 2, 3}));
  // q(k,i,j) = a(i,j,k): q(2,1,1) = a(1,1,2) = 7
  EXPECT_EQ(q.tensor().get_double(1), 7.0);
  EXPECT_EQ(error_id([] { call("permute", {mat(2, 2), row({1, 1})}); }), "MATLAB:permute:badIndex");
  Value s = call("squeeze", {call("ones", {row({1, 1, 3})})});
  EXPECT_EQ(s.dims(), Dims(3, 1));
  EXPECT_EQ(call("squeeze", {call("ones", {row({2, 1, 3})})}).dims(), Dims(2, 3));
  EXPECT_EQ(call("squeeze", {mat(1, 3)}).dims(), Dims(1, 3));
}

TEST(Shape, SizeForms) {
  Value a = call("ones", {row({2, 3, 4})});
  EXPECT_EQ(values(call("size", {a})), (std::vector<double>{2, 3, 4}));
  EXPECT_EQ(call("size", {a, 2.0}).scalar(), 3.0);
  EXPECT_EQ(call("size", {a, 5.0}).scalar(), 1.0);
  EXPECT_EQ(values(call("size", {a, row({3, 1})})), (std::vector<double>{4, 2}));
  Outputs o = callN("size", {a}, 2);
  ASSERT_EQ(o.size(), 2u);
  EXPECT_EQ(o[0].scalar(), 2.0);
  EXPECT_EQ(o[1].scalar(), 12.0);
  Outputs o4 = callN("size", {mat(2, 3)}, 4);
  EXPECT_EQ(o4[2].scalar(), 1.0);
  EXPECT_EQ(o4[3].scalar(), 1.0);
  EXPECT_EQ(error_id([&] { call("size", {a, 0.0}); }),
            "MATLAB:getdimarg:dimensionMustBePositiveInteger");
  StringArray s(Dims(2, 5));
  EXPECT_EQ(values(call("size", {Value(s)})), (std::vector<double>{2, 5}));
}

TEST(Shape, Predicates) {
  EXPECT_EQ(call("numel", {mat(2, 3)}).scalar(), 6.0);
  EXPECT_EQ(call("ndims", {call("ones", {row({2, 3, 4})})}).scalar(), 3.0);
  EXPECT_EQ(call("length", {mat(2, 7)}).scalar(), 7.0);
  EXPECT_EQ(call("length", {call("zeros", {0.0, 7.0})}).scalar(), 0.0);
  auto truth = [](const Value& v) { return v.tensor().get_double(0) != 0; };
  EXPECT_TRUE(truth(call("isempty", {Value()})));
  EXPECT_TRUE(truth(call("isempty", {Value(CellArray(Dims(0, 3)))})));
  EXPECT_TRUE(truth(call("isscalar", {Value::from_string("abc")})));
  EXPECT_TRUE(truth(call("isvector", {mat(1, 3)})));
  EXPECT_FALSE(truth(call("isvector", {mat(2, 3)})));
  EXPECT_TRUE(truth(call("isrow", {str("abc")})));
  EXPECT_TRUE(truth(call("iscolumn", {mat(3, 1)})));
  EXPECT_TRUE(truth(call("ismatrix", {mat(3, 2)})));
  EXPECT_FALSE(truth(call("ismatrix", {call("ones", {row({2, 2, 2})})})));
  EXPECT_EQ(call("isempty", {1.0}).class_name(), "logical");
}
