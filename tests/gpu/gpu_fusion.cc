// Every fusion kind on the CUDA provider against the host provider, on random shapes and
// classes (DESIGN.md "Testing": tests/gpu). Elementwise, broadcast, reduction, loop and RNG
// results must be bitwise equal; matrix products within a tolerance.
#include <random>
#include <string>

#include "gpu_util.h"

using namespace matfuse;
using namespace matfuse::gputest;

namespace {

std::mt19937& gen() {
  static std::mt19937 g(20240611);
  return g;
}
int pick(int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(gen()); }
std::string num(int v) { return std::to_string(v); }

/// Code that defines A and B (m x n) of class cls with values that exercise the class.
std::string operands(const std::string& cls, int m, int n) {
  const std::string M = num(m), N = num(n);
  if (cls == "int32")
    return "A = int32(randi(2000, " + M + ", " + N + ") - 1000); B = int32(randi(50, " + M +
           ", " + N + "));";
  if (cls == "logical")
    return "A = rand(" + M + ", " + N + ") > 0.5; B = rand(" + M + ", " + N + ") < 0.3;";
  return "A = rand(" + M + ", " + N + ", '" + cls + "'); B = randn(" + M + ", " + N + ", '" +
         cls + "');";
}

}  // namespace

TEST(GpuFusion, ElementwiseEveryClass) {
  MATFUSE_REQUIRE_GPU();
  for (const std::string cls : {"single", "double", "int32", "logical"}) {
    for (int trial = 0; trial < 2; ++trial) {
      const int m = pick(180, 700), n = pick(190, 400);
      std::string code = "rng(" + num(trial + 1) + "); " + operands(cls, m, n);
      if (cls == "logical")
        code += " C = (A & ~B) | (B & A); D = xor(A, B) | ~A;";
      else if (cls == "int32")
        code += " C = A .* B - A + 7; D = abs(A) ./ B + max(A, B);";
      else
        code += " C = A .* B + 3 * A - exp(B); D = sqrt(abs(B)) .* sin(A) ./ (1 + A .^ 2);"
                " E = round(10 * B) - floor(A * 7) + mod(10 * A, 3);";
      std::vector<std::string> vars = {"C", "D"}, approx;
      if (cls == "single" || cls == "double") vars.push_back("E");
      // Double-precision exp/sin come from glibc on the host and libdevice on the GPU (each
      // within 1-2 ulp); single precision shares runtime/mf_math.inc, so it is bitwise.
      if (cls == "double") approx = {"C", "D"}, vars = {"E"};
      ScriptRun d = compare_host_device(code, vars, approx, 1e-14);
      EXPECT_GE(d.count("elementwise", "cuda"), 1) << cls << ": " << d.summary();
    }
  }
}

TEST(GpuFusion, Broadcast) {
  MATFUSE_REQUIRE_GPU();
  for (const std::string cls : {"single", "double"}) {
    const int m = pick(200, 600), n = pick(200, 500);
    const std::string M = num(m), N = num(n);
    std::string code = "rng(5); " + operands(cls, m, n) + " r = rand(1, " + N + ", '" + cls +
                       "'); c = rand(" + M + ", 1, '" + cls + "');"
                       " C = A .* r + c; D = (B - c) ./ (r + 1); X = rand(" + M + ", 3, " + N +
                       ", '" + cls + "'); p = rand(1, 3, '" + cls + "'); F = X .* p - 2;";
    ScriptRun d = compare_host_device(code, {"C", "D", "F"});
    EXPECT_GE(d.count("elementwise", "cuda"), 1) << d.summary();
  }
}

TEST(GpuFusion, ReductionsOverEachDimAllAndOmitnan) {
  MATFUSE_REQUIRE_GPU();
  for (const std::string cls : {"single", "double", "int32", "logical"}) {
    const int m = pick(200, 700), n = pick(150, 400);
    std::string code = "rng(9); " + operands(cls, m, n);
    std::vector<std::string> vars;
    if (cls == "logical") {
      code += " s1 = any(A, 1); s2 = all(A | B, 2); s3 = sum(A, 1); s4 = sum(A & B, 'all');";
      vars = {"s1", "s2", "s3", "s4"};
    } else {
      code += " s1 = sum(A, 1); s2 = sum(A, 2); s3 = sum(A, 'all'); s4 = max(A, [], 2);"
              " s5 = min(B, [], 1); s6 = prod(A(1:50, :) ~= 0, 1); s7 = mean(A, 2);";
      vars = {"s1", "s2", "s3", "s4", "s5", "s6", "s7"};
      if (cls != "int32") {
        code += " An = A; An(A > 0.9) = NaN; o1 = sum(An, 1, 'omitnan'); o2 = mean(An, 2, "
                "'omitnan'); o3 = max(An, [], 1); o4 = sum(An .* 2, 'all', 'omitnan');"
                " X = rand(60, 70, 40, '" + cls + "'); t1 = sum(X, 3); t2 = sum(X, [1 3]);"
                " t3 = max(X, [], 2); t4 = sum(X .^ 2, 'all');";
        for (const char* v : {"o1", "o2", "o3", "o4", "t1", "t2", "t3", "t4"}) vars.push_back(v);
      }
    }
    ScriptRun d = compare_host_device(code, vars);
    EXPECT_GE(d.count("reduction", "cuda"), 1) << cls << ": " << d.summary();
  }
}

