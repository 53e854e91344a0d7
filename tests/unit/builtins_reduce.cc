// Unit tests of the reduce family: sum prod mean min max any all cumsum norm, through the
// builtin table (MATLAB argument forms) and the C++ entry points of builtins/reduce.h.
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "runtime/reduce.h"
#include "builtins/registry.h"

using namespace matfuse;

namespace {

class TestCtx : public CallContext {
public:
  Session s;
  Session& session() override { return s; }
  Outputs call(const Value&, Args, int) override { return {}; }
  Outputs call_named(std::string_view, Args, int) override { return {}; }
  void display(const Value&, std::string_view) override {}
  int exist(std::string_view) override { return 0; }
  Outputs eval_text(std::string_view, int) override { return {}; }
};

/// Row-major literal -> MATLAB matrix of class c.
Tensor M(int64_t r, int64_t c, std::vector<double> v, ClassId cls = ClassId::Double) {
  Tensor t = Tensor::uninit(cls, Dims(r, c));
  for (int64_t i = 0; i < r; ++i)
    for (int64_t j = 0; j < c; ++j) t.set_double(j * r + i, v[i * c + j]);
  return t;
}
Tensor Row(std::vector<double> v, ClassId cls = ClassId::Double) {
  return M(1, static_cast<int64_t>(v.size()), v, cls);
}
Value S(const char* s) { return Value::from_chars(s); }

Outputs call(const char* name, std::vector<Value> args, int nargout = 1) {
  static TestCtx ctx;
  const Builtin* b = builtins().find(name);
  EXPECT_NE(b, nullptr) << name;
  return b->fn(ctx, Args(args.data(), args.size()), nargout);
}
Tensor call1(const char* name, std::vector<Value> args) { return call(name, args)[0].tensor(); }

/// Expects t to have dims d, class c and (column-major) values v; NaN matches NaN.
void expect_tensor(const Tensor& t, Dims d, ClassId c, std::vector<double> v) {
  EXPECT_EQ(t.dims(), d) << t.dims().str();
  EXPECT_EQ(t.cls(), c) << class_name(t.cls());
  ASSERT_EQ(t.numel(), static_cast<int64_t>(v.size()));
  for (size_t i = 0; i < v.size(); ++i) {
    double x = t.get_double(static_cast<int64_t>(i));
    if (std::isnan(v[i])) EXPECT_TRUE(std::isnan(x)) << i;
    else EXPECT_DOUBLE_EQ(x, v[i]) << "element " << i;
  }
}

std::string error_id(const char* name, std::vector<Value> args, int nargout = 1) {
  try {
    call(name, args, nargout);
  } catch (const MatlabError& e) {
    return e.identifier();
  }
  return "";
}

Tensor iota3(int64_t a, int64_t b, int64_t c) {
  Tensor t = Tensor::uninit(ClassId::Double, Dims{a, b, c});
  for (int64_t i = 0; i < t.numel(); ++i) t.set_double(i, static_cast<double>(i + 1));
  return t;
}

const double NaN = std::nan("");

}  // namespace

TEST(ReduceSum, DimensionForms) {
  Tensor A = M(2, 3, {1, 2, 3, 4, 5, 6});
  expect_tensor(call1("sum", {A}), Dims(1, 3), ClassId::Double, {5, 7, 9});
  expect_tensor(call1("sum", {A, 2.0}), Dims(2, 1), ClassId::Double, {6, 15});
  expect_tensor(call1("sum", {A, S("all")}), Dims(1, 1), ClassId::Double, {21});
  expect_tensor(call1("sum", {A, Row({1, 2})}), Dims(1, 1), ClassId::Double, {21});
  expect_tensor(call1("sum", {A, 3.0}), Dims(2, 3), ClassId::Double, {1, 4, 2, 5, 3, 6});
  expect_tensor(call1("sum", {Row({1, 2, 3})}), Dims(1, 1), ClassId::Double, {6});
  expect_tensor(sum_dim(A, 1), Dims(2, 1), ClassId::Double, {6, 15});
}

