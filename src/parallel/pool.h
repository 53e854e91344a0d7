// Pools of parallel workers and the worker side of the protocol.
//
// A Pool is the client's view of its workers (MATLAB's parallel.Pool): `size()` workers, each
// taking one request and giving one reply at a time (exchange). Kinds:
// - MPI ranks (`mpirun -np N matfuse script.m`): rank 0 runs the script and is also worker 1
//   (it runs its share of a parfor or spmd block itself, in a separate workspace, while the
//   other ranks run theirs), ranks 1..N-1 are workers 2..N; so N ranks do N shares of work.
// - MPI spawn (parpool(n) outside mpirun): n processes of this binary started with
//   MPI_Comm_spawn in worker mode (`matfuse --parallel-worker`); the client only coordinates.
// - loopback (tests): n in-process workers, each its own interpreter, run one after another.
//
// Messages are ValueWriter byte strings (runtime/serialize.h); the first byte is the request
// kind (parallel/protocol in worker.cc). A worker keeps its interpreter between requests, so
// variables an spmd block leaves on a worker stay there for the next spmd block (Composite).
#pragma once

#include <memory>
#include <sstream>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "interp/interp.h"
#include "parallel/codec.h"
#include "runtime/session.h"

namespace matfuse::parallel {

/// Sends one message to a peer of an spmd block and receives from one (MPI underneath); the
/// worker's spmd builtins use it. Workers are numbered 1..size.
class SpmdChannel {
public:
  virtual ~SpmdChannel() = default;
  virtual int index() const = 0;  ///< this worker's spmdIndex (1-based)
  virtual int size() const = 0;   ///< spmdSize
  virtual void send(int dest, int tag, const std::string& bytes) = 0;
  /// Receives from src (0: any source) with tag (-1: any); sets *from / *got_tag.
  virtual std::string receive(int src, int tag, int* from, int* got_tag) = 0;
  /// Whether a message from src (0: any) with tag (-1: any) is waiting (spmdProbe).
  virtual bool probe(int src, int tag) = 0;
  virtual void barrier() = 0;
};

/// One worker's state: its own session and interpreter, the units it parsed, and the
/// communicator of spmd blocks (null outside spmd-capable pools).
struct WorkerState {
  WorkerState();
  ~WorkerState();
  std::ostringstream out;  ///< output of the request being handled
  Session session;
  Interpreter in;
  InterpFunctionCodec codec;
  SpmdChannel* channel = nullptr;
  /// Parsed units by (path + NUL + source) and the script layouts they resolve into.
  std::unordered_map<std::string, std::shared_ptr<CodeUnit>> units;
  std::unordered_map<const CodeUnit*, std::unique_ptr<Layout>> script_layouts;
  std::unique_ptr<ParallelRunner> runner;  ///< nested parfor: serial
};

/// Handles one request (parfor block, spmd block, Composite access) and returns the reply.
/// Never throws: MATLAB errors of the body travel back in the reply.
std::string handle_request(WorkerState& w, std::string_view request);

/// The request kinds (first byte of a request).
enum Request : uint8_t {
  kParforBlock = 1,
  kSpmdBlock = 2,
  kGetVariable = 3,   ///< Composite read: the value of a variable of the worker's spmd workspace
  kSetVariable = 4,   ///< Composite write
  kClearVariable = 5, ///< a Composite went away
  kShutdown = 9,
};

class Pool {
public:
  virtual ~Pool() = default;
  virtual int size() const = 0;
  /// MATLAB's cluster text shown by the pool display ("Processes (Local Cluster)", "MPI").
  virtual std::string cluster() const = 0;
  /// Sends requests[w] to worker w (an empty request leaves that worker out) and returns the
  /// replies in worker order (empty for workers left out).
  virtual std::vector<std::string> exchange(const std::vector<std::string>& requests) = 0;
  /// Whether spmd blocks can run (workers can talk to each other).
  virtual bool spmd_enabled() const { return true; }
  /// Stops the workers (idempotent).
  virtual void shutdown() = 0;
};

/// In-process pool of n workers (tests; no MPI needed). Workers run one after another, so spmd
/// blocks whose workers send each other messages are not supported (matfuse:notAvailable).
std::unique_ptr<Pool> make_loopback_pool(int n);

}  // namespace matfuse::parallel
