// Builtins of the "strings" family: str2double, str2num, strcat, upper, lower, strcmp(i),
// strncmp(i), strtrim, deblank, strsplit, strjoin, strrep, contains, startsWith, endsWith, string,
// blanks, newline, strlength, isspace. sprintf/fprintf and the file table live in printf.cc.
//
// Text inputs come in three shapes, as in MATLAB: a char row (one text), a cell array of char
// rows (elementwise, result has the cell's dims), a string array (elementwise, string result).
#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdint>
#include <complex>
#include <cstdio>
#include <optional>

#include "runtime/array_size.h"
#include "builtins/construct.h"
#include "builtins/format.h"
#include "builtins/text_util.h"

namespace matfuse {

namespace {

/// A text argument as a list of (possibly missing / non-text) items with dims.
struct TextList {
  Dims dims = Dims::scalar();
  std::vector<std::optional<std::string>> items;
  bool array = false;      ///< cell or string array: elementwise semantics
  bool is_string = false;  ///< string class
};

/// Char array as one item: a row (or empty) reads naturally; other shapes get a dims prefix so
/// that comparison also checks the shape.
std::optional<std::string> char_item(const Value& v) {
  if (v.is_text()) return v.to_text();
  return v.dims().str() + '\x01' + v.tensor().to_utf8();
}

TextList text_list(const Value& v) {
  TextList t;
  if (v.is_char()) {
    t.items.push_back(char_item(v));
  } else if (v.is_cell()) {
    t.array = true;
    t.dims = v.dims();
    for (const Value& e : v.cell().elems())
      t.items.push_back(e.is_char() ? char_item(e) : std::nullopt);
  } else if (v.is_string()) {
    t.array = true;
    t.is_string = true;
    t.dims = v.dims();
    for (const auto& s : v.string_array().elems()) t.items.push_back(s);
  } else {
    t.items.push_back(std::nullopt);
  }
  return t;
}

/// Elementwise logical result of pred over two text lists (scalar expansion).
Value compare_lists(const TextList& a, const TextList& b, const char* fname,
                    const std::function<bool(const std::string&, const std::string&)>& pred) {
  auto test = [&](const std::optional<std::string>& x, const std::optional<std::string>& y) {
    return x && y && pred(*x, *y);
  };
  if (!a.array && !b.array) return Value::logical(test(a.items[0], b.items[0]));
  Dims d;
  if (!a.array || (a.items.size() == 1 && b.array)) d = b.dims;
  else d = a.dims;
  if (a.array && b.array && a.items.size() != 1 && b.items.size() != 1 && a.dims != b.dims) {
    std::string id = std::string("MATLAB:") + fname + ":InputsSizeMismatch";
    throw_error(id.c_str(), "Inputs must be the same size or either one can be a scalar.");
  }
  Tensor r = Tensor::zeros(ClassId::Logical, d);
  bool* p = r.mutable_data<bool>();
  for (int64_t i = 0; i < d.numel(); ++i) {
    const auto& x = a.items.size() == 1 ? a.items[0] : a.items[i];
    const auto& y = b.items.size() == 1 ? b.items[0] : b.items[i];
    p[i] = test(x, y);
  }
  return Value(r);
}

std::string lower_ascii(std::string s) {
  for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}
std::string upper_ascii(std::string s) {
  for (char& c : s) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return s;
}

/// Leading n code points of s (all of s when shorter).
std::string first_chars(const std::string& s, int64_t n) {
  size_t cut = 0;
  int64_t k = 0;
  while (cut < s.size() && k < n) {
    ++cut;
    while (cut < s.size() && (static_cast<unsigned char>(s[cut]) & 0xC0) == 0x80) ++cut;
    ++k;
  }
  return s.substr(0, cut);
}
int64_t count_chars(const std::string& s) {
  int64_t n = 0;
  for (unsigned char c : s)
    if ((c & 0xC0) != 0x80) ++n;
  return n;
}

Outputs strcmp_family(Args args, int nargout, const char* fname, bool ignore_case, bool prefix) {
  check_nargin(args, prefix ? 3 : 2, prefix ? 3 : 2);
  check_nargout(nargout, 1);
  // n counted in double: NaN is an error; Inf and 1e300 (undefined to cast to int64) compare
  // whole texts, as any n beyond their lengths does.
  const double nd = prefix ? args[2].to_double("n") : 0;
  if (nd != nd)
    throw_error("MATLAB:strncmp:invalidN", "N must be a numeric scalar.");  // unverified
  const int64_t n = nd < 9.2e18 ? static_cast<int64_t>(nd) : INT64_MAX;
  auto pred = [&](const std::string& x0, const std::string& y0) {
    std::string x = ignore_case ? lower_ascii(x0) : x0;
    std::string y = ignore_case ? lower_ascii(y0) : y0;
    if (!prefix) return x == y;
    if (n <= 0) return false;
    if (count_chars(x) < n || count_chars(y) < n) return x == y;
    return first_chars(x, n) == first_chars(y, n);
  };
  return {compare_lists(text_list(args[0]), text_list(args[1]), fname, pred)};
}

Outputs bi_strcmp(CallContext&, Args a, int n) { return strcmp_family(a, n, "strcmp", false, false); }
Outputs bi_strcmpi(CallContext&, Args a, int n) { return strcmp_family(a, n, "strcmpi", true, false); }
Outputs bi_strncmp(CallContext&, Args a, int n) { return strcmp_family(a, n, "strncmp", false, true); }
Outputs bi_strncmpi(CallContext&, Args a, int n) { return strcmp_family(a, n, "strncmpi", true, true); }

/// Applies f to every text of a char / cell of char / string argument, keeping the shape.
/// Char matrices are processed row by row when rowwise is set (upper/lower keep the whole array).
Value map_text(const Value& v, const char* fname, const std::function<std::string(std::string)>& f) {
  if (v.is_char()) {
    if (v.is_text()) {
      std::string r = f(v.to_text());
      return v.is_empty() && r.empty() ? v : char_row(r);
    }
    // Char matrix: apply to each row; rows must keep a common length (strtrim pads MATLAB-style
    // only for cells, so here we require it).
    Tensor t = v.tensor();
    int64_t rows = t.dims().rows(), cols = t.numel() / std::max<int64_t>(rows, 1);
    std::vector<std::string> out;
    for (int64_t r = 0; r < rows; ++r) {
      std::string row;
      for (int64_t c = 0; c < cols; ++c) append_utf8_cp(row, static_cast<uint32_t>(t.get_double(r + c * rows)));
      out.push_back(f(row));
    }
    std::vector<Value> parts;
    for (auto& s : out) parts.push_back(char_row(s));
    return vertcat(parts);
  }
  if (v.is_cell()) {
    CellArray c = v.cell();
    for (int64_t i = 0; i < c.numel(); ++i) {
      const Value& e = c[i];
      if (!e.is_char() || (!e.is_text())) {
        std::string id = std::string("MATLAB:") + fname + ":InputClass";
        throw_error(id.c_str(),
                    "Input must be a character vector, cell array of character vectors, or "
                    "string array.");
      }
      std::string r = f(e.to_text());
      c.at(i) = e.is_empty() && r.empty() ? e : Value::from_chars(r);
    }
    return Value(c);
  }
  if (v.is_string()) {
    StringArray s = v.string_array();
    for (int64_t i = 0; i < s.numel(); ++i)
      if (s[i]) s.at(i) = f(*s[i]);
    return Value(s);
  }
  std::string id = std::string("MATLAB:") + fname + ":InputClass";
  throw_error(id.c_str(),
              "Input must be a character vector, cell array of character vectors, or string "
              "array.");
}

bool is_ws(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\v' || c == '\f' || c == '\r'; }

std::string trim_both(std::string s) {
  size_t b = 0, e = s.size();
  while (b < e && (is_ws(s[b]) || s[b] == '\0')) ++b;
  while (e > b && (is_ws(s[e - 1]) || s[e - 1] == '\0')) --e;
  return s.substr(b, e - b);
}
std::string trim_trailing(std::string s) {
  size_t e = s.size();
  while (e > 0 && (is_ws(s[e - 1]) || s[e - 1] == '\0')) --e;
  return s.substr(0, e);
}

Outputs bi_upper(CallContext&, Args args, int nargout) {
  check_nargin(args, 1, 1);
  check_nargout(nargout, 1);
  if (args[0].is_char() && !args[0].is_text()) {
    Tensor t = args[0].tensor();
    char16_t* p = t.mutable_data<char16_t>();
    for (int64_t i = 0; i < t.numel(); ++i)
      if (p[i] < 128) p[i] = static_cast<char16_t>(std::toupper(p[i]));
    return {Value(t)};
  }
  if (args[0].is_numeric() || args[0].is_logical()) return {args[0]};
  return {map_text(args[0], "upper", upper_ascii)};
}

Outputs bi_lower(CallContext&, Args args, int nargout) {
  check_nargin(args, 1, 1);
  check_nargout(nargout, 1);
  if (args[0].is_char() && !args[0].is_text()) {
    Tensor t = args[0].tensor();
    char16_t* p = t.mutable_data<char16_t>();
    for (int64_t i = 0; i < t.numel(); ++i)
      if (p[i] < 128) p[i] = static_cast<char16_t>(std::tolower(p[i]));
    return {Value(t)};
  }
  if (args[0].is_numeric() || args[0].is_logical()) return {args[0]};
  return {map_text(args[0], "lower", lower_ascii)};
}

Outputs bi_strtrim(CallContext&, Args args, int nargout) {
  check_nargin(args, 1, 1);
  check_nargout(nargout, 1);
  const Value& v = args[0];
  if (v.is_char() && !v.is_text()) {
    // Char matrix: remove columns that are blank in every row at both ends.
    Tensor t = v.tensor();
    int64_t rows = t.dims().rows(), cols = t.dims().cols();
    auto blank_col = [&](int64_t c) {
      for (int64_t r = 0; r < rows; ++r) {
        double ch = t.get_double(r + c * rows);
        if (!(ch == 0 || (ch < 128 && is_ws(static_cast<char>(ch))))) return false;
      }
      return true;
    };
    int64_t b = 0, e = cols;
    while (b < e && blank_col(b)) ++b;
    while (e > b && blank_col(e - 1)) --e;
    Tensor r = Tensor::uninit(ClassId::Char, Dims(rows, e - b));
    for (int64_t c = b; c < e; ++c)
      for (int64_t rr = 0; rr < rows; ++rr) r.set_double(rr + (c - b) * rows, t.get_double(rr + c * rows));
    return {Value(r)};
  }
  return {map_text(v, "strtrim", trim_both)};
}

/// deblank of one value (MATLAB's deblank.m): a char array loses the trailing columns that are
/// whitespace or null in every row (all of them: a 0x0 char); cell arrays are processed element
/// by element (nested cells too); strings lose each element's trailing whitespace; empty
/// numeric values pass unchanged. Errors: MATLAB:deblank:NonStringInput.
Value deblank_value(const Value& v) {
  if (v.is_char()) {
    if (v.is_empty()) return v;
    Tensor t = v.tensor();
    int64_t rows = t.dims().rows(), cols = t.numel() / std::max<int64_t>(rows, 1);
    int64_t last = -1;
    for (int64_t c = 0; c < cols; ++c)
      for (int64_t r = 0; r < rows; ++r) {
        double ch = t.get_double(r + c * rows);
        if (!(ch == 0 || (ch < 128 && is_ws(static_cast<char>(ch))))) last = c;
      }
    if (last < 0) return Value(Tensor::uninit(ClassId::Char, Dims(0, 0)));
    if (last == cols - 1) return v;
    Tensor r = Tensor::uninit(ClassId::Char, Dims(rows, last + 1));
    for (int64_t c = 0; c <= last; ++c)
      for (int64_t q = 0; q < rows; ++q)
        r.mutable_data<char16_t>()[c * rows + q] = t.data<char16_t>()[c * rows + q];
    return Value(r);
  }
  if (v.is_cell()) {
    CellArray c = v.cell();
    for (int64_t i = 0; i < c.numel(); ++i) c.at(i) = deblank_value(c[i]);
    return Value(c);
  }
  if (v.is_string()) return map_text(v, "deblank", trim_trailing);
  if (v.is_tensor() && v.is_empty()) return v;
  throw_error("MATLAB:deblank:NonStringInput",
              "Input must be a character vector, cell array of character vectors, or string "
              "array.");
}

Outputs bi_deblank(CallContext&, Args args, int nargout) {
  check_nargin(args, 1, 1);
  check_nargout(nargout, 1);
  return {deblank_value(args[0])};
}

/// Parses a real number at s[pos...]: sign, digits (commas allowed between digits), '.',
/// exponent [eEdD], Inf, NaN. Advances pos.
bool parse_real(const std::string& s, size_t& pos, double& out) {
  size_t p = pos;
  std::string buf;
  if (p < s.size() && (s[p] == '+' || s[p] == '-')) buf.push_back(s[p++]);
  std::string rest = lower_ascii(s.substr(p, 3));
  if (rest == "inf") {
    p += 3;
    if (lower_ascii(s.substr(p, 5)) == "inity") p += 5;
    out = buf == "-" ? -INFINITY : INFINITY;
    pos = p;
    return true;
  }
  if (rest == "nan") {
    out = NAN;
    pos = p + 3;
    return true;
  }
  bool digits = false;
  while (p < s.size() && (std::isdigit(static_cast<unsigned char>(s[p])) || (s[p] == ',' && digits))) {
    if (s[p] != ',') buf.push_back(s[p]);
    digits = true;
    ++p;
  }
  if (p < s.size() && s[p] == '.') {
    buf.push_back('.');
    ++p;
    while (p < s.size() && std::isdigit(static_cast<unsigned char>(s[p]))) {
      buf.push_back(s[p++]);
      digits = true;
    }
  }
  if (!digits) return false;
  if (p < s.size() && std::string("eEdD").find(s[p]) != std::string::npos) {
    size_t q = p + 1;
    std::string ex = "e";
    if (q < s.size() && (s[q] == '+' || s[q] == '-')) ex.push_back(s[q++]);
    if (q < s.size() && std::isdigit(static_cast<unsigned char>(s[q]))) {
      while (q < s.size() && std::isdigit(static_cast<unsigned char>(s[q]))) ex.push_back(s[q++]);
      buf += ex;
      p = q;
    }
  }
  out = std::strtod(buf.c_str(), nullptr);
  pos = p;
  return true;
}

/// MATLAB str2double on one text: real or complex ("1+2i", "-3.5j", "2i"); NaN when invalid.
std::complex<double> str2double_one(const std::string& text) {
  std::string s = trim_both(text);
  const std::complex<double> bad(NAN, 0);
  if (s.empty()) return bad;
  size_t pos = 0;
  double re = 0, im = 0;
  auto is_imag_unit = [&](size_t p) {
    return p < s.size() && (s[p] == 'i' || s[p] == 'j');
  };
  auto skip_ws = [&](size_t& p) {
    while (p < s.size() && is_ws(s[p])) ++p;
  };
  // Pure imaginary unit: "i", "-i", "+j".
  size_t p0 = 0;
  if (p0 < s.size() && (s[p0] == '+' || s[p0] == '-')) ++p0;
  if (is_imag_unit(p0) && p0 + 1 == s.size()) return {0, s[0] == '-' ? -1.0 : 1.0};
  if (!parse_real(s, pos, re)) return bad;
  if (pos == s.size()) return {re, 0};
  if (is_imag_unit(pos) || (s[pos] == '*' && is_imag_unit(pos + 1))) {
    pos += s[pos] == '*' ? 2 : 1;
    return pos == s.size() ? std::complex<double>(0, re) : bad;
  }
  skip_ws(pos);
  if (pos >= s.size() || (s[pos] != '+' && s[pos] != '-')) return bad;
  bool neg = s[pos] == '-';
  ++pos;
  skip_ws(pos);
  if (is_imag_unit(pos)) {
    im = 1;
    ++pos;
  } else {
    if (!parse_real(s, pos, im)) return bad;
    if (pos < s.size() && s[pos] == '*') ++pos;
    if (!is_imag_unit(pos)) return bad;
    ++pos;
  }
  if (pos != s.size()) return bad;
  return {re, neg ? -im : im};
}

Outputs bi_str2double(CallContext&, Args args, int nargout) {
  check_nargin(args, 1, 1);
  check_nargout(nargout, 1);
  const Value& v = args[0];
  std::vector<std::complex<double>> vals;
  Dims d = Dims::scalar();
  if (v.is_char()) {
    if (v.is_text()) {
      vals.push_back(str2double_one(v.to_text()));
    } else {
      // Char matrix: one value per row (column result).
      Tensor t = v.tensor();
      int64_t rows = t.dims().rows(), cols = t.dims().cols();
      d = Dims(rows, 1);
      for (int64_t r = 0; r < rows; ++r) {
        std::string row;
        for (int64_t c = 0; c < cols; ++c) append_utf8_cp(row, static_cast<uint32_t>(t.get_double(r + c * rows)));
        vals.push_back(str2double_one(row));
      }
    }
  } else if (v.is_cell()) {
    d = v.dims();
    for (const Value& e : v.cell().elems())
      vals.push_back(e.is_text() ? str2double_one(e.to_text()) : std::complex<double>(NAN, 0));
  } else if (v.is_string()) {
    d = v.dims();
    for (const auto& s : v.string_array().elems())
      vals.push_back(s ? str2double_one(*s) : std::complex<double>(NAN, 0));
  } else {
    vals.push_back({NAN, 0});
  }
  bool cplx = std::any_of(vals.begin(), vals.end(), [](auto z) { return z.imag() != 0; });
  Tensor t = Tensor::uninit(ClassId::Double, d, cplx);
  for (size_t i = 0; i < vals.size(); ++i) {
    if (cplx) t.set_complex(static_cast<int64_t>(i), vals[i]);
    else t.set_double(static_cast<int64_t>(i), vals[i].real());
  }
  return {Value(t)};
}

/// [x, tf] = str2num(txt): evaluates "[txt]" in the caller; [] and false on failure.
Outputs bi_str2num(CallContext& ctx, Args args, int nargout) {
  check_nargin(args, 1, 1);
  check_nargout(nargout, 2);
  std::string code;
  const Value& v = args[0];
  if (v.is_text()) {
    code = v.to_text();
  } else if (v.is_char()) {
    Tensor t = v.tensor();
    int64_t rows = t.dims().rows(), cols = t.dims().cols();
    for (int64_t r = 0; r < rows; ++r) {
      for (int64_t c = 0; c < cols; ++c) append_utf8_cp(code, static_cast<uint32_t>(t.get_double(r + c * rows)));
      code += ';';
    }
  } else {
    throw_error("MATLAB:str2num:InvalidArgument",
                "Input must be a character vector or string scalar.");
  }
  Value result;
  bool ok = true;
  try {
    Outputs o = ctx.eval_text("[" + code + "]", 1);
    if (!o.empty()) result = o[0];
    else ok = false;
  } catch (const MatlabError&) {
    ok = false;
    result = Value();
  }
  Outputs out{result};
  if (nargout >= 2) out.push_back(Value::logical(ok));
  return out;
}

/// strcat: char args lose trailing whitespace and are joined horizontally; with a cell or
/// string argument the result is elementwise (scalar expansion), cell or string.
Outputs bi_strcat(CallContext&, Args args, int nargout) {
  check_nargin(args, 1, SIZE_MAX);
  check_nargout(nargout, 1);
  bool any_string = false, any_cell = false;
  for (const Value& v : args) {
    any_string |= v.is_string();
    any_cell |= v.is_cell();
  }
  if (any_string || any_cell) {
    Dims d = Dims::scalar();
    bool have = false;
    // A char matrix joins as its rows (cellstr(x) / string(x)): an Nx1 array.
    auto is_char_matrix = [](const Value& v) {
      return v.is_char() && v.dims().ndims() == 2 && v.dims().rows() > 1;
    };
    for (const Value& v : args) {
      if (is_char_matrix(v)) {
        const Dims rd(v.dims().rows(), 1);
        if (have && rd != d)
          throw_error("MATLAB:strcat:InvalidInputSize",
                      "All the inputs must be the same size or scalars.");
        d = rd;
        have = true;
        continue;
      }
      if ((v.is_cell() || v.is_string()) && v.numel() != 1) {
        if (have && v.dims() != d)
          throw_error("MATLAB:strcat:InvalidInputSize",
                      "All the inputs must be the same size or scalars.");
        d = v.dims();
        have = true;
      }
    }
    int64_t n = d.numel();
    std::vector<std::string> acc(static_cast<size_t>(n));
    std::vector<bool> missing(static_cast<size_t>(n), false);
    for (const Value& v : args) {
      for (int64_t i = 0; i < n; ++i) {
        if (v.is_char()) {
          // With cells, a char input counts as cellstr(x): its trailing whitespace goes.
          std::string t;
          if (is_char_matrix(v)) {
            const Tensor ct = v.tensor();
            const int64_t rows = ct.dims().rows(), cols = ct.dims().cols();
            for (int64_t c = 0; c < cols; ++c)
              append_utf8_cp(t, static_cast<uint32_t>(ct.get_double(i + c * rows)));
          } else {
            t = v.is_text() ? v.to_text() : v.tensor().to_utf8();
          }
          if (!any_string)
            while (!t.empty() && std::isspace(static_cast<unsigned char>(t.back()))) t.pop_back();
          acc[i] += t;
        } else if (v.is_cell()) {
          const Value& e = v.cell()[v.numel() == 1 ? 0 : i];
          if (!e.is_char() && !e.is_empty())
            throw_error("MATLAB:strcat:InvalidInputType",
                        "Inputs must be character vectors, cell arrays of character vectors, or "
                        "string arrays.");
          if (!e.is_empty()) acc[i] += e.to_text();
        } else if (v.is_string()) {
          const auto& s = v.string_array()[v.numel() == 1 ? 0 : i];
          if (s) acc[i] += *s;
          else missing[i] = true;
        } else {
          throw_error("MATLAB:strcat:InvalidInputType",
                      "Inputs must be character vectors, cell arrays of character vectors, or "
                      "string arrays.");
        }
      }
    }
    if (any_string) {
      StringArray s(d);
      for (int64_t i = 0; i < n; ++i)
        if (missing[i]) s.at(i) = std::nullopt;
        else s.at(i) = acc[i];
      return {Value(s)};
    }
    CellArray c(d);
    for (int64_t i = 0; i < n; ++i) c.at(i) = Value::from_chars(acc[i]);
    return {Value(c)};
  }
  // Char matrices: each row loses its trailing whitespace, rows are joined (a single-row
  // input applies to every row) and the result is padded with blanks like char().
  int64_t nrows = 1;
  bool matrix = false;
  for (const Value& v : args)
    if (v.is_char() && v.dims().ndims() == 2 && v.dims().rows() > 1) {
      if (matrix && v.dims().rows() != nrows)
        throw_error("MATLAB:strcat:InvalidInputSize",
                    "All the inputs must be the same size or scalars.");
      matrix = true;
      nrows = v.dims().rows();
    }
  if (matrix) {
    std::vector<std::u16string> rows(static_cast<size_t>(nrows));
    for (const Value& v : args) {
      if (!v.is_tensor())
        throw_error("MATLAB:strcat:InvalidInputType",
                    "Inputs must be character vectors, cell arrays of character vectors, or "
                    "string arrays.");
      Tensor t = v.tensor().to_class(ClassId::Char);
      int64_t m = t.dims().rows(), n = t.numel() / std::max<int64_t>(m, 1);
      if (t.is_empty()) continue;
      for (int64_t r = 0; r < nrows; ++r) {
        int64_t src = m == 1 ? 0 : r;
        std::u16string row;
        for (int64_t c = 0; c < n; ++c) row.push_back(static_cast<char16_t>(t.get_double(c * m + src)));
        if (v.is_char())
          while (!row.empty() && row.back() < 128 && std::isspace(static_cast<int>(row.back())))
            row.pop_back();
        rows[static_cast<size_t>(r)] += row;
      }
    }
    size_t width = 0;
    for (const auto& r : rows) width = std::max(width, r.size());
    Tensor o = Tensor::zeros(ClassId::Char, Dims(nrows, static_cast<int64_t>(width)));
    for (int64_t r = 0; r < nrows; ++r)
      for (size_t c = 0; c < width; ++c) {
        const auto& row = rows[static_cast<size_t>(r)];
        o.set_double(static_cast<int64_t>(c) * nrows + r, c < row.size() ? row[c] : u' ');
      }
    return {Value(std::move(o))};
  }
  // All char (or numeric treated as char): strip trailing whitespace, then horzcat.
  std::vector<Value> parts;
  for (const Value& v : args) {
    if (v.is_char() && v.is_text()) {
      parts.push_back(char_row(trim_trailing(v.to_text())));
    } else if (v.is_char()) {
      parts.push_back(map_text(v, "strcat", [](std::string s) { return s; }));
    } else if (v.is_tensor()) {
      parts.push_back(Value(v.tensor().to_class(ClassId::Char)));
    } else {
      throw_error("MATLAB:strcat:InvalidInputType",
                  "Inputs must be character vectors, cell arrays of character vectors, or "
                  "string arrays.");
    }
  }
  Value r = horzcat(parts);
  if (r.is_empty() && r.is_char()) return {char_row("")};
  return {r};
}

/// Delimiters for strsplit: a text or cell of texts, escapes decoded.
std::vector<std::string> delimiter_list(const Value& v) {
  std::vector<std::string> out;
  if (v.is_cell()) {
    for (const Value& e : v.cell().elems()) out.push_back(decode_escapes(text_arg(e, "strsplit", 2)));
  } else if (v.is_string()) {
    for (const auto& s : v.string_array().elems()) out.push_back(decode_escapes(s.value_or("")));
  } else {
    out.push_back(decode_escapes(text_arg(v, "strsplit", 2)));
  }
  return out;
}

/// C = strsplit(str, delimiter=whitespace, 'CollapseDelimiters', true): 1xN cell of char rows
/// (string array for a string input).
Outputs bi_strsplit(CallContext& ctx, Args args, int nargout) {
  check_nargin(args, 1, SIZE_MAX);
  check_nargout(nargout, 2);
  if (args[0].is_char() && !args[0].is_empty() &&
      (args[0].dims().ndims() != 2 || args[0].dims().rows() != 1))
    throw_error("MATLAB:strsplit:InvalidStringType",
                "First input must be either a character vector or a string scalar.");
  std::string s = text_arg(args[0], "strsplit", 1);
  std::vector<std::string> delims = {" ", "\f", "\n", "\r", "\t", "\v"};
  size_t k = 1;
  if (args.size() >= 2 && args.size() % 2 == 0) {
    delims = delimiter_list(args[1]);
    k = 2;
  }
  bool collapse = true, regex = false;
  for (; k < args.size(); k += 2) {
    std::string name = lower_ascii(text_arg(args[k], "strsplit", static_cast<int>(k) + 1));
    if (k + 1 >= args.size())
      throw_error("MATLAB:strsplit:InvalidParameter", "Parameter value is missing.");
    if (name == "collapsedelimiters") {
      collapse = args[k + 1].truthy();
    } else if (name == "delimitertype") {
      std::string t = lower_ascii(text_arg(args[k + 1], "strsplit", static_cast<int>(k) + 2));
      // validatestring semantics: an unambiguous prefix selects the value.
      if (!t.empty() && std::string("regularexpression").rfind(t, 0) == 0) regex = true;
      else if (!t.empty() && std::string("simple").rfind(t, 0) == 0) regex = false;
      else
        throw_error("MATLAB:strsplit:InvalidDelimiterType",
                    "DelimiterType must be 'Simple' or 'RegularExpression'.");
    } else {
      throw_error("MATLAB:strsplit:InvalidParameter", "Invalid parameter name '%s'.", name.c_str());
    }
  }
  auto piece = [](const std::string& t) { return t.empty() ? Value::from_chars("") : char_row(t); };
  if (regex) {  // the delimiters are alternatives of one pattern, split by regexp
    std::string pat;
    for (size_t j = 0; j < delims.size(); ++j) pat += (j ? "|" : "") + delims[j];
    if (collapse) pat = "(?:" + pat + ")+";
    Value a[4] = {char_row(s), char_row(pat), char_row("split"), char_row("match")};
    Outputs r = ctx.call_named("regexp", Args(a, 4), 2);
    for (Value& c : r) {
      CellArray cell = c.cell();
      for (int64_t j = 0; j < cell.numel(); ++j)
        cell.at(j) = piece(cell[j].is_empty() ? std::string() : cell[j].to_text());
      c = Value(cell);
      if (args[0].is_string()) c = ctx.call_named("string", Args(&c, 1), 1)[0];
    }
    r.resize(static_cast<size_t>(std::max(nargout, 1)));
    return r;
  }
  // Longest delimiter first, as MATLAB matches.
  std::sort(delims.begin(), delims.end(), [](auto& a, auto& b) { return a.size() > b.size(); });
  std::vector<std::string> parts, matches;
  std::string cur;
  size_t i = 0;
  bool last_was_delim = false;
  while (i < s.size()) {
    size_t len = 0;
    for (const auto& d : delims)
      if (!d.empty() && s.compare(i, d.size(), d) == 0) {
        len = d.size();
        break;
      }
    if (len == 0) {
      cur.push_back(s[i++]);
      last_was_delim = false;
      continue;
    }
    if (collapse && last_was_delim) {
      matches.back() += s.substr(i, len);
    } else {
      parts.push_back(cur);
      matches.push_back(s.substr(i, len));
      cur.clear();
    }
    last_was_delim = true;
    i += len;
  }
  parts.push_back(cur);
  auto to_cell = [&](const std::vector<std::string>& v) -> Value {
    if (args[0].is_string()) {
      StringArray sa(Dims(1, static_cast<int64_t>(v.size())));
      for (size_t j = 0; j < v.size(); ++j) sa.at(j) = v[j];
      return Value(sa);
    }
    CellArray c(Dims(1, static_cast<int64_t>(v.size())));
    for (size_t j = 0; j < v.size(); ++j) c.at(j) = piece(v[j]);  // MATLAB: '' is 0x0
    return Value(c);
  };
  Outputs out{to_cell(parts)};
  if (nargout >= 2) out.push_back(to_cell(matches));
  return out;
}

/// str = strjoin(C, delimiter=' '): C a cell of char rows or a string array.
Outputs bi_strjoin(CallContext&, Args args, int nargout) {
  check_nargin(args, 1, 2);
  check_nargout(nargout, 1);
  std::vector<std::string> items;
  const Value& c = args[0];
  if (c.is_cell()) {
    for (const Value& e : c.cell().elems()) {
      if (!e.is_char() || !e.is_text())
        throw_error("MATLAB:strjoin:InvalidCellType",
                    "First input must be a string array or cell array of character vectors.");
      items.push_back(e.to_text());
    }
  } else if (c.is_string()) {
    for (const auto& s : c.string_array().elems()) items.push_back(s.value_or("<missing>"));
  } else {
    throw_error("MATLAB:strjoin:InvalidCellType",
                "First input must be a string array or cell array of character vectors.");
  }
  std::string delim = args.size() >= 2 ? decode_escapes(text_arg(args[1], "strjoin", 2)) : " ";
  std::string out;
  for (size_t i = 0; i < items.size(); ++i) {
    if (i) out += delim;
    out += items[i];
  }
  if (c.is_string() || (args.size() >= 2 && args[1].is_string())) return {Value::from_string(out)};
  return {char_row(out)};
}

/// MATLAB strrep: every (possibly overlapping) occurrence of old is replaced.
std::string strrep_one(const std::string& s, const std::string& from, const std::string& to) {
  if (from.empty()) return s;
  std::string out;
  size_t covered = 0;
  for (size_t i = 0; i < s.size(); ++i) {
    if (s.compare(i, from.size(), from) == 0) {
      out += to;
      covered = i + from.size();
    } else if (i >= covered) {
      out.push_back(s[i]);
    }
  }
  return out;
}

Outputs bi_strrep(CallContext&, Args args, int nargout) {
  check_nargin(args, 3, 3);
  check_nargout(nargout, 1);
  std::string from = text_arg(args[1], "strrep", 2);
  std::string to = text_arg(args[2], "strrep", 3);
  const Value& s = args[0];
  if (s.is_string() || args[1].is_string() || args[2].is_string()) {
    if (!s.is_string()) {
      if (s.is_cell())
        return {map_text(s, "strrep", [&](std::string x) { return strrep_one(x, from, to); })};
      return {Value::from_string(strrep_one(text_arg(s, "strrep", 1), from, to))};
    }
  }
  return {map_text(s, "strrep", [&](std::string x) { return strrep_one(x, from, to); })};
}

/// Patterns of contains/startsWith/endsWith (text, cell, or string array).
std::vector<std::string> pattern_list(const Value& v, const char* fname) {
  std::vector<std::string> out;
  if (v.is_cell()) {
    for (const Value& e : v.cell().elems()) out.push_back(text_arg(e, fname, 2));
  } else if (v.is_string()) {
    for (const auto& s : v.string_array().elems()) out.push_back(s.value_or(""));
  } else {
    out.push_back(text_arg(v, fname, 2));
  }
  return out;
}

Outputs match_family(Args args, int nargout, const char* fname, int mode) {
  check_nargin(args, 2, 4);
  check_nargout(nargout, 1);
  bool ignore_case = false;
  if (args.size() == 4) {
    std::string name = lower_ascii(text_arg(args[2], fname, 3));
    if (name != "ignorecase")
      throw_error("MATLAB:InputParser:UnmatchedParameter", "'%s' is not a recognized parameter.",
                  name.c_str());
    ignore_case = args[3].truthy();
  } else if (args.size() == 3) {
    throw_error("MATLAB:InputParser:ParamMissingValue", "Parameter value is missing.");
  }
  std::vector<std::string> pats = pattern_list(args[1], fname);
  if (ignore_case)
    for (auto& p : pats) p = lower_ascii(p);
  TextList t = text_list(args[0]);
  if (!t.array && !args[0].is_char())
    throw_error("MATLAB:string:MustBeCharCellOrString",
                "First argument must be text.");
  auto test = [&](const std::optional<std::string>& x0) {
    if (!x0) return false;
    std::string x = ignore_case ? lower_ascii(*x0) : *x0;
    for (const auto& p : pats) {
      if (mode == 0 && x.find(p) != std::string::npos) return true;
      if (mode == 1 && x.compare(0, p.size(), p) == 0 && x.size() >= p.size()) return true;
      if (mode == 2 && x.size() >= p.size() && x.compare(x.size() - p.size(), p.size(), p) == 0)
        return true;
    }
    return false;
  };
  if (!t.array) return {Value::logical(test(t.items[0]))};
  Tensor r = Tensor::zeros(ClassId::Logical, t.dims);
  for (int64_t i = 0; i < t.dims.numel(); ++i) r.mutable_data<bool>()[i] = test(t.items[i]);
  return {Value(r)};
}

Outputs bi_contains(CallContext&, Args a, int n) { return match_family(a, n, "contains", 0); }
Outputs bi_startsWith(CallContext&, Args a, int n) { return match_family(a, n, "startsWith", 1); }
Outputs bi_endsWith(CallContext&, Args a, int n) { return match_family(a, n, "endsWith", 2); }

/// Text MATLAB's string() gives a number: integers in full, otherwise 5 significant digits
/// (%.5g style, like string(pi) = "3.1416").
std::string number_text(double v) {
  if (std::isnan(v)) return "NaN";
  if (std::isinf(v)) return v < 0 ? "-Inf" : "Inf";
  char buf[64];
  if (v == std::floor(v) && std::fabs(v) < 1e15) std::snprintf(buf, sizeof buf, "%.0f", v);
  else std::snprintf(buf, sizeof buf, "%.5g", v);
  return buf;
}

/// string(x): char row -> string scalar, char matrix -> column of rows, numbers -> text,
/// logical -> "true"/"false", cell of texts/scalars -> string array.
Outputs bi_string(CallContext&, Args args, int nargout) {
  check_nargin(args, 0, 1);
  check_nargout(nargout, 1);
  if (args.empty()) return {Value(StringArray::scalar(""))};
  return {to_string_value(args[0])};
}

}  // namespace

Value to_string_value(const Value& v) {
  if (v.is_string()) return v;
  if (v.is_char()) {
    if (v.is_text()) return Value::from_string(v.to_text());
    Tensor t = v.tensor();
    int64_t rows = t.dims().rows(), cols = t.dims().cols();
    StringArray s(Dims(rows, 1));
    for (int64_t r = 0; r < rows; ++r) {
      std::string row;
      for (int64_t c = 0; c < cols; ++c) append_utf8_cp(row, static_cast<uint32_t>(t.get_double(r + c * rows)));
      s.at(r) = row;
    }
    return Value(s);
  }
  auto one = [&](const Value& e) -> std::string {
    if (e.is_text()) return e.to_text();
    if (e.is_tensor() && e.numel() == 1) {
      if (e.is_logical()) return e.to_double() != 0 ? "true" : "false";
      Tensor t = e.tensor();
      if (t.is_complex()) {
        std::complex<double> z = t.get_complex(0);
        std::string im = number_text(std::fabs(z.imag()));
        return number_text(z.real()) + (z.imag() < 0 ? "-" : "+") + im + "i";
      }
      return number_text(t.get_double(0));
    }
    throw_error("MATLAB:string:MustBeConvertible",
                "Conversion to string from %s is not possible.", e.class_name().c_str());
  };
  if (v.is_cell()) {
    StringArray s(v.dims());
    for (int64_t i = 0; i < v.numel(); ++i) s.at(i) = one(v.cell()[i]);
    return Value(s);
  }
  if (v.is_tensor()) {
    Tensor t = v.tensor();
    StringArray s(t.dims());
    for (int64_t i = 0; i < t.numel(); ++i) {
      if (v.is_logical()) s.at(i) = t.get_double(i) != 0 ? "true" : "false";
      else if (t.is_complex()) {
        Tensor e = Tensor::complex_scalar(t.get_complex(i));
        s.at(i) = one(Value(e));
      } else {
        s.at(i) = number_text(t.get_double(i));
      }
    }
    return Value(s);
  }
  throw_error("MATLAB:string:MustBeConvertible", "Conversion to string from %s is not possible.",
              v.class_name().c_str());
}

namespace {

Outputs bi_blanks(CallContext&, Args args, int nargout) {
  check_nargin(args, 1, 1);
  check_nargout(nargout, 1);
  // In double first: blanks(2^63) is a size error, not an int64 overflow.
  if (args[0].is_tensor() && args[0].numel() == 1 && args[0].to_double() > 9.0e15)
    throw_error("MATLAB:array:SizeLimitExceeded",
                "Requested array exceeds the maximum possible variable size.");
  int64_t n = args[0].to_index("n");
  check_array_size(Dims(1, n), 2.0);
  return {char_row(std::string(static_cast<size_t>(n), ' '))};
}

Outputs bi_newline(CallContext&, Args args, int nargout) {
  check_nargin(args, 0, 0);
  check_nargout(nargout, 1);
  return {Value::from_chars("\n")};
}

/// strlength: number of characters of each text (NaN for missing strings).
Outputs bi_strlength(CallContext&, Args args, int nargout) {
  check_nargin(args, 1, 1);
  check_nargout(nargout, 1);
  const Value& v = args[0];
  if (v.is_char()) return {Value(static_cast<double>(v.is_text() ? v.numel() : v.dims().cols()))};
  if (v.is_cell()) {
    Tensor r = Tensor::zeros(ClassId::Double, v.dims());
    for (int64_t i = 0; i < v.numel(); ++i) {
      const Value& e = v.cell()[i];
      if (!e.is_char())
        throw_error("MATLAB:string:MustBeCharCellOrString",
                    "Input must be a string array, character vector, or cell array of character "
                    "vectors.");
      r.set_double(i, static_cast<double>(e.numel()));
    }
    return {Value(r)};
  }
  if (v.is_string()) {
    Tensor r = Tensor::zeros(ClassId::Double, v.dims());
    for (int64_t i = 0; i < v.numel(); ++i) {
      const auto& s = v.string_array()[i];
      r.set_double(i, s ? static_cast<double>(Tensor::from_string(*s).numel()) : NAN);
    }
    return {Value(r)};
  }
  throw_error("MATLAB:string:MustBeCharCellOrString",
              "Input must be a string array, character vector, or cell array of character "
              "vectors.");
}

/// isspace(x): logical array, true for whitespace characters of a char array.
Outputs bi_isspace(CallContext&, Args args, int nargout) {
  check_nargin(args, 1, 1);
  check_nargout(nargout, 1);
  const Value& v = args[0];
  Dims d = v.dims();
  Tensor r = Tensor::zeros(ClassId::Logical, d);
  if (v.is_char()) {
    Tensor t = v.tensor();
    for (int64_t i = 0; i < t.numel(); ++i) {
      double c = t.get_double(i);
      r.mutable_data<bool>()[i] = c == 32 || (c >= 9 && c <= 13) || c == 0xA0 || c == 0x2028;
    }
  }
  return {Value(r)};
}

}  // namespace

void register_strings(Registry& r) {
  register_printf(r);
  r.add("str2double", bi_str2double);
  r.add("str2num", bi_str2num);
  r.add("strcat", bi_strcat);
  r.add("upper", bi_upper);
  r.add("lower", bi_lower);
  r.add("strcmp", bi_strcmp);
  r.add("strcmpi", bi_strcmpi);
  r.add("strncmp", bi_strncmp);
  r.add("strncmpi", bi_strncmpi);
  r.add("strtrim", bi_strtrim);
  r.add("deblank", bi_deblank);
  r.add("strsplit", bi_strsplit);
  r.add("strjoin", bi_strjoin);
  r.add("strrep", bi_strrep);
  r.add("contains", bi_contains);
  r.add("startsWith", bi_startsWith);
  r.add("endsWith", bi_endsWith);
  r.add("string", bi_string);
  r.add("blanks", bi_blanks);
  r.add("newline", bi_newline);
  r.add("strlength", bi_strlength);
  r.add("isspace", bi_isspace);
}

}  // namespace matfuse
