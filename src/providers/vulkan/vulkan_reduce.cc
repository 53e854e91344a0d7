// Reduction and matrix-product kernels of the Vulkan provider as GLSL compute shaders (see
// vulkan_codegen_internal.h for the shared instruction rendering).
//
// Reductions (fusion_kind reduction, kernel_ir.h's (pre, n, post) view), bit for bit the host
// provider's results (providers/host/host_provider.cc is the specification):
// - Every lane (i, p) folds its n terms over the host's pairwise tree (runtime/pairwise.h): the
//   row is cut into L = 2^D leaves, D the least depth where floor(n / 2^D) <= 128, by halving
//   (a range [lo, lo+len) splits at lo + len/2, mf_leaf_lo); the sizes at depth D are
//   floor(n/2^D) or one more, so a leaf holds at most 129 terms, and one of 129 is the host's
//   (64 terms) + (65 terms). Each leaf is summed left to right from +0 (NaNs skipped with
//   omitnan), and the leaf sums are added as the balanced binary tree above them. min, max,
//   any and all fold in order, and their partials combine in order (the combination is
//   associative, so any bracketing gives the in-order result: the first extreme wins a tie, the
//   first NaN is the one returned). prod runs left to right over the whole row, so a kernel with
//   a prod gives each lane to one invocation.
// - Dispatch 1 (leaves): work item g covers lane (g % pre, q / G) and an aligned group of f0
//   consecutive leaves (q = g / pre, G = L / f0 groups per lane; adjacent invocations take
//   adjacent lanes i, so strided rows are read side by side). f0 is the largest power of two
//   that still leaves about kTarget work items: many lanes get one invocation each (f0 = L), a
//   few long lanes (the sum of one long vector) are split into many leaf groups. An item
//   evaluates the body at its points, stores the in_body outputs (every point exactly once),
//   and folds; its leaf sums are combined as a balanced tree (a stack of partial sums, one
//   push per leaf). With G = 1 it finishes the lane and runs the epilogue; else it writes its
//   partial to scratch.
// - Dispatches 2.. (combine): aligned runs of kCombine partials of a lane combined as a
//   balanced tree (the subtrees of the lane's tree, in order) until at most kCombine are left;
//   the last dispatch combines those, finishes each lane (mean divides by n or by the count of
//   non-NaN terms, min/max return the first NaN unless omitnan found a number) and runs the
//   epilogue over out_space. Every dispatch is recorded in one submission with barriers between
//   them (Device::dispatch). No floating-point atomics: repeated runs give identical bits.
//
// Matrix products (KMatMul): C = alpha * op(A) * op(B) into scratch, then the epilogue over the
// m x n output (or the diagonal, KMatMul::diag) reading C. The product is a tiled GEMM: a
// workgroup of 256 invocations computes a 64 x 64 tile of C, staging 64 x 8 panels of op(A)
// and 8 x 64 panels of op(B) in shared memory, each invocation accumulating a 4 x 4 block (rows
// r0 + tr + 16a, columns c0 + tc + 16b: consecutive invocations touch consecutive rows of the
// column-major operands and of C). Products with one dimension 1 (matrix-vector) give each
// output element to one invocation; a few outputs of a long inner dimension (dot products)
// give each element to a workgroup, whose invocations take interleaved parts of k and add them
// as a tree in shared memory. syrk (A.'*A, A*A.') computes the tiles on and below the diagonal
// and reads C(i,j) above it at (j,i). The summation order differs from OpenBLAS's, so results
// agree within rounding, not bit for bit (as with cuBLAS).
//
// Indices within a workgroup are unsigned: Mesa 22.3's lavapipe compares a 64-bit integer
// converted from a signed 32-bit one (int64_t(int)) wrongly (int64_t(r) < 64L false for r = 0..7),
// and an unsigned one (int64_t(uint)) converts correctly.
#include <algorithm>
#include <cstdio>
#include <sstream>

#include "providers/vulkan/vulkan_codegen_internal.h"

