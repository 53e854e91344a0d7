// Command-window builtins: clc, diary, more, beep, exit, quit.
//
// - clc: clears the terminal (ANSI "erase display" and home) when stdout is a terminal;
//   otherwise nothing (MATLAB's -batch does the same).
// - diary, diary on|off, diary FILE, diary(FILE): appends stdout, stderr and the commands typed
//   at the prompt to FILE (default 'diary' in the current folder). Output written through the
//   C++ streams std::cout/std::cerr is copied (every builtin writes through them).
// - more on|off, more(n): MATLAB's paging switch. Accepted and recorded (get with
//   `s = more`, a matfuse extension returning 'on'/'off'); output is not paged.
// - beep, beep on|off, s = beep: writes the terminal bell to stderr when it is a terminal and
//   beeping is on.
// - exit, quit, exit(status), quit(status), exit force, exit(status, 'force'): ends matfuse
//   with that status (0 by default) from anywhere (scripts, functions, the prompt, -e). A
//   pending `try` does not catch it. Errors: MATLAB:quit:InvalidInput for a status that is not
//   an integer scalar, an option other than 'force' or 'cancel'.
#include "builtins/console.h"

#include <unistd.h>

#include <cmath>
#include <fstream>
#include <iostream>
#include <memory>
#include <streambuf>
#include <string>

#include "builtins/registry.h"
#include "runtime/interrupt.h"

