// Observers of an evaluation (DESIGN.md decision 9): what evaluate() tells a caller that asked
// to watch it, passed in explicitly (loop replay records the kernel of one chunk this way).
#pragma once

#include <string>
#include <vector>

#include "accel/capture/graph.h"
#include "accel/emit/kernel_ir.h"
#include "accel/run/provider.h"
#include "runtime/tensor.h"

namespace matfuse::accel {

/// One fusion group that ran as one kernel.
struct ChunkRun {
  Kernel kernel;
  std::string text;                      ///< kernel.text()
  std::string fusion_kind;
  std::string provider;                  ///< name of the provider that ran it
  /// Identity only (never dereferenced after the run); an Input leaf made for a forced node
  /// appears as that node (forced_origin), so it matches the previous chunk's output_nodes.
  std::vector<const Node*> input_nodes;
  std::vector<Tensor> inputs;
  std::vector<ParamValue> params;
  std::vector<ParamRole> roles;
  std::vector<bool> u64;
  std::vector<const Node*> output_nodes; ///< identity only (materialised after the run)
  std::vector<Tensor> outputs;
};

/// Watches the evaluations it is passed to. While an observer watches, device fault checks are
/// not deferred: each group's outcome is final when on_kernel/on_other_group is called.
class EvalObserver {
public:
  virtual ~EvalObserver() = default;
  /// An evaluation starts.
  virtual void on_evaluation() = 0;
  /// A group ran as one kernel without a fault.
  virtual void on_kernel(ChunkRun run) = 0;
  /// A group ran any other way (the eager engine).
  virtual void on_other_group() = 0;
};

}  // namespace matfuse::accel
