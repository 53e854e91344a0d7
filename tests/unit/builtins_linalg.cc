// Unit tests of the linalg family: mtimes, mldivide, mrdivide, mpower, transpose, diag.
#include <gtest/gtest.h>

#include <cmath>
#include <sstream>
#include <vector>

#include "builtins/linalg.h"
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

Tensor M(int64_t r, int64_t c, std::vector<double> v, ClassId cls = ClassId::Double) {
  Tensor t = Tensor::uninit(cls, Dims(r, c));
  for (int64_t i = 0; i < r; ++i)
    for (int64_t j = 0; j < c; ++j) t.set_double(j * r + i, v[i * c + j]);
  return t;
}

/// Deterministic pseudo-random matrix.
Tensor R(int64_t r, int64_t c, unsigned seed, bool complex = false) {
  Tensor t = Tensor::uninit(ClassId::Double, Dims(r, c), complex);
  unsigned s = seed;
  auto next = [&] {
    s = s * 1103515245u + 12345u;
    return static_cast<double>((s >> 8) % 2001) / 1000.0 - 1.0;
  };
  for (int64_t i = 0; i < t.numel(); ++i) {
    double re = next();
    if (complex) t.set_complex(i, {re, next()});
    else t.set_double(i, re);
  }
  return t;
}

std::complex<double> at(const Tensor& t, int64_t i, int64_t j) {
  return t.get_complex(j * t.dims().rows() + i);
}

Tensor naive_mul(const Tensor& a, const Tensor& b) {
  int64_t m = a.dims().rows(), k = a.dims().cols(), n = b.dims().cols();
  Tensor c = Tensor::uninit(ClassId::Double, Dims(m, n), true);
  for (int64_t i = 0; i < m; ++i)
    for (int64_t j = 0; j < n; ++j) {
      std::complex<double> s = 0;
      for (int64_t p = 0; p < k; ++p) s += at(a, i, p) * at(b, p, j);
      c.set_complex(j * m + i, s);
    }
  return c;
}

void expect_close(const Tensor& got, const Tensor& want, double tol) {
  ASSERT_EQ(got.dims(), want.dims()) << got.dims().str() << " vs " << want.dims().str();
  for (int64_t i = 0; i < want.numel(); ++i)
    EXPECT_LE(std::abs(got.get_complex(i) - want.get_complex(i)), tol) << "element " << i;
}

std::string error_id(std::function<void()> f) {
  try {
    f();
  } catch (const MatlabError& e) {
    return e.identifier();
  }
  return "";
}

Outputs call(const char* name, std::vector<Value> args, TestCtx& ctx) {
  const Builtin* b = builtins().find(name);
  EXPECT_NE(b, nullptr) << name;
  return b->fn(ctx, Args(args.data(), args.size()), 1);
}

Tensor eye(int64_t n) {
  Tensor e = Tensor::zeros(ClassId::Double, Dims(n, n));
  for (int64_t i = 0; i < n; ++i) e.set_double(i * n + i, 1);
  return e;
}

}  // namespace

TEST(LinalgMtimes, ShapesAndValuesMatchNaiveLoops) {
  struct Case { int64_t m, k, n; };
  for (Case c : {Case{3, 4, 5}, Case{1, 4, 5}, Case{3, 4, 1}, Case{1, 6, 1}, Case{5, 1, 4},
                 Case{17, 9, 13}}) {
    Tensor a = R(c.m, c.k, 1), b = R(c.k, c.n, 2);
    Tensor got = mtimes(Value(a), Value(b)).tensor();
    EXPECT_EQ(got.cls(), ClassId::Double);
    expect_close(got, naive_mul(a, b), 1e-12);
  }
  Tensor za = R(3, 4, 3, true), zb = R(4, 2, 4, true);
  Tensor zc = mtimes(Value(za), Value(zb)).tensor();
  EXPECT_TRUE(zc.is_complex());
  expect_close(zc, naive_mul(za, zb), 1e-12);
  // Complex row times complex matrix (gemv with transpose, no conjugation).
  Tensor zr = R(1, 4, 5, true);
  expect_close(mtimes(Value(zr), Value(zb)).tensor(), naive_mul(zr, zb), 1e-12);
  // Real times complex.
  Tensor ra = R(2, 4, 6);
  expect_close(mtimes(Value(ra), Value(zb)).tensor(), naive_mul(ra, zb), 1e-12);
}

