// sprintf, fprintf and a small text-file table (fopen, fclose, fgetl, fgets, feof).
//
// File identifiers: 0 stdin, 1 stdout (Session::out), 2 stderr (Session::err), files opened with
// fopen get 3, 4, ... (the lowest free number), as MATLAB does.
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <map>
#include <ostream>

#include "builtins/format.h"
#include "accel/capture/lazy.h"

namespace matfuse {

namespace {

struct OpenFile {
  std::FILE* fp = nullptr;
  std::string name, mode;
  enum class Op { None, Read, Write } last = Op::None;

  /// Whether the permission allows reading ('r', or any with '+').
  bool readable() const {
    return mode.find('r') != std::string::npos || mode.find('+') != std::string::npos;
  }

  /// Prepares the stream for a read (or a write): C requires a seek between output and input
  /// on an update stream ('r+', 'w+', 'a+'), so a switch of direction seeks to where it is.
  void begin(Op op) {
    if (last != Op::None && last != op) std::fseek(fp, 0, SEEK_CUR);
    last = op;
  }
};

std::map<int, OpenFile>& file_table() {
  static std::map<int, OpenFile> table;
  return table;
}

[[noreturn]] void invalid_fid() {
  throw_error("MATLAB:FileIO:InvalidFid",
              "Invalid file identifier. Use fopen to generate a valid file identifier.");
}

OpenFile& lookup(const Value& v) {
  if (!v.is_tensor() || v.numel() != 1) invalid_fid();
  const double d = v.to_double();
  // An identifier is a small integer; anything else (1e12, NaN) is checked before the cast to
  // int, which would be undefined for it.
  if (!(d >= -1e9 && d <= 1e9) || d != std::floor(d)) invalid_fid();
  auto it = file_table().find(static_cast<int>(d));
  if (it == file_table().end()) invalid_fid();
  return it->second;
}

/// Result text as char row, or as a string scalar when the format was a string.
Value text_result(const std::string& s, bool as_string) {
  return as_string ? Value::from_string(s) : char_row(s);
}

/// sprintf(formatSpec, A1, ..., An): formatted text as a 1xN char (string when formatSpec is a
/// string). See format.h for the rules.
Outputs bi_sprintf(CallContext&, Args args, int nargout) {
  check_nargin(args, 1, SIZE_MAX);
  check_nargout(nargout, 2);
  const Value& f = args[0];
  if (!f.is_text() && !(f.is_char() && f.dims().ndims() == 2))
    throw_error("MATLAB:sprintf:invalidFormat",
                "Format must be a character vector or string scalar.");
  std::string fmt = f.is_text() ? f.to_text() : f.tensor().to_utf8();
  accel::SinkScope sink(accel::SinkReason::Display);
  std::string s = format_printf(fmt, args.subspan(1), "sprintf");
  Outputs out{text_result(s, f.is_string())};
  if (nargout >= 2) out.push_back(char_row(""));
  return out;
}

/// fprintf([fid,] formatSpec, A1, ..., An): writes to Session::out (fid 1 or none),
/// Session::err (fid 2) or a file from fopen. nbytes = fprintf(...) returns the byte count.
Outputs bi_fprintf(CallContext& ctx, Args args, int nargout) {
  check_nargin(args, 1, SIZE_MAX);
  check_nargout(nargout, 1);
  int fid = 1;
  size_t first = 0;
  if (!args[0].is_char() && !args[0].is_string()) {
    if (!args[0].is_tensor() || args[0].numel() != 1) invalid_fid();
    double d = args[0].to_double();
    if (d != static_cast<int>(d)) invalid_fid();
    fid = static_cast<int>(d);
    first = 1;
    if (args.size() < 2) return nargout >= 1 ? Outputs{Value(0.0)} : Outputs{};
  }
  std::string fmt = text_arg(args[first], "fprintf", static_cast<int>(first) + 1);
  accel::SinkScope sink(fid == 1 || fid == 2 ? accel::SinkReason::Display
                                              : accel::SinkReason::FileIO);
  std::string s = format_printf(fmt, args.subspan(first + 1), "fprintf");
  if (fid == 1) {
    *ctx.session().out << s;
    ctx.session().out->flush();
  } else if (fid == 2) {
    *ctx.session().err << s;
  } else {
    auto it = file_table().find(fid);
    if (it == file_table().end()) invalid_fid();
    it->second.begin(OpenFile::Op::Write);
    // Checked: a full disk or an I/O error is an error here, not a silent loss.
    const size_t n = std::fwrite(s.data(), 1, s.size(), it->second.fp);
    if (n != s.size() || std::ferror(it->second.fp)) {
      const int e = errno;
      std::clearerr(it->second.fp);
      throw_error("MATLAB:FileIO:WriteFailed", "Unable to write to file '%s': %s.",
                  it->second.name.c_str(), std::strerror(e ? e : EIO));
    }
  }
  if (nargout >= 1) return {Value(static_cast<double>(s.size()))};
  return {};
}

/// [fid, errmsg] = fopen(filename, permission='r'): fid >= 3, or -1 with a message.
Outputs bi_fopen(CallContext&, Args args, int nargout) {
  check_nargin(args, 1, 4);
  check_nargout(nargout, 2);
  std::string name = text_arg(args[0], "fopen", 1);
  std::string mode = args.size() >= 2 ? text_arg(args[1], "fopen", 2) : "r";
  std::string cmode;
  for (char c : mode)
    if (c != 't') cmode.push_back(c);
  if (cmode.empty() || std::string("rwa").find(cmode[0]) == std::string::npos)
    throw_error("MATLAB:fopen:InvalidPermission", "Invalid permission.");
  if (cmode.find('b') == std::string::npos) cmode += 'b';
  std::FILE* fp = std::fopen(name.c_str(), cmode.c_str());
  if (!fp) {
    Outputs out{Value(-1.0)};
    if (nargout >= 2) out.push_back(char_row("No such file or directory"));
    return out;
  }
  int fid = 3;
  while (file_table().count(fid)) ++fid;
  file_table()[fid] = OpenFile{fp, name, mode};
  Outputs out{Value(static_cast<double>(fid))};
  if (nargout >= 2) out.push_back(char_row(""));
  return out;
}

/// Flushes and closes a file; 0, or the errno of the failing step (buffered data that could
/// not be written: a full disk shows here). The stream's error flag is not consulted: writes
/// that failed were reported by fprintf (which clears it), so it can only hold a failed read,
/// which loses no data.
int close_checked(std::FILE* fp) {
  errno = 0;
  int e = 0;
  if (std::fflush(fp) != 0) e = errno ? errno : EIO;
  if (std::fclose(fp) != 0 && !e) e = errno ? errno : EIO;
  return e;
}

/// status = fclose(fid) or fclose('all'): 0 on success, -1 when buffered data could not be
/// written; without an output that failure is an error (MATLAB:FileIO:WriteFailed), so a full
/// disk never passes unnoticed.
Outputs bi_fclose(CallContext&, Args args, int nargout) {
  check_nargin(args, 1, 1);
  check_nargout(nargout, 1);
  std::string failed;
  int err = 0;
  if (args[0].is_text() && args[0].to_text() == "all") {
    for (auto& [fid, f] : file_table())
      if (int e = close_checked(f.fp); e && !err) {
        err = e;
        failed = f.name;
      }
    file_table().clear();
  } else {
    OpenFile& f = lookup(args[0]);
    err = close_checked(f.fp);
    failed = f.name;
    file_table().erase(static_cast<int>(args[0].to_double()));
  }
  if (err && nargout == 0)
    throw_error("MATLAB:FileIO:WriteFailed", "Unable to write to file '%s': %s.",
                failed.c_str(), std::strerror(err));
  return {Value(err == 0 ? 0.0 : -1.0)};
}

/// Reads one line (keeping the newline when keep_newline); -1 (double) at end of file.
Value read_line(const Value& fidv, bool keep_newline, int64_t max_chars) {
  OpenFile& f = lookup(fidv);
  if (!f.readable()) return Value(-1.0);  // opened for writing only: nothing to read
  f.begin(OpenFile::Op::Read);
  std::string line;
  int c;
  bool any = false;
  while ((max_chars < 0 || static_cast<int64_t>(line.size()) < max_chars) &&
         (c = std::fgetc(f.fp)) != EOF) {
    any = true;
    if (c == '\n') {
      if (keep_newline) line.push_back('\n');
      break;
    }
    line.push_back(static_cast<char>(c));
  }
  if (!any) return Value(-1.0);
  if (!keep_newline && !line.empty() && line.back() == '\r') line.pop_back();
  return char_row(line);
}

/// tline = fgetl(fid): next line without its newline, -1 at end of file.
Outputs bi_fgetl(CallContext&, Args args, int nargout) {
  check_nargin(args, 1, 1);
  check_nargout(nargout, 1);
  return {read_line(args[0], false, -1)};
}

/// tline = fgets(fid, nchar): next line with its newline, -1 at end of file.
Outputs bi_fgets(CallContext&, Args args, int nargout) {
  check_nargin(args, 1, 2);
  check_nargout(nargout, 1);
  int64_t n = args.size() >= 2 ? args[1].to_index("nchar") : -1;
  return {read_line(args[0], true, n)};
}

/// feof(fid): true when the position is at the end of a file opened for reading; false for a
/// file opened for writing only, where no read sets the end-of-file indicator (a read there
/// would also set the stream's error flag).
Outputs bi_feof(CallContext&, Args args, int nargout) {
  check_nargin(args, 1, 1);
  check_nargout(nargout, 1);
  OpenFile& f = lookup(args[0]);
  if (!f.readable()) return {Value::logical(false)};
  f.begin(OpenFile::Op::Read);
  int c = std::fgetc(f.fp);
  if (c != EOF) std::ungetc(c, f.fp);
  return {Value::logical(c == EOF)};
}

}  // namespace

std::FILE* fid_read_file(const Value& fid) {
  OpenFile& f = lookup(fid);
  if (!f.readable()) return nullptr;
  f.begin(OpenFile::Op::Read);
  return f.fp;
}

void register_printf(Registry& r) {
  register_scan(r);
  r.add("sprintf", bi_sprintf);
  r.add("fprintf", bi_fprintf);
  r.add("fopen", bi_fopen);
  r.add("fclose", bi_fclose);
  r.add("fgetl", bi_fgetl);
  r.add("fgets", bi_fgets);
  r.add("feof", bi_feof);
}

}  // namespace matfuse