TEST(ReduceSum, VecdimOnNdArrayMatchesLoops) {
  Tensor A = iota3(2, 3, 4);
  Tensor r = call1("sum", {A, Row({1, 3})});
  std::vector<double> want(3, 0);
  for (int i = 0; i < 2; ++i)
    for (int j = 0; j < 3; ++j)
      for (int k = 0; k < 4; ++k) want[j] += A.get_double(i + 2 * j + 6 * k);
  expect_tensor(r, Dims(1, 3), ClassId::Double, want);
  Tensor r23 = call1("sum", {A, Row({2, 3})});
  expect_tensor(r23, Dims(2, 1), ClassId::Double, {1 + 3 + 5 + 7 + 9 + 11 + 13 + 15 + 17 + 19 + 21 + 23,
                                                   2 + 4 + 6 + 8 + 10 + 12 + 14 + 16 + 18 + 20 + 22 + 24});
  Tensor d3 = call1("sum", {A, 3.0});
  EXPECT_EQ(d3.dims(), Dims(2, 3));
  EXPECT_DOUBLE_EQ(d3.get_double(0), 1 + 7 + 13 + 19);
}

TEST(ReduceSum, EmptyConventions) {
  expect_tensor(call1("sum", {Value()}), Dims(1, 1), ClassId::Double, {0});
  expect_tensor(call1("sum", {Tensor::zeros(ClassId::Double, Dims(0, 3))}), Dims(1, 3),
                ClassId::Double, {0, 0, 0});
  expect_tensor(call1("sum", {Tensor::zeros(ClassId::Double, Dims(3, 0))}), Dims(1, 0),
                ClassId::Double, {});
  expect_tensor(call1("prod", {Value()}), Dims(1, 1), ClassId::Double, {1});
  expect_tensor(call1("mean", {Value()}), Dims(1, 1), ClassId::Double, {NaN});
  expect_tensor(call1("mean", {Tensor::zeros(ClassId::Double, Dims(0, 3))}), Dims(1, 3),
                ClassId::Double, {NaN, NaN, NaN});
  expect_tensor(call1("max", {Value()}), Dims(0, 0), ClassId::Double, {});
  EXPECT_EQ(call1("max", {Tensor::zeros(ClassId::Double, Dims(0, 3))}).dims(), Dims(0, 3));
  expect_tensor(call1("any", {Value()}), Dims(1, 1), ClassId::Logical, {0});
  expect_tensor(call1("all", {Value()}), Dims(1, 1), ClassId::Logical, {1});
  expect_tensor(call1("cumsum", {Value()}), Dims(0, 0), ClassId::Double, {});
}

TEST(ReduceSum, ClassesAndOuttype) {
  expect_tensor(call1("sum", {Row({100, 100}, ClassId::Int8)}), Dims(1, 1), ClassId::Double, {200});
  expect_tensor(call1("sum", {Row({100, 100}, ClassId::Int8), S("native")}), Dims(1, 1),
                ClassId::Int8, {127});
  expect_tensor(call1("sum", {Row({100, 100}, ClassId::Int8), S("double")}), Dims(1, 1),
                ClassId::Double, {200});
  expect_tensor(call1("sum", {Row({100, 100, -100}, ClassId::Int8), S("native")}), Dims(1, 1),
                ClassId::Int8, {100});
  expect_tensor(call1("sum", {Row({1, 0, 1}, ClassId::Logical)}), Dims(1, 1), ClassId::Double, {2});
  expect_tensor(call1("sum", {Row({1, 0, 1}, ClassId::Logical), S("native")}), Dims(1, 1),
                ClassId::Logical, {1});
  expect_tensor(call1("sum", {Row({97, 98}, ClassId::Char)}), Dims(1, 1), ClassId::Double, {195});
  expect_tensor(call1("sum", {Row({1.5, 2}, ClassId::Single)}), Dims(1, 1), ClassId::Single, {3.5});
  expect_tensor(call1("sum", {Row({1.5, 2}, ClassId::Single), S("double")}), Dims(1, 1),
                ClassId::Double, {3.5});
  expect_tensor(call1("prod", {Row({200, 2}, ClassId::Int16)}), Dims(1, 1), ClassId::Double, {400});
  expect_tensor(call1("prod", {Row({200, 200}, ClassId::Int16), S("native")}), Dims(1, 1),
                ClassId::Int16, {32767});
  expect_tensor(call1("prod", {Row({1, 1}, ClassId::Logical)}), Dims(1, 1), ClassId::Double, {1});
  expect_tensor(call1("mean", {Row({1, 2}, ClassId::Int8)}), Dims(1, 1), ClassId::Double, {1.5});
  expect_tensor(call1("mean", {Row({1, 2}, ClassId::Int8), S("native")}), Dims(1, 1),
                ClassId::Int8, {2});
  expect_tensor(call1("mean", {Row({1, 2}, ClassId::Single)}), Dims(1, 1), ClassId::Single, {1.5});
  expect_tensor(call1("mean", {M(2, 2, {1, 2, 3, 4}), 2.0}), Dims(2, 1), ClassId::Double, {1.5, 3.5});
}

