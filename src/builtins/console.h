// The command window's state: diary, more, beep (console.cc).
//
// The diary copies everything written to stdout and stderr, and every command typed at the
// prompt, to a file (MATLAB's `diary`). The prompt calls diary_record_input() for each line it
// reads so that the file shows the commands with their output.
#pragma once

#include <string_view>

namespace matfuse {

/// Appends ">> LINE\n" (or the continuation line as typed) to the diary when it is on.
void diary_record_input(std::string_view line, bool continuation);
/// Whether the diary is on.
bool diary_is_on();
/// Stops the diary and restores stdout/stderr (at exit).
void diary_close();

}  // namespace matfuse
