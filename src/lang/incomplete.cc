// input_is_incomplete: when the prompt keeps reading lines (see parser.h).
//
// The text is parsed; it is incomplete when parsing fails only because the input ended:
// MATLAB:missingEnd, or MATLAB:unbalancedBrackets reported at the end of the input (the lexer
// says "found end of input"; inside parentheses a line break is an error at that line break,
// but at the end of the text it is only the end of what was typed so far). A last line whose
// code ends with `...` continues as well.
#include <algorithm>
#include <cctype>
#include <string>

#include "lang/parser.h"
#include "runtime/error.h"

namespace matfuse {

namespace {

/// Whether the last line of text (a final newline aside) has a `...` continuation outside
/// strings and comments.
bool ends_with_continuation(std::string_view text) {
  size_t end = text.size();
  if (end > 0 && text[end - 1] == '\n') --end;
  if (end > 0 && text[end - 1] == '\r') --end;
  size_t begin = end == 0 ? std::string_view::npos : text.rfind('\n', end - 1);
  begin = begin == std::string_view::npos ? 0 : begin + 1;
  std::string_view line = text.substr(begin, end - begin);
  char quote = 0;
  char prev = ' ';
  for (size_t i = 0; i < line.size(); ++i) {
    char c = line[i];
    if (quote) {
      if (c == quote) {
        if (i + 1 < line.size() && line[i + 1] == quote) ++i;
        else quote = 0;
      }
      continue;
    }
    if (c == '%' || c == '#') return false;
    if (c == '.' && line.substr(i, 3) == "...") return true;
    if (c == '"') {
      quote = c;
    } else if (c == '\'') {
      // A quote after a value (identifier, number, closing bracket, transpose) transposes.
      const bool after_value = std::isalnum(static_cast<unsigned char>(prev)) || prev == '_' ||
                               prev == ')' || prev == ']' || prev == '}' || prev == '\'' ||
                               prev == '.';
      if (!after_value) quote = c;
    }
    if (c != ' ' && c != '\t') prev = c;
  }
  return false;
}

/// Byte offset of (line, column) in text (1-based), or text.size() when past the end.
size_t offset_of(std::string_view text, int line, int column) {
  size_t pos = 0;
  for (int l = 1; l < line; ++l) {
    size_t nl = text.find('\n', pos);
    if (nl == std::string_view::npos) return text.size();
    pos = nl + 1;
  }
  return std::min(text.size(), pos + static_cast<size_t>(std::max(column - 1, 0)));
}

bool only_space_after(std::string_view text, size_t pos) {
  for (size_t i = pos; i < text.size(); ++i)
    if (text[i] != ' ' && text[i] != '\t' && text[i] != '\n' && text[i] != '\r') return false;
  return true;
}

}  // namespace

bool input_is_incomplete(std::string_view source,
                         const std::vector<std::string>& known_variables) {
  if (ends_with_continuation(source)) return true;
  try {
    parse_source(source, "", known_variables);
    return false;
  } catch (const MatlabError& e) {
    if (e.identifier() == "MATLAB:missingEnd") return true;
    // An open bracket at the end of the input (not a line break inside parentheses).
    if (e.identifier() != "MATLAB:unbalancedBrackets" || e.stack().empty() ||
        e.message().find("end of input") == std::string::npos)
      return false;
    const StackFrame& f = e.stack().front();
    return only_space_after(source, offset_of(source, f.line, f.column));
  }
}

}  // namespace matfuse
