// CUDA code generator (providers/cuda/codegen.h) without a GPU: kernels of real plans are
// rendered, compiled with the host g++ through tests/unit/cuda_shim.h, and run there one CUDA
// thread at a time (blocks that use __syncthreads run their threads as host threads with a
// barrier); outputs are compared with the host provider, the executable specification.
#include <cblas.h>
#include <dlfcn.h>
#include <gtest/gtest.h>

#include <barrier>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <limits>
#include <memory>
#include <sstream>
#include <thread>

#include "accel/emit/fast_math.h"
#include "accel/emit/lower.h"
#include "accel/plan/pipeline.h"
#include "providers/cuda/codegen.h"
#include "providers/cuda/cuda_api.h"
#include "providers/cuda/cuda_provider.h"
#include "providers/host/host_provider.h"
#include "runtime_accel_util.h"

namespace matfuse::cuda {
namespace {

namespace fs = std::filesystem;
using accel::NodeRef;
using namespace accel;
using accel::testing::fill;
using accel::testing::make;
using accel::testing::random_tensor;

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

/// Directory of this file: __FILE__ is relative to the build directory under Ninja, which is
/// the parent of the test binary's directory.
fs::path here_dir() {
  const fs::path f(__FILE__);
  if (f.is_absolute()) return f.parent_path();
  std::error_code ec;
  const fs::path exe = fs::read_symlink("/proc/self/exe", ec);
  for (const fs::path& b : {exe.parent_path().parent_path(), exe.parent_path(), fs::current_path()})
    if (fs::exists(b / f)) return fs::canonical(b / f).parent_path();
  return f.parent_path();
}
const fs::path kHere = here_dir();

std::string read_file(const fs::path& p) {
  std::ifstream f(p, std::ios::binary);
  std::stringstream s;
  s << f.rdbuf();
  return s.str();
}

/// Runs a shell command; returns its exit status, output in *out.
int shell(const std::string& cmd, std::string* out) {
  FILE* f = popen((cmd + " 2>&1").c_str(), "r");
  if (!f) return -1;
  char buf[4096];
  size_t n;
  while ((n = fread(buf, 1, sizeof buf, f)) > 0) out->append(buf, n);
  return pclose(f);
}

/// This process's scratch directory for shim sources and libraries, removed at exit.
fs::path temp_dir() {
  struct Dir {
    fs::path path = fs::temp_directory_path() / ("mf_cuda_codegen_" + std::to_string(getpid()));
    ~Dir() {
      std::error_code ec;
      fs::remove_all(path, ec);
    }
  };
  static const Dir dir;
  fs::create_directories(dir.path);
  return dir.path;
}

/// One rendered group with what it needs to run.
struct Case {
  std::string label;
  LoweredGroup lg;
  Program prog;
  bool runnable = true;  ///< every input is a materialised Input node
  std::vector<NodeRef> roots;  ///< keeps the nodes of lg alive
};

std::vector<Case> cases_of(const std::string& label, std::vector<NodeRef> roots,
                           const Target& t = Target{}) {
  Plan p = plan_fusion(roots);
  std::vector<Case> out;
  for (size_t g = 0; g < p.groups.size(); ++g) {
    std::string why;
    auto lg = lower_group(p, static_cast<int>(g), &why);
    if (!lg) continue;
    Case c;
    c.label = label + "#" + std::to_string(g);
    c.prog = render(lg->kernel, t);
    for (const Node* n : lg->input_nodes) c.runnable &= n->kind == NodeKind::Input;
    c.lg = std::move(*lg);
    c.roots = roots;
    out.push_back(std::move(c));
  }
  return out;
}

// ---- a broad set of real plans ------------------------------------------------------------------

std::vector<Case> all_cases() {
  std::vector<Case> cs;
  auto add = [&](const std::string& l, std::vector<NodeRef> r) {
    for (Case& c : cases_of(l, std::move(r))) cs.push_back(std::move(c));
  };
  const Dims d(37, 29);
  for (ClassId fc : {ClassId::Double, ClassId::Single}) {
    const std::string cn(class_name(fc));
    NodeRef x = input(random_tensor(d, fc, 1, 0.05, 0.95));
    NodeRef y = input(random_tensor(d, fc, 2, -3, 3));
    NodeRef col = input(random_tensor(Dims(37, 1), fc, 3, -3, 3));
    std::vector<NodeRef> un, bin;
    for (int o = 0; o < kNumOps; ++o) {
      const OpId op = static_cast<OpId>(o);
      if (op_category(op) == OpCategory::Logical) continue;
      if (op_arity(op) == 1) {
        // acosh needs x >= 1
        un.push_back(unary(op, op == OpId::Acosh ? binary(OpId::Add, x, constant(1)) : x));
      } else {
        bin.push_back(binary(op, y, col));  // broadcasting
        bin.push_back(binary(op, x, y));
      }
    }
    add("unary-" + cn, un);
    add("binary-" + cn, bin);
    add("logical-" + cn, {binary(OpId::And, binary(OpId::Gt, y, constant(0)), x),
                          binary(OpId::Or, y, binary(OpId::Lt, x, col)),
                          binary(OpId::Xor, binary(OpId::Ge, x, y), constant(1)),
                          unary(OpId::Not, binary(OpId::Ne, y, col))});
    add("special-" + cn,
        {binary(OpId::Mod, y, constant(0)), binary(OpId::Rem, y, constant(INFINITY)),
         binary(OpId::Max, y, constant(kNaN)), binary(OpId::Pow, x, constant(0.5)),
         unary(OpId::Round, binary(OpId::Mul, y, constant(2.5)))});
    for (ClassId to : {ClassId::Double, ClassId::Single, ClassId::Logical, ClassId::Char,
                       ClassId::Int8, ClassId::UInt8, ClassId::Int16, ClassId::UInt16,
                       ClassId::Int32, ClassId::UInt32})
      add("cast-" + cn + "-" + std::string(class_name(to)),
          {cast(binary(OpId::Mul, y, constant(70000)), to)});
    add("slice-" + cn, {binary(OpId::Add, slice(y, {param(3), constant(2)}, {2, 1}, {10, 20}),
                                   constant(1))});
    add("transpose-" + cn, {unary(OpId::Sin, transpose(y))});
  }
  for (ClassId ic : {ClassId::Int8, ClassId::UInt8, ClassId::Int16, ClassId::UInt16,
                     ClassId::Int32, ClassId::UInt32, ClassId::Char, ClassId::Logical}) {
    NodeRef a = input(fill(Dims(300, 7), ic, [&](int64_t i) {
      const double v = static_cast<double>((i * 7919) % 251) - (ic == ClassId::Logical ? 0 : 100);
      return ic == ClassId::Logical ? (i % 3 == 0) : v < 0 && (ic == ClassId::UInt8 ||
                                                             ic == ClassId::UInt16 ||
                                                             ic == ClassId::UInt32 ||
                                                             ic == ClassId::Char) ? -v : v;
    }));
    const std::string cn(class_name(ic));
    if (ic == ClassId::Logical || ic == ClassId::Char) {
      add("int-" + cn, {binary(OpId::Add, a, constant(1)), binary(OpId::Mul, a, a),
                        unary(OpId::Not, a), unary(OpId::IsFinite, a), binary(OpId::Lt, a, constant(1))});
    } else {
      add("int-" + cn,
          {binary(OpId::Add, a, constant(100, ic)), binary(OpId::Div, a, constant(7, ic)),
           binary(OpId::Mul, a, a), binary(OpId::Mod, a, constant(7)), unary(OpId::Abs, a),
           binary(OpId::Sub, a, constant(100.5)), binary(OpId::Max, a, constant(3)),
           unary(OpId::Neg, a), binary(OpId::Eq, a, constant(3))});
    }
  }
  // generators
  for (ClassId fc : {ClassId::Double, ClassId::Single}) {
    const std::string cn(class_name(fc));
    add("rand-" + cn, {binary(OpId::Add, rand(Dims(100, 33), fc, 0x1234abcdull, 777), constant(1)),
                       binary(OpId::Mul, randn(Dims(100, 33), fc, 0x9876ull, 5), constant(2))});
    // The random-number group path: 37 x 29 = 1073 elements (a partial last group), stream
    // offsets 3 and 1001 (groups straddling Philox blocks), a broadcast (strided) load, one
    // random array stored as is and used after the next one, an integer output.
    {
      NodeRef r1 = randn(Dims(37, 29), fc, 0x51ull, 3), r2 = rand(Dims(37, 29), fc, 0x52ull, 1001);
      NodeRef c37 = input(random_tensor(Dims(37, 1), fc, 11, -3, 3));
      add("rand-groups-" + cn, {r1, binary(OpId::Add, binary(OpId::Mul, r2, r1), c37),
                                cast(binary(OpId::Mul, r2, constant(200)), ClassId::Int16)});
    }
    add("linspace-" + cn, {binary(OpId::Mul, linspace(-1, 2.5, 1001, fc), constant(3))});
    // d2 - d1 overflows to inf: MATLAB's d1 + (d2/n1)*k - (d1/n1)*k
    add("linspace-inf-" + cn,
        {binary(OpId::Mul, linspace(-1.5e308, 1.7e308, 77, fc), constant(0.5))});
    // |d2 - d1| above 2^247 (the plain division) and 0
    add("linspace-big-" + cn, {binary(OpId::Mul, linspace(1e300, -2e300, 53, fc), constant(1e-300)),
                               binary(OpId::Add, linspace(3, 3, 40, fc), constant(1))});
    add("linspace-sum-" + cn, {reduce(ReduceKind::Sum, linspace(0, 4 * M_PI, 70001, fc), {0})});
    add("colon-" + cn, {binary(OpId::Add, colon_range(0.5, 0.1, 901, 90.5, fc), constant(1))});
    add("eye-" + cn, {binary(OpId::Add, eye(40, 30, fc), input(random_tensor(Dims(40, 30), fc, 9)))});
  }
  // reductions: each dim, 'all', omitnan, every kind, short and long rows
  NodeRef big = input(fill(Dims(3000, 5), ClassId::Double,
                           [](int64_t i) { return i % 97 == 0 ? kNaN : std::sin(0.1 * i); }));
  NodeRef bigs = input(fill(Dims(3000, 5), ClassId::Single,
                            [](int64_t i) { return i % 89 == 0 ? kNaN : std::cos(0.3 * i); }));
  NodeRef m3 = input(random_tensor(Dims({30, 20, 6}), ClassId::Double, 4));
  for (ReduceKind rk : {ReduceKind::Sum, ReduceKind::Prod, ReduceKind::Mean, ReduceKind::Min,
                        ReduceKind::Max, ReduceKind::Any, ReduceKind::All}) {
    const std::string rn(reduce_kind_name(rk));
    for (bool omit : {false, true}) {
      const std::string on = omit ? "-omit" : "";
      NodeRef sq = binary(OpId::Mul, big, constant(1.5));
      add("red-" + rn + on + "-dim1", {reduce(rk, sq, {0}, omit)});
      add("red-" + rn + on + "-dim2", {reduce(rk, big, {1}, omit)});
      add("red-" + rn + on + "-single", {reduce(rk, unary(OpId::Abs, bigs), {0}, omit)});
    }
    add("red-" + rn + "-3d-dim2", {binary(OpId::Add, reduce(rk, m3, {1}), constant(1))});
    add("red-" + rn + "-3d-dim3", {reduce(rk, unary(OpId::Exp, m3), {2})});
    add("red-" + rn + "-all", {reduce(rk, m3, {0, 1, 2})});
  }
  add("red-mean-rand", {reduce(ReduceKind::Mean, binary(OpId::Mul, unary(OpId::Sin, rand(Dims(20000, 1), ClassId::Single, 7, 0)), constant(2)), {0})});
  add("red-two-outputs", {reduce(ReduceKind::Sum, big, {0}), reduce(ReduceKind::Max, big, {0})});
  {  // prologue values also needed outside: KOutput::in_body, contiguous and strided lanes
    NodeRef sq = binary(OpId::Mul, big, constant(1.5));
    add("red-inbody-dim1", {sq, reduce(ReduceKind::Sum, sq, {0})});
    NodeRef e = unary(OpId::Exp, m3);
    add("red-inbody-dim2", {e, reduce(ReduceKind::Mean, e, {1}), reduce(ReduceKind::Max, e, {1})});
  }
  {  // examples/image_normalize.m at a small size (reductions over [2 3] with pre > 1)
    NodeRef imgs = input(random_tensor(Dims({4, 30, 20}), ClassId::Single, 12, 0, 1));
    NodeRef mu = reduce(ReduceKind::Mean, imgs, {1, 2});
    NodeRef d = binary(OpId::Sub, imgs, mu);
    NodeRef sigma = unary(OpId::Sqrt, binary(OpId::Add, reduce(ReduceKind::Mean, binary(OpId::Mul, d, d), {1, 2}),
                                              constant(1e-6, ClassId::Single)));
    NodeRef out = binary(OpId::Add, binary(OpId::Mul, binary(OpId::Div, d, sigma),
                                           constant(1.0123, ClassId::Single)),
                         constant(-0.02, ClassId::Single));
    NodeRef err = binary(OpId::Sub, out, imgs);
    add("image-normalize", {out, reduce(ReduceKind::Mean, binary(OpId::Mul, err, err), {0, 1, 2})});
  }
  // matmul epilogues
  NodeRef A = input(random_tensor(Dims(20, 15), ClassId::Double, 5));
  NodeRef B = input(random_tensor(Dims(15, 12), ClassId::Double, 6));
  add("matmul", {matmul(A, B)});
  add("matmul-epilogue", {unary(OpId::Tanh, binary(OpId::Add, matmul(A, B), constant(0.5)))});
  NodeRef As = input(random_tensor(Dims(20, 15), ClassId::Single, 7));
  NodeRef Bs = input(random_tensor(Dims(15, 12), ClassId::Single, 8));
  add("matmul-single", {binary(OpId::Max, matmul(As, Bs), constant(0, ClassId::Single))});
  // one triangle (syrk; the epilogue reads the mirrored lower triangle), alpha folded from a
  // scalar divisor (a Param) or factor (a Constant), matrix-vector products (gemv)
  add("matmul-syrk-alpha", {binary(OpId::Div, matmul(transpose(A), A), param(19))});
  add("matmul-syrk-single", {binary(OpId::Add, matmul(As, transpose(As)),
                                    constant(1, ClassId::Single))});
  add("matmul-alpha-const", {binary(OpId::Mul, constant(3), matmul(A, B))});
  NodeRef xv = input(random_tensor(Dims(15, 1), ClassId::Double, 17));
  NodeRef yv = input(random_tensor(Dims(1, 20), ClassId::Double, 18));
  add("matmul-gemv", {matmul(A, xv), matmul(yv, A), matmul(transpose(A), transpose(yv))});
  {  // matmul epilogues ended by diag: the epilogue runs at the diagonal points only
    NodeRef row = input(random_tensor(Dims(1, 12), ClassId::Double, 13));
    NodeRef col = input(random_tensor(Dims(20, 1), ClassId::Double, 14));
    NodeRef full = input(random_tensor(Dims(20, 12), ClassId::Double, 15));
    NodeRef e = binary(OpId::Add, binary(OpId::Mul, matmul(A, B), constant(2)), row);
    e = binary(OpId::Max, binary(OpId::Sub, binary(OpId::Add, e, col), full), constant(0));
    add("matmul-diag", {diag(e)});
    NodeRef Bt = input(random_tensor(Dims(25, 15), ClassId::Single, 16));  // 20 x 25: m < n
    add("matmul-diag-single",
        {diag(binary(OpId::Pow, binary(OpId::Add, matmul(As, transpose(Bt)),
                                       constant(1, ClassId::Single)),
                     constant(2)))});
    add("diag-elementwise", {diag(binary(OpId::Add, full, constant(1)))});
  }
  // complex data: real and imaginary parts as two real values (interleaved loads and stores)
  for (ClassId fc : {ClassId::Double, ClassId::Single}) {
    const std::string cn(class_name(fc));
    auto cx = [&](uint32_t seed) {
      Tensor re = random_tensor(d, ClassId::Double, seed), im = random_tensor(d, ClassId::Double, seed + 1);
      Tensor z = Tensor::uninit(fc, d, true);
      for (int64_t i = 0; i < z.numel(); ++i) z.set_complex(i, {re.get_double(i), im.get_double(i)});
      z.set_complex(5, {kNaN, 1});
      return input(z);
    };
    NodeRef za = cx(31), zb = cx(33), r = input(random_tensor(d, fc, 35));
    add("complex-" + cn, {binary(OpId::Mul, za, zb), binary(OpId::Div, za, zb), binary(OpId::Div, za, r),
                          binary(OpId::LDiv, r, za), binary(OpId::Add, za, r), unary(OpId::Abs, za),
                          unary(OpId::Angle, zb), unary(OpId::Exp, za), unary(OpId::Conj, za),
                          binary(OpId::Eq, za, zb), unary(OpId::IsNaN, za), binary(OpId::Lt, za, r),
                          unary(OpId::Imag, binary(OpId::Sub, za, zb))});
    add("complex-red-" + cn, {reduce(ReduceKind::Sum, binary(OpId::Mul, za, r), {0}),
                              reduce(ReduceKind::Mean, zb, {1})});
    add("complex-slice-" + cn,
        {binary(OpId::Add, slice(za, {constant(37), constant(2)}, {-1, 1}, {36, 20}), constant(1))});
  }
  // a loop trace: per-iteration loop index parameters and RNG offsets
  NodeRef y = input(random_tensor(Dims(500, 3), ClassId::Double, 11));
  for (int it = 1; it <= 4; ++it) {
    y = binary(OpId::Add, binary(OpId::Mul, y, param(0.5 * it, ParamRole::LoopIndex)),
               rand(Dims(500, 3), ClassId::Double, 42, 1500ull * it));
  }
  add("loop", {y});
  return cs;
}

const std::vector<Case>& cases() {
  static const std::vector<Case> c = all_cases();
  return c;
}

/// Argument expressions of entry calls from `void* const* a` (launch ABI order).
std::string call_args(const accel::Kernel& k, const Program& p) {
  std::vector<std::string> as;
  int i = 0;
  auto a = [&]() { return "a[" + std::to_string(i++) + "]"; };
  auto st = [](ClassId c) -> std::string {
    switch (c) {
      case ClassId::Double: return "double";
      case ClassId::Single: return "float";
      case ClassId::Logical: return "bool";
      case ClassId::Char:
      case ClassId::UInt16: return "unsigned short";
      case ClassId::Int8: return "signed char";
      case ClassId::UInt8: return "unsigned char";
      case ClassId::Int16: return "short";
      case ClassId::Int32: return "int";
      case ClassId::UInt32: return "unsigned int";
      default: return "void";
    }
  };
  for (auto& in : k.inputs) as.push_back("(const " + st(in.cls) + "*)" + a());
  for (auto& o : k.outputs) as.push_back("(" + st(o.cls) + "*)" + a());
  for (bool u : k.param_u64) as.push_back(std::string(u ? "*(const unsigned long long*)" : "*(const double*)") + a());
  if (k.matmul) as.push_back(std::string(k.matmul->type == VType::F32 ? "(const float*)" : "(const double*)") + a());
  if (p.scratch_bytes) as.push_back("(unsigned char*)" + a());
  if (p.may_fault) as.push_back("(int*)" + a());
  std::string s;
  for (size_t j = 0; j < as.size(); ++j) s += (j ? ", " : "") + as[j];
  return s;
}

/// One translation unit holding every case: the prelude once, each program's kernels in a
/// namespace, and (exec) extern "C" callers mf_call_<case>_<launch>(void* const* a).
std::string suite_source(bool exec, const std::vector<Case>& all = cases()) {
  const std::string& pre = device_prelude();
  std::string s = pre;
  for (size_t c = 0; c < all.size(); ++c) {
    const Case& cs = all[c];
    EXPECT_EQ(cs.prog.source.compare(0, pre.size(), pre), 0) << cs.label;
    std::string body = cs.prog.source.substr(pre.size());
    for (size_t at; (at = body.find("extern \"C\" ")) != std::string::npos;) body.erase(at, 11);
    s += "\nnamespace k" + std::to_string(c) + " {  // " + cs.label + "\n" + body + "}\n";
    if (exec)
      for (size_t l = 0; l < cs.prog.launches.size(); ++l)
        s += "extern \"C\" void mf_call_" + std::to_string(c) + "_" + std::to_string(l) +
             "(void* const* a) { k" + std::to_string(c) + "::" + cs.prog.launches[l].entry + "(" +
             call_args(cs.lg.kernel, cs.prog) + "); }\n";
  }
  if (exec)
    s += "extern \"C\" void mf_set_ctx(unsigned bx, unsigned tx, unsigned gx, unsigned bd, "
         "void (*sync)()) { blockIdx.x = bx; threadIdx.x = tx; gridDim.x = gx; blockDim.x = bd; "
         "mf_shim_sync = sync; }\n";
  return s;
}

std::string gxx() {
  const char* e = std::getenv("CXX");
  return e && *e ? e : "g++";
}

TEST(CudaCodegen, PhiloxTextIsTheRuntimeFile) {
  const std::string inc = read_file(kHere / "../../src/runtime/philox.inc");
  ASSERT_FALSE(inc.empty());
  EXPECT_NE(device_prelude().find(inc), std::string::npos)
      << "the device prelude must embed runtime/philox.inc (re-run cmake)";
  EXPECT_NE(device_prelude().find("#define MF_SQRT(x) __dsqrt_rn(x)"), std::string::npos);
}

TEST(CudaCodegen, MathTextIsTheRuntimeFile) {
  const std::string inc = read_file(kHere / "../../src/runtime/mf_math.inc");
  ASSERT_FALSE(inc.empty());
  EXPECT_NE(device_prelude().find(inc), std::string::npos)
      << "the device prelude must embed runtime/mf_math.inc (re-run cmake)";
  // The single-precision op functions call the shared text, not CUDA's libdevice.
  EXPECT_NE(device_prelude().find("MF_SO_UN(Sin, sin, mf_sinf)"), std::string::npos);
  EXPECT_NE(device_prelude().find("mf_powf(a, b)"), std::string::npos);
  EXPECT_NE(device_prelude().find("#define MF_U2F(u) __uint_as_float"), std::string::npos);
}

TEST(CudaCodegen, OpFunctionsAreTheRuntimeFile) {
  // The op bodies the host functors call (runtime/scalar_ops.h) are the device's, verbatim,
  // after the math text they call and with the device's function specifiers.
  const std::string inc = read_file(kHere / "../../src/runtime/scalar_ops.inc");
  ASSERT_FALSE(inc.empty());
  const std::string& pre = device_prelude();
  const size_t at = pre.find(inc);
  ASSERT_NE(at, std::string::npos)
      << "the device prelude must embed runtime/scalar_ops.inc (re-run cmake)";
  EXPECT_LT(pre.find("#define MF_MATH_INC"), at);
  EXPECT_LT(pre.find("#define MF_DI static __device__ __forceinline__"), at);
  // The device-only helpers follow and use the ops' NaN tests.
  EXPECT_GT(pre.find("MF_DI mf_rcp_d mf_rcp_setup(double b)"), at);
  // Every op of ops.def has its double and single function (the logical ops: bool).
#define MF_OP(id, name, arity, cat, ...)                                                    \
  if (OpCategory::cat == OpCategory::Logical) {                                           \
    EXPECT_NE(inc.find("mf_" #id "(bool a"), std::string::npos) << #id;                   \
  } else {                                                                                \
    const bool listed = inc.find("(" #id ",") != std::string::npos;                       \
    EXPECT_TRUE(listed || (inc.find(" mf_" #id "(double") != std::string::npos &&       \
                           inc.find(" mf_" #id "(float") != std::string::npos))         \
        << #id;                                                                           \
  }
#include "runtime/ops.def"
#undef MF_OP
}

TEST(CudaCodegen, EverySuiteKernelCompilesThroughTheShim) {
  ASSERT_GT(cases().size(), 100u);
  const fs::path dir = temp_dir();
  std::ofstream(dir / "suite.cu") << suite_source(false);
  std::string out;
  const int rc = shell(gxx() + " -std=c++17 -fsyntax-only -Wall -Wno-unused-variable "
                              "-Wno-unused-but-set-variable -Wno-unknown-pragmas -include " +
                           (kHere / "cuda_shim.h").string() + " -x c++ " +
                           (dir / "suite.cu").string(),
                       &out);
  EXPECT_EQ(rc, 0) << out.substr(0, 6000);
  EXPECT_EQ(out.find("warning"), std::string::npos) << out.substr(0, 3000);
}

TEST(CudaCodegen, StructureOfRenderedPrograms) {
  int vec_d = 0, vec_f = 0, reductions = 0, split = 0;
  for (const Case& c : cases()) {
    const Program& p = c.prog;
    const accel::Kernel& k = c.lg.kernel;
    ASSERT_FALSE(p.launches.empty()) << c.label;
    for (const Launch& l : p.launches) {
      EXPECT_NE(p.source.find("void " + l.entry + "("), std::string::npos) << c.label;
      EXPECT_GE(l.grid_x, 1u);
      EXPECT_EQ(l.block_x, 256u);
    }
    EXPECT_EQ(p.source.find("__sinf"), std::string::npos);
    if (k.fusion_kind == FusionKind::Reduction) {
      ++reductions;
      // A heavy body over few work items is evaluated first by a map kernel over every point.
      size_t first = 0;
      if (p.launches.front().entry == "mf_reduce_map") {
        ++split;
        first = 1;
        EXPECT_GE(p.scratch_bytes, static_cast<size_t>(k.space.numel()) * 4) << c.label;
      }
      if (p.launches.size() - first > 1) {
        EXPECT_EQ(p.launches[first].entry, "mf_reduce_leaves") << c.label;
        EXPECT_EQ(p.launches.back().entry, "mf_reduce_final") << c.label;
        EXPECT_GE(p.scratch_bytes, 2 * 24u * k.reduces.size()) << c.label;
      } else {
        const std::string& e = p.launches[first].entry;
        EXPECT_TRUE(e == "mf_reduce" || e == "mf_reduce_block") << c.label << ": " << e;
        if (first == 0) EXPECT_EQ(p.scratch_bytes, 0u) << c.label;
      }
    } else {
      EXPECT_EQ(p.launches.size(), 1u) << c.label;
      EXPECT_EQ(p.scratch_bytes, 0u) << c.label;
    }
    vec_d += p.source.find("mf_vec<double, 2> L") != std::string::npos;
    vec_f += p.source.find("mf_vec<float, 4> L") != std::string::npos;
  }
  EXPECT_GT(vec_d, 5);
  EXPECT_GT(vec_f, 5);
  EXPECT_GT(reductions, 40);
  EXPECT_GT(split, 0);
}

TEST(CudaCodegen, ContiguousFloatKernelTakesTheVectorPath) {
  NodeRef x = input(random_tensor(Dims(1000, 1), ClassId::Single, 1));
  NodeRef y = input(random_tensor(Dims(1000, 1), ClassId::Single, 2));
  auto cs = cases_of("v", {unary(OpId::Exp, binary(OpId::Mul, x, y))});
  ASSERT_EQ(cs.size(), 1u);
  const Program& p = cs[0].prog;
  EXPECT_NE(p.source.find("mf_vec<float, 4> L"), std::string::npos);
  EXPECT_NE(p.source.find("mf_stv<float, 4>(out0"), std::string::npos);
  EXPECT_FALSE(p.may_fault);
  EXPECT_EQ(p.source.find("fault", device_prelude().size()), std::string::npos);
  // Broadcasting (stride 0 over a non-singleton dim) uses the scalar loop only.
  NodeRef m = input(random_tensor(Dims(100, 10), ClassId::Single, 3));
  NodeRef r = input(random_tensor(Dims(1, 10), ClassId::Single, 4));
  auto cb = cases_of("b", {binary(OpId::Add, m, r)});
  ASSERT_EQ(cb.size(), 1u);
  EXPECT_EQ(cb[0].prog.source.find("mf_vec<float, 4> L"), std::string::npos);
  EXPECT_NE(cb[0].prog.source.find("x1"), std::string::npos);
}

TEST(CudaCodegen, FaultingOpsTakeTheFaultFlag) {
  NodeRef x = input(random_tensor(Dims(100, 1), ClassId::Double, 1));
  auto cs = cases_of("f", {unary(OpId::Sqrt, x)});
  ASSERT_EQ(cs.size(), 1u);
  EXPECT_TRUE(cs[0].prog.may_fault);
  EXPECT_NE(cs[0].prog.source.find("int* __restrict__ fault)"), std::string::npos);
  EXPECT_NE(cs[0].prog.source.find("if (!mf_ok_Sqrt(v"), std::string::npos);
  auto cl = cases_of("l", {cast(x, ClassId::Logical)});
  EXPECT_TRUE(cl.at(0).prog.may_fault);
}

TEST(CudaCodegen, UnsupportedConstructsRaiseCodegenError) {
  NodeRef x = input(random_tensor(Dims(100, 1), ClassId::Double, 1));
  auto cs = cases_of("u", {unary(OpId::Sin, x)});
  accel::Kernel k = cs.at(0).lg.kernel;
  k.inputs[0].cls = ClassId::Int64;
  EXPECT_EQ(accel::testing::error_id([&] { render(k, Target{}); }), "matfuse:codegen");
  accel::Kernel k2 = cs.at(0).lg.kernel;
  k2.body.push_back(k2.body.back());
  k2.body.back().a = 99;  // invalid SSA
  EXPECT_EQ(accel::testing::error_id([&] { render(k2, Target{}); }), "matfuse:codegen");
}

// ---- execution through the shim -------------------------------------------------------------

struct Lib {
  void* h = nullptr;
  ~Lib() {
    if (h) dlclose(h);
  }
};

std::barrier<>* g_bar = nullptr;
void bar_sync() { g_bar->arrive_and_wait(); }

struct Buffers {
  KernelArgs args;
  std::vector<Tensor> outs;
  std::vector<double> mm_d;
  std::vector<float> mm_f;
};

Buffers make_buffers(const Case& c) {
  Buffers b;
  for (const Node* n : c.lg.input_nodes) b.args.inputs.push_back(n->tensor.raw());
  for (const Node* n : c.lg.param_nodes) b.args.params.push_back({n->value, n->bits});
  for (size_t i = 0; i < c.lg.output_nodes.size(); ++i) {
    const Node* n = c.lg.output_nodes[i];
    if (c.lg.output_imag[i]) {  // the imaginary part: the real part's interleaved buffer
      b.outs.push_back(b.outs.back());
      b.args.outputs.push_back(b.args.outputs.back());
      continue;
    }
    b.outs.push_back(Tensor::uninit(n->cls, n->dims, n->complex));
    std::memset(b.outs.back().mutable_raw(), 0, b.outs.back().numel() * b.outs.back().elem_bytes());
    b.args.outputs.push_back(b.outs.back().mutable_raw());
  }
  return b;
}

/// Whether entry point `entry` of a program calls __syncthreads (its blocks then run as host
/// threads with a barrier).
bool entry_syncs(const std::string& src, const std::string& entry) {
  const size_t at = src.find("void " + entry + "(");
  if (at == std::string::npos) return false;
  const size_t end = src.find("extern \"C\"", at);
  return src.substr(at, end == std::string::npos ? std::string::npos : end - at)
             .find("__syncthreads") != std::string::npos;
}

/// Runs the case's launches through the shim library; returns the fault code.
int run_shim(void* lib, size_t ci, const Case& c, Buffers& b) {
  const accel::Kernel& k = c.lg.kernel;
  std::vector<void*> a;
  for (const void* p : b.args.inputs) a.push_back(const_cast<void*>(p));
  for (void* p : b.args.outputs) a.push_back(p);
  std::vector<double> pf(k.param_u64.size());
  std::vector<unsigned long long> pu(k.param_u64.size());
  for (size_t i = 0; i < k.param_u64.size(); ++i) {
    pf[i] = b.args.params[i].f;
    pu[i] = b.args.params[i].u;
    a.push_back(k.param_u64[i] ? static_cast<void*>(&pu[i]) : static_cast<void*>(&pf[i]));
  }
  if (k.matmul) {  // the provider's gemm, as the host provider computes it
    const auto& m = *k.matmul;
    const bool f32 = m.type == VType::F32;
    void* mm;
    // NaN everywhere first: a syrk product leaves the strict upper triangle unwritten, and the
    // epilogue must never read it.
    if (f32) {
      b.mm_f.assign(m.m * m.n, NAN);
      mm = b.mm_f.data();
    } else {
      b.mm_d.assign(m.m * m.n, NAN);
      mm = b.mm_d.data();
    }
    double alpha = m.alpha_slot >= 0 ? pf[m.alpha_slot] : m.alpha_imm;
    if (m.alpha_div) alpha = 1.0 / alpha;
    if (m.syrk) {
      host::host_provider().syrk(SyrkCall{f32, m.trans_a, m.m, m.k, b.args.inputs[m.a], m.lda, mm,
                                          alpha, 0.0});
    } else {
      GemmCall g{f32, m.trans_a, m.trans_b, m.m, m.n, m.k, b.args.inputs[m.a], m.lda,
                 b.args.inputs[m.b], m.ldb, mm};
      g.alpha = alpha;
      host::host_provider().gemm(g);
    }
    a.push_back(mm);
  }
  std::vector<unsigned char> scratch(c.prog.scratch_bytes + 16, 0xcd);
  if (c.prog.scratch_bytes) a.push_back(scratch.data());
  int fault = 0;
  if (c.prog.may_fault) a.push_back(&fault);
  auto set_ctx = reinterpret_cast<void (*)(unsigned, unsigned, unsigned, unsigned, void (*)())>(
      dlsym(lib, "mf_set_ctx"));
  for (size_t l = 0; l < c.prog.launches.size(); ++l) {
    const Launch& L = c.prog.launches[l];
    auto fn = reinterpret_cast<void (*)(void* const*)>(
        dlsym(lib, ("mf_call_" + std::to_string(ci) + "_" + std::to_string(l)).c_str()));
    EXPECT_NE(fn, nullptr);
    if (!fn) return -1;
    const bool sync = entry_syncs(c.prog.source, L.entry);
    for (unsigned bx = 0; bx < L.grid_x; ++bx) {
      if (sync) {
        std::barrier<> bar(L.block_x);
        g_bar = &bar;
        std::vector<std::thread> ts;
        for (unsigned tx = 0; tx < L.block_x; ++tx)
          ts.emplace_back([&, tx] {
            set_ctx(bx, tx, L.grid_x, L.block_x, &bar_sync);
            fn(a.data());
          });
        for (auto& t : ts) t.join();
      } else {
        for (unsigned tx = 0; tx < L.block_x; ++tx) {
          set_ctx(bx, tx, L.grid_x, L.block_x, nullptr);
          fn(a.data());
        }
      }
    }
  }
  return fault;
}

/// Compiles cases into a shared library through the shim (file stem `name`).
bool compile_shim(const std::vector<Case>& cs, const std::string& name, Lib& lib) {
  const fs::path dir = temp_dir();
  std::ofstream(dir / (name + ".cu")) << suite_source(true, cs);
  std::string out;
  const std::string so = (dir / (name + ".so")).string();
  const int rc = shell(gxx() + " -std=c++17 -O1 -ffp-contract=off -fPIC -shared -w -include " +
                           (kHere / "cuda_shim.h").string() + " -x c++ " +
                           (dir / (name + ".cu")).string() + " -o " + so,
                       &out);
  EXPECT_EQ(rc, 0) << out.substr(0, 6000);
  if (rc != 0) return false;
  lib.h = dlopen(so.c_str(), RTLD_NOW | RTLD_LOCAL);
  EXPECT_NE(lib.h, nullptr) << dlerror();
  return lib.h != nullptr;
}

/// Runs every runnable case on the host provider and through the shim; outputs must agree bit
/// for bit (reductions included: the device follows the host's summation order). Returns the
/// number of cases run.
int expect_same_as_host(void* lib, const std::vector<Case>& cs) {
  int ran = 0;
  for (size_t ci = 0; ci < cs.size(); ++ci) {
    const Case& c = cs[ci];
    if (!c.runnable) continue;
    SCOPED_TRACE(c.label);
    Buffers host = make_buffers(c), dev = make_buffers(c);
    const RunResult hr = host::host_provider().run(c.lg.kernel, host.args);
    const int fault = run_shim(lib, ci, c, dev);
    ++ran;
    EXPECT_EQ(hr.ok, fault == 0) << c.label << ": host " << hr.fault << ", shim fault " << fault;
    if (!hr.ok) continue;
    for (size_t o = 0; o < host.outs.size(); ++o)
      EXPECT_TRUE(accel::testing::same_bits(host.outs[o], dev.outs[o])) << c.label << " output " << o;
  }
  return ran;
}

/// Compiles cs through the shim as `name`; every runnable case (at least min_runnable) must give
/// the host provider's bits.
void expect_runnable_cases_match_host(const std::vector<Case>& cs, const std::string& name,
                                      int min_runnable) {
  Lib lib;
  ASSERT_TRUE(compile_shim(cs, name, lib));
  const auto runnable =
      std::count_if(cs.begin(), cs.end(), [](const Case& c) { return c.runnable; });
  EXPECT_GE(runnable, min_runnable);
  EXPECT_EQ(expect_same_as_host(lib.h, cs), runnable);
}

TEST(CudaCodegen, ShimExecutionMatchesTheHostProvider) {
  Lib lib;
  ASSERT_TRUE(compile_shim(cases(), "exec", lib));
  EXPECT_GT(expect_same_as_host(lib.h, cases()), 100);
}

TEST(CudaCodegen, RandomNumberGroupsMatchTheHostAtAnyOffsetAndSize) {
  std::vector<Case> cs;
  for (const Case& c : cases())
    if (c.label.rfind("rand-", 0) == 0 || c.label.rfind("red-mean-rand", 0) == 0)
      cs.push_back(c);  // rand-<class>, rand-groups-<class>, and a reduction's map pass
  std::string all;
  bool partial = false, strided = false;
  for (const Case& c : cs) {
    const std::string k = c.prog.source.substr(device_prelude().size());
    EXPECT_NE(k.find("_x4("), std::string::npos) << c.label;
    EXPECT_EQ(k.find("_ni("), std::string::npos) << c.label;
    partial |= k.find("if (l_ < cnt_)") != std::string::npos;  // 1073 elements
    strided |= k.find("xr_") != std::string::npos;             // the broadcast load
    all += k;
  }
  for (const char* f : {"mf_randn_f_x4(", "mf_randn_d_x4(", "mf_rand_f_x4(", "mf_rand_d_x4("})
    EXPECT_NE(all.find(f), std::string::npos) << f;
  EXPECT_TRUE(partial);
  EXPECT_TRUE(strided);
  EXPECT_NE(all.find("mf_reduce_map("), std::string::npos);
  expect_runnable_cases_match_host(cs, "randgroups", 6);
}

TEST(CudaCodegen, DiagonalMatmulEpilogueRunsAtTheDiagonalPoints) {
  // The matmul-diag cases of the suite: one matmul_epilogue kernel each whose epilogue reads
  // the gemm result at i*(m+1) (m = 20) and writes min(m,n) points; run through the shim.
  std::vector<Case> cs;
  for (const Case& c : cases())
    if (c.label.rfind("matmul-diag", 0) == 0) cs.push_back(c);
  ASSERT_EQ(cs.size(), 2u);
  for (const Case& c : cs) {
    const accel::Kernel& k = c.lg.kernel;
    EXPECT_EQ(k.fusion_kind, FusionKind::MatMulEpilogue) << c.label;
    ASSERT_TRUE(k.matmul.has_value());
    EXPECT_TRUE(k.matmul->diag) << c.label;
    EXPECT_EQ(k.out_space, Dims(std::min(k.matmul->m, k.matmul->n), 1)) << c.label;
    EXPECT_NE(c.prog.source.find("mm[i * 21LL]"), std::string::npos) << c.label;
  }
  Lib lib;
  ASSERT_TRUE(compile_shim(cs, "diag", lib));
  EXPECT_EQ(expect_same_as_host(lib.h, cs), 2);
}

TEST(CudaCodegen, DivisionByAPerThreadDivisorGivesTheDivisionsBits) {
  // x ./ p and p .\ x with p a scalar parameter take mf_div_rcp (reciprocal computed once per
  // thread, residual steps per point). Numerators and divisors cover the fast path's range
  // limits (2^+-40 for single, 2^+-300 for double), zeros, infinities, NaN and subnormals, so
  // both the multiplicative path and the division fallback must give the division's bits.
  std::vector<Case> cs;
  for (ClassId c : {ClassId::Single, ClassId::Double}) {
    const bool sgl = c == ClassId::Single;
    const double lim = sgl ? 0x1p40 : 0x1p300, tiny = sgl ? 0x1p-140 : 0x1p-1060;
    const std::vector<double> special = {0.0, -0.0,    INFINITY, -INFINITY, kNaN, tiny, -tiny,
                                         lim, 1 / lim, lim * 2,  0.5 / lim, 1.0,  -3.0};
    uint64_t st = 7;
    NodeRef x = input(fill(Dims(4096, 1), c, [&](int64_t i) {
      if (i < static_cast<int64_t>(special.size())) return special[i];
      st = st * 6364136223846793005ULL + 1442695040888963407ULL;
      const double m = 1.0 + static_cast<double>(st >> 11) * 0x1p-53;
      const int e = static_cast<int>((st >> 3) % (sgl ? 100 : 700)) - (sgl ? 50 : 350);
      return ((st & 1) ? -1 : 1) * std::ldexp(m, e);
    }));
    const std::string cn(class_name(c));
    for (double d : std::vector<double>{10.0, 3.0, -0.1, 1 / 3.0, lim, lim * 2, 1 / lim, 0.5 / lim,
                                        tiny, 0.0, -(double)INFINITY, kNaN}) {
      std::ostringstream l;
      l << "div-" << cn << "-" << d;
      for (Case& k :
           cases_of(l.str(), {binary(OpId::Div, x, param(d)), binary(OpId::LDiv, param(d), x)}))
        cs.push_back(std::move(k));
    }
  }
  for (const Case& c : cs)
    EXPECT_NE(c.prog.source.find("= mf_div_rcp(v"), std::string::npos) << c.label;
  expect_runnable_cases_match_host(cs, "divrcp", 24);
}

TEST(CudaCodegen, ReductionsAreBitIdenticalToTheHost) {
  // Terms of very different magnitudes (any other summation order changes the last bits),
  // NaNs for omitnan, factors near 1 for prod.
  auto terms = [](const Dims& d, ClassId c, bool nans) {
    return input(fill(d, c, [nans](int64_t i) {
      if (nans && i % 37 == 5) return kNaN;
      return std::sin(0.7 * i) * std::exp(4 * std::cos(1.3 * i));
    }));
  };
  auto factors = [](const Dims& d, ClassId c) {
    return input(fill(d, c, [](int64_t i) { return 1 + 0.01 * std::sin(0.37 * i); }));
  };
  std::vector<Case> cs;
  int multi_pass = 0, multi_leaf = 0, staged = 0, folded = 0, block_finals = 0, one_block = 0;
  auto count_folds = [&](const std::vector<Case>& v) {
    for (const Case& c : v) {
      folded += c.prog.source.find("__shfl_down_sync(") != std::string::npos;
      block_finals += c.prog.source.find("mf_reduce_final") != std::string::npos &&
                      c.prog.source.find("_.v = -(") != std::string::npos;  // padded final
      one_block += c.prog.launches.size() == 1 && c.prog.launches[0].entry == "mf_reduce_block";
    }
  };
  for (int64_t n : {1, 2, 127, 128, 129, 255, 256, 1000, 4097, 1000000}) {
    for (ClassId c : {ClassId::Double, ClassId::Single}) {
      const std::string l = std::to_string(n) + "-" + std::string(class_name(c));
      std::vector<std::pair<std::string, std::vector<NodeRef>>> gs;
      NodeRef col = terms(Dims(n, 2), c, false), row = terms(Dims(3, n), c, true);
      gs.push_back({"sum-pre1", {reduce(ReduceKind::Sum, col, {0})}});
      gs.push_back({"sum-pre3", {reduce(ReduceKind::Sum, terms(Dims(3, n), c, false), {1})}});
      gs.push_back({"mean-omit-pre1", {reduce(ReduceKind::Mean, terms(Dims(n, 2), c, true), {0}, true)}});
      gs.push_back({"sum-omit-pre3", {reduce(ReduceKind::Sum, row, {1}, true)}});
      gs.push_back({"sum-nan-pre3", {reduce(ReduceKind::Sum, row, {1})}});
      gs.push_back({"prod-pre1", {reduce(ReduceKind::Prod, factors(Dims(n, 2), c), {0})}});
      gs.push_back({"prod-pre3", {reduce(ReduceKind::Prod, factors(Dims(3, n), c), {1})}});
      gs.push_back({"sum-max-fused", {reduce(ReduceKind::Sum, unary(OpId::Abs, col), {0}),
                                      reduce(ReduceKind::Max, unary(OpId::Abs, col), {0})}});
      for (auto& [gl, roots] : gs) {
        // The default target, and a one-SM target (several leaves per thread).
        for (int sms : {132, 1}) {
          Target t;
          t.sm_count = sms;
          for (Case& cc : cases_of(l + "-" + gl + "-sm" + std::to_string(sms), roots, t)) {
            multi_pass += cc.prog.launches.size() > 2;
            multi_leaf += cc.prog.launches.size() > 1 && sms == 1;
            cs.push_back(std::move(cc));
          }
        }
      }
    }
  }
  // Large rows with pre > 1 (lanes across threads) and in_body outputs (stored while folding,
  // from the staged coalesced path when pre == 1).
  for (ClassId c : {ClassId::Double, ClassId::Single}) {
    const std::string cn(class_name(c));
    for (int64_t pre : {2, 3, 16, 1000}) {
      const int64_t n = pre == 1000 ? 3000 : pre < 8 ? 20001 : 70001;
      NodeRef x = binary(OpId::Mul, terms(Dims(pre, n), c, false), constant(1.5));
      for (int sms : {132, 1}) {
        Target t;
        t.sm_count = sms;
        for (Case& cc : cases_of("pre" + std::to_string(pre) + "-" + cn + "-sm" + std::to_string(sms),
                                 {x, reduce(ReduceKind::Sum, x, {1}), reduce(ReduceKind::Max, x, {1}),
                                  reduce(ReduceKind::Mean, terms(Dims(pre, n), c, true), {1}, true)}, t)) {
          staged += entry_syncs(cc.prog.source, cc.prog.launches.front().entry);
          cs.push_back(std::move(cc));
        }
      }
    }
    for (int64_t n : {100, 129, 4097, 300000}) {
      NodeRef x = terms(Dims(n, 3), c, true);
      NodeRef sq = binary(OpId::Mul, x, constant(1.5));
      NodeRef e = unary(OpId::Exp, binary(OpId::Mul, x, constant(0.001)));
      for (int sms : {132, 1}) {
        Target t;
        t.sm_count = sms;
        for (Case& cc : cases_of("inbody-" + std::to_string(n) + "-" + cn + "-sm" + std::to_string(sms),
                                 {sq, e, reduce(ReduceKind::Sum, sq, {0}), reduce(ReduceKind::Min, e, {0}),
                                  reduce(ReduceKind::Mean, sq, {0}, true)}, t)) {
          staged += entry_syncs(cc.prog.source, cc.prog.launches.front().entry);
          cs.push_back(std::move(cc));
        }
      }
    }
    // prod over many lanes (staged, each lane left to right), pre 1 and 2.
    Target one;
    one.sm_count = 1;
    for (Case& cc : cases_of("prod-lanes-" + cn, {reduce(ReduceKind::Prod, factors(Dims(300, 200), c), {0}),
                                                  reduce(ReduceKind::Prod, factors(Dims({2, 300, 40}), c), {1})}, one)) {
      staged += entry_syncs(cc.prog.source, cc.prog.launches.front().entry);
      cs.push_back(std::move(cc));
    }
    // Signed zeros: max/min keep the first of equal values, as the host does.
    NodeRef z = input(fill(Dims(20000, 2), c, [](int64_t i) { return (i * 7) % 3 == 0 ? -0.0 : 0.0; }));
    for (Case& cc : cases_of("zeros-" + cn, {reduce(ReduceKind::Max, z, {0}), reduce(ReduceKind::Min, z, {0})}))
      cs.push_back(std::move(cc));
  }
  count_folds(cs);
  EXPECT_GT(multi_pass, 4);
  EXPECT_GT(multi_leaf, 4);
  EXPECT_GT(staged, 14);
  EXPECT_GT(folded, 8);  // leaves launches folding their blocks' partials (pre 1, 2, 16)
  EXPECT_GT(block_finals, 2);  // final launches taking 17 or more partials per output
  EXPECT_GT(one_block, 4);     // few short lanes: leaves and tree in one mf_reduce_block launch
  expect_runnable_cases_match_host(cs, "bits", 6);
}

TEST(CudaCodegen, ShimExecutionReportsFaults) {
  NodeRef neg = input(fill(Dims(300, 1), ClassId::Double, [](int64_t i) { return i == 77 ? -1.0 : 2.0; }));
  NodeRef nan = input(fill(Dims(300, 1), ClassId::Double, [](int64_t i) { return i == 5 ? kNaN : 1.0; }));
  std::vector<Case> cs = cases_of("sqrt", {unary(OpId::Sqrt, neg)});
  for (Case& c : cases_of("nanlogical", {binary(OpId::Or, nan, constant(0))})) cs.push_back(std::move(c));
  ASSERT_EQ(cs.size(), 2u);
  const fs::path dir = temp_dir();
  std::string src = device_prelude();
  for (size_t ci = 0; ci < cs.size(); ++ci) {
    std::string body = cs[ci].prog.source.substr(device_prelude().size());
    for (size_t at; (at = body.find("extern \"C\" ")) != std::string::npos;) body.erase(at, 11);
    src += "namespace k" + std::to_string(ci) + " {\n" + body + "}\nextern \"C\" void mf_call_" +
           std::to_string(ci) + "_0(void* const* a) { k" + std::to_string(ci) +
           "::mf_elementwise(" + call_args(cs[ci].lg.kernel, cs[ci].prog) + "); }\n";
  }
  src += "extern \"C\" void mf_set_ctx(unsigned bx, unsigned tx, unsigned gx, unsigned bd, "
         "void (*sync)()) { blockIdx.x = bx; threadIdx.x = tx; gridDim.x = gx; blockDim.x = bd; "
         "mf_shim_sync = sync; }\n";
  std::ofstream(dir / "fault.cu") << src;
  std::string out;
  const std::string so = (dir / "fault.so").string();
  ASSERT_EQ(shell(gxx() + " -std=c++17 -O0 -fPIC -shared -w -include " +
                      (kHere / "cuda_shim.h").string() + " -x c++ " + (dir / "fault.cu").string() +
                      " -o " + so,
                  &out),
            0)
      << out;
  Lib lib;
  lib.h = dlopen(so.c_str(), RTLD_NOW | RTLD_LOCAL);
  ASSERT_NE(lib.h, nullptr);
  Buffers b0 = make_buffers(cs[0]), b1 = make_buffers(cs[1]);
  EXPECT_EQ(run_shim(lib.h, 0, cs[0], b0), kFaultComplex);
  EXPECT_EQ(run_shim(lib.h, 1, cs[1], b1), kFaultLogicalNaN);
}

/// examples/gbm.m's loop trace: 64 iterations of S = S .* exp(drift + scale .* randn(M, 1)).
std::vector<Case> gbm_cases(int iters) {
  NodeRef S = input(fill(Dims(4099, 1), ClassId::Single, [](int64_t) { return 100.0; }));
  for (int it = 1; it <= iters; ++it) {
    accel::LoopIteration iteration;  // as the interpreter stamps each loop iteration
    NodeRef z = randn(Dims(4099, 1), ClassId::Single, 0x5eedull, 4099ull * it);
    S = binary(OpId::Mul, S,
               unary(OpId::Exp, binary(OpId::Add, constant(1.19e-4, ClassId::Single),
                                        binary(OpId::Mul, constant(0.0126, ClassId::Single), z))));
  }
  return cases_of("gbm", {S});
}

TEST(CudaCodegen, RngLoopKernelStaysCompact) {
  std::vector<Case> all = gbm_cases(64), cs;
  for (Case& c : all)  // the loop kernel (the planner may split off a small first group)
    if (c.lg.kernel.fusion_kind == FusionKind::Loop && c.lg.kernel.body.size() > 300) cs.push_back(std::move(c));
  if (std::getenv("MF_PRINT_GBM") && !cs.empty()) std::printf("%s\n", cs[0].prog.source.c_str() + device_prelude().size());
  ASSERT_EQ(cs.size(), 1u);
  const Program& p = cs[0].prog;
  const size_t size = p.source.size() - device_prelude().size();
  std::printf("gbm loop kernel: %zu bytes of kernel source (prelude %zu)\n", size,
              device_prelude().size());
  // The random-number group path: 4 elements per thread, one randn block call per iteration
  // (out of line), each right before the lane loop that uses it (one block live at a time), no
  // tail loop (the partial last group is guarded), so no per-element randn call at all.
  auto count = [&](const std::string& what) {
    size_t c = 0;
    for (size_t at = device_prelude().size(); (at = p.source.find(what, at)) != std::string::npos; ++at)
      ++c;
    return c;
  };
  const size_t calls = count("mf_randn_f_x4("), loops = count("for (int l_ = 0; l_ < 4;");
  EXPECT_GE(calls, 60u);
  EXPECT_EQ(loops, calls + 1);  // and the segment before the first randn
  EXPECT_EQ(p.source.find("mf_randn_f_ni(", device_prelude().size()), std::string::npos);
  EXPECT_NE(p.source.find("if (l_ < cnt_)", device_prelude().size()), std::string::npos);
  EXPECT_LT(size, 32000u);  // 20 KB with one element per thread
  // Still bit-identical to the host.
  Lib lib;
  ASSERT_TRUE(compile_shim(cs, "gbm", lib));
  EXPECT_EQ(expect_same_as_host(lib.h, cs), 1);
}

}  // namespace
}  // namespace matfuse::cuda

namespace matfuse::cuda {
namespace {

// ---- fast mode (accel::MathMode::Fast, docs/math-modes.md) ------------------------------------

/// Lowers roots with the math mode m (restored after).
std::vector<Case> cases_in_mode(accel::MathMode m, const std::string& label,
                                std::vector<NodeRef> roots) {
  const accel::MathMode prev = accel::math_mode();
  accel::set_math_mode(m);
  std::vector<Case> cs = cases_of(label, std::move(roots));
  accel::set_math_mode(prev);
  return cs;
}

/// The W1 chain's shape: a single linspace, sin/exp/cos/tanh, divisions by uniform scalars.
std::vector<NodeRef> w1_like(int64_t n) {
  NodeRef x = cast(linspace(0, 4 * M_PI, n), ClassId::Single);
  NodeRef y0 = binary(OpId::Mul, unary(OpId::Sin, x),
                      unary(OpId::Exp, binary(OpId::Div, unary(OpId::Neg, x), param(10))));
  NodeRef y1 = binary(OpId::Add, binary(OpId::Mul, y0, unary(OpId::Cos, binary(OpId::Div, x, param(4)))),
                      binary(OpId::Mul, param(0.25), binary(OpId::Pow, y0, param(2))));
  NodeRef d = input(random_tensor(Dims(1, n), ClassId::Single, 9, 0.5, 2));
  return {binary(OpId::Add, unary(OpId::Tanh, y1), binary(OpId::Div, y1, d))};
}

TEST(CudaCodegen, FastModeRewritesAndRendersLibraryFunctions) {
  auto exact = cases_in_mode(accel::MathMode::Exact, "e", w1_like(5000));
  auto fast = cases_in_mode(accel::MathMode::Fast, "f", w1_like(5000));
  ASSERT_EQ(exact.size(), fast.size());
  ASSERT_GE(fast.size(), 1u);
  for (size_t i = 0; i + 1 < fast.size(); ++i) EXPECT_TRUE(fast[i].prog.fast_math);
  // The last group computes the chain.
  std::swap(exact[0], exact.back());
  std::swap(fast[0], fast.back());
  const accel::Kernel& ke = exact[0].lg.kernel;
  const accel::Kernel& kf = fast[0].lg.kernel;
  // Exact kernels keep their text and source; fast ones say so and differ.
  EXPECT_EQ(ke.text().find("math="), std::string::npos);
  EXPECT_NE(kf.text().find(" math=fast\n"), std::string::npos);
  EXPECT_FALSE(exact[0].prog.fast_math);
  EXPECT_TRUE(fast[0].prog.fast_math);
  EXPECT_EQ(exact[0].prog.source.find("mf_fast_"), std::string::npos);
  for (const char* f : {"mf_fast_Sin(", "mf_fast_Exp(", "mf_fast_Cos(", "mf_fast_Tanh(",
                        "mf_fast_Div("})
    EXPECT_NE(fast[0].prog.source.find(f, device_prelude().size() + fast_prelude().size()),
              std::string::npos) << f;
  // Divisions by the uniform 10 and 4 became products by reciprocals; single(linspace) a single
  // generator; the double generator is gone.
  int div_uniform = 0, gen_f32 = 0, gen_f64 = 0;
  for (const accel::Instr& in : kf.body) {
    if (in.kind == accel::IKind::Op && in.op == OpId::Div && !in.uniform &&
        kf.body[in.b].uniform)
      ++div_uniform;
    if (in.kind == accel::IKind::Gen) (in.type == VType::F32 ? gen_f32 : gen_f64)++;
  }
  EXPECT_EQ(div_uniform, 0);
  EXPECT_EQ(gen_f32, 1);
  EXPECT_EQ(gen_f64, 0);
  EXPECT_TRUE(accel::verify_kernel(kf).empty());
}

TEST(CudaCodegen, FastModeShimExecutionWithinBoundsOfTheHost) {
  // Through the shim the library functions are the C library's (within 1 ulp), so the shim and
  // the host provider in fast mode agree within a few ulp of the chain's magnitude.
  auto cs = cases_in_mode(accel::MathMode::Fast, "f", w1_like(3000));
  std::swap(cs[0], cs.back());
  cs.resize(1);
  Lib lib;
  ASSERT_TRUE(compile_shim(cs, "fast", lib));
  Buffers host = make_buffers(cs[0]), dev = make_buffers(cs[0]);
  ASSERT_TRUE(host::host_provider().run(cs[0].lg.kernel, host.args).ok);
  ASSERT_EQ(run_shim(lib.h, 0, cs[0], dev), 0);
  const float* h = host.outs[0].data<float>();
  const float* d = dev.outs[0].data<float>();
  double worst = 0;
  for (int64_t i = 0; i < host.outs[0].numel(); ++i)
    worst = std::max(worst, std::fabs(static_cast<double>(h[i]) - d[i]));
  EXPECT_LE(worst, 8 * 0x1p-23 * 4);
}

TEST(CudaCodegen, FastAndExactProgramsCompileWithNvrtcWhereItIsInstalled) {
  // NVRTC alone (no driver or GPU needed): the generated source of both modes must compile.
  void* h = nullptr;
  for (const char* n : {"libnvrtc.so", "libnvrtc.so.13", "libnvrtc.so.12"})
    if ((h = dlopen(n, RTLD_NOW | RTLD_LOCAL))) break;
  if (!h) GTEST_SKIP() << "no libnvrtc on this machine";
  Lib keep;
  keep.h = h;
  using Prog = void*;
  auto create = reinterpret_cast<int (*)(Prog*, const char*, const char*, int, const char* const*,
                                         const char* const*)>(dlsym(h, "nvrtcCreateProgram"));
  auto compile = reinterpret_cast<int (*)(Prog, int, const char* const*)>(
      dlsym(h, "nvrtcCompileProgram"));
  auto log_size = reinterpret_cast<int (*)(Prog, size_t*)>(dlsym(h, "nvrtcGetProgramLogSize"));
  auto get_log = reinterpret_cast<int (*)(Prog, char*)>(dlsym(h, "nvrtcGetProgramLog"));
  auto destroy = reinterpret_cast<int (*)(Prog*)>(dlsym(h, "nvrtcDestroyProgram"));
  ASSERT_TRUE(create && compile && log_size && get_log && destroy);
  for (accel::MathMode m : {accel::MathMode::Exact, accel::MathMode::Fast}) {
    for (const Case& c : cases_in_mode(m, "n", w1_like(5000))) {
      Prog prog = nullptr;
      ASSERT_EQ(create(&prog, c.prog.source.c_str(), "k.cu", 0, nullptr, nullptr), 0);
      const char* opts[] = {"--gpu-architecture=sm_90", "--std=c++17",
                            c.prog.fast_math ? "--fmad=true" : "--fmad=false", "-default-device"};
      const int r = compile(prog, 4, opts);
      size_t n = 0;
      log_size(prog, &n);
      std::string log(n, '\0');
      if (n) get_log(prog, log.data());
      destroy(&prog);
      EXPECT_EQ(r, 0) << log.substr(0, 4000);
    }
  }
}

TEST(CudaLinalg, MatrixKernelsCompileAndSolverEntriesExistWhereInstalled) {
  // The provider's own NVRTC kernels (cuda_linalg.cc) compile; every cuSOLVER name that
  // cuda_api.cc binds exists in the installed library (no driver or GPU needed).
  void* h = nullptr;
  for (const char* n : {"libnvrtc.so", "libnvrtc.so.13", "libnvrtc.so.12"})
    if ((h = dlopen(n, RTLD_NOW | RTLD_LOCAL))) break;
  if (h) {
    Lib keep;
    keep.h = h;
    using Prog = void*;
    auto create = reinterpret_cast<int (*)(Prog*, const char*, const char*, int,
                                           const char* const*, const char* const*)>(
        dlsym(h, "nvrtcCreateProgram"));
    auto compile =
        reinterpret_cast<int (*)(Prog, int, const char* const*)>(dlsym(h, "nvrtcCompileProgram"));
    auto log_size = reinterpret_cast<int (*)(Prog, size_t*)>(dlsym(h, "nvrtcGetProgramLogSize"));
    auto get_log = reinterpret_cast<int (*)(Prog, char*)>(dlsym(h, "nvrtcGetProgramLog"));
    auto destroy = reinterpret_cast<int (*)(Prog*)>(dlsym(h, "nvrtcDestroyProgram"));
    ASSERT_TRUE(create && compile && log_size && get_log && destroy);
    Prog prog = nullptr;
    ASSERT_EQ(create(&prog, linalg_kernel_source(), "la.cu", 0, nullptr, nullptr), 0);
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
  void* sol = nullptr;
  for (const char* n : {"libcusolver.so", "libcusolver.so.12", "libcusolver.so.11"})
    if ((sol = dlopen(n, RTLD_NOW | RTLD_LOCAL))) break;
  if (!h && !sol) GTEST_SKIP() << "neither libnvrtc nor libcusolver on this machine";
  if (sol) {
    for (const char* name : cusolver_entry_names())
      EXPECT_NE(dlsym(sol, name), nullptr) << name;
    dlclose(sol);
  }
}

}  // namespace
}  // namespace matfuse::cuda
