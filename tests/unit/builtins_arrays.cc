// Tests of the arrays family (arrays_shape.cc, arrays_grid.cc): flip/rot90/circshift/tril/
// triu/issquare/meshgrid/ndgrid/kron/blkdiag/sub2ind/ind2sub on several classes, plus the
// existing size/cat forms the family relies on.
#include <gtest/gtest.h>

#include <vector>

#include "builtins/registry.h"
#include "builtins_fake_ctx.h"

namespace matfuse {
namespace {

using testing::cellrow;
using testing::error_id;
using testing::FakeCtx;
using testing::row;
using testing::str;

std::vector<double> vals(const Value& v) {
  const Tensor t = v.tensor();
  std::vector<double> r;
  for (int64_t i = 0; i < t.numel(); ++i) r.push_back(t.get_double(i));
  return r;
}
/// m-by-n (or given dims) array holding 1..numel in column-major order, of class c.
Value seq(Dims d, ClassId c = ClassId::Double) {
  Tensor t = Tensor::uninit(c, d);
  for (int64_t i = 0; i < t.numel(); ++i) t.set_double(i, static_cast<double>(i + 1));
  return Value(t);
}

TEST(ArraysShape, Flip) {
  FakeCtx c;
  const Value x = seq(Dims(2, 3));  // [1 3 5; 2 4 6]
  EXPECT_EQ(vals(c.run1("flip", {x})), (std::vector<double>{2, 1, 4, 3, 6, 5}));
  EXPECT_EQ(vals(c.run1("flip", {row({1, 2, 3})})), (std::vector<double>{3, 2, 1}));  // first non-singleton
  EXPECT_EQ(vals(c.run1("fliplr", {x})), (std::vector<double>{5, 6, 3, 4, 1, 2}));
  EXPECT_EQ(vals(c.run1("flipud", {x})), (std::vector<double>{2, 1, 4, 3, 6, 5}));
  EXPECT_EQ(vals(c.run1("flip", {x, 3.0})), vals(x));
  Value n3 = c.run1("flip", {seq(Dims{1, 1, 3}, ClassId::Int8), 3.0});
  EXPECT_EQ(n3.class_name(), "int8");
  EXPECT_EQ(vals(n3), (std::vector<double>{3, 2, 1}));
  Value s = c.run1("fliplr", {str("abc")});
  EXPECT_EQ(s.to_text(), "cba");
  Value cl = c.run1("fliplr", {cellrow({1.0, str("a"), 3.0})});
  ASSERT_TRUE(cl.is_cell());
  EXPECT_EQ(cl.cell()[0].scalar(), 3.0);
  EXPECT_EQ(cl.cell()[1].to_text(), "a");
  EXPECT_EQ(error_id([&] { c.run1("flip", {x, 0.0}); }), "MATLAB:getdimarg:dimensionMustBePositiveInteger");
}

TEST(ArraysShape, Rot90) {
  FakeCtx c;
  const Value x = seq(Dims(2, 3));  // [1 3 5; 2 4 6]
  Value r1 = c.run1("rot90", {x});  // [5 6; 3 4; 1 2]
  EXPECT_EQ(r1.dims(), Dims(3, 2));
  EXPECT_EQ(vals(r1), (std::vector<double>{5, 3, 1, 6, 4, 2}));
  EXPECT_EQ(vals(c.run1("rot90", {x, 2.0})), (std::vector<double>{6, 5, 4, 3, 2, 1}));
  EXPECT_EQ(vals(c.run1("rot90", {x, -1.0})), (std::vector<double>{2, 4, 6, 1, 3, 5}));  // [2 1; 4 3; 6 5]
  EXPECT_EQ(vals(c.run1("rot90", {x, 3.0})), vals(c.run1("rot90", {x, -1.0})));
  EXPECT_EQ(vals(c.run1("rot90", {x, 4.0})), vals(x));
  Value lg = c.run1("rot90", {Value(Tensor::logical_scalar(true))});
  EXPECT_EQ(lg.class_name(), "logical");
  Value nd = c.run1("rot90", {seq(Dims{2, 1, 2})});  // every page rotates: [1;2] -> [1 2]
  EXPECT_EQ(nd.dims(), (Dims{1, 2, 2}));
  EXPECT_EQ(vals(nd), (std::vector<double>{1, 2, 3, 4}));
  EXPECT_EQ(error_id([&] { c.run1("rot90", {x, 1.5}); }), "MATLAB:rot90:kNonInteger");
  EXPECT_EQ(error_id([&] { c.run1("rot90", {x, row({1, 2})}); }), "MATLAB:rot90:kNonScalar");
}

TEST(ArraysShape, Circshift) {
  FakeCtx c;
  EXPECT_EQ(vals(c.run1("circshift", {row({1, 2, 3, 4, 5}), 2.0})), (std::vector<double>{4, 5, 1, 2, 3}));
  EXPECT_EQ(vals(c.run1("circshift", {row({1, 2, 3, 4, 5}), -1.0})), (std::vector<double>{2, 3, 4, 5, 1}));
  const Value x = seq(Dims(2, 3));  // [1 3 5; 2 4 6]
  EXPECT_EQ(vals(c.run1("circshift", {x, 1.0})), (std::vector<double>{2, 1, 4, 3, 6, 5}));
  EXPECT_EQ(vals(c.run1("circshift", {x, 1.0, 2.0})), (std::vector<double>{5, 6, 1, 2, 3, 4}));
  EXPECT_EQ(vals(c.run1("circshift", {x, row({1, 1})})), (std::vector<double>{6, 5, 2, 1, 4, 3}));
  EXPECT_EQ(vals(c.run1("circshift", {x, 7.0, 2.0})), vals(c.run1("circshift", {x, 1.0, 2.0})));
  Value cl = c.run1("circshift", {cellrow({1.0, 2.0, 3.0}), 1.0});
  ASSERT_TRUE(cl.is_cell());
  EXPECT_EQ(cl.cell()[0].scalar(), 3.0);
  EXPECT_EQ(c.run1("circshift", {str("abcd"), 1.0}).to_text(), "dabc");
  EXPECT_EQ(error_id([&] { c.run1("circshift", {x, 1.5}); }), "MATLAB:circshift:InvalidShiftType");
  EXPECT_EQ(error_id([&] { c.run1("circshift", {x, row({1, 2}), 1.0}); }), "MATLAB:circshift:NonScalarDim");
}

TEST(ArraysShape, TrilTriu) {
  FakeCtx c;
  const Value x = seq(Dims(3, 3));  // [1 4 7; 2 5 8; 3 6 9]
  EXPECT_EQ(vals(c.run1("tril", {x})), (std::vector<double>{1, 2, 3, 0, 5, 6, 0, 0, 9}));
  EXPECT_EQ(vals(c.run1("triu", {x})), (std::vector<double>{1, 0, 0, 4, 5, 0, 7, 8, 9}));
  EXPECT_EQ(vals(c.run1("tril", {x, -1.0})), (std::vector<double>{0, 2, 3, 0, 0, 6, 0, 0, 0}));
  EXPECT_EQ(vals(c.run1("triu", {x, 1.0})), (std::vector<double>{0, 0, 0, 4, 0, 0, 7, 8, 0}));
  EXPECT_EQ(vals(c.run1("tril", {x, 5.0})), vals(x));
  Value r = c.run1("triu", {seq(Dims(2, 3), ClassId::UInt16)});
  EXPECT_EQ(r.class_name(), "uint16");
  EXPECT_EQ(vals(r), (std::vector<double>{1, 0, 3, 4, 5, 6}));
  Value z = c.run1("tril", {Value(Tensor::complex_scalar({1, 2}))});
  EXPECT_TRUE(z.tensor().is_complex());
  EXPECT_EQ(error_id([&] { c.run1("tril", {seq(Dims{2, 2, 2})}); }), "MATLAB:tril:firstInputMustBe2D");
  EXPECT_EQ(error_id([&] { c.run1("triu", {x, 0.5}); }), "MATLAB:triu:kthDiagInputNotInteger");
  EXPECT_EQ(error_id([&] { c.run1("tril", {cellrow({1.0})}); }), "MATLAB:UndefinedFunction");
}

TEST(ArraysShape, Issquare) {
  FakeCtx c;
  EXPECT_TRUE(c.run1("issquare", {seq(Dims(3, 3))}).truthy());
  EXPECT_FALSE(c.run1("issquare", {seq(Dims(2, 3))}).truthy());
  EXPECT_TRUE(c.run1("issquare", {Value()}).truthy());  // 0x0
  EXPECT_FALSE(c.run1("issquare", {seq(Dims{2, 2, 2})}).truthy());
  EXPECT_TRUE(c.run1("issquare", {cellrow({1.0})}).truthy());
  EXPECT_EQ(c.run1("issquare", {1.0}).class_name(), "logical");
}

TEST(ArraysGrid, MeshgridNdgrid) {
  FakeCtx c;
  Outputs m = c.run("meshgrid", {row({1, 2, 3}), row({10, 11})}, 2);
  ASSERT_EQ(m.size(), 2u);
  EXPECT_EQ(m[0].dims(), Dims(2, 3));
  EXPECT_EQ(vals(m[0]), (std::vector<double>{1, 1, 2, 2, 3, 3}));
  EXPECT_EQ(vals(m[1]), (std::vector<double>{10, 11, 10, 11, 10, 11}));
  Outputs sq = c.run("meshgrid", {row({1, 2})}, 2);
  EXPECT_EQ(vals(sq[1]), (std::vector<double>{1, 2, 1, 2}));
  Outputs m3 = c.run("meshgrid", {row({1, 2}), row({3, 4, 5}), row({6, 7})}, 3);
  EXPECT_EQ(m3[2].dims(), (Dims{3, 2, 2}));
  EXPECT_EQ(vals(m3[2])[6], 7.0);
  Outputs n = c.run("ndgrid", {row({1, 2}), row({5, 6, 7})}, 2);
  EXPECT_EQ(n[0].dims(), Dims(2, 3));
  EXPECT_EQ(vals(n[0]), (std::vector<double>{1, 2, 1, 2, 1, 2}));
  EXPECT_EQ(vals(n[1]), (std::vector<double>{5, 5, 6, 6, 7, 7}));
  EXPECT_EQ(c.run1("ndgrid", {row({1, 2, 3})}).dims(), Dims(3, 1));
  Outputs s = c.run("meshgrid", {seq(Dims(1, 2), ClassId::Single), row({1, 2})}, 2);
  EXPECT_EQ(s[0].class_name(), "single");
  EXPECT_EQ(error_id([&] { c.run("meshgrid", {row({1}), row({2})}, 3); }), "MATLAB:TooManyOutputs");
}

TEST(ArraysGrid, KronBlkdiag) {
  FakeCtx c;
  const Value a = seq(Dims(2, 2));  // [1 3; 2 4]
  Value k = c.run1("kron", {a, row({1, 10})});  // [1 10 3 30; 2 20 4 40]
  EXPECT_EQ(k.dims(), Dims(2, 4));
  EXPECT_EQ(vals(k), (std::vector<double>{1, 2, 10, 20, 3, 4, 30, 40}));
  Value k2 = c.run1("kron", {seq(Dims(2, 1)), a});
  EXPECT_EQ(k2.dims(), Dims(4, 2));
  EXPECT_EQ(vals(k2), (std::vector<double>{1, 2, 2, 4, 3, 4, 6, 8}));
  EXPECT_EQ(c.run1("kron", {seq(Dims(2, 2), ClassId::Single), a}).class_name(), "single");
  EXPECT_EQ(error_id([&] { c.run1("kron", {cellrow({1.0}), a}); }), "MATLAB:UndefinedFunction");
  Value b = c.run1("blkdiag", {row({1, 2}), 3.0});
  EXPECT_EQ(b.dims(), Dims(2, 3));
  EXPECT_EQ(vals(b), (std::vector<double>{1, 0, 2, 0, 0, 3}));
  EXPECT_EQ(c.run1("blkdiag", {seq(Dims(1, 1), ClassId::Int8), 2.0}).class_name(), "int8");
  EXPECT_EQ(c.run1("blkdiag", {Value(Tensor::logical_scalar(true)), Value(Tensor::logical_scalar(true))})
                .class_name(),
            "logical");
  EXPECT_EQ(c.run1("blkdiag", {}).dims(), Dims(0, 0));
}

TEST(ArraysGrid, Sub2indInd2sub) {
  FakeCtx c;
  EXPECT_EQ(vals(c.run1("sub2ind", {row({3, 4}), row({1, 2, 3}), row({2, 3, 4})})),
            (std::vector<double>{4, 8, 12}));
  EXPECT_EQ(c.run1("sub2ind", {row({2, 3, 4}), 2.0, 3.0, 2.0}).scalar(), 12.0);
  EXPECT_EQ(c.run1("sub2ind", {row({2, 3, 4}), 2.0, 9.0}).scalar(), 18.0);  // trailing dims fold
  EXPECT_EQ(c.run1("sub2ind", {row({2, 3}), 2.0, 3.0, 1.0}).scalar(), 6.0);  // extra singleton
  EXPECT_EQ(error_id([&] { c.run1("sub2ind", {row({3, 4}), 4.0, 1.0}); }), "MATLAB:sub2ind:IndexOutOfRange");
  EXPECT_EQ(error_id([&] { c.run1("sub2ind", {row({3, 4}), 0.0, 1.0}); }), "MATLAB:sub2ind:IndexOutOfRange");
  EXPECT_EQ(error_id([&] { c.run1("sub2ind", {row({3, 4}), row({1, 2}), 1.0}); }),
            "MATLAB:sub2ind:SubscriptVectorSize");
  EXPECT_EQ(error_id([&] { c.run1("sub2ind", {3.0, 1.0}); }), "MATLAB:sub2ind:InvalidSize");
  Outputs rc = c.run("ind2sub", {row({3, 4}), row({5, 12})}, 2);
  EXPECT_EQ(vals(rc[0]), (std::vector<double>{2, 3}));
  EXPECT_EQ(vals(rc[1]), (std::vector<double>{2, 4}));
  Outputs r3 = c.run("ind2sub", {row({2, 3, 4}), 17.0}, 3);
  EXPECT_EQ(r3[0].scalar(), 1.0);
  EXPECT_EQ(r3[1].scalar(), 3.0);
  EXPECT_EQ(r3[2].scalar(), 3.0);
  Outputs r2 = c.run("ind2sub", {row({2, 3, 4}), 17.0}, 2);  // folds dims 2..3
  EXPECT_EQ(r2[1].scalar(), 9.0);
  EXPECT_EQ(c.run("ind2sub", {row({2, 3}), 5.0}, 1)[0].scalar(), 5.0);  // linear form
  Outputs r4 = c.run("ind2sub", {row({2, 3}), 5.0}, 4);
  EXPECT_EQ(r4[3].scalar(), 1.0);
  EXPECT_EQ(error_id([&] { c.run("ind2sub", {row({2, 3}), 7.0}, 2); }), "MATLAB:ind2sub:IndexOutOfRange");
}

TEST(ArraysExisting, SizeAndCatForms) {
  FakeCtx c;
  const Value x = seq(Dims{2, 3, 4});
  EXPECT_EQ(vals(c.run1("size", {x, row({1, 3})})), (std::vector<double>{2, 4}));
  Outputs rc = c.run("size", {x}, 2);
  EXPECT_EQ(rc[1].scalar(), 12.0);  // trailing dims fold into the last output
  Outputs r4 = c.run("size", {x}, 4);
  EXPECT_EQ(r4[3].scalar(), 1.0);
  Value cat3 = c.run1("cat", {3.0, row({1, 2}), row({3, 4})});
  EXPECT_EQ(cat3.dims(), (Dims{1, 2, 2}));
  EXPECT_TRUE(c.run1("isvector", {row({1, 2})}).truthy());
  EXPECT_FALSE(c.run1("ismatrix", {x}).truthy());
}

}  // namespace
}  // namespace matfuse