namespace matfuse::vk::detail {

using accel::IKind;
using accel::KReduce;
using accel::ReduceKind;
using accel::VType;

namespace {

constexpr int64_t kLeaf = 128;        ///< host pairwise block (runtime/pairwise.h)
constexpr int64_t kCombine = 32;      ///< partials per invocation in a combine dispatch
constexpr int64_t kTarget = 1 << 15;  ///< work items wanted in the leaves dispatch
constexpr int64_t kPartBytes = 32;    ///< a partial in scratch: v, nan_v, count, found, nan

std::string num(int64_t v) { return std::to_string(v) + "L"; }
std::string R(size_t r) { return std::to_string(r); }
/// P<r>_, the partial of reduce r (appends: "P" + std::string&& trips GCC 12's -Wrestrict).
std::string part(size_t r) {
  std::string s = "P";
  s += std::to_string(r);
  s += '_';
  return s;
}

uint32_t groups_for(int64_t items, const Caps& caps) {
  const int64_t g = (items + kLocalSize - 1) / kLocalSize;
  return static_cast<uint32_t>(std::clamp<int64_t>(g, 1, std::min<int64_t>(caps.max_groups, 65535)));
}

const char* acc_type(const KReduce& r) { return r.acc == VType::F32 ? "float" : "double"; }
const char* acc_ref(const KReduce& r) { return r.acc == VType::F32 ? "MfF32" : "MfF64"; }
bool is_sum(const KReduce& r) { return r.kind == ReduceKind::Sum || r.kind == ReduceKind::Mean; }
bool is_truth(const KReduce& r) { return r.kind == ReduceKind::Any || r.kind == ReduceKind::All; }
bool is_extreme(const KReduce& r) { return r.kind == ReduceKind::Min || r.kind == ReduceKind::Max; }


/// GLSL helpers of reduction kernels: mf_leaf_lo and, per reduce r, the partial MfP<r> with
/// its combination (terms of b after those of a), load and store (scratch records of
/// kPartBytes: v at 0, nan_v at 8, count at 16, found at 24, nan at 28).
std::string reduce_helpers(const accel::Kernel& k) {
  std::ostringstream os;
  os << "int64_t mf_leaf_lo(int64_t k, int64_t n, int D) {\n"
        "  if ((k >> D) != 0L) return n;\n"
        "  int64_t lo = 0L, len = n;\n"
        "  for (int d = D - 1; d >= 0; --d) {\n"
        "    const int64_t h = len / 2L;\n"
        "    if (((k >> d) & 1L) != 0L) { lo += h; len -= h; } else { len = h; }\n"
        "  }\n"
        "  return lo;\n"
        "}\n";
  for (size_t r = 0; r < k.reduces.size(); ++r) {
    const KReduce& kr = k.reduces[r];
    const std::string A = acc_type(kr), P = "MfP" + R(r), ref = acc_ref(kr);
    os << "struct " << P << " { " << A << " v; " << A << " nv; int64_t c; bool f; bool n; };\n";
    os << P << " mf_comb" << r << "(" << P << " a, " << P << " b) {\n";
    switch (kr.kind) {
      case ReduceKind::Sum:
      case ReduceKind::Mean:
        os << "  precise " << A << " s = a.v + b.v;\n  a.v = s;\n  a.c += b.c;\n";
        break;
      case ReduceKind::Prod: os << "  precise " << A << " s = a.v * b.v;\n  a.v = s;\n"; break;
      case ReduceKind::Min:
      case ReduceKind::Max:
        os << "  if (!a.n && b.n) a.nv = b.nv;\n  a.n = a.n || b.n;\n"
           << "  if (b.f && (!a.f || b.v " << (kr.kind == ReduceKind::Max ? ">" : "<")
           << " a.v)) { a.v = b.v; a.f = true; }\n";
        break;
      case ReduceKind::Any: os << "  a.f = a.f || b.f;\n"; break;
      case ReduceKind::All: os << "  a.f = a.f && b.f;\n"; break;
    }
    os << "  return a;\n}\n";
    os << P << " mf_load" << r << "(uint64_t a) {\n  " << P << " p;\n"
       << "  p.v = " << ref << "(a).v;\n  p.nv = " << ref << "(a + 8UL).v;\n"
       << "  p.c = int64_t(MfU64(a + 16UL).v);\n  p.f = MfU32(a + 24UL).v != 0u;\n"
       << "  p.n = MfU32(a + 28UL).v != 0u;\n  return p;\n}\n";
    os << "void mf_store" << r << "(uint64_t a, " << P << " p) {\n"
       << "  " << ref << "(a).v = p.v;\n  " << ref << "(a + 8UL).v = p.nv;\n"
       << "  MfU64(a + 16UL).v = uint64_t(p.c);\n  MfU32(a + 24UL).v = p.f ? 1u : 0u;\n"
       << "  MfU32(a + 28UL).v = p.n ? 1u : 0u;\n}\n";
  }
  return os.str();
}

/// The reduction renderer (see the file comment).
class ReduceRenderer {
public:
  ReduceRenderer(const accel::Kernel& k, const Caps& caps) : k_(k), caps_(caps), cg_(k, caps) {}

