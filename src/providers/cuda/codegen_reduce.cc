// Reduction kernels (fusion_kind reduction) over the (pre, n, post) view of kernel_ir.h, bit for
// bit the host provider's results (host_provider.cc is the specification).
//
// Every lane (i, p) folds its n terms over the host's pairwise tree: the row is cut into
// L = 2^D leaves (prelude mf_leaf_lo), each leaf (<= 128 terms, or 64 + 65 for a leaf of 129) is
// summed left to right from +0, and the leaf sums are added as a balanced binary tree (prelude
// mf_tree). min/max/any/all fold in order (combines are order preserving); prod runs left to
// right over the whole row, so a kernel with a prod gives each lane to one thread.
// - Small pre (< 8, where one thread per lane would read short strided runs): the leaves (or the
//   mf_reduce) launch stages the body values of a slice of every leaf through shared memory:
//   consecutive threads evaluate consecutive addresses, then each thread folds its own leaf's
//   values in order (staged_kernel). Larger pre: adjacent threads take adjacent lanes.
// - Launch `mf_reduce_leaves` (when a lane is split over several threads): work item g covers
//   lane (i, p) and an aligned group of F0 consecutive leaves (F0 a power of two), and writes its
//   partial to scratch[g] (g = (p*G + group)*pre + i, G = L/F0 groups per lane: adjacent threads
//   take adjacent i, so strided rows coalesce). When every reduce is a sum, pre is a power of
//   two up to 32 and a block's kBlock items are whole aligned runs of F = kBlock/pre groups of
//   each of its lanes, the block combines each lane's F partials as a balanced tree before
//   writing one (block_fold): the same tree as a combine pass over them, F times fewer
//   partials and fewer passes. Then, with 17 to kBlock*16 partials per lane, the final launch
//   gives each output a block that combines them all (runs of <= 16 per thread, then
//   block_fold), with no combine launch.
// - Launches `mf_reduce_combine<q>`: aligned groups of 16 partials combined as a balanced tree
//   (prelude mf_load_tree: the 16 loads in flight at once, the tree in registers).
// - Launch `mf_reduce_final` (or `mf_reduce` when one thread takes a whole lane): one thread per
//   output combines the last <= 16 partials, finishes the values and runs the epilogue.
// - Few contiguous lanes (pre 1) of at most kBlock groups, sums only: one launch
//   `mf_reduce_block`, a block per output folding its leaves and combining them (block_fold).
// Outputs marked in_body are stored while the body is evaluated (each point exactly once).
// No floating-point atomics: repeated runs give identical bits.
#include <algorithm>
#include <sstream>

#include "providers/cuda/codegen_internal.h"

