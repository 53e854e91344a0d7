#include "runtime/error.h"

#include <cstdarg>
#include <cstdio>
#include <string>

namespace matfuse {

[[noreturn]] void throw_error(const char* identifier, const char* fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  va_list ap2;
  va_copy(ap2, ap);
  int n = std::vsnprintf(nullptr, 0, fmt, ap);
  va_end(ap);
  std::string msg(n > 0 ? static_cast<size_t>(n) : 0, '\0');
  if (n > 0) std::vsnprintf(msg.data(), msg.size() + 1, fmt, ap2);
  va_end(ap2);
  throw MatlabError(identifier, std::move(msg));
}

[[noreturn]] void internal_assert_failed(const char* cond, const char* file, int line,
                                         const std::string& msg) {
  throw InternalError(std::string(file) + ":" + std::to_string(line) + ": assertion '" + cond +
                      "' failed: " + msg);
}

}  // namespace matfuse
