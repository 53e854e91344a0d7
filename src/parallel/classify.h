// Classification of the variables of a parfor-loop (MATLAB's Parallel Computing Toolbox rules,
// "Classification of Variables in parfor-Loops" / "Troubleshoot Variables in parfor-Loops").
//
// Every name the body uses as a variable gets exactly one class:
// - loop:      the loop index; never assigned in the body.
// - sliced:    indexed as x(..., i+k, ...) / x{...} where exactly one subscript is the loop index
//              alone or plus/minus a literal or broadcast offset, and every other subscript is
//              ':', 'end', a number, a broadcast variable or the index of a for-loop nested in
//              the body; every occurrence uses the same subscript list and bracket. Input when
//              read, output when assigned (both is allowed). Never used unindexed.
// - broadcast: defined before the loop, read in the body, never assigned there.
// - reduction: only used in statements X = X op expr / X = expr op X (op: + - * .* & |, with
//              + and - chains such as X = X + a - b), X = [X, expr] / [expr, X] / [X; expr] /
//              [expr; X], or X = f(X, expr) / f(expr, X) for a function f (min, max, union ...),
//              all of one kind; expr does not use X.
// - temporary: assigned as a whole (X = ..., a nested for-loop's index) in the body and not a
//              reduction; cleared before each iteration and not sent back: after the loop it
//              holds its value from before the loop.
// A name that is neither defined before the loop nor assigned in the body is a function.
//
// Errors (MatlabError, raised by classify_parfor; the interpreter adds the parfor's line):
//   MATLAB:parfor:UnclassifiedVariable  "The variable X in a parfor cannot be classified." and
//                                       a reason (an indexed assignment that is not sliced, a
//                                       reduction variable read elsewhere, ...)
//   MATLAB:parfor:LoopVariableAssigned  the loop index is assigned in the body
//   MATLAB:parfor:IllegalStatement      break, return, global or persistent in the body
//   MATLAB:parfor:TransparencyViolation eval, evalin, assignin, load without outputs, clear or
//                                       save in the body (they use the workspace by name)
#pragma once

#include <functional>
#include <map>
#include <string>
#include <vector>

#include "lang/ast.h"

namespace matfuse::parallel {

enum class VarClass { Loop, Sliced, Broadcast, Reduction, Temporary };

/// How partial results of a reduction variable combine: acc = combine(acc, partial).
enum class ReductionKind {
  Plus,       ///< X = X + e, X = e + X, X = X - e (partials start at 0: acc + partial)
  Times,      ///< X = X * e (matrix product; acc * partial)
  TimesLeft,  ///< X = e * X (partial * acc)
  ElemTimes,  ///< X = X .* e / e .* X (starts at 1)
  And,        ///< X = X & e (starts at true)
  Or,         ///< X = X | e (starts at false)
  HorzRight,  ///< X = [X, e] (starts at []; [acc, partial])
  HorzLeft,   ///< X = [e, X] ([partial, acc])
  VertRight,  ///< X = [X; e]
  VertLeft,   ///< X = [e; X]
  FnRight,    ///< X = f(X, e): f(acc, partial); the first application on a worker is X = e
  FnLeft,     ///< X = f(e, X): f(partial, acc)
};

/// One reduction statement whose first application on a worker assigns `other` alone (the
/// function forms, which have no identity value).
struct ReductionSite {
  const ast::AssignStmt* stmt = nullptr;
  const ast::Expr* other = nullptr;
};

/// A sliced variable: the position (0-based) of the loop-index subscript among nsubs
/// subscripts, the constant offset of the index there (i+offset), or the broadcast variable
/// whose value is the offset (offset_var non-empty).
struct SliceInfo {
  int position = 0;
  int nsubs = 1;
  double offset = 0;
  std::string offset_var;
  bool brace = false;
  bool input = false;   ///< read in the body
  bool output = false;  ///< assigned in the body
};

struct ReductionInfo {
  ReductionKind kind = ReductionKind::Plus;
  std::string function;  ///< FnRight/FnLeft: the function's name
  std::vector<ReductionSite> sites;
};

/// The classification of one parfor-loop (computed once per loop statement).
struct ParforPlan {
  std::string loop_var;
  std::map<std::string, VarClass> vars;
  std::map<std::string, SliceInfo> sliced;
  std::map<std::string, ReductionInfo> reductions;
  std::vector<std::string> broadcast;   ///< sorted
  std::vector<std::string> temporaries; ///< sorted (nested for-loop indices included)
};

/// Classifies the variables of parfor `loop`. is_variable(name) says whether name is a
/// variable in the workspace where the loop runs (defined before it). Errors: see above.
ParforPlan classify_parfor(const ast::ForStmt& loop,
                           const std::function<bool(const std::string&)>& is_variable);

/// MATLAB's requirement on the range: increasing consecutive integers. values: the range's
/// elements. Error MATLAB:parfor:InvalidRange ("The range of a parfor-loop must be increasing
/// consecutive integers.") otherwise.
void check_parfor_range(const std::vector<double>& values);

}  // namespace matfuse::parallel
