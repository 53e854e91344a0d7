// Builtins of the "text" family: strfind, pad, replace, split, join, compose, extractBetween,
// extractBefore, extractAfter (this file); regexp, regexpi, regexprep (text_regexp.cc);
// containers.Map (text_map.cc).
//
// Text inputs: a char row (one text), a cell array of char rows (elementwise, cell result), or a
// string array (elementwise, string result), as in MATLAB.
#include <algorithm>
#include <cctype>

#include "builtins/format.h"
#include "builtins/text_util.h"

namespace matfuse {

namespace text_detail {

TextItems text_items(const Value& v, const char* id, const char* msg) {
  TextItems t;
  if (v.is_char() && (v.dims().rows() <= 1 || v.is_empty()) && v.dims().ndims() == 2) {
    t.items.push_back(v.is_empty() ? std::string() : v.to_text());
  } else if (v.is_cell()) {
    t.is_cell = true;
    t.dims = v.dims();
    for (const Value& e : v.cell().elems()) {
      if (!e.is_char() || (e.dims().rows() > 1 && !e.is_empty())) throw_error(id, "%s", msg);
      t.items.push_back(e.is_empty() ? std::string() : e.to_text());
    }
  } else if (v.is_string()) {
    t.is_string = true;
    t.dims = v.dims();
    for (const auto& s : v.string_array().elems()) {
      if (!s)
        throw_error("MATLAB:string:MissingToCharConversion",
                    "Conversion from <missing> to character vector is not supported.");
      t.items.push_back(*s);
    }
  } else {
    throw_error(id, "%s", msg);
  }
  return t;
}

Value pack_text(const TextItems& shape, const std::vector<std::string>& out) {
  if (shape.is_string) {
    StringArray a(shape.dims);
    for (size_t i = 0; i < out.size(); ++i) a.at(static_cast<int64_t>(i)) = out[i];
    return Value(std::move(a));
  }
  if (shape.is_cell) {
    CellArray c(shape.dims);
    for (size_t i = 0; i < out.size(); ++i) c.at(static_cast<int64_t>(i)) = char_row(out[i]);
    return Value(std::move(c));
  }
  return char_row(out.at(0));
}

std::vector<int64_t> char_index_map(const std::string& s) {
  std::vector<int64_t> m(s.size() + 1);
  int64_t k = 0;
  for (size_t i = 0; i < s.size(); ++i) {
    m[i] = k;
    const auto c = static_cast<unsigned char>(s[i]);
    if ((c & 0xC0) != 0x80) k += c >= 0xF0 ? 2 : 1;  // 4-byte UTF-8 = surrogate pair
  }
  m[s.size()] = k;
  return m;
}

std::string lower(std::string s) {
  for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

}  // namespace text_detail

namespace {

using text_detail::TextItems;

TextItems items(const Value& v, const char* fname) {
  std::string id = std::string("MATLAB:") + fname + ":InvalidInput";
  std::string msg = std::string("First argument must be text.");
  return text_detail::text_items(v, id.c_str(), msg.c_str());
}

/// Code points of UTF-8 text (MATLAB character positions for BMP text).
std::vector<std::string> chars_of(const std::string& s) {
  std::vector<std::string> out;
  for (size_t i = 0; i < s.size();) {
    size_t j = i + 1;
    while (j < s.size() && (static_cast<unsigned char>(s[j]) & 0xC0) == 0x80) ++j;
    out.push_back(s.substr(i, j - i));
    i = j;
  }
  return out;
}
int64_t nchars(const std::string& s) { return static_cast<int64_t>(chars_of(s).size()); }
std::string char_range(const std::string& s, int64_t from, int64_t to) {  // [from, to) 0-based
  std::vector<std::string> c = chars_of(s);
  std::string out;
  for (int64_t i = std::max<int64_t>(from, 0); i < to && i < static_cast<int64_t>(c.size()); ++i)
    out += c[static_cast<size_t>(i)];
  return out;
}

Value double_row(const std::vector<double>& v) {
  Tensor t = Tensor::uninit(ClassId::Double, Dims(1, static_cast<int64_t>(v.size())));
  for (size_t i = 0; i < v.size(); ++i) t.set_double(static_cast<int64_t>(i), v[i]);
  return Value(std::move(t));
}

// ---------------------------------------------------------------- strfind

/// k = strfind(str, pat): 1-based start indices of every (overlapping) occurrence of pat in
/// str as a 1xN double (1x0 when none). A cell / string array str gives a cell of such rows.
/// 'ForceCellOutput', true wraps a single result in a 1x1 cell.
Outputs bi_strfind(CallContext&, Args args, int nargout) {
  check_nargin(args, 2, 4);
  check_nargout(nargout, 1);
  bool force_cell = false;
  if (args.size() == 4) {
    if (text_detail::lower(text_arg(args[2], "strfind", 3)) != "forcecelloutput")
      throw_error("MATLAB:strfind:UnknownParameter", "Unknown parameter name.");
    force_cell = args[3].truthy();
  } else if (args.size() == 3) {
    throw_error("MATLAB:minrhs", "Not enough input arguments.");
  }
  TextItems s = text_detail::text_items(
      args[0], "MATLAB:strfind:InvalidFirstInput",
      "First argument must be text or a cell array of character vectors.");
  if (!args[1].is_text() && !(args[1].is_char() && args[1].is_empty()))
    throw_error("MATLAB:strfind:InvalidSecondInput",
                "Second argument must be a character vector or string scalar.");
  const std::string pat = args[1].is_empty() ? std::string() : args[1].to_text();
  auto find_all = [&](const std::string& t) {
    std::vector<double> pos;
    if (pat.empty()) return double_row(pos);
    const std::vector<int64_t> ci = text_detail::char_index_map(t);
    for (size_t p = t.find(pat); p != std::string::npos; p = t.find(pat, p + 1))
      pos.push_back(static_cast<double>(ci[p] + 1));
    return double_row(pos);
  };
  // A char row or a string scalar gives a numeric row; cells and string arrays give cells.
  bool scalar_text = s.single() || (s.is_string && s.items.size() == 1 && s.dims.numel() == 1);
  if (scalar_text && !force_cell) return {find_all(s.items[0])};
  CellArray c(s.dims);
  for (size_t i = 0; i < s.items.size(); ++i) c.at(static_cast<int64_t>(i)) = find_all(s.items[i]);
  return {Value(std::move(c))};
}

// ---------------------------------------------------------------- pad

/// newStr = pad(str, [n], [side], [padChar]): pads with padChar (default space) on the 'right'
/// (default), 'left' or 'both' sides to n characters, or to the longest element's length when
/// n is omitted. Never truncates. Errors: MATLAB:pad:InvalidSide for an unknown side.
Outputs bi_pad(CallContext&, Args args, int nargout) {
  check_nargin(args, 1, 4);
  check_nargout(nargout, 1);
  TextItems s = items(args[0], "pad");
  int64_t width = -1;
  std::string side = "right", fill = " ";
  size_t k = 1;
  if (k < args.size() && !args[k].is_text() && args[k].is_tensor() && !args[k].is_char()) {
    double w = args[k].to_double("numberOfCharacters");
    if (!(w >= 0) || w != std::floor(w) || w >= 9.2e18)  // checked before any conversion
      throw_error("MATLAB:pad:InvalidWidth", "Number of characters must be a nonnegative integer.");
    width = static_cast<int64_t>(w);
    ++k;
  }
  if (k < args.size()) {
    side = text_detail::lower(text_arg(args[k], "pad", static_cast<int>(k) + 1));
    if (side != "left" && side != "right" && side != "both")
      throw_error("MATLAB:pad:InvalidSide", "Side must be 'left', 'right', or 'both'.");
    ++k;
  }
  if (k < args.size()) {
    fill = text_arg(args[k], "pad", static_cast<int>(k) + 1);
    if (nchars(fill) != 1)
      throw_error("MATLAB:pad:InvalidPadCharacter", "Pad character must be a single character.");
  }
  if (width < 0) {
    width = 0;
    for (const auto& t : s.items) width = std::max(width, nchars(t));
  }
  std::vector<std::string> out;
  for (const auto& t : s.items) {
    int64_t need = std::max<int64_t>(0, width - nchars(t));
    int64_t left = side == "left" ? need : side == "both" ? need / 2 : 0;
    std::string r;
    for (int64_t i = 0; i < left; ++i) r += fill;
    r += t;
    for (int64_t i = 0; i < need - left; ++i) r += fill;
    out.push_back(r);
  }
  return {text_detail::pack_text(s, out)};
}

// ---------------------------------------------------------------- replace

/// All texts of a pattern-like argument (char row, cell of char rows, string array).
std::vector<std::string> pattern_texts(const Value& v, const char* fname, int pos) {
  std::string id = std::string("MATLAB:") + fname + ":InvalidInput";
  std::string msg = "Argument " + std::to_string(pos) + " must be text.";
  return text_detail::text_items(v, id.c_str(), msg.c_str()).items;
}

/// newStr = replace(str, old, new): replaces every occurrence of old (or of any element of a
/// cell/string array old, scanning left to right, first listed pattern wins at a position) with
/// the matching element of new (or new itself when it is a single text).
Outputs bi_replace(CallContext&, Args args, int nargout) {
  check_nargin(args, 3, 3);
  check_nargout(nargout, 1);
  TextItems s = items(args[0], "replace");
  std::vector<std::string> olds = pattern_texts(args[1], "replace", 2);
  std::vector<std::string> news = pattern_texts(args[2], "replace", 3);
  if (news.size() != 1 && news.size() != olds.size())
    throw_error("MATLAB:string:SizeMismatch",
                "Replacement text must be a string scalar, a character vector, or have the "
                "same number of elements as the match text.");
  std::vector<std::string> out;
  for (const auto& t : s.items) {
    std::string r;
    size_t i = 0;
    while (i < t.size()) {
      bool hit = false;
      for (size_t k = 0; k < olds.size(); ++k) {
        if (!olds[k].empty() && t.compare(i, olds[k].size(), olds[k]) == 0) {
          r += news[news.size() == 1 ? 0 : k];
          i += olds[k].size();
          hit = true;
          break;
        }
      }
      if (!hit) r += t[i++];
    }
    out.push_back(r);
  }
  return {text_detail::pack_text(s, out)};
}

// ---------------------------------------------------------------- split / join

/// Splits t at any of delims (longest first); collapse merges adjacent delimiters.
std::vector<std::string> split_text(const std::string& t, std::vector<std::string> delims,
                                    bool collapse) {
  std::sort(delims.begin(), delims.end(), [](auto& a, auto& b) { return a.size() > b.size(); });
  std::vector<std::string> parts;
  std::string cur;
  bool last_delim = false;
  for (size_t i = 0; i < t.size();) {
    size_t len = 0;
    for (const auto& d : delims)
      if (!d.empty() && t.compare(i, d.size(), d) == 0) {
        len = d.size();
        break;
      }
    if (len) {
      if (!(collapse && last_delim)) parts.push_back(cur);
      cur.clear();
      last_delim = true;
      i += len;
    } else {
      cur += t[i++];
      last_delim = false;
    }
  }
  parts.push_back(cur);
  return parts;
}

/// newStr = split(str, [delimiter], ['CollapseDelimiters', tf]): a single text splits into an
/// Nx1 cell of char rows (Nx1 string for string input); whitespace by default. An Mx1 (or
/// 1xM) array of texts that all split into N parts gives an MxN result.
/// Errors: MATLAB:split:DimensionMismatch when element part counts differ.
Outputs bi_split(CallContext&, Args args, int nargout) {
  check_nargin(args, 1, 4);
  check_nargout(nargout, 2);
  TextItems s = items(args[0], "split");
  std::vector<std::string> delims = {" ", "\f", "\n", "\r", "\t", "\v"};
  size_t k = 1;
  if (args.size() == 2 || args.size() == 4) {
    delims.clear();
    for (auto& d : pattern_texts(args[1], "split", 2)) delims.push_back(decode_escapes(d));
    k = 2;
  }
  bool collapse = true;
  if (k + 1 < args.size()) {
    if (text_detail::lower(text_arg(args[k], "split", static_cast<int>(k) + 1)) !=
        "collapsedelimiters")
      throw_error("MATLAB:split:ParameterMismatch", "Unknown parameter name.");
    collapse = args[k + 1].truthy();
  } else if (k < args.size()) {
    throw_error("MATLAB:split:ParameterMismatch", "Parameter value is missing.");
  }
  std::vector<std::vector<std::string>> all;
  for (const auto& t : s.items) all.push_back(split_text(t, delims, collapse));
  const auto m = static_cast<int64_t>(all.size());
  const auto n = static_cast<int64_t>(all.empty() ? 0 : all[0].size());
  for (const auto& p : all)
    if (static_cast<int64_t>(p.size()) != n)
      throw_error("MATLAB:split:DimensionMismatch",
                  "Element %d of the text contains %zu delimiters while the previous elements "
                  "have %lld. All elements must contain the same number of delimiters.",
                  static_cast<int>(&p - all.data()) + 1, p.size() - 1,
                  static_cast<long long>(n - 1));
  // Single text: Nx1; several texts: M x N (row i = parts of text i).
  const Dims d = m == 1 ? Dims(n, 1) : Dims(m, n);
  auto at = [&](int64_t i, int64_t j) -> const std::string& {
    return all[static_cast<size_t>(i)][static_cast<size_t>(j)];
  };
  if (s.is_string) {
    StringArray a(d);
    for (int64_t i = 0; i < m; ++i)
      for (int64_t j = 0; j < n; ++j) a.at(m == 1 ? j : i + j * m) = at(i, j);
    return {Value(std::move(a))};
  }
  CellArray c(d);
  for (int64_t i = 0; i < m; ++i)
    for (int64_t j = 0; j < n; ++j) c.at(m == 1 ? j : i + j * m) = char_row(at(i, j));
  return {Value(std::move(c))};
}

/// newStr = join(str) | join(str, delimiter) | join(str, dim) | join(str, delimiter, dim):
/// joins the texts of a cell/string array along dim (default: the last dimension whose size is
/// not 1), so the result has size 1 along dim; a char row for a 1x1 cell result, a string for
/// a string input. delimiter (default ' ') is one text, or an array of texts with one fewer
/// element than str has along dim: either a vector (the same delimiters for every slice) or
/// str's size with one fewer along dim (per slice). 2-D inputs.
Outputs bi_join(CallContext&, Args args, int nargout) {
  check_nargin(args, 1, 3);
  check_nargout(nargout, 1);
  TextItems s = items(args[0], "join");
  const Value* delim_arg = nullptr;
  int dim = 0;
  if (args.size() >= 2) {
    if (args[1].is_tensor() && !args[1].is_char()) dim = static_cast<int>(args[1].to_index("dim"));
    else delim_arg = &args[1];
  }
  if (args.size() == 3) dim = static_cast<int>(args[2].to_index("dim"));
  if (s.single()) return {char_row(s.items[0])};
  if (s.dims.ndims() > 2)
    throw_error("MATLAB:join:NotSupported", "join supports 2-D arrays of text.");
  const int64_t rows = s.dims.rows(), cols = s.dims.cols();
  if (dim == 0) dim = cols != 1 ? 2 : (rows != 1 ? 1 : 2);
  if (dim != 1 && dim != 2)
    throw_error("MATLAB:join:InvalidDim", "Dimension must be 1 or 2 for 2-D text arrays.");
  const int64_t n = dim == 1 ? rows : cols, slices = dim == 1 ? cols : rows;
  std::vector<std::string> delims{" "};
  bool per_slice = false;
  if (delim_arg) {
    if (delim_arg->is_text()) {
      delims = {decode_escapes(delim_arg->to_text())};
    } else {
      TextItems d = items(*delim_arg, "join");
      delims = d.items;
      const Dims want = dim == 1 ? Dims(std::max<int64_t>(rows - 1, 0), cols)
                                 : Dims(rows, std::max<int64_t>(cols - 1, 0));
      per_slice = d.dims == want && slices > 1;
      if (!per_slice && static_cast<int64_t>(delims.size()) != std::max<int64_t>(n - 1, 0))
        throw_error("MATLAB:join:DelimiterSizeMismatch",
                    "The delimiter must be a scalar or have one fewer element than the "
                    "dimension being joined.");
    }
  }
  auto delim_at = [&](int64_t slice, int64_t k) -> const std::string& {
    if (delims.size() == 1) return delims[0];
    if (!per_slice) return delims[static_cast<size_t>(k)];
    // str-shaped minus one along dim, column-major.
    const int64_t dr = dim == 1 ? rows - 1 : rows;
    const int64_t r = dim == 1 ? k : slice, c = dim == 1 ? slice : k;
    return delims[static_cast<size_t>(r + c * dr)];
  };
  std::vector<std::string> out;
  for (int64_t sl = 0; sl < slices; ++sl) {
    std::string r;
    for (int64_t k = 0; k < n; ++k) {
      const int64_t i = dim == 1 ? k : sl, j = dim == 1 ? sl : k;
      if (k) r += delim_at(sl, k - 1);
      r += s.items[static_cast<size_t>(i + j * rows)];
    }
    out.push_back(std::move(r));
  }
  if (out.size() == 1) return {s.is_string ? Value::from_string(out[0]) : char_row(out[0])};
  TextItems shape = s;
  shape.dims = dim == 1 ? Dims(1, slices) : Dims(slices, 1);
  return {text_detail::pack_text(shape, out)};
}

// ---------------------------------------------------------------- compose

/// Number of data-consuming conversions in a printf format (%% excluded, '*' counted).
/// The conversion letters of a printf format in order ('*' for a width or precision taken
/// from the data); "%%" is no conversion.
std::string conversions(const std::string& f) {
  std::string out;
  for (size_t i = 0; i < f.size(); ++i) {
    if (f[i] != '%') continue;
    if (i + 1 < f.size() && f[i + 1] == '%') { ++i; continue; }
    size_t j = i + 1;
    while (j < f.size() && !std::isalpha(static_cast<unsigned char>(f[j]))) {
      if (f[j] == '*') out += '*';
      ++j;
    }
    while (j < f.size() && (f[j] == 'l' || f[j] == 'h' || f[j] == 'b' || f[j] == 't')) ++j;
    if (j < f.size()) out += f[j];
    i = j;
  }
  return out;
}

/// str = compose(formatSpec, A1, ..., AN): formats data row by row with the sprintf engine.
/// The data columns (of all A, side by side; a cell/string array gives one column item per
/// element of a row) are consumed nOps at a time, where nOps is the number of conversions: the
/// result has one row per data row and ncols/nOps columns. Cell of char rows for a char
/// format, string array for a string format. With no data, the format with escapes decoded.
Outputs bi_compose(CallContext&, Args args, int nargout) {
  check_nargin(args, 1, SIZE_MAX);
  check_nargout(nargout, 1);
  TextItems f = items(args[0], "compose");
  if (!f.single() && f.items.size() != 1)
    throw_error("MATLAB:compose:InvalidFormat", "Format must be a single text.");
  const std::string fmt = f.items[0];
  const bool as_string = f.is_string;
  auto pack = [&](const Dims& d, const std::vector<std::string>& v) {
    TextItems shape;
    shape.dims = d;
    shape.is_string = as_string;
    shape.is_cell = !as_string;
    if (!as_string && d.is_scalar()) return char_row(v[0]);
    return text_detail::pack_text(shape, v);
  };
  if (args.size() == 1) return {pack(Dims::scalar(), {format_printf(fmt, {}, "compose")})};
  // Build a rows x cols table of data items.
  int64_t rows = -1;
  std::vector<std::vector<Value>> cols;  // each column: `rows` items
  for (size_t a = 1; a < args.size(); ++a) {
    const Value& v = args[a];
    if (v.is_char() && (v.dims().rows() <= 1)) {
      if (rows < 0) rows = 1;
      cols.push_back(std::vector<Value>(static_cast<size_t>(rows), v));
      continue;
    }
    const Dims d = v.dims();
    const int64_t r = d.rows(), c = d.numel() / std::max<int64_t>(d.rows(), 1);
    if (rows >= 0 && r != rows)
      throw_error("MATLAB:compose:DimensionMismatch",
                  "All data arguments must have the same number of rows.");
    rows = r;
    for (int64_t j = 0; j < c; ++j) {
      std::vector<Value> col;
      for (int64_t i = 0; i < r; ++i) {
        const int64_t lin = i + j * r;
        if (v.is_cell()) col.push_back(v.cell()[lin]);
        else if (v.is_string()) col.push_back(Value::from_string(v.string_array()[lin].value_or("")));
        else if (v.is_tensor()) {
          Tensor t = v.tensor();
          Tensor e = Tensor::uninit(t.cls(), Dims::scalar(), t.is_complex());
          if (t.is_complex()) e.set_complex(0, t.get_complex(lin));
          else e.set_double(0, t.get_double(lin));
          col.push_back(Value(std::move(e)));
        } else {
          throw_error("MATLAB:compose:InvalidInputType",
                      "Data arguments must be numeric, logical, text, or cell arrays.");
        }
      }
      cols.push_back(std::move(col));
    }
  }
  if (rows <= 0 || cols.empty()) return {pack(Dims(0, 0), {})};
  const std::string convs = conversions(fmt);
  const int nops = std::max(static_cast<int>(convs.size()), 1);
  const auto ncols = static_cast<int64_t>(cols.size());
  const int64_t groups = (ncols + nops - 1) / nops;
  std::vector<std::string> out(static_cast<size_t>(rows * groups));
  for (int64_t i = 0; i < rows; ++i)
    for (int64_t g = 0; g < groups; ++g) {
      std::vector<Value> data;
      for (int64_t k = g * nops; k < std::min<int64_t>((g + 1) * nops, ncols); ++k) {
        const Value& v = cols[static_cast<size_t>(k)][static_cast<size_t>(i)];
        // A complex number meeting %s is written as text ("1+2i"), as string(z) writes it.
        const bool as_text = static_cast<size_t>(k - g * nops) < convs.size() &&
                             convs[static_cast<size_t>(k - g * nops)] == 's' && v.is_tensor() &&
                             v.tensor().is_complex();
        data.push_back(as_text ? to_string_value(v) : v);
      }
      out[static_cast<size_t>(i + g * rows)] = format_printf(fmt, data, "compose");
    }
  return {pack(Dims(rows, groups), out)};
}

// ---------------------------------------------------------------- extract*

/// Position or pattern argument: a numeric position, or a text pattern.
struct Boundary {
  bool is_pos = false;
  int64_t pos = 0;
  std::string pat;
};
Boundary boundary_arg(const Value& v, const char* fname, int argpos) {
  Boundary b;
  if (v.is_tensor() && !v.is_char()) {
    double d = v.to_double("position");
    if (!(d >= 0) || d != std::floor(d) || d >= 9.2e18) {  // checked before any conversion
      std::string id = std::string("MATLAB:") + fname + ":InvalidPosition";
      throw_error(id.c_str(), "Position must be a positive integer.");
    }
    b.is_pos = true;
    b.pos = static_cast<int64_t>(d);
    return b;
  }
  b.pat = text_arg(v, fname, argpos);
  return b;
}

void check_pos(int64_t p, int64_t lo, int64_t n, const char* fname) {
  if (p < lo || p > n) {
    std::string id = std::string("MATLAB:") + fname + ":OutOfRange";
    throw_error(id.c_str(), "Numeric position exceeds the number of characters.");
  }
}

/// Missing results: <missing> for string input, '' for char/cell input.
Value pack_optional(const TextItems& s, const std::vector<std::optional<std::string>>& out) {
  if (s.is_string) {
    StringArray a(s.dims);
    for (size_t i = 0; i < out.size(); ++i) a.at(static_cast<int64_t>(i)) = out[i];
    return Value(std::move(a));
  }
  std::vector<std::string> v;
  for (const auto& o : out) v.push_back(o.value_or(""));
  return text_detail::pack_text(s, v);
}

/// extractBefore(str, pat|pos) (after=false) / extractAfter(str, pat|pos) (after=true): the text
/// before/after the first occurrence of pat, or before/after position pos. A missing pattern
/// gives <missing> (string input) or '' (char input).
Outputs extract_side(Args args, int nargout, const char* fname, bool after) {
  check_nargin(args, 2, 2);
  check_nargout(nargout, 1);
  TextItems s = items(args[0], fname);
  Boundary b = boundary_arg(args[1], fname, 2);
  std::vector<std::optional<std::string>> out;
  for (const auto& t : s.items) {
    const int64_t n = nchars(t);
    if (b.is_pos) {
      if (after) {
        check_pos(b.pos, 0, n, fname);
        out.push_back(char_range(t, b.pos, n));
      } else {
        check_pos(b.pos, 1, n + 1, fname);
        out.push_back(char_range(t, 0, b.pos - 1));
      }
      continue;
    }
    size_t p = t.find(b.pat);
    if (p == std::string::npos) out.push_back(std::nullopt);
    else out.push_back(after ? t.substr(p + b.pat.size()) : t.substr(0, p));
  }
  return {pack_optional(s, out)};
}

Outputs bi_extractBefore(CallContext&, Args a, int n) { return extract_side(a, n, "extractBefore", false); }
Outputs bi_extractAfter(CallContext&, Args a, int n) { return extract_side(a, n, "extractAfter", true); }

/// newStr = extractBetween(str, startPat, endPat, ['Boundaries', 'inclusive'|'exclusive']) or
/// extractBetween(str, startPos, endPos) (positions inclusive). For a single text with text
/// boundaries, every occurrence is returned as an Nx1 cell (string array for string input);
/// for arrays of texts the first occurrence per element (<missing>/'' when absent).
Outputs bi_extractBetween(CallContext&, Args args, int nargout) {
  check_nargin(args, 3, 5);
  check_nargout(nargout, 1);
  TextItems s = items(args[0], "extractBetween");
  Boundary a = boundary_arg(args[1], "extractBetween", 2);
  Boundary b = boundary_arg(args[2], "extractBetween", 3);
  if (a.is_pos != b.is_pos)
    throw_error("MATLAB:extractBetween:MixedInputs",
                "Start and end must both be positions or both be text.");
  bool inclusive = a.is_pos;
  if (args.size() == 5) {
    if (text_detail::lower(text_arg(args[3], "extractBetween", 4)) != "boundaries")
      throw_error("MATLAB:extractBetween:UnknownParameter", "Unknown parameter name.");
    std::string v = text_detail::lower(text_arg(args[4], "extractBetween", 5));
    if (v != "inclusive" && v != "exclusive")
      throw_error("MATLAB:extractBetween:InvalidBoundaries",
                  "Boundaries must be 'inclusive' or 'exclusive'.");
    inclusive = v == "inclusive";
  } else if (args.size() == 4) {
    throw_error("MATLAB:extractBetween:UnknownParameter", "Parameter value is missing.");
  }
  auto all_between = [&](const std::string& t) {
    std::vector<std::string> r;
    if (a.is_pos) {
      const int64_t n = nchars(t);
      check_pos(a.pos, 1, n + 1, "extractBetween");
      check_pos(b.pos, 0, n, "extractBetween");
      int64_t from = inclusive ? a.pos - 1 : a.pos, to = inclusive ? b.pos : b.pos - 1;
      r.push_back(char_range(t, from, std::max(from, to)));
      return r;
    }
    size_t p = 0;
    while (true) {
      size_t s0 = t.find(a.pat, p);
      if (s0 == std::string::npos) break;
      size_t e0 = t.find(b.pat, s0 + a.pat.size());
      if (e0 == std::string::npos) break;
      size_t from = inclusive ? s0 : s0 + a.pat.size();
      size_t to = inclusive ? e0 + b.pat.size() : e0;
      r.push_back(t.substr(from, to - from));
      p = e0 + b.pat.size();
    }
    return r;
  };
  if (s.single() || (s.is_string && s.items.size() == 1)) {
    std::vector<std::string> r = all_between(s.items[0]);
    TextItems shape;
    shape.dims = Dims(static_cast<int64_t>(r.size()), 1);
    if (r.size() == 1) shape.dims = Dims(1, 1);
    shape.is_string = s.is_string;
    shape.is_cell = !s.is_string;
    if (r.empty()) {
      if (s.is_string) return {Value(StringArray(Dims(0, 1)))};
      return {Value(CellArray(Dims(0, 1)))};
    }
    return {text_detail::pack_text(shape, r)};
  }
  std::vector<std::optional<std::string>> out;
  for (const auto& t : s.items) {
    std::vector<std::string> r = all_between(t);
    out.push_back(r.empty() ? std::nullopt : std::optional<std::string>(r[0]));
  }
  return {pack_optional(s, out)};
}

}  // namespace

void register_text(Registry& r) {
  r.add("strfind", bi_strfind);
  r.add("pad", bi_pad);
  r.add("replace", bi_replace);
  r.add("split", bi_split);
  r.add("join", bi_join);
  r.add("compose", bi_compose);
  r.add("extractBefore", bi_extractBefore);
  r.add("extractAfter", bi_extractAfter);
  r.add("extractBetween", bi_extractBetween);
  register_text_regexp(r);
  register_text_map(r);
  register_text_strings(r);
}

}  // namespace matfuse
