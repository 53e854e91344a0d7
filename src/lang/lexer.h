// Lexer: MATLAB source text to tokens.
//
// Context rules handled here (the parser passes the context it is in):
// - inside [ ] and { }, whitespace separates elements: `[1 -2]` is two elements while
//   `[1 - 2]` and `[1 -2]`... follow MATLAB: a '+'/'-' preceded by whitespace and not followed by
//   whitespace starts a new element; the lexer emits an explicit Comma token for such separators.
// - a quote after an identifier, number, closing bracket, `'` or `.'`, with no whitespace before
//   it, is a transpose; otherwise it opens a char literal.
// - `%{` / `%}` on lines of their own delimit block comments (nestable); `...` continues a line.
// - command syntax (`format long`, `hold on`) is recognised at statement start: an identifier
//   followed by whitespace and a word that does not start an operator expression.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "lang/ast.h"

namespace matfuse {

enum class Tok : uint8_t {
  Eof, Newline, Semicolon, Comma,
  Ident, Keyword, Number, ImagNumber, CharLit, StringLit,
  LParen, RParen, LBracket, RBracket, LBrace, RBrace,
  Plus, Minus, Star, Slash, Backslash, Caret,
  DotStar, DotSlash, DotBackslash, DotCaret,
  Quote /* ' transpose */, DotQuote /* .' */,
  Eq /* == */, Ne, Lt, Le, Gt, Ge,
  Amp, Bar, AmpAmp, BarBar, Tilde /* ~ or ! */,
  Assign /* = */, Colon, Dot, At,
  CommandWord /* one argument of command syntax */,
};

struct Token {
  Tok kind = Tok::Eof;
  std::string text;      ///< identifier/keyword name, literal contents (unescaped), command word
  double number = 0;     ///< Number / ImagNumber value
  ast::Loc loc;
  bool space_before = false;  ///< whitespace immediately precedes this token
};

/// Tokenizes a whole source text. Throws MatlabError (see parser.h) on lexical errors.
std::vector<Token> tokenize(std::string_view source, const std::string& path);

const char* token_name(Tok t);

}  // namespace matfuse