  Shader render() {
    const int64_t pre = k_.pre, n = k_.n, post = k_.post;
    nout_ = pre * post;
    if (k_.reduces.empty()) unsupported("reduction kernel without reductions");
    if (k_.space.numel() == 0) unsupported("empty iteration space");
    if (pre < 1 || n < 1 || post < 1 || pre * n * post != k_.space.numel())
      unsupported("reduction view does not match the space");
    if (k_.out_space.numel() != nout_) unsupported("epilogue space does not match the reduction");
    bool has_prod = false;
    for (const KReduce& kr : k_.reduces) {
      if (kr.value < 0 || kr.value >= static_cast<int>(k_.body.size()))
        unsupported("reduced value out of range");
      if (k_.body[static_cast<size_t>(kr.value)].type != kr.acc)
        unsupported("reduced value of another type than its accumulator");
      if (kr.acc == VType::Bool && !is_truth(kr)) unsupported("arithmetic reduction of logicals");
      if (kr.acc == VType::F64 && !caps_.float64)
        unsupported("double precision is not supported by the device");
      if (kr.kind == ReduceKind::Mean && !(kr.acc == VType::F32 ? caps_.div32 : caps_.div64))
        unsupported("the device's division is not correctly rounded");
      has_prod |= kr.kind == ReduceKind::Prod;
    }
    while ((n >> depth_) > kLeaf) ++depth_;
    const int64_t leaves = int64_t{1} << depth_;
    f0_ = has_prod ? leaves : 1;
    while (f0_ < leaves && nout_ * (leaves / (f0_ * 2)) >= kTarget) f0_ *= 2;
    groups_ = leaves / f0_;

    // Phases first (the preamble and declarations may depend on what they use).
    cg_.phase(k_.body, k_.space, "v");
    std::ostringstream hoisted, point;
    for (size_t v = 0; v < k_.body.size(); ++v)
      (k_.body[v].uniform ? hoisted : point) << cg_.instr(static_cast<int>(v));
    for (size_t o = 0; o < k_.outputs.size(); ++o)
      if (k_.outputs[o].in_body) point << cg_.store(o);
    hoisted_ = hoisted.str();
    point_ = point.str();
    std::vector<std::string> results;
    for (size_t r = 0; r < k_.reduces.size(); ++r) {
      std::string x = part(r);
      x[0] = 'R';  // R<r>_, the finished value (finish())
      results.push_back(x);
    }
    cg_.phase(k_.epilogue, k_.out_space, "e", results);
    std::string epi = "{\nconst int64_t i = o_;\n" + cg_.index_code();
    for (size_t v = 0; v < k_.epilogue.size(); ++v) epi += cg_.instr(static_cast<int>(v));
    for (size_t o = 0; o < k_.outputs.size(); ++o)
      if (!k_.outputs[o].in_body) epi += cg_.store(o);
    epilogue_ = epi + "}\n";
    cg_.phase(k_.body, k_.space, "v");
    head_ = cg_.preamble() + reduce_helpers(k_);

    Shader sh;
    sh.may_fault = cg_.may_fault();
    if (groups_ == 1) {
      sh.arg_slots = cg_.base_slots();
      sh.glsl = leaves_stage(false);
      sh.groups = groups_for(nout_, caps_);
      return sh;
    }
    // Combine dispatches: groups -> groups/C -> ... -> at most C partials per lane.
    std::vector<int64_t> counts{groups_};
    while (counts.back() > kCombine) counts.push_back(counts.back() / kCombine);
    // Two scratch regions (ping-pong), one array of partials per reduce in each.
    size_t total = 0;
    for (int b = 0; b < 2; ++b)
      for (size_t r = 0; r < k_.reduces.size(); ++r) {
        region_[b].push_back(total);
        const int64_t cnt = b == 0 ? counts[0] : counts.size() > 1 ? counts[1] : 0;
        total += static_cast<size_t>(nout_ * cnt * kPartBytes);
      }
    sh.scratch_bytes = std::max<size_t>(total, 16);
    sh.arg_slots = cg_.base_slots() + 1;
    sh.glsl = leaves_stage(true);
    sh.groups = groups_for(nout_ * groups_, caps_);
    for (size_t q = 0; q + 1 < counts.size(); ++q)
      sh.more.push_back({combine_stage(counts[q], counts[q + 1], static_cast<int>(q % 2)),
                         groups_for(nout_ * counts[q + 1], caps_)});
    sh.more.push_back({final_stage(counts.back(), static_cast<int>((counts.size() - 1) % 2)),
                       groups_for(nout_, caps_)});
    return sh;
  }

private:
  const accel::Kernel& k_;
  const Caps& caps_;
  Codegen cg_;
  int64_t nout_ = 1, f0_ = 1, groups_ = 1;
  int depth_ = 0;
  std::string head_, hoisted_, point_, epilogue_;
  std::vector<size_t> region_[2];

  std::string main_start(bool scratch) const {
    return head_ + "void main() {\n" + cg_.args_code(scratch ? 1 : 0) +
           "const int64_t stride_ = int64_t(gl_NumWorkGroups.x) * " + num(kLocalSize) + ";\n";
  }
  static std::string grid_loop(int64_t items) {
    return "for (int64_t g_ = int64_t(gl_GlobalInvocationID.x); g_ < " + num(items) +
           "; g_ += stride_) {\n";
  }
  /// Address of the partial of reduce r at index `idx` in scratch region b.
  std::string part_addr(int b, size_t r, const std::string& idx) const {
    return "extra0 + " + std::to_string(region_[b][r]) + "UL + uint64_t(" + idx + ") * " +
           std::to_string(kPartBytes) + "UL";
  }
  /// R<r>_: the finished value of every reduce from its partial P<r>_.
  std::string finish() const {
    std::ostringstream os;
    for (size_t r = 0; r < k_.reduces.size(); ++r) {
      const KReduce& kr = k_.reduces[r];
      const std::string A = acc_type(kr), P = part(r);
      if (is_truth(kr)) {
        os << "const bool R" << r << "_ = " << P << ".f;\n";
        continue;
      }
      os << "precise " << A << " R" << r << "_ = ";
      if (kr.kind == ReduceKind::Mean)  // the count of non-NaN terms with omitnan, else n
        os << P << ".v / " << A << "(" << (kr.omitnan ? P + ".c" : num(k_.n)) << ");\n";
      else if (is_extreme(kr))  // the first NaN, unless omitnan found a number
        os << "(" << P << ".n && " << (kr.omitnan ? "!" + P + ".f" : std::string("true"))
           << ") ? " << P << ".nv : " << P << ".v;\n";
      else
        os << P << ".v;\n";
    }
    return os.str();
  }