TEST(LinalgMtimes, ClassesEmptiesAndErrors) {
  Tensor a = M(2, 2, {1, 2, 3, 4});
  Tensor s = a.to_class(ClassId::Single);
  Tensor p = mtimes(Value(s), Value(a)).tensor();
  EXPECT_EQ(p.cls(), ClassId::Single);
  EXPECT_FLOAT_EQ(static_cast<float>(p.get_double(0)), 7.0f);
  Tensor l = M(2, 2, {1, 0, 1, 1}, ClassId::Logical);
  Tensor lp = mtimes(Value(l), Value(l)).tensor();
  EXPECT_EQ(lp.cls(), ClassId::Double);
  EXPECT_DOUBLE_EQ(lp.get_double(1), 2);  // [1 0;1 1]^2 = [1 0;2 1]
  Tensor e = mtimes(Value(Tensor::zeros(ClassId::Double, Dims(2, 0))),
                    Value(Tensor::zeros(ClassId::Double, Dims(0, 3))))
                 .tensor();
  EXPECT_EQ(e.dims(), Dims(2, 3));
  EXPECT_DOUBLE_EQ(e.get_double(5), 0);
  EXPECT_EQ(error_id([&] { mtimes(Value(M(2, 3, {1, 2, 3, 4, 5, 6})), Value(a)); }),
            "MATLAB:innerdim");
  try {
    mtimes(Value(M(2, 3, {1, 2, 3, 4, 5, 6})), Value(a));
  } catch (const MatlabError& err) {
    EXPECT_EQ(err.message().rfind("Incorrect dimensions for matrix multiplication.", 0), 0u);
  }
  Tensor i8 = a.to_class(ClassId::Int8);
  EXPECT_EQ(error_id([&] { mtimes(Value(i8), Value(i8)); }), "MATLAB:mtimes:integerNotSupported");
  EXPECT_EQ(error_id([&] { mtimes(Value(CellArray(Dims(1, 1))), Value(a)); }),
            "MATLAB:UndefinedFunction");
}

TEST(LinalgMtimes, ScalarOperandIsElementwise) {
  Tensor a = M(2, 2, {1, 2, 3, 4});
  Tensor r = mtimes(Value(2.0), Value(a)).tensor();
  EXPECT_EQ(r.dims(), Dims(2, 2));
  EXPECT_DOUBLE_EQ(r.get_double(3), 8);
  Tensor i = mtimes(Value(a.to_class(ClassId::Int8)), Value(2.6)).tensor();
  EXPECT_EQ(i.cls(), ClassId::Int8);
  EXPECT_DOUBLE_EQ(i.get_double(3), 10);  // int8(4*2.6) = 10
}

