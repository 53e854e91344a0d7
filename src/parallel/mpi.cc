// Workers on MPI (mpi.h).
#include "parallel/mpi.h"

#include <cstdlib>
#include <vector>

#ifdef MATFUSE_HAVE_MPI
// The C interface only (Open MPI and MPICH otherwise pull in their deprecated C++ bindings).
#define OMPI_SKIP_MPICXX 1
#define MPICH_SKIP_MPICXX 1
#include <mpi.h>
#include <unistd.h>
#endif

namespace matfuse::parallel {

#ifndef MATFUSE_HAVE_MPI

bool mpi_built() { return false; }
int mpi_launch_rank() { return -1; }
int mpi_launch_size() { return 1; }
int mpi_rank_worker_main() { return 2; }
int mpi_spawned_worker_main() { return 2; }
std::shared_ptr<Pool> mpi_rank_pool() { return nullptr; }
std::shared_ptr<Pool> mpi_spawn_pool(int) {
  throw_error("matfuse:notAvailable",
              "parpool needs a build with MPI (Debian: libopenmpi-dev); without it parfor runs "
              "serially and spmd on the client.");
}
void mpi_finish() {}

#else

namespace {

constexpr int kTagRequest = 1, kTagReply = 2;
constexpr size_t kChunk = size_t{1} << 30;

int g_rank = -1, g_size = 1;
bool g_initialized_here = false;
MPI_Comm g_spmd_comm = MPI_COMM_NULL;  // among the workers

void check(int rc, const char* what) {
  if (rc != MPI_SUCCESS) {
    char text[MPI_MAX_ERROR_STRING];
    int len = 0;
    MPI_Error_string(rc, text, &len);
    throw_error("parallel:mpi:Failed", "MPI %s failed: %.*s", what, len, text);
  }
}

void ensure_init() {
  int inited = 0;
  MPI_Initialized(&inited);
  if (inited) return;
  int provided = 0;
  check(MPI_Init_thread(nullptr, nullptr, MPI_THREAD_SERIALIZED, &provided), "initialisation");
  g_initialized_here = true;
}

void send_bytes(MPI_Comm comm, int dest, int tag, const std::string& b) {
  uint64_t n = b.size();
  check(MPI_Send(&n, 1, MPI_UINT64_T, dest, tag, comm), "send");
  for (size_t off = 0; off < b.size(); off += kChunk) {
    const int len = static_cast<int>(std::min(kChunk, b.size() - off));
    check(MPI_Send(b.data() + off, len, MPI_BYTE, dest, tag, comm), "send");
  }
}

std::string recv_bytes(MPI_Comm comm, int src, int tag, int* from, int* got_tag) {
  MPI_Status st;
  uint64_t n = 0;
  check(MPI_Recv(&n, 1, MPI_UINT64_T, src, tag, comm, &st), "receive");
  if (from) *from = st.MPI_SOURCE;
  if (got_tag) *got_tag = st.MPI_TAG;
  std::string b(n, '\0');
  for (size_t off = 0; off < n; off += kChunk) {
    const int len = static_cast<int>(std::min<uint64_t>(kChunk, n - off));
    check(MPI_Recv(b.data() + off, len, MPI_BYTE, st.MPI_SOURCE, st.MPI_TAG, comm,
                   MPI_STATUS_IGNORE),
          "receive");
  }
  return b;
}

class MpiChannel : public SpmdChannel {
public:
  explicit MpiChannel(MPI_Comm comm) : comm_(comm) {
    MPI_Comm_rank(comm_, &rank_);
    MPI_Comm_size(comm_, &size_);
  }
  int index() const override { return rank_ + 1; }
  int size() const override { return size_; }
  void send(int dest, int tag, const std::string& bytes) override {
    send_bytes(comm_, dest - 1, tag, bytes);
  }
  std::string receive(int src, int tag, int* from, int* got_tag) override {
    int f = 0;
    std::string b = recv_bytes(comm_, src <= 0 ? MPI_ANY_SOURCE : src - 1,
                               tag < 0 ? MPI_ANY_TAG : tag, &f, got_tag);
    if (from) *from = f + 1;
    return b;
  }
  bool probe(int src, int tag) override {
    int flag = 0;
    check(MPI_Iprobe(src <= 0 ? MPI_ANY_SOURCE : src - 1, tag < 0 ? MPI_ANY_TAG : tag, comm_,
                     &flag, MPI_STATUS_IGNORE),
          "probe");
    return flag != 0;
  }
  void barrier() override { check(MPI_Barrier(comm_), "barrier"); }

private:
  MPI_Comm comm_;
  int rank_ = 0, size_ = 1;
};

/// Serves requests arriving on `ctrl` from `client` until kShutdown.
int serve(MPI_Comm ctrl, int client, MPI_Comm spmd) {
  WorkerState w;
  MpiChannel channel(spmd);
  w.channel = &channel;
  for (;;) {
    std::string req = recv_bytes(ctrl, client, kTagRequest, nullptr, nullptr);
    if (!req.empty() && static_cast<uint8_t>(req[0]) == kShutdown) break;
    send_bytes(ctrl, client, kTagReply, handle_request(w, req));
  }
  return 0;
}

/// The pool of an mpirun launch: worker 1 is this process (rank 0), worker k is rank k-1.
class RankPool : public Pool {
public:
  RankPool() : local_(std::make_unique<WorkerState>()), channel_(g_spmd_comm) {
    MPI_Comm_dup(MPI_COMM_WORLD, &ctrl_);
    local_->channel = &channel_;
  }
  int size() const override { return g_size; }
  std::string cluster() const override { return "MPI (" + std::to_string(g_size) + " ranks)"; }
  std::vector<std::string> exchange(const std::vector<std::string>& requests) override {
    if (down_) throw_error("parallel:pool:Closed", "The parallel pool has been shut down.");
    std::vector<std::string> replies(requests.size());
    for (size_t k = 1; k < requests.size(); ++k)
      if (!requests[k].empty()) send_bytes(ctrl_, static_cast<int>(k), kTagRequest, requests[k]);
    if (!requests.empty() && !requests[0].empty()) replies[0] = handle_request(*local_, requests[0]);
    for (size_t k = 1; k < requests.size(); ++k)
      if (!requests[k].empty())
        replies[k] = recv_bytes(ctrl_, static_cast<int>(k), kTagReply, nullptr, nullptr);
    return replies;
  }
  void shutdown() override {
    if (down_) return;
    down_ = true;
    const std::string bye(1, static_cast<char>(kShutdown));
    for (int k = 1; k < g_size; ++k) send_bytes(ctrl_, k, kTagRequest, bye);
  }

private:
  std::unique_ptr<WorkerState> local_;
  MpiChannel channel_;
  MPI_Comm ctrl_ = MPI_COMM_NULL;
  bool down_ = false;
};

class SpawnPool : public Pool {
public:
  SpawnPool(MPI_Comm inter, int n) : inter_(inter), n_(n) {}
  ~SpawnPool() override {
    try {
      shutdown();
    } catch (...) {
    }
  }
  int size() const override { return n_; }
  std::string cluster() const override { return "Processes (Local Cluster)"; }
  std::vector<std::string> exchange(const std::vector<std::string>& requests) override {
    if (down_) throw_error("parallel:pool:Closed", "The parallel pool has been shut down.");
    std::vector<std::string> replies(requests.size());
    for (size_t k = 0; k < requests.size(); ++k)
      if (!requests[k].empty()) send_bytes(inter_, static_cast<int>(k), kTagRequest, requests[k]);
    for (size_t k = 0; k < requests.size(); ++k)
      if (!requests[k].empty())
        replies[k] = recv_bytes(inter_, static_cast<int>(k), kTagReply, nullptr, nullptr);
    return replies;
  }
  void shutdown() override {
    if (down_) return;
    down_ = true;
    const std::string bye(1, static_cast<char>(kShutdown));
    for (int k = 0; k < n_; ++k) send_bytes(inter_, k, kTagRequest, bye);
    MPI_Comm_disconnect(&inter_);
  }

private:
  MPI_Comm inter_;
  int n_;
  bool down_ = false;
};

/// The pool of the ranks lives until mpi_finish (its workers wait for its shutdown).
std::shared_ptr<Pool>& rank_pool_ref() {
  static std::shared_ptr<Pool> p;
  return p;
}
std::vector<std::weak_ptr<Pool>>& spawned_pools() {
  static std::vector<std::weak_ptr<Pool>> v;
  return v;
}

}  // namespace

bool mpi_built() { return true; }

int mpi_launch_rank() {
  if (g_rank >= 0) return g_rank;
  if (!std::getenv("OMPI_COMM_WORLD_SIZE") && !std::getenv("PMIX_RANK") && !std::getenv("PMI_RANK"))
    return -1;
  ensure_init();
  MPI_Comm_rank(MPI_COMM_WORLD, &g_rank);
  MPI_Comm_size(MPI_COMM_WORLD, &g_size);
  MPI_Comm_dup(MPI_COMM_WORLD, &g_spmd_comm);
  return g_rank;
}

int mpi_launch_size() { return g_rank >= 0 ? g_size : 1; }

int mpi_rank_worker_main() {
  MPI_Comm ctrl;
  MPI_Comm_dup(MPI_COMM_WORLD, &ctrl);  // matches RankPool's dup on rank 0
  const int rc = serve(ctrl, 0, g_spmd_comm);
  MPI_Finalize();
  return rc;
}

int mpi_spawned_worker_main() {
  ensure_init();
  MPI_Comm parent;
  MPI_Comm_get_parent(&parent);
  if (parent == MPI_COMM_NULL) return 2;
  MPI_Comm spmd;
  MPI_Comm_dup(MPI_COMM_WORLD, &spmd);
  const int rc = serve(parent, 0, spmd);
  MPI_Comm_disconnect(&parent);
  MPI_Finalize();
  return rc;
}

std::shared_ptr<Pool> mpi_rank_pool() {
  if (g_rank != 0) return nullptr;
  if (auto p = rank_pool_ref()) return p;
  auto p = std::make_shared<RankPool>();
  rank_pool_ref() = p;
  return p;
}

std::shared_ptr<Pool> mpi_spawn_pool(int n) {
  // A local pool may put more processes than cores on this machine (as MATLAB's local
  // cluster lets a user ask for), unless the user configured Open MPI otherwise.
  setenv("OMPI_MCA_rmaps_base_oversubscribe", "1", 0);
  ensure_init();
  char exe[4096];
  const ssize_t len = readlink("/proc/self/exe", exe, sizeof exe - 1);
  if (len <= 0)
    throw_error("parallel:cluster:SpawnFailed", "Cannot find this program's file to start workers.");
  exe[len] = '\0';
  char arg0[] = "--parallel-worker";
  char* argv[] = {arg0, nullptr};
  MPI_Comm inter;
  std::vector<int> errcodes(static_cast<size_t>(n));
  MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);
  const int rc = MPI_Comm_spawn(exe, argv, n, MPI_INFO_NULL, 0, MPI_COMM_SELF, &inter,
                                errcodes.data());
  if (rc != MPI_SUCCESS)
    throw_error("parallel:cluster:SpawnFailed", "MPI could not start %d workers.", n);
  auto p = std::make_shared<SpawnPool>(inter, n);
  spawned_pools().push_back(p);
  return p;
}

void mpi_finish() {
  if (auto p = rank_pool_ref()) p->shutdown();
  rank_pool_ref().reset();
  for (auto& w : spawned_pools())
    if (auto p = w.lock()) p->shutdown();
  spawned_pools().clear();
  int inited = 0, finalized = 0;
  MPI_Initialized(&inited);
  MPI_Finalized(&finalized);
  if (inited && !finalized) MPI_Finalize();
}

#endif

}  // namespace matfuse::parallel
