// Value serialization (runtime/serialize.h): every kind round-trips bit for bit; malformed and
// truncated bytes raise matfuse:serialize:corrupt (run under ASan/UBSan by tools/sanitize.sh).
#include <gtest/gtest.h>

#include <cmath>
#include <complex>
#include <cstring>
#include <limits>
#include <memory>

#include "runtime/serialize.h"
#include "runtime/sparse.h"

namespace matfuse {
namespace {

Value round_trip(const Value& v) { return deserialize_value(serialize_value(v)); }

void expect_same_tensor(const Tensor& a, const Tensor& b) {
  ASSERT_EQ(a.cls(), b.cls());
  ASSERT_EQ(a.dims(), b.dims());
  ASSERT_EQ(a.is_complex(), b.is_complex());
  ASSERT_EQ(a.gpu_array(), b.gpu_array());
  const size_t bytes = static_cast<size_t>(a.numel()) * static_cast<size_t>(a.elem_bytes());
  if (bytes) {
    EXPECT_EQ(std::memcmp(a.raw(), b.raw(), bytes), 0);
  }
}

void expect_same(const Value& a, const Value& b) {
  ASSERT_EQ(a.kind(), b.kind());
  ASSERT_EQ(a.class_name(), b.class_name());
  ASSERT_EQ(a.dims(), b.dims());
  switch (a.kind()) {
    case Value::Kind::Scalar: {
      double x = a.scalar(), y = b.scalar();
      EXPECT_EQ(std::memcmp(&x, &y, 8), 0);
      break;
    }
    case Value::Kind::Array:
      expect_same_tensor(*a.array_tensor(), *b.array_tensor());
      break;
    case Value::Kind::Cell:
      for (int64_t i = 0; i < a.numel(); ++i) expect_same(a.cell()[i], b.cell()[i]);
      break;
    case Value::Kind::Struct: {
      ASSERT_EQ(a.struct_array().fields(), b.struct_array().fields());
      const int nf = static_cast<int>(a.struct_array().fields().size());
      for (int64_t e = 0; e < a.numel(); ++e)
        for (int f = 0; f < nf; ++f)
          expect_same(a.struct_array().get(e, f), b.struct_array().get(e, f));
      break;
    }
    case Value::Kind::String:
      EXPECT_EQ(a.string_array().elems(), b.string_array().elems());
      break;
    default:
      break;
  }
}

TEST(Serialize, ScalarsKeepEveryBit) {
  for (double d : {0.0, -0.0, 1.5, -3.25e300, std::numeric_limits<double>::infinity(),
                   std::numeric_limits<double>::quiet_NaN(), 5e-324}) {
    Value v(d);
    expect_same(v, round_trip(v));
  }
}

TEST(Serialize, EveryClassRealAndComplex) {
  for (int c = 0; c < kNumClassIds; ++c) {
    const auto cls = static_cast<ClassId>(c);
    Tensor t = Tensor::zeros(cls, Dims{2, 3, 2});
    for (int64_t i = 0; i < t.numel(); ++i) t.set_double(i, static_cast<double>((i * 7) % 5));
    expect_same(Value(t), round_trip(Value(t)));
    if (cls == ClassId::Logical || cls == ClassId::Char) continue;
    Tensor z = Tensor::zeros(cls, Dims(3, 2), true);
    for (int64_t i = 0; i < z.numel(); ++i)
      z.set_complex(i, {static_cast<double>(i), -static_cast<double>(i) - 1});
    Value back = round_trip(Value(z));
    expect_same(Value(z), back);
    EXPECT_TRUE(back.tensor().is_complex());
  }
}

TEST(Serialize, EmptyArraysKeepTheirShapeAndClass) {
  Tensor e = Tensor::zeros(ClassId::Int16, Dims{0, 3, 4});
  Value back = round_trip(Value(e));
  EXPECT_EQ(back.class_name(), "int16");
  EXPECT_EQ(back.dims(), (Dims{0, 3, 4}));
  expect_same(Value(Tensor()), round_trip(Value(Tensor())));
  expect_same(Value::from_chars(""), round_trip(Value::from_chars("")));
}

TEST(Serialize, CharTextAndGpuFlag) {
  Value s = Value::from_chars("héllo, wörld");
  expect_same(s, round_trip(s));
  EXPECT_EQ(round_trip(s).to_text(), "héllo, wörld");
  Tensor g = Tensor::zeros(ClassId::Single, Dims(2, 2));
  g.set_gpu_array(true);
  EXPECT_TRUE(round_trip(Value(g)).is_gpu_array());
}

TEST(Serialize, CellsStructsAndStringsNest) {
  CellArray inner(Dims(1, 2));
  inner.at(0) = Value::from_chars("a");
  inner.at(1) = Value(Tensor::scalar(7, ClassId::UInt8));
  StructArray s(Dims(1, 2));
  s.add_field("x");
  s.add_field("name");
  s.at(0, 0) = Value(1.0);
  s.at(0, 1) = Value(inner);
  s.at(1, 0) = Value::from_string("text");
  StringArray str(Dims(2, 2));
  str.at(0) = "one";
  str.at(1) = std::nullopt;
  str.at(3) = "";
  CellArray outer(Dims(2, 2));
  outer.at(0) = Value(s);
  outer.at(1) = Value(str);
  outer.at(2) = Value(CellArray(Dims(0, 0)));
  outer.at(3) = Value(StructArray(Dims(0, 1)));
  Value v(outer);
  Value back = round_trip(v);
  expect_same(v, back);
  EXPECT_FALSE(back.cell()[1].string_array()[1].has_value());
  EXPECT_EQ(back.cell()[0].struct_array().fields(), (std::vector<std::string>{"x", "name"}));
}

TEST(Serialize, SparseRoundTrips) {
  Tensor vals = Tensor::zeros(ClassId::Double, Dims(3, 1), true);
  vals.set_complex(0, {1, 2});
  vals.set_complex(1, {3, 0});
  vals.set_complex(2, {0, -1});
  Value sp = make_sparse(4, 3, {0, 1, 1, 3}, {2, 0, 3}, vals);
  Value back = round_trip(sp);
  const SparseMatrix* a = as_sparse(sp);
  const SparseMatrix* b = as_sparse(back);
  ASSERT_TRUE(b);
  EXPECT_EQ(b->rows(), 4);
  EXPECT_EQ(b->cols(), 3);
  EXPECT_EQ(a->jc(), b->jc());
  EXPECT_EQ(a->ir(), b->ir());
  expect_same_tensor(a->vals(), b->vals());
}

TEST(Serialize, FunctionHandlesNeedACodec) {
  struct Fn : FunctionObject {
    std::string display() const override { return "@sin"; }
    std::string name() const override { return "sin"; }
  };
  Value f(std::shared_ptr<const FunctionObject>(std::make_shared<Fn>()));
  try {
    serialize_value(f);
    FAIL() << "expected an error";
  } catch (const MatlabError& e) {
    EXPECT_EQ(e.identifier(), "matfuse:serialize:unsupportedClass");
    EXPECT_EQ(e.message(), "Cannot send a value of class 'function_handle' to a parallel worker.");
  }
  // A codec that sends the text and builds a cell holding it on the other side.
  struct Codec : FunctionCodec {
    bool encode(const FunctionObject& fn, FunctionParts& out) override {
      out.text = fn.display();
      out.workspace.emplace_back("a", Value(2.0));
      return true;
    }
    Value decode(const FunctionParts& p) override {
      EXPECT_EQ(p.workspace.size(), 1u);
      return Value::from_chars(p.text);
    }
  } codec;
  EXPECT_EQ(deserialize_value(serialize_value(f, &codec), &codec).to_text(), "@sin");
}

TEST(Serialize, WriterAndReaderItems) {
  ValueWriter w;
  w.u8(200);
  w.u32(0xDEADBEEF);
  w.i64(-5);
  w.f64(0.1);
  w.str("abc");
  w.value(Value(3.0));
  ValueReader r(w.bytes());
  EXPECT_EQ(r.u8(), 200);
  EXPECT_EQ(r.u32(), 0xDEADBEEFu);
  EXPECT_EQ(r.i64(), -5);
  EXPECT_EQ(r.f64(), 0.1);
  EXPECT_EQ(r.str(), "abc");
  EXPECT_EQ(r.value().scalar(), 3.0);
  EXPECT_NO_THROW(r.expect_end());
  EXPECT_THROW(r.u8(), MatlabError);
}

void expect_corrupt(std::string_view bytes) {
  try {
    deserialize_value(bytes);
    ADD_FAILURE() << "no error for " << bytes.size() << " bytes";
  } catch (const MatlabError& e) {
    EXPECT_EQ(e.identifier(), "matfuse:serialize:corrupt") << e.message();
  }
}

TEST(Serialize, EveryTruncationIsAnError) {
  CellArray c(Dims(1, 3));
  c.at(0) = Value::from_chars("abc");
  StructArray s(Dims(1, 1));
  s.add_field("f");
  s.at(0, 0) = Value(Tensor::zeros(ClassId::Int32, Dims(2, 2), true));
  c.at(1) = Value(s);
  StringArray str(Dims(1, 2));
  str.at(0) = "x";
  c.at(2) = Value(str);
  const std::string good = serialize_value(Value(c));
  for (size_t n = 0; n < good.size(); ++n) expect_corrupt(std::string_view(good).substr(0, n));
  expect_corrupt(good + "x");  // trailing bytes
}

TEST(Serialize, FlippedBytesNeverCrash) {
  CellArray c(Dims(1, 2));
  c.at(0) = Value(Tensor::zeros(ClassId::Double, Dims(2, 2)));
  c.at(1) = make_sparse(3, 3, {0, 1, 2, 2}, {0, 2}, Tensor::zeros(ClassId::Double, Dims(2, 1)));
  const std::string good = serialize_value(Value(c));
  for (size_t i = 0; i < good.size(); ++i)
    for (int bit : {0, 3, 7}) {
      std::string bad = good;
      bad[i] = static_cast<char>(bad[i] ^ (1 << bit));
      try {
        (void)deserialize_value(bad);
      } catch (const MatlabError&) {
      }
    }
  // Sizes that promise more than the message holds are refused before allocating.
  ValueWriter w;
  for (char ch : std::string("MFV1")) w.u8(static_cast<uint8_t>(ch));
  w.u8(3);  // cell
  w.u32(2);
  w.i64(1000000000);
  w.i64(1000000000);
  expect_corrupt(w.bytes());
}

TEST(Serialize, UnsupportedObjectsNameTheirClass) {
  struct Handle : Object {
    std::string class_name() const override { return "containers.Map"; }
  };
  try {
    serialize_value(Value(std::shared_ptr<Object>(std::make_shared<Handle>())));
    FAIL() << "expected an error";
  } catch (const MatlabError& e) {
    EXPECT_EQ(e.identifier(), "matfuse:serialize:unsupportedClass");
    EXPECT_NE(e.message().find("'containers.Map'"), std::string::npos);
  }
}

TEST(Serialize, DeepNestingIsRefused) {
  Value v(1.0);
  for (int i = 0; i < kMaxSerializeDepth + 5; ++i) {
    CellArray c(Dims(1, 1));
    c.at(0) = v;
    v = Value(c);
  }
  EXPECT_THROW(serialize_value(v), MatlabError);
}

}  // namespace
}  // namespace matfuse
