// Lowering: a fusion group of a finalized Plan becomes a Kernel (accel/emit/kernel_ir.h) plus the
// bindings that say which node feeds each kernel input and parameter slot and which node each
// kernel output is.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "accel/emit/kernel_ir.h"
#include "accel/plan/plan.h"

namespace matfuse::accel {

struct LoweredGroup {
  Kernel kernel;
  std::vector<const Node*> input_nodes;   ///< kernel input i holds this node's tensor
  std::vector<const Node*> param_nodes;   ///< parameter slot i holds this Param's value
  std::vector<const Node*> output_nodes;  ///< kernel output i is this node's value
  /// Kernel output i is the imaginary part of output_nodes[i], a complex value whose real part
  /// is output i - 1: both write one interleaved complex buffer (real part at element 2e,
  /// imaginary part at 2e + 1, in units of the node's real class).
  std::vector<bool> output_imag;
};

/// Lowers group g. Returns nullopt with *why set when the host kernel path does not handle the
/// group (complex ops outside complex_fusable, 64-bit integer data, empty arrays, mixed-class
/// matrix operands): the
/// caller then evaluates the group with the eager engine.
std::optional<LoweredGroup> lower_group(const Plan& p, int g, std::string* why);

}  // namespace matfuse::accel
