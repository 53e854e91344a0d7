// Unit tests of the value model: Dims, classes, Tensor storage and Value kinds.
#include <gtest/gtest.h>

#include "runtime/value.h"

using namespace matfuse;

TEST(Dims, NormalizeDropsTrailingSingletons) {
  Dims d{2, 3, 1, 1};
  d.normalize();
  EXPECT_EQ(d.ndims(), 2);
  EXPECT_EQ(d.str(), "2x3");
  EXPECT_EQ(d[5], 1);
  EXPECT_EQ((Dims{2, 1, 4}).numel(), 8);
}

TEST(Dims, BroadcastFollowsImplicitExpansion) {
  EXPECT_EQ(broadcast_dims(Dims(3, 1), Dims(1, 4)), Dims(3, 4));
  EXPECT_EQ(broadcast_dims(Dims{2, 1, 5}, Dims(2, 3)), (Dims{2, 3, 5}));
  try {
    broadcast_dims(Dims(3, 1), Dims(4, 1));
    FAIL() << "expected an error";
  } catch (const MatlabError& e) {
    EXPECT_EQ(e.identifier(), "MATLAB:sizeDimensionsMustMatch");
  }
}

TEST(Dtype, ClassCombination) {
  EXPECT_EQ(class_of_binary(ClassId::Double, ClassId::Single), ClassId::Single);
  EXPECT_EQ(class_of_binary(ClassId::Int8, ClassId::Double), ClassId::Int8);
  EXPECT_EQ(class_of_binary(ClassId::Logical, ClassId::Char), ClassId::Double);
  EXPECT_THROW(class_of_binary(ClassId::Int8, ClassId::Int16), MatlabError);
  EXPECT_EQ(class_from_name("uint16"), ClassId::UInt16);
  EXPECT_FALSE(class_from_name("cell").has_value());
}

TEST(Dtype, SaturateCastRoundsHalfAwayAndSaturates) {
  EXPECT_EQ(saturate_cast<int8_t>(2.5), 3);
  EXPECT_EQ(saturate_cast<int8_t>(-2.5), -3);
  EXPECT_EQ(saturate_cast<int8_t>(300.0), 127);
  EXPECT_EQ(saturate_cast<uint8_t>(-4.0), 0);
  EXPECT_EQ(saturate_cast<int32_t>(std::nan("")), 0);
}

TEST(Tensor, CopyOnWrite) {
  Tensor a = Tensor::zeros(ClassId::Double, Dims(2, 2));
  Tensor b = a;
  EXPECT_TRUE(a.shared());
  b.mutable_data<double>()[0] = 7;
  EXPECT_EQ(a.get_double(0), 0);
  EXPECT_EQ(b.get_double(0), 7);
}

TEST(Tensor, ClassConversion) {
  Tensor a = Tensor::uninit(ClassId::Double, Dims(1, 3));
  double* p = a.mutable_data<double>();
  p[0] = 1.5; p[1] = -200; p[2] = 0;
  Tensor i8 = a.to_class(ClassId::Int8);
  EXPECT_EQ(i8.get_double(0), 2);
  EXPECT_EQ(i8.get_double(1), -128);
  Tensor l = a.to_class(ClassId::Logical);
  EXPECT_EQ(l.get_double(0), 1);
  EXPECT_EQ(l.get_double(2), 0);
  p[0] = std::nan("");
  try {
    a.to_class(ClassId::Logical);
    FAIL();
  } catch (const MatlabError& e) {
    EXPECT_EQ(e.identifier(), "MATLAB:nologicalnan");
  }
}

TEST(Tensor, CharRoundTripsUtf8) {
  Tensor t = Tensor::from_string("h\xC3\xA9llo");
  EXPECT_EQ(t.dims(), Dims(1, 5));
  EXPECT_EQ(t.to_utf8(), "h\xC3\xA9llo");
  EXPECT_EQ(Tensor::from_string("").dims(), Dims(0, 0));
}

TEST(Tensor, ComplexDropsZeroImaginary) {
  Tensor z = Tensor::complex_scalar({3, 0});
  EXPECT_TRUE(z.is_complex());
  EXPECT_FALSE(z.drop_zero_imag().is_complex());
  Tensor w = Tensor::complex_scalar({3, 1});
  EXPECT_TRUE(w.drop_zero_imag().is_complex());
}

TEST(Value, ScalarDoublesAreInline) {
  Value v(Tensor::scalar(4));
  EXPECT_EQ(v.kind(), Value::Kind::Scalar);
  EXPECT_EQ(v.class_name(), "double");
  Value s(Tensor::scalar(4, ClassId::Single));
  EXPECT_EQ(s.kind(), Value::Kind::Array);
  EXPECT_EQ(s.class_name(), "single");
  EXPECT_EQ(Value().dims(), Dims(0, 0));
}

TEST(Value, TextAndTruth) {
  Value c = Value::from_chars("abc");
  EXPECT_TRUE(c.is_text());
  EXPECT_EQ(c.to_text(), "abc");
  EXPECT_EQ(Value::from_string("xy").to_text(), "xy");
  EXPECT_TRUE(Value(2.0).truthy());
  EXPECT_FALSE(Value().truthy());
  EXPECT_THROW(Value(std::nan("")).truthy(), MatlabError);
}

TEST(Value, StructFieldsKeepOrder) {
  StructArray s(Dims(1, 2));
  s.add_field("b");
  s.add_field("a");
  s.at(1, 1) = Value(5.0);
  EXPECT_EQ(s.fields()[0], "b");
  StructArray t = s;
  t.remove_field("b");
  EXPECT_EQ(t.fields().size(), 1u);
  EXPECT_EQ(t.get(1, 0).scalar(), 5.0);
  EXPECT_EQ(s.fields().size(), 2u);  // copy-on-write left s alone
}

TEST(Value, CellCopyOnWrite) {
  CellArray a(Dims(1, 2));
  CellArray b = a;
  b.at(0) = Value(1.0);
  EXPECT_TRUE(a[0].is_empty());
  EXPECT_EQ(b[0].scalar(), 1.0);
}

// A cell or struct nested far deeper than the 8 MiB stack of this thread allows for a recursive
// release is destroyed, overwritten and cleared without overflowing it (release_payload).
TEST(Value, DeeplyNestedCellsAndStructsReleaseWithoutRecursion) {
  constexpr int kDepth = 1000000;
  {
    Value v = CellArray(Dims(1, 1));
    for (int i = 0; i < kDepth; ++i) {
      CellArray c(Dims(1, 2));
      c.at(0) = std::move(v);
      c.at(1) = Value(static_cast<double>(i));
      v = Value(std::move(c));
    }
    EXPECT_EQ(v.cell()[1].scalar(), kDepth - 1);
    Value copy = v;  // shared: releasing one owner frees nothing
    v = Value(1.0);
    EXPECT_EQ(copy.cell()[1].scalar(), kDepth - 1);
  }  // the last owner goes out of scope here
  Value s = StructArray(Dims(1, 1));
  for (int i = 0; i < kDepth; ++i) {
    StructArray t(Dims(1, 1));
    t.at(0, t.add_field("next")) = std::move(s);
    s = Value(std::move(t));
  }
  s = Value(Tensor());  // overwritten by another kind
  EXPECT_TRUE(s.is_tensor());
}
