// The SIGINT handler (see run_guarded.h and runtime/interrupt.h).
#include <signal.h>
#include <unistd.h>

#include "cli/run_guarded.h"
#include "runtime/interrupt.h"

namespace matfuse::cli {

namespace {

void on_sigint(int) {
  if (request_interrupt() >= 3) {
    // Nothing has checked for the first two: end the process (async-signal-safe calls only).
    static const char msg[] = "\nOperation terminated by user\n";
    ssize_t n = write(STDERR_FILENO, msg, sizeof msg - 1);
    (void)n;
    _exit(130);
  }
}

}  // namespace

void install_interrupt_handler() {
  struct sigaction sa {};
  sa.sa_handler = on_sigint;
  sigemptyset(&sa.sa_mask);
  sa.sa_flags = 0;  // no SA_RESTART: a blocking read at the prompt returns EINTR
  sigaction(SIGINT, &sa, nullptr);
}

}  // namespace matfuse::cli
