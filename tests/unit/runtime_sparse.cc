// SparseMatrix storage (runtime/sparse.h): triplet assembly, zero dropping, transposes,
// subscripted reads and assignments, concatenation and the size checks.
#include <gtest/gtest.h>

#include <vector>

#include "runtime/error.h"
#include "runtime/sparse.h"

namespace matfuse {
namespace {

Tensor col(std::initializer_list<double> v) {
  Tensor t = Tensor::uninit(ClassId::Double, Dims(static_cast<int64_t>(v.size()), 1));
  int64_t i = 0;
  for (double x : v) t.set_double(i++, x);
  return t;
}

const SparseMatrix& sp(const Value& v) {
  const SparseMatrix* s = as_sparse(v);
  EXPECT_NE(s, nullptr);
  return *s;
}

TEST(Sparse, TripletsAddDuplicatesAndDropZeroSums) {
  const std::vector<int64_t> i{1, 3, 1, 2, 2}, j{1, 1, 1, 2, 2};
  const Value v = sparse_from_triplets(3, 2, i, j, col({1, 2, 5, 4, -4}));
  const SparseMatrix& s = sp(v);
  EXPECT_EQ(s.nnz(), 2);  // (1,1) = 6, (3,1) = 2; (2,2) sums to zero and is dropped
  EXPECT_EQ(s.jc(), (std::vector<int64_t>{0, 2, 2}));
  EXPECT_EQ(s.ir(), (std::vector<int64_t>{0, 2}));
  EXPECT_EQ(s.vals().get_double(0), 6);
  EXPECT_EQ(s.vals().get_double(1), 2);
  EXPECT_EQ(s.nzmax(), 2);
}

TEST(Sparse, LogicalTripletsAreOred) {
  Tensor v = Tensor::uninit(ClassId::Logical, Dims(2, 1));
  v.mutable_data<uint8_t>()[0] = 1;
  v.mutable_data<uint8_t>()[1] = 1;
  const std::vector<int64_t> i{2, 2}, j{1, 1};
  const Value sv = sparse_from_triplets(2, 1, i, j, v);
  const SparseMatrix& s = sp(sv);
  EXPECT_TRUE(s.is_logical());
  EXPECT_EQ(s.class_name(), "logical");
  EXPECT_EQ(s.nnz(), 1);
  EXPECT_EQ(s.vals().data<uint8_t>()[0], 1);
}

TEST(Sparse, FullRoundTripAndTranspose) {
  Tensor a = Tensor::zeros(ClassId::Double, Dims(2, 3));
  a.set_double(1, 7);   // (2,1)
  a.set_double(4, -3);  // (1,3)
  const Value s = sparse_from_full(a);
  EXPECT_EQ(sp(s).nnz(), 2);
  const Tensor back = sparse_to_full(sp(s));
  for (int64_t k = 0; k < 6; ++k) EXPECT_EQ(back.get_double(k), a.get_double(k));
  const Value tv = sparse_transpose(sp(s), false);
  const SparseMatrix& t = sp(tv);
  EXPECT_EQ(t.rows(), 3);
  EXPECT_EQ(t.cols(), 2);
  const Tensor tf = sparse_to_full(t);
  EXPECT_EQ(tf.get_double(3), 7);   // t(1,2) = a(2,1)
  EXPECT_EQ(tf.get_double(2), -3);  // t(3,1) = a(1,3)
}

TEST(Sparse, ReadsAreSparseAndAssignmentsGrow) {
  const std::vector<int64_t> i{1, 2}, j{1, 2};
  Value s = sparse_from_triplets(2, 2, i, j, col({1, 2}));
  Value r;
  const Value idx[2] = {Value(2.0), Value(2.0)};
  ASSERT_TRUE(as_value_object(s)->paren_read(idx, r));
  EXPECT_EQ(sp(r).rows(), 1);
  EXPECT_EQ(sp(r).vals().get_double(0), 2);
  const Value at[2] = {Value(4.0), Value(3.0)};
  ASSERT_TRUE(as_value_object(s)->paren_assign(at, Value(9.0), s));
  EXPECT_EQ(sp(s).rows(), 4);
  EXPECT_EQ(sp(s).cols(), 3);
  EXPECT_EQ(sp(s).nnz(), 3);
  // Assigning zero removes the entry.
  const Value one[2] = {Value(1.0), Value(1.0)};
  ASSERT_TRUE(as_value_object(s)->paren_assign(one, Value(0.0), s));
  EXPECT_EQ(sp(s).nnz(), 2);
}

TEST(Sparse, OutOfRangeReadsAndHugeSizesFailCleanly) {
  const std::vector<int64_t> i{1}, j{1};
  Value s = sparse_from_triplets(2, 2, i, j, col({1}));
  Value r;
  const Value idx[2] = {Value(3.0), Value(1.0)};
  EXPECT_THROW(as_value_object(s)->paren_read(idx, r), MatlabError);
  EXPECT_THROW(check_sparse_size(1, 1e15), MatlabError);
  EXPECT_THROW(check_sparse_size(1e300, 1), MatlabError);
}

TEST(Sparse, ConcatenationWithFullParts) {
  const std::vector<int64_t> i{1}, j{1};
  const Value s = sparse_from_triplets(1, 1, i, j, col({5}));
  const Value parts[2] = {s, Value(3.0)};
  Value out;
  ASSERT_TRUE(as_value_object(s)->concat(2, parts, out));
  EXPECT_EQ(sp(out).cols(), 2);
  EXPECT_EQ(sp(out).nnz(), 2);
}

}  // namespace
}  // namespace matfuse
