#include "builtins/text_import.h"

#include <cctype>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "builtins/format.h"

namespace matfuse::text_import {

namespace {

std::string lower(std::string s) {
  for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

}  // namespace

std::string read_file(const std::string& path) {
  std::error_code ec;
  std::ifstream in;
  if (std::filesystem::is_regular_file(path, ec)) in.open(path, std::ios::binary);
  if (!in)
    throw_error("MATLAB:textio:textio:FileNotFound",
                "Unable to find or open '%s'. Check the path and filename or file permissions.",
                path.c_str());
  std::ostringstream ss;
  ss << in.rdbuf();
  std::string s = ss.str();
  if (s.size() >= 3 && static_cast<unsigned char>(s[0]) == 0xEF &&
      static_cast<unsigned char>(s[1]) == 0xBB && static_cast<unsigned char>(s[2]) == 0xBF)
    s.erase(0, 3);
  return s;
}

std::string detect_delimiter(std::string_view text) {
  const char cands[] = {',', '\t', ';', '|'};
  size_t counts[4] = {0, 0, 0, 0};
  bool quoted = false;
  int lines = 0;
  for (size_t i = 0; i < text.size() && lines < 100; ++i) {
    char c = text[i];
    if (c == '"') quoted = !quoted;
    if (quoted) continue;
    if (c == '\n') ++lines;
    for (int k = 0; k < 4; ++k)
      if (c == cands[k]) ++counts[k];
  }
  for (int k = 0; k < 4; ++k)
    if (counts[k]) return std::string(1, cands[k]);
  return " ";
}

std::vector<Record> parse_records(std::string_view text, const std::string& delim) {
  std::vector<Record> out;
  const bool blanks = delim == " ";
  size_t i = 0;
  const size_t n = text.size();
  auto at_eol = [&](size_t k) { return k >= n || text[k] == '\n' || text[k] == '\r'; };
  auto skip_eol = [&](size_t& k) {
    if (k < n && text[k] == '\r') ++k;
    if (k < n && text[k] == '\n') ++k;
  };
  while (i < n) {
    Record rec;
    if (blanks)
      while (i < n && (text[i] == ' ' || text[i] == '\t')) ++i;
    if (at_eol(i)) {  // empty line
      skip_eol(i);
      out.push_back(std::move(rec));
      continue;
    }
    while (true) {
      Field f;
      size_t k = i;
      while (k < n && (text[k] == ' ' || text[k] == '\t') && !blanks && delim != "\t") ++k;
      if (k < n && text[k] == '"') {
        // RFC 4180 quoted field.
        f.quoted = true;
        ++k;
        while (k < n) {
          if (text[k] == '"') {
            if (k + 1 < n && text[k + 1] == '"') {
              f.text.push_back('"');
              k += 2;
              continue;
            }
            ++k;
            break;
          }
          if (text[k] == '\r' && k + 1 < n && text[k + 1] == '\n') {
            ++k;  // CRLF inside quotes: one line break
            continue;
          }
          f.text.push_back(text[k++]);
        }
        // Anything after the closing quote up to the delimiter belongs to the field.
        while (k < n && !at_eol(k) &&
               !(blanks ? (text[k] == ' ' || text[k] == '\t')
                        : text.compare(k, delim.size(), delim) == 0)) {
          if (text[k] != ' ' && text[k] != '\t') f.text.push_back(text[k]);
          ++k;
        }
      } else {
        k = i;
        while (k < n && !at_eol(k) &&
               !(blanks ? (text[k] == ' ' || text[k] == '\t')
                        : text.compare(k, delim.size(), delim) == 0))
          f.text.push_back(text[k++]);
      }
      rec.push_back(std::move(f));
      if (at_eol(k)) {
        i = k;
        skip_eol(i);
        break;
      }
      if (blanks) {
        while (k < n && (text[k] == ' ' || text[k] == '\t')) ++k;
        if (at_eol(k)) {
          i = k;
          skip_eol(i);
          break;
        }
        i = k;
      } else {
        i = k + delim.size();
        if (at_eol(i)) {  // a delimiter at the end of the line: one more (empty) field
          rec.push_back(Field{});
          skip_eol(i);
          break;
        }
      }
    }
    out.push_back(std::move(rec));
  }
  return out;
}

std::optional<double> parse_number(std::string_view s0, char decimal, char thousands,
                                   bool* empty) {
  size_t a = 0, b = s0.size();
  while (a < b && std::isspace(static_cast<unsigned char>(s0[a]))) ++a;
  while (b > a && std::isspace(static_cast<unsigned char>(s0[b - 1]))) --b;
  if (empty) *empty = a == b;
  if (a == b) return std::nullopt;
  std::string t;
  t.reserve(b - a);
  for (size_t i = a; i < b; ++i) {
    char c = s0[i];
    if (thousands && c == thousands) continue;
    if (c == decimal) c = '.';
    else if (c == '.' && decimal != '.') return std::nullopt;
    t.push_back(c);
  }
  std::string l = lower(t);
  size_t sign = (l[0] == '+' || l[0] == '-') ? 1 : 0;
  std::string body = l.substr(sign);
  if (body == "inf" || body == "nan") {
    double v = body == "inf" ? INFINITY : NAN;
    return l[0] == '-' ? -v : v;
  }
  // Only decimal notation: no hex, no "infinity"/"nan(...)" forms strtod would also take.
  for (char c : body)
    if (!(std::isdigit(static_cast<unsigned char>(c)) || c == '.' || c == 'e' || c == '+' ||
          c == '-'))
      return std::nullopt;
  const char* s = t.c_str();
  char* end = nullptr;
  double d = std::strtod(s, &end);
  if (end == s || *end != '\0') return std::nullopt;
  return d;
}

namespace {

/// Column letters (A, Z, AA, ...) to a 0-based index; -1 when there are none.
int64_t column_index(const std::string& s, size_t& i) {
  int64_t c = 0;
  size_t start = i;
  while (i < s.size() && std::isalpha(static_cast<unsigned char>(s[i])))
    c = c * 26 + (std::toupper(static_cast<unsigned char>(s[i++])) - 'A' + 1);
  return i == start ? -1 : c - 1;
}

int64_t row_index(const std::string& s, size_t& i) {
  int64_t r = 0;
  size_t start = i;
  while (i < s.size() && std::isdigit(static_cast<unsigned char>(s[i]))) r = r * 10 + (s[i++] - '0');
  return i == start ? -1 : r - 1;
}

[[noreturn]] void bad_range(const std::string& s) {
  throw_error("MATLAB:textio:io:InvalidRange",
              "Invalid range '%s'. Specify a range such as 'A1:C3', 'B2', 'A:C' or '2:5'.",
              s.c_str());
}

}  // namespace

Range parse_range(const Value& v) {
  Range r;
  if (v.is_numeric()) {
    Tensor t = v.tensor();
    auto at = [&](int64_t k) {
      double d = t.get_double(k);
      if (!(d >= 1) || d != std::floor(d))
        throw_error("MATLAB:textio:io:InvalidRange", "Range indices must be positive integers.");
      return static_cast<int64_t>(d) - 1;
    };
    if (t.numel() == 2) {
      r.r0 = at(0);
      r.c0 = at(1);
    } else if (t.numel() == 4) {
      r.r0 = at(0);
      r.c0 = at(1);
      r.r1 = at(2);
      r.c1 = at(3);
    } else {
      throw_error("MATLAB:textio:io:InvalidRange",
                  "Numeric range must be [row col] or [row1 col1 row2 col2].");
    }
    return r;
  }
  const std::string s = v.to_text("Range");
  size_t colon = s.find(':');
  auto corner = [&](const std::string& part, int64_t& row, int64_t& col) {
    size_t i = 0;
    col = column_index(part, i);
    row = row_index(part, i);
    if (i != part.size() || (row < 0 && col < 0)) bad_range(s);
  };
  if (colon == std::string::npos) {
    corner(s, r.r0, r.c0);
    if (r.r0 < 0 || r.c0 < 0) bad_range(s);
    return r;
  }
  int64_t ra, ca, rb, cb;
  corner(s.substr(0, colon), ra, ca);
  corner(s.substr(colon + 1), rb, cb);
  if ((ra < 0) != (rb < 0) || (ca < 0) != (cb < 0)) bad_range(s);
  r.r0 = std::max<int64_t>(ra, 0);
  r.c0 = std::max<int64_t>(ca, 0);
  r.r1 = rb;
  r.c1 = cb;
  if ((r.r1 >= 0 && r.r1 < r.r0) || (r.c1 >= 0 && r.c1 < r.c0)) bad_range(s);
  return r;
}

std::string delimiter_arg(const Value& v, std::string_view fname) {
  if (v.is_cell() && v.numel() >= 1) return delimiter_arg(v.cell()[0], fname);
  std::string d = text_arg(v, fname, 0);
  std::string l = lower(d);
  if (l == "comma") return ",";
  if (l == "space" || l == "whitespace") return " ";
  if (l == "tab" || d == "\\t") return "\t";
  if (l == "semi") return ";";
  if (l == "bar") return "|";
  if (d.empty()) throw_error("MATLAB:textio:io:InvalidDelimiter", "Delimiter must not be empty.");
  return d;
}

}  // namespace matfuse::text_import
