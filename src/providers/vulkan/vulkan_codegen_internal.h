// Shared pieces of the GLSL renderers of the Vulkan provider (internal to providers/vulkan):
// vulkan_codegen.cc renders elementwise kernels and owns the instruction rendering, the
// preamble and the argument block; vulkan_reduce.cc renders reduction and matrix-product
// kernels with them.
#pragma once

#include <cstddef>
#include <memory>
#include <string>
#include <vector>

#include "providers/vulkan/vulkan_codegen.h"

namespace matfuse::vk::detail {

/// Raises matfuse:codegen "Vulkan code generation: <what>".
[[noreturn]] void unsupported(const std::string& what);

/// The GLSL of one kernel's phases over a shared set of declarations.
///
/// A phase is a list of instructions (the kernel's body or its epilogue) over an iteration
/// space. Value v of the current phase is declared by instr(v) as the GLSL variable
/// name(v) (prefix + v); loads, offsets and stores of that phase read the point's linear
/// index from an int64_t `i` in scope, decomposed by index_code() into x0, x1, ...
/// (column-major over the space, kernel_ir.h). preamble() comes before main() and
/// args_code() at its start; both are to be taken after every phase has been rendered.
class Codegen {
public:
  Codegen(const accel::Kernel& k, const Caps& caps);
  ~Codegen();
  Codegen(const Codegen&) = delete;
  Codegen& operator=(const Codegen&) = delete;

  /// Selects the phase: `code` over `space`, values named prefix + index. results[r] is the
  /// GLSL expression (of the instruction's type) of ReduceResult r, results[0] that of
  /// MatMulResult.
  void phase(const std::vector<accel::Instr>& code, const Dims& space, const std::string& prefix,
             std::vector<std::string> results = {});
  /// GLSL variable of value v of the phase.
  std::string name(int v) const;
  /// Statements declaring value v (raises matfuse:codegen when it has no exact rendering).
  std::string instr(int v);
  /// x0, x1, ... of the point whose linear index is `i`.
  std::string index_code() const;
  /// The store of output o (its value belongs to the phase).
  std::string store(size_t o) const;
  /// Version, extensions, buffer reference types (MfF64, MfF32, MfI32, MfU32, MfU64, ...), the
  /// push constant and helper functions; layout(local_size_x = kLocalSize).
  std::string preamble() const;
  /// Declarations at the start of main(): in<k>, out<k>, p<k>, fault, extra0.. extra<extra-1>
  /// (the slots after the fault flag) and the access bases.
  std::string args_code(size_t extra) const;
  /// Argument block slots without extras (inputs, outputs, parameters, fault flag).
  size_t base_slots() const;
  /// Whether a rendered instruction may raise the fault flag.
  bool may_fault() const;

private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

/// Reduction kernels (fusion_kind reduction), vulkan_reduce.cc.
Shader render_reduction(const accel::Kernel& k, const Caps& caps);
/// Matrix-product kernels (KMatMul), vulkan_reduce.cc.
Shader render_matmul(const accel::Kernel& k, const Caps& caps);

}  // namespace matfuse::vk::detail
