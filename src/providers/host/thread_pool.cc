// Thread pool (see thread_pool.h).
#include "providers/host/thread_pool.h"
#include "runtime/options.h"

#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <cstdlib>
#include <exception>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

namespace matfuse::host {
namespace {

thread_local bool t_in_task = false;

/// One parallel_for call; workers hold it by shared_ptr so a late worker never touches the
/// next job's counters.
struct Job {
  const std::function<void(int64_t)>* fn = nullptr;
  int64_t n = 0;
  std::atomic<int64_t> next{0};
  std::atomic<int64_t> pending{0};
  std::mutex mu;
  std::condition_variable done;
  std::exception_ptr error;
};

void drain(Job& job) {
  const bool outer = t_in_task;
  t_in_task = true;
  for (;;) {
    const int64_t i = job.next.fetch_add(1);
    if (i >= job.n) break;
    try {
      (*job.fn)(i);
    } catch (...) {
      std::lock_guard<std::mutex> l(job.mu);
      if (!job.error) job.error = std::current_exception();
    }
    if (job.pending.fetch_sub(1) == 1) {
      std::lock_guard<std::mutex> l(job.mu);
      job.done.notify_all();
    }
  }
  t_in_task = outer;
}

class Pool {
public:
  Pool() {
    int n = static_cast<int>(std::thread::hardware_concurrency());
    if (options().threads > 0) n = options().threads;
    n = std::max(1, n);
    for (int i = 0; i + 1 < n; ++i) workers_.emplace_back([this] { work(); });
  }

  int threads() const { return static_cast<int>(workers_.size()) + 1; }

  void run(int64_t n, const std::function<void(int64_t)>& fn) {
    std::lock_guard<std::mutex> job_lock(job_mu_);  // one job at a time
    auto job = std::make_shared<Job>();
    job->fn = &fn;
    job->n = n;
    job->pending = n;
    {
      std::lock_guard<std::mutex> l(mu_);
      job_ = job;
      ++generation_;
    }
    cv_.notify_all();
    drain(*job);
    {
      std::unique_lock<std::mutex> l(job->mu);
      job->done.wait(l, [&] { return job->pending.load() == 0; });
    }
    {
      std::lock_guard<std::mutex> l(mu_);
      job_.reset();
    }
    if (job->error) std::rethrow_exception(job->error);
  }

private:
  void work() {
    uint64_t seen = 0;
    for (;;) {
      std::shared_ptr<Job> job;
      {
        std::unique_lock<std::mutex> l(mu_);
        cv_.wait(l, [&] { return generation_ != seen && job_ != nullptr; });
        seen = generation_;
        job = job_;
      }
      drain(*job);
    }
  }

  std::vector<std::thread> workers_;
  std::mutex mu_, job_mu_;
  std::condition_variable cv_;
  std::shared_ptr<Job> job_;
  uint64_t generation_ = 0;
};

Pool& pool() {
  static Pool* p = new Pool();  // never destroyed: workers may be blocked at exit
  return *p;
}

}  // namespace

void parallel_for(int64_t n, const std::function<void(int64_t)>& fn) {
  if (n <= 0) return;
  if (n == 1 || t_in_task || pool().threads() == 1) {
    for (int64_t i = 0; i < n; ++i) fn(i);
    return;
  }
  pool().run(n, fn);
}

int pool_threads() { return pool().threads(); }

}  // namespace matfuse::host