TEST(GpuFusion, MatmulAndEpilogue) {
  MATFUSE_REQUIRE_GPU();
  for (const std::string cls : {"single", "double"}) {
    const int m = pick(200, 500), k = pick(100, 300), n = pick(150, 400);
    const std::string M = num(m), K = num(k), N = num(n), C = "'" + cls + "'";
    std::string code = "rng(11); A = rand(" + M + ", " + K + ", " + C + "); W = rand(" + K +
                       ", " + N + ", " + C + "); P = (A + 1) * W; Q = tanh((A - 0.5) * W + 0.25);";
    const double tol = cls == "single" ? 1e-5 : 1e-12;
    ScriptRun d = compare_host_device(code, {}, {"P", "Q"}, tol);
    EXPECT_GE(d.count("matmul", "cuda") + d.count("matmul_epilogue", "cuda"), 1) << d.summary();
  }
}

TEST(GpuFusion, MatmulEpilogueEndedByDiag) {
  // diag(...) of a product's epilogue chain: the epilogue runs at the diagonal points only
  // (m != n both ways), with a row bias, a column bias and a full operand read at (k,k).
  MATFUSE_REQUIRE_GPU();
  for (const std::string cls : {"single", "double"}) {
    const int m = pick(200, 500), k = pick(100, 300), n = pick(150, 400);
    const std::string M = num(m), K = num(k), N = num(n), C = "'" + cls + "'";
    std::string code = "rng(12); A = rand(" + M + ", " + K + ", " + C + "); W = rand(" + K +
                       ", " + N + ", " + C + "); r = rand(1, " + N + ", " + C + "); c = rand(" +
                       M + ", 1, " + C + "); F = rand(" + M + ", " + N + ", " + C + ");"
                       " d = diag(max(A*W*2 + r - c - F, 0.25)); e = diag(W'*A');";
    const double tol = cls == "single" ? 1e-5 : 1e-12;
    ScriptRun d = compare_host_device(code, {}, {"d", "e"}, tol);
    EXPECT_GE(d.count("matmul_epilogue", "cuda"), 1) << d.summary();
  }
}

TEST(GpuFusion, LoopKernels) {
  MATFUSE_REQUIRE_GPU();
  for (const std::string cls : {"single", "double"}) {
    const int c = pick(40000, 90000), t = pick(20, 60);
    const std::string C = num(c), T = num(t), Q = "'" + cls + "'";
    std::string code = "rng(13); X = randn(" + C + ", " + T + ", " + Q + "); y = zeros(" + C +
                       ", 1, " + Q + "); a = " + cls + "(0.01); for t = 1:" + T +
                       ", y = a * X(:, t) + (1 - a) * y; end;"
                       " z = ones(" + C + ", 1, " + Q + "); for k = 1:" + T +
                       ", z = z .* 0.999 + sin(k) * 0.001; end; s = sum(y);";
    ScriptRun d = compare_host_device(code, {"y", "z", "s"});
    EXPECT_GE(d.count("loop", "cuda") + d.count("elementwise", "cuda"), 1) << d.summary();
  }
}

TEST(GpuFusion, RngBitEqualHostAndDevice) {
  MATFUSE_REQUIRE_GPU();
  for (const std::string cls : {"single", "double"}) {
    const int m = pick(300, 900), n = pick(100, 300);
    const std::string sz = num(m) + ", " + num(n) + ", '" + cls + "'";
    std::string code = "rng(42); R = rand(" + sz + "); N = randn(" + sz + "); I = randi(1000, " +
                       sz + "); J = randi([-5 5], " + sz + "); R2 = rand(" + sz + ") * 2;"
                       " N2 = randn(" + sz + ") + 1;";
    compare_host_device(code, {"R", "N", "I", "J", "R2", "N2"});
  }
}
