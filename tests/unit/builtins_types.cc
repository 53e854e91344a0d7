// Tests of the types family: conversions, char, class queries, cast.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "builtins/registry.h"

using namespace matfuse;

namespace {

struct TypesCtx : CallContext {
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

Value call(const char* name, std::vector<Value> args) {
  static TypesCtx ctx;
  const Builtin* b = builtins().find(name);
  EXPECT_NE(b, nullptr) << name;
  return b->fn(ctx, args, 1).at(0);
}

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
bool truth(const Value& v) {
  EXPECT_EQ(v.class_name(), "logical");
  return v.tensor().get_double(0) != 0;
}

}  // namespace

TEST(Types, NumericConversions) {
  Value i = call("int8", {200.0});
  EXPECT_EQ(i.class_name(), "int8");
  EXPECT_EQ(i.tensor().get_double(0), 127.0);
  EXPECT_EQ(call("uint8", {-3.0}).tensor().get_double(0), 0.0);
  EXPECT_EQ(call("int32", {2.5}).tensor().get_double(0), 3.0);
  EXPECT_EQ(call("int32", {-2.5}).tensor().get_double(0), -3.0);
  EXPECT_EQ(call("uint64", {1e30}).class_name(), "uint64");
  EXPECT_EQ(call("single", {0.1}).class_name(), "single");
  EXPECT_EQ(call("double", {str("A")}).scalar(), 65.0);
  EXPECT_EQ(call("double", {Value::from_string("2.5")}).scalar(), 2.5);
  EXPECT_TRUE(std::isnan(call("double", {Value::from_string("abc")}).scalar()));
  EXPECT_EQ(call("logical", {3.0}).class_name(), "logical");
  EXPECT_EQ(error_id([] { call("logical", {NAN}); }), "MATLAB:nologicalnan");
  EXPECT_EQ(error_id([] { call("double", {Value(CellArray(Dims(1, 1)))}); }),
            "MATLAB:invalidConversion");
  EXPECT_TRUE(call("int16", {Value(Tensor::complex_scalar({1.4, 2.6}))}).tensor().is_complex());
}

TEST(Types, Char) {
  EXPECT_EQ(call("char", {65.0}).to_text(), "A");
  EXPECT_EQ(call("char", {}).dims(), Dims(0, 0));
  CellArray c(Dims(1, 2));
  c.at(0) = str("ab");
  c.at(1) = str("cde");
  Value m = call("char", {Value(c)});
  EXPECT_EQ(m.dims(), Dims(2, 3));
  EXPECT_EQ(m.tensor().get_double(4), ' ');  // row 1 padded
  EXPECT_EQ(m.tensor().get_double(5), 'e');
  StringArray s(Dims(1, 2));
  s.at(0) = "x";
  s.at(1) = "yz";
  EXPECT_EQ(call("char", {Value(s)}).dims(), Dims(2, 2));
  EXPECT_EQ(call("char", {Value::from_string("hello")}).to_text(), "hello");
  EXPECT_EQ(call("char", {str("a"), str(""), str("bcd")}).dims(), Dims(3, 3));
}

TEST(Types, ClassQueries) {
  EXPECT_EQ(call("class", {1.0}).to_text(), "double");
  EXPECT_EQ(call("class", {Value(CellArray())}).to_text(), "cell");
  EXPECT_EQ(call("class", {Value::from_string("s")}).to_text(), "string");
  Value i8 = Value(Tensor::scalar(1, ClassId::Int8));
  EXPECT_TRUE(truth(call("isa", {i8, str("integer")})));
  EXPECT_TRUE(truth(call("isa", {i8, str("numeric")})));
  EXPECT_FALSE(truth(call("isa", {i8, str("float")})));
  EXPECT_TRUE(truth(call("isa", {i8, str("int8")})));
  EXPECT_TRUE(truth(call("isa", {1.0, str("float")})));
  EXPECT_FALSE(truth(call("isa", {str("a"), str("numeric")})));
  EXPECT_TRUE(truth(call("isnumeric", {i8})));
  EXPECT_FALSE(truth(call("isnumeric", {Value::logical(true)})));
  EXPECT_TRUE(truth(call("isfloat", {Value(Tensor::scalar(1, ClassId::Single))})));
  EXPECT_TRUE(truth(call("isinteger", {i8})));
  EXPECT_TRUE(truth(call("islogical", {Value::logical(false)})));
  EXPECT_TRUE(truth(call("ischar", {str("x")})));
  EXPECT_TRUE(truth(call("iscell", {Value(CellArray())})));
  EXPECT_TRUE(truth(call("isstruct", {Value(StructArray())})));
  EXPECT_TRUE(truth(call("isstring", {Value::from_string("")})));
  EXPECT_TRUE(truth(call("isreal", {1.0})));
  EXPECT_FALSE(truth(call("isreal", {Value(Tensor::complex_scalar({1, 1}))})));
  EXPECT_TRUE(truth(call("iscomplex", {Value(Tensor::complex_scalar({1, 1}))})));
  EXPECT_FALSE(truth(call("is_function_handle", {1.0})));
}

TEST(Types, Cast) {
  EXPECT_EQ(call("cast", {3.7, str("int16")}).class_name(), "int16");
  EXPECT_EQ(call("cast", {3.7, str("int16")}).tensor().get_double(0), 4.0);
  Value p = Value(Tensor::complex_scalar({0, 1}, ClassId::Single));
  Value c = call("cast", {2.0, str("like"), p});
  EXPECT_EQ(c.class_name(), "single");
  EXPECT_TRUE(c.tensor().is_complex());
  EXPECT_EQ(error_id([] { call("cast", {1.0, str("nope")}); }), "MATLAB:cast:UnsupportedClass");
}