TEST(ReduceSum, NanFlags) {
  Tensor x = Row({1, NaN, 2});
  expect_tensor(call1("sum", {x}), Dims(1, 1), ClassId::Double, {NaN});
  expect_tensor(call1("sum", {x, S("omitnan")}), Dims(1, 1), ClassId::Double, {3});
  expect_tensor(call1("sum", {x, S("includenan")}), Dims(1, 1), ClassId::Double, {NaN});
  expect_tensor(call1("prod", {x, S("omitnan")}), Dims(1, 1), ClassId::Double, {2});
  expect_tensor(call1("mean", {x, S("omitnan")}), Dims(1, 1), ClassId::Double, {1.5});
  expect_tensor(call1("mean", {M(2, 2, {1, NaN, 3, 5}), 2.0, S("omitnan")}), Dims(2, 1),
                ClassId::Double, {1, 4});
  // Along a strided dimension too.
  expect_tensor(call1("sum", {M(2, 2, {1, NaN, 3, 5}), 1.0, S("omitnan"), S("double")}),
                Dims(1, 2), ClassId::Double, {4, 5});
}

TEST(ReduceSum, SingleLongSumIsPairwise) {
  int64_t n = 1000000;
  Tensor t = Tensor::uninit(ClassId::Single, Dims(n, 1));
  float* p = t.mutable_data<float>();
  for (int64_t i = 0; i < n; ++i) p[i] = 0.1f;
  Tensor s = call1("sum", {t});
  EXPECT_EQ(s.cls(), ClassId::Single);
  EXPECT_NEAR(s.get_double(0), 100000.0, 1.0);  // naive float accumulation is off by ~900
  // Deterministic: same bits twice.
  EXPECT_EQ(call1("sum", {t}).get_double(0), s.get_double(0));
}

TEST(ReduceMinMax, IndexOutputsFirstOccurrence) {
  Tensor A = M(2, 3, {3, 7, 7, 9, 1, 9});
  Outputs o = call("max", {A, Value(), 2.0}, 2);
  expect_tensor(o[0].tensor(), Dims(2, 1), ClassId::Double, {7, 9});
  expect_tensor(o[1].tensor(), Dims(2, 1), ClassId::Double, {2, 1});
  o = call("min", {A}, 2);
  expect_tensor(o[0].tensor(), Dims(1, 3), ClassId::Double, {3, 1, 7});
  expect_tensor(o[1].tensor(), Dims(1, 3), ClassId::Double, {1, 2, 1});
  o = call("max", {A, Value(), S("all")}, 2);
  expect_tensor(o[0].tensor(), Dims(1, 1), ClassId::Double, {9});
  expect_tensor(o[1].tensor(), Dims(1, 1), ClassId::Double, {2});
  o = call("max", {A, Value(), 2.0, S("linear")}, 2);
  expect_tensor(o[1].tensor(), Dims(2, 1), ClassId::Double, {3, 2});
  // Classes: integers keep their class, char gives double.
  expect_tensor(call1("max", {Row({1, -5}, ClassId::Int8)}), Dims(1, 1), ClassId::Int8, {1});
  expect_tensor(call1("max", {S("abc")}), Dims(1, 1), ClassId::Double, {99});
  expect_tensor(call1("max", {Row({0, 1}, ClassId::Logical)}), Dims(1, 1), ClassId::Logical, {1});
}

TEST(ReduceMinMax, NanHandling) {
  Outputs o = call("max", {Row({NaN, NaN})}, 2);
  expect_tensor(o[0].tensor(), Dims(1, 1), ClassId::Double, {NaN});
  expect_tensor(o[1].tensor(), Dims(1, 1), ClassId::Double, {1});
  o = call("max", {Row({1, NaN, 3})}, 2);
  expect_tensor(o[0].tensor(), Dims(1, 1), ClassId::Double, {3});
  expect_tensor(o[1].tensor(), Dims(1, 1), ClassId::Double, {3});
  o = call("max", {Row({1, NaN, 3}), Value(), S("includenan")}, 2);
  expect_tensor(o[0].tensor(), Dims(1, 1), ClassId::Double, {NaN});
  expect_tensor(o[1].tensor(), Dims(1, 1), ClassId::Double, {2});
  o = call("min", {Row({4, NaN, 2})}, 2);
  expect_tensor(o[1].tensor(), Dims(1, 1), ClassId::Double, {3});
  // Strided dimension (the lane-parallel path) follows the same rules.
  Tensor A = M(3, 3, {NaN, 1, NaN, NaN, NaN, NaN, 2, 5, 5});
  o = call("max", {A, Value(), 2.0}, 2);
  expect_tensor(o[0].tensor(), Dims(3, 1), ClassId::Double, {1, NaN, 5});
  expect_tensor(o[1].tensor(), Dims(3, 1), ClassId::Double, {2, 1, 2});
  o = call("min", {A, Value(), 2.0, S("includenan")}, 2);
  expect_tensor(o[0].tensor(), Dims(3, 1), ClassId::Double, {NaN, NaN, 2});
  expect_tensor(o[1].tensor(), Dims(3, 1), ClassId::Double, {1, 1, 1});
}

