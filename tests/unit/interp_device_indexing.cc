// Indexing of device-resident arrays (accel/run/indexing.h) through a stand-in device: a
// provider with its own memory (host buffers the runtime can only reach through DeviceCopy)
// whose indexing calls are the host provider's. Each script runs twice, once on plain arrays
// and once on gpuArrays held by the stand-in device; results must be bitwise equal, and the
// device run must have used the device's indexing calls without gathering the array.
// The CUDA kernels of the same calls are compared with the host in tests/gpu/gpu_indexing.cc.
#include <dlfcn.h>
#include <gtest/gtest.h>

#include <cstdlib>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "interp_test_util.h"
#include "providers/cuda/cuda_provider.h"
#include "providers/host/host_provider.h"
#include "accel/run/provider.h"

namespace matfuse {
namespace {

int g_downloads = 0;

class FakeCopy final : public DeviceCopy {
public:
  explicit FakeCopy(size_t bytes) : p_(std::malloc(bytes ? bytes : 1)) {}
  ~FakeCopy() override { std::free(p_); }
  void* device_ptr() const override { return p_; }
  void download(void* host, size_t bytes) const override {
    ++g_downloads;
    if (bytes) std::memcpy(host, p_, bytes);
  }
  const char* provider() const override { return "fake"; }

private:
  void* p_;
};

/// A device provider whose memory is FakeCopy buffers; kernels are left to the host.
class FakeDevice final : public Provider {
public:
  int gathers = 0, scatters = 0, compacts = 0, mask_scatters = 0, counts = 0, finds = 0;
  std::string_view name() const override { return "fake"; }
  bool host_memory() const override { return false; }
  bool supports(const accel::Kernel&, const std::string*) const override { return false; }
  bool supports(LibraryCall c) const override {
    return c == LibraryCall::Index || c == LibraryCall::Sort;
  }
  double estimate_seconds(const KernelCost&) const override { return 1e9; }
  bool resident(const Tensor& t) const override {
    const DeviceCopy* d = t.is_lazy() ? nullptr : t.storage()->device();
    return d && std::strcmp(d->provider(), "fake") == 0;
  }
  const void* bind_input(const Tensor& t, int64_t* copied) override {
    const std::shared_ptr<Storage>& s = t.storage();
    if (copied) *copied = 0;
    if (!resident(t)) {
      auto c = std::make_unique<FakeCopy>(s->bytes());
      if (s->bytes()) std::memcpy(c->device_ptr(), s->host_read(), s->bytes());
      if (copied) *copied = static_cast<int64_t>(s->bytes());
      s->attach_device(std::move(c));
    }
    return static_cast<const char*>(s->device()->device_ptr()) + t.storage_offset();
  }
  Tensor new_output(ClassId cls, const Dims& dims, void** address,
                    bool complex = false) override {
    auto c = std::make_unique<FakeCopy>(static_cast<size_t>(dims.numel()) * element_size(cls) *
                                        (complex ? 2 : 1));
    *address = c->device_ptr();
    return Tensor::on_device(cls, dims, complex, std::move(c));
  }
  RunResult run(const accel::Kernel&, const KernelArgs&) override {
    throw_error("matfuse:codegen", "fake device runs no kernels");
  }
  void index_gather(const IndexCall& c) override {
    ++gathers;
    host::host_provider().index_gather(c);
  }
  bool fail = false;  ///< index_scatter and mask_compact raise (a device failure)
  void index_scatter(const IndexCall& c) override {
    if (fail) throw_error("matfuse:cudaError", "fake device failure");
    ++scatters;
    host::host_provider().index_scatter(c);
  }
  int64_t mask_count(const void* m, int64_t n) override {
    ++counts;
    return host::host_provider().mask_count(m, n);
  }
  void mask_compact(const MaskCall& c) override {
    if (fail) throw_error("matfuse:cudaError", "fake device failure");
    ++compacts;
    host::host_provider().mask_compact(c);
  }
  void mask_scatter(const MaskCall& c) override {
    ++mask_scatters;
    host::host_provider().mask_scatter(c);
  }
  void mask_find(const MaskCall& c) override {
    ++finds;
    host::host_provider().mask_find(c);
  }
  int copies = 0;
  void copy(void* dst, const void* src, size_t bytes) override {
    ++copies;
    if (bytes) std::memmove(dst, src, bytes);
  }
  int selects = 0;
  int64_t count_nan(const SelectCall& c) override { return host::host_provider().count_nan(c); }
  double select_kth(const SelectCall& c) override {
    ++selects;
    return host::host_provider().select_kth(c);
  }
};

struct Registered {
  FakeDevice d;
  Registered() {
    register_provider("fake", [this](std::string*) -> Provider* { return &d; });
  }
  ~Registered() {
    register_provider("fake", [](std::string* why) -> Provider* {
      *why = "fake device removed";
      return nullptr;
    });
  }
  /// Whether the stand-in serves the device (a real GPU, registered first, would win).
  bool active() { return device_provider() == &d; }
};

#define REQUIRE_FAKE(reg)                                                   \
  do {                                                                      \
    if (!(reg).active()) GTEST_SKIP() << "a real device provider is present"; \
  } while (0)

/// Runs setup + body twice: with G = identity (host arrays) and with G = gpuArray (the stand-in
/// device), and compares the named variables bitwise (the device run's values gathered).
void compare(const std::string& setup, const std::string& body,
             const std::vector<std::string>& names) {
  test::Snippet host, dev;
  host("G = @(x) x;" + setup);
  host(body);
  dev("G = @gpuArray;" + setup);
  dev(body);
  for (const std::string& n : names) {
    const Value* a = host.in.base_var(n);
    const Value* b = dev.in.base_var(n);
    ASSERT_TRUE(a && b) << n;
    const Tensor ta = a->tensor(), tb = b->tensor();
    ASSERT_EQ(ta.cls(), tb.cls()) << n;
    ASSERT_EQ(ta.dims(), tb.dims()) << n << ": " << ta.dims().str() << " vs " << tb.dims().str();
    const size_t bytes = static_cast<size_t>(ta.numel()) * ta.elem_bytes();
    EXPECT_TRUE(bytes == 0 || std::memcmp(ta.raw(), tb.raw(), bytes) == 0) << n << " differs";
  }
}

TEST(DeviceIndexing, BlockAssignmentsInALoopStayOnTheDevice) {
  Registered reg;
  REQUIRE_FAKE(reg);
  test::Snippet s;
  s("X = gpuArray(zeros(4, 6, 5, 'single'));");
  const int d0 = g_downloads;
  s("for b = 1:4\n for r = 1:2:5\n  rows = r:(r + 1);\n"
    "  X(b, rows, :) = single(reshape(1:10, 1, 2, 5) * b + r);\n end\nend");
  EXPECT_EQ(g_downloads, d0) << "a block assignment gathered the array";
  EXPECT_EQ(reg.d.scatters, 12);
  EXPECT_EQ(reg.d.copies, 0) << "a block assignment cloned the array (copy-on-write)";
  EXPECT_TRUE(s.in.base_var("X")->tensor().device_only());
  compare("X = G(zeros(4, 6, 5, 'single'));",
          "for b = 1:4\n for r = 1:2:5\n  rows = r:(r + 1);\n"
          "  X(b, rows, :) = single(reshape(1:10, 1, 2, 5) * b + r);\n end\nend\n"
          "X(end, end-1:end, 2) = [7 8]; X(:, 1, end) = 5; X(3, 4, 1) = -1;",
          {"X"});
}

TEST(DeviceIndexing, ListsScalarsAndDuplicatesMatchTheHost) {
  Registered reg;
  REQUIRE_FAKE(reg);
  compare("rng(3); X = G(rand(7, 5)); Y = G(int8(reshape(-17:17, 5, 7)));",
          "X([5 2 5 9]) = 3; X([6 1], [2 4 3]) = [1 2 3; 4 5 6]; "
          "X([3 1 3], 1) = [10; 20; 30]; X(:, [5 1]) = 0.5;"
          "Y(2, :) = 300; Y(:, 3) = -1000.4; Y(4) = 2.5; Y([1 2], [7 6]) = [1 2; 3 4];",
          {"X", "Y"});
  EXPECT_GE(reg.d.scatters, 4);
}

TEST(DeviceIndexing, LogicalMasksReadAndWriteOnTheDevice) {
  Registered reg;
  REQUIRE_FAKE(reg);
  compare("rng(5); X = G(single(rand(9, 8))); v = G(rand(1, 40)); L = G(rand(6, 6) > 0.5);",
          "a = X(X > 0.5); b = v(v < 0.3); c = v(false(1, 40)); m = X > 0.7;"
          "X(m) = 0; v(v > 0.6) = -v(v > 0.6); L(L) = false; e = X(true(9, 8));"
          "M = X; M(M == 0) = 1:nnz(M == 0); fi = find(m); fr = find(G(rand(1, 40) > 0.5));"
          "fe = find(G(false(3, 4))); nn = nnz(m);",
          {"a", "b", "c", "X", "v", "L", "e", "M", "fi", "fr", "fe", "nn"});
  EXPECT_GE(reg.d.finds, 1);
  EXPECT_GE(reg.d.counts, 3);
  EXPECT_GT(reg.d.compacts, 3);
  EXPECT_GT(reg.d.mask_scatters, 3);
}

TEST(DeviceIndexing, GathersEndRangesAndDeletionMatchTheHost) {
  Registered reg;
  REQUIRE_FAKE(reg);
  compare("rng(7); X = G(rand(6, 5, 3)); u = G(uint16(1:50)); w = G(rand(30, 1));",
          "a = X([3 1 2], end:-1:1, 2); b = X(end-1:end, :); c = X(2, 3, 3); d = X(:);"
          "e = X([1 5 7 90]); f = u([4 4 1]); g = w(end:-3:1); h = X(:, :, [3 1]);"
          "X(:, 2, :) = []; u([1 3 50]) = []; w(w > 0.5) = []; X(2, :) = [];",
          {"a", "b", "c", "d", "e", "f", "g", "h", "X", "u", "w"});
  EXPECT_GT(reg.d.gathers, 6);
}

TEST(DeviceIndexing, MedianSelectsOnTheDevice) {
  Registered reg;
  REQUIRE_FAKE(reg);
  compare("rng(9); x = G(randn(1001, 1)); y = G(single(randn(1, 2000))); X = G(randn(400, 6));"
          "z = G([3 NaN 1 -Inf Inf 2]); w = G([Inf -Inf 1 2]); u = G(round(10 * randn(500, 3)));",
          "a = median(x); b = median(y); c = median(X); d = median(z); e = median(z, 'omitnan');"
          "f = median(w); g = median(u); h = median(X, 2); k = median(G(NaN(5, 1)), 'omitnan');",
          {"a", "b", "c", "d", "e", "f", "g", "h", "k"});
  EXPECT_GT(reg.d.selects, 10);
}

TEST(DeviceIndexing, CopyOnWriteKeepsOtherVariablesIntact) {
  Registered reg;
  REQUIRE_FAKE(reg);
  compare("X = G(reshape(1:24, 4, 6));", "Y = X; X(2, :) = 0; Z = X; X(X > 20) = -1;",
          {"X", "Y", "Z"});
}

TEST(DeviceIndexing, ElementReadsAndStoresGatherOnceAndStayOnTheHost) {
  Registered reg;
  REQUIRE_FAKE(reg);
  test::Snippet s;
  s("X = gpuArray(zeros(100, 200)); X(2:3, :) = 1;");
  ASSERT_TRUE(s.in.base_var("X")->tensor().device_only());
  const int d0 = g_downloads, sc0 = reg.d.scatters;
  s("t = 0; for i = 1:100\n t = t + X(2, i); X(5, i) = i;\nend");
  EXPECT_EQ(g_downloads, d0 + 1) << "element reads should gather once";
  EXPECT_EQ(reg.d.scatters, sc0) << "element stores should run on the host";
  EXPECT_EQ(s.num("t"), 100);
}

TEST(DeviceIndexing, ADeviceFailureLeavesTheWorkToTheHost) {
  Registered reg;
  REQUIRE_FAKE(reg);
  reg.d.fail = true;
  test::Snippet s;
  s("X = gpuArray(reshape(1:20, 4, 5)); X(2:3, [1 5]) = 0; y = X(X > 10)';");
  EXPECT_EQ(s("disp(X); disp(y)"), s("disp([1 5 9 13 17; 0 6 10 14 0; 0 7 11 15 0; 4 8 12 16 20]);"
                                      "disp([11 12 13 14 15 16 17 20])"));
  EXPECT_EQ(reg.d.scatters, 0);
}

TEST(DeviceIndexing, ErrorsAreMatlabs) {
  Registered reg;
  REQUIRE_FAKE(reg);
  test::Snippet s;
  s("X = gpuArray(rand(4, 5)); L = gpuArray(true(3, 3));");
  EXPECT_EQ(s.fails("y = X(5, 1);").identifier(), "MATLAB:badsubscript");
  EXPECT_EQ(s.fails("y = X(0);").identifier(), "MATLAB:badsubscript");
  EXPECT_EQ(s.fails("X(2, :) = [1 2 3];").identifier(), "MATLAB:subsassigndimmismatch");
  EXPECT_EQ(s.fails("X(X > 2) = [1 2];").identifier(), "MATLAB:subsassignnumelmismatch");
  EXPECT_EQ(s.fails("L(2, 2) = NaN;").identifier(), "MATLAB:nologicalnan");
  // The failed assignments left X as it was.
  s("ok = isequal(size(X), [4 5]) && all(X(:) >= 0 & X(:) < 1);");
  EXPECT_EQ(s.num("ok"), 1);
}

TEST(DeviceIndexing, HostProviderIndexCallsFollowTheirContract) {
  // 3 x 4 x 2 array of 0..23; selection rows [2 0], columns 1..2, page 1.
  std::vector<int32_t> a(24);
  for (int i = 0; i < 24; ++i) a[i] = i;
  const std::vector<int64_t> rows{2, 0};
  IndexCall c;
  c.elem_bytes = 4;
  c.ndims = 3;
  c.dims[0] = {2, 0, rows.data(), 1};
  c.dims[1] = {2, 1, nullptr, 3};
  c.dims[2] = {1, 1, nullptr, 12};
  c.count = 4;
  c.base = a.data();
  std::vector<int32_t> out(4);
  c.values = out.data();
  host::host_provider().index_gather(c);
  EXPECT_EQ(out, (std::vector<int32_t>{17, 15, 20, 18}));
  const int32_t v = -1;
  c.values = const_cast<int32_t*>(&v);
  c.scalar = true;
  host::host_provider().index_scatter(c);
  EXPECT_EQ(a[17] + a[15] + a[20] + a[18], -4);
  const bool mask[5] = {false, true, true, false, true};
  EXPECT_EQ(host::host_provider().mask_count(mask, 5), 3);
  double idx[3];
  MaskCall m;
  m.n = 5;
  m.mask = mask;
  m.values = idx;
  host::host_provider().mask_find(m);
  EXPECT_EQ(idx[0] + 10 * idx[1] + 100 * idx[2], 2 + 30 + 500);
}

TEST(DeviceIndexing, CudaIndexingKernelsCompileWithNvrtcWhereItIsInstalled) {
  void* h = nullptr;
  for (const char* n : {"libnvrtc.so", "libnvrtc.so.13", "libnvrtc.so.12"})
    if ((h = dlopen(n, RTLD_NOW | RTLD_LOCAL))) break;
  if (!h) GTEST_SKIP() << "no libnvrtc on this machine";
  using Prog = void*;
  auto create = reinterpret_cast<int (*)(Prog*, const char*, const char*, int, const char* const*,
                                         const char* const*)>(dlsym(h, "nvrtcCreateProgram"));
  auto compile = reinterpret_cast<int (*)(Prog, int, const char* const*)>(
      dlsym(h, "nvrtcCompileProgram"));
  auto log_size = reinterpret_cast<int (*)(Prog, size_t*)>(dlsym(h, "nvrtcGetProgramLogSize"));
  auto get_log = reinterpret_cast<int (*)(Prog, char*)>(dlsym(h, "nvrtcGetProgramLog"));
  auto destroy = reinterpret_cast<int (*)(Prog*)>(dlsym(h, "nvrtcDestroyProgram"));
  ASSERT_TRUE(create && compile && log_size && get_log && destroy);
  for (const char* src : {cuda::indexing_source(), cuda::select_source()}) {
    Prog prog = nullptr;
    ASSERT_EQ(create(&prog, src, "idx.cu", 0, nullptr, nullptr), 0);
    const char* opts[] = {"--gpu-architecture=sm_90", "--std=c++17", "--fmad=false",
                          "-default-device"};
    const int r = compile(prog, 4, opts);
    size_t n = 0;
    log_size(prog, &n);
    std::string log(n, '\0');
    if (n) get_log(prog, log.data());
    destroy(&prog);
    EXPECT_EQ(r, 0) << log.substr(0, 4000);
  }
  dlclose(h);
}

}  // namespace
}  // namespace matfuse
