// The host provider: runs kernel IR on the CPU (DESIGN.md decision 9). It is the executable
// specification of the kernel IR: chunked (host_eval.h), multithreaded over a fixed pool
// (thread_pool.h), deterministic (fixed chunk partition and combine order, independent of the
// thread count; reductions follow the eager summation order), gemm by OpenBLAS.
#pragma once

#include "providers/provider.h"

namespace matfuse::host {

class HostProvider final : public Provider {
public:
  std::string_view name() const override { return "host"; }
  RunResult run(const accel::Kernel& k, const KernelArgs& args) override;
};

/// The process-wide host provider.
HostProvider& host_provider();

}  // namespace matfuse::host