TEST(ReduceMinMax, ComplexComparesAbsThenAngle) {
  Tensor z = Tensor::uninit(ClassId::Double, Dims(1, 3), true);
  z.set_complex(0, {1, 1});
  z.set_complex(1, {-1, -1});
  z.set_complex(2, {0, std::sqrt(2.0)});
  Outputs o = call("max", {z}, 2);
  Tensor m = o[0].tensor();
  EXPECT_TRUE(m.is_complex());
  EXPECT_DOUBLE_EQ(m.get_complex(0).imag(), std::sqrt(2.0));
  EXPECT_DOUBLE_EQ(o[1].tensor().get_double(0), 3);
  o = call("min", {z}, 2);
  EXPECT_DOUBLE_EQ(o[1].tensor().get_double(0), 2);  // angle -3pi/4 is the smallest
}

TEST(ReduceMinMax, TwoArgumentsExpandAndIgnoreNan) {
  expect_tensor(call1("max", {M(2, 2, {1, 5, 3, 2}), M(2, 1, {2, 4})}), Dims(2, 2),
                ClassId::Double, {2, 4, 5, 4});
  expect_tensor(call1("max", {Row({NaN, 1, NaN}), Row({2, NaN, NaN})}), Dims(1, 3),
                ClassId::Double, {2, 1, NaN});
  expect_tensor(call1("min", {Row({NaN, 1}), Row({2, NaN}), S("includenan")}), Dims(1, 2),
                ClassId::Double, {NaN, NaN});
  expect_tensor(call1("max", {Row({1, 2}, ClassId::Int8), 1.6}), Dims(1, 2), ClassId::Int8, {2, 2});
  expect_tensor(call1("min", {Row({1, 2}, ClassId::Single), 1.5}), Dims(1, 2), ClassId::Single,
                {1, 1.5});
  expect_tensor(call1("max", {Row({1, 0}, ClassId::Logical), Row({0, 0}, ClassId::Logical)}),
                Dims(1, 2), ClassId::Logical, {1, 0});
  EXPECT_EQ(error_id("max", {Row({1, 2}, ClassId::Int8), Row({1, 2}, ClassId::Int16)}),
            "MATLAB:mixedIntegerTypes");
  EXPECT_EQ(error_id("max", {Row({1, 2, 3}), Row({1, 2})}), "MATLAB:sizeDimensionsMustMatch");
  EXPECT_EQ(error_id("max", {Row({1, 2}), Row({1, 2})}, 2), "MATLAB:max:TwoInTwoOutCaseNotSupported");
}

TEST(ReduceAnyAll, PerColumnAndAll) {
  Tensor A = M(2, 2, {0, 1, 0, 1});
  expect_tensor(call1("any", {A}), Dims(1, 2), ClassId::Logical, {0, 1});
  expect_tensor(call1("all", {A}), Dims(1, 2), ClassId::Logical, {0, 1});
  expect_tensor(call1("any", {A, 2.0}), Dims(2, 1), ClassId::Logical, {1, 1});
  expect_tensor(call1("all", {M(2, 2, {1, NaN, 0, 1}), 2.0}), Dims(2, 1), ClassId::Logical, {1, 0});
  expect_tensor(call1("all", {A, S("all")}), Dims(1, 1), ClassId::Logical, {0});
  expect_tensor(call1("any", {Row({NaN, 0})}), Dims(1, 1), ClassId::Logical, {0});
  expect_tensor(call1("all", {Row({NaN, 1})}), Dims(1, 1), ClassId::Logical, {1});
  expect_tensor(call1("any", {Tensor::zeros(ClassId::Double, Dims(0, 3))}), Dims(1, 3),
                ClassId::Logical, {0, 0, 0});
  expect_tensor(call1("all", {Row({1, 2}, ClassId::Int8)}), Dims(1, 1), ClassId::Logical, {1});
}

