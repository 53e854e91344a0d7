#include "cli/repl.h"

#include <sys/select.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <iostream>
#include <set>
#include <string>
#include <vector>

#include "builtins/console.h"
#include "cli/run_guarded.h"
#include "lang/parser.h"
#include "runtime/interrupt.h"
#include "runtime/options.h"

#ifdef MATFUSE_HAVE_READLINE
#include <readline/history.h>
#include <readline/readline.h>
#endif

namespace matfuse::cli {

namespace {

namespace fs = std::filesystem;

enum class Read { Line, Cancelled, Eof };

std::vector<std::string> variable_names(Interpreter& in) {
  std::vector<std::string> names;
  for (auto& [n, v] : in.workspace_variables()) names.push_back(n);
  return names;
}

bool blank(const std::string& s) { return s.find_first_not_of(" \t\r\n") == std::string::npos; }

// ---------------------------------------------------------------- plain reading

Read read_plain(const char* prompt, bool show_prompt, std::string& line) {
  if (show_prompt) std::cout << prompt << std::flush;
  if (std::getline(std::cin, line)) {
    if (!line.empty() && line.back() == '\r') line.pop_back();
    return Read::Line;
  }
  if (interrupt_pending() && show_prompt) {  // Ctrl-C while waiting (EINTR)
    clear_interrupt();
    std::cin.clear();
    std::cout << "\n";
    return Read::Cancelled;
  }
  return Read::Eof;
}

#ifdef MATFUSE_HAVE_READLINE
// ---------------------------------------------------------------- readline

Interpreter* g_interp = nullptr;
std::string g_history_file;
bool g_line_done = false;
bool g_line_eof = false;
std::string g_line;

void on_line(char* l) {
  g_line_done = true;
  g_line_eof = l == nullptr;
  if (l) {
    g_line = l;
    std::free(l);
  }
  rl_callback_handler_remove();
}

/// Every candidate name for completion: variables, keywords, builtins, functions on the path.
std::vector<std::string> completion_names() {
  std::set<std::string> names;
  for (const auto& n : variable_names(*g_interp)) names.insert(n);
  static const char* const kKeywords[] = {
      "break",  "case",   "catch",      "continue", "else",  "elseif",   "end",
      "for",    "function", "global",   "if",       "otherwise", "parfor", "persistent",
      "return", "switch", "try",        "while"};
  for (const char* k : kKeywords) names.insert(k);
  for (const auto& n : builtins().names()) names.insert(n);
  for (const auto& n : g_interp->own_builtins_.names()) names.insert(n);
  std::vector<std::string> dirs = g_interp->search_path();
  dirs.push_back(g_interp->script_dir_);
  dirs.push_back(".");
  for (const auto& d : dirs) {
    std::error_code ec;
    if (d.empty()) continue;
    for (fs::directory_iterator it(d, ec), end; !ec && it != end; it.increment(ec)) {
      const fs::path& p = it->path();
      if (p.extension() == ".m") names.insert(p.stem().string());
    }
  }
  return {names.begin(), names.end()};
}

/// Field names of a struct variable for `s.pre<TAB>` (text = "s.pre").
std::vector<std::string> field_completions(const std::string& text) {
  std::vector<std::string> out;
  size_t dot = text.rfind('.');
  const std::string base = text.substr(0, dot);
  if (base.find_first_of(".(){}") != std::string::npos) return out;
  const Value* v = g_interp->base_var(base);
  if (!v || !v->is_struct()) return out;
  for (const auto& f : v->struct_array().fields()) out.push_back(base + "." + f);
  return out;
}

std::vector<std::string> g_candidates;

char* candidate_generator(const char* text, int state) {
  static size_t next;
  if (state == 0) next = 0;
  const size_t len = std::strlen(text);
  while (next < g_candidates.size()) {
    const std::string& c = g_candidates[next++];
    if (c.compare(0, len, text) == 0) return strdup(c.c_str());
  }
  return nullptr;
}

/// TAB: inside a quoted string or for a word with a '/', file names; for `s.f`, fields of a
/// struct variable; otherwise names (variables, keywords, functions) and then file names.
char** complete(const char* text, int start, int end) {
  (void)end;
  bool in_string = false;
  for (int i = 0; i < start; ++i)
    if (rl_line_buffer[i] == '\'' || rl_line_buffer[i] == '"') in_string = !in_string;
  const std::string t = text;
  rl_attempted_completion_over = 1;
  if (in_string || t.find('/') != std::string::npos || (!t.empty() && t[0] == '~')) {
    rl_attempted_completion_over = 0;  // readline's file name completion
    return nullptr;
  }
  if (t.find('.') != std::string::npos) {
    g_candidates = field_completions(t);
    rl_completion_append_character = '\0';
    return rl_completion_matches(text, candidate_generator);
  }
  g_candidates = completion_names();
  char** m = rl_completion_matches(text, candidate_generator);
  if (!m) {
    rl_attempted_completion_over = 0;  // no name: file names
    return nullptr;
  }
  rl_completion_append_character = '\0';
  return m;
}

std::string history_file() {
  if (!options().history.empty()) return options().history;
  const char* home = std::getenv("HOME");
  return home ? std::string(home) + "/.matfuse_history" : std::string();
}

void readline_setup(Interpreter& in) {
  g_interp = &in;
  rl_readline_name = "matfuse";
  rl_catch_signals = 0;  // SIGINT stays with matfuse's handler (runtime/interrupt.h)
  rl_attempted_completion_function = complete;
  rl_basic_word_break_characters = const_cast<char*>(" \t\n\"'`@$><=;|&{}()[],+-*^:~!\\");
  rl_completer_quote_characters = const_cast<char*>("'\"");
  using_history();
  stifle_history(10000);
  g_history_file = history_file();
  // append_history() needs the file to exist: create it on the first run.
  if (!g_history_file.empty() && read_history(g_history_file.c_str()) != 0)
    write_history(g_history_file.c_str());
}

void readline_teardown() {
  if (!g_history_file.empty()) history_truncate_file(g_history_file.c_str(), 10000);
}

/// Reads a line with readline's callback interface, polling the interrupt flag so that Ctrl-C
/// discards what was typed and shows a fresh prompt.
Read read_readline(const char* prompt, std::string& line) {
  g_line_done = false;
  g_line.clear();
  rl_callback_handler_install(prompt, on_line);
  while (!g_line_done) {
    if (interrupt_pending()) {
      clear_interrupt();
      rl_free_line_state();
      rl_callback_sigcleanup();
      rl_cleanup_after_signal();
      rl_callback_handler_remove();
      std::cout << "\n" << std::flush;
      return Read::Cancelled;
    }
    fd_set fds;
    FD_ZERO(&fds);
    FD_SET(fileno(rl_instream), &fds);
    timeval tv{0, 50000};
    int r = select(fileno(rl_instream) + 1, &fds, nullptr, nullptr, &tv);
    if (r > 0) rl_callback_read_char();
  }
  if (g_line_eof) return Read::Eof;
  line = g_line;
  if (!blank(line)) {
    add_history(line.c_str());
    if (!g_history_file.empty()) append_history(1, g_history_file.c_str());
  }
  return Read::Line;
}
#endif

}  // namespace

int repl(Interpreter& in, Session& s) {
  const bool tty = isatty(STDIN_FILENO) != 0;
#ifdef MATFUSE_HAVE_READLINE
  if (tty) readline_setup(in);
#endif
  std::string buf;
  int rc = 0;
  while (true) {
    const char* prompt = buf.empty() ? ">> " : "";
    std::string line;
    Read r;
#ifdef MATFUSE_HAVE_READLINE
    if (tty) r = read_readline(prompt, line);
    else r = read_plain(prompt, false, line);
#else
    r = read_plain(prompt, tty, line);
#endif
    if (r == Read::Cancelled) {
      buf.clear();
      continue;
    }
    if (r == Read::Eof) {
      if (!blank(buf)) {  // an unfinished block at the end: report what it lacks
        RunStatus st = run_guarded(s, [&] { in.run_text(buf); });
        if (st.kind != RunStatus::Ok) rc = st.status;
      }
      if (tty) std::cout << "\n";
      break;
    }
    diary_record_input(line, !buf.empty());
    buf += line;
    buf += '\n';
    if (blank(buf)) {
      buf.clear();
      continue;
    }
    if (input_is_incomplete(buf, variable_names(in))) continue;
    clear_interrupt();
    RunStatus st = run_guarded(s, [&] { in.run_text(buf); });
    buf.clear();
    s.out->flush();
    std::cout.flush();
    if (st.kind == RunStatus::Exit) {
      rc = st.status;
      break;
    }
    if (st.kind != RunStatus::Ok && !tty) {
      rc = st.status;
      break;
    }
  }
#ifdef MATFUSE_HAVE_READLINE
  if (tty) readline_teardown();
#endif
  return rc;
}

}  // namespace matfuse::cli
