// A fixed pool of std::threads (created once, all cores) for the host provider's chunks.
#pragma once

#include <cstdint>
#include <functional>

namespace matfuse::host {

/// Runs fn(0) ... fn(n-1) on the pool's threads and the caller; returns when all are done.
/// The first exception thrown by a task is rethrown in the caller. Nested calls (from inside a
/// task) and n <= 1 run inline. Task-to-thread assignment is dynamic, so results must not depend
/// on it (the host provider writes each task's result to its own slot).
void parallel_for(int64_t n, const std::function<void(int64_t)>& fn);

/// Number of threads that run tasks (workers + caller).
int pool_threads();

}  // namespace matfuse::host
