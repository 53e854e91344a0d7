// Liveness of variables: which frame slots may still be read at each statement of a body.
//
// Used when a lazy value is forced (accel/capture/lazy.h, set_live_values_hook): pending values held
// only by variables that are dead at the statement being executed are not co-evaluated, so
// they are never written to memory when the program never reads them again.
//
// Semantics
// - Standard backward dataflow over the structured AST (loops iterate to a fixpoint; break,
//   continue and return jump to the loop exit, the loop head and the body exit; a try body may
//   jump to its catch block from any statement).
// - live_in(stmt) is what may still be read when a value is forced while stmt executes. For a
//   compound statement (if, for, while, switch, try) and for command syntax: every slot read by
//   it or later. For a simple statement (expression, assignment): the slots live after it that
//   it does not overwrite, plus the slots it reads more than once. A slot read once by the
//   statement is taken as consumed by the evaluation that forces (`c = sum(y)` forces inside
//   sum, whose operand already holds y's value); when it is in fact read after the force, the
//   only cost is recomputing what it shares with the forced value.
// - Every identifier occurrence reads its slot (anonymous functions read the names they
//   capture; command-syntax words read the variables they name), except a plain identifier
//   that is an assignment target, which kills it. `v(i) = ...` and `s.f = ...` read v and s.
// - A body that may touch the workspace by name (eval, evalin, assignin, exist, who, whos, save,
//   load, clear, inputname, evalc, ...), calls a script (which shares the workspace) or holds
//   nested functions is `unknown`: every slot is live everywhere.
// - The answer only steers co-evaluation, never results: a value wrongly taken for dead is
//   still computed when it is read.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "lang/ast.h"

namespace matfuse {
namespace accel {
struct Node;
}

struct CodeUnit;
struct Layout;

/// A fixed-size set of slots.
struct SlotSet {
  std::vector<uint64_t> words;
  explicit SlotSet(size_t n = 0) : words((n + 63) / 64, 0) {}
  bool test(int k) const {
    return words[static_cast<size_t>(k) >> 6] >> (static_cast<size_t>(k) & 63) & 1u;
  }
  void set(int k) { words[static_cast<size_t>(k) >> 6] |= uint64_t{1} << (static_cast<size_t>(k) & 63); }
  void reset(int k) {
    words[static_cast<size_t>(k) >> 6] &= ~(uint64_t{1} << (static_cast<size_t>(k) & 63));
  }
  /// this |= o; true when it grew.
  bool merge(const SlotSet& o);
  bool operator==(const SlotSet& o) const { return words == o.words; }
};

/// Liveness of one body (function body or script), slots of one layout.
struct Liveness {
  const Layout* layout = nullptr;  ///< layout the slots refer to
  uint64_t generation = 0;         ///< interpreter generation the script lookups were made at
  size_t nslots = 0;               ///< slots analysed; later slots count as live
  bool unknown = false;            ///< every slot live everywhere
  std::unordered_map<const ast::Stmt*, SlotSet> live_in;
  /// Whether slot may be read at or after stmt; true when stmt is not part of the body.
  bool is_live(const ast::Stmt* stmt, int slot) const;
};

/// Options of analyze_liveness.
struct LivenessInput {
  size_t nslots = 0;                      ///< slots of the layout (identifiers' slots are below)
  std::vector<int> live_at_exit;          ///< slots read after the body (function outputs)
  bool all_live_at_exit = false;          ///< everything is read after the body
  const Layout* layout = nullptr;         ///< names of the slots (command-syntax words)
  /// Whether a name that is never assigned in the body resolves to a script (may be null).
  std::function<bool(const std::string&)> is_script;
};

/// Calls slot(k) for every variable slot expression e reads (identifiers, the captures of an
/// anonymous function; -1 for an unresolved name) and, when given, name(n) for every name it
/// uses (identifiers, function handles, captured names). e may be null.
void for_each_read(const ast::Expr* e, const std::function<void(int)>& slot,
                   const std::function<void(const std::string&)>& name = {});
/// The variable an assignment target writes: the Ident at the root of an Index/Field chain, or
/// null (`~`, or anything else).
const ast::IdentExpr* assignment_root(const ast::Expr* t);

/// Analyses a resolved body (identifiers carry their slots). Never throws for valid ASTs.
std::unique_ptr<Liveness> analyze_liveness(const ast::Block& body, const LivenessInput& in,
                                           bool has_nested_functions = false);

class Interpreter;

/// Liveness of a user function's body (cached in the unit; outputs live at exit).
const Liveness* function_liveness(Interpreter& in, CodeUnit& unit, const ast::FunctionDef& def,
                                  const Layout& layout);
/// Liveness of a script run as the program (cached in the unit; nothing live at exit).
const Liveness* program_script_liveness(Interpreter& in, CodeUnit& unit, const Layout& layout);

/// The liveness hook of the accel layer for the interpreter running on this thread: fills dead
/// with the nodes of lazy values held only by dead variables of the active frames (globals,
/// persistents, frames without liveness and values inside cells, structs and anonymous
/// function captures of live variables count as live). False when no interpreter is active.
bool collect_dead_lazy_values(std::unordered_set<const accel::Node*>& dead);

/// Makes `in` the interpreter the hook inspects on this thread while alive (nested: innermost).
class ActiveInterpreterScope {
public:
  explicit ActiveInterpreterScope(Interpreter& in);
  ~ActiveInterpreterScope();
  ActiveInterpreterScope(const ActiveInterpreterScope&) = delete;
  ActiveInterpreterScope& operator=(const ActiveInterpreterScope&) = delete;

private:
  Interpreter* prev_;
};

}  // namespace matfuse
