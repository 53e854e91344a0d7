// The interactive prompt (and piped input read as the prompt would).
#pragma once

#include "interp/interp.h"
#include "runtime/session.h"

namespace matfuse::cli {

/// Reads statements from stdin and runs them in the base workspace until end of input or
/// `exit`. A block (for/if/while/switch/try/function), an open bracket or a `...` line continues
/// on the next lines until it is complete, as at MATLAB's prompt.
/// - stdin a terminal: prompt ">> ", line editing, completion of variables, struct fields,
///   functions and files (TAB), history kept in $MATFUSE_HISTORY or ~/.matfuse_history; an
///   error is reported and the prompt continues; Ctrl-C while typing discards the input, while
///   running stops the statement ("Operation terminated by user") with the workspace kept.
/// - stdin not a terminal (piped): no prompt; the first error or interrupt ends the run with
///   its status (1, or 130), as a script would.
/// Returns the exit status (0 at end of input, or the status of `exit(n)`).
int repl(Interpreter& in, Session& s);

}  // namespace matfuse::cli
