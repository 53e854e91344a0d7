// spmd blocks, Composite values and the spmd communication functions.
//
// With a pool open, the body of `spmd ... end` runs on every worker (spmdIndex 1..spmdSize):
// client variables the body reads are sent to each worker (a Composite's own worker-side value
// is used instead), and every variable the body assigns becomes a Composite on the client:
// c{k} reads worker k's value, c{k} = v sets it. Worker variables persist from one spmd block
// to the next. Without a pool the body runs once on the client with spmdIndex = spmdSize = 1
// and its variables are ordinary variables (as MATLAB does when no pool is open).
//
// The communication functions (spmdSend, spmdReceive, spmdProbe, spmdBroadcast, spmdReduce,
// spmdCat, spmdBarrier, and labindex/numlabs) act on the pool's workers inside an spmd block;
// outside one (on the client) they behave as a pool of one worker.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "interp/interp.h"
#include "parallel/pool.h"
#include "runtime/value_object.h"

namespace matfuse::parallel {

/// Runs spmd block s (client side). pool null: the body runs on the client.
/// Errors: the first (lowest spmdIndex) worker error with its identifier and message;
/// MATLAB:spmd:NestedSPMD inside a worker.
Flow run_spmd(Interpreter& in, const ast::SpmdStmt& s, const std::shared_ptr<Pool>& pool);

/// Worker side of a kSpmdBlock request (after the kind byte).
void run_spmd_block(WorkerState& w, ValueReader& req, ValueWriter& out);
/// Worker side of kGetVariable / kSetVariable / kClearVariable.
void composite_request(WorkerState& w, uint8_t kind, ValueReader& req, ValueWriter& out);

/// A Composite: one value per worker of a pool, held by the workers under `key` (the name of
/// the variable an spmd block assigned). c{k} reads worker k's value (MATLAB:Composite:
/// NoValue-style error when worker k has none), c{k} = v sets it; numel(c) is the pool size.
class Composite : public ValueObject {
public:
  Composite(std::shared_ptr<Pool> pool, std::string key, std::vector<bool> defined)
      : pool_(std::move(pool)), key_(std::move(key)), defined_(std::move(defined)) {}
  std::string class_name() const override { return "Composite"; }
  Dims dims() const override { return Dims(1, static_cast<int64_t>(defined_.size())); }
  const std::string& key() const { return key_; }
  const std::shared_ptr<Pool>& pool() const { return pool_; }
  bool defined(int k) const { return k >= 1 && k <= static_cast<int>(defined_.size()) && defined_[k - 1]; }

  bool paren_read(std::span<const Value> idx, Value& out) const override;
  bool paren_assign(std::span<const Value> idx, const Value& rhs, Value& self) override;
  bool get_property(std::string_view, Value&) const override { return false; }
  bool brace_read(std::span<const Value> idx, std::vector<Value>& out) const override;
  bool brace_assign(std::span<const Value> idx, const Value& rhs, Value& self) override;
  bool display_lines(std::vector<std::string>& lines) const override;

private:
  int worker_index(std::span<const Value> idx) const;
  std::shared_ptr<Pool> pool_;
  std::string key_;
  std::vector<bool> defined_;
};

/// The spmd channel of the request a worker is handling (null on the client and outside spmd).
SpmdChannel* current_channel();

/// Registers spmdIndex, spmdSize, labindex, numlabs, spmdSend, spmdReceive, spmdProbe,
/// spmdBroadcast, spmdReduce, spmdCat, spmdBarrier.
void register_spmd_builtins(Registry& r);

}  // namespace matfuse::parallel
