// The dense linear algebra builtins through the host provider's library path
// (accel/run/library.h, builtins/linalg_device.cc on LAPACKE) against their own host code:
// the same algorithms the CUDA provider runs with cuSOLVER (tests/gpu/gpu_linalg.cc).
#include "linalg_cases.h"

using namespace matfuse;

TEST(LinalgProvider, HostLibraryPathMatchesTheHostCode) {
  const int64_t calls = test::check_linalg_path("host");
  EXPECT_GT(calls, 200) << "the cases did not go through the library path";
}

TEST(LinalgProvider, ChooseKeepsSmallHostOperandsOnTheHostCode) {
  // Without an override and without a device, every builtin keeps its host code.
  const accel::LinalgStats before = accel::linalg_stats();
  test::Snippet s;
  s("A = rand(50) + eye(50); x = A \\ ones(50, 1); [Q, R] = qr(A); s = svd(A);");
  const accel::LinalgStats after = accel::linalg_stats();
  EXPECT_EQ(after.host_calls, before.host_calls);
  EXPECT_EQ(after.device_calls, before.device_calls);
}

TEST(LinalgProvider, HostProviderCallsFollowLapack) {
  auto la = accel::Linalg::on("host", ClassId::Double);
  ASSERT_TRUE(la.has_value());
  // 3 x 3 symmetric positive definite, lower triangle analysed.
  Tensor a = la->from_host({4, 1, 0, 1, 3, 1, 0, 1, 2});
  a = Tensor(a);
  Tensor m = la->alloc(3, 3);
  for (int i = 0; i < 9; ++i) m.set_double(i, std::vector<double>{4, 1, 0, 1, 3, 1, 0, 1, 2}[i]);
  const MatrixTraits t = la->analyze(m);
  EXPECT_TRUE(t.symmetric);
  EXPECT_TRUE(t.pos_diag);
  EXPECT_FALSE(t.upper);
  EXPECT_FALSE(t.lower);
  EXPECT_DOUBLE_EQ(t.norm1, 5);
  Tensor d = la->diag_of(m);
  EXPECT_EQ(la->to_host(d), (std::vector<double>{4, 3, 2}));
  Tensor tr = la->transpose(la->block(m, 1, 0, 2, 3));
  EXPECT_EQ(tr.dims(), Dims(3, 2));
  EXPECT_EQ(la->to_host(tr), (std::vector<double>{1, 3, 1, 0, 1, 2}));
  Tensor f = la->copy(m);
  EXPECT_EQ(la->potrf(f, true), 0);
  Tensor x = la->from_host({1, 2, 3});
  la->potrs(f, x, true);
  // m * x == [1 2 3]'
  const std::vector<double> xv = la->to_host(x);
  EXPECT_NEAR(4 * xv[0] + 1 * xv[1], 1, 1e-12);
  EXPECT_NEAR(1 * xv[0] + 3 * xv[1] + xv[2], 2, 1e-12);
  EXPECT_NEAR(xv[1] + 2 * xv[2], 3, 1e-12);
  Tensor z = la->diag(2, 3, nullptr, 1);
  EXPECT_EQ(la->to_host(z), (std::vector<double>{1, 0, 0, 1, 0, 0}));
}