  /// Folds leaves [k0_, k0_ + f0) of lane (ri_, rp_) into P<r>_ (declared here).
  std::string fold_leaves() const {
    const std::string pre = num(k_.pre), n = num(k_.n), D = std::to_string(depth_);
    const int N = accel::ceil_log2(f0_) + 1;
    bool sums = false;
    std::ostringstream os;
    for (size_t r = 0; r < k_.reduces.size(); ++r) {
      const KReduce& kr = k_.reduces[r];
      const std::string A = acc_type(kr), rs = R(r);
      os << "int64_t c" << rs << "_ = 0L;\n";
      if (is_sum(kr)) {
        sums = true;
        os << "precise " << A << " ts" << rs << "_[" << N << "];\n";
      } else if (kr.kind == ReduceKind::Prod) {
        os << "precise " << A << " pr" << rs << "_ = " << A << "(1);\n";
      } else if (is_extreme(kr)) {
        os << A << " mv" << rs << "_ = " << A << "(0), mnv" << rs << "_ = " << A << "(0);\n"
           << "bool mf" << rs << "_ = false, mn" << rs << "_ = false;\n";
      } else {
        os << "bool af" << rs << "_ = " << (kr.kind == ReduceKind::All ? "true" : "false")
           << ";\n";
      }
    }
    os << "int tsp_ = 0;\n"
       << "int64_t jl_ = mf_leaf_lo(k0_, " << n << ", " << D << ");\n"
       << "for (int64_t f_ = 0L; f_ < " << num(f0_) << "; ++f_) {\n"
       << "const int64_t jh_ = mf_leaf_lo(k0_ + f_ + 1L, " << n << ", " << D << ");\n"
       << "const int64_t jm_ = " << (sums ? "jh_ - jl_ > " + num(kLeaf) + " ? jl_ + (jh_ - jl_) / 2L : jh_" : "jh_") << ";\n";
    for (size_t r = 0; r < k_.reduces.size(); ++r)
      if (is_sum(k_.reduces[r]))
        os << "precise " << acc_type(k_.reduces[r]) << " sa" << r << "_ = " << acc_type(k_.reduces[r])
           << "(0), sb" << r << "_ = " << acc_type(k_.reduces[r]) << "(0);\n";
    // The leaf's halves [jl_, jm_) and [jm_, jh_) (the second empty for a leaf of at most 128
    // terms) as one loop over h_, so that the body is emitted once.
    os << "for (int h_ = 0; h_ < 2; ++h_) {\n"
       << "const int64_t ja_ = h_ == 0 ? jl_ : jm_, jb_ = h_ == 0 ? jm_ : jh_;\n";
    for (size_t r = 0; r < k_.reduces.size(); ++r)
      if (is_sum(k_.reduces[r]))
        os << "precise " << acc_type(k_.reduces[r]) << " sc" << r << "_ = " << acc_type(k_.reduces[r])
           << "(0);\n";
    os << "for (int64_t j_ = ja_; j_ < jb_; ++j_) {\n"
       << "const int64_t i = ri_ + " << pre << " * (j_ + " << n << " * rp_);\n"
       << cg_.index_code() << point_;
    for (size_t r = 0; r < k_.reduces.size(); ++r) os << fold_term(r);
    os << "}\n";
    for (size_t r = 0; r < k_.reduces.size(); ++r)
      if (is_sum(k_.reduces[r]))
        os << "if (h_ == 0) sa" << r << "_ = sc" << r << "_; else sb" << r << "_ = sc" << r << "_;\n";
    os << "}\n";
    if (sums) {
      // Push the leaf's sum; combine the top two while the count pushed has trailing zeros.
      for (size_t r = 0; r < k_.reduces.size(); ++r)
        if (is_sum(k_.reduces[r]))
          os << "ts" << r << "_[tsp_] = jh_ - jl_ > " << num(kLeaf) << " ? sa" << r << "_ + sb"
             << r << "_ : sa" << r << "_;\n";
      os << "++tsp_;\nfor (int64_t t_ = f_ + 1L; (t_ & 1L) == 0L; t_ >>= 1) {\n";
      for (size_t r = 0; r < k_.reduces.size(); ++r)
        if (is_sum(k_.reduces[r]))
          os << "ts" << r << "_[tsp_ - 2] = ts" << r << "_[tsp_ - 2] + ts" << r << "_[tsp_ - 1];\n";
      os << "--tsp_;\n}\n";
    }
    os << "jl_ = jh_;\n}\n";
    for (size_t r = 0; r < k_.reduces.size(); ++r) {
      const KReduce& kr = k_.reduces[r];
      const std::string A = acc_type(kr), rs = R(r), P = part(r);
      os << "MfP" << rs << " " << P << ";\n" << P << ".v = " << A << "(0);\n" << P << ".nv = "
         << A << "(0);\n" << P << ".c = c" << rs << "_;\n" << P << ".f = false;\n" << P
         << ".n = false;\n";
      if (is_sum(kr)) os << P << ".v = ts" << rs << "_[0];\n";
      else if (kr.kind == ReduceKind::Prod) os << P << ".v = pr" << rs << "_;\n";
      else if (is_extreme(kr))
        os << P << ".v = mv" << rs << "_;\n" << P << ".nv = mnv" << rs << "_;\n" << P << ".f = mf"
           << rs << "_;\n" << P << ".n = mn" << rs << "_;\n";
      else os << P << ".f = af" << rs << "_;\n";
    }
    return os.str();
  }

