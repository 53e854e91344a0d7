// Builtins of the "io" family: disp, display, format, num2str, int2str, mat2str.
//
// Display layout lives in interp/display.cc (reached through CallContext::display); this file
// only parses arguments. num2str follows
// MATLAB's num2str.m rules (integers: "%{d+2}.0f" columns with d the digit count of the largest
// magnitude; non-integers: "%{p+7}.{p}g" with p = clamp(floor(log10(max|x|)) + 5, 5, 16); the
// char matrix is then trimmed of blank columns common to every row), checked against GNU
// Octave's implementation of the same algorithm.
#include <algorithm>
#include <cctype>
#include <climits>
#include <cmath>
#include <cstdio>

#include "builtins/rational.h"
#include "builtins/format.h"
#include "builtins/registry.h"

namespace matfuse {

namespace {

std::string lower(std::string s) {
  for (auto& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

/// Char matrix from equal-or-unequal length ASCII/UTF-8 rows (shorter rows padded with blanks).
Value char_matrix(const std::vector<std::string>& rows) {
  if (rows.empty()) return Value::from_chars("");
  if (rows.size() == 1) return Value::from_chars(rows[0]);
  std::vector<Tensor> r;
  int64_t w = 0;
  for (auto& s : rows) {
    r.push_back(Tensor::from_string(s));
    w = std::max(w, r.back().numel());
  }
  const int64_t n = static_cast<int64_t>(rows.size());
  Tensor t = Tensor::zeros(ClassId::Char, Dims(n, w));
  char16_t* d = t.mutable_data<char16_t>();
  for (int64_t i = 0; i < n; ++i) {
    const char16_t* src = r[i].numel() ? r[i].data<char16_t>() : nullptr;
    for (int64_t c = 0; c < w; ++c) d[c * n + i] = c < r[i].numel() ? src[c] : u' ';
  }
  return Value(t);
}

/// Removes blank columns present at the start (and end) of every row (strtrim of a char matrix).
std::vector<std::string> trim_common(std::vector<std::string> rows) {
  size_t w = 0;
  for (auto& r : rows) w = std::max(w, r.size());
  for (auto& r : rows) r.resize(w, ' ');
  size_t lead = w, trail = w;
  for (auto& r : rows) {
    size_t b = r.find_first_not_of(" \t\n");
    lead = std::min(lead, b == std::string::npos ? w : b);
    size_t e = r.find_last_not_of(" \t\n");
    trail = std::min(trail, e == std::string::npos ? w : w - 1 - e);
  }
  if (lead + trail >= w) {
    for (auto& r : rows) r.clear();
    return rows;
  }
  for (auto& r : rows) r = r.substr(lead, w - lead - trail);
  return rows;
}

std::string nonfinite(double v) {
  if (std::isnan(v)) return "NaN";
  return v > 0 ? "Inf" : "-Inf";
}

/// printf of one double with a %...{f,g,e} spec; Inf/NaN as MATLAB spells them, same width.
std::string fmt_num(double v, int width, int prec, char conv, bool plus = false,
                    bool left = false) {
  char spec[32], buf[512];
  if (!std::isfinite(v)) {
    std::string s = nonfinite(v);
    if (plus && !std::isnan(v) && v > 0) s = "+" + s;
    std::snprintf(spec, sizeof spec, left ? "%%-%ds" : "%%%ds", width);
    std::snprintf(buf, sizeof buf, spec, s.c_str());
    return buf;
  }
  std::snprintf(spec, sizeof spec, "%%%s%s%d.%d%c", left ? "-" : "", plus ? "+" : "", width, prec,
                conv);
  std::snprintf(buf, sizeof buf, spec, v);
  return buf;
}

struct NumStats {
  double maxabs = 0;
  bool all_int = true, any_nonfinite = false, any_finite = false;
};

NumStats num_stats(const Tensor& t) {
  NumStats s;
  for (int64_t i = 0; i < t.numel(); ++i) {
    std::complex<double> z = t.is_complex() ? t.get_complex(i) : t.get_double(i);
    for (double v : {z.real(), z.imag()}) {
      if (!std::isfinite(v)) { s.any_nonfinite = true; continue; }
      s.any_finite = true;
      s.maxabs = std::max(s.maxabs, std::fabs(v));
      if (v != std::trunc(v)) s.all_int = false;
    }
  }
  return s;
}

/// Significant digits num2str uses for non-integer data.
int num2str_digits(double maxabs) {
  int nd = maxabs > 0 ? static_cast<int>(std::floor(std::log10(maxabs))) : 0;
  return std::clamp(nd + 5, 5, 16);
}

/// num2str of a real numeric/logical array with an automatic or precision-given format.
Value num2str_real(const Tensor& t, int precision /* -1: automatic */) {
  const Dims& d = t.dims();
  const int64_t rows = d.rows(), cols = rows ? t.numel() / rows : 0;
  NumStats s = num_stats(t);
  int width, prec;
  char conv;
  if (precision >= 0) {
    if (is_float_class(t.cls())) { width = precision + 7; prec = precision; conv = 'g'; }
    else { width = precision; prec = 0; conv = 'f'; }
  } else {
    int nd = s.maxabs > 0 ? static_cast<int>(std::floor(std::log10(s.maxabs))) : 0;
    if (!s.all_int || nd > 15) {
      prec = num2str_digits(s.maxabs);
      width = prec + 7;
      conv = 'g';
    } else {
      // Integers: digit count + 2 (Octave adds no room for a minus sign; MATLAB unverified).
      width = nd + 3;
      if (s.any_nonfinite) width = std::max(width, 5);
      prec = 0;
      conv = 'f';
    }
  }
  std::vector<std::string> out(rows);
  for (int64_t r = 0; r < rows; ++r)
    for (int64_t c = 0; c < cols; ++c) {
      out[r] += fmt_num(t.get_double(c * rows + r), width, prec, conv);
    }
  return char_matrix(trim_common(out));
}

/// num2str of complex data: "3+4i", "1.5-2.25i"; columns right-aligned, two spaces apart.
Value num2str_complex(const Tensor& t, int precision) {
  const int64_t rows = t.dims().rows(), cols = rows ? t.numel() / rows : 0;
  NumStats s = num_stats(t);
  int prec = precision >= 0 ? precision : (s.all_int ? 0 : num2str_digits(s.maxabs));
  char conv = precision < 0 && s.all_int ? 'f' : 'g';
  std::vector<std::string> texts(t.numel());
  for (int64_t i = 0; i < t.numel(); ++i) {
    std::complex<double> z = t.get_complex(i);
    std::string re = fmt_num(z.real(), 0, prec, conv);
    std::string im = fmt_num(z.imag(), 0, prec, conv, true);
    if (std::isnan(z.imag())) im = "+NaN";
    texts[i] = re + im + "i";
  }
  std::vector<std::string> out(rows);
  for (int64_t c = 0; c < cols; ++c) {
    size_t w = 0;
    for (int64_t r = 0; r < rows; ++r) w = std::max(w, texts[c * rows + r].size());
    for (int64_t r = 0; r < rows; ++r) {
      const std::string& x = texts[c * rows + r];
      out[r] += (c ? "  " : "") + std::string(w - x.size(), ' ') + x;
    }
  }
  return char_matrix(trim_common(out));
}

Value num2str_value(const Value& x, const Value* arg) {
  if (!x.is_tensor())
    throw_error("MATLAB:num2str:nonNumericInput",
                "Input to num2str must be numeric, logical, or character.");  // id unverified
  if (x.is_char()) return x;
  Tensor t = x.tensor();
  if (t.is_empty()) return Value::from_chars("");
  if (arg && arg->is_text()) {
    // Format string applied to each row; leading blanks common to every row are trimmed (MATLAB
    // documents that num2str trims leading spaces even when the format has a field width).
    std::string fmt = arg->to_text();
    const int64_t rows = t.dims().rows(), cols = t.numel() / rows;
    std::vector<std::string> out(rows);
    for (int64_t r = 0; r < rows; ++r) {
      Tensor row = Tensor::uninit(t.cls(), Dims(1, cols), t.is_complex());
      for (int64_t c = 0; c < cols; ++c) {
        if (t.is_complex()) row.set_complex(c, t.get_complex(c * rows + r));
        else row.set_double(c, t.get_double(c * rows + r));
      }
      Value rv(row);
      std::string s = format_printf(fmt, Args(&rv, 1), "num2str");
      // A row that ends in a newline yields several char rows in MATLAB; keep the text rows.
      size_t start = 0;
      std::string acc;
      for (size_t k = 0; k < s.size(); ++k)
        if (s[k] == '\n') { acc += s.substr(start, k - start); start = k + 1; }
      acc += s.substr(start);
      out[r] = acc;
    }
    return char_matrix(trim_common(out));
  }
  int precision = -1;
  if (arg) {
    // Inf and values past int (1e12) are no precision; their cast to int would be undefined.
    if (!arg->is_tensor() || arg->numel() != 1 || !(arg->to_double() >= 0) ||
        !(arg->to_double() <= INT_MAX) || arg->to_double() != std::floor(arg->to_double()))
      throw_error("MATLAB:num2str:invalidPrecision",
                  "Precision must be a nonnegative integer.");  // id unverified
    precision = static_cast<int>(arg->to_double());
  }
  if (t.is_complex()) return num2str_complex(t, precision);
  return num2str_real(t, precision);
}

// ----- mat2str -------------------------------------------------------------------------

std::string mat2str_num(double v, int prec) {
  if (!std::isfinite(v)) return nonfinite(v);
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*g", prec, v);
  return buf;
}

/// One element; complex values use prec for the real part and prec_im for the imaginary part
/// (mat2str(A, [n_re n_im])).
std::string mat2str_elem(const Tensor& t, int64_t i, int prec, int prec_im) {
  if (t.cls() == ClassId::Logical) return t.get_double(i) != 0 ? "true" : "false";
  if (!t.is_complex()) return mat2str_num(t.get_double(i), prec);
  std::complex<double> z = t.get_complex(i);
  std::string im = mat2str_num(z.imag(), prec_im);
  if (im[0] != '-') im = "+" + im;
  return mat2str_num(z.real(), prec) + im + "i";
}

Value mat2str_value(Args args) {
  const Value& x = args[0];
  int prec = -1, prec_im = -1;
  bool with_class = false;
  for (size_t k = 1; k < args.size(); ++k) {
    if (args[k].is_text()) {
      if (lower(args[k].to_text()) != "class")
        throw_error("MATLAB:mat2str:InvalidOptionString",
                    "Invalid option string. Use 'class'.");  // unverified wording
      with_class = true;
    } else if (args[k].is_tensor() && (args[k].numel() == 1 || args[k].numel() == 2)) {
      // Positive integers (NaN, Inf or 1e12 would be undefined to cast to int).
      const double p = args[k].tensor().get_double(0);
      const double q = args[k].tensor().get_double(args[k].numel() - 1);
      for (double v : {p, q})
        if (!(v >= 1 && v <= INT_MAX) || v != std::floor(v))
          throw_error("MATLAB:mat2str:InvalidPrecision", "Precision must be a positive integer.");
      prec = static_cast<int>(p);
      prec_im = static_cast<int>(q);
    } else {
      throw_error("MATLAB:mat2str:InvalidPrecision", "Precision must be a positive integer.");
    }
  }
  if (!x.is_tensor())
    throw_error("MATLAB:mat2str:NumericCharLogical",
                "Input must be a numeric, character, or logical array.");  // unverified wording
  Tensor t = x.tensor();
  const Dims& d = t.dims();
  if (d.ndims() > 2) throw_error("MATLAB:mat2str:TwoDInput", "Input matrix must be 2-D.");
  if (prec < 0) prec = prec_im = t.cls() == ClassId::Single ? 7 : 15;
  const int64_t rows = d.rows(), cols = d.cols();
  if (t.cls() == ClassId::Char) {
    std::vector<std::string> rs;
    for (int64_t r = 0; r < rows; ++r) {
      Tensor row = Tensor::uninit(ClassId::Char, Dims(1, cols));
      for (int64_t c = 0; c < cols; ++c) row.mutable_data<char16_t>()[c] = t.data<char16_t>()[c * rows + r];
      std::string s = cols ? row.to_utf8() : std::string();
      std::string q = "'";
      for (char ch : s) q += ch == '\'' ? std::string("''") : std::string(1, ch);
      rs.push_back(q + "'");
    }
    if (rows == 0) return Value::from_chars("''");
    if (rows == 1) return Value::from_chars(rs[0]);
    std::string out = "[";
    for (size_t r = 0; r < rs.size(); ++r) out += (r ? ";" : "") + rs[r];
    return Value::from_chars(out + "]");
  }
  std::string cls(class_name(t.cls()));
  std::string body;
  if (t.is_empty()) {
    body = "zeros(" + std::to_string(rows) + "," + std::to_string(cols);
    if (with_class && t.cls() != ClassId::Double && t.cls() != ClassId::Logical)
      return Value::from_chars(body + ",'" + cls + "')");
    if (t.cls() == ClassId::Logical) body = "false(" + std::to_string(rows) + "," + std::to_string(cols);
    return Value::from_chars(body + ")");
  }
  if (t.is_scalar()) {
    body = mat2str_elem(t, 0, prec, prec_im);
  } else {
    body = "[";
    for (int64_t r = 0; r < rows; ++r) {
      if (r) body += ";";
      for (int64_t c = 0; c < cols; ++c) {
        if (c) body += " ";
        body += mat2str_elem(t, c * rows + r, prec, prec_im);
      }
    }
    body += "]";
  }
  // 'class' wraps every numeric class, double included (unverified for double).
  if (with_class && t.cls() != ClassId::Logical) body = cls + "(" + body + ")";
  return Value::from_chars(body);
}

// ----- builtins ------------------------------------------------------------------------

Outputs bi_disp(CallContext& ctx, Args args, int nargout) {
  check_nargin(args, 1, 1);
  check_nargout(nargout, 0);
  ctx.display(args[0], "");  // the interpreter's display (interp/display.h)
  return {};
}

Outputs bi_display(CallContext& ctx, Args args, int nargout) {
  check_nargin(args, 1, 2);
  check_nargout(nargout, 0);
  // Without a variable name (no inputname support here) the value is shown as "ans"
  // (unverified); display(x, name) uses the given name.
  std::string name = args.size() > 1 ? args[1].to_text("name") : std::string("ans");
  ctx.display(args[0], name);  // an empty name shows the value as disp does
  return {};
}

const char* format_name(NumericFormat f) {
  switch (f) {
    case NumericFormat::Rat: return "rational";
    case NumericFormat::Hex: return "hex";
    case NumericFormat::Short: return "short";
    case NumericFormat::Long: return "long";
    case NumericFormat::ShortG: return "shortG";
    case NumericFormat::LongG: return "longG";
    case NumericFormat::ShortE: return "shortE";
    case NumericFormat::LongE: return "longE";
  }
  return "short";
}

/// format, format(style), format(style, modifier), format style lineSpacing, format(fmtStruct);
/// fmt = format(...) returns the previous settings as a struct with NumericFormat and LineSpacing (MATLAB returns a
/// DisplayFormatOptions object with those properties).
Outputs bi_format(CallContext& ctx, Args args, int nargout) {
  check_nargout(nargout, 1);
  Session& s = ctx.session();
  StructArray prev;
  prev.add_field("NumericFormat");
  prev.add_field("LineSpacing");
  prev.at(0, 0) = Value::from_string(format_name(s.format));
  prev.at(0, 1) = Value::from_string(s.compact ? "compact" : "loose");
  if (args.empty()) {
    if (nargout == 0) {
      s.format = NumericFormat::Short;
      s.compact = false;
    }
    if (nargout > 0) return {Value(prev)};
    return {};
  }
  std::vector<std::string> words;
  if (args.size() == 1 && args[0].is_struct()) {
    const StructArray& st = args[0].struct_array();
    int nf = st.field_index("NumericFormat"), ls = st.field_index("LineSpacing");
    if (nf >= 0 && !st.get(0, nf).to_text("format").empty())
      words.push_back(st.get(0, nf).to_text("format"));
    if (ls >= 0) s.compact = lower(st.get(0, ls).to_text("format")) == "compact";
  } else {
    for (const Value& a : args) words.push_back(a.to_text("format"));
  }
  for (size_t i = 0; i < words.size(); ++i) {
    const std::string& style = words[i];
    std::string key = lower(style);
    key.erase(std::remove(key.begin(), key.end(), ' '), key.end());
    // The older two-word forms: format long e, format('short', 'g'), ...
    if ((key == "short" || key == "long") && i + 1 < words.size() &&
        (lower(words[i + 1]) == "e" || lower(words[i + 1]) == "g"))
      key += lower(words[++i]);
    if (key == "short" || key == "default") {
      s.format = NumericFormat::Short;
      if (key == "default") s.compact = false;
    } else if (key == "long") s.format = NumericFormat::Long;
    else if (key == "shortg") s.format = NumericFormat::ShortG;
    else if (key == "longg") s.format = NumericFormat::LongG;
    else if (key == "shorte") s.format = NumericFormat::ShortE;
    else if (key == "longe") s.format = NumericFormat::LongE;
    else if (key == "compact") s.compact = true;
    else if (key == "loose") s.compact = false;
    else if (key == "rat" || key == "rational") s.format = NumericFormat::Rat;
    else if (key == "hex") s.format = NumericFormat::Hex;
    else if (key == "bank" || key == "+" ||
             key == "shorteng" || key == "longeng")
      throw_error("matfuse:notAvailable", "format '%s' is not supported.", style.c_str());
    else
      throw_error("MATLAB:format:InvalidInputArgument", "Unknown format option '%s'.",
                  style.c_str());  // identifier unverified
  }
  if (nargout > 0) return {Value(prev)};
  return {};
}

Outputs bi_num2str(CallContext&, Args args, int nargout) {
  check_nargin(args, 1, 2);
  check_nargout(nargout, 1);
  return {num2str_value(args[0], args.size() > 1 ? &args[1] : nullptr)};
}

Outputs bi_int2str(CallContext&, Args args, int nargout) {
  check_nargin(args, 1, 1);
  check_nargout(nargout, 1);
  const Value& x = args[0];
  if (!x.is_tensor())
    throw_error("MATLAB:int2str:nonNumericInput",
                "Input must be numeric, logical, or char.");  // unverified
  Tensor t = x.tensor();
  if (t.is_empty()) return {Value::from_chars("")};
  Tensor r = Tensor::uninit(ClassId::Double, t.dims(), t.is_complex());
  for (int64_t i = 0; i < t.numel(); ++i) {
    if (t.is_complex()) {
      std::complex<double> z = t.get_complex(i);
      r.set_complex(i, {std::round(z.real()), std::round(z.imag())});
    } else {
      r.set_double(i, std::round(t.get_double(i)));  // half away from zero
    }
  }
  return {num2str_value(Value(r), nullptr)};
}

Outputs bi_mat2str(CallContext&, Args args, int nargout) {
  check_nargin(args, 1, 3);
  check_nargout(nargout, 1);
  return {mat2str_value(args)};
}

}  // namespace

void register_io(Registry& r) {
  r.add("disp", bi_disp);
  r.add("display", bi_display);
  r.add("format", bi_format);
  r.add("num2str", bi_num2str);
  r.add("int2str", bi_int2str);
  r.add("mat2str", bi_mat2str);
}

}  // namespace matfuse
