// Internal to the host provider: evaluation of a kernel phase (body or epilogue) over a chunk of
// consecutive points of its iteration space, one tight loop per instruction over the chunk.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "accel/emit/kernel_ir.h"
#include "accel/run/provider.h"

namespace matfuse::host {

/// Points per chunk: large enough to amortise dispatch, small enough for L1/L2 scratch.
constexpr int kChunk = 2048;

struct AccessPlan {
  bool uniform = false;     ///< every stride 0
  bool contiguous = false;  ///< offset = base + linear index
  /// > 0: offset = base + (linear index mod period): a broadcast operand that varies only
  /// along the leading dimensions (mean(x, [2 3]) read back over x).
  int64_t period = 0;
  int64_t base = 0;         ///< base with parameter terms applied
};

/// Fault raised by a kernel (first reason wins).
struct Fault {
  std::atomic<bool> raised{false};
  std::string reason;
  void raise(const char* why);
};

/// One phase of one launch (shared by all threads, read only during evaluation).
struct PhaseCtx {
  const accel::Kernel* k = nullptr;
  const std::vector<accel::Instr>* code = nullptr;
  Dims space;
  const KernelArgs* args = nullptr;
  std::vector<AccessPlan> access;           ///< per kernel access, for this space
  std::vector<const void*> reduce_results;  ///< epilogue: folded values over out_space
  const void* matmul_c = nullptr;           ///< epilogue: gemm result over out_space
  Fault* fault = nullptr;

  PhaseCtx(const accel::Kernel& kernel, const std::vector<accel::Instr>& c, const Dims& s,
           const KernelArgs& a, Fault& f);
};

/// Per-thread scratch: value buffers and offset arrays.
struct Scratch {
  std::vector<std::byte> mem;  ///< kChunk * 8 bytes per value
  std::vector<int64_t> offs;
  std::vector<double> tmp;
  std::vector<const void*> vals;
};
Scratch& thread_scratch();

/// Evaluates ctx.code at points [start, start + len) (len <= kChunk). On return s.vals[i]
/// points at value i: len elements, or one element for uniform values.
void eval_chunk(const PhaseCtx& ctx, int64_t start, int len, Scratch& s);

/// Writes the kernel outputs for the chunk (values from the last eval_chunk on s).
void store_outputs(const PhaseCtx& ctx, int64_t start, int len, Scratch& s);

}  // namespace matfuse::host