  /// Folds the body value of reduce r at the current point (host_provider.cc's fold_leaf).
  std::string fold_term(size_t r) const {
    const KReduce& kr = k_.reduces[r];
    const std::string x = cg_.name(kr.value), rs = R(r), A = acc_type(kr);
    const std::string skip = kr.omitnan ? "if (!isnan(" + x + ")) " : std::string();
    switch (kr.kind) {
      case ReduceKind::Sum:
      case ReduceKind::Mean:
        return skip + "{\nsc" + rs + "_ = sc" + rs + "_ + " + x + ";\n" +
               (kr.omitnan ? "c" + rs + "_ += 1L;\n" : std::string()) + "}\n";
      case ReduceKind::Prod: return skip + "pr" + rs + "_ = pr" + rs + "_ * " + x + ";\n";
      case ReduceKind::Min:
      case ReduceKind::Max:
        return "if (isnan(" + x + ")) {\nif (!mn" + rs + "_) mnv" + rs + "_ = " + x + ";\nmn" +
               rs + "_ = true;\n} else if (!mf" + rs + "_ || " + x +
               (kr.kind == ReduceKind::Max ? " > " : " < ") + "mv" + rs + "_) {\nmv" + rs +
               "_ = " + x + ";\nmf" + rs + "_ = true;\n}\n";
      case ReduceKind::Any:
        if (kr.acc == VType::Bool) return "if (" + x + ") af" + rs + "_ = true;\n";
        return "if (!isnan(" + x + ") && " + x + " != " + A + "(0)) af" + rs + "_ = true;\n";
      case ReduceKind::All:
        if (kr.acc == VType::Bool) return "if (!" + x + ") af" + rs + "_ = false;\n";
        return "if (" + x + " == " + A + "(0)) af" + rs + "_ = false;\n";
    }
    return "";
  }

  /// Dispatch 1: item g_ folds its leaves; finishes the lane (split false) or stores its
  /// partial in scratch region 0 at g_.
  std::string leaves_stage(bool split) const {
    std::ostringstream os;
    const std::string pre = num(k_.pre), G = num(groups_);
    os << main_start(split) << hoisted_ << grid_loop(nout_ * groups_)
       << "const int64_t ri_ = g_ % " << pre << ", q_ = g_ / " << pre << ";\n"
       << "const int64_t rp_ = q_ / " << G << ", k0_ = (q_ % " << G << ") * " << num(f0_)
       << ";\n"
       << fold_leaves();
    if (split) {
      for (size_t r = 0; r < k_.reduces.size(); ++r)
        os << "mf_store" << r << "(" << part_addr(0, r, "g_") << ", P" << r << "_);\n";
    } else {
      os << "const int64_t o_ = g_;\n" << finish() << epilogue_;
    }
    os << "}\n}\n";
    return os.str();
  }

  /// Statements combining `cnt` (a power of two) partials of every reduce, read from region b
  /// at (base_ + m) * pre + ri_ (m = 0..cnt-1), into P<r>_ as a balanced tree.
  std::string combine(int64_t cnt, int b) const {
    std::ostringstream os;
    const int N = accel::ceil_log2(cnt) + 1;
    for (size_t r = 0; r < k_.reduces.size(); ++r) os << "MfP" << r << " st" << r << "_[" << N << "];\n";
    os << "int tsp_ = 0;\nfor (int64_t m_ = 0L; m_ < " << num(cnt) << "; ++m_) {\n";
    for (size_t r = 0; r < k_.reduces.size(); ++r)
      os << "st" << r << "_[tsp_] = mf_load" << r << "("
         << part_addr(b, r, "(base_ + m_) * " + num(k_.pre) + " + ri_") << ");\n";
    os << "++tsp_;\nfor (int64_t t_ = m_ + 1L; (t_ & 1L) == 0L; t_ >>= 1) {\n";
    for (size_t r = 0; r < k_.reduces.size(); ++r)
      os << "st" << r << "_[tsp_ - 2] = mf_comb" << r << "(st" << r << "_[tsp_ - 2], st" << r
         << "_[tsp_ - 1]);\n";
    os << "--tsp_;\n}\n}\n";
    for (size_t r = 0; r < k_.reduces.size(); ++r)
      os << "const MfP" << r << " P" << r << "_ = st" << r << "_[0];\n";
    return os.str();
  }

  /// A combine dispatch: `in` partials per lane in region b -> `out` in the other region.
  std::string combine_stage(int64_t in, int64_t out, int b) const {
    std::ostringstream os;
    const std::string pre = num(k_.pre);
    os << main_start(true) << grid_loop(nout_ * out) << "const int64_t ri_ = g_ % " << pre
       << ", q_ = g_ / " << pre << ";\n"
       << "const int64_t base_ = (q_ / " << num(out) << ") * " << num(in) << " + (q_ % "
       << num(out) << ") * " << num(kCombine) << ";\n"
       << combine(kCombine, b);
    for (size_t r = 0; r < k_.reduces.size(); ++r)
      os << "mf_store" << r << "(" << part_addr(1 - b, r, "g_") << ", P" << r << "_);\n";
    os << "}\n}\n";
    return os.str();
  }

