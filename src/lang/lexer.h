// Lexer: MATLAB source text to tokens (internal to src/lang).
//
// Context rules handled here (the lexer keeps its own bracket stack and statement-start state):
// - inside [ ] and { } literals, whitespace separates elements: `[1 -2]` is two elements while
//   `[1 - 2]` and `[1 -  2]` are one: a '+'/'-' preceded by whitespace and not followed by
//   whitespace starts a new element. The lexer emits an explicit Comma token for every such
//   whitespace separator, and a Newline token for a line break (a row separator).
//   `[x(1) (2)]` and `[a {1}]` are two elements; `{@(x) x+1}` is one (the parameter list of an
//   anonymous function does not end a value).
// - a quote after an identifier, number, closing bracket, `'`, `.'` or keyword `end` is a
//   transpose when no whitespace precedes it; outside [ ] and { } literals whitespace does not
//   matter (`a '` is a transpose, as in MATLAB). Otherwise the quote opens a char literal.
// - `%{` / `%}` on lines of their own delimit block comments (nestable); `...` continues a line
//   (the rest of the line is ignored).
// - command syntax (`format long`, `hold on`) is recognised at statement start: an identifier
//   that is not a keyword and not yet assigned in the current function/script, followed by
//   whitespace and then text that does not continue an expression (not `=`, not `(`, not an
//   operator followed by whitespace). Its arguments become CommandWord tokens.
// - a newline inside ( ) is an unbalanced-bracket error, as in MATLAB (use `...`).
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "lang/ast.h"
#include "runtime/error.h"

namespace matfuse {

enum class Tok : uint8_t {
  Eof,
  Newline,
  Semicolon,
  Comma,
  Ident,
  Keyword,
  Number,
  ImagNumber,
  CharLit,
  StringLit,
  LParen,
  RParen,
  LBracket,
  RBracket,
  LBrace,
  RBrace,
  Plus,
  Minus,
  Star,
  Slash,
  Backslash,
  Caret,
  DotStar,
  DotSlash,
  DotBackslash,
  DotCaret,
  Quote /* ' transpose */,
  DotQuote /* .' */,
  Eq /* == */,
  Ne,
  Lt,
  Le,
  Gt,
  Ge,
  Amp,
  Bar,
  AmpAmp,
  BarBar,
  Tilde /* ~ or ! */,
  Assign /* = */,
  Colon,
  Dot,
  At,
  CommandWord /* one argument of command syntax */,
};

struct Token {
  Tok kind = Tok::Eof;
  std::string text;       ///< identifier/keyword name, literal contents (unescaped), command word
  std::string raw;        ///< exact source text of a Number/ImagNumber token ("1e-3", "0x1F")
  double number = 0;      ///< Number / ImagNumber value
  std::string int_class;  ///< "uint8".."int64" for 0x/0b literals, else empty
  ast::Loc loc;
  bool space_before = false;  ///< whitespace immediately precedes this token
  int depth = 0;              ///< bracket nesting depth at this token (0 = statement level)
};

/// Tokenizes a whole source text. Throws MatlabError (see parser.h) on lexical errors. The last
/// token is always Eof.
std::vector<Token> tokenize(std::string_view source, const std::string& path);

/// Like tokenize, but never throws: on a lexical error the tokens lexed so far are returned,
/// followed by Eof, and the error is stored in `error` (the parser raises it only when it reaches
/// that point, so earlier syntax errors are reported first).
struct LexOutput {
  std::vector<Token> tokens;
  std::optional<MatlabError> error;
};
/// `known_variables` (may be null) are names already defined in the workspace (REPL, -e): at
/// statement start they are not taken as command syntax (`x -1` is a subtraction when x exists).
LexOutput lex_source(std::string_view source, const std::string& path,
                     const std::vector<std::string>* known_variables = nullptr);

const char* token_name(Tok t);

/// "identifier 'x'", "end of line", "')'" ... for "found X" in messages.
std::string describe_token(const Token& t);

/// True for MATLAB keywords (and the Octave `endif`-style block ends).
bool is_keyword(std::string_view word);

/// Builds the syntax error documented in parser.h: message "PATH:LINE:COL: Parse error: MSG"
/// (no "PATH:" prefix when path is empty) and one stack frame (path, file stem, line, column).
MatlabError make_parse_error(const std::string& path, ast::Loc loc, const char* identifier,
                             const std::string& msg);

/// File stem of a path: "dir/foo.m" -> "foo".
std::string file_stem(const std::string& path);

}  // namespace matfuse
