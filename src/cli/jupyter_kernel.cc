// The Jupyter kernel on xeus (the Jupyter messaging protocol over ZeroMQ): see jupyter_kernel.h.
//
// One matfuse Interpreter holds the workspace for the kernel's life. Output written to
// Session::out, std::cout and std::cerr during a cell goes to the front end as "stream"
// messages (stdout / stderr), sent at each flush and otherwise at most every 100 ms, so long
// cells show progress. A MATLAB error becomes an "error" reply whose traceback is MATLAB's text
// (format_error); Ctrl-C / "interrupt kernel" arrives as SIGINT (interrupt_mode "signal") and
// stops the cell with "Operation terminated by user". After a cell, figures changed by it are
// published as display_data image/png (runtime/figure_hook.h).
#include <algorithm>
#include <chrono>
#include <functional>
#include <iostream>
#include <memory>
#include <sstream>
#include <streambuf>
#include <string>
#include <vector>

#include "accel/run/dispatch.h"
#include "accel/run/report.h"
#include "accel/run/telemetry.h"
#include "cli/accel_commands.h"
#include "cli/jupyter_kernel.h"
#include "interp/interp.h"
#include "parallel/parallel.h"
#include "lang/parser.h"
#include "runtime/figure_hook.h"
#include "runtime/interrupt.h"
#include "xeus/xhelper.hpp"
#include "xeus/xinterpreter.hpp"
#include "xeus/xkernel.hpp"
#include "xeus/xkernel_configuration.hpp"
#include "xeus/xserver_zmq.hpp"

namespace nl = nlohmann;

namespace matfuse::cli {

namespace {

/// Base64 (RFC 4648, with padding) of bytes: the encoding Jupyter uses for image/png data.
std::string base64(const std::string& in) {
  static const char* const kAlphabet =
      "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  std::string out;
  out.reserve((in.size() + 2) / 3 * 4);
  size_t i = 0;
  for (; i + 2 < in.size(); i += 3) {
    const uint32_t v = (uint32_t(uint8_t(in[i])) << 16) | (uint32_t(uint8_t(in[i + 1])) << 8) |
                       uint8_t(in[i + 2]);
    for (int s = 18; s >= 0; s -= 6) out += kAlphabet[(v >> s) & 63];
  }
  if (i < in.size()) {
    uint32_t v = uint32_t(uint8_t(in[i])) << 16;
    if (i + 1 < in.size()) v |= uint32_t(uint8_t(in[i + 1])) << 8;
    out += kAlphabet[(v >> 18) & 63];
    out += kAlphabet[(v >> 12) & 63];
    out += i + 1 < in.size() ? kAlphabet[(v >> 6) & 63] : '=';
    out += '=';
  }
  return out;
}

/// A streambuf that collects text and hands it to a publisher (a Jupyter stream message).
class PublishBuf : public std::streambuf {
public:
  using Publish = std::function<void(const std::string&)>;
  explicit PublishBuf(Publish p) : publish_(std::move(p)) {}
  void flush_text() {
    if (text_.empty()) return;
    std::string t;
    t.swap(text_);
    last_ = std::chrono::steady_clock::now();
    publish_(t);
  }

protected:
  int overflow(int c) override {
    if (c == traits_type::eof()) return traits_type::not_eof(c);
    text_.push_back(static_cast<char>(c));
    if (c == '\n') maybe_flush();
    return c;
  }
  std::streamsize xsputn(const char* s, std::streamsize n) override {
    text_.append(s, static_cast<size_t>(n));
    maybe_flush();
    return n;
  }
  int sync() override {
    flush_text();
    return 0;
  }

private:
  void maybe_flush() {
    if (text_.size() > 65536 ||
        std::chrono::steady_clock::now() - last_ > std::chrono::milliseconds(100))
      flush_text();
  }
  Publish publish_;
  std::string text_;
  std::chrono::steady_clock::time_point last_ = std::chrono::steady_clock::now();
};

std::vector<std::string> lines_of(const std::string& s) {
  std::vector<std::string> out;
  std::istringstream is(s);
  for (std::string l; std::getline(is, l);) out.push_back(l);
  return out;
}

class MatfuseKernel : public xeus::xinterpreter {
public:
  explicit MatfuseKernel(bool profile)
      : profile_all_(profile),
        out_buf_([this](const std::string& t) { publish_stream("stdout", t); }),
        err_buf_([this](const std::string& t) { publish_stream("stderr", t); }),
        out_(&out_buf_),
        err_(&err_buf_),
        interp_(session_) {
    session_.out = &out_;
    session_.err = &err_;
    matfuse::parallel::install(interp_);  // parfor, spmd, parpool as at the prompt
  }

private:
  void configure_impl() override {}

