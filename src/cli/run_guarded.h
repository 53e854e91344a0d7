// Running one piece of user input with MATLAB's reporting (the prompt, -e, scripts, Jupyter).
#pragma once

#include <iostream>
#include <new>
#include <string>

#include "interp/interp.h"
#include "runtime/interrupt.h"
#include "runtime/session.h"

namespace matfuse::cli {

/// How a run ended. status: the process exit status it implies (0 ok, 1 MATLAB error or out of
/// memory, 2 internal error, 130 interrupted (128 + SIGINT), or the `exit(n)` status).
struct RunStatus {
  enum Kind { Ok, Error, Interrupted, Exit } kind = Ok;
  int status = 0;
};

/// Prints an error to stderr after flushing stdout so that the two interleave correctly.
inline void report(Session& s, const std::string& text) {
  s.out->flush();
  std::cout.flush();
  std::cerr << text;
  std::cerr.flush();
}

/// Runs f, reporting an uncaught error in MATLAB's layout and an interrupt as MATLAB's
/// "Operation terminated by user" (on stderr).
template <class F>
RunStatus run_guarded(Session& s, F&& f) {
  try {
    f();
    return {};
  } catch (const MatlabError& e) {
    report(s, format_error(e));
    return {RunStatus::Error, 1};
  } catch (const ExitRequest& e) {
    s.out->flush();
    return {RunStatus::Exit, e.status};
  } catch (const Interrupted& e) {
    report(s, interrupt_message(e) + "\n");
    return {RunStatus::Interrupted, 130};
  } catch (const InternalError& e) {
    report(s, std::string("matfuse internal error: ") + e.what() + "\n");
    return {RunStatus::Error, 2};
  } catch (const std::bad_alloc&) {
    report(s, "Out of memory.\n");
    return {RunStatus::Error, 1};
  } catch (const std::exception& e) {
    report(s, std::string("matfuse internal error: ") + e.what() + "\n");
    return {RunStatus::Error, 2};
  }
}

/// Installs the SIGINT handler: each Ctrl-C requests an interrupt (runtime/interrupt.h); the
/// third one not yet handled ends the process with status 130 (a builtin that never checks).
void install_interrupt_handler();

}  // namespace matfuse::cli
