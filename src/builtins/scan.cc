// fscanf, sscanf and textscan: formatted text input.
//
// fscanf(fid, formatSpec[, sizeA]) / sscanf(str, formatSpec[, sizeA]): the format is applied
// again and again until the input ends or does not match (MATLAB cycles it). Conversions: %d %i
// %u %ld (integers), %f %e %g (numbers, also Inf/NaN), %s (a word), %c (characters, blanks
// included), %[...] / %[^...] (character sets), %*... (read and skip), widths (%5f); blanks in
// the format match any amount of white space, other characters match themselves. The values
// fill a double column (characters as their codes), or a char row when every conversion reads
// text; sizeA (n, Inf, [m n], [m Inf]) shapes it, filled column by column. [A, count] also
// returns the number of values read.
//
// C = textscan(fid or str, formatSpec[, N], Name, Value): a 1xK cell, one column per
// conversion: %f %f32 %f64 %n (double / single), %d %d8 ... %u64 (integers), %s (cell of words),
// %q (cell, double quotes removed), %c (char column), %*... skipped, literals matched. Options:
// 'Delimiter' (char or cell of chars; fields are then split at them instead of at blanks),
// 'HeaderLines', 'MultipleDelimsAsOne', 'CollectOutput', 'EmptyValue' (NaN), 'CommentStyle',
// 'Whitespace', 'EndOfLine' (LF, CRLF or CR accepted). N repeats the format N times.
#include <cctype>
#include <cmath>
#include <cstdlib>
#include <limits>
#include <string>
#include <vector>

#include "builtins/format.h"
#include "runtime/array_size.h"