TEST(LinalgSolve, SquareTriangularSpdResiduals) {
  std::ostringstream err;
  Session s;
  s.err = &err;
  linalg_set_session(&s);
  Tensor b = R(4, 2, 11);
  // General square.
  Tensor a = R(4, 4, 12);
  Tensor x = mldivide(Value(a), Value(b)).tensor();
  expect_close(mtimes(Value(a), Value(x)).tensor(), b, 1e-10);
  // Upper and lower triangular.
  Tensor u = M(4, 4, {2, 1, 3, 1, 0, 4, 1, 2, 0, 0, 5, 1, 0, 0, 0, 3});
  expect_close(mtimes(Value(u), mldivide(Value(u), Value(b))).tensor(), b, 1e-12);
  Tensor lo = transpose_value(Value(u), false).tensor();
  expect_close(mtimes(Value(lo), mldivide(Value(lo), Value(b))).tensor(), b, 1e-12);
  // Symmetric positive definite.
  Tensor spd = M(3, 3, {4, 1, 0, 1, 3, 1, 0, 1, 2});
  Tensor b3 = R(3, 1, 13);
  expect_close(mtimes(Value(spd), mldivide(Value(spd), Value(b3))).tensor(), b3, 1e-12);
  // Complex general.
  Tensor za = R(3, 3, 14, true), zb = R(3, 2, 15, true);
  expect_close(mtimes(Value(za), mldivide(Value(za), Value(zb))).tensor(), zb, 1e-10);
  // Single.
  Tensor sx = mldivide(Value(a.to_class(ClassId::Single)), Value(b)).tensor();
  EXPECT_EQ(sx.cls(), ClassId::Single);
  EXPECT_EQ(err.str(), "");
  linalg_set_session(nullptr);
}

TEST(LinalgSolve, LeastSquaresMatchesNormalEquations) {
  std::ostringstream err;
  Session s;
  s.err = &err;
  linalg_set_session(&s);
  Tensor a = R(6, 3, 21), b = R(6, 2, 22);
  Tensor x = mldivide(Value(a), Value(b)).tensor();
  EXPECT_EQ(x.dims(), Dims(3, 2));
  Tensor at = transpose_value(Value(a), false).tensor();
  Tensor lhs = mtimes(Value(at), Value(a)).tensor();
  Tensor rhs = mtimes(Value(at), Value(b)).tensor();
  expect_close(x, mldivide(Value(lhs), Value(rhs)).tensor(), 1e-10);
  EXPECT_EQ(err.str(), "");
  // Rank deficient: a warning with MATLAB's wording.
  Tensor rd = M(3, 2, {1, 2, 2, 4, 3, 6});
  mldivide(Value(rd), Value(M(3, 1, {1, 2, 3})));
  EXPECT_EQ(err.str().rfind("Warning: Rank deficient, rank = 1, tol = ", 0), 0u) << err.str();
  linalg_set_session(nullptr);
}

TEST(LinalgSolve, SingularWarnings) {
  std::ostringstream err;
  Session s;
  s.err = &err;
  linalg_set_session(&s);
  Tensor x = mldivide(Value(M(2, 2, {1, 2, 2, 4})), Value(M(2, 1, {1, 2}))).tensor();
  EXPECT_EQ(err.str(), "Warning: Matrix is singular to working precision.\n");
  EXPECT_FALSE(std::isfinite(x.get_double(0)) && std::isfinite(x.get_double(1)));
  EXPECT_EQ(s.last_warning_id, "MATLAB:singularMatrix");
  err.str("");
  mldivide(Value(M(2, 2, {1, 2, 1, 2 + 4e-16})), Value(M(2, 1, {1, 2})));
  std::string w = err.str();
  EXPECT_EQ(w.rfind("Warning: Matrix is close to singular or badly scaled. Results may be "
                    "inaccurate. RCOND =  ", 0), 0u) << w;
  EXPECT_EQ(w.substr(w.size() - 6), "e-17.\n") << w;
  // warning('off', id) silences it.
  err.str("");
  s.warnings["MATLAB:singularMatrix"] = false;
  mldivide(Value(M(2, 2, {1, 2, 2, 4})), Value(M(2, 1, {1, 2})));
  EXPECT_EQ(err.str(), "");
  // The builtin routes warnings to the caller's session.
  TestCtx ctx;
  std::ostringstream cerr2;
  ctx.s.err = &cerr2;
  linalg_set_session(nullptr);
  call("mldivide", {Value(M(2, 2, {0, 0, 0, 0})), Value(M(2, 1, {1, 2}))}, ctx);
  EXPECT_EQ(cerr2.str(), "Warning: Matrix is singular to working precision.\n");
}

