// Builtins of the text family for string arrays and MATLAB's newer text functions: strings,
// ismissing, erase, eraseBetween, strip, cellstr.
//
// Text arguments come as a char row, a cell array of char rows or a string array (text_util.h);
// results keep the input's kind and shape. <missing> string elements stay <missing>.
#include <algorithm>
#include <cmath>
#include <optional>
#include <string>
#include <vector>

#include "runtime/missing.h"
#include "builtins/argparse.h"
#include "builtins/format.h"
#include "builtins/registry.h"
#include "builtins/text_util.h"

namespace matfuse {

namespace {

/// Text items that may hold <missing> (string arrays), with the input's kind and dims.
struct OptItems {
  text_detail::TextItems shape;
  std::vector<std::optional<std::string>> items;
};

OptItems opt_items(const Value& v, const char* fname) {
  OptItems r;
  if (v.is_string()) {
    r.shape.is_string = true;
    r.shape.dims = v.dims();
    r.items = v.string_array().elems();
    return r;
  }
  std::string id = std::string("MATLAB:") + fname + ":InvalidInput";
  std::string msg = "First argument must be text.";
  r.shape = text_detail::text_items(v, id.c_str(), msg.c_str());
  for (auto& s : r.shape.items) r.items.emplace_back(s);
  return r;
}

Value pack_opt(const OptItems& in, const std::vector<std::optional<std::string>>& out) {
  if (in.shape.is_string) {
    StringArray a(in.shape.dims);
    for (size_t i = 0; i < out.size(); ++i) a.at(static_cast<int64_t>(i)) = out[i];
    return Value(std::move(a));
  }
  std::vector<std::string> v;
  for (const auto& o : out) v.push_back(o.value_or(""));
  // MATLAB works on char input through string and back: an empty result is char(""), 0x0.
  auto empty_char = [] { return Value(Tensor::zeros(ClassId::Char, Dims(0, 0))); };
  if (in.shape.single()) return v[0].empty() ? empty_char() : char_row(v[0]);
  Value r = text_detail::pack_text(in.shape, v);
  if (r.is_cell())
    for (int64_t i = 0; i < r.numel(); ++i)
      if (v[static_cast<size_t>(i)].empty()) r.cell().at(i) = empty_char();
  return r;
}

/// Patterns of a text argument (char row, cellstr, string array), all non-missing.
std::vector<std::string> patterns(const Value& v, const char* fname, int argno) {
  if (v.is_string()) {
    std::vector<std::string> r;
    for (const auto& s : v.string_array().elems()) {
      if (!s)
        throw_error("MATLAB:string:MissingToCharConversion",
                    "Conversion from <missing> to character vector is not supported.");
      r.push_back(*s);
    }
    return r;
  }
  std::string id = std::string("MATLAB:") + fname + ":InvalidMatch";
  std::string msg = "Argument " + std::to_string(argno) +
                    " must be a string array, character vector, or cell array of character "
                    "vectors.";
  return text_detail::text_items(v, id.c_str(), msg.c_str()).items;
}

/// Byte offset of MATLAB character position k (0-based) in s; s.size() when k is past the end.
size_t byte_of_char(const std::string& s, int64_t k) {
  const std::vector<int64_t> m = text_detail::char_index_map(s);
  for (size_t b = 0; b < m.size(); ++b)
    if (m[b] >= k) return b;
  return s.size();
}

int64_t char_count(const std::string& s) { return text_detail::char_index_map(s).back(); }

/// strings(sz...) / strings(n): a string array of "" (zero-length strings).
Outputs bi_strings(CallContext&, Args args, int nargout) {
  check_nargout(nargout, 1);
  const Dims d = args.empty() ? Dims(1, 1) : parse_size_list(args, "strings");
  StringArray s(d);
  return {Value(std::move(s))};
}

/// TF = ismissing(A) | ismissing(A, indicator): logical array of A's size, true at missing
/// entries: NaN (double, single; complex when either part is NaN), <missing> (string), ' '
/// (char), '' (cell of char). Integer and logical arrays have none. With an indicator (a
/// number, text, or an array/cell of them), an entry is missing when it equals one of them.
Outputs bi_ismissing(CallContext&, Args args, int nargout) {
  check_nargin(args, 1, 2);
  check_nargout(nargout, 1);
  const Value& a = args[0];
  if (is_missing_value(a)) return {Value::logical(true)};
  Tensor r = Tensor::zeros(ClassId::Logical, a.dims());
  bool* o = r.numel() ? r.mutable_data<bool>() : nullptr;
  const int64_t n = a.numel();
  if (args.size() == 2) {
    const Value& ind = args[1];
    std::vector<double> nums;
    std::vector<std::string> texts;
    if (ind.is_string() || ind.is_cell() || ind.is_char()) {
      if (ind.is_char() && !a.is_char()) {
        texts.push_back(ind.to_text());
      } else if (ind.is_char()) {
        Tensor t = ind.tensor();
        for (int64_t i = 0; i < t.numel(); ++i) nums.push_back(t.get_double(i));
      } else {
        texts = patterns(ind, "ismissing", 2);
      }
    } else if (ind.is_tensor()) {
      Tensor t = ind.tensor();
      for (int64_t i = 0; i < t.numel(); ++i) nums.push_back(t.get_double(i));
    } else {
      throw_error("MATLAB:ismissing:InvalidIndicator",
                  "Indicators must be numeric, logical, character, string, or cell arrays of "
                  "character vectors.");
    }
    auto num_hit = [&](double x) {
      for (double v : nums)
        if (v == x || (std::isnan(v) && std::isnan(x))) return true;
      return false;
    };
    auto text_hit = [&](const std::string& s) {
      return std::find(texts.begin(), texts.end(), s) != texts.end();
    };
    if (a.is_string()) {
      const StringArray& s = a.string_array();
      for (int64_t i = 0; i < n; ++i) o[i] = s[i] && text_hit(*s[i]);
    } else if (a.is_cell()) {
      for (int64_t i = 0; i < n; ++i) {
        const Value& e = a.cell()[i];
        o[i] = e.is_char() && text_hit(e.is_empty() ? "" : e.to_text());
      }
    } else if (a.is_tensor()) {
      Tensor t = a.tensor();
      for (int64_t i = 0; i < n; ++i) o[i] = num_hit(t.get_double(i));
    }
    return {Value(std::move(r))};
  }
  if (a.is_string()) {
    const StringArray& s = a.string_array();
    for (int64_t i = 0; i < n; ++i) o[i] = !s[i];
  } else if (a.is_cell()) {
    for (int64_t i = 0; i < n; ++i) {
      const Value& e = a.cell()[i];
      if (!e.is_char())
        throw_error("MATLAB:ismissing:CellNotCellstr",
                    "Cell arrays must be cell arrays of character vectors.");
      o[i] = e.is_empty();
    }
  } else if (a.is_tensor()) {
    Tensor t = a.tensor();
    if (t.cls() == ClassId::Double || t.cls() == ClassId::Single) {
      for (int64_t i = 0; i < n; ++i) {
        if (t.is_complex()) {
          auto z = t.get_complex(i);
          o[i] = std::isnan(z.real()) || std::isnan(z.imag());
        } else {
          o[i] = std::isnan(t.get_double(i));
        }
      }
    } else if (t.cls() == ClassId::Char) {
      for (int64_t i = 0; i < n; ++i) o[i] = t.get_double(i) == ' ';
    }
  } else if (!a.is_struct()) {
    throw_error("MATLAB:ismissing:FirstInputInvalid",
                "First argument must be a table, a timetable, or an array.");
  }
  return {Value(std::move(r))};
}

/// newStr = erase(str, match): str with every occurrence of match removed (match: text or an
/// array of texts; longer matches first where they overlap).
Outputs bi_erase(CallContext&, Args args, int nargout) {
  check_nargin(args, 2, 2);
  check_nargout(nargout, 1);
  OptItems s = opt_items(args[0], "erase");
  std::vector<std::string> pats = patterns(args[1], "erase", 2);
  std::stable_sort(pats.begin(), pats.end(),
                   [](const std::string& a, const std::string& b) { return a.size() > b.size(); });
  std::vector<std::optional<std::string>> out;
  for (const auto& it : s.items) {
    if (!it) {
      out.push_back(std::nullopt);
      continue;
    }
    const std::string& t = *it;
    std::string r;
    size_t i = 0;
    while (i < t.size()) {
      bool hit = false;
      for (const auto& p : pats) {
        if (!p.empty() && t.compare(i, p.size(), p) == 0) {
          i += p.size();
          hit = true;
          break;
        }
      }
      if (!hit) r += t[i++];
    }
    out.push_back(std::move(r));
  }
  return {pack_opt(s, out)};
}

/// One boundary of eraseBetween: a text pattern or a character position (1-based).
struct Bound {
  bool is_pos = false;
  int64_t pos = 0;
  std::string pat;
};

Bound bound_arg(const Value& v, const char* fname) {
  Bound b;
  if (v.is_tensor() && !v.is_char()) {
    const double d = v.to_double("position");
    if (!(d >= 0) || d != std::floor(d))
      throw_error("MATLAB:eraseBetween:InvalidPosition",
                  "Position must be a positive integer.");
    b.is_pos = true;
    b.pos = static_cast<int64_t>(d);
    return b;
  }
  if (!v.is_text())
    throw_error("MATLAB:eraseBetween:InvalidBoundary",
                "Start and end must be text or positions.");
  (void)fname;
  b.pat = v.to_text();
  return b;
}

/// newStr = eraseBetween(str, start, end [, 'Boundaries', 'inclusive'|'exclusive']): removes
/// the text between every start/end pattern pair (exclusive of the patterns by default), or
/// between positions start and end (inclusive by default).
Outputs bi_eraseBetween(CallContext&, Args args, int nargout) {
  if (args.size() != 3 && args.size() != 5) check_nargin(args, 3, 3);
  check_nargout(nargout, 1);
  OptItems s = opt_items(args[0], "eraseBetween");
  Bound a = bound_arg(args[1], "eraseBetween"), b = bound_arg(args[2], "eraseBetween");
  if (a.is_pos != b.is_pos)
    throw_error("MATLAB:eraseBetween:MixedInputs",
                "Start and end must both be positions or both be text.");
  bool inclusive = a.is_pos;
  if (args.size() == 5) {
    if (text_detail::lower(text_arg(args[3], "eraseBetween", 4)) != "boundaries")
      throw_error("MATLAB:eraseBetween:UnknownParameter", "Unknown parameter name.");
    const std::string v = text_detail::lower(text_arg(args[4], "eraseBetween", 5));
    if (v != "inclusive" && v != "exclusive")
      throw_error("MATLAB:eraseBetween:InvalidBoundaries",
                  "Boundaries must be 'inclusive' or 'exclusive'.");
    inclusive = v == "inclusive";
  }
  std::vector<std::optional<std::string>> out;
  for (const auto& it : s.items) {
    if (!it) {
      out.push_back(std::nullopt);
      continue;
    }
    const std::string& t = *it;
    if (a.is_pos) {
      const int64_t n = char_count(t);
      if (a.pos < 1 || a.pos > n + 1 || b.pos > n || b.pos < a.pos - 1)
        throw_error("MATLAB:eraseBetween:InvalidPosition",
                    "Position values must be within the text.");
      const int64_t from = inclusive ? a.pos - 1 : a.pos, to = inclusive ? b.pos : b.pos - 1;
      const size_t bf = byte_of_char(t, from), bt = byte_of_char(t, std::max(from, to));
      out.push_back(t.substr(0, bf) + t.substr(bt));
      continue;
    }
    std::string r;
    size_t p = 0;
    while (true) {
      const size_t s0 = t.find(a.pat, p);
      if (s0 == std::string::npos) break;
      const size_t e0 = t.find(b.pat, s0 + a.pat.size());
      if (e0 == std::string::npos) break;
      const size_t from = inclusive ? s0 : s0 + a.pat.size();
      r += t.substr(p, from - p);
      if (!inclusive) r += b.pat;
      p = e0 + b.pat.size();
    }
    r += t.substr(p);
    out.push_back(std::move(r));
  }
  return {pack_opt(s, out)};
}

bool is_ws(unsigned char c) {
  return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f';
}

/// newStr = strip(str [, side] [, padCharacter]): removes leading and/or trailing whitespace
/// (or padCharacter). side: 'both' (default), 'left', 'right'.
Outputs bi_strip(CallContext&, Args args, int nargout) {
  check_nargin(args, 1, 3);
  check_nargout(nargout, 1);
  OptItems s = opt_items(args[0], "strip");
  bool left = true, right = true;
  std::optional<std::string> pad;
  for (size_t k = 1; k < args.size(); ++k) {
    const std::string v = text_arg(args[k], "strip", static_cast<int>(k + 1));
    const std::string l = text_detail::lower(v);
    if (k == 1 && args.size() >= 2 && (l == "both" || l == "left" || l == "right") &&
        !(args.size() == 2 && v.size() == 1)) {
      left = l != "right";
      right = l != "left";
    } else if (text_detail::char_index_map(v).back() == 1) {
      pad = v;
    } else {
      throw_error("MATLAB:strip:InvalidSide",
                  "Side must be 'both', 'left', or 'right', and the pad character a single "
                  "character.");
    }
  }
  std::vector<std::optional<std::string>> out;
  for (const auto& it : s.items) {
    if (!it) {
      out.push_back(std::nullopt);
      continue;
    }
    std::string t = *it;
    auto at_front = [&]() {
      if (pad) return t.compare(0, pad->size(), *pad) == 0;
      return is_ws(static_cast<unsigned char>(t[0]));
    };
    auto at_back = [&]() {
      if (pad)
        return t.size() >= pad->size() &&
               t.compare(t.size() - pad->size(), pad->size(), *pad) == 0;
      return is_ws(static_cast<unsigned char>(t.back()));
    };
    const size_t w = pad ? pad->size() : 1;
    if (left)
      while (!t.empty() && at_front()) t.erase(0, w);
    if (right)
      while (!t.empty() && at_back()) t.erase(t.size() - w);
    out.push_back(std::move(t));
  }
  return {pack_opt(s, out)};
}

/// C = cellstr(A): a char matrix becomes a column cell of its rows (trailing whitespace
/// removed), a string array a cell of the same size (<missing> not allowed), a cellstr itself.
Outputs bi_cellstr(CallContext&, Args args, int nargout) {
  check_nargin(args, 1, 1);
  check_nargout(nargout, 1);
  const Value& a = args[0];
  if (a.is_cell()) {
    for (const Value& e : a.cell().elems())
      if (!e.is_char() || (e.dims().rows() > 1))
        throw_error("MATLAB:cellstr:MustContainText",
                    "Cell array must contain only character vectors.");
    return {a};
  }
  if (a.is_string()) {
    const StringArray& s = a.string_array();
    CellArray c(s.dims());
    for (int64_t i = 0; i < s.numel(); ++i) {
      if (!s[i])
        throw_error("MATLAB:string:MissingToCharConversion",
                    "Conversion from <missing> to character vector is not supported.");
      c.at(i) = char_row(*s[i]);
    }
    return {Value(std::move(c))};
  }
  if (!a.is_char() || a.dims().ndims() > 2)
    throw_error("MATLAB:cellstr:InputClass",
                "Input must be a string array, character array, or cell array of character "
                "vectors.");
  Tensor t = a.tensor();
  const int64_t rows = t.dims().rows(), cols = t.dims().cols();
  if (rows == 0) {
    CellArray c(Dims(1, 1));
    c.at(0) = char_row("");
    return {Value(std::move(c))};
  }
  CellArray c(Dims(rows, 1));
  for (int64_t r = 0; r < rows; ++r) {
    int64_t end = cols;
    while (end > 0) {
      const double ch = t.get_double(r + (end - 1) * rows);
      if (ch == ' ' || ch == '\t' || ch == '\n' || ch == '\r' || ch == '\v' || ch == '\f' ||
          ch == 0)
        --end;
      else
        break;
    }
    Tensor rt = Tensor::uninit(ClassId::Char, Dims(1, end));
    for (int64_t k = 0; k < end; ++k) rt.set_double(k, t.get_double(r + k * rows));
    c.at(r) = Value(std::move(rt));
  }
  return {Value(std::move(c))};
}

}  // namespace

void register_text_strings(Registry& r) {
  r.add("strings", bi_strings);
  r.add("ismissing", bi_ismissing);
  r.add("erase", bi_erase);
  r.add("eraseBetween", bi_eraseBetween);
  r.add("strip", bi_strip);
  r.add("cellstr", bi_cellstr);
}

}  // namespace matfuse
