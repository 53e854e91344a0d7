// Shared parts of the libFuzzer targets (tests/fuzz/fuzz_*.cc; built with clang's
// -fsanitize=fuzzer,address,undefined when MATFUSE_FUZZ is on, see tests/fuzz/CMakeLists.txt).
//
// Each target feeds its input to one reader of untrusted text or bytes. An input may make
// matfuse raise a MATLAB error (that is the expected outcome for most inputs); it must never
// crash, trip a sanitizer, throw anything but MatlabError, hang, or allocate without bound.
// Memory: MATFUSE_MAX_ARRAY_BYTES (set here to 256 MB unless given) caps every array, and
// libFuzzer's -rss_limit_mb caps the process. Time: the interpreter's statement limit and
// libFuzzer's -timeout.
#pragma once

#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <exception>
#include <filesystem>
#include <sstream>
#include <string>
#include <string_view>

#include "interp/interp.h"
#include "runtime/error.h"
#include "runtime/session.h"

namespace matfuse::fuzz {

/// Process-wide setup: a private temporary folder as the current folder, the array cap, and
/// capture off-threshold defaults left as they are.
inline void init_once() {
  static bool done = [] {
    setenv("MATFUSE_MAX_ARRAY_BYTES", "268435456", 0);
    char tmpl[] = "/tmp/matfuse_fuzz_XXXXXX";
    if (char* d = mkdtemp(tmpl)) std::filesystem::current_path(d);
    return true;
  }();
  (void)done;
}

/// An interpreter whose output goes to strings, with a statement budget.
struct Sandbox {
  std::ostringstream out, err;
  Session session;
  Interpreter in{session};
  explicit Sandbox(int64_t statements = 20000) {
    session.out = &out;
    session.err = &err;
    in.set_statement_limit(statements);
  }
  /// Runs code; MATLAB errors are expected outcomes, anything else aborts (a finding).
  void run(std::string_view code) {
    try {
      in.run_text(code);
    } catch (const MatlabError&) {
    } catch (const std::exception& e) {
      std::fprintf(stderr, "non-MATLAB exception: %s\n", e.what());
      std::abort();
    }
  }
};

/// True when the text calls something that touches the process or the machine (files outside
/// the sandbox, the shell, the environment, exiting, blocking on stdin).
inline bool unsafe_text(std::string_view s) {
  static const char* kWords[] = {"system", "unix", "dos", "!", "exit", "quit", "cd", "delete",
                                 "rmdir", "mkdir", "movefile", "copyfile", "setenv", "input",
                                 "keyboard", "pause", "diary", "save", "write", "fopen",
                                 "path", "clc", "dbstop", "evalin",
                                 "assignin", "rng('shuffle"};
  for (const char* w : kWords)
    if (s.find(w) != std::string_view::npos) return true;
  return false;
}

}  // namespace matfuse::fuzz
