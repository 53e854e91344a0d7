// Builtins of the "misc" family: tic, toc, getenv, setenv, isequal, isequaln, error,
// warning, lastwarn, lasterr, assert, pause, computer, ispc, isunix, ismac, version, deal,
// isvarname. (exist, feval, func2str, str2func and rethrow need the workspace: src/interp.)
#include <algorithm>
#include <cctype>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <thread>

#include "builtins/format.h"
#include "builtins/misc.h"
#include "runtime/mexception.h"
#include "runtime/object_index.h"
#include "runtime/interrupt.h"
#include "runtime/stack_guard.h"

#ifndef MATFUSE_VERSION
#define MATFUSE_VERSION "0.0.0"
#endif

namespace matfuse {

// ---------------------------------------------------------------- isequal

bool values_equal(const Value& a, const Value& b, bool nan_equal) {
  // Text: char row and string scalar compare by content.
  if ((a.is_string() && b.is_char()) || (a.is_char() && b.is_string())) {
    const Value& s = a.is_string() ? a : b;
    const Value& c = a.is_string() ? b : a;
    if (s.numel() != 1 || !c.is_text() || !s.string_array()[0]) return false;
    return *s.string_array()[0] == c.to_text();
  }
  if (a.is_tensor() && b.is_tensor()) {
    if (a.is_scalar_double() && b.is_scalar_double()) {
      double x = a.scalar(), y = b.scalar();
      return x == y || (nan_equal && std::isnan(x) && std::isnan(y));
    }
    if (a.dims() != b.dims()) return false;
    Tensor ta = a.tensor(), tb = b.tensor();
    bool exact64 = (ta.cls() == ClassId::Int64 || ta.cls() == ClassId::UInt64) &&
                   ta.cls() == tb.cls() && !ta.is_complex() && !tb.is_complex();
    for (int64_t i = 0; i < ta.numel(); ++i) {
      if (exact64) {
        if (ta.cls() == ClassId::Int64 ? ta.data<int64_t>()[i] != tb.data<int64_t>()[i]
                                       : ta.data<uint64_t>()[i] != tb.data<uint64_t>()[i])
          return false;
        continue;
      }
      std::complex<double> x = ta.get_complex(i), y = tb.get_complex(i);
      if (x == y) continue;
      if (nan_equal) {
        bool re = x.real() == y.real() || (std::isnan(x.real()) && std::isnan(y.real()));
        bool im = x.imag() == y.imag() || (std::isnan(x.imag()) && std::isnan(y.imag()));
        if (re && im) continue;
      }
      return false;
    }
    return true;
  }
  if (a.kind() != b.kind()) return false;
  if (a.dims() != b.dims()) return false;
  // Cells and structs recurse: a value nested beyond the stack is MATLAB:recursionLimit.
  if (a.kind() == Value::Kind::Cell || a.kind() == Value::Kind::Struct) check_stack_depth();
  switch (a.kind()) {
    case Value::Kind::Cell:
      for (int64_t i = 0; i < a.numel(); ++i)
        if (!values_equal(a.cell()[i], b.cell()[i], nan_equal)) return false;
      return true;
    case Value::Kind::Struct: {
      const StructArray& sa = a.struct_array();
      const StructArray& sb = b.struct_array();
      std::vector<std::string> fa = sa.fields(), fb = sb.fields();
      std::sort(fa.begin(), fa.end());
      std::sort(fb.begin(), fb.end());
      if (fa != fb) return false;
      for (int64_t e = 0; e < sa.numel(); ++e)
        for (size_t f = 0; f < sa.fields().size(); ++f) {
          int g = sb.field_index(sa.fields()[f]);
          if (!values_equal(sa.get(e, static_cast<int>(f)), sb.get(e, g), nan_equal)) return false;
        }
      return true;
    }
    case Value::Kind::String:
      for (int64_t i = 0; i < a.numel(); ++i) {
        const auto& x = a.string_array()[i];
        const auto& y = b.string_array()[i];
        if (!x || !y || *x != *y) return false;
      }
      return true;
    case Value::Kind::Function: {
      const auto& fa = a.function();
      const auto& fb = b.function();
      if (fa == fb) return true;
      return !fa->name().empty() && fa->name() == fb->name();
    }
    case Value::Kind::Object: {
      if (a.object() == b.object()) return true;
      // Objects of one class with properties (classdef, MException): equal property values.
      IndexableObject* oa = as_indexable(a);
      IndexableObject* ob = as_indexable(b);
      if (!oa || !ob || a.class_name() != b.class_name()) return false;
      const std::vector<std::string> names = oa->property_names();
      if (names.empty() || names != ob->property_names()) return false;
      for (const auto& n : names) {
        Value x, y;
        if (!oa->get_property(n, x) || !ob->get_property(n, y)) return false;
        if (!values_equal(x, y, nan_equal)) return false;
      }
      return true;
    }
    default: return false;
  }
}

namespace {

Outputs isequal_impl(Args args, int nargout, bool nan_equal) {
  check_nargin(args, 2, SIZE_MAX);
  check_nargout(nargout, 1);
  for (size_t k = 1; k < args.size(); ++k)
    if (!values_equal(args[0], args[k], nan_equal)) return {Value::logical(false)};
  return {Value::logical(true)};
}

/// isequal(A, B, ...): same dims and values; class ignored among numeric/char/logical; NaN is
/// never equal; structs compare fields regardless of order.
Outputs bi_isequal(CallContext&, Args args, int nargout) { return isequal_impl(args, nargout, false); }
/// isequaln: as isequal, but NaN equals NaN.
Outputs bi_isequaln(CallContext&, Args args, int nargout) { return isequal_impl(args, nargout, true); }

// ---------------------------------------------------------------- tic / toc

int64_t now_ns() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

/// tic: starts the session stopwatch; id = tic returns a uint64 id (no session change).
Outputs bi_tic(CallContext& ctx, Args args, int nargout) {
  check_nargin(args, 0, 0);
  check_nargout(nargout, 1);
  if (nargout >= 1) {
    Tensor t = Tensor::uninit(ClassId::UInt64, Dims::scalar());
    t.mutable_data<uint64_t>()[0] = static_cast<uint64_t>(now_ns() / 1000);
    return {Value(t)};
  }
  ctx.session().tic_time = std::chrono::steady_clock::now();
  ctx.session().tic_called = true;
  return {};
}

/// toc / toc(id): elapsed seconds; printed as "Elapsed time is X seconds." when not assigned.
Outputs bi_toc(CallContext& ctx, Args args, int nargout) {
  check_nargin(args, 0, 1);
  check_nargout(nargout, 1);
  double secs;
  if (args.empty()) {
    if (!ctx.session().tic_called)
      throw_error("MATLAB:toc:callTicFirst",
                  "You must call TIC without an output argument before calling TOC without an "
                  "input argument.");
    secs = std::chrono::duration<double>(std::chrono::steady_clock::now() -
                                         ctx.session().tic_time)
               .count();
  } else {
    if (!args[0].is_tensor() || args[0].cls() != ClassId::UInt64 || args[0].numel() != 1)
      throw_error("MATLAB:toc:invalidTimerID", "Timer ID must be a uint64 scalar returned by TIC.");
    uint64_t start = args[0].tensor().data<uint64_t>()[0];
    secs = (static_cast<double>(now_ns() / 1000) - static_cast<double>(start)) * 1e-6;
  }
  if (nargout >= 1) return {Value(secs)};
  char buf[80];
  std::snprintf(buf, sizeof buf, "Elapsed time is %.6f seconds.\n", secs);
  *ctx.session().out << buf;
  return {};
}

// ---------------------------------------------------------------- environment variables

Outputs bi_getenv(CallContext&, Args args, int nargout) {
  check_nargin(args, 1, 1);
  check_nargout(nargout, 1);
  const char* v = std::getenv(text_arg(args[0], "getenv", 1).c_str());
  return {Value::from_chars(v ? v : "")};
}

Outputs bi_setenv(CallContext&, Args args, int nargout) {
  check_nargin(args, 1, 2);
  check_nargout(nargout, 0);
  std::string name = text_arg(args[0], "setenv", 1);
  std::string value = args.size() >= 2 ? text_arg(args[1], "setenv", 2) : "";
  if (name.empty() || name.find('=') != std::string::npos)
    throw_error("MATLAB:setenv:InvalidName", "Environment variable name is invalid.");
  ::setenv(name.c_str(), value.c_str(), 1);
  return {};
}

// ---------------------------------------------------------------- error / warning / assert

std::string struct_text_field(const StructArray& s, const char* name) {
  int f = s.field_index(name);
  if (f < 0 || s.numel() < 1) return "";
  const Value& v = s.get(0, f);
  return v.is_text() ? v.to_text() : "";
}

/// error(msg) | error(fmt, A...) | error(id, fmt, A...) | error(struct).
Outputs bi_error(CallContext&, Args args, int nargout) {
  check_nargin(args, 1, SIZE_MAX);
  check_nargout(nargout, 0);
  if (args[0].is_struct()) {
    const StructArray& s = args[0].struct_array();
    std::string msg = struct_text_field(s, "message");
    if (msg.empty()) return {};
    MatlabError err(struct_text_field(s, "identifier"), msg);
    throw err;
  }
  MessageParts m = parse_message_args(args, "error");
  if (m.message.empty()) return {};
  throw MatlabError(m.identifier, m.message);
}

bool warning_enabled(const Session& s, const std::string& id) {
  if (!id.empty()) {
    auto it = s.warnings.find(id);
    if (it != s.warnings.end()) return it->second;
  }
  auto all = s.warnings.find("all");
  return all == s.warnings.end() || all->second;
}

Value warning_state(const Session& s, const std::string& id) {
  StructArray st(Dims::scalar());
  st.at(0, st.add_field("identifier")) = char_row(id);
  st.at(0, st.add_field("state")) = char_row(warning_enabled(s, id) ? "on" : "off");
  return Value(st);
}

/// warning(msg) | warning(id, fmt, A...) | warning('on'|'off'|'query', id='all').
Outputs bi_warning(CallContext& ctx, Args args, int nargout) {
  check_nargout(nargout, 1);
  Session& s = ctx.session();
  if (args.empty()) return nargout >= 1 ? Outputs{warning_state(s, "all")} : Outputs{};
  if (args[0].is_struct()) return {};  // restoring a saved state: accepted, ignored
  std::string first = args[0].is_text() ? args[0].to_text() : "";
  std::string lower = first;
  for (char& c : lower) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  if ((lower == "on" || lower == "off" || lower == "query") && args.size() <= 2) {
    std::string id = args.size() == 2 ? text_arg(args[1], "warning", 2) : "all";
    Value prev = warning_state(s, id);
    if (lower != "query") {
      bool on = lower == "on";
      if (id == "all") s.warnings.clear();
      s.warnings[id] = on;
    }
    if (nargout >= 1 || lower == "query") return {prev};
    return {};
  }
  MessageParts m = parse_message_args(args, "warning");
  if (m.message.empty()) return {};
  if (!warning_enabled(s, m.identifier)) return {};
  s.last_warning_id = m.identifier;
  s.last_warning_msg = m.message;
  *s.err << "Warning: " << m.message << "\n";
  return {};
}

/// [msg, id] = lastwarn; lastwarn(msg, id) sets them.
Outputs bi_lastwarn(CallContext& ctx, Args args, int nargout) {
  check_nargin(args, 0, 2);
  check_nargout(nargout, 2);
  Session& s = ctx.session();
  // MATLAB gives '' (0x0) when no warning was recorded.
  auto text = [](const std::string& t) { return t.empty() ? Value::from_chars("") : char_row(t); };
  Outputs out{text(s.last_warning_msg), text(s.last_warning_id)};
  if (!args.empty()) {
    s.last_warning_msg = text_arg(args[0], "lastwarn", 1);
    s.last_warning_id = args.size() >= 2 ? text_arg(args[1], "lastwarn", 2) : "";
  }
  out.resize(static_cast<size_t>(std::max(nargout, 1)));
  return out;
}

/// [msg, id] = lasterr; lasterr(msg, id) sets them.
Outputs bi_lasterr(CallContext& ctx, Args args, int nargout) {
  check_nargin(args, 0, 2);
  check_nargout(nargout, 2);
  Session& s = ctx.session();
  auto text = [](const std::string& t) { return t.empty() ? Value::from_chars("") : char_row(t); };
  Outputs out{text(s.last_error_msg), text(s.last_error_id)};
  if (!args.empty()) {
    s.last_error_msg = text_arg(args[0], "lasterr", 1);
    s.last_error_id = args.size() >= 2 ? text_arg(args[1], "lasterr", 2) : "";
  }
  out.resize(static_cast<size_t>(std::max(nargout, 1)));
  return out;
}

/// assert(cond) | assert(cond, msg) | assert(cond, fmt, A...) | assert(cond, id, fmt, A...).
/// cond passes when it is nonempty and all nonzero (if-condition rules).
Outputs bi_assert(CallContext&, Args args, int nargout) {
  check_nargin(args, 1, SIZE_MAX);
  check_nargout(nargout, 0);
  const Value& c = args[0];
  if (!c.is_tensor())
    throw_error("MATLAB:assertion:LogicalScalar",
                "Assertion condition must be a logical or numeric value.");
  if (c.truthy()) return {};
  if (args.size() == 1) throw MatlabError("MATLAB:assertion:failed", "Assertion failed.");
  MessageParts m = parse_message_args(args.subspan(1), "assert");
  throw MatlabError(m.identifier, m.message);
}

// ---------------------------------------------------------------- environment and trivia

/// pause(n) sleeps n seconds; pause, pause(Inf) and pause('on'|'off') return at once (batch).
Outputs bi_pause(CallContext&, Args args, int nargout) {
  check_nargin(args, 0, 1);
  check_nargout(nargout, 1);
  if (args.empty() || args[0].is_text()) return {};
  double n = args[0].to_double("n");
  if (!(n >= 0)) throw_error("MATLAB:pause:InvalidInput", "Input must be a nonnegative real number.");
  if (std::isfinite(n)) interruptible_sleep(n);
  return {};
}

const char* computer_name() {
#if defined(_WIN32)
  return "PCWIN64";
#elif defined(__APPLE__) && defined(__aarch64__)
  return "MACA64";
#elif defined(__APPLE__)
  return "MACI64";
#else
  return "GLNXA64";
#endif
}

/// [str, maxsize, endian] = computer.
Outputs bi_computer(CallContext&, Args args, int nargout) {
  check_nargin(args, 0, 1);
  check_nargout(nargout, 3);
  if (args.size() == 1) {
    if (text_arg(args[0], "computer", 1) != "arch")
      throw_error("MATLAB:computer:invalidInput", "Input must be 'arch'.");
    std::string a = computer_name();
    for (char& c : a) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    if (a == "glnxa64") return {char_row("glnxa64")};
    return {char_row(a)};
  }
  Outputs out{char_row(computer_name())};
  if (nargout >= 2) out.push_back(Value(281474976710655.0));
  if (nargout >= 3) out.push_back(char_row("L"));
  return out;
}

Outputs bi_ispc(CallContext&, Args args, int nargout) {
  check_nargin(args, 0, 0);
  check_nargout(nargout, 1);
#if defined(_WIN32)
  return {Value::logical(true)};
#else
  return {Value::logical(false)};
#endif
}
Outputs bi_isunix(CallContext&, Args args, int nargout) {
  check_nargin(args, 0, 0);
  check_nargout(nargout, 1);
#if defined(_WIN32)
  return {Value::logical(false)};
#else
  return {Value::logical(true)};
#endif
}
Outputs bi_ismac(CallContext&, Args args, int nargout) {
  check_nargin(args, 0, 0);
  check_nargout(nargout, 1);
#if defined(__APPLE__)
  return {Value::logical(true)};
#else
  return {Value::logical(false)};
#endif
}

/// version: "<matfuse version> (matfuse)".
Outputs bi_version(CallContext&, Args args, int nargout) {
  check_nargin(args, 0, 1);
  check_nargout(nargout, 2);
  Outputs out{char_row(std::string(MATFUSE_VERSION) + " (matfuse)")};
  if (nargout >= 2) out.push_back(char_row(""));
  return out;
}

// ---------------------------------------------------------------- functions

/// [a, b, ...] = deal(x) copies x; deal(x1, x2, ...) maps inputs to outputs one to one.
Outputs bi_deal(CallContext&, Args args, int nargout) {
  check_nargin(args, 1, SIZE_MAX);
  size_t n = static_cast<size_t>(std::max(nargout, 1));
  if (args.size() == 1) return Outputs(n, args[0]);
  if (args.size() != n)
    throw_error("MATLAB:deal:narginchk", "The number of outputs should match the number of inputs.");
  return Outputs(args.begin(), args.end());
}

/// isvarname(s): valid MATLAB identifier that is not a keyword (at most 63 characters).
Outputs bi_isvarname(CallContext&, Args args, int nargout) {
  check_nargin(args, 1, 1);
  check_nargout(nargout, 1);
  if (!args[0].is_text()) return {Value::logical(false)};
  return {Value::logical(is_valid_varname(args[0].to_text()))};
}

}  // namespace

bool is_valid_varname(std::string_view s) {
  static const char* keywords[] = {"break",    "case",     "catch",  "classdef", "continue",
                                   "else",     "elseif",   "end",    "for",      "function",
                                   "global",   "if",       "otherwise", "parfor", "persistent",
                                   "return",   "spmd",     "switch", "try",      "while"};
  if (s.empty() || s.size() > 63 || !std::isalpha(static_cast<unsigned char>(s[0]))) return false;
  for (char c : s)
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '_') return false;
  for (const char* k : keywords)
    if (s == k) return false;
  return true;
}

