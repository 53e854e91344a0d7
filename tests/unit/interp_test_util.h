// Helpers for interpreter tests: run code with captured output, temp folders for .m files.
#pragma once

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>
#include <string>

#include "interp/interp.h"
#include "runtime/session.h"

namespace matfuse::test {

/// An interpreter whose output goes to a string.
struct Snippet {
  std::ostringstream out, err;
  Session session;
  Interpreter in{session};
  Snippet() {
    session.out = &out;
    session.err = &err;
  }
  /// Runs code; returns its stdout text (and clears the buffer).
  std::string operator()(const std::string& code) {
    out.str("");
    in.run_text(code);
    return out.str();
  }
  /// Runs code expected to fail; returns the error.
  MatlabError fails(const std::string& code) {
    try {
      in.run_text(code);
    } catch (const MatlabError& e) {
      return e;
    }
    ADD_FAILURE() << "no error from: " << code;
    return MatlabError("", "");
  }
  double num(const std::string& name) {
    const Value* v = in.base_var(name);
    if (!v) {
      ADD_FAILURE() << "no variable " << name;
      return 0;
    }
    return v->to_double();
  }
};

/// A temporary folder removed at scope exit.
struct TempDir {
  std::filesystem::path path;
  TempDir() {
    std::random_device rd;
    path = std::filesystem::temp_directory_path() /
           ("matfuse_interp_" + std::to_string(rd()) + std::to_string(rd()));
    std::filesystem::create_directories(path);
  }
  ~TempDir() {
    std::error_code ec;
    std::filesystem::remove_all(path, ec);
  }
  std::string write(const std::string& name, const std::string& text) const {
    std::ofstream(path / name) << text;
    return (path / name).string();
  }
};

}  // namespace matfuse::test
