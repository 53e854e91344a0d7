// Workers on MPI (Open MPI): launch detection, the worker loops, the pools of ranks and of
// spawned processes. In a build without MPI every function here reports that there is none
// (mpi_built() false, launched() false, the pool makers raise matfuse:notAvailable).
//
// Protocol: a message is a u64 byte count followed by the bytes in chunks of at most 1 GiB
// (MPI counts are int); requests travel with tag 1 and replies with tag 2 on the control
// communicator; spmd messages use their own communicator among the workers (user tags
// 0..31999, internal collectives 32001..32003).
#pragma once

#include <memory>
#include <string>

#include "parallel/pool.h"

namespace matfuse::parallel {

/// Whether this binary was built with MPI.
bool mpi_built();

/// Called first thing by the CLI (on the thread that runs the interpreter): when the process
/// was started by mpirun/mpiexec (Open MPI's OMPI_COMM_WORLD_SIZE, or PMIX_RANK/PMI_RANK in
/// its environment) and MPI is built, initialises MPI. Returns the rank (0..size-1) or -1 when
/// not launched by MPI.
int mpi_launch_rank();
/// Number of ranks when launched by MPI (1 otherwise).
int mpi_launch_size();

/// Ranks > 0 of an mpirun launch: serve requests from rank 0 until it shuts the pool down;
/// returns the process exit status.
int mpi_rank_worker_main();
/// `matfuse --parallel-worker` (a process parpool spawned): serve the parent until shutdown.
int mpi_spawned_worker_main();

/// Rank 0 of an mpirun launch: the pool of all ranks (worker 1 runs in this process).
std::shared_ptr<Pool> mpi_rank_pool();
/// parpool(n) outside mpirun: spawns n workers (this binary in worker mode). Errors:
/// matfuse:notAvailable without MPI; parallel:cluster:SpawnFailed when MPI cannot start them.
std::shared_ptr<Pool> mpi_spawn_pool(int n);

/// End of the program: shuts down open pools and finalises MPI (idempotent).
void mpi_finish();

}  // namespace matfuse::parallel