TEST(ReduceCumsum, DimsReverseAndClasses) {
  expect_tensor(call1("cumsum", {Row({1, 2, 3})}), Dims(1, 3), ClassId::Double, {1, 3, 6});
  Tensor A = M(2, 2, {1, 2, 3, 4});
  expect_tensor(call1("cumsum", {A}), Dims(2, 2), ClassId::Double, {1, 4, 2, 6});
  expect_tensor(call1("cumsum", {A, 2.0}), Dims(2, 2), ClassId::Double, {1, 3, 3, 7});
  expect_tensor(call1("cumsum", {Row({1, 2, 3}), S("reverse")}), Dims(1, 3), ClassId::Double,
                {6, 5, 3});
  expect_tensor(call1("cumsum", {Row({100, 100}, ClassId::Int8)}), Dims(1, 2), ClassId::Int8,
                {100, 127});
  expect_tensor(call1("cumsum", {Row({1, 1}, ClassId::Logical)}), Dims(1, 2), ClassId::Double,
                {1, 2});
  expect_tensor(call1("cumsum", {Row({1, NaN, 2}), S("omitnan")}), Dims(1, 3), ClassId::Double,
                {1, 1, 3});
}

TEST(ReduceNorm, VectorAndMatrixNorms) {
  auto norm = [](std::vector<Value> a) { return call1("norm", a).get_double(0); };
  EXPECT_DOUBLE_EQ(norm({Row({3, 4})}), 5);
  EXPECT_DOUBLE_EQ(norm({Row({3, -4}), 1.0}), 7);
  EXPECT_DOUBLE_EQ(norm({Row({3, -4}), INFINITY}), 4);
  EXPECT_DOUBLE_EQ(norm({Row({3, -4}), -INFINITY}), 3);
  EXPECT_DOUBLE_EQ(norm({Row({3, 4}), S("fro")}), 5);
  EXPECT_NEAR(norm({Row({1, 2, 3}), 3.0}), 3.3019272488946263, 1e-14);
  Tensor A = M(2, 2, {1, 2, 3, 4});
  EXPECT_NEAR(norm({A}), 5.4649857042190426, 1e-13);
  EXPECT_DOUBLE_EQ(norm({A, 1.0}), 6);
  EXPECT_DOUBLE_EQ(norm({A, S("inf")}), 7);
  EXPECT_NEAR(norm({A, S("fro")}), std::sqrt(30.0), 1e-14);
  EXPECT_DOUBLE_EQ(norm({Value()}), 0);
  EXPECT_EQ(call1("norm", {Row({3, 4}, ClassId::Single)}).cls(), ClassId::Single);
  EXPECT_EQ(error_id("norm", {A, 3.0}), "MATLAB:norm:unknownNorm");
}

TEST(ReduceErrors, BadArguments) {
  CellArray c(Dims(1, 1));
  EXPECT_EQ(error_id("sum", {Value(c)}), "MATLAB:UndefinedFunction");
  EXPECT_EQ(error_id("sum", {Row({1, 2}), 0.0}), "MATLAB:getdimarg:invalidDim");
  EXPECT_EQ(error_id("sum", {Row({1, 2}), 1.5}), "MATLAB:getdimarg:invalidDim");
  EXPECT_EQ(error_id("sum", {Row({1, 2}), Row({1, 1})}),
            "MATLAB:getdimarg:vecdimsMustBeUniquePositiveIntegers");
  EXPECT_EQ(error_id("sum", {}), "MATLAB:minrhs");
  EXPECT_NE(error_id("sum", {Row({1, 2}), S("bogus")}), "");
}

TEST(ReduceEntryPoints, ScalarFastPathsAgree) {
  const Builtin* mx = builtins().find("max");
  ASSERT_NE(mx->scalar2, nullptr);
  EXPECT_DOUBLE_EQ(mx->scalar2(NaN, 2), call1("max", {NaN, 2.0}).get_double(0));
  EXPECT_DOUBLE_EQ(builtins().find("sum")->scalar1(4), call1("sum", {4.0}).get_double(0));
  EXPECT_DOUBLE_EQ(builtins().find("norm")->scalar1(-4), call1("norm", {-4.0}).get_double(0));
}

TEST(ReduceEntryPoints, ValueAndTensorApi) {
  EXPECT_DOUBLE_EQ(reduce_sum(Value(Row({1, 2, 3}))).scalar(), 6);
  EXPECT_EQ(first_nonsingleton_dim(Dims{1, 1, 4}), 2);
  Tensor idx;
  Tensor m = minmax_dims(M(2, 2, {1, 5, 7, 2}), {1}, true, NanFlag::Omit, &idx);
  expect_tensor(m, Dims(2, 1), ClassId::Double, {5, 7});
  expect_tensor(idx, Dims(2, 1), ClassId::Double, {2, 1});
}
