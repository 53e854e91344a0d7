// Lexer: MATLAB source text to tokens. See lexer.h for the context rules.
#include "lang/lexer.h"

#include <cctype>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <set>

namespace matfuse {

namespace {

bool is_ident_start(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }
bool is_ident_char(char c) { return is_ident_start(c) || (c >= '0' && c <= '9') || c == '_'; }
bool is_digit(char c) { return c >= '0' && c <= '9'; }
bool is_hspace(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v'; }

const char* const kKeywords[] = {
    "break", "case", "catch", "classdef", "continue", "else", "elseif", "end", "for", "function",
    "global", "if", "otherwise", "parfor", "persistent", "return", "spmd", "switch", "try", "while",
    // Octave-style block ends, accepted as aliases of `end`.
    "endif", "endwhile", "endfor", "endfunction", "endswitch", "end_try_catch", "endparfor"};

// Bracket kinds on the lexer's stack.
enum class Br : char {
  Paren,       // ( ) grouping or call/index arguments
  AnonParams,  // @( ) parameter list
  Matrix,      // [ ]
  Cell,        // { } literal
  BraceIndex,  // x{ }
};

struct Open {
  Br kind;
  ast::Loc loc;
  char ch;
};

class Lexer {
 public:
  Lexer(std::string_view src, const std::string& path, const std::vector<std::string>* known)
      : src_(src), path_(path) {
    if (known) known_vars_.insert(known->begin(), known->end());
  }

  LexOutput run() {
    LexOutput out;
    try {
      lex_all();
    } catch (MatlabError& e) {
      out.error = std::move(e);
      Token eof;
      eof.kind = Tok::Eof;
      eof.loc = here();
      toks_.push_back(std::move(eof));
    }
    out.tokens = std::move(toks_);
    return out;
  }

 private:
  std::string_view src_;
  const std::string& path_;
  size_t pos_ = 0;
  int line_ = 1;
  size_t line_start_ = 0;
  std::vector<Token> toks_;
  std::vector<Open> stack_;
  bool space_ = false;                // whitespace seen since the last token
  bool stmt_start_ = true;            // the next token starts a statement
  bool prev_value_ = false;           // the last token ends a value
  std::set<std::string> known_vars_;  // names assigned so far in this function/script
  size_t stmt_first_tok_ = 0;         // index of the first token of the current statement
  bool in_function_line_ = false;     // between `function` and the end of its line
  bool in_decl_ = false;              // after global/persistent on this statement
  bool classdef_ = false;             // the file is a classdef file
  bool in_member_block_ = false;      // in a classdef properties/events/enumeration block

  ast::Loc here() const { return {line_, static_cast<int>(pos_ - line_start_) + 1}; }
  char peek(size_t k = 0) const { return pos_ + k < src_.size() ? src_[pos_ + k] : '\0'; }
  bool at_end() const { return pos_ >= src_.size(); }
  bool starts(const char* s) const { return src_.substr(pos_, std::strlen(s)) == s; }

  [[noreturn]] void fail(ast::Loc loc, const char* id, const std::string& msg) {
    throw make_parse_error(path_, loc, id, msg);
  }

  bool ws_significant() const {
    return !stack_.empty() && (stack_.back().kind == Br::Matrix || stack_.back().kind == Br::Cell);
  }

  void newline_consumed() {
    ++line_;
    line_start_ = pos_;
  }

  // Inserts the implicit element separator of [ ] / { } literals before a value-starting token.
  void maybe_separator(bool starts_value, ast::Loc loc) {
    if (starts_value && space_ && prev_value_ && ws_significant()) {
      Token t;
      t.kind = Tok::Comma;
      t.loc = loc;
      t.space_before = true;
      t.depth = static_cast<int>(stack_.size());
      toks_.push_back(std::move(t));
      prev_value_ = false;
    }
  }

  void emit(Tok kind, ast::Loc loc, std::string text = {}, bool ends_value = false) {
    Token t;
    t.kind = kind;
    t.text = std::move(text);
    t.loc = loc;
    t.space_before = space_;
    t.depth = static_cast<int>(stack_.size());
    toks_.push_back(std::move(t));
    space_ = false;
    prev_value_ = ends_value;
    if (stmt_start_) stmt_first_tok_ = toks_.size() - 1;
    stmt_start_ = false;
  }

  void mark_statement_start() {
    stmt_start_ = true;
    in_decl_ = false;
  }

  // ---- comments and continuations

  // True when the current line, apart from whitespace, is exactly `marker` ("%{" or "%}"),
  // checked from the line start.
  bool line_is(size_t line_begin, const char* marker) const {
    size_t i = line_begin;
    while (i < src_.size() && is_hspace(src_[i])) ++i;
    size_t m = std::strlen(marker);
    if (src_.substr(i, m) != marker) return false;
    i += m;
    while (i < src_.size() && is_hspace(src_[i])) ++i;
    return i >= src_.size() || src_[i] == '\n';
  }

  void skip_to_eol() {
    while (!at_end() && peek() != '\n') ++pos_;
  }

  // At '%' that begins a block comment line: skip through the matching `%}` line (nestable).
  void skip_block_comment() {
    int depth = 0;
    while (!at_end()) {
      size_t begin = line_start_;
      if (line_is(begin, "%{"))
        ++depth;
      else if (line_is(begin, "%}"))
        --depth;
      skip_to_eol();
      if (depth == 0 || at_end()) return;  // leave the newline of the `%}` line
      ++pos_;
      newline_consumed();
    }
  }

  // ---- main loop

  void lex_all() {
    while (true) {
      char c = peek();
      if (at_end()) {
        if (!stack_.empty()) {
          const Open& o = stack_.back();
          fail(here(), "MATLAB:unbalancedBrackets",
               std::string("expected '") + closer(o.ch) + "' to close '" + o.ch +
                   "' opened at line " + std::to_string(o.loc.line) + " column " +
                   std::to_string(o.loc.column) + ", found end of input");
        }
        emit(Tok::Eof, here());
        return;
      }
      if (is_hspace(c)) {
        ++pos_;
        space_ = true;
        continue;
      }
      if (c == '.' && peek(1) == '.' && peek(2) == '.') {  // continuation
        skip_to_eol();
        if (!at_end()) {
          ++pos_;
          newline_consumed();
        }
        space_ = true;
        continue;
      }
      if (c == '%') {
        if (line_is(line_start_, "%{") && all_space_before())
          skip_block_comment();
        else
          skip_to_eol();
        space_ = true;
        continue;
      }
      if (c == '\n') {
        lex_newline();
        continue;
      }
      lex_token();
    }
  }

  bool all_space_before() const {
    for (size_t i = line_start_; i < pos_; ++i)
      if (!is_hspace(src_[i])) return false;
    return true;
  }

  static char closer(char open) { return open == '(' ? ')' : open == '[' ? ']' : '}'; }

  void lex_newline() {
    ast::Loc loc = here();
    if (!stack_.empty() && !ws_significant()) {
      const Open& o = stack_.back();
      fail(loc, "MATLAB:unbalancedBrackets",
           std::string("expected '") + closer(o.ch) + "' to close '" + o.ch + "' opened at line " +
               std::to_string(o.loc.line) + " column " + std::to_string(o.loc.column) +
               ", found end of line");
    }
    bool top = stack_.empty();
    emit(Tok::Newline, loc);
    ++pos_;
    newline_consumed();
    space_ = false;
    if (top) {
      mark_statement_start();
      in_function_line_ = false;
    }
  }

  void lex_token() {
    ast::Loc loc = here();
    char c = peek();
    if (is_ident_start(c)) return lex_word(loc);
    if (is_digit(c) || (c == '.' && is_digit(peek(1)))) return lex_number(loc);
    if (c == '"') return lex_string(loc, '"');
    if (c == '\'') {
      bool transpose = prev_value_ && (!space_ || !ws_significant());
      if (transpose) {
        ++pos_;
        emit(Tok::Quote, loc, {}, true);
        return;
      }
      return lex_string(loc, '\'');
    }
    lex_punct(loc);
  }

  // ---- identifiers, keywords, command syntax

  void lex_word(ast::Loc loc) {
    size_t b = pos_;
    while (is_ident_char(peek())) ++pos_;
    std::string word(src_.substr(b, pos_ - b));
    bool was_start = stmt_start_;
    if (is_keyword(word)) {
      maybe_separator(word == "end", loc);
      emit(Tok::Keyword, loc, word, word == "end" && !stack_.empty());
      if (stack_.empty()) {
        if (word == "classdef") classdef_ = true;
        if (word == "end") in_member_block_ = false;
        if (word == "else" || word == "try" || word == "otherwise") mark_statement_start();
        if (word == "function") {
          known_vars_.clear();
          in_function_line_ = true;
        }
        if (word == "global" || word == "persistent") in_decl_ = true;
      }
      return;
    }
    maybe_separator(true, loc);
    // Names that become variables: after `for`, `catch`, `global`, on a function line.
    if (toks_.size() && toks_.back().kind == Tok::Keyword) {
      const std::string& k = toks_.back().text;
      if (k == "for" || k == "parfor" || k == "catch") known_vars_.insert(word);
    }
    if (toks_.size() >= 2 && toks_.back().kind == Tok::LParen &&
        toks_[toks_.size() - 2].kind == Tok::Keyword &&
        (toks_[toks_.size() - 2].text == "for" || toks_[toks_.size() - 2].text == "parfor"))
      known_vars_.insert(word);
    if (in_function_line_ || in_decl_) known_vars_.insert(word);

    // Property lines of a classdef ("Name string = ...") are never command syntax.
    if (classdef_ && was_start && stack_.empty() &&
        (word == "properties" || word == "events" || word == "enumeration"))
      in_member_block_ = true;
    bool command = was_start && stack_.empty() && !known_vars_.count(word) &&
                   !in_member_block_ && is_command_syntax();
    emit(Tok::Ident, loc, word, true);
    if (command) lex_command_words();
  }

  // At the character after a statement-start identifier: does command syntax apply?
  bool is_command_syntax() const {
    size_t q = pos_;
    if (q >= src_.size() || (src_[q] != ' ' && src_[q] != '\t')) return false;
    while (q < src_.size() && is_hspace(src_[q])) ++q;
    if (q >= src_.size()) return false;
    char c = src_[q];
    if (c == '\n' || c == ';' || c == ',' || c == '%' || c == '(') return false;
    if (src_.substr(q, 3) == "...") return false;
    if (c == '=' && (q + 1 >= src_.size() || src_[q + 1] != '=')) return false;  // assignment
    static const char* const ops[] = {"==", "~=",  "!=", "<=", ">=", "&&", "||", ".*",
                                      "./", ".\\", ".^", "+",  "-",  "*",  "/",  "\\",
                                      "^",  "<",   ">",  "&",  "|",  ":"};
    for (const char* op : ops) {
      size_t m = std::strlen(op);
      if (src_.substr(q, m) == op) {
        size_t after = q + m;
        // An operator followed by whitespace (or the end of the line) continues an expression.
        return !(after >= src_.size() || is_hspace(src_[after]) || src_[after] == '\n');
      }
    }
    return true;
  }

  void lex_command_words() {
    while (true) {
      while (is_hspace(peek())) {
        ++pos_;
        space_ = true;
      }
      char c = peek();
      if (at_end() || c == '\n' || c == ';' || c == ',' || c == '%') return;
      if (starts("...")) return;
      ast::Loc loc = here();
      std::string w;
      while (!at_end()) {
        c = peek();
        if (is_hspace(c) || c == '\n' || c == ',' || c == ';' || c == '%') break;
        if (c == '\'') {
          ast::Loc qloc = here();
          ++pos_;
          while (true) {
            if (at_end() || peek() == '\n')
              fail(qloc, "MATLAB:unterminatedString",
                   "character vector is not terminated properly");
            if (peek() == '\'') {
              if (peek(1) == '\'') {
                w += '\'';
                pos_ += 2;
                continue;
              }
              ++pos_;
              break;
            }
            w += peek();
            ++pos_;
          }
          continue;
        }
        w += c;
        ++pos_;
      }
      emit(Tok::CommandWord, loc, w, false);
    }
  }

  // ---- literals

  void lex_string(ast::Loc loc, char q) {
    maybe_separator(true, loc);
    ++pos_;
    std::string v;
    while (true) {
      if (at_end() || peek() == '\n')
        fail(loc, "MATLAB:unterminatedString",
             q == '\'' ? "character vector is not terminated properly"
                       : "string is not terminated properly");
      char c = peek();
      if (c == q) {
        if (peek(1) == q) {
          v += q;
          pos_ += 2;
          continue;
        }
        ++pos_;
        break;
      }
      v += c;
      ++pos_;
    }
    emit(q == '\'' ? Tok::CharLit : Tok::StringLit, loc, std::move(v), true);
  }

  void lex_number(ast::Loc loc) {
    maybe_separator(true, loc);
    size_t b = pos_;
    double value = 0;
    std::string int_class;
    char c1 = peek(1);
    if (peek() == '0' && (c1 == 'x' || c1 == 'X' || c1 == 'b' || c1 == 'B') &&
        (std::isxdigit(static_cast<unsigned char>(peek(2))))) {
      int base = (c1 == 'x' || c1 == 'X') ? 16 : 2;
      pos_ += 2;
      bool any = false;
      while (true) {
        char c = peek();
        int d = -1;
        if (is_digit(c))
          d = c - '0';
        else if (c >= 'a' && c <= 'f')
          d = c - 'a' + 10;
        else if (c >= 'A' && c <= 'F')
          d = c - 'A' + 10;
        else if (c == '_' && any) {
          ++pos_;
          continue;
        }
        if (d < 0 || d >= base) break;
        value = value * base + d;
        any = true;
        ++pos_;
      }
      if (!any) fail(loc, "MATLAB:syntax", "invalid binary or hexadecimal literal");
      // Class: an explicit suffix (u8, s32, ...), else the smallest unsigned type holding the
      // value. A signed suffix reads the bits as two's complement (0xFFs8 is -1).
      int bits = 0;
      bool is_signed = false;
      if (peek() == 'u' || peek() == 's') {
        size_t save = pos_;
        is_signed = peek() == 's';
        ++pos_;
        size_t db = pos_;
        while (is_digit(peek())) ++pos_;
        std::string b(src_.substr(db, pos_ - db));
        if (b == "8" || b == "16" || b == "32" || b == "64")
          bits = std::stoi(b);
        else
          pos_ = save, is_signed = false;
      }
      if (bits == 0)
        bits = value <= 255 ? 8 : value <= 65535 ? 16 : value <= 4294967295.0 ? 32 : 64;
      double range = std::ldexp(1.0, bits);
      if (value >= range)
        fail(loc, "MATLAB:syntax",
             "hexadecimal or binary literal does not fit in its integer type");
      if (is_signed && value >= range / 2) value -= range;
      int_class = std::string(is_signed ? "int" : "uint") + std::to_string(bits);
    } else {
      std::string clean;
      auto digits = [&] {
        while (is_digit(peek()) || (peek() == '_' && is_digit(peek(1)) && !clean.empty())) {
          if (peek() != '_') clean += peek();
          ++pos_;
        }
      };
      digits();
      if (peek() == '.') {
        char n = peek(1);
        bool op = n == '*' || n == '/' || n == '\\' || n == '^' || n == '\'' ||
                  (n == '.' && peek(2) == '.');  // `1...` is 1 then a continuation
        if (!op) {
          clean += '.';
          ++pos_;
          digits();
        }
      }
      if (peek() == 'e' || peek() == 'E') {
        size_t k = 1;
        if (peek(1) == '+' || peek(1) == '-') k = 2;
        if (is_digit(peek(k))) {
          clean += 'e';
          if (k == 2) clean += peek(1);
          pos_ += k;
          digits();
        }
      }
      value = std::strtod(clean.c_str(), nullptr);
    }
    bool imag = false;
    char s = peek();
    if ((s == 'i' || s == 'j' || s == 'I' || s == 'J') && !is_ident_char(peek(1))) {
      imag = true;
      ++pos_;
    }
    Token t;
    t.kind = imag ? Tok::ImagNumber : Tok::Number;
    t.number = value;
    t.int_class = std::move(int_class);
    t.raw = std::string(src_.substr(b, pos_ - b));
    t.loc = loc;
    t.space_before = space_;
    t.depth = static_cast<int>(stack_.size());
    toks_.push_back(std::move(t));
    space_ = false;
    prev_value_ = true;
    stmt_start_ = false;
  }

  // ---- operators and brackets

  void open(Br kind, char ch, Tok tok, ast::Loc loc) {
    emit(tok, loc);
    stack_.push_back({kind, loc, ch});
    toks_.back().depth = static_cast<int>(stack_.size()) - 1;
  }

  void close(char ch, Tok tok, ast::Loc loc) {
    if (stack_.empty() || closer(stack_.back().ch) != ch) {
      std::string msg = std::string("unexpected '") + ch + "'";
      if (!stack_.empty()) {
        const Open& o = stack_.back();
        msg = std::string("expected '") + closer(o.ch) + "' to close '" + o.ch +
              "' opened at line " + std::to_string(o.loc.line) + " column " +
              std::to_string(o.loc.column) + ", found '" + ch + "'";
      } else {
        msg += " without a matching opening bracket";
      }
      fail(loc, "MATLAB:unbalancedBrackets", msg);
    }
    bool anon = stack_.back().kind == Br::AnonParams;
    bool stmt_bracket = stack_.size() == 1 && ch == ']' && stmt_first_tok_ < toks_.size() &&
                        toks_[stmt_first_tok_].kind == Tok::LBracket;
    stack_.pop_back();
    emit(tok, loc, {}, !anon);
    if (stmt_bracket) note_multi_assign();
  }

  // After the `]` of a statement that began with `[`: if `=` follows, its names are variables.
  void note_multi_assign() {
    size_t q = pos_;
    while (q < src_.size() && is_hspace(src_[q])) ++q;
    if (q < src_.size() && src_[q] == '=' && (q + 1 >= src_.size() || src_[q + 1] != '=')) {
      for (size_t i = stmt_first_tok_ + 1; i < toks_.size(); ++i)
        if (toks_[i].kind == Tok::Ident && toks_[i].depth == 1 && toks_[i - 1].kind != Tok::Dot)
          known_vars_.insert(toks_[i].text);
    }
  }

  void op(Tok kind, ast::Loc loc, size_t len, bool starts_value = false) {
    maybe_separator(starts_value, loc);
    pos_ += len;
    emit(kind, loc);
  }

  void lex_punct(ast::Loc loc) {
    char c = peek(), n = peek(1);
    switch (c) {
      case '(': {
        bool anon = !toks_.empty() && toks_.back().kind == Tok::At;
        maybe_separator(true, loc);
        ++pos_;
        open(anon ? Br::AnonParams : Br::Paren, '(', Tok::LParen, loc);
        return;
      }
      case '[':
        maybe_separator(true, loc);
        ++pos_;
        open(Br::Matrix, '[', Tok::LBracket, loc);
        return;
      case '{': {
        bool index = prev_value_ && (!space_ || !ws_significant());
        maybe_separator(true, loc);
        ++pos_;
        open(index ? Br::BraceIndex : Br::Cell, '{', Tok::LBrace, loc);
        return;
      }
      case ')':
        ++pos_;
        close(')', Tok::RParen, loc);
        return;
      case ']':
        ++pos_;
        close(']', Tok::RBracket, loc);
        return;
      case '}':
        ++pos_;
        close('}', Tok::RBrace, loc);
        return;
      case ';':
        op(Tok::Semicolon, loc, 1);
        if (stack_.empty()) mark_statement_start();
        return;
      case ',':
        op(Tok::Comma, loc, 1);
        if (stack_.empty()) mark_statement_start();
        return;
      case '+':
      case '-': {
        bool unary_start = space_ && !is_hspace(n) && n != '\n' && n != '\0';
        op(c == '+' ? Tok::Plus : Tok::Minus, loc, 1, unary_start);
        return;
      }
      case '*':
        op(Tok::Star, loc, 1);
        return;
      case '/':
        op(Tok::Slash, loc, 1);
        return;
      case '\\':
        op(Tok::Backslash, loc, 1);
        return;
      case '^':
        op(Tok::Caret, loc, 1);
        return;
      case '.':
        if (n == '*') return op(Tok::DotStar, loc, 2);
        if (n == '/') return op(Tok::DotSlash, loc, 2);
        if (n == '\\') return op(Tok::DotBackslash, loc, 2);
        if (n == '^') return op(Tok::DotCaret, loc, 2);
        if (n == '\'') {
          pos_ += 2;
          emit(Tok::DotQuote, loc, {}, true);
          return;
        }
        return op(Tok::Dot, loc, 1);
      case '=':
        if (n == '=') return op(Tok::Eq, loc, 2);
        note_assignment();
        return op(Tok::Assign, loc, 1);
      case '~':
      case '!':
        if (n == '=') return op(Tok::Ne, loc, 2);
        return op(Tok::Tilde, loc, 1, true);
      case '<':
        return n == '=' ? op(Tok::Le, loc, 2) : op(Tok::Lt, loc, 1);
      case '>':
        return n == '=' ? op(Tok::Ge, loc, 2) : op(Tok::Gt, loc, 1);
      case '&':
        return n == '&' ? op(Tok::AmpAmp, loc, 2) : op(Tok::Amp, loc, 1);
      case '|':
        return n == '|' ? op(Tok::BarBar, loc, 2) : op(Tok::Bar, loc, 1);
      case ':':
        return op(Tok::Colon, loc, 1);
      case '@':
        return op(Tok::At, loc, 1, true);
      default:
        break;
    }
    std::string shown;
    if (static_cast<unsigned char>(c) >= 0x20 && static_cast<unsigned char>(c) < 0x7f)
      shown = std::string("'") + c + "'";
    else {
      char buf[16];
      std::snprintf(buf, sizeof buf, "0x%02X", static_cast<unsigned char>(c));
      shown = buf;
    }
    fail(loc, "MATLAB:syntax", "invalid character " + shown + " in the program text");
  }

  // `=` seen: the statement's leading identifier (x = .., x(i) = .., s.f = ..) is a variable.
  void note_assignment() {
    if (!stack_.empty()) return;  // f(Name=Value) arguments are not assignments
    if (!toks_.empty() && toks_.back().kind == Tok::Ident &&
        (toks_.size() < 2 || toks_[toks_.size() - 2].kind != Tok::Dot))
      known_vars_.insert(toks_.back().text);
    if (stmt_first_tok_ < toks_.size() && toks_[stmt_first_tok_].kind == Tok::Ident)
      known_vars_.insert(toks_[stmt_first_tok_].text);
  }
};

}  // namespace

bool is_keyword(std::string_view word) {
  for (const char* k : kKeywords)
    if (word == k) return true;
  return false;
}

std::string file_stem(const std::string& path) {
  size_t slash = path.find_last_of("/\\");
  std::string base = slash == std::string::npos ? path : path.substr(slash + 1);
  size_t dot = base.rfind('.');
  if (dot != std::string::npos && dot > 0) base.resize(dot);
  return base;
}

MatlabError make_parse_error(const std::string& path, ast::Loc loc, const char* identifier,
                             const std::string& msg) {
  std::string text;
  if (!path.empty()) text = path + ":";
  text += std::to_string(loc.line) + ":" + std::to_string(loc.column) + ": Parse error: " + msg;
  MatlabError err(identifier, text);
  StackFrame f;
  f.file = path;
  f.name = file_stem(path);
  f.line = loc.line;
  f.column = loc.column;
  err.stack().push_back(std::move(f));
  return err;
}

LexOutput lex_source(std::string_view source, const std::string& path,
                     const std::vector<std::string>* known_variables) {
  Lexer lx(source, path, known_variables);
  return lx.run();
}

std::vector<Token> tokenize(std::string_view source, const std::string& path) {
  LexOutput out = lex_source(source, path);
  if (out.error) throw *out.error;
  return std::move(out.tokens);
}

const char* token_name(Tok t) {
  switch (t) {
    case Tok::Eof:
      return "end of input";
    case Tok::Newline:
      return "end of line";
    case Tok::Semicolon:
      return "';'";
    case Tok::Comma:
      return "','";
    case Tok::Ident:
      return "identifier";
    case Tok::Keyword:
      return "keyword";
    case Tok::Number:
      return "number";
    case Tok::ImagNumber:
      return "imaginary number";
    case Tok::CharLit:
      return "character vector";
    case Tok::StringLit:
      return "string";
    case Tok::LParen:
      return "'('";
    case Tok::RParen:
      return "')'";
    case Tok::LBracket:
      return "'['";
    case Tok::RBracket:
      return "']'";
    case Tok::LBrace:
      return "'{'";
    case Tok::RBrace:
      return "'}'";
    case Tok::Plus:
      return "'+'";
    case Tok::Minus:
      return "'-'";
    case Tok::Star:
      return "'*'";
    case Tok::Slash:
      return "'/'";
    case Tok::Backslash:
      return "'\\'";
    case Tok::Caret:
      return "'^'";
    case Tok::DotStar:
      return "'.*'";
    case Tok::DotSlash:
      return "'./'";
    case Tok::DotBackslash:
      return "'.\\'";
    case Tok::DotCaret:
      return "'.^'";
    case Tok::Quote:
      return "'''";
    case Tok::DotQuote:
      return "'.''";
    case Tok::Eq:
      return "'=='";
    case Tok::Ne:
      return "'~='";
    case Tok::Lt:
      return "'<'";
    case Tok::Le:
      return "'<='";
    case Tok::Gt:
      return "'>'";
    case Tok::Ge:
      return "'>='";
    case Tok::Amp:
      return "'&'";
    case Tok::Bar:
      return "'|'";
    case Tok::AmpAmp:
      return "'&&'";
    case Tok::BarBar:
      return "'||'";
    case Tok::Tilde:
      return "'~'";
    case Tok::Assign:
      return "'='";
    case Tok::Colon:
      return "':'";
    case Tok::Dot:
      return "'.'";
    case Tok::At:
      return "'@'";
    case Tok::CommandWord:
      return "command argument";
  }
  return "token";
}

std::string describe_token(const Token& t) {
  switch (t.kind) {
    case Tok::Ident:
      return "identifier '" + t.text + "'";
    case Tok::Keyword:
      return "keyword '" + t.text + "'";
    case Tok::Number:
    case Tok::ImagNumber:
      return "number '" + t.raw + "'";
    case Tok::CharLit:
      return "character vector '" + t.text + "'";
    case Tok::StringLit:
      return "string \"" + t.text + "\"";
    case Tok::CommandWord:
      return "'" + t.text + "'";
    default:
      return token_name(t.kind);
  }
}

}  // namespace matfuse