  nl::json execute_request_impl(int execution_counter, const std::string& code0, bool silent,
                                bool store_history, nl::json user_expressions,
                                bool allow_stdin) override {
    (void)execution_counter;
    (void)silent;
    (void)store_history;
    (void)allow_stdin;
    std::string code = code0;
    bool profile = profile_all_;
    if (code.rfind("%%profile", 0) == 0) {
      profile = true;
      size_t nl = code.find('\n');
      code = nl == std::string::npos ? "" : code.substr(nl + 1);
    }
    if (profile) {
      accel::set_device_timing(true);
      accel::telemetry().clear();
    }
    const double t0 = accel::telemetry_clock();
    // std::cout / std::cerr too: some output is written to them directly.
    std::streambuf* old_out = std::cout.rdbuf(&out_buf_);
    std::streambuf* old_err = std::cerr.rdbuf(&err_buf_);
    nl::json reply;
    std::string ename, evalue;
    std::vector<std::string> traceback;
    clear_interrupt();
    try {
      interp_.run_text(code);
    } catch (const MatlabError& e) {
      ename = e.identifier().empty() ? "MATLAB:error" : e.identifier();
      evalue = e.message();
      traceback = lines_of(format_error(e));
    } catch (const Interrupted& e) {
      ename = "MATLAB:interrupt";
      evalue = interrupt_message(e);
      traceback = {evalue};
    } catch (const ExitRequest& e) {
      out_buf_.flush_text();
      err_buf_.flush_text();
      std::cout.rdbuf(old_out);
      std::cerr.rdbuf(old_err);
      std::exit(e.status);
    } catch (const std::bad_alloc&) {
      ename = "MATLAB:nomem";
      evalue = "Out of memory.";
      traceback = {evalue};
    } catch (const std::exception& e) {
      ename = "matfuse:internal";
      evalue = std::string("matfuse internal error: ") + e.what();
      traceback = {evalue};
    }
    out_.flush();
    err_.flush();
    publish_figures(ename, evalue, traceback);
    if (profile) {
      const auto evals = accel::telemetry().snapshot();
      publish_stream("stdout", accel::profile_table(evals, accel::telemetry_clock() - t0) +
                                   accel::sync_summary(accel::telemetry().syncs()));
    }
    std::cout.rdbuf(old_out);
    std::cerr.rdbuf(old_err);
    if (!ename.empty()) {
      publish_execution_error(ename, evalue, traceback);
      return xeus::create_error_reply(ename, evalue, traceback);
    }
    return xeus::create_successful_reply(nl::json::array(), user_expressions);
  }

  void publish_figures(std::string& ename, std::string& evalue,
                       std::vector<std::string>& traceback) {
    FigureRenderHook hook = figure_render_hook();
    if (!hook) return;
    try {
      for (const RenderedFigure& f : hook()) {
        nl::json data, meta = nl::json::object();
        data["image/png"] = base64(f.png);
        data["text/plain"] = "<Figure " + std::to_string(f.number) + ">";
        if (f.width > 0 && f.height > 0)
          meta["image/png"] = {{"width", f.width}, {"height", f.height}};
        display_data(std::move(data), std::move(meta), nl::json::object());
      }
    } catch (const MatlabError& e) {
      if (ename.empty()) {
        ename = e.identifier();
        evalue = e.message();
        traceback = lines_of(format_error(e));
      }
    }
  }

