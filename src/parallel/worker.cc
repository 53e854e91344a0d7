// The worker side: one interpreter per worker answering requests (pool.h), and the in-process
// loopback pool.
#include <new>

#include "parallel/parfor.h"
#include "parallel/spmd.h"

namespace matfuse::parallel {

namespace {

/// Inside a worker a parfor-loop runs serially (MATLAB runs nested parallel language serially
/// on workers) and an spmd block is an error.
class WorkerRunner : public ParallelRunner {
public:
  Flow run_parfor(Interpreter& in, const ast::ForStmt& f) override {
    return parallel::run_parfor(in, f, nullptr);
  }
  Flow run_spmd(Interpreter&, const ast::SpmdStmt&) override {
    throw_error("MATLAB:spmd:NestedSPMD",
                "SPMD blocks cannot be nested, and cannot run inside a parfor-loop or on a "
                "worker.");
  }
};

}  // namespace

WorkerState::WorkerState() : in(session), codec(in), runner(std::make_unique<WorkerRunner>()) {
  session.out = &out;
  session.err = &out;
  in.set_parallel_runner(runner.get());
  register_spmd_builtins(in.own_builtins_);
}

WorkerState::~WorkerState() = default;

std::string handle_request(WorkerState& w, std::string_view request) {
  w.out.str("");
  w.out.clear();
  ValueWriter out(&w.codec);
  try {
    ValueReader req(request, &w.codec);
    const uint8_t kind = req.u8();
    switch (kind) {
      case kParforBlock:
        run_parfor_block(w, req, out);
        break;
      case kSpmdBlock:
        run_spmd_block(w, req, out);
        break;
      case kGetVariable:
      case kSetVariable:
      case kClearVariable:
        composite_request(w, kind, req, out);
        break;
      default:
        throw_corrupt("request kind");
    }
  } catch (const MatlabError& e) {
    out = ValueWriter(&w.codec);
    try {
      write_error_reply(out, w.out.str(), e);
    } catch (...) {
      out = ValueWriter();
      write_error_reply(out, "", MatlabError(e.identifier(), e.message()));
    }
  } catch (const std::bad_alloc&) {
    out = ValueWriter();
    write_error_reply(out, w.out.str(), MatlabError("MATLAB:nomem", "Out of memory."));
  }
  w.in.reduction_first_.clear();
  return out.take();
}

namespace {

/// Loopback workers run one after another: they know their index, and messages between them
/// cannot be delivered.
class LoopbackChannel : public SpmdChannel {
public:
  LoopbackChannel(int index, int size) : index_(index), size_(size) {}
  int index() const override { return index_; }
  int size() const override { return size_; }
  void send(int, int, const std::string&) override { unsupported(); }
  std::string receive(int, int, int*, int*) override { unsupported(); }
  bool probe(int, int) override { return false; }
  void barrier() override {}

private:
  [[noreturn]] static void unsupported() {
    throw_error("matfuse:notAvailable",
                "Workers of an in-process pool cannot send messages to each other.");
  }
  int index_, size_;
};

class LoopbackPool : public Pool {
public:
  explicit LoopbackPool(int n) {
    for (int k = 0; k < n; ++k) {
      workers_.push_back(std::make_unique<WorkerState>());
      channels_.push_back(std::make_unique<LoopbackChannel>(k + 1, n));
      workers_.back()->channel = channels_.back().get();
    }
  }
  int size() const override { return static_cast<int>(workers_.size()); }
  std::string cluster() const override { return "Loopback (in-process)"; }
  std::vector<std::string> exchange(const std::vector<std::string>& requests) override {
    std::vector<std::string> replies(requests.size());
    for (size_t k = 0; k < requests.size() && k < workers_.size(); ++k)
      if (!requests[k].empty()) replies[k] = handle_request(*workers_[k], requests[k]);
    return replies;
  }
  void shutdown() override { workers_.clear(); }

private:
  std::vector<std::unique_ptr<WorkerState>> workers_;
  std::vector<std::unique_ptr<LoopbackChannel>> channels_;
};

}  // namespace

std::unique_ptr<Pool> make_loopback_pool(int n) { return std::make_unique<LoopbackPool>(n); }

}  // namespace matfuse::parallel
