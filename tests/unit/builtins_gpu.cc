// MATLAB's GPU functions and gpuArray propagation (builtins/gpu.cc, gpu.h). Runs everywhere:
// without a CUDA device gpuArrays are host-backed (existsOnGPU false, gpuDevice errors); with
// one, the same assertions hold except those two.
#include <gtest/gtest.h>

#include <string>

#include "accel/capture/lazy.h"
#include "builtins/gpu.h"
#include "interp_test_util.h"
#include "providers/cuda/cuda_device.h"

using namespace matfuse;
using matfuse::test::Snippet;

namespace {

bool have_device() { return cuda::Device::get() != nullptr; }

std::string text(Snippet& s, const std::string& var) {
  const Value* v = s.in.base_var(var);
  if (!v) {
    ADD_FAILURE() << "no variable " << var;
    return "";
  }
  return v->to_text();
}

bool flagged(Snippet& s, const std::string& var) {
  const Value* v = s.in.base_var(var);
  EXPECT_NE(v, nullptr) << var;
  return v && v->is_gpu_array();
}

}  // namespace

TEST(Gpu, FlagIsSeparateFromValueAndCopiesKeepIt) {
  Tensor t = Tensor::scalar(3.0);
  t.set_gpu_array(true);
  Value v(t);
  // A flagged 1x1 double stays an Array (the Scalar kind cannot carry the flag).
  EXPECT_EQ(v.kind(), Value::Kind::Array);
  EXPECT_TRUE(v.is_gpu_array());
  Value c = v;
  EXPECT_TRUE(c.is_gpu_array());
  Value s = strip_gpu(v);
  EXPECT_EQ(s.kind(), Value::Kind::Scalar);
  EXPECT_EQ(s.scalar(), 3.0);
  EXPECT_TRUE(mark_gpu(Value(2.0)).is_gpu_array());
  EXPECT_FALSE(mark_gpu(Value::from_chars("ab")).is_gpu_array());  // char stays host
}

TEST(Gpu, GpuArrayClassQueries) {
  Snippet s;
  s("g = gpuArray(single([1 2 3])); c = class(g); u = classUnderlying(g); t = isgpuarray(g);"
    "e = existsOnGPU(g); a = isa(g, 'gpuArray'); d = isa(g, 'single'); n = numel(g);"
    "p = isgpuarray([1 2 3]); q = existsOnGPU(5); sz = size(g);");
  EXPECT_EQ(text(s, "c"), "gpuArray");
  EXPECT_EQ(text(s, "u"), "single");
  EXPECT_EQ(s.num("t"), 1);
  EXPECT_EQ(s.num("e"), have_device() ? 1 : 0);
  EXPECT_EQ(s.num("a"), 1);
  EXPECT_EQ(s.num("d"), 0);
  EXPECT_EQ(s.num("p"), 0);
  EXPECT_EQ(s.num("q"), 0);
  // Queries return host doubles.
  EXPECT_EQ(s.num("n"), 3);
  EXPECT_FALSE(flagged(s, "n"));
  EXPECT_FALSE(flagged(s, "sz"));
  EXPECT_FALSE(flagged(s, "t"));
}

TEST(Gpu, ScalarGpuArrayStaysGpuArray) {
  Snippet s;
  s("g = gpuArray(5); h = g + 1; k = 2 * g; m = -g; c = class(h); r = sqrt(g);");
  EXPECT_TRUE(flagged(s, "g"));
  EXPECT_EQ(text(s, "c"), "gpuArray");
  EXPECT_EQ(s.num("h"), 6);
  EXPECT_EQ(s.num("k"), 10);
  EXPECT_EQ(s.num("m"), -5);
  EXPECT_TRUE(flagged(s, "k"));
  EXPECT_TRUE(flagged(s, "m"));
  EXPECT_TRUE(flagged(s, "r"));
}

TEST(Gpu, BuiltinsOfGpuArraysReturnGpuArrays) {
  Snippet s;
  s("g = gpuArray(magic(4)); a = sum(g); b = max(g, [], 2); c = g'; d = g * g; e = g > 8;"
    "f = cumsum(g); l = isnan(g); cl = class(e); cu = classUnderlying(e); eq = isequal(g, magic(4));"
    "x = [1 2 3] + 0;");
  for (const char* v : {"a", "b", "c", "d", "e", "f", "l"}) EXPECT_TRUE(flagged(s, v)) << v;
  EXPECT_EQ(text(s, "cl"), "gpuArray");
  EXPECT_EQ(text(s, "cu"), "logical");
  EXPECT_FALSE(flagged(s, "eq"));
  EXPECT_EQ(s.num("eq"), 1);
  EXPECT_FALSE(flagged(s, "x"));
  EXPECT_EQ(s("disp(gather(a))"), s("disp(sum(magic(4)))"));
}

TEST(Gpu, IndexingAndAssignment) {
  Snippet s;
  s("g = gpuArray(1:10); a = g(3:5); b = g(2); g(2) = 7; v = g(2);"
    "x = zeros(1, 3); x(2) = gpuArray(4); y = zeros(1, 3); y(2) = 4;");
  EXPECT_TRUE(flagged(s, "a"));
  EXPECT_TRUE(flagged(s, "b"));
  EXPECT_TRUE(flagged(s, "g"));
  EXPECT_EQ(s.num("v"), 7);
  EXPECT_TRUE(flagged(s, "x"));
  EXPECT_FALSE(flagged(s, "y"));
  EXPECT_EQ(s("disp(gather(a))"), s("disp(3:5)"));
}