TEST(LinalgSolve, ScalarAndShapeRules) {
  Tensor r = mldivide(Value(2.0), Value(M(1, 2, {4, 6}))).tensor();
  EXPECT_DOUBLE_EQ(r.get_double(1), 3);
  EXPECT_EQ(error_id([] { mldivide(Value(M(2, 2, {1, 0, 0, 1})), Value(M(3, 1, {1, 2, 3}))); }),
            "MATLAB:dimagree");
  Tensor e = mldivide(Value(Tensor::zeros(ClassId::Double, Dims(0, 3))),
                      Value(Tensor::zeros(ClassId::Double, Dims(0, 2))))
                 .tensor();
  EXPECT_EQ(e.dims(), Dims(3, 2));
  // b / A == (A.' \ b.').'
  Tensor a = R(3, 3, 31), b = R(2, 3, 32);
  Tensor x = mrdivide(Value(b), Value(a)).tensor();
  EXPECT_EQ(x.dims(), Dims(2, 3));
  expect_close(mtimes(Value(x), Value(a)).tensor(), b, 1e-10);
  Tensor d = mrdivide(Value(M(1, 2, {4, 6})), Value(2.0)).tensor();
  EXPECT_DOUBLE_EQ(d.get_double(0), 2);
}

TEST(LinalgMpower, IntegerPowers) {
  Tensor a = M(2, 2, {1, 1, 1, 0});  // Fibonacci matrix
  Tensor p = mpower(Value(a), Value(10.0)).tensor();
  EXPECT_DOUBLE_EQ(p.get_double(0), 89);
  EXPECT_DOUBLE_EQ(p.get_double(2), 55);
  expect_close(mpower(Value(a), Value(0.0)).tensor(), eye(2), 0);
  Tensor inv = mpower(Value(a), Value(-1.0)).tensor();
  expect_close(mtimes(Value(inv), Value(a)).tensor(), eye(2), 1e-14);
  Tensor a3 = mpower(Value(a), Value(3.0)).tensor();
  expect_close(a3, mtimes(Value(mtimes(Value(a), Value(a))), Value(a)).tensor(), 0);
  EXPECT_EQ(error_id([] { mpower(Value(M(2, 3, {1, 2, 3, 4, 5, 6})), Value(2.0)); }),
            "MATLAB:mpower:notScalarAndSquareMatrix");
  // Non-integer powers through the eigenvalues: (A^0.5)^2 == A (complex: A has a negative
  // eigenvalue); a defective matrix has no such power here.
  Tensor h = mpower(Value(a), Value(0.5)).tensor();
  EXPECT_TRUE(h.is_complex());
  Tensor h2 = mtimes(Value(h), Value(h)).tensor();
  for (int64_t i = 0; i < 4; ++i) EXPECT_NEAR(std::abs(h2.get_complex(i) - a.get_complex(i)), 0, 1e-12);
  EXPECT_EQ(error_id([] { mpower(Value(M(2, 2, {1, 0, 1, 1})), Value(0.5)); }),
            "MATLAB:mpower:defective");
}

