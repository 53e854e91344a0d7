// Session: process-wide interpreter state that builtins read and write.
#pragma once

#include <chrono>
#include <cstdint>
#include <map>
#include <ostream>
#include <string>

#include "runtime/rng.h"

namespace matfuse {

enum class NumericFormat : uint8_t { Short, Long, ShortG, LongG, ShortE, LongE, Rat, Hex };

struct Session {
  Session();
  std::ostream* out;  ///< stdout of the script (std::cout by default; tests redirect)
  std::ostream* err;  ///< stderr
  NumericFormat format = NumericFormat::Short;
  bool compact = false;  ///< format compact (no blank lines around displays)
  RngState rng;
  std::chrono::steady_clock::time_point tic_time;
  bool tic_called = false;
  /// Warning switches by identifier ("all" is the global switch); true = on.
  std::map<std::string, bool> warnings;
  std::string last_warning_id, last_warning_msg;
  std::string last_error_id, last_error_msg;
};

}  // namespace matfuse