namespace matfuse {

namespace {

std::string lower(std::string s) {
  for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

/// The rest of the file of fid, as text (the position moves to its end).
std::string read_rest(const Value& fid) {
  std::FILE* fp = fid_read_file(fid);
  std::string s;
  if (!fp) return s;  // opened for writing only
  char buf[65536];
  size_t n;
  while ((n = std::fread(buf, 1, sizeof buf, fp)) > 0) s.append(buf, n);
  return s;
}

bool is_space(char c) { return std::isspace(static_cast<unsigned char>(c)) != 0; }

/// Parses a number at s[i] (decimal/exponent notation, Inf, NaN, optional sign); advances i.
bool scan_number(const std::string& s, size_t& i, size_t width, bool integer, double& out) {
  const size_t end = width ? std::min(s.size(), i + width) : s.size();
  size_t k = i;
  if (k < end && (s[k] == '+' || s[k] == '-')) ++k;
  auto word = [&](const char* w) {
    size_t n = std::char_traits<char>::length(w);
    if (k + n > end) return false;
    for (size_t j = 0; j < n; ++j)
      if (std::tolower(static_cast<unsigned char>(s[k + j])) != w[j]) return false;
    return true;
  };
  if (!integer && (word("inf") || word("nan"))) {
    const bool inf = word("inf");
    k += 3;
    if (inf && word("inity")) k += 5;
    double v = inf ? std::numeric_limits<double>::infinity() : std::nan("");
    out = s[i] == '-' ? -v : v;
    i = k;
    return true;
  }
  size_t digits = 0;
  while (k < end && std::isdigit(static_cast<unsigned char>(s[k]))) ++k, ++digits;
  if (!integer && k < end && s[k] == '.') {
    ++k;
    while (k < end && std::isdigit(static_cast<unsigned char>(s[k]))) ++k, ++digits;
  }
  if (digits == 0) return false;
  if (!integer && k < end && (s[k] == 'e' || s[k] == 'E' || s[k] == 'd' || s[k] == 'D')) {
    size_t e = k + 1;
    if (e < end && (s[e] == '+' || s[e] == '-')) ++e;
    size_t ed = e;
    while (ed < end && std::isdigit(static_cast<unsigned char>(s[ed]))) ++ed;
    if (ed > e) k = ed;
  }
  std::string t = s.substr(i, k - i);
  for (char& c : t)
    if (c == 'd' || c == 'D') c = 'e';
  out = std::strtod(t.c_str(), nullptr);
  i = k;
  return true;
}

struct Conv {
  char kind = 0;        ///< 'd' integer, 'f' number, 's' word, 'c' chars, '[' set, 'q' quoted,
                        ///< 0 literal text
  bool skip = false;    ///< %*
  size_t width = 0;
  std::string set;      ///< %[...] members
  bool negate = false;  ///< %[^...]
  std::string literal;  ///< kind 0
  std::string type;     ///< textscan class: "double", "single", "int32", ...
};

/// Parses formatSpec into conversions and literals ("%%" is a literal '%'). Errors:
/// MATLAB:textscan:BadFormatString / MATLAB:sscanf:badFormat style.
std::vector<Conv> parse_format(const std::string& f, const char* fname) {
  std::vector<Conv> out;
  size_t i = 0;
  auto literal = [&](char c) {
    if (out.empty() || out.back().kind != 0) out.push_back(Conv{});
    out.back().literal.push_back(c);
  };
  while (i < f.size()) {
    if (f[i] != '%') {
      literal(f[i++]);
      continue;
    }
    if (i + 1 < f.size() && f[i + 1] == '%') {
      literal('%');
      i += 2;
      continue;
    }
    ++i;
    Conv c;
    if (i < f.size() && f[i] == '*') c.skip = true, ++i;
    while (i < f.size() && std::isdigit(static_cast<unsigned char>(f[i])))
      c.width = c.width * 10 + static_cast<size_t>(f[i++] - '0');
    if (i < f.size() && f[i] == '.') {  // precision: ignored on input
      ++i;
      while (i < f.size() && std::isdigit(static_cast<unsigned char>(f[i]))) ++i;
    }
    while (i < f.size() && (f[i] == 'l' || f[i] == 'h')) ++i;
    if (i >= f.size())
      throw_error("MATLAB:textscan:BadFormatString", "%s: format ends inside a conversion.",
                  fname);
    char k = f[i++];
    auto bits = [&]() {
      std::string b;
      while (i < f.size() && std::isdigit(static_cast<unsigned char>(f[i]))) b += f[i++];
      return b;
    };
    switch (k) {
      case 'd': case 'i': {
        std::string b = bits();
        c.kind = 'd';
        c.type = "int" + (b.empty() ? std::string("32") : b);
        break;
      }
      case 'u': {
        std::string b = bits();
        c.kind = 'd';
        c.type = "uint" + (b.empty() ? std::string("32") : b);
        break;
      }
      case 'f': case 'e': case 'g': case 'n': {
        std::string b = k == 'f' ? bits() : "";
        c.kind = 'f';
        c.type = b == "32" ? "single" : "double";
        break;
      }
      case 's': c.kind = 's'; break;
      case 'q': c.kind = 'q'; break;
      case 'c': c.kind = 'c'; if (!c.width) c.width = 1; break;
      case '[': {
        c.kind = '[';
        if (i < f.size() && f[i] == '^') c.negate = true, ++i;
        if (i < f.size() && f[i] == ']') c.set += f[i++];
        while (i < f.size() && f[i] != ']') c.set += f[i++];
        if (i >= f.size())
          throw_error("MATLAB:textscan:BadFormatString", "%s: unterminated %%[ set.", fname);
        ++i;
        break;
      }
      default:
        throw_error("MATLAB:textscan:BadFormatString", "%s: unsupported conversion '%%%c'.",
                    fname, k);
    }
    out.push_back(std::move(c));
  }
  return out;
}

// ---------------------------------------------------------------- fscanf / sscanf

Outputs scan_values(const std::string& s, const std::string& fmt, Args size_args, int nargout,
                    const char* fname) {
  std::vector<Conv> convs = parse_format(fmt, fname);
  bool all_text = true, any_conv = false;
  for (const Conv& c : convs)
    if (c.kind && !c.skip) {
      any_conv = true;
      if (c.kind == 'd' || c.kind == 'f') all_text = false;
    }
  // sizeA: the most values to read and the shape.
  int64_t rows = -1, cols = -1, limit = std::numeric_limits<int64_t>::max();
  if (!size_args.empty()) {
    Tensor t = size_args[0].tensor();
    auto dim = [&](int64_t k) {
      double d = t.get_double(k);
      // Inf (and NaN) read without limit; 1e300 is clamped (its cast would be undefined).
      return !(d < INFINITY) ? int64_t(-1) : clamp_count(d);
    };
    if (t.numel() == 1) {
      rows = dim(0);
      if (rows >= 0) limit = rows;
    } else if (t.numel() == 2) {
      rows = dim(0);
      cols = dim(1);
      if (rows < 0)
        throw_error("MATLAB:fscanf:invalidSize", "Only the last dimension of sizeA can be Inf.");
      if (cols >= 0) limit = rows * cols;
    } else {
      throw_error("MATLAB:fscanf:invalidSize", "sizeA must be n, Inf, [m n] or [m Inf].");
    }
  }
  std::vector<double> vals;
  size_t i = 0;
  bool progress = true;
  while (any_conv && progress && static_cast<int64_t>(vals.size()) < limit && i < s.size()) {
    progress = false;
    const size_t start = i;
    for (const Conv& c : convs) {
      if (static_cast<int64_t>(vals.size()) >= limit) break;
      if (c.kind == 0) {
        bool ok = true;
        for (char lc : c.literal) {
          if (is_space(lc)) {
            while (i < s.size() && is_space(s[i])) ++i;
          } else if (i < s.size() && s[i] == lc) {
            ++i;
          } else {
            ok = false;
            break;
          }
        }
        if (!ok) goto done;
        continue;
      }
      if (c.kind != 'c')
        while (i < s.size() && is_space(s[i])) ++i;
      if (i >= s.size()) goto done;
      if (c.kind == 'd' || c.kind == 'f') {
        double v;
        if (!scan_number(s, i, c.width, c.kind == 'd', v)) goto done;
        if (!c.skip) vals.push_back(v);
      } else {
        std::string w;
        if (c.kind == 'c') {
          for (size_t n = 0; n < c.width && i < s.size(); ++n) w += s[i++];
        } else if (c.kind == '[') {
          while (i < s.size() && (!c.width || w.size() < c.width) &&
                 ((c.set.find(s[i]) != std::string::npos) != c.negate))
            w += s[i++];
          if (w.empty()) goto done;
        } else {
          while (i < s.size() && !is_space(s[i]) && (!c.width || w.size() < c.width)) w += s[i++];
        }
        if (!c.skip)
          for (unsigned char ch : w) vals.push_back(ch);  // UTF-8 bytes as codes
      }
    }
    progress = i > start;
  }
done:
  const int64_t count = static_cast<int64_t>(vals.size());
  Value a;
  if (any_conv && all_text && size_args.empty()) {
    std::string text(vals.begin(), vals.end());
    a = char_row(text);
  } else {
    int64_t m = count, n = 1;
    if (rows >= 0 && cols != -1 && size_args.size() && size_args[0].numel() == 2) {
      m = rows;
      n = cols >= 0 ? cols : (count + rows - 1) / std::max<int64_t>(rows, 1);
    } else if (rows >= 0 && size_args.size() && size_args[0].numel() == 2) {
      m = rows;
      n = (count + rows - 1) / std::max<int64_t>(rows, 1);
    }
    Tensor t = Tensor::zeros(ClassId::Double, Dims(m, n));
    for (int64_t k = 0; k < count && k < m * n; ++k) t.set_double(k, vals[static_cast<size_t>(k)]);
    if (count == 0 && size_args.empty()) t = Tensor::zeros(ClassId::Double, Dims(0, 0));
    a = Value(std::move(t));
  }
  Outputs out{a};
  if (nargout >= 2) out.push_back(Value(static_cast<double>(count)));
  return out;
}

Outputs bi_fscanf(CallContext&, Args args, int nargout) {
  check_nargin(args, 2, 3);
  check_nargout(nargout, 3);
  std::string fmt = text_arg(args[1], "fscanf", 2);
  std::string text = read_rest(args[0]);
  Outputs o = scan_values(text, fmt, args.subspan(2), nargout, "fscanf");
  if (nargout >= 3) o.push_back(char_row(""));
  return o;
}

Outputs bi_sscanf(CallContext&, Args args, int nargout) {
  check_nargin(args, 2, 3);
  check_nargout(nargout, 3);
  std::string text = text_arg(args[0], "sscanf", 1);
  std::string fmt = text_arg(args[1], "sscanf", 2);
  Outputs o = scan_values(text, fmt, args.subspan(2), nargout, "sscanf");
  if (nargout >= 3) o.push_back(char_row(""));
  return o;
}

// ---------------------------------------------------------------- textscan

struct ScanOptions {
  std::string delims;  ///< "" = white space separates fields
  std::string whitespace = " \b\t";
  int64_t header_lines = 0;
  bool multiple_delims_as_one = false;
  bool collect = false;
  double empty_value = std::nan("");
  std::vector<std::string> comment;  ///< {start} or {start, end}
};

/// Removes comments and header lines; normalises line ends to '\n'.
std::string prepare_text(std::string s, const ScanOptions& o) {
  std::string t;
  t.reserve(s.size());
  for (size_t i = 0; i < s.size(); ++i) {
    if (s[i] == '\r') {
      t += '\n';
      if (i + 1 < s.size() && s[i + 1] == '\n') ++i;
    } else {
      t += s[i];
    }
  }
  size_t pos = 0;
  for (int64_t h = 0; h < o.header_lines && pos < t.size(); ++h) {
    size_t nl = t.find('\n', pos);
    pos = nl == std::string::npos ? t.size() : nl + 1;
  }
  t.erase(0, pos);
  if (!o.comment.empty() && !o.comment[0].empty()) {
    std::string r;
    size_t i = 0;
    while (i < t.size()) {
      if (t.compare(i, o.comment[0].size(), o.comment[0]) == 0) {
        if (o.comment.size() >= 2) {
          size_t e = t.find(o.comment[1], i + o.comment[0].size());
          i = e == std::string::npos ? t.size() : e + o.comment[1].size();
        } else {
          size_t e = t.find('\n', i);
          i = e == std::string::npos ? t.size() : e;
        }
        continue;
      }
      r += t[i++];
    }
    t.swap(r);
  }
  return t;
}

Outputs bi_textscan(CallContext& ctx, Args args, int nargout) {
  check_nargin(args, 1, SIZE_MAX);
  check_nargout(nargout, 2);
  const bool from_text = args[0].is_text();
  size_t a = 1;
  std::string fmt = "%f";
  // The format is the second argument when name-value pairs follow it, or the count N (a
  // number) and then pairs: textscan(str, '%f', 2).
  if (a < args.size() && args[a].is_text() &&
      ((args.size() - a) % 2 == 1 || !args[a + 1].is_text()))
    fmt = args[a++].to_text();
  int64_t repeat = -1;
  if (a < args.size() && !args[a].is_text()) {
    double n = args[a++].to_double("N");
    // Inf, NaN, negative and counts past int64 (undefined to convert) read to the end.
    repeat = !(n >= 0 && n < 9.2e18) ? -1 : static_cast<int64_t>(n);
  }
  ScanOptions o;
  for (; a + 1 < args.size(); a += 2) {
    std::string key = lower(text_arg(args[a], "textscan", static_cast<int>(a) + 1));
    const Value& v = args[a + 1];
    auto unescape = [](std::string d) {
      std::string r;
      for (size_t i = 0; i < d.size(); ++i) {
        if (d[i] == '\\' && i + 1 < d.size()) {
          char n = d[++i];
          r += n == 't' ? '\t' : n == 'n' ? '\n' : n == 'r' ? '\r' : n == 'b' ? '\b' : n;
        } else {
          r += d[i];
        }
      }
      return r;
    };
    if (key == "delimiter") {
      if (v.is_cell()) {
        for (int64_t k = 0; k < v.numel(); ++k) o.delims += unescape(v.cell()[k].to_text());
      } else {
        o.delims = unescape(v.to_text("Delimiter"));
      }
    } else if (key == "headerlines") {
      o.header_lines = v.to_index("HeaderLines");
    } else if (key == "multipledelimsasone") {
      o.multiple_delims_as_one = v.to_double("MultipleDelimsAsOne") != 0;
    } else if (key == "collectoutput") {
      o.collect = v.to_double("CollectOutput") != 0;
    } else if (key == "emptyvalue") {
      o.empty_value = v.to_double("EmptyValue");
    } else if (key == "whitespace") {
      o.whitespace = unescape(v.to_text("Whitespace"));
    } else if (key == "commentstyle") {
      if (v.is_cell())
        for (int64_t k = 0; k < v.numel(); ++k) o.comment.push_back(v.cell()[k].to_text());
      else
        o.comment.push_back(v.to_text("CommentStyle"));
    } else if (key == "endofline" || key == "returnonerror" || key == "bufsize" ||
               key == "treatasempty" || key == "texttype" || key == "datetimetype") {
      continue;
    } else {
      throw_error("MATLAB:textscan:UnknownOption", "Unknown option '%s'.", key.c_str());
    }
  }
  std::string text = prepare_text(from_text ? args[0].to_text() : read_rest(args[0]), o);
  std::vector<Conv> convs = parse_format(fmt, "textscan");
  std::vector<size_t> out_index;  // conversion -> output column
  size_t ncols = 0;
  for (const Conv& c : convs) {
    out_index.push_back(c.kind && !c.skip ? ncols : SIZE_MAX);
    if (c.kind && !c.skip) ++ncols;
  }
  std::vector<std::vector<double>> nums(ncols);
  std::vector<std::vector<std::string>> strs(ncols);
  auto is_ws = [&](char c) { return o.whitespace.find(c) != std::string::npos || c == '\n'; };
  auto is_delim = [&](char c) { return !o.delims.empty() && o.delims.find(c) != std::string::npos; };
  size_t i = 0;
  int64_t rounds = 0;
  auto skip_ws = [&] {
    while (i < text.size() && is_ws(text[i]) && !is_delim(text[i])) ++i;
  };
  // After a field: skip blanks and one delimiter (or several with MultipleDelimsAsOne).
  auto after_field = [&] {
    while (i < text.size() && o.whitespace.find(text[i]) != std::string::npos && !is_delim(text[i]))
      ++i;
    if (i < text.size() && is_delim(text[i])) {
      ++i;
      if (o.multiple_delims_as_one)
        while (i < text.size() && (is_delim(text[i]) || o.whitespace.find(text[i]) != std::string::npos)) ++i;
    }
  };
  bool stop = false;
  while (!stop && (repeat < 0 || rounds < repeat)) {
    skip_ws();
    if (i >= text.size()) break;
    const size_t start = i;
    for (size_t k = 0; k < convs.size(); ++k) {
      const Conv& c = convs[k];
      if (c.kind == 0) {
        for (char lc : c.literal) {
          if (is_space(lc)) continue;
          skip_ws();
          if (i < text.size() && text[i] == lc) ++i;
          else { stop = true; break; }
        }
        if (stop) break;
        // Blanks in the format only separate conversions; other text is a field of its own.
        if (c.literal.find_first_not_of(" \t\n") != std::string::npos) after_field();
        continue;
      }
      if (c.kind != 'c') skip_ws();
      // An empty field between delimiters.
      const bool empty_field = i >= text.size() || is_delim(text[i]) || text[i] == '\n';
      const size_t col = out_index[k];
      if (c.kind == 'd' || c.kind == 'f') {
        double v = o.empty_value;
        if (!empty_field) {
          if (!scan_number(text, i, c.width, false, v)) { stop = true; break; }
        } else if (i >= text.size() && k == 0) {
          stop = true;
          break;
        }
        if (col != SIZE_MAX) nums[col].push_back(v);
      } else {
        std::string w;
        if (c.kind == 'c') {
          for (size_t n = 0; n < c.width && i < text.size(); ++n) w += text[i++];
        } else if (c.kind == 'q' && i < text.size() && text[i] == '"') {
          ++i;
          while (i < text.size() && text[i] != '"') w += text[i++];
          if (i < text.size()) ++i;
        } else if (c.kind == '[') {
          while (i < text.size() && ((c.set.find(text[i]) != std::string::npos) != c.negate)) w += text[i++];
        } else {
          while (i < text.size() && !is_delim(text[i]) && text[i] != '\n' &&
                 (o.delims.empty() ? !is_ws(text[i]) : true) && (!c.width || w.size() < c.width))
            w += text[i++];
          if (!o.delims.empty())
            while (!w.empty() && o.whitespace.find(w.back()) != std::string::npos) w.pop_back();
        }
        if (col != SIZE_MAX) strs[col].push_back(w);
      }
      after_field();
    }
    if (!stop) ++rounds;
    if (i == start) break;
  }
  // Columns: numbers (class per conversion), cellstr for %s/%q, char column for %c.
  std::vector<Value> cols;
  for (size_t k = 0; k < convs.size(); ++k) {
    const Conv& c = convs[k];
    const size_t col = out_index[k];
    if (col == SIZE_MAX) continue;
    if (c.kind == 'd' || c.kind == 'f') {
      const auto& v = nums[col];
      Tensor t = Tensor::zeros(ClassId::Double, Dims(static_cast<int64_t>(v.size()), 1));
      for (size_t r = 0; r < v.size(); ++r) t.set_double(static_cast<int64_t>(r), v[r]);
      Value val(std::move(t));
      if (c.type != "double") {
        Value arg[1] = {val};
        val = ctx.call_named(c.type, Args(arg, 1), 1)[0];
      }
      cols.push_back(std::move(val));
    } else if (c.kind == 'c') {
      std::string all;
      for (const auto& w : strs[col]) all += w;
      Tensor t = Tensor::zeros(ClassId::Char, Dims(static_cast<int64_t>(all.size()), 1));
      for (size_t r = 0; r < all.size(); ++r)
        t.set_double(static_cast<int64_t>(r), static_cast<unsigned char>(all[r]));
      cols.push_back(Value(std::move(t)));
    } else {
      CellArray cs(Dims(static_cast<int64_t>(strs[col].size()), 1));
      for (size_t r = 0; r < strs[col].size(); ++r)
        cs.at(static_cast<int64_t>(r)) = char_row(strs[col][r]);
      cols.push_back(Value(std::move(cs)));
    }
  }
  if (o.collect && cols.size() > 1) {
    // Adjacent columns of the same class are joined into one matrix.
    std::vector<Value> joined;
    for (Value& v : cols) {
      if (!joined.empty() && v.is_tensor() && joined.back().is_tensor() &&
          v.class_name() == joined.back().class_name() && !v.is_char() &&
          v.dims().rows() == joined.back().dims().rows()) {
        Value pair[2] = {joined.back(), v};
        joined.back() = ctx.call_named("horzcat", Args(pair, 2), 1)[0];
      } else {
        joined.push_back(v);
      }
    }
    cols.swap(joined);
  }
  CellArray out(Dims(1, static_cast<int64_t>(cols.size())));
  for (size_t k = 0; k < cols.size(); ++k) out.at(static_cast<int64_t>(k)) = std::move(cols[k]);
  Outputs r{Value(std::move(out))};
  if (nargout >= 2) r.push_back(Value(static_cast<double>(i)));
  return r;
}

}  // namespace

void register_scan(Registry& r) {
  r.add("fscanf", bi_fscanf);
  r.add("sscanf", bi_sscanf);
  r.add("textscan", bi_textscan);
}

}  // namespace matfuse
