// Reduction kernels (fusion_kind reduction) over the (pre, n, post) view of kernel_ir.h.
//
// - pre == 1 and n > kThreadFold: launch 0 (`mf_reduce_partial`) gives each output nb blocks,
//   block b folding the fixed chunk [b*ch, min(n, (b+1)*ch)): thread t folds j = lo+t, lo+t+256,
//   ... left to right, then a shared-memory tree in a fixed order combines the 256 partials and
//   thread 0 writes the block's partial to `scratch`. Launch 1 (`mf_reduce_final`), one thread
//   per output, combines the nb partials in block order, finishes the values and runs the
//   epilogue.
// - otherwise (pre > 1, or short rows) one launch (`mf_reduce`): one thread per output folds
//   j = 0..n-1 left to right (adjacent threads read adjacent i, so loads coalesce), then runs
//   the epilogue.
// No floating-point atomics: repeated runs give identical bits.
#include <algorithm>
#include <sstream>

#include "providers/cuda/codegen_internal.h"

namespace matfuse::cuda::detail {

using accel::KReduce;
using accel::ReduceKind;
using accel::VType;

namespace {

constexpr int64_t kThreadFold = 64;  ///< rows this short are folded by one thread per output

const char* acc_type(const KReduce& r) { return r.acc == VType::F32 ? "float" : "double"; }
size_t part_bytes(const KReduce& r) { return r.acc == VType::F32 ? 24 : 32; }
bool is_truth(const KReduce& r) { return r.kind == ReduceKind::Any || r.kind == ReduceKind::All; }

std::string targs(const KReduce& r) {
  return std::to_string(static_cast<int>(r.kind)) + ", " + (r.omitnan ? "true" : "false");
}

/// `mf_part<A> P<r>_ = init` for every reduce.
std::string init_parts(const accel::Kernel& k) {
  std::string s;
  for (size_t r = 0; r < k.reduces.size(); ++r) {
    const KReduce& kr = k.reduces[r];
    s += std::string("mf_part<") + acc_type(kr) + "> P" + std::to_string(r) + "_ = mf_init<" +
         std::to_string(static_cast<int>(kr.kind)) + ", " + acc_type(kr) + ">();\n";
  }
  return s;
}

std::string folds(const accel::Kernel& k, const Phase& body) {
  std::string s;
  for (size_t r = 0; r < k.reduces.size(); ++r) {
    const KReduce& kr = k.reduces[r];
    s += "mf_fold<" + targs(kr) + ">(P" + std::to_string(r) + "_, " + body.name(kr.value) + ");\n";
  }
  return s;
}

/// Epilogue at output index o_ (parts P<r>_ complete): reduce results, values, stores.
std::string epilogue_at(const accel::Kernel& k, Phase& epi) {
  std::string s = "{\nconst long long i = o_;\n" + epi.point_code();
  for (size_t o = 0; o < k.outputs.size(); ++o) {
    const auto& ko = k.outputs[o];
    s += "out" + std::to_string(o) + "[" + epi.offset(ko.access) + "] = " +
         epi.store_expr(ko.value, ko.cls) + ";\n";
  }
  return s + "}\n";
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
  for (size_t r = 0; r < k.reduces.size(); ++r) {
    const KReduce& kr = k.reduces[r];
    if (kr.value < 0 || kr.value >= static_cast<int>(k.body.size()))
      unsupported("reduced value out of range");
    if (kr.acc == VType::Bool && !is_truth(kr)) unsupported("arithmetic reduction of logicals");
    const std::string rs = "P" + std::to_string(r) + "_";
    epi.reduce_exprs.push_back(is_truth(kr) ? "(bool)" + rs + ".found"
                                            : "mf_finish<" + targs(kr) + ">(" + rs + ", " +
                                                  std::to_string(n) + "LL)");
  }
  const int64_t cap = static_cast<int64_t>(std::max(1, t.sm_count)) * 8;
  std::ostringstream os;

  if (pre == 1 && n > kThreadFold) {
    // Blocks per output: enough to fill the device, at least 4 terms per thread.
    int64_t nb = std::clamp<int64_t>((cap + post - 1) / post, 1, (n + 4 * kBlock - 1) / (4 * kBlock));
    const int64_t ch = (n + nb - 1) / nb;
    nb = (n + ch - 1) / ch;
    std::vector<size_t> off;
    size_t total = 0;
    for (const KReduce& kr : k.reduces) {
      total = (total + 15) / 16 * 16;
      off.push_back(total);
      total += static_cast<size_t>(post * nb) * part_bytes(kr);
    }
    prog.scratch_bytes = total;
    const std::string params = param_list(k, prog);
    os << "\nextern \"C\" __global__ void mf_reduce_partial(" << params << ") {\n"
       << access_bases(k) << body.hoisted_code()
       << "__shared__ mf_part<double> shd_[" << kBlock << "];\n"
       << "__shared__ mf_part<float> shf_[" << kBlock << "];\n"
       << "const long long blk_ = blockIdx.x, rp_ = blk_ / " << nb << "LL, rb_ = blk_ % " << nb
       << "LL;\n"
       << "const long long lo_ = rb_ * " << ch << "LL;\n"
       << "const long long hi_ = lo_ + " << ch << "LL < " << n << "LL ? lo_ + " << ch << "LL : "
       << n << "LL;\n"
       << init_parts(k) << "for (long long j_ = lo_ + threadIdx.x; j_ < hi_; j_ += " << kBlock
       << ") {\n"
       << "const long long i = j_ + " << n << "LL * rp_;\n"
       << body.point_code() << folds(k, body) << "}\n";
    for (size_t r = 0; r < k.reduces.size(); ++r) {
      const KReduce& kr = k.reduces[r];
      const std::string sh = kr.acc == VType::F32 ? "shf_" : "shd_";
      const std::string kk = std::to_string(static_cast<int>(kr.kind));
      os << sh << "[threadIdx.x] = P" << r << "_;\n__syncthreads();\n"
         << "for (int s_ = " << kBlock / 2 << "; s_ > 0; s_ >>= 1) {\n"
         << "if ((int)threadIdx.x < s_) " << sh << "[threadIdx.x] = mf_combine<" << kk << ">("
         << sh << "[threadIdx.x], " << sh << "[threadIdx.x + s_]);\n__syncthreads();\n}\n"
         << "if (threadIdx.x == 0) ((mf_part<" << acc_type(kr) << ">*)(scratch + " << off[r]
         << "))[blk_] = " << sh << "[0];\n__syncthreads();\n";
    }
    os << "}\n";
    os << "\nextern \"C\" __global__ void mf_reduce_final(" << params << ") {\n"
       << access_bases(k) << epi.hoisted_code()
       << "const long long stride_ = (long long)gridDim.x * blockDim.x;\n"
       << "for (long long o_ = (long long)blockIdx.x * blockDim.x + threadIdx.x; o_ < " << nout
       << "LL; o_ += stride_) {\n";
    for (size_t r = 0; r < k.reduces.size(); ++r) {
      const KReduce& kr = k.reduces[r];
      const std::string A = acc_type(kr), pp = "pp" + std::to_string(r) + "_";
      os << "const mf_part<" << A << ">* " << pp << " = (const mf_part<" << A << ">*)(scratch + "
         << off[r] << ") + o_ * " << nb << "LL;\n"
         << "mf_part<" << A << "> P" << r << "_ = " << pp << "[0];\n"
         << "for (long long b_ = 1; b_ < " << nb << "LL; ++b_) P" << r << "_ = mf_combine<"
         << static_cast<int>(kr.kind) << ">(P" << r << "_, " << pp << "[b_]);\n";
    }
    os << epilogue_at(k, epi) << "}\n}\n";
    Launch l0;
    l0.entry = "mf_reduce_partial";
    l0.block_x = kBlock;
    l0.grid_x = static_cast<unsigned>(post * nb);
    Launch l1;
    l1.entry = "mf_reduce_final";
    l1.block_x = kBlock;
    l1.grid_x = static_cast<unsigned>(std::clamp<int64_t>((nout + kBlock - 1) / kBlock, 1, cap));
    prog.launches = {l0, l1};
  } else {
    os << "\nextern \"C\" __global__ void mf_reduce(" << param_list(k, prog) << ") {\n"
       << access_bases(k) << body.hoisted_code() << epi.hoisted_code()
       << "const long long stride_ = (long long)gridDim.x * blockDim.x;\n"
       << "for (long long o_ = (long long)blockIdx.x * blockDim.x + threadIdx.x; o_ < " << nout
       << "LL; o_ += stride_) {\n"
       << "const long long ri_ = o_ % " << pre << "LL, rp_ = o_ / " << pre << "LL;\n"
       << init_parts(k) << "for (long long j_ = 0; j_ < " << n << "LL; ++j_) {\n"
       << "const long long i = ri_ + " << pre << "LL * (j_ + " << n << "LL * rp_);\n"
       << body.point_code() << folds(k, body) << "}\n"
       << epilogue_at(k, epi) << "}\n}\n";
    Launch l;
    l.entry = "mf_reduce";
    l.block_x = kBlock;
    l.grid_x = static_cast<unsigned>(std::clamp<int64_t>((nout + kBlock - 1) / kBlock, 1, cap));
    prog.launches = {l};
  }
  prog.source += os.str();
}

}  // namespace matfuse::cuda::detail
