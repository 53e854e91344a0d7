// The MATLAB printf engine; see format.h for the format language and the recycling rules.
#include "builtins/format.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <optional>
#include <vector>

namespace matfuse {

void append_utf8_cp(std::string& out, uint32_t cp) {
  if (cp < 0x80) {
    out.push_back(static_cast<char>(cp));
  } else if (cp < 0x800) {
    out.push_back(static_cast<char>(0xC0 | (cp >> 6)));
    out.push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  } else if (cp < 0x10000) {
    out.push_back(static_cast<char>(0xE0 | (cp >> 12)));
    out.push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
    out.push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  } else {
    if (cp > 0x10FFFF) cp = 0xFFFD;
    out.push_back(static_cast<char>(0xF0 | (cp >> 18)));
    out.push_back(static_cast<char>(0x80 | ((cp >> 12) & 0x3F)));
    out.push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
    out.push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  }
}

Value char_row(std::string_view utf8) {
  if (utf8.empty()) return Value(Tensor::zeros(ClassId::Char, Dims(1, 0)));
  return Value::from_chars(utf8);
}

std::string text_arg(const Value& v, std::string_view fname, int pos) {
  if (v.is_text()) return v.to_text();
  throw_error("MATLAB:invalidInput",
              "Input argument %d of %.*s must be a character vector or string scalar.", pos,
              static_cast<int>(fname.size()), fname.data());
}

bool is_message_identifier(std::string_view s) {
  size_t parts = 0, start = 0;
  while (true) {
    size_t colon = s.find(':', start);
    std::string_view part = s.substr(start, colon == std::string_view::npos ? s.npos : colon - start);
    if (part.empty() || !std::isalpha(static_cast<unsigned char>(part[0]))) return false;
    for (char c : part)
      if (!std::isalnum(static_cast<unsigned char>(c)) && c != '_' && c != '-') return false;
    ++parts;
    if (colon == std::string_view::npos) break;
    start = colon + 1;
  }
  return parts >= 2;
}

std::string decode_escapes(std::string_view s) {
  std::string out;
  out.reserve(s.size());
  for (size_t i = 0; i < s.size(); ++i) {
    char c = s[i];
    if (c != '\\' || i + 1 >= s.size()) {
      out.push_back(c);
      continue;
    }
    char e = s[++i];
    switch (e) {
      case 'n': out.push_back('\n'); break;
      case 't': out.push_back('\t'); break;
      case '\\': out.push_back('\\'); break;
      case 'r': out.push_back('\r'); break;
      case 'a': out.push_back('\a'); break;
      case 'b': out.push_back('\b'); break;
      case 'f': out.push_back('\f'); break;
      case 'v': out.push_back('\v'); break;
      case 'x': {
        uint32_t v = 0;
        size_t j = i + 1;
        while (j < s.size() && std::isxdigit(static_cast<unsigned char>(s[j]))) {
          char h = s[j];
          v = v * 16 + (std::isdigit(static_cast<unsigned char>(h)) ? h - '0'
                                                                    : (std::tolower(h) - 'a' + 10));
          ++j;
        }
        if (j == i + 1) {
          out += "\\x";
        } else {
          append_utf8_cp(out, v);
          i = j - 1;
        }
        break;
      }
      default:
        if (e >= '0' && e <= '7') {
          uint32_t v = 0;
          size_t j = i;
          while (j < s.size() && j < i + 3 && s[j] >= '0' && s[j] <= '7') v = v * 8 + (s[j++] - '0');
          append_utf8_cp(out, v);
          i = j - 1;
        } else {
          out.push_back('\\');
          out.push_back(e);
        }
    }
  }
  return out;
}

namespace {

/// One parsed piece of a format: literal text or a conversion.
struct Piece {
  bool literal = true;
  std::string text;        // literal text
  std::string flags;       // conversion flags
  int width = -1;          // -1 none, -2 '*'
  int precision = -1;      // -1 none, -2 '*'
  char conv = 0;
};

std::vector<Piece> parse_format(std::string_view f) {
  std::vector<Piece> pieces;
  std::string lit;
  auto flush = [&] {
    if (!lit.empty()) {
      Piece p;
      p.text = std::move(lit);
      pieces.push_back(std::move(p));
      lit.clear();
    }
  };
  for (size_t i = 0; i < f.size(); ++i) {
    if (f[i] != '%') {
      lit.push_back(f[i]);
      continue;
    }
    if (i + 1 < f.size() && f[i + 1] == '%') {
      lit.push_back('%');
      ++i;
      continue;
    }
    size_t j = i + 1;
    Piece p;
    p.literal = false;
    while (j < f.size() && std::string_view("-+ 0#").find(f[j]) != std::string_view::npos)
      p.flags.push_back(f[j++]);
    if (j < f.size() && f[j] == '*') {
      p.width = -2;
      ++j;
    } else if (j < f.size() && std::isdigit(static_cast<unsigned char>(f[j]))) {
      p.width = 0;
      while (j < f.size() && std::isdigit(static_cast<unsigned char>(f[j])))
        p.width = std::min(p.width * 10 + (f[j++] - '0'), 100000);
    }
    if (j < f.size() && f[j] == '.') {
      ++j;
      if (j < f.size() && f[j] == '*') {
        p.precision = -2;
        ++j;
      } else {
        p.precision = 0;
        while (j < f.size() && std::isdigit(static_cast<unsigned char>(f[j])))
          p.precision = std::min(p.precision * 10 + (f[j++] - '0'), 100000);
      }
    }
    while (j < f.size() && std::string_view("lhbt").find(f[j]) != std::string_view::npos) ++j;
    if (j < f.size() && std::string_view("diuoxXfFeEgGcs").find(f[j]) != std::string_view::npos) {
      p.conv = f[j];
      flush();
      pieces.push_back(std::move(p));
      i = j;
    } else {
      // Invalid conversion: MATLAB stops the output here.
      flush();
      Piece stop;
      stop.literal = false;
      stop.conv = 0;
      pieces.push_back(std::move(stop));
      break;
    }
  }
  flush();
  return pieces;
}

/// One element taken from the data stream.
struct Item {
  bool is_text = false;
  std::string text;  // whole char array / string element
  double num = 0;
  bool from_char = false;
  // Exact 64-bit integer payloads (int64/uint64 classes lose precision as double).
  bool has_i64 = false, has_u64 = false;
  int64_t i64 = 0;
  uint64_t u64 = 0;
};

struct Source {
  bool text_only = false;  // string array element
  std::string text;
  Tensor t;
};

class Stream {
public:
  Stream(Args args, std::string_view fname) {
    for (const Value& v : args) {
      if (v.is_tensor()) {
        Source s;
        s.t = v.tensor();
        if (s.t.numel() > 0) sources_.push_back(std::move(s));
      } else if (v.is_string()) {
        const StringArray& sa = v.string_array();
        for (int64_t k = 0; k < sa.numel(); ++k) {
          Source s;
          s.text_only = true;
          s.text = sa[k] ? *sa[k] : std::string("<missing>");
          sources_.push_back(std::move(s));
        }
      } else {
        std::string cls = v.class_name();
        std::string id = "MATLAB:" + std::string(fname) + ":InvalidInputType";
        throw_error(id.c_str(), "Function is not defined for '%s' inputs.", cls.c_str());
      }
    }
  }
  bool exhausted() const { return src_ >= sources_.size(); }
  size_t count() const { return sources_.size(); }