TEST(LinalgTranspose, ConjugatesAndKinds) {
  Tensor z = Tensor::uninit(ClassId::Double, Dims(2, 1), true);
  z.set_complex(0, {1, 2});
  z.set_complex(1, {3, -4});
  Tensor ct = transpose_value(Value(z), true).tensor();
  EXPECT_EQ(ct.dims(), Dims(1, 2));
  EXPECT_EQ(ct.get_complex(0), std::complex<double>(1, -2));
  EXPECT_EQ(ct.get_complex(1), std::complex<double>(3, 4));
  Tensor t = transpose_value(Value(z), false).tensor();
  EXPECT_EQ(t.get_complex(1), std::complex<double>(3, -4));
  Tensor a = M(2, 3, {1, 2, 3, 4, 5, 6}, ClassId::Int16);
  Tensor at = transpose_value(Value(a), true).tensor();
  EXPECT_EQ(at.cls(), ClassId::Int16);
  EXPECT_EQ(at.dims(), Dims(3, 2));
  EXPECT_DOUBLE_EQ(at.get_double(1), 2);  // at(2,1) = a(1,2)
  EXPECT_DOUBLE_EQ(at.get_double(3), 4);  // at(1,2) = a(2,1)
  CellArray c(Dims(1, 3));
  c.at(2) = Value(7.0);
  Value tc = transpose_value(Value(c), true);
  EXPECT_EQ(tc.dims(), Dims(3, 1));
  EXPECT_DOUBLE_EQ(tc.cell()[2].scalar(), 7);
  StringArray sa(Dims(1, 2));
  sa.at(1) = "b";
  Value ts = transpose_value(Value(sa), false);
  EXPECT_EQ(ts.dims(), Dims(2, 1));
  EXPECT_EQ(*ts.string_array()[1], "b");
  StructArray st(Dims(1, 2));
  int f = st.add_field("x");
  st.at(1, f) = Value(5.0);
  Value tst = transpose_value(Value(st), false);
  EXPECT_EQ(tst.dims(), Dims(2, 1));
  EXPECT_DOUBLE_EQ(tst.struct_array().get(1, 0).scalar(), 5);
  Tensor nd = Tensor::zeros(ClassId::Double, Dims{2, 2, 2});
  try {
    transpose_value(Value(nd), false);
    FAIL();
  } catch (const MatlabError& e) {
    EXPECT_EQ(e.message(), "Transpose on ND array is not defined. Use PERMUTE instead.");
  }
}

TEST(LinalgDiag, BothDirectionsWithOffsets) {
  Tensor v = M(1, 2, {5, 6});
  Tensor d = diag_value(Value(v)).tensor();
  EXPECT_EQ(d.dims(), Dims(2, 2));
  EXPECT_DOUBLE_EQ(d.get_double(0), 5);
  EXPECT_DOUBLE_EQ(d.get_double(3), 6);
  EXPECT_DOUBLE_EQ(d.get_double(1), 0);
  Tensor d1 = diag_value(Value(v), 1).tensor();
  EXPECT_EQ(d1.dims(), Dims(3, 3));
  EXPECT_DOUBLE_EQ(d1.get_double(3), 5);  // (1,2)
  EXPECT_DOUBLE_EQ(d1.get_double(7), 6);  // (2,3)
  Tensor dm = diag_value(Value(v), -1).tensor();
  EXPECT_DOUBLE_EQ(dm.get_double(1), 5);  // (2,1)
  Tensor A = M(3, 3, {1, 2, 3, 4, 5, 6, 7, 8, 9});
  Tensor c0 = diag_value(Value(A)).tensor();
  EXPECT_EQ(c0.dims(), Dims(3, 1));
  EXPECT_DOUBLE_EQ(c0.get_double(2), 9);
  Tensor c1 = diag_value(Value(A), 1).tensor();
  EXPECT_EQ(c1.dims(), Dims(2, 1));
  EXPECT_DOUBLE_EQ(c1.get_double(0), 2);
  EXPECT_DOUBLE_EQ(c1.get_double(1), 6);
  Tensor cm = diag_value(Value(A), -2).tensor();
  EXPECT_EQ(cm.dims(), Dims(1, 1));
  EXPECT_DOUBLE_EQ(cm.get_double(0), 7);
  EXPECT_EQ(diag_value(Value(A), 5).tensor().dims(), Dims(0, 1));
  EXPECT_EQ(diag_value(Value()).tensor().dims(), Dims(0, 0));
  Tensor dl = diag_value(Value(M(1, 2, {1, 1}, ClassId::Logical))).tensor();
  EXPECT_EQ(dl.cls(), ClassId::Logical);
  TestCtx ctx;
  Tensor viaBuiltin = call("diag", {Value(A), Value(-1.0)}, ctx)[0].tensor();
  EXPECT_DOUBLE_EQ(viaBuiltin.get_double(1), 8);
}
