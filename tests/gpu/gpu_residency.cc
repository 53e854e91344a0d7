// Residency, MATLAB's GPU functions on a real device, the disk kernel cache and device
// out-of-memory (DESIGN.md decisions 11, 12, 14).
#include <sys/wait.h>

#include <array>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <regex>
#include <string>

#include "gpu_util.h"
#include "providers/cuda/cuda_compile.h"

using namespace matfuse;
using namespace matfuse::gputest;
namespace fs = std::filesystem;

TEST(GpuResidency, ChainOfKernelsPerformsNoGatherUntilTheSink) {
  MATFUSE_REQUIRE_GPU();
  cuda::Device& dev = *cuda::Device::get();
  accel::set_device_mode(accel::DeviceMode::Gpu);
  {
    test::Snippet s;
    s("rng(1); A = rand(2000, 1000, 'single'); B = exp(A) .* 2;");
    Tensor b = s.in.base_var("B")->tensor();
    b.force();
    EXPECT_TRUE(b.device_only());
    const int64_t downloads = dev.stats().downloads;
    // Three more evaluations reading device results: reduction, broadcast, elementwise.
    s("m = mean(B, 1); C = (B - m) ./ 3;");
    s.in.base_var("C")->tensor().force();
    s("D = sqrt(abs(C)) + 1; t = sum(D, 'all');");
    Tensor d = s.in.base_var("D")->tensor();
    d.force();
    Tensor t = s.in.base_var("t")->tensor();
    t.force();
    EXPECT_TRUE(d.device_only());
    EXPECT_EQ(dev.stats().downloads, downloads) << "a kernel chain gathered to the host";
    // The sink gathers.
    EXPECT_GT(t.get_double(0), 0);
    EXPECT_GT(dev.stats().downloads, downloads);
  }
  accel::set_device_mode(accel::DeviceMode::Auto);
}

TEST(GpuResidency, GpuArrayUploadsAndGatherDownloads) {
  MATFUSE_REQUIRE_GPU();
  test::Snippet s;
  s("x = reshape(1:12, 3, 4); g = gpuArray(x); e = existsOnGPU(g); c = class(g);"
    "u = classUnderlying(g); h = g .* 2; k = gather(h); kc = class(k);");
  Tensor g = s.in.base_var("g")->tensor();
  EXPECT_TRUE(cuda::on_cuda(g)) << "gpuArray(x) did not upload x";
  EXPECT_EQ(s.num("e"), 1);
  EXPECT_EQ(s.in.base_var("c")->to_text(), "gpuArray");
  EXPECT_EQ(s.in.base_var("u")->to_text(), "double");
  EXPECT_EQ(s.in.base_var("kc")->to_text(), "double");
  EXPECT_EQ(s("disp(k)"), s("disp(x * 2)"));
  s("d = gpuDevice; wait(d); n = d.MultiprocessorCount;");
  EXPECT_GT(s.num("n"), 0);
}

TEST(GpuResidency, GpuArrayOperationsRunOnTheDeviceWithoutUpload) {
  MATFUSE_REQUIRE_GPU();
  accel::telemetry().clear();
  test::Snippet s;
  // Below the capture threshold: the gpuArray makes it a graph value, costed with no upload.
  s("g = gpuArray(rand(1000, 1)); h = g .* 3 + 1; r = gather(h);");
  bool found = false;
  for (const auto& e : accel::telemetry().snapshot())
    for (const auto& gr : e.groups) {
      found = true;
      EXPECT_EQ(gr.upload_bytes, 0) << gr.placement;
    }
  EXPECT_TRUE(found) << "the gpuArray expression was not captured";
}

