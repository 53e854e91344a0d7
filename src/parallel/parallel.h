// The parallel layer's entry points (MATLAB's Parallel Computing Toolbox forms on MPI):
// parpool, gcp, delete(pool), parfor-loops, spmd blocks and Composites. See pool.h for the
// kinds of pools, classify.h for parfor's variable rules, spmd.h for spmd.
//
// Pools: parpool(n) outside mpirun spawns n local workers (needs a build with MPI); under
// `mpirun -np N matfuse script.m` the N ranks are the pool (rank 0 runs the script and is
// worker 1), and parfor/spmd/gcp open it by themselves (MATLAB's AutoCreate). Without a pool
// parfor runs serially and spmd on the client.
#pragma once

#include <memory>

#include "interp/interp.h"
#include "parallel/pool.h"

namespace matfuse::parallel {

/// Installs the parallel runner on `in` (parfor and spmd go through it) and its builtins
/// (parpool, gcp, spmdIndex ...). `in` must outlive nothing installed here (the runner is
/// process-wide).
void install(Interpreter& in);

/// Registers parpool, gcp and the spmd functions in r (install does this for an interpreter;
/// the CLI's --list-builtins uses it too).
void register_parallel_builtins(Registry& r);

/// The open pool (null when none).
std::shared_ptr<Pool> current_pool();
/// Opens pool p (replacing any other; null closes). Tests open loopback pools with it.
void set_current_pool(std::shared_ptr<Pool> p);
/// Under mpirun: the pool parfor, spmd and gcp open by themselves (null otherwise).
void set_auto_pool(std::shared_ptr<Pool> p);

}  // namespace matfuse::parallel
