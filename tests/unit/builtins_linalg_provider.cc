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

namespace {

/// new_output forwarded to the host provider, for either form of the interface (with or without
/// the trailing `complex` flag): the member is declared only in the form the interface has.
template <class P, bool WithComplex = requires(P& p, ClassId c, const Dims& d, void** a) {
  p.new_output(c, d, a, true);
}>
struct ForwardNewOutput : P {
  Tensor new_output(ClassId cls, const Dims& dims, void** address) {
    return static_cast<P*>(host_memory_provider())->new_output(cls, dims, address);
  }
};
template <class P> struct ForwardNewOutput<P, true> : P {
  Tensor new_output(ClassId cls, const Dims& dims, void** address, bool complex) {
    return static_cast<P*>(host_memory_provider())->new_output(cls, dims, address, complex);
  }
};

/// The host provider, except that every factorization runs out of (device) memory: the builtins
/// must fall back to their host code.
class OutOfMemoryProvider final : public ForwardNewOutput<Provider> {
public:
  Provider& h = *host_memory_provider();
  std::string_view name() const override { return "oomtest"; }
  bool host_memory() const override { return false; }
  bool supports(const accel::Kernel&, const std::string*) const override { return false; }
  bool supports(LibraryCall c) const override { return c == LibraryCall::Solve; }
  double estimate_seconds(const KernelCost& c) const override { return 1e9; }
  bool resident(const Tensor& t) const override { return h.resident(t); }
  const void* bind_input(const Tensor& t, int64_t* copied) override {
    return h.bind_input(t, copied);
  }
  RunResult run(const accel::Kernel&, const KernelArgs&) override { return {}; }
  [[noreturn]] static void oom() {
    throw_error("matfuse:gpuOutOfMemory", "Out of memory on the GPU (test).");
  }
  MatrixTraits analyze(const AnalyzeCall& c) override { return h.analyze(c); }
  void geam(const GeamCall& c) override { h.geam(c); }
  int getrf(const GetrfCall&) override { oom(); }
  int potrf(const PotrfCall&) override { oom(); }
  void geqrf(const GeqrfCall&) override { oom(); }
  int syevd(const SyevdCall&) override { oom(); }
  int gesvd(const GesvdCall&) override { oom(); }
};

}  // namespace

TEST(LinalgProvider, OutOfDeviceMemoryFallsBackToTheHostCode) {
  static OutOfMemoryProvider* p = new OutOfMemoryProvider();
  register_provider("oomtest", [](std::string*) -> Provider* { return p; });
  const char* code =
      "rng(2); A = rand(30) + 30 * eye(30); B = rand(30, 2); X = A \\ B; Y = inv(A); d = det(A);"
      "[Q, R] = qr(A); c = chol(A' * A); e = eig(A + A'); s = svd(A); P = pinv(A);";
  std::vector<std::string> vars = {"X", "Y", "d", "Q", "R", "c", "e", "s", "P"};
  std::vector<Tensor> ref, got;
  for (int pass = 0; pass < 2; ++pass) {
    accel::set_linalg_override(pass ? "oomtest" : "");
    test::Snippet s;
    s(code);
    for (const auto& v : vars) (pass ? got : ref).push_back(s.in.base_var(v)->tensor());
  }
  accel::set_linalg_override("");
  // Unusable again, so later tests in this process see no device provider.
  register_provider("oomtest", [](std::string* why) -> Provider* {
    if (why) *why = "test provider removed";
    return nullptr;
  });
  for (size_t i = 0; i < vars.size(); ++i)
    EXPECT_TRUE(test::linalg_close(got[i], ref[i], 0)) << vars[i];
}

TEST(LinalgWarnings, MatrixOperatorsWarnThroughTheSession) {
  // A \ b, b / A and A ^ -1 report MATLAB's warnings to the interpreter's session: the err
  // stream, lastwarn, and warning('off', id).
  test::Snippet s;
  s("A = [1 2; 2 4]; lastwarn(''); x = A \\ [1; 2]; [m1, id1] = lastwarn;"
    "lastwarn(''); y = [1 2] / A; [~, id2] = lastwarn;");
  EXPECT_EQ(s.in.base_var("id1")->to_text(), "MATLAB:singularMatrix");
  EXPECT_EQ(s.in.base_var("m1")->to_text(), "Matrix is singular to working precision.");
  EXPECT_EQ(s.in.base_var("id2")->to_text(), "MATLAB:singularMatrix");
  EXPECT_NE(s.err.str().find("Warning: Matrix is singular to working precision."),
            std::string::npos);
  s.err.str("");
  s("warning('off', 'MATLAB:singularMatrix'); lastwarn(''); x = A \\ [1; 2]; [~, id3] = lastwarn;");
  EXPECT_EQ(s.in.base_var("id3")->to_text(), "");
  EXPECT_EQ(s.err.str(), "");
}