  /// The last dispatch: one invocation per output combines the lane's `last` partials of
  /// region b, finishes and runs the epilogue.
  std::string final_stage(int64_t last, int b) const {
    std::ostringstream os;
    const std::string pre = num(k_.pre);
    os << main_start(true) << grid_loop(nout_) << "const int64_t o_ = g_, ri_ = o_ % " << pre
       << ", base_ = (o_ / " << pre << ") * " << num(last) << ";\n"
       << combine(last, b) << finish() << epilogue_ << "}\n}\n";
    return os.str();
  }
};

// ---- matrix products --------------------------------------------------------------------------

constexpr int kTile = 64;  ///< GEMM tile of C (kTile x kTile per workgroup)
constexpr int kPanel = 8;  ///< inner-dimension panel staged in shared memory

class MatMulRenderer {
public:
  MatMulRenderer(const accel::Kernel& k, const Caps& caps) : k_(k), caps_(caps), cg_(k, caps) {}

  Shader render() {
    const accel::KMatMul& mm = *k_.matmul;
    if (mm.type == VType::Bool) unsupported("product of logicals");
    if (mm.type == VType::F64 && !caps_.float64)
      unsupported("double precision is not supported by the device");
    if (mm.m < 1 || mm.n < 1 || mm.k < 0) unsupported("empty product");
    if (k_.out_space.numel() == 0) unsupported("empty iteration space");
    for (int in : {mm.a, mm.b}) {
      if (in < 0 || in >= static_cast<int>(k_.inputs.size())) unsupported("bad product operand");
      if (accel::vtype_of(k_.inputs[static_cast<size_t>(in)].cls) != mm.type)
        unsupported("product operand of another class than the product");
    }
    if (mm.syrk && (mm.m != mm.n || mm.trans_a == mm.trans_b || mm.a != mm.b))
      unsupported("syrk of a non-symmetric product");
    const int64_t expect = mm.diag ? std::min(mm.m, mm.n) : mm.m * mm.n;
    if (k_.out_space.numel() != expect) unsupported("epilogue space does not match the product");
    T_ = mm.type == VType::F32 ? "float" : "double";
    ref_ = mm.type == VType::F32 ? "MfF32" : "MfF64";
    bytes_ = mm.type == VType::F32 ? 4 : 8;

    // The epilogue: MatMulResult reads C (scratch) at the point.
    const std::string c_at =
        mm.diag ? "i * " + num(mm.m + 1)
        : mm.syrk ? "mf_cidx(i)"
                  : std::string("i");
    for (const accel::Instr& in : k_.epilogue)
      if (in.kind == IKind::MatMulResult && in.type != mm.type)
        unsupported("product result of another type");
    cg_.phase(k_.epilogue, k_.out_space, "e",
              {std::string(ref_) + "(extra0 + uint64_t(" + c_at + ") * " +
               std::to_string(bytes_) + "UL).v"});
    std::string epi;
    for (size_t v = 0; v < k_.epilogue.size(); ++v) epi += cg_.instr(static_cast<int>(v));
    for (size_t o = 0; o < k_.outputs.size(); ++o) {
      if (k_.outputs[o].in_body) unsupported("body output of a product kernel");
      epi += cg_.store(o);
    }
    const std::string head = cg_.preamble();
    const int64_t npts = k_.out_space.numel();

    Shader sh;
    sh.may_fault = cg_.may_fault();
    sh.arg_slots = cg_.base_slots() + 1;
    sh.scratch_bytes = static_cast<size_t>(mm.m * mm.n * bytes_);
    if (mm.alpha_slot >= static_cast<int>(k_.param_u64.size())) unsupported("bad parameter slot");
    std::string alpha = "p";
    if (mm.alpha_slot >= 0) alpha += std::to_string(mm.alpha_slot);
    else alpha = literal_of(mm.alpha_imm);
    const std::string W = caps_.float64 ? "double" : "float";
    if (mm.alpha_div) alpha = W + "(1) / " + W + "(" + alpha + ")";
    const std::string prologue = head + "void main() {\n" + cg_.args_code(1) + "const " + T_ +
                                 " alpha_ = " + T_ + "(" + W + "(" + alpha + "));\n";
    const bool vector = mm.m == 1 || mm.n == 1;
    // A workgroup per element pays a tree of barriers per element: only for a few elements of
    // a long inner dimension (dot products, the Gram matrix of a few long columns).
    const bool small = mm.m * mm.n <= 256 && mm.k >= 1024;
    if (small) {
      sh.glsl = split_k(prologue);
      sh.groups = static_cast<uint32_t>(std::clamp<int64_t>(mm.m * mm.n, 1, std::min<int64_t>(caps_.max_groups, 65535)));
    } else if (vector) {
      sh.glsl = per_element(prologue);
      sh.groups = groups_for(mm.m * mm.n, caps_);
    } else {
      sh.glsl = tiled(prologue);
      const int64_t tiles = ((mm.m + kTile - 1) / kTile) * ((mm.n + kTile - 1) / kTile);
      sh.groups = static_cast<uint32_t>(std::clamp<int64_t>(tiles, 1, std::min<int64_t>(caps_.max_groups, 65535)));
    }
    std::ostringstream e;
    e << head;
    if (mm.syrk)  // C(i,j) above the diagonal at (j,i)
      e << "int64_t mf_cidx(int64_t i) {\n  const int64_t r = i % " << num(mm.m) << ", c = i / "
        << num(mm.m) << ";\n  return r < c ? c + r * " << num(mm.m) << " : i;\n}\n";
    e << "void main() {\n" << cg_.args_code(1)
      << "const int64_t stride_ = int64_t(gl_NumWorkGroups.x) * " << num(kLocalSize) << ";\n"
      << "for (int64_t i = int64_t(gl_GlobalInvocationID.x); i < " << num(npts)
      << "; i += stride_) {\n";
    cg_.phase(k_.epilogue, k_.out_space, "e");  // index_code of the epilogue's space
    e << cg_.index_code() << epi << "}\n}\n";
    sh.more.push_back({e.str(), groups_for(npts, caps_)});
    return sh;
  }

private:
  const accel::Kernel& k_;
  const Caps& caps_;
  Codegen cg_;
  const char* T_ = "double";
  const char* ref_ = "MfF64";
  int bytes_ = 8;

