// Interrupts (Ctrl-C / SIGINT) and `exit`: control transfers that MATLAB's try/catch does not
// catch.
//
// One mechanism: an atomic flag that the SIGINT handler sets (request_interrupt(), async-signal-
// safe) and that long-running code polls with check_interrupt(): the interpreter before every
// statement and at every loop iteration, loop replay per chunk, long builtins per block of work,
// accel's executor while it waits for kernels, and `pause`. A pending interrupt throws
// Interrupted, which unwinds to the prompt (the workspace stays) or, in batch mode, ends the run
// with MATLAB's "Operation terminated by user" message and exit status 130 (128 + SIGINT).
// `exit`/`quit` throw ExitRequest, which unwinds everything to the command-line driver.
// Neither derives from MatlabError or std::exception, so `try/catch` and generic handlers pass
// them through (cleanup handlers written as `catch (...) { ...; throw; }` still run).
#pragma once

#include <atomic>
#include <string>

namespace matfuse {

/// A pending Ctrl-C reached a check point.
struct Interrupted {
  std::string where;  ///< "NAME (line N)" of the statement that was running, or ""
};

/// `exit(status)` / `quit(status)`.
struct ExitRequest {
  int status = 0;
};

namespace detail {
extern std::atomic<int> g_interrupt_count;
[[noreturn]] void throw_interrupted();
}  // namespace detail

/// Marks an interrupt as pending (async-signal-safe: one atomic increment). Returns the number
/// of requests not yet consumed, so a handler can escalate after repeated Ctrl-C.
inline int request_interrupt() {
  return detail::g_interrupt_count.fetch_add(1, std::memory_order_relaxed) + 1;
}
/// Whether an interrupt is pending (cheap: one relaxed atomic load).
inline bool interrupt_pending() {
  return detail::g_interrupt_count.load(std::memory_order_relaxed) != 0;
}
/// Forgets a pending interrupt (the prompt does this before reading a new line).
inline void clear_interrupt() { detail::g_interrupt_count.store(0, std::memory_order_relaxed); }
/// Throws Interrupted (consuming the request) when an interrupt is pending.
inline void check_interrupt() {
  if (interrupt_pending()) [[unlikely]]
    detail::throw_interrupted();
}
/// Throws Interrupted naming where it stopped ("NAME (line N)") when one is pending.
void check_interrupt_at(const std::string& name, int line);

/// Sleeps for `seconds` (fractions allowed; Inf waits until interrupted), waking early and
/// throwing Interrupted when an interrupt arrives. Used by `pause` and polling waits.
void interruptible_sleep(double seconds);

/// MATLAB's message for an interrupt: "Operation terminated by user during NAME (line N)" or
/// "Operation terminated by user" when the place is unknown; no trailing newline.
std::string interrupt_message(const Interrupted& e);

}  // namespace matfuse