namespace matfuse {

namespace {

/// A streambuf that writes to `primary` and copies every byte to `copy`.
class TeeBuf : public std::streambuf {
public:
  TeeBuf(std::streambuf* primary, std::streambuf* copy) : primary_(primary), copy_(copy) {}
  std::streambuf* primary() const { return primary_; }

protected:
  int overflow(int c) override {
    if (c == traits_type::eof()) return traits_type::not_eof(c);
    copy_->sputc(static_cast<char>(c));
    return primary_->sputc(static_cast<char>(c));
  }
  std::streamsize xsputn(const char* s, std::streamsize n) override {
    copy_->sputn(s, n);
    return primary_->sputn(s, n);
  }
  int sync() override {
    copy_->pubsync();
    return primary_->pubsync();
  }

private:
  std::streambuf* primary_;
  std::streambuf* copy_;
};

struct Diary {
  std::string file = "diary";
  std::unique_ptr<std::ofstream> out;
  std::unique_ptr<TeeBuf> tee_out, tee_err;
};

Diary& diary() {
  static Diary d;
  return d;
}

struct ConsoleState {
  bool more = false;
  bool beep = true;
};

ConsoleState& console() {
  static ConsoleState s;
  return s;
}

void diary_on() {
  Diary& d = diary();
  if (d.out) return;
  auto f = std::make_unique<std::ofstream>(d.file, std::ios::app | std::ios::binary);
  if (!*f)
    throw_error("MATLAB:diary:cannotOpen", "Unable to open file '%s' for writing.",
                d.file.c_str());
  std::cout.flush();
  std::cerr.flush();
  d.out = std::move(f);
  d.tee_out = std::make_unique<TeeBuf>(std::cout.rdbuf(), d.out->rdbuf());
  d.tee_err = std::make_unique<TeeBuf>(std::cerr.rdbuf(), d.out->rdbuf());
  std::cout.rdbuf(d.tee_out.get());
  std::cerr.rdbuf(d.tee_err.get());
}

void diary_off() {
  Diary& d = diary();
  if (!d.out) return;
  std::cout.flush();
  std::cerr.flush();
  std::cout.rdbuf(d.tee_out->primary());
  std::cerr.rdbuf(d.tee_err->primary());
  d.tee_out.reset();
  d.tee_err.reset();
  d.out->close();
  d.out.reset();
}

std::string lower(std::string s) {
  for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

Outputs bi_diary(CallContext&, Args args, int nargout) {
  check_nargin(args, 0, 1);
  check_nargout(nargout, 0);
  if (args.empty()) {
    if (diary_is_on()) diary_off();
    else diary_on();
    return {};
  }
  const std::string a = args[0].to_text("diary option or file name");
  const std::string la = lower(a);
  if (la == "on") {
    diary_on();
  } else if (la == "off") {
    diary_off();
  } else {
    if (a.empty())
      throw_error("MATLAB:diary:invalidInput", "Diary file name must not be empty.");
    diary_off();
    diary().file = a;
    diary_on();
  }
  return {};
}

Outputs bi_clc(CallContext& ctx, Args args, int nargout) {
  check_nargin(args, 0, 0);
  check_nargout(nargout, 0);
  ctx.session().out->flush();
  std::cout.flush();
  if (isatty(STDOUT_FILENO)) std::cout << "\x1b[H\x1b[2J\x1b[3J" << std::flush;
  return {};
}

/// on/off switch argument; returns true for "on". MATLAB:<fn>:InvalidInput otherwise.
bool on_off(const Value& v, const char* fn) {
  const std::string a = lower(v.to_text("option"));
  if (a == "on") return true;
  if (a == "off") return false;
  throw_error("MATLAB:InputParser:ArgumentFailedValidation",
              "Invalid input argument to %s. Expected 'on' or 'off'.", fn);
}

Outputs bi_more(CallContext&, Args args, int nargout) {
  check_nargin(args, 0, 1);
  check_nargout(nargout, 1);
  if (args.empty()) {
    if (nargout > 0) return {Value::from_chars(console().more ? "on" : "off")};
    console().more = !console().more;
    return {};
  }
  if (args[0].is_text()) {
    console().more = on_off(args[0], "more");
  } else {
    // more(n): page size in lines; a positive integer turns paging on.
    double n = args[0].to_double("page size");
    if (!(n >= 1) || n != std::floor(n))
      throw_error("MATLAB:more:invalidPageSize", "Page size must be a positive integer.");
    console().more = true;
  }
  return {};
}

Outputs bi_beep(CallContext&, Args args, int nargout) {
  check_nargin(args, 0, 1);
  check_nargout(nargout, 1);
  if (!args.empty()) {
    console().beep = on_off(args[0], "beep");
    return {};
  }
  if (nargout > 0) return {Value::from_chars(console().beep ? "on" : "off")};
  if (console().beep && isatty(STDERR_FILENO)) std::cerr << '\a' << std::flush;
  return {};
}

Outputs bi_exit(CallContext&, Args args, int nargout) {
  check_nargin(args, 0, 2);
  check_nargout(nargout, 0);
  int status = 0;
  for (const Value& a : args) {
    if (a.is_text()) {
      const std::string o = lower(a.to_text());
      if (o != "force" && o != "cancel")
        throw_error("MATLAB:quit:InvalidInput",
                    "Invalid option '%s'. Valid options are 'force' and 'cancel'.",
                    a.to_text().c_str());
      if (o == "cancel")
        throw_error("MATLAB:quit:CancelNotInFinish",
                    "quit cancel can be used only in a finish.m script.");
      continue;
    }
    if (!a.is_numeric() || a.numel() != 1)
      throw_error("MATLAB:quit:InvalidInput", "Exit status must be an integer scalar.");
    double d = a.to_double("exit status");
    if (!std::isfinite(d) || d != std::floor(d))
      throw_error("MATLAB:quit:InvalidInput", "Exit status must be an integer scalar.");
    status = static_cast<int>(static_cast<int64_t>(d) & 0xff);
  }
  throw ExitRequest{status};
}

}  // namespace

bool diary_is_on() { return diary().out != nullptr; }

void diary_close() { diary_off(); }

void diary_record_input(std::string_view line, bool continuation) {
  Diary& d = diary();
  if (!d.out) return;
  std::cout.flush();
  *d.out << (continuation ? "" : ">> ") << line << "\n";
  d.out->flush();
}

void register_console(Registry& r) {
  r.add("clc", bi_clc);
  r.add("diary", bi_diary);
  r.add("more", bi_more);
  r.add("beep", bi_beep);
  r.add("exit", bi_exit);
  r.add("quit", bi_exit);
}

}  // namespace matfuse