  std::string literal_of(double v) const {
    // alpha only scales the product (no bitwise contract): decimal with 17 digits is exact.
    char b[64];
    std::snprintf(b, sizeof b, "%.17g", v);
    std::string s = b;
    if (s.find_first_of(".en") == std::string::npos) s += ".0";
    if (s == "inf" || s == "-inf" || s == "nan") unsupported("non-finite product scale");
    return s + (caps_.float64 ? "LF" : "");
  }

  /// op(A)(r, p) and op(B)(p, c) as GLSL element expressions (int64 indices, in range).
  std::string a_at(const std::string& r, const std::string& p) const {
    const accel::KMatMul& mm = *k_.matmul;
    const std::string off = mm.trans_a ? "(" + p + ") + (" + r + ") * " + num(mm.lda)
                                       : "(" + r + ") + (" + p + ") * " + num(mm.lda);
    return std::string(ref_) + "(in" + std::to_string(mm.a) + " + uint64_t(" + off + ") * " +
           std::to_string(bytes_) + "UL).v";
  }
  std::string b_at(const std::string& p, const std::string& c) const {
    const accel::KMatMul& mm = *k_.matmul;
    const std::string off = mm.trans_b ? "(" + c + ") + (" + p + ") * " + num(mm.ldb)
                                       : "(" + p + ") + (" + c + ") * " + num(mm.ldb);
    return std::string(ref_) + "(in" + std::to_string(mm.b) + " + uint64_t(" + off + ") * " +
           std::to_string(bytes_) + "UL).v";
  }
  std::string c_store(const std::string& idx, const std::string& v) const {
    return std::string(ref_) + "(extra0 + uint64_t(" + idx + ") * " + std::to_string(bytes_) +
           "UL).v = alpha_ * " + v + ";\n";
  }

  /// One invocation per element of C (matrix-vector products).
  std::string per_element(const std::string& prologue) const {
    const accel::KMatMul& mm = *k_.matmul;
    std::ostringstream os;
    os << prologue << "const int64_t stride_ = int64_t(gl_NumWorkGroups.x) * " << num(kLocalSize)
       << ";\nfor (int64_t e_ = int64_t(gl_GlobalInvocationID.x); e_ < " << num(mm.m * mm.n)
       << "; e_ += stride_) {\nconst int64_t r_ = e_ % " << num(mm.m) << ", c_ = e_ / "
       << num(mm.m) << ";\n" << T_ << " s_ = " << T_ << "(0);\n"
       << "for (int64_t p_ = 0L; p_ < " << num(mm.k) << "; ++p_) s_ = fma(" << a_at("r_", "p_")
       << ", " << b_at("p_", "c_") << ", s_);\n"
       << c_store("e_", "s_") << "}\n}\n";
    return os.str();
  }

  /// One workgroup per element of C: invocation t sums p = t, t + 256, ..., then a tree in
  /// shared memory (dot products, small outputs of a long inner dimension).
  std::string split_k(const std::string& prologue) const {
    const accel::KMatMul& mm = *k_.matmul;
    std::ostringstream os;
    const std::string pro = prologue;
    // shared memory is declared outside main(): splice it before "void main()".
    const size_t at = pro.find("void main() {\n");
    os << pro.substr(0, at) << "shared " << T_ << " red_[" << kLocalSize << "];\n"
       << pro.substr(at)
       << "const uint t_ = gl_LocalInvocationID.x;\n"
       << "for (int64_t e_ = int64_t(gl_WorkGroupID.x); e_ < " << num(mm.m * mm.n)
       << "; e_ += int64_t(gl_NumWorkGroups.x)) {\nconst int64_t r_ = e_ % " << num(mm.m)
       << ", c_ = e_ / " << num(mm.m) << ";\n" << T_ << " s_ = " << T_ << "(0);\n"
       << "for (int64_t p_ = int64_t(t_); p_ < " << num(mm.k) << "; p_ += " << num(kLocalSize)
       << ") s_ = fma(" << a_at("r_", "p_") << ", " << b_at("p_", "c_") << ", s_);\n"
       << "red_[t_] = s_;\nbarrier();\n"
       << "for (uint h_ = " << kLocalSize / 2 << "u; h_ > 0u; h_ >>= 1) {\n"
       << "if (t_ < h_) red_[t_] = red_[t_] + red_[t_ + h_];\nbarrier();\n}\n"
       << "if (t_ == 0u) " << c_store("e_", "red_[0]") << "barrier();\n}\n}\n";
    return os.str();
  }