MessageParts parse_message_args(Args args, std::string_view fname) {
  MessageParts m;
  if (args.empty()) return m;
  std::string first = text_arg(args[0], fname, 1);
  if (args.size() == 1) {
    m.message = first;  // a lone message is literal: no format, no escapes
    return m;
  }
  if (is_message_identifier(first)) {
    m.identifier = first;
    std::string fmt = text_arg(args[1], fname, 2);
    m.message = format_printf(fmt, args.subspan(2), fname);
  } else {
    m.message = format_printf(first, args.subspan(1), fname);
  }
  return m;
}

void register_misc(Registry& r) {
  r.add("tic", bi_tic);
  r.add("toc", bi_toc);
  r.add("getenv", bi_getenv);
  r.add("setenv", bi_setenv);
  r.add("isequal", bi_isequal);
  r.add("isequaln", bi_isequaln);
  r.add("error", bi_error);
  r.add("warning", bi_warning);
  r.add("lastwarn", bi_lastwarn);
  r.add("lasterr", bi_lasterr);
  r.add("assert", bi_assert);
  r.add("pause", bi_pause);
  r.add("computer", bi_computer);
  r.add("ispc", bi_ispc);
  r.add("isunix", bi_isunix);
  r.add("ismac", bi_ismac);
  r.add("version", bi_version);
  r.add("deal", bi_deal);
  r.add("isvarname", bi_isvarname);
}

}  // namespace matfuse
