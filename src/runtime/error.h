// Errors: two channels (DESIGN.md decision 14).
//
// 1. MatlabError: a MATLAB-visible error with an identifier ("MATLAB:undefinedFunction",
//    "matfuse:notAvailable", ...), a message, and a stack of (file, function, line) frames filled
//    in by the interpreter as the error unwinds. `try/catch err` exposes these as err.identifier,
//    err.message and err.stack.
// 2. MF_ASSERT: an internal invariant. A failure throws InternalError, which the CLI reports as
//    "matfuse internal error" with exit status 2; it never aborts the process.
#pragma once

#include <cstdio>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace matfuse {

struct StackFrame {
  std::string file;      ///< script or function file path ("" for -e / REPL input)
  std::string name;      ///< function name, or script name
  int line = 0;          ///< 1-based line of the failing statement
  int column = 0;        ///< 1-based column, 0 when unknown
};

class MatlabError : public std::exception {
public:
  MatlabError(std::string identifier, std::string message)
      : identifier_(std::move(identifier)), message_(std::move(message)) {}

  const std::string& identifier() const { return identifier_; }
  const std::string& message() const { return message_; }
  std::vector<StackFrame>& stack() { return stack_; }
  const std::vector<StackFrame>& stack() const { return stack_; }
  /// Name of the builtin or function that raised it ("Error using NAME"), may be empty.
  std::string& raised_by() { return raised_by_; }
  const std::string& raised_by() const { return raised_by_; }
  /// Errors added with MException's addCause (getReport prints them under "Caused by:").
  std::vector<MatlabError>& causes() { return causes_; }
  const std::vector<MatlabError>& causes() const { return causes_; }

  const char* what() const noexcept override { return message_.c_str(); }

private:
  std::string identifier_;
  std::string message_;
  std::string raised_by_;
  std::vector<StackFrame> stack_;
  std::vector<MatlabError> causes_;
};

/// Formats like printf and throws MatlabError(identifier, message).
[[noreturn]] void throw_error(const char* identifier, const char* fmt, ...)
    __attribute__((format(printf, 2, 3)));

class InternalError : public std::logic_error {
public:
  using std::logic_error::logic_error;
};

[[noreturn]] void internal_assert_failed(const char* cond, const char* file, int line,
                                         const std::string& msg);

}  // namespace matfuse

#define MF_ASSERT(cond, msg)                                                      \
  do {                                                                            \
    if (!(cond)) ::matfuse::internal_assert_failed(#cond, __FILE__, __LINE__, msg); \
  } while (0)