  /// 64 x 64 tiles of C per workgroup (see the file comment).
  std::string tiled(const std::string& prologue) const {
    const accel::KMatMul& mm = *k_.matmul;
    const int64_t tm = (mm.m + kTile - 1) / kTile, tn = (mm.n + kTile - 1) / kTile;
    const std::string M = num(mm.m), N = num(mm.n), K = num(mm.k);
    std::ostringstream os;
    const size_t at = prologue.find("void main() {\n");
    os << prologue.substr(0, at) << "shared " << T_ << " as_[" << kPanel << "][" << kTile
       << "];\nshared " << T_ << " bs_[" << kPanel << "][" << kTile << "];\n"
       << prologue.substr(at)
       << "const uint lid_ = gl_LocalInvocationID.x, tr_ = lid_ % 16u, tc_ = lid_ / 16u;\n"
       << "for (int64_t t_ = int64_t(gl_WorkGroupID.x); t_ < " << num(tm * tn)
       << "; t_ += int64_t(gl_NumWorkGroups.x)) {\n"
       << "const int64_t r0_ = (t_ % " << num(tm) << ") * " << kTile << "L, c0_ = (t_ / "
       << num(tm) << ") * " << kTile << "L;\n";
    if (mm.syrk) os << "if (c0_ > r0_) continue;\n";  // strictly above the diagonal
    os << T_ << " acc_[4][4];\n"
       << "for (int a = 0; a < 4; ++a) for (int b = 0; b < 4; ++b) acc_[a][b] = " << T_ << "(0);\n"
       << "for (int64_t p0_ = 0L; p0_ < " << K << "; p0_ += " << kPanel << "L) {\n"
       << "for (uint h = 0u; h < 2u; ++h) {\n"
       << "const uint e = lid_ + 256u * h;\n";
    // op(A) panel: rows r0_.. x inner p0_..; consecutive e along the contiguous index.
    if (mm.trans_a)
      os << "{ const uint p = e % " << kPanel << "u, r = e / " << kPanel << "u;\n";
    else
      os << "{ const uint r = e % " << kTile << "u, p = e / " << kTile << "u;\n";
    os << "const int64_t gr = r0_ + int64_t(r), gp = p0_ + int64_t(p);\n"
       << T_ << " va = " << T_ << "(0);\n"  // no load outside the operand (an if, not a select)
       << "if (gr < " << M << " && gp < " << K << ") va = " << a_at("gr", "gp") << ";\n"
       << "as_[p][r] = va; }\n";
    if (mm.trans_b)
      os << "{ const uint c = e % " << kTile << "u, p = e / " << kTile << "u;\n";
    else
      os << "{ const uint p = e % " << kPanel << "u, c = e / " << kPanel << "u;\n";
    os << "const int64_t gc = c0_ + int64_t(c), gp = p0_ + int64_t(p);\n"
       << T_ << " vb = " << T_ << "(0);\n"
       << "if (gc < " << N << " && gp < " << K << ") vb = " << b_at("gp", "gc") << ";\n"
       << "bs_[p][c] = vb; }\n"
       << "}\nbarrier();\n"
       << "for (uint p = 0u; p < " << kPanel << "u; ++p) {\n"
       << T_ << " av[4], bv[4];\n"
       << "for (uint a = 0u; a < 4u; ++a) av[a] = as_[p][tr_ + 16u * a];\n"
       << "for (uint b = 0u; b < 4u; ++b) bv[b] = bs_[p][tc_ + 16u * b];\n"
       << "for (int a = 0; a < 4; ++a) for (int b = 0; b < 4; ++b) acc_[a][b] = fma(av[a], bv[b], acc_[a][b]);\n"
       << "}\nbarrier();\n}\n"
       << "for (uint a = 0u; a < 4u; ++a) for (uint b = 0u; b < 4u; ++b) {\n"
       << "const int64_t gr = r0_ + int64_t(tr_ + 16u * a), gc = c0_ + int64_t(tc_ + 16u * b);\n"
       << "if (gr < " << M << " && gc < " << N << ") " << c_store("gr + gc * " + M, "acc_[a][b]")
       << "}\n}\n}\n";
    return os.str();
  }
};

}  // namespace

Shader render_reduction(const accel::Kernel& k, const Caps& caps) {
  return ReduceRenderer(k, caps).render();
}

Shader render_matmul(const accel::Kernel& k, const Caps& caps) {
  return MatMulRenderer(k, caps).render();
}

}  // namespace matfuse::vk::detail