  /// The identifier-like word that ends at cursor_pos, and where it begins.
  static std::string word_before(const std::string& code, int cursor_pos, int& start) {
    int end = std::min<int>(cursor_pos, static_cast<int>(code.size()));
    start = end;
    while (start > 0 && (std::isalnum(static_cast<unsigned char>(code[start - 1])) ||
                         code[start - 1] == '_' || code[start - 1] == '.'))
      --start;
    return code.substr(static_cast<size_t>(start), static_cast<size_t>(end - start));
  }

  nl::json complete_request_impl(const std::string& code, int cursor_pos) override {
    int start = 0;
    const std::string w = word_before(code, cursor_pos, start);
    nl::json matches = nl::json::array();
    if (!w.empty()) {
      std::vector<std::string> names;
      for (auto& [n, v] : interp_.workspace_variables()) names.push_back(n);
      for (const auto& n : builtins().names()) names.push_back(n);
      for (const auto& n : interp_.own_builtins_.names()) names.push_back(n);
      std::sort(names.begin(), names.end());
      names.erase(std::unique(names.begin(), names.end()), names.end());
      for (const auto& n : names)
        if (n.compare(0, w.size(), w) == 0) matches.push_back(n);
    }
    return xeus::create_complete_reply(matches, start, cursor_pos);
  }

  nl::json inspect_request_impl(const std::string& code, int cursor_pos,
                                int detail_level) override {
    (void)detail_level;
    int start = 0;
    std::string w = word_before(code, cursor_pos, start);
    if (w.empty()) return xeus::create_inspect_reply(false);
    try {
      Value arg[1] = {Value::from_chars(w)};
      Outputs r = interp_.call_named("help", Args(arg, 1), 1);
      std::string text = r.empty() ? "" : r[0].to_text();
      if (text.find(" not found.") != std::string::npos) return xeus::create_inspect_reply(false);
      return xeus::create_inspect_reply(true, {{"text/plain", text}});
    } catch (const MatlabError&) {
      return xeus::create_inspect_reply(false);
    }
  }

  nl::json is_complete_request_impl(const std::string& code) override {
    return xeus::create_is_complete_reply(input_is_incomplete(code) ? "incomplete" : "complete",
                                          "    ");
  }

  nl::json kernel_info_request_impl() override {
    nl::json r;
    r["implementation"] = "matfuse";
    r["implementation_version"] = MATFUSE_VERSION;
    r["banner"] = "matfuse " MATFUSE_VERSION ": MATLAB-syntax scripts, fused onto the GPU";
    r["language_info"] = {{"name", "matlab"},
                          {"version", MATFUSE_VERSION},
                          {"mimetype", "text/x-matlab"},
                          {"file_extension", ".m"},
                          {"pygments_lexer", "matlab"},
                          {"codemirror_mode", "octave"}};
    r["protocol_version"] = "5.3";
    r["status"] = "ok";
    return r;
  }

  void shutdown_request_impl() override {}

  bool profile_all_;
  PublishBuf out_buf_, err_buf_;
  std::ostream out_, err_;
  Session session_;
  Interpreter interp_;
};

}  // namespace

int run_jupyter_kernel(const std::string& connection_file, bool profile) {
  xeus::xconfiguration config = xeus::load_configuration(connection_file);
  auto context = xeus::make_context<zmq::context_t>();
  std::unique_ptr<xeus::xinterpreter> interp(new MatfuseKernel(profile));
  xeus::xkernel kernel(config, xeus::get_user_name(), std::move(context), std::move(interp),
                       xeus::make_xserver_zmq);
  kernel.start();
  return 0;
}

}  // namespace matfuse::cli