TEST(GpuResidency, FaultChecksWaitOncePerEvaluationAndFaultsRedoTheGroups) {
  MATFUSE_REQUIRE_GPU();
  cuda::Device& dev = *cuda::Device::get();
  // Two groups that may fault (sqrt of a reduction's result, log of a broadcast difference):
  // both run before one wait reads their flags.
  const std::string ok_code =
      "rng(3); A = rand(1200, 900, 'single') + 0.5; s = sqrt(sum(A .* A, 1));"
      "C = log(A ./ s + 2); t = sum(C .^ 2, 'all');";
  const int64_t checks0 = dev.stats().fault_checks;
  ScriptRun d = compare_host_device(ok_code, {"t"});
  int deferred = 0;
  for (const auto& g : d.groups) deferred += g.fault_deferred;
  EXPECT_GE(deferred, 2) << d.summary();
  EXPECT_EQ(dev.stats().fault_checks - checks0, 1) << d.summary();
  // A kernel that faults (sqrt of negative values) with a consumer group after it: the
  // deferred check finds the fault, the groups run again and give the host's complex results.
  const std::string bad_code =
      "x = linspace(-1, 1, 300000); y = sqrt(x - 0.5) * 2; m = mean(y + 1);"
      "z = y(1:10) + 1;";
  ScriptRun b = compare_host_device(bad_code, {"m", "y", "z"});
  EXPECT_TRUE(b.vars["y"].is_complex());
  EXPECT_TRUE(b.vars["m"].is_complex());
  int eager = 0;
  for (const auto& g : b.groups) eager += g.provider == "eager";
  EXPECT_GE(eager, 1) << b.summary();
}

TEST(GpuResidency, DeviceOutOfMemoryIsAMatlabError) {
  MATFUSE_REQUIRE_GPU();
  cuda::Device& dev = *cuda::Device::get();
  const size_t total = dev.info().total_memory;
  try {
    auto p = dev.allocate(total * 2);
    ADD_FAILURE() << "allocating twice the device memory succeeded";
  } catch (const MatlabError& e) {
    EXPECT_EQ(e.identifier(), "matfuse:gpuOutOfMemory");
    EXPECT_NE(std::string(e.what()).find("GB"), std::string::npos) << e.what();
  }
  // gpuArray of more than the device holds: the error, or a host-backed value; never a crash.
  // (Built from a lazy generator so the host never materialises it.)
  test::Snippet s;
  const double n = static_cast<double>(total) / 4.0 * 1.25;  // single elements
  char code[200];
  std::snprintf(code, sizeof code, "x = gpuArray(ones(%.0f, 1, 'single')); y = x .* 2; v = y(1);",
                n);
  try {
    s(code);
  } catch (const MatlabError& e) {
    EXPECT_TRUE(e.identifier() == "matfuse:gpuOutOfMemory" || e.identifier() == "MATLAB:nomem" ||
                e.identifier() == "MATLAB:array:SizeLimitExceeded")
        << e.identifier() << ": " << e.what();
  }
  // The device still works afterwards.
  s("z = gpuArray(1:4) * 2; w = gather(z(4));");
  EXPECT_EQ(s.num("w"), 8);
}

// Out of device memory in the middle of a chain: the groups before the failing one have run;
// their values (resident on the device) must survive the error, or the chain falls back to the
// host; either way nothing computed is lost and the session keeps working.
TEST(GpuResidency, OutOfMemoryMidChainKeepsTheValuesAlreadyComputed) {
  MATFUSE_REQUIRE_GPU();
  cuda::Device& dev = *cuda::Device::get();
  accel::set_device_mode(accel::DeviceMode::Gpu);
  {
    test::Snippet s;
    s("rng(7); x = rand(1e6, 1, 'single'); xh = x; x = gpuArray(x);");
    // Fill the device but for about 64 MB, so that the chain's 400 MB group cannot be placed
    // while its 4 MB groups can (a host fallback would need only 400 MB of host memory).
    std::unique_ptr<DeviceCopy> hog;
    for (size_t spare = size_t{64} << 20; !hog && spare < (size_t{4} << 30); spare += size_t{64} << 20) {
      const size_t free_b = dev.memory_info().first;
      if (free_b <= spare) break;
      try {
        hog = dev.allocate(free_b - spare);
      } catch (const MatlabError&) {
      }
    }
    ASSERT_TRUE(hog) << "could not fill the device";
    // One evaluation of several groups: y's elementwise group, the reduction of y, then a
    // group of 1e8 single elements scaled by that reduction.
    bool raised = false;
    try {
      s("y = x .* 2 + 1; m = sum(y); big = ones(1e8, 1, 'single') .* m; t = big(end);");
    } catch (const MatlabError& e) {
      raised = true;
      EXPECT_TRUE(e.identifier() == "matfuse:gpuOutOfMemory" || e.identifier() == "MATLAB:nomem")
          << e.identifier() << ": " << e.what();
    }
    hog.reset();
    // The values computed before the failing group are intact and right: y and m against the
    // same computation on the host copy; t, where the chain fell back, too.
    s("yh = gather(y); mh = gather(m); ye = xh .* 2 + 1; me = sum(ye);");
    Tensor yh = s.in.base_var("yh")->tensor(), ye = s.in.base_var("ye")->tensor();
    (void)yh.raw();
    (void)ye.raw();
    EXPECT_TRUE(bitwise_equal(yh, ye));
    EXPECT_EQ(s.num("mh"), s.num("me"));
    if (!raised) {
      s("th = gather(t);");
      EXPECT_EQ(s.num("th"), s.num("me"));
    }
    // And the device still runs new chains.
    s("z = gpuArray(1:4) * 2; w = gather(z(4));");
    EXPECT_EQ(s.num("w"), 8);
  }
  accel::set_device_mode(accel::DeviceMode::Auto);
}