namespace matfuse::cuda::detail {

using accel::KReduce;
using accel::ReduceKind;
using accel::VType;

namespace {

constexpr int64_t kLeaf = 128;      ///< host pairwise block (runtime/reduce.h)
constexpr int64_t kCombine = 16;    ///< partials per thread in a combine pass

const char* acc_type(const KReduce& r) { return r.acc == VType::F32 ? "float" : "double"; }
size_t part_bytes(const KReduce& r) { return r.acc == VType::F32 ? 24 : 32; }
bool is_truth(const KReduce& r) { return r.kind == ReduceKind::Any || r.kind == ReduceKind::All; }
bool is_sum(const KReduce& r) { return r.kind == ReduceKind::Sum || r.kind == ReduceKind::Mean; }

std::string targs(const KReduce& r) {
  return std::to_string(static_cast<int>(r.kind)) + ", " + (r.omitnan ? "true" : "false");
}
std::string part_t(const KReduce& r) { return std::string("mf_part<") + acc_type(r) + ">"; }


/// `mf_part<A> P<r>_ = init` for every reduce.
std::string init_parts(const accel::Kernel& k) {
  std::string s;
  for (size_t r = 0; r < k.reduces.size(); ++r) {
    const KReduce& kr = k.reduces[r];
    s += part_t(kr) + " P" + std::to_string(r) + "_ = mf_init<" +
         std::to_string(static_cast<int>(kr.kind)) + ", " + acc_type(kr) + ">();\n";
  }
  return s;
}

/// Stores of the outputs of one phase (in_body true: body outputs, else epilogue outputs).
std::string stores(const accel::Kernel& k, const Phase& ph, bool in_body) {
  std::string s;
  for (size_t o = 0; o < k.outputs.size(); ++o) {
    const auto& ko = k.outputs[o];
    if (ko.in_body != in_body) continue;
    s += "out" + std::to_string(o) + "[" + ph.offset(ko.access) + "] = " +
         ph.store_expr(ko.value, ko.cls) + ";\n";
  }
  return s;
}

/// Epilogue at output index o_ (parts P<r>_ complete): reduce results, values, stores.
std::string epilogue_at(const accel::Kernel& k, const Phase& epi) {
  return "{\nconst long long i = o_;\n" + epi.point_code() + stores(k, epi, false) + "}\n";
}

/// Counting of the terms of sum/mean reduce r: only omitnan needs the count (mf_finish divides a
/// mean by n otherwise), so the other sums skip a 64-bit add per term.
std::string count_term(const KReduce& kr, const std::string& R) {
  return kr.omitnan ? "P" + R + "_.count += 1;\n" : std::string();
}

/// Statements folding leaves [k0_, k0_ + f0) of lane (ri_, rp_) into P<r>_ (variables ri_, rp_,
/// k0_ declared by the caller). Sums go through the leaf sums and the pairwise tree.
/// With `loaded` (split reductions), the value of reduce r at point i is the expression
/// loaded[r] instead of the body's code (which the map kernel ran, stores included).
std::string fold_leaves(const accel::Kernel& k, const Phase& body, int64_t f0, int depth,
                        const std::vector<std::string>* loaded = nullptr) {
  const int64_t pre = k.pre, n = k.n;
  const std::string N = std::to_string(accel::ceil_log2(f0) + 1);
  std::ostringstream os;
  bool sums = false;
  for (size_t r = 0; r < k.reduces.size(); ++r) {
    if (!is_sum(k.reduces[r])) continue;
    sums = true;
    os << "mf_tree<" << acc_type(k.reduces[r]) << ", " << N << "> T" << r << "_;\nT" << r
       << "_.sp = 0;\nT" << r << "_.m = 0;\n";
  }
  os << "long long jl_ = mf_leaf_lo(k0_, " << n << "LL, " << depth << ");\n"
     << "for (long long f_ = 0; f_ < " << f0 << "LL; ++f_) {\n"
     << "const long long jh_ = mf_leaf_lo(k0_ + f_ + 1, " << n << "LL, " << depth << ");\n";
  if (sums) {
    os << "const long long jm_ = jh_ - jl_ > " << kLeaf << "LL ? jl_ + (jh_ - jl_) / 2 : jh_;\n";
    for (size_t r = 0; r < k.reduces.size(); ++r)
      if (is_sum(k.reduces[r]))
        os << acc_type(k.reduces[r]) << " sa" << r << "_ = 0, sb" << r << "_ = 0;\n";
  }
  // The leaf's two halves [jl_, jm_) and [jm_, jh_) (the second empty for a leaf of at most
  // kLeaf terms) run as one loop over h_, not unrolled, so each sum adds its term to one
  // accumulator sc<r>_ without a per-term select; the body is emitted once.
  // The inner loop is unrolled so that the loads of several terms are in flight at once (the
  // folds stay in order); one term at a time leaves each thread waiting on memory latency. A
  // body without loads only needs some overlap of its arithmetic: 8 copies of a heavy body
  // cost instruction-cache misses (W1's chain on an H200: 1.10 ms unrolled 8, 1.03 ms unrolled 4).
  os << "#pragma unroll 1\nfor (int h_ = 0; h_ < 2; ++h_) {\n"
     << "const long long ja_ = h_ ? " << (sums ? "jm_" : "jh_")
     << " : jl_, jb_ = h_ ? jh_ : " << (sums ? "jm_" : "jh_") << ";\n";
  for (size_t r = 0; r < k.reduces.size(); ++r)
    if (is_sum(k.reduces[r])) os << acc_type(k.reduces[r]) << " sc" << r << "_ = 0;\n";
  os << "#pragma unroll " << (loaded || body.has_kind(accel::IKind::Load) ? 8 : 4)
     << "\nfor (long long j_ = ja_; j_ < jb_; ++j_) {\n"
     << "const long long i = ri_ + " << pre << "LL * (j_ + " << n << "LL * rp_);\n";
  if (!loaded) os << body.point_code() << stores(k, body, true);
  for (size_t r = 0; r < k.reduces.size(); ++r) {
    const KReduce& kr = k.reduces[r];
    const std::string x = loaded ? "(" + (*loaded)[r] + ")" : body.name(kr.value),
                      R = std::to_string(r), A = acc_type(kr);
    if (is_sum(kr)) {
      os << (kr.omitnan ? "if (!mf_isnan(" + x + ")) " : std::string()) << "{\nsc" << R << "_ = sc"
         << R << "_ + (" << A << ")" << x << ";\n"
         << count_term(kr, R) << "}\n";
    } else {
      os << "mf_fold<" << targs(kr) << ">(P" << R << "_, " << x << ");\n";
    }
  }
  os << "}\n";
  for (size_t r = 0; r < k.reduces.size(); ++r)
    if (is_sum(k.reduces[r]))
      os << "if (h_) sb" << r << "_ = sc" << r << "_;\nelse sa" << r << "_ = sc" << r << "_;\n";
  os << "}\n";
  for (size_t r = 0; r < k.reduces.size(); ++r)
    if (is_sum(k.reduces[r]))
      os << "T" << r << "_.push(jh_ - jl_ > " << kLeaf << "LL ? sa" << r << "_ + sb" << r
         << "_ : sa" << r << "_);\n";
  os << "jl_ = jh_;\n}\n";
  for (size_t r = 0; r < k.reduces.size(); ++r)
    if (is_sum(k.reduces[r])) os << "P" << r << "_.v = T" << r << "_.s[0];\n";
  return os.str();
}

/// Statements combining `cnt` (a power of two) partials of every reduce, read from scratch
/// region `src[r]` at (base_ + m) * pre + ri_ (m = 0..cnt-1), into P<r>_ as a balanced tree.
/// With `assign`, assigns the P<r>_ the caller declared instead.
std::string combine_parts(const accel::Kernel& k, const std::vector<size_t>& src, int64_t cnt,
                          bool assign = false) {
  std::ostringstream os;
  for (size_t r = 0; r < k.reduces.size(); ++r) {
    const KReduce& kr = k.reduces[r];
    os << (assign ? "" : "const " + part_t(kr) + " ") << "P" << r << "_ = mf_load_tree<"
       << static_cast<int>(kr.kind)
       << ", " << acc_type(kr) << ", " << cnt << ">((const " << part_t(kr) << "*)(scratch + "
       << src[r] << "), base_, " << k.pre << "LL, ri_);\n";
  }
  return os.str();
}

/// Statements folding the term `x` (offset jo_ in its leaf; leaf split at jm_) of reduce r into
/// the leaf sums sa<r>_/sb<r>_ (sums) or P<r>_ (other kinds), as fold_leaves does.
/// half: 'a' or 'b' folds a sum into that leaf half unconditionally (the caller knows the side).
std::string fold_term(const KReduce& kr, size_t r, const std::string& x, char half = 0) {
  const std::string R = std::to_string(r), A = acc_type(kr);
  if (!is_sum(kr)) return "mf_fold<" + targs(kr) + ">(P" + R + "_, " + x + ");\n";
  const std::string nan = kr.omitnan ? "if (!mf_isnan(" + x + ")) " : std::string();
  auto add = [&](char h) {
    return std::string("s") + h + R + "_ = s" + h + R + "_ + (" + A + ")" + x + ";\n";
  };
  if (half) return nan + "{\n" + add(half) + count_term(kr, R) + "}\n";
  return nan + "{\nif (jo_ < jm_) " + add('a') + "else " + add('b') + count_term(kr, R) + "}\n";
}

int vbytes(VType t) { return t == VType::F64 ? 8 : t == VType::F32 ? 4 : 1; }

/// Whether the leaves launch folds its block's partials (see block_fold): sums only, pre a
/// power of two up to 32, and whole aligned runs of kBlock / pre groups per block.
bool can_block_fold(const accel::Kernel& k, int64_t groups) {
  for (const KReduce& kr : k.reduces)
    if (!is_sum(kr)) return false;
  const int64_t pre = k.pre;
  return pre <= 32 && (pre & (pre - 1)) == 0 && groups % (kBlock / pre) == 0;
}

/// Statements run by every thread of a block after its item's partials P<r>_ are complete
/// (item t = threadIdx.x of the block's kBlock items: lane t % lanes, run t / lanes, the runs
/// aligned): the F = kBlock/lanes runs of each lane are combined as a balanced binary tree
/// (pairs (m, m + s) for m a multiple of 2s, as mf_load_tree does, so the same bits as combine
/// passes over aligned runs of F partials), first within each warp by shuffles, then over the
/// 8 warps in shared memory. Then thread threadIdx.x < lanes holds its lane's P<r>_ and runs
/// `tail`. Every thread of the block must run these statements.
std::string block_fold(const accel::Kernel& k, int64_t lanes, const std::string& tail) {
  const int64_t warps = kBlock / 32;
  const std::string P = std::to_string(lanes), W = std::to_string(warps);
  std::ostringstream os;
  os << "{\nconst int bl_ = threadIdx.x & 31, bw_ = threadIdx.x >> 5;\n";
  for (size_t r = 0; r < k.reduces.size(); ++r) {
    const std::string R = std::to_string(r), A = acc_type(k.reduces[r]);
    os << "__shared__ " << A << " bv" << R << "_[" << W << "][" << P << "];\n"
       << "__shared__ long long bc" << R << "_[" << W << "][" << P << "];\n";
    for (int64_t sh = lanes; sh < 32; sh *= 2)
      os << "{\nconst " << A << " v_ = __shfl_down_sync(0xffffffffu, P" << R << "_.v, " << sh
         << ");\nconst long long c_ = __shfl_down_sync(0xffffffffu, P" << R << "_.count, " << sh
         << ");\nif ((bl_ & " << 2 * sh - 1 << ") < " << P << ") {\nP" << R << "_.v = P" << R
         << "_.v + v_;\nP" << R << "_.count += c_;\n}\n}\n";
    os << "if (bl_ < " << P << ") {\nbv" << R << "_[bw_][bl_] = P" << R << "_.v;\nbc" << R
       << "_[bw_][bl_] = P" << R << "_.count;\n}\n";
  }
  os << "__syncthreads();\nif (threadIdx.x < " << P << ") {\n";
  for (size_t r = 0; r < k.reduces.size(); ++r) {
    const std::string R = std::to_string(r), A = acc_type(k.reduces[r]);
    os << "{\n" << A << " v_[" << W << "];\nlong long c_[" << W << "];\n#pragma unroll\n"
       << "for (int w = 0; w < " << W << "; ++w) {\nv_[w] = bv" << R << "_[w][threadIdx.x];\n"
       << "c_[w] = bc" << R << "_[w][threadIdx.x];\n}\n#pragma unroll\n"
       << "for (int s = 1; s < " << W << "; s *= 2)\n#pragma unroll\n"
       << "for (int w = 0; w < " << W << "; w += 2 * s) {\nv_[w] = v_[w] + v_[w + s];\n"
       << "c_[w] += c_[w + s];\n}\nP" << R << "_.v = v_[0];\nP" << R << "_.count = c_[0];\n}\n";
  }
  os << tail << "}\n__syncthreads();\n}\n";
  return os.str();
}

/// block_fold's tail for a leaves block whose first item is `gb`: lane threadIdx.x's partial
/// to scratch region reg0 at (gb / kBlock) * pre + threadIdx.x.
std::string fold_store(const accel::Kernel& k, const std::vector<size_t>& reg0,
                       const std::string& gb) {
  std::string s;
  for (size_t r = 0; r < k.reduces.size(); ++r)
    s += "((" + part_t(k.reduces[r]) + "*)(scratch + " + std::to_string(reg0[r]) + "))[(" + gb +
         ") / " + std::to_string(kBlock) + "LL * " + std::to_string(k.pre) +
         "LL + threadIdx.x] = P" + std::to_string(r) + "_;\n";
  return s;
}

/// Staged leaf folds for small pre (coalesced loads and in_body stores). A block owns
/// bi = pre * floor(kBlock / pre) consecutive work items (item g: lane (g % pre, q / groups),
/// leaves [k0, k0 + f0) with q = g / pre, k0 = (q % groups) * f0, as in fold_leaves); the pre
/// lanes of one leaf are interleaved in memory, and consecutive leaves are adjacent. Each leaf is
/// walked in slices of S offsets: the block evaluates the body for the bi*S points of the slice
/// with consecutive threads on consecutive addresses, stores the in_body outputs, and stages the
/// folded values in shared memory [item][offset] (rows padded to S+1); then thread t folds item
/// t's S values in order. Per-leaf order is left to right as in fold_leaves (and the whole lane
/// when f0 = leaves, as prod needs), so the bits are the same.
/// `direct`: one item per lane (groups == 1), the epilogue runs here; else partials go to
/// scratch region reg0 at index g.
std::string staged_kernel(const accel::Kernel& k, const Phase& body, const Phase& epi,
                          const std::string& entry, const std::string& params, int64_t f0,
                          int depth, int64_t groups, bool direct, const std::vector<size_t>& reg0,
                          bool fold = false) {
  const int64_t pre = k.pre, n = k.n, items = pre * k.post * groups;
  const int64_t leaves = int64_t{1} << depth;
  // Items per block: a multiple of pre (the pre lanes of a leaf are interleaved in memory).
  const int64_t bi = kBlock / pre * pre;
  const int64_t maxlen = (n + leaves - 1) / leaves;
  // Distinct staged values (reduces folding the same body value share a row).
  std::vector<std::string> names;
  std::vector<VType> types;
  std::vector<int> slot(k.reduces.size());
  for (size_t r = 0; r < k.reduces.size(); ++r) {
    const std::string nm = body.name(k.reduces[r].value);
    const auto it = std::find(names.begin(), names.end(), nm);
    slot[r] = static_cast<int>(it - names.begin());
    if (it == names.end()) {
      names.push_back(nm);
      types.push_back(k.body[k.reduces[r].value].type);
    }
  }
  int64_t row = 0;
  for (VType t : types) row += vbytes(t);
  int64_t S = 32;
  while (S > 1 && (S / 2 >= maxlen || kBlock * (S + 1) * row > 40 * 1024)) S /= 2;
  const std::string B = std::to_string(kBlock), SS = std::to_string(S), N = std::to_string(n),
                    BI = std::to_string(bi), PS = std::to_string(pre * S), P = std::to_string(pre);
  bool sums = false;
  for (const KReduce& kr : k.reduces) sums |= is_sum(kr);
  std::ostringstream os;
  os << "\nextern \"C\" __global__ void " << entry << "(" << params << ") {\n"
     << access_bases(k) << body.hoisted_code() << (direct ? epi.hoisted_code() : std::string());
  for (size_t m = 0; m < names.size(); ++m)
    os << "__shared__ " << ctype(types[m]) << " sh" << m << "_[" << B << "][" << S + 1 << "];\n";
  os << "__shared__ long long slo_[" << B << "];\n__shared__ int sln_[" << B << "];\n"
     << "const int t_ = threadIdx.x;\n"
     << "for (long long gb_ = (long long)blockIdx.x * " << BI << "LL; gb_ < " << items
     << "LL; gb_ += (long long)gridDim.x * " << BI << "LL) {\n"
     << "const long long g_ = t_ < " << BI << " ? gb_ + t_ : " << items << "LL, ri_ = g_ % " << P
     << "LL, q_ = g_ / " << P << "LL;\n"
     << "const long long rp_ = q_ / " << groups << "LL, k0_ = (q_ % " << groups << "LL) * " << f0
     << "LL;\n"
     << init_parts(k);
  const std::string TN = std::to_string(accel::ceil_log2(f0) + 1);
  for (size_t r = 0; r < k.reduces.size(); ++r)
    if (is_sum(k.reduces[r]))
      os << "mf_tree<" << acc_type(k.reduces[r]) << ", " << TN << "> T" << r << "_;\nT" << r
         << "_.sp = 0;\nT" << r << "_.m = 0;\n";
  os << "for (long long f_ = 0; f_ < " << f0 << "LL; ++f_) {\n__syncthreads();\n"
     << "if (g_ < " << items << "LL) {\nconst long long jl_ = mf_leaf_lo(k0_ + f_, " << N << "LL, "
     << depth << ");\nslo_[t_] = ri_ + " << P << "LL * (rp_ * " << N << "LL + jl_);\nsln_[t_] = (int)(mf_leaf_lo(k0_ + f_ + 1, "
     << N << "LL, " << depth << ") - jl_);\n} else sln_[t_] = 0;\n__syncthreads();\n"
     << "const int len_ = sln_[t_];\n";
  // One item per warp row and one offset per lane (pre 1, S = 32): lane l keeps the bounds of
  // the item that row m_ = l of its warp covers, and the warp reads them by shuffles (no shared
  // loads or their address arithmetic per point).
  const bool warp_rows = pre == 1 && S == 32 && bi == kBlock;
  if (warp_rows) {
    const std::string W = std::to_string(kBlock / 32);
    os << "const long long wlo_ = slo_[(t_ & 31) * " << W << " + (t_ >> 5)];\n"
       << "const int wln_ = sln_[(t_ & 31) * " << W << " + (t_ >> 5)];\n";
  }
  if (sums) {
    os << "const int jm_ = len_ > " << kLeaf << " ? len_ / 2 : len_;\n";
    for (size_t r = 0; r < k.reduces.size(); ++r)
      if (is_sum(k.reduces[r]))
        os << acc_type(k.reduces[r]) << " sa" << r << "_ = 0, sb" << r << "_ = 0;\n";
  }
  // Point (e_ = m_*B + t_): item te_, offset ce_ in the slice. Unsigned, so the divisions by
  // the (mostly power-of-two) constants are shifts and masks.
  os << "for (int s_ = 0; s_ < " << maxlen << "; s_ += " << SS << ") {\n"
     << "for (unsigned m_ = 0; m_ < " << SS << "u; ++m_) {\n"
     << "const unsigned e_ = m_ * " << B << "u + (unsigned)t_, re_ = e_ % " << PS
     << "u, ce_ = re_ / " << P << "u, te_ = e_ / " << PS << "u * " << P << "u + re_ % " << P
     << "u;\n"
     << (warp_rows ? "const int ln_ = __shfl_sync(0xffffffffu, wln_, (int)m_);\n"
                     "const long long lo_ = __shfl_sync(0xffffffffu, wlo_, (int)m_);\n"
                   : "const int ln_ = sln_[te_];\nconst long long lo_ = slo_[te_];\n")
     << "if (" << (bi == kBlock ? std::string() : "e_ < " + std::to_string(bi * S) + "u && ")
     << "s_ + (int)ce_ < ln_) {\n"
     << "const long long i = lo_ + " << P << "LL * (s_ + (int)ce_);\n"
     << body.point_code() << stores(k, body, true);
  for (size_t m = 0; m < names.size(); ++m) os << "sh" << m << "_[te_][ce_] = " << names[m] << ";\n";
  os << "}\n}\n__syncthreads();\n";
  // Fold of the slice's offsets [s_, s_ + S) of the thread's leaf, in order. With sums only,
  // the part before the split jm_ and the part after are two loops (no per-term select).
  auto fold_loop = [&](const std::string& from, const std::string& to, char half) {
    os << "for (int c_ = " << from << "; c_ < " << to << "; ++c_) {\n"
       << (half ? "" : "const int jo_ = s_ + c_;\n");
    for (size_t r = 0; r < k.reduces.size(); ++r) {
      const std::string x = "x" + std::to_string(r) + "_";
      os << "{\nconst " << ctype(types[slot[r]]) << " " << x << " = sh" << slot[r]
         << "_[t_][c_];\n" << fold_term(k.reduces[r], r, x, half) << "}\n";
    }
    os << "}\n";
  };
  bool all_sums = true;
  for (const KReduce& kr : k.reduces) all_sums &= is_sum(kr);
  if (all_sums) {
    os << "const int ne_ = min(" << SS << ", len_ - s_), na_ = max(0, min(ne_, jm_ - s_));\n";
    fold_loop("0", "na_", 'a');
    fold_loop("na_", "ne_", 'b');
  } else {
    fold_loop("0", "min(" + SS + ", len_ - s_)", 0);
  }
  os << "__syncthreads();\n}\n";
  for (size_t r = 0; r < k.reduces.size(); ++r)
    if (is_sum(k.reduces[r]))
      os << "T" << r << "_.push(len_ > " << kLeaf << " ? sa" << r << "_ + sb" << r << "_ : sa" << r
         << "_);\n";
  os << "}\n";
  for (size_t r = 0; r < k.reduces.size(); ++r)
    if (is_sum(k.reduces[r])) os << "P" << r << "_.v = T" << r << "_.s[0];\n";
  if (fold) {
    os << block_fold(k, pre, fold_store(k, reg0, "gb_")) << "}\n}\n";
    return os.str();
  }
  os << "if (g_ < " << items << "LL) {\n";
  if (direct) {
    os << "const long long o_ = g_;\n" << epilogue_at(k, epi);
  } else {
    for (size_t r = 0; r < k.reduces.size(); ++r)
      os << "((" << part_t(k.reduces[r]) << "*)(scratch + " << reg0[r] << "))[g_] = P" << r
         << "_;\n";
  }
  os << "}\n}\n}\n";
  return os.str();
}

std::string grid_loop(int64_t items) {
  return "const long long stride_ = (long long)gridDim.x * blockDim.x;\n"
         "for (long long g_ = (long long)blockIdx.x * blockDim.x + threadIdx.x; g_ < " +
         std::to_string(items) + "LL; g_ += stride_) {\n";
}

}  // namespace

void render_reduction(const accel::Kernel& k, const Target& t, Program& prog) {
  const int64_t pre = k.pre, n = k.n, post = k.post, nout = pre * post;
  if (k.reduces.empty()) unsupported("reduction kernel without reductions");
  if (pre < 1 || n < 1 || post < 1 || pre * n * post != k.space.numel())
    unsupported("reduction view does not match the space");
  if (k.out_space.numel() != nout) unsupported("epilogue space does not match the reduction");
  if (t.max_threads_per_block < kBlock) unsupported("device blocks smaller than 256 threads");
  Phase body(k, k.body, k.space, 'v');
  Phase epi(k, k.epilogue, k.out_space, 'e');
  bool has_prod = false;
  for (size_t r = 0; r < k.reduces.size(); ++r) {
    const KReduce& kr = k.reduces[r];
    if (kr.value < 0 || kr.value >= static_cast<int>(k.body.size()))
      unsupported("reduced value out of range");
    if (kr.acc == VType::Bool && !is_truth(kr)) unsupported("arithmetic reduction of logicals");
    has_prod |= kr.kind == ReduceKind::Prod;
    const std::string rs = "P" + std::to_string(r) + "_";
    epi.reduce_exprs.push_back(is_truth(kr) ? "(bool)" + rs + ".found"
                                            : "mf_finish<" + targs(kr) + ">(" + rs + ", " +
                                                  std::to_string(n) + "LL)");
  }
  // Memory traffic of the body: loads, or in_body outputs stored while folding.
  bool traffic = body.has_kind(accel::IKind::Load);
  for (const auto& ko : k.outputs) traffic |= ko.in_body;
  // Leaves per lane, and leaves per thread (enough threads to fill the device). A body with
  // memory traffic wants more threads in flight: 4096 work items per SM rather than 2048 (one
  // leaf per item on W2's 16 x 8.3M reductions: 0.178 -> 0.165 ms, its final pass 0.983 ->
  // 0.948 ms on an H200; W1's load-free chain is 2% slower with it).
  int depth = 0;
  while ((n >> depth) > kLeaf) ++depth;
  const int64_t leaves = int64_t{1} << depth;
  const int64_t target = static_cast<int64_t>(std::max(1, t.sm_count)) * (traffic ? 4096 : 2048);
  int64_t f0 = 1;
  if (has_prod) f0 = leaves;
  while (f0 < leaves && nout * (leaves / (f0 * 2)) >= target) f0 *= 2;
  const int64_t groups = leaves / f0;
  const int64_t cap = static_cast<int64_t>(std::max(1, t.sm_count)) * 8;
  auto launch = [&](const std::string& entry, int64_t items, int64_t cap_blocks) {
    Launch l;
    l.entry = entry;
    l.block_x = kBlock;
    l.grid_x = static_cast<unsigned>(
        std::clamp<int64_t>((items + kBlock - 1) / kBlock, 1, cap_blocks));
    prog.launches.push_back(l);
  };
  std::ostringstream os;

  // Small pre (lanes interleaved in short runs): staged, coalesced leaf folds (each lane's
  // order unchanged; prod keeps one item per lane, folded left to right).
  // Staging pays off when there is memory traffic to coalesce (loads or in_body stores) and
  // enough blocks to hide its barriers (measured on an H200: a generator-only body ran 20%
  // slower staged, a prod over 4000 lanes of 4000 terms 3.7x slower in 16 blocks); a prod over a
  // few lanes gains nothing (one thread folds each lane anyway).
  const int64_t bi = kBlock / std::min<int64_t>(pre, kBlock) * std::min<int64_t>(pre, kBlock);
  const bool staged = pre < 8 && traffic && (!has_prod || nout >= 64) &&
                      (nout * groups + bi - 1) / bi >= std::max(1, t.sm_count);
  // A heavy body (RNG, transcendentals) over few work items would leave most of the device
  // idle (one thread per leaf): a map kernel over every point evaluates the body first, with
  // its stores, and stages the reduced values in scratch; the folds then load them in the same
  // order (same bits).
  const bool split = !staged && (body.has_kind(accel::IKind::Rng) || body.point_instrs() > 8) &&
                     nout * groups < static_cast<int64_t>(std::max(1, t.sm_count)) * 1024;
  std::vector<std::string> loaded;
  size_t map_bytes = 0;
  if (split) {
    const int64_t npts = k.space.numel();
    std::vector<size_t> off;
    for (size_t r = 0; r < k.reduces.size(); ++r) {
      const VType vt = k.body[k.reduces[r].value].type;
      map_bytes = (map_bytes + 15) / 16 * 16;
      off.push_back(map_bytes);
      loaded.push_back("((const " + std::string(ctype(vt)) + "*)(scratch + " +
                       std::to_string(map_bytes) + "))[i]");
      map_bytes += static_cast<size_t>(npts) * static_cast<size_t>(vbytes(vt));
    }
    prog.scratch_bytes = map_bytes;  // every entry of the program takes the scratch pointer
    std::vector<MapStore> ms = output_map_stores(k, body, true);
    for (size_t r = 0; r < k.reduces.size(); ++r) {
      const int v = k.reduces[r].value;
      MapStore st;
      st.value = v;
      st.st = ctype(k.body[v].type);
      st.bytes = vbytes(k.body[v].type);
      st.expr = body.name(v);
      st.contiguous = true;
      st.base = "((" + st.st + "*)(scratch + " + std::to_string(off[r]) + "))";
      st.scalar = st.base + "[i]";
      ms.push_back(std::move(st));
    }
    // First launch of the program: the folds below read what it stores.
    render_map(k, t, body, ms, "mf_reduce_map", prog);
  }
  const std::vector<std::string>* ld = split ? &loaded : nullptr;
  if (groups == 1 && staged) {
    os << staged_kernel(k, body, epi, "mf_reduce", param_list(k, prog), f0, depth, groups, true, {});
    launch("mf_reduce", nout, int64_t{1} << 30);
    prog.source += os.str();
    return;
  }
  if (groups == 1) {
    os << "\nextern \"C\" __global__ void mf_reduce(" << param_list(k, prog) << ") {\n"
       << access_bases(k) << body.hoisted_code() << epi.hoisted_code() << grid_loop(nout)
       << "const long long o_ = g_, ri_ = o_ % " << pre << "LL, rp_ = o_ / " << pre
       << "LL, k0_ = 0;\n"
       << init_parts(k) << fold_leaves(k, body, f0, depth, ld) << epilogue_at(k, epi)
       << "}\n}\n";
    launch("mf_reduce", nout, cap);
    prog.source += os.str();
    return;
  }

  // Few lanes of contiguous rows whose groups fit one block (sums only): one block per output,
  // thread t folds the leaves of group t, threads past the groups hold -0 (the identity of
  // IEEE addition, as in block_final below) and block_fold combines them as the balanced tree,
  // then runs the epilogue. One launch where the leaves, combine and final launches took three:
  // a vector norm of 8192 terms, the reduction of W6's power step, took 18 us in three.
  if (pre == 1 && !staged && !split && can_block_fold(k, kBlock) && groups <= kBlock &&
      nout <= 4 * static_cast<int64_t>(std::max(1, t.sm_count))) {
    os << "\nextern \"C\" __global__ void mf_reduce_block(" << param_list(k, prog) << ") {\n"
       << access_bases(k) << body.hoisted_code() << epi.hoisted_code()
       << "for (long long o_ = blockIdx.x; o_ < " << nout << "LL; o_ += gridDim.x) {\n"
       << "const long long ri_ = 0, rp_ = o_, k0_ = (long long)threadIdx.x * " << f0 << "LL;\n"
       << init_parts(k);
    for (size_t r = 0; r < k.reduces.size(); ++r)
      os << "P" << r << "_.v = -(" << acc_type(k.reduces[r]) << ")0;\n";
    os << "if (threadIdx.x < " << groups << "LL) {\n" << fold_leaves(k, body, f0, depth, ld)
       << "}\n" << block_fold(k, 1, epilogue_at(k, epi)) << "}\n}\n";
    launch("mf_reduce_block", nout * kBlock, cap);
    prog.source += os.str();
    return;
  }

  // The leaves launch folds aligned runs of kBlock/pre groups when it can (block_fold): the
  // combine passes then start from groups/F partials per lane, not groups (W2's 16 x 8.3M
  // means wrote and re-read 32 MB of partials and ran one combine launch more).
  // Staged leaves fold only with a full block of items (bi == kBlock).
  const bool fold = can_block_fold(k, groups) && (!staged || bi == kBlock);
  const int64_t parts = fold ? groups / (kBlock / pre) : groups;
  // More than 16 and at most kBlock*16 partials per lane (after a fold): the final launch
  // takes them all, one block per output (each thread an aligned run of parts/kBlock, or one
  // partial, then block_fold), in place of the combine launches. Threads past the partials
  // hold -0, the identity of IEEE addition (x + -0 is x for every x, -0 included), so the
  // padded tree has the bits of the balanced tree over the partials.
  const bool block_final = fold && parts > kCombine && parts <= kBlock * kCombine;
  // Combine passes: parts -> parts/16 -> ... -> <= 16 partials per lane for the final launch.
  std::vector<int64_t> counts{parts};
  while (!block_final && counts.back() > kCombine) counts.push_back(counts.back() / kCombine);
  // Two scratch regions per reduce (ping-pong): nout*groups and nout*groups/16 partials.
  std::vector<size_t> reg[2];
  size_t total = map_bytes;
  for (int b = 0; b < 2; ++b)
    for (const KReduce& kr : k.reduces) {
      total = (total + 15) / 16 * 16;
      reg[b].push_back(total);
      const int64_t cnt = b == 0 ? parts : std::max<int64_t>(1, parts / kCombine);
      total += static_cast<size_t>(nout * cnt) * part_bytes(kr);
    }
  prog.scratch_bytes = total;
  const std::string params = param_list(k, prog);

  // Leaves.
  const int64_t items = nout * groups;
  if (staged) {
    os << staged_kernel(k, body, epi, "mf_reduce_leaves", params, f0, depth, groups, false, reg[0],
                        fold);
  } else {
  os << "\nextern \"C\" __global__ void mf_reduce_leaves(" << params << ") {\n"
     << access_bases(k) << body.hoisted_code() << grid_loop(items)
     << "const long long ri_ = g_ % " << pre << "LL, q_ = g_ / " << pre << "LL;\n"
     << "const long long rp_ = q_ / " << groups << "LL, k0_ = (q_ % " << groups << "LL) * " << f0
     << "LL;\n"
     << init_parts(k) << fold_leaves(k, body, f0, depth, ld);
  if (fold) {
    os << block_fold(k, pre, fold_store(k, reg[0], "g_ - threadIdx.x"));
  } else {
    for (size_t r = 0; r < k.reduces.size(); ++r)
      os << "((" << part_t(k.reduces[r]) << "*)(scratch + " << reg[0][r] << "))[g_] = P" << r
         << "_;\n";
  }
  os << "}\n}\n";
  }
  launch("mf_reduce_leaves", items, int64_t{1} << 30);

  // Intermediate combine passes.
  for (size_t q = 0; q + 1 < counts.size(); ++q) {
    const int64_t out_cnt = counts[q + 1], its = nout * out_cnt;
    const std::string entry = "mf_reduce_combine" + std::to_string(q);
    os << "\nextern \"C\" __global__ void " << entry << "(" << params << ") {\n" << grid_loop(its)
       << "const long long ri_ = g_ % " << pre << "LL, q_ = g_ / " << pre << "LL;\n"
       << "const long long base_ = (q_ / " << out_cnt << "LL) * " << counts[q] << "LL + (q_ % "
       << out_cnt << "LL) * " << kCombine << "LL;\n"
       << combine_parts(k, reg[q % 2], kCombine);
    for (size_t r = 0; r < k.reduces.size(); ++r)
      os << "((" << part_t(k.reduces[r]) << "*)(scratch + " << reg[(q + 1) % 2][r]
         << "))[g_] = P" << r << "_;\n";
    os << "}\n}\n";
    launch(entry, its, int64_t{1} << 30);
  }

  if (block_final) {
    const int64_t per = std::max<int64_t>(1, parts / kBlock);
    os << "\nextern \"C\" __global__ void mf_reduce_final(" << params << ") {\n"
       << access_bases(k) << epi.hoisted_code() << "for (long long o_ = blockIdx.x; o_ < " << nout
       << "LL; o_ += gridDim.x) {\nconst long long ri_ = o_ % " << pre << "LL, base_ = (o_ / "
       << pre << "LL) * " << parts << "LL + (long long)threadIdx.x * " << per << "LL;\n"
       << init_parts(k);
    for (size_t r = 0; r < k.reduces.size(); ++r)
      os << "P" << r << "_.v = -(" << acc_type(k.reduces[r]) << ")0;\n";
    os << "if ((long long)threadIdx.x * " << per << "LL < " << parts << "LL) {\n"
       << combine_parts(k, reg[0], per, true) << "}\n" << block_fold(k, 1, epilogue_at(k, epi))
       << "}\n}\n";
    launch("mf_reduce_final", nout * kBlock, cap);
    prog.source += os.str();
    return;
  }
  // Final: one thread per output.
  const int64_t last = counts.back();
  os << "\nextern \"C\" __global__ void mf_reduce_final(" << params << ") {\n"
     << access_bases(k) << epi.hoisted_code() << grid_loop(nout)
     << "const long long o_ = g_, ri_ = o_ % " << pre << "LL, base_ = (o_ / " << pre << "LL) * "
     << last << "LL;\n"
     << combine_parts(k, reg[(counts.size() - 1) % 2], last) << epilogue_at(k, epi) << "}\n}\n";
  launch("mf_reduce_final", nout, cap);
  prog.source += os.str();
}

}  // namespace matfuse::cuda::detail