  /// Next element; want_text: a %s/%c conversion (a char array at its start is taken whole
  /// for %s).
  Item next(bool whole_text) {
    Item it;
    Source& s = sources_[src_];
    if (s.text_only) {
      it.is_text = true;
      it.text = s.text;
      advance_source();
      return it;
    }
    if (whole_text && s.t.cls() == ClassId::Char && pos_ == 0) {
      it.is_text = true;
      it.text = s.t.to_utf8();
      advance_source();
      return it;
    }
    it.num = s.t.get_double(pos_);
    it.from_char = s.t.cls() == ClassId::Char;
    if (s.t.cls() == ClassId::Int64 && !s.t.is_complex()) {
      it.has_i64 = true;
      it.i64 = s.t.data<int64_t>()[pos_];
    } else if (s.t.cls() == ClassId::UInt64 && !s.t.is_complex()) {
      it.has_u64 = true;
      it.u64 = s.t.data<uint64_t>()[pos_];
    }
    if (++pos_ >= s.t.numel()) advance_source();
    return it;
  }

private:
  void advance_source() {
    ++src_;
    pos_ = 0;
  }
  std::vector<Source> sources_;
  size_t src_ = 0;
  int64_t pos_ = 0;
};

/// A '*' width or precision taken from the data: capped like one written in the format
/// (100000), since converting a larger value (or an integer class's 2^64-1) to int is undefined;
/// NaN and infinities give 0.
int star_value(double v) {
  if (!std::isfinite(v)) return 0;
  return static_cast<int>(std::clamp(v, -100000.0, 100000.0));
}

std::string pad(std::string s, int width, bool left) {
  // Width counts code points, not bytes.
  int n = 0;
  for (unsigned char c : s)
    if ((c & 0xC0) != 0x80) ++n;
  if (width > n) {
    std::string fill(static_cast<size_t>(width - n), ' ');
    s = left ? s + fill : fill + s;
  }
  return s;
}

std::string c_format(const Piece& p, int width, int precision, const char* length, char conv,
                     auto value) {
  std::string spec = "%" + p.flags;
  if (width >= 0) spec += std::to_string(width);
  if (precision >= 0) spec += "." + std::to_string(precision);
  spec += length;
  spec.push_back(conv);
  int n = std::snprintf(nullptr, 0, spec.c_str(), value);
  if (n <= 0) return std::string();
  std::string out(static_cast<size_t>(n) + 1, '\0');
  std::snprintf(out.data(), out.size(), spec.c_str(), value);
  out.resize(static_cast<size_t>(n));
  return out;
}

std::string nonfinite(const Piece& p, int width, double v) {
  std::string s = std::isnan(v) ? "NaN" : (v < 0 ? "-Inf" : "Inf");
  if (!std::isnan(v) && v > 0) {
    if (p.flags.find('+') != std::string::npos) s = "+Inf";
    else if (p.flags.find(' ') != std::string::npos) s = " Inf";
  }
  return pad(s, width, p.flags.find('-') != std::string::npos);
}

std::string format_number(const Piece& p, int width, int precision, const Item& it, char conv) {
  double v = it.num;
  bool left = p.flags.find('-') != std::string::npos;
  switch (conv) {
    case 'd': case 'i': case 'u': case 'o': case 'x': case 'X': case 'c': case 's': {
      if (!std::isfinite(v)) return nonfinite(p, width, v);
      bool integral = it.has_i64 || it.has_u64 || v == std::floor(v);
      bool unsigned_conv = conv == 'u' || conv == 'o' || conv == 'x' || conv == 'X';
      bool negative = it.has_i64 ? it.i64 < 0 : (!it.has_u64 && v < 0);
      if (!integral || (unsigned_conv && negative))
        return c_format(p, width, precision, "", 'e', v);
      if (conv == 'c' || conv == 's') {
        std::string s;
        append_utf8_cp(s, v < 0 ? 0xFFFD : static_cast<uint32_t>(std::min(v, 1114111.0)));
        return pad(s, width, left);
      }
      char cc = conv == 'i' ? 'd' : conv;
      if (it.has_i64) return c_format(p, width, precision, "ll", cc, static_cast<long long>(it.i64));
      if (it.has_u64)
        return c_format(p, width, precision, "ll", cc == 'd' ? 'u' : cc,
                        static_cast<unsigned long long>(it.u64));
      if (cc == 'd') {
        if (std::fabs(v) < 9.2e18)
          return c_format(p, width, precision, "ll", 'd', static_cast<long long>(v));
        return c_format(p, width, 0, "", 'f', v);
      }
      if (v < 1.8e19)
        return c_format(p, width, precision, "ll", cc, static_cast<unsigned long long>(v));
      return c_format(p, width, 0, "", 'f', v);
    }
    default:
      if (!std::isfinite(v)) return nonfinite(p, width, v);
      return c_format(p, width, precision, "", conv, v);
  }
}

}  // namespace

std::string format_printf(std::string_view fmt_in, Args args, std::string_view fname) {
  std::string fmt = decode_escapes(fmt_in);
  std::vector<Piece> pieces = parse_format(fmt);
  Stream data(args, fname);
  std::string out;

  bool any_conv = false;
  for (const Piece& p : pieces) any_conv |= !p.literal;

  if (args.empty() || !any_conv) {
    for (const Piece& p : pieces) {
      if (!p.literal) break;
      out += p.text;
    }
    return out;
  }
  if (data.count() == 0) {
    for (const Piece& p : pieces) {
      if (p.literal) out += p.text;
      else if (p.conv == 0) break;
    }
    return out;
  }

  while (true) {
    for (const Piece& p : pieces) {
      if (p.literal) {
        out += p.text;
        continue;
      }
      if (p.conv == 0 || data.exhausted()) return out;
      int width = p.width, precision = p.precision;
      Piece eff = p;
      if (width == -2) {
        Item w = data.next(false);
        width = star_value(w.num);
        if (width < 0) {
          eff.flags += '-';
          width = -width;
        }
        if (data.exhausted()) return out;
      }
      if (precision == -2) {
        Item w = data.next(false);
        precision = std::isfinite(w.num) && w.num >= 0 ? star_value(w.num) : -1;
        if (data.exhausted()) return out;
      }
      bool text_conv = p.conv == 's' || p.conv == 'c';
      Item it = data.next(p.conv == 's');
      if (it.is_text) {
        if (text_conv) {
          std::string s = it.text;
          if (p.conv == 's' && precision >= 0) {
            // Truncate to `precision` code points.
            size_t cut = 0;
            int cps = 0;
            while (cut < s.size() && cps < precision) {
              ++cut;
              while (cut < s.size() && (static_cast<unsigned char>(s[cut]) & 0xC0) == 0x80) ++cut;
              ++cps;
            }
            s.resize(cut);
          }
          out += pad(s, width, eff.flags.find('-') != std::string::npos);
        } else {
          // Text item (string array element) meeting a numeric conversion: its characters are
          // numbers one by one, with the same conversion.
          Tensor t = Tensor::from_string(it.text);
          for (int64_t k = 0; k < t.numel(); ++k) {
            Item c;
            c.num = t.get_double(k);
            c.from_char = true;
            out += format_number(eff, width, precision, c, p.conv);
          }
        }
      } else {
        out += format_number(eff, width, precision, it, p.conv);
      }
    }
    if (data.exhausted()) return out;
  }
}

}  // namespace matfuse
