// cuSOLVER on device-resident data (accel/run/library.h, builtins/linalg_device.cc): every
// dense linear algebra builtin forced onto the CUDA provider against the host's LAPACK code
// (random shapes, single and double, singular and ill-conditioned inputs, MATLAB's warnings),
// and the cost model's own choice for device-resident operands.
#include "gpu_util.h"
#include "linalg_cases.h"

using namespace matfuse;
using namespace matfuse::gputest;

TEST(GpuLinalg, EveryBuiltinOnTheDeviceMatchesHostLapack) {
  MATFUSE_REQUIRE_GPU();
  if (!find_provider("cuda") || !find_provider("cuda")->supports(LibraryCall::Solve))
    GTEST_SKIP() << "cuSOLVER (libcusolver.so) not found";
  const int64_t calls = test::check_linalg_path("cuda");
  EXPECT_GT(calls, 200) << "the cases did not run on the device";
}

TEST(GpuLinalg, DeviceResidentOperandsStayOnTheDevice) {
  MATFUSE_REQUIRE_GPU();
  if (!find_provider("cuda")->supports(LibraryCall::Solve)) GTEST_SKIP() << "no cuSOLVER";
  for (const char* cls : {"single", "double"}) {
    const accel::LinalgStats before = accel::linalg_stats();
    test::Snippet s;
    s(std::string("rng(7); cls = '") + cls + "'; n = 700;"
      "A = gpuArray(rand(n, cls) + n * eye(n, cls)); B = gpuArray(rand(n, 16, cls));"
      "X = A \\ B; [Q, R] = qr(B, 0); e = eig(A + A'); Y = inv(A);");
    const accel::LinalgStats after = accel::linalg_stats();
    EXPECT_GE(after.device_calls - before.device_calls, 4) << cls;
    for (const char* v : {"X", "Q", "R", "e", "Y"}) {
      Tensor t = s.in.base_var(v)->tensor();
      t.force();
      EXPECT_TRUE(t.device_only()) << v << " (" << cls << ") was gathered";
    }
    // The residual, computed from the device results, is small.
    s("r = gather(norm(A * X - B, 1) / norm(B, 1)); q = gather(norm(Q' * Q - eye(16), 1));"
      "z = gather(norm(A * Y - eye(n), 1));");
    const double tol = std::string(cls) == "single" ? 1e-4 : 1e-12;
    EXPECT_LT(s.num("r"), tol) << cls;
    EXPECT_LT(s.num("q"), tol) << cls;
    EXPECT_LT(s.num("z"), tol * 10) << cls;
  }
}

TEST(GpuLinalg, WarningsAndErrorsOnTheDevice) {
  MATFUSE_REQUIRE_GPU();
  if (!find_provider("cuda")->supports(LibraryCall::Solve)) GTEST_SKIP() << "no cuSOLVER";
  accel::set_linalg_override("cuda");
  {
    test::Snippet s;
    s("Z = gpuArray(ones(300)); x = Z \\ ones(300, 1); [~, id1] = lastwarn;"
      "N = 300; H = 1 ./ ((1:N)' + (1:N) - 1); y = gpuArray(H) \\ ones(N, 1); [~, id2] = lastwarn;");
    EXPECT_EQ(s.in.base_var("id1")->to_text(), "MATLAB:singularMatrix");
    EXPECT_EQ(s.in.base_var("id2")->to_text(), "MATLAB:nearlySingularMatrix");
    EXPECT_NE(s.err.str().find("RCOND ="), std::string::npos) << s.err.str();
    const MatlabError e = s.fails("c = chol(gpuArray(-eye(50)));");
    EXPECT_EQ(e.identifier(), "MATLAB:posdef");
  }
  accel::set_linalg_override("");
}
