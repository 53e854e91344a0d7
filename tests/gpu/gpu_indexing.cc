// Indexing on the device (accel/run/indexing.h, cuda_indexing.cc): every form against the
// host, over random shapes and the classes of each element size, NaN, empty selections and
// MATLAB's errors; and the residency claim: a loop of block assignments into a device array
// gathers nothing.
#include <cstdio>
#include <fstream>
#include <regex>
#include <string>
#include <vector>

#include "accel/run/indexing.h"
#include "gpu_util.h"

using namespace matfuse;
using namespace matfuse::gputest;

namespace {

/// The same indexing script over one class: reads, assignments, masks, deletion.
std::string script(const std::string& cls, int m, int n, int p, int seed) {
  const std::string mk = "G(" + cls + "(R))";
  return "rng(" + std::to_string(seed) + "); G = @gpuArray;" +
         "R = 100 * rand(" + std::to_string(m) + "," + std::to_string(n) + "," +
         std::to_string(p) + ") - 50; R(R > 40) = NaN;" +
         (cls == "logical" ? "R(isnan(R)) = 0; R = R > 0;" : "") +
         "X = " + mk + "; Y = X;"
         "a = X(end:-2:1, [2 1 end], :); b = X(:, end); c = X(2, 3, end); d = X(:);"
         "e = X([7 1 7 numel(X)]); f = X(X ~= 0); g = X(false(size(X)));"
         "X(1, :, :) = X(end, :, :); X([3 1], 2, end) = X(1:2, 1, 1); X(:, end, 1) = 1;"
         "X(X == 0) = 1; h = X; X(end, end, end) = 0;"
         "M = X ~= 0; k = nnz(M); fi = find(M); fr = find(M(:)'); X(M) = Y(1:k);"
         "Z = Y; Z(:, 2, :) = []; W = Y; W([2 5 end]) = [];";
}

const std::vector<std::string> kVars = {"a", "b", "c", "d", "e", "f", "g", "h", "X",
                                        "Y", "Z", "W", "k", "fi", "fr"};

TEST(GpuIndexing, EveryFormMatchesTheHostForEveryElementSize) {
  MATFUSE_REQUIRE_GPU();
  const char* classes[] = {"double", "single", "int8", "uint16", "int32", "logical", "uint8"};
  int seed = 1;
  for (const char* cls : classes) {
    for (const auto& sz : std::vector<std::vector<int>>{{7, 5, 3}, {64, 33, 17}, {300, 41, 9}}) {
      const std::string code = script(cls, sz[0], sz[1], sz[2], seed++);
      ScriptRun d = compare_host_device(code, kVars);
      EXPECT_GT(d.count("index_scatter", "cuda") + d.count("mask_scatter", "cuda"), 0)
          << cls << ": no device scatter ran; " << d.summary();
      EXPECT_GT(d.count("mask_compact", "cuda"), 0) << cls << ": " << d.summary();
    }
  }
}

TEST(GpuIndexing, MasksAcrossManyTilesKeepTheirOrder) {
  MATFUSE_REQUIRE_GPU();
  // 3e6 elements: hundreds of 4096-element tiles, an uneven last tile, NaN in the data.
  const std::string code =
      "rng(4); x = rand(3e6 + 17, 1, 'single'); x(1:1000:end) = NaN; g = gpuArray(x);"
      "a = g(g > 0.3); b = g(isnan(g)); g(g < 0.1) = -1; g(isnan(g)) = 0;"
      "m = g > 0.9; v = gpuArray(single(1:nnz(m))'); g(m) = v; c = g(end-5:end);"
      "r = gpuArray(rand(1, 3e6 + 17)); s = r(r > 0.999);";
  compare_host_device(code, {"a", "b", "g", "c", "s"});
}

TEST(GpuIndexing, MedianByRadixSelectionMatchesTheHost) {
  MATFUSE_REQUIRE_GPU();
  // Lanes long enough for several selection rounds, ties, NaN, Inf, -0 and both classes.
  const std::string code =
      "rng(12); x = gpuArray(rand(3e6, 1)); y = gpuArray(single(randn(1, 2e6 + 1)));"
      "X = gpuArray(round(100 * randn(2e5, 5))); X(7, 2) = NaN;"
      "z = gpuArray([zeros(1e5, 1); -zeros(1e5, 1)]);"
      "w = gpuArray([Inf(1e5, 1); -Inf(1e5, 1)]); v = gpuArray(single(ones(1e5, 1)));"
      "a = median(x); b = median(y); c = median(X); d = median(X, 'omitnan');"
      "e = abs(median(z));"
      "f = median(w); g = median(v); x(x > 0.8) = 0; h = median(x);";
  ScriptRun d = compare_host_device(code, {"a", "b", "c", "d", "e", "f", "g", "h"});
  EXPECT_GT(d.count("select", "cuda"), 0) << d.summary();
  // The median of a lane of +0 and -0 is zero (MATLAB may return either sign: abs above).
  EXPECT_EQ(d.vars["e"].get_double(0), 0.0);
}

TEST(GpuIndexing, SortThroughCubMatchesTheHost) {
  MATFUSE_REQUIRE_GPU();
  // Stable order with ties, NaN first and last, -0 beside +0, both directions, several lanes,
  // floating, signed and unsigned classes; values and indices bit for bit as the host sorts.
  const std::string code =
      "rng(14); x = single(randn(2e6 + 3, 1)); x(1:997:end) = NaN; x(5:1001:end) = 0;"
      "x(7:1003:end) = -0; x(9:1005:end) = Inf; x = gpuArray(x);"
      "X = round(10 * randn(1e5, 7)); X(3, 2) = NaN; X(4, 2) = -0; X = gpuArray(X);"
      "I = gpuArray(int16(round(100 * randn(3e5, 1))));"
      "U = gpuArray(uint8(randi(255, 2e5, 2))); L = gpuArray(rand(1, 5e5) > 0.5);"
      "[a, ia] = sort(x); [b, ib] = sort(x, 'descend'); [c, ic] = sort(X);"
      "[d, id] = sort(X, 'descend'); e = sort(x, 'MissingPlacement', 'first');"
      "[f, iff] = sort(I, 'descend'); [g, ig] = sort(U); [l, il] = sort(L);"
      "h = sort(X, 1, 'descend', 'MissingPlacement', 'last');"
      "nz = sum(1 ./ a(~isnan(a) & a == 0) < 0);"
      "Y = round(10 * randn(3000, 700)); Y(5, 9) = NaN; Y = gpuArray(Y);"
      "[r, ir] = sort(Y, 2); q = sort(Y, 2, 'descend');";
  ScriptRun d = compare_host_device(code, {"a", "ia", "b", "ib", "c", "ic", "d", "id", "e", "f",
                                           "iff", "g", "ig", "l", "il", "h", "nz", "r", "ir",
                                           "q"});
  EXPECT_GT(d.count("sort", "cuda"), 10) << d.summary();
  EXPECT_GT(d.vars["nz"].get_double(0), 0);  // the -0 values are kept, not keyed away
}

TEST(GpuIndexing, ElementReadsOfALargeDeviceArrayMoveOneElement) {
  MATFUSE_REQUIRE_GPU();
  cuda::Device& dev = *cuda::Device::get();
  accel::set_device_mode(accel::DeviceMode::Gpu);
  {
    test::Snippet s;
    s("rng(15); x = rand(6e6, 1, 'single'); x = x + 0; [v, i] = sort(x);");
    s.in.base_var("v")->tensor().force();
    s.in.base_var("i")->tensor().force();
    for (const char* read : {"a = v(3e6);", "b = i(3e6);", "c = x(b) == a;", "d = v(end);"}) {
      const int64_t down0 = dev.stats().download_bytes;
      s(read);
      EXPECT_LT(dev.stats().download_bytes - down0, 4096) << read << " gathered the array";
    }
    EXPECT_EQ(s.num("c"), 1);
    // An element loop gathers the array once instead of reading element by element.
    s("t = 0; for k = 1:100, t = t + v(k); end");
    s("ok = abs(t - sum(double(v(1:100)))) < 1e-3;");
    EXPECT_EQ(s.num("ok"), 1);
  }
  accel::set_device_mode(accel::DeviceMode::Auto);
}

TEST(GpuIndexing, EmptySelectionsAndErrors) {
  MATFUSE_REQUIRE_GPU();
  compare_host_device("X = gpuArray(rand(50, 40)); a = X([], :); b = X(X > 2); X([], 3) = 1;"
                      "X(false(50, 40)) = 7; c = X(:, []);",
                      {"a", "b", "X", "c"});
  accel::set_device_mode(accel::DeviceMode::Gpu);
  {
    test::Snippet s;
    s("X = gpuArray(rand(400, 300)); L = gpuArray(rand(400, 300) > 0.5);");
    EXPECT_EQ(s.fails("y = X(401, 1);").identifier(), "MATLAB:badsubscript");
    EXPECT_EQ(s.fails("y = X(0, 1);").identifier(), "MATLAB:badsubscript");
    EXPECT_EQ(s.fails("y = X(1.5);").identifier(), "MATLAB:badsubscript");
    EXPECT_EQ(s.fails("X(2, :) = 1:3;").identifier(), "MATLAB:subsassigndimmismatch");
    EXPECT_EQ(s.fails("X(X > 0.5) = [1 2];").identifier(), "MATLAB:subsassignnumelmismatch");
    EXPECT_EQ(s.fails("L(3) = NaN;").identifier(), "MATLAB:nologicalnan");
    s("ok = all(X(:) >= 0 & X(:) < 1);");
    EXPECT_EQ(s.num("ok"), 1);
  }
  accel::set_device_mode(accel::DeviceMode::Auto);
}

TEST(GpuIndexing, ABlockFillLoopGathersNothing) {
  MATFUSE_REQUIRE_GPU();
  cuda::Device& dev = *cuda::Device::get();
  // W17's loop at a small size; the chunk (1 x 16 x 4096) is a pending value large enough to
  // be captured, so it is computed on the device too.
  const std::string fill =
      "B = 2; H = 64; W = 4096; imgs = zeros(B, H, W, 'single'); x_idx = reshape(0:(W - 1), "
      "[1 1 W]);\n"
      "for b = 1:B\n for r0 = 1:16:H\n  rows = r0:(r0 + 15);\n"
      "  y_idx = reshape((r0 - 1):(r0 + 14), [1 16 1]);\n"
      "  idx = (b - 1) * H * W + 42 + y_idx * W + x_idx;\n"
      "  state = mod(1664525 .* idx + 1013904223, 4294967296);\n"
      "  imgs(b, rows, :) = single(state) ./ single(4294967296);\n end\nend\n";
  accel::set_device_mode(accel::DeviceMode::Gpu);
  {
    test::Snippet s;
    // A pending base: the first block store computes it on the device.
    s("B = 2; H = 64; W = 4096; imgs = zeros(B, H, W, 'single');");
    const int64_t d0 = dev.stats().downloads;
    s(fill.substr(fill.find("x_idx")));
    EXPECT_EQ(dev.stats().downloads, d0) << "a block assignment gathered";
    EXPECT_TRUE(s.in.base_var("imgs")->tensor().device_only());
  }
  accel::set_device_mode(accel::DeviceMode::Auto);
  compare_host_device(fill + "m = mean(imgs, [2 3]);", {"imgs"}, {"m"}, 1e-5);
}

TEST(GpuIndexing, ProfileShowsNoGatherInABlockAssignmentLoop) {
  MATFUSE_REQUIRE_GPU();
  test::TempDir dir;
  const auto path = dir.path / "fill.m";
  {
    std::ofstream f(path);
    f << "X = zeros(8, 512, 1024, 'single');\n"
         "for b = 1:8\n  for r = 1:64:512\n"
         "    X(b, r:(r + 63), :) = single(b + r) + rand(1, 64, 1024, 'single');\n"
         "  end\nend\n"
         "s = sum(X, 'all'); fprintf('%.1f\\n', s > 0);\n";
  }
  const std::string cmd = std::string(MATFUSE_BINARY) + " --device gpu --profile " +
                          path.string() + " 2>&1";
  FILE* pipe = popen(cmd.c_str(), "r");
  ASSERT_NE(pipe, nullptr);
  std::string out;
  char buf[4096];
  while (size_t n = fread(buf, 1, sizeof buf, pipe)) out.append(buf, n);
  pclose(pipe);
  // The only gather is the printed scalar (and the 1x1 sum's comparison).
  std::smatch m;
  ASSERT_TRUE(std::regex_search(out, m, std::regex("(\\d+) gathers \\(([0-9.]+) MB")))
      << out;
  EXPECT_LE(std::stoi(m[1]), 2) << out;
  EXPECT_LT(std::stod(m[2]), 0.001) << out;
  EXPECT_NE(out.find("index_scatter"), std::string::npos) << out;
}

}  // namespace
