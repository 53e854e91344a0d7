// parfor-loops: the client side (classification once per loop, serial run without a pool, the
// split into static iteration blocks and the gathering of sliced outputs and reductions) and
// the worker side (running one block).
#pragma once

#include <string>
#include <string_view>

#include "interp/interp.h"
#include "parallel/classify.h"
#include "parallel/pool.h"
#include "runtime/serialize.h"

namespace matfuse::parallel {

/// Runs parfor-loop f in in's current frame. pool null (or the loop's M = 0): the iterations
/// run serially in the client's workspace, in increasing order, with parfor's semantics
/// (classification errors, temporaries and the loop variable restored after the loop).
/// Otherwise the range is cut into min(size, M, iterations) contiguous blocks, block b goes to
/// worker b with the broadcast variables and its slices of the sliced inputs, and the sliced
/// outputs and reductions come back and are combined in block order (so results do not depend
/// on timing). Errors: classify_parfor's, check_parfor_range's, and the first (lowest block)
/// error a worker raised, with its identifier and message.
Flow run_parfor(Interpreter& in, const ast::ForStmt& f, Pool* pool);

/// Worker side of a kParforBlock request (after the kind byte): runs the block and writes the
/// reply (status, output, sliced outputs, reductions) to out.
void run_parfor_block(WorkerState& w, ValueReader& req, ValueWriter& out);

/// Writes e as an error reply (status 1, output text, identifier, message, stack).
void write_error_reply(ValueWriter& out, const std::string& output, const MatlabError& e);
/// Reads the status byte and output text of a reply; prints the output to session.out; raises
/// the worker's error when status is 1.
void read_reply_head(ValueReader& r, Session& session);

/// The unit and statement a request names: parses (and caches) the unit's source on the worker
/// and pushes a frame of the layout the statement is resolved in. Used by parfor and spmd.
struct WorkerFrame {
  WorkerFrame(WorkerState& w, const std::string& path, const std::string& source, int line,
              int column, ast::StmtKind kind);
  ~WorkerFrame();
  WorkerFrame(const WorkerFrame&) = delete;
  WorkerFrame& operator=(const WorkerFrame&) = delete;
  const ast::Stmt* stmt = nullptr;
  Frame frame;
  /// Slot of name in the frame's layout (added when absent).
  int slot(const std::string& name);

private:
  Interpreter& in_;
  Frame* saved_;
};

}  // namespace matfuse::parallel