#ifdef MATFUSE_BINARY
namespace {

/// Runs the matfuse binary on script with the given kernel cache folder; returns stdout+stderr.
std::string run_matfuse(const std::string& cache, const std::string& script, int* rc) {
  const std::string cmd = "MATFUSE_DEVICE=gpu MATFUSE_KERNEL_CACHE='" + cache + "' '" +
                          MATFUSE_BINARY + "' --profile '" + script + "' 2>&1";
  std::string out;
  FILE* p = popen(cmd.c_str(), "r");
  if (!p) return out;
  std::array<char, 4096> buf;
  size_t k;
  while ((k = fread(buf.data(), 1, buf.size(), p)) > 0) out.append(buf.data(), k);
  const int st = pclose(p);
  *rc = WIFEXITED(st) ? WEXITSTATUS(st) : -1;
  return out;
}

long long counter(const std::string& out, const std::string& what) {
  std::smatch m;
  if (std::regex_search(out, m, std::regex("(\\d+) " + what))) return std::stoll(m[1]);
  return -1;
}

}  // namespace

TEST(GpuCache, SecondRunLoadsFromDiskAndTruncatedEntryIsRecompiled) {
  MATFUSE_REQUIRE_GPU();
  test::TempDir dir;
  const std::string cache = (dir.path / "kernels").string();
  const std::string script = dir.write(
      "cache_probe.m",
      "rng(2); X = rand(3000, 700, 'single'); Y = exp(X) .* 2 - 1; s = sum(Y, 1);\n"
      "Z = (X - mean(X, 2)) ./ 3; fprintf('%.4f %.4f\\n', sum(s), sum(Z, 'all'));\n");
  int rc = 0;
  const std::string first = run_matfuse(cache, script, &rc);
  ASSERT_EQ(rc, 0) << first;
  EXPECT_GE(counter(first, "compiled"), 1) << first;
  const std::string second = run_matfuse(cache, script, &rc);
  ASSERT_EQ(rc, 0) << second;
  EXPECT_EQ(counter(second, "compiled"), 0) << second;
  EXPECT_GE(counter(second, "loaded from the disk cache"), 1) << second;
  // Same printed result (first line of output).
  EXPECT_EQ(first.substr(0, first.find('\n')), second.substr(0, second.find('\n')));
  // Truncate one entry: the next run detects it, recompiles and rewrites it.
  fs::path victim;
  for (const auto& e : fs::directory_iterator(cache))
    if (e.path().extension() == ".cubin") victim = e.path();
  ASSERT_FALSE(victim.empty());
  const auto full = fs::file_size(victim);
  fs::resize_file(victim, full / 2);
  const std::string third = run_matfuse(cache, script, &rc);
  ASSERT_EQ(rc, 0) << third;
  EXPECT_EQ(counter(third, "compiled"), 1) << third;
  EXPECT_EQ(fs::file_size(victim), full);
  EXPECT_EQ(first.substr(0, first.find('\n')), third.substr(0, third.find('\n')));
}
#endif