TEST(Gpu, GatherReturnsHostValues) {
  Snippet s;
  s("g = gpuArray(int32([4 5 6])); h = gather(g); c = class(h); p = gather(7);"
    "q = gather({gpuArray(1), 'txt'}); qc = class(q{1}); [u, w] = gather(g, 2);");
  EXPECT_FALSE(flagged(s, "h"));
  EXPECT_EQ(text(s, "c"), "int32");
  EXPECT_EQ(s.num("p"), 7);
  EXPECT_EQ(text(s, "qc"), "double");
  EXPECT_FALSE(flagged(s, "u"));
  EXPECT_EQ(s.num("w"), 2);
  EXPECT_EQ(s("disp(h)"), s("disp(int32([4 5 6]))"));
}

TEST(Gpu, ConstructorsTakeGpuArrayTypeName) {
  Snippet s;
  s("z = zeros(2, 3, 'gpuArray'); zu = classUnderlying(z); zs = size(z);"
    "r = rand(3, 'single', 'gpuArray'); ru = classUnderlying(r);"
    "o = ones(2, 'like', gpuArray(single(1))); ou = classUnderlying(o);"
    "t = true(2, 'gpuArray'); tu = classUnderlying(t);"
    "e = eye(3, 'gpuArray'); n = nan(2, 'gpuArray'); ri = randi(10, 1, 5, 'gpuArray');"
    "rn = randn(4, 1, 'double', 'gpuArray'); i8 = zeros(2, 'int8', 'gpuArray'); iu = classUnderlying(i8);");
  for (const char* v : {"z", "r", "o", "t", "e", "n", "ri", "rn", "i8"}) EXPECT_TRUE(flagged(s, v)) << v;
  EXPECT_EQ(text(s, "zu"), "double");
  EXPECT_EQ(text(s, "ru"), "single");
  EXPECT_EQ(text(s, "ou"), "single");
  EXPECT_EQ(text(s, "tu"), "logical");
  EXPECT_EQ(text(s, "iu"), "int8");
  EXPECT_EQ(s("disp(zs)"), s("disp([2 3])"));
  // Same RNG stream as the host call: the type name only adds the flag.
  s("rng(3); a = gather(rand(2, 'gpuArray')); rng(3); b = rand(2); same = isequal(a, b);");
  EXPECT_EQ(s.num("same"), 1);
  EXPECT_EQ(s.fails("zeros(2, 'gpuArrays')").identifier(), "MATLAB:invalidInputClass");
}

TEST(Gpu, DisplayLooksLikeANormalArray) {
  Snippet s;
  EXPECT_EQ(s("g = gpuArray([1 2.5])"), s("g = [1 2.5]"));
  EXPECT_EQ(s("g = gpuArray(3)"), s("g = 3"));
}

TEST(Gpu, Errors) {
  Snippet s;
  EXPECT_EQ(s.fails("gpuArray({1})").identifier(), "parallel:gpu:array:UnsupportedClass");
  EXPECT_EQ(s.fails("gpuArray('abc')").identifier(), "parallel:gpu:array:UnsupportedClass");
  EXPECT_EQ(s.fails("gpuArray(1, 2)").identifier(), "MATLAB:TooManyInputs");
  EXPECT_EQ(s.fails("wait(1)").identifier(), "MATLAB:UndefinedFunction");
  EXPECT_EQ(s.fails("gputimeit(3)").identifier(), "MATLAB:gputimeit:InvalidFunction");
  if (!have_device()) {
    MatlabError e = s.fails("d = gpuDevice();");
    EXPECT_EQ(e.identifier(), "parallel:gpu:device:NoDevice");
    EXPECT_NE(std::string(e.what()).find("No supported GPU device"), std::string::npos);
  }
}

TEST(Gpu, DeviceQueries) {
  Snippet s;
  s("n = gpuDeviceCount;");
  EXPECT_EQ(s.num("n"), have_device() ? 1 : 0);
  if (have_device()) {
    s("d = gpuDevice; nm = d.Name; cc = d.ComputeCapability; tm = d.TotalMemory;"
      "am = d.AvailableMemory; ix = d.Index; wait(d); wait(gpuDevice);");
    EXPECT_FALSE(text(s, "nm").empty());
    EXPECT_NE(text(s, "cc").find('.'), std::string::npos);
    EXPECT_GT(s.num("tm"), 0);
    EXPECT_GT(s.num("am"), 0);
    EXPECT_LE(s.num("am"), s.num("tm"));
    EXPECT_EQ(s.num("ix"), 1);
  }
}

TEST(Gpu, GputimeitReturnsMedianSeconds) {
  Snippet s;
  s("f = @() sum(rand(1000, 1)); t = gputimeit(f); c = class(t); k = 0;"
    "g = @() 1; t2 = gputimeit(g, 1);");
  EXPECT_EQ(text(s, "c"), "double");
  EXPECT_GT(s.num("t"), 0);
  EXPECT_LT(s.num("t"), 5);
  EXPECT_GE(s.num("t2"), 0);
}

TEST(Gpu, GpuArrayOperandsAreCapturedBelowTheSizeThreshold) {
  // Small operations on host arrays stay eager; on a gpuArray they enter the graph so
  // placement can keep them on the device.
  if (!accel::lazy_config().enabled) GTEST_SKIP() << "lazy capture disabled";
  Snippet s;
  s("a = ones(1, 10); b = a .* 2; g = gpuArray(ones(1, 10)); h = g .* 2; r = sum(g);");
  EXPECT_FALSE(s.in.base_var("b")->tensor().is_lazy());
  EXPECT_TRUE(s.in.base_var("h")->tensor().is_lazy());
  EXPECT_TRUE(s.in.base_var("h")->is_gpu_array());
  EXPECT_EQ(s("disp(gather(h))"), s("disp(b)"));
  EXPECT_EQ(s.num("r"), 10);
}
