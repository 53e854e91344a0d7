#include "runtime/interrupt.h"

#include <chrono>
#include <cmath>
#include <thread>

namespace matfuse {

namespace detail {
std::atomic<int> g_interrupt_count{0};

void throw_interrupted() {
  clear_interrupt();
  throw Interrupted{};
}
}  // namespace detail

void check_interrupt_at(const std::string& name, int line) {
  if (!interrupt_pending()) return;
  clear_interrupt();
  Interrupted e;
  if (!name.empty()) e.where = name + " (line " + std::to_string(line) + ")";
  throw e;
}

void interruptible_sleep(double seconds) {
  using clock = std::chrono::steady_clock;
  const bool forever = std::isinf(seconds);
  const auto end = forever ? clock::time_point::max()
                           : clock::now() + std::chrono::duration_cast<clock::duration>(
                                                std::chrono::duration<double>(seconds));
  while (true) {
    check_interrupt();
    const auto now = clock::now();
    if (!forever && now >= end) return;
    auto step = std::chrono::milliseconds(20);
    if (!forever && end - now < step) {
      std::this_thread::sleep_for(end - now);
      continue;
    }
    std::this_thread::sleep_for(step);
  }
}

std::string interrupt_message(const Interrupted& e) {
  if (e.where.empty()) return "Operation terminated by user";
  return "Operation terminated by user during " + e.where;
}

}  // namespace matfuse
