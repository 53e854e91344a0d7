// Numeric, logical and char-code formatting for MATLAB displays (see display_internal.h for the
// model). Details not verifiable from MathWorks documentation are marked "unverified".
#include <algorithm>
#include <cinttypes>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <type_traits>

#include "builtins/rational.h"
#include "interp/display_internal.h"

namespace matfuse::display_detail {

std::string dims_text(const Dims& d) {
  std::string s;
  for (int k = 0; k < d.ndims(); ++k) {
    if (k) s += "\xC3\x97";  // U+00D7 MULTIPLICATION SIGN
    s += std::to_string(d[k]);
  }
  return s;
}

namespace {

enum class Kind { Int, Fixed, Exp, G };

struct RealFmt {
  Kind kind = Kind::Int;
  int prec = 0;
  double scale = 1.0;
  bool zero_as_int = false;  ///< exact zeros print as "0" (real fixed-point matrices)
};

struct Stats {
  double maxabs = 0;
  bool all_int = true;
  bool any_finite = false;
};

void scan(double v, Stats& s) {
  if (!std::isfinite(v)) return;
  s.any_finite = true;
  double a = std::fabs(v);
  if (a > s.maxabs) s.maxabs = a;
  if (v != std::floor(v)) s.all_int = false;
}

std::string nonfinite_text(double v) {
  if (std::isnan(v)) return "NaN";
  return v > 0 ? "Inf" : "-Inf";
}

std::string real_text(double v, const RealFmt& f) {
  if (!std::isfinite(v)) return nonfinite_text(v);
  char buf[96];
  switch (f.kind) {
    case Kind::Int:
      if (v == 0) return "0";
      std::snprintf(buf, sizeof buf, "%.0f", v);
      break;
    case Kind::Fixed:
      if (f.zero_as_int && v == 0) return "0";
      std::snprintf(buf, sizeof buf, "%.*f", f.prec, v / f.scale);
      break;
    case Kind::Exp:
      std::snprintf(buf, sizeof buf, "%.*e", f.prec, v);
      break;
    case Kind::G:
      std::snprintf(buf, sizeof buf, "%.*g", f.prec, v);
      break;
  }
  return buf;
}

std::string pad_left(const std::string& s, int w) {
  return static_cast<int>(s.size()) >= w ? s : std::string(w - s.size(), ' ') + s;
}

struct Plan {
  RealFmt fmt;
  int width = 0;  ///< field width (real) or real-part field base (complex, ignored)
  std::string scale_line;
};

/// Chooses the element format of a double/single array from its statistics.
Plan plan_float(const Stats& s, NumericFormat nf, bool single, bool scalar, bool complex) {
  Plan p;
  const bool is_long = nf == NumericFormat::Long || nf == NumericFormat::LongE ||
                       nf == NumericFormat::LongG;
  const int long_prec = single ? 7 : 15;
  if (!complex && s.all_int && s.maxabs < 1e9) {
    p.fmt.kind = Kind::Int;
    p.width = s.maxabs < 1000 ? 6 : 12;  // unverified beyond observed "     5" / "        2020"
    return p;
  }
  switch (nf) {
    case NumericFormat::ShortE:
    case NumericFormat::LongE:
      p.fmt.kind = Kind::Exp;
      p.fmt.prec = is_long ? long_prec : 4;
      p.width = p.fmt.prec + 9;
      return p;
    case NumericFormat::ShortG:
    case NumericFormat::LongG:
      p.fmt.kind = Kind::G;
      p.fmt.prec = is_long ? long_prec : 5;
      p.width = is_long ? 20 : 10;  // unverified; widened below to fit texts
      return p;
    default:
      break;
  }
  const int fixed_width = is_long ? (single ? 12 : 20) : 10;
  // Rounding to 4 decimals can carry into a fourth integer digit (999.99999 -> 1000.0000);
  // such values count as >= 1000.
  const double rounded = std::round(s.maxabs * 1e4) / 1e4;
  const bool out_of_range = rounded >= 1000 || (s.maxabs > 0 && s.maxabs < 1e-3);
  if (out_of_range && scalar) {
    p.fmt.kind = Kind::Exp;
    p.fmt.prec = is_long ? long_prec : 4;
    p.width = p.fmt.prec + 9;
    return p;
  }
  p.fmt.kind = Kind::Fixed;
  p.fmt.zero_as_int = !complex && !scalar;
  p.width = fixed_width;
  if (out_of_range) {
    int e = static_cast<int>(std::floor(std::log10(s.maxabs)));
    p.fmt.scale = std::pow(10.0, e);
    // Guard against log10 rounding (e.g. 999.99999 -> 3): keep scaled max below 10.
    if (s.maxabs / p.fmt.scale >= 10) { ++e; p.fmt.scale = std::pow(10.0, e); }
    char buf[32];
    std::snprintf(buf, sizeof buf, "   1.0e%c%02d *", e < 0 ? '-' : '+', std::abs(e));
    p.scale_line = buf;
    p.fmt.prec = is_long ? long_prec : 4;
    return p;
  }
  if (!is_long) {
    p.fmt.prec = 4;
  } else {
    int int_digits = s.maxabs >= 1 ? static_cast<int>(std::floor(std::log10(s.maxabs))) + 1 : 1;
    // format long: 16 significant digits for double (pi -> 3.141592653589793,
    // 290/7 -> 41.42857142857143), 8 for single (3.1415927).
    p.fmt.prec = std::max(1, (single ? 8 : 16) - int_digits);
  }
  return p;
}

template <class T>
std::string int_text(T v) {
  char buf[32];
  if constexpr (std::is_same_v<T, bool>) {
    return v ? "1" : "0";
  } else if constexpr (std::is_same_v<T, char16_t>) {
    std::snprintf(buf, sizeof buf, "%u", static_cast<unsigned>(v));
  } else if constexpr (std::is_signed_v<T>) {
    std::snprintf(buf, sizeof buf, "%" PRId64, static_cast<int64_t>(v));
  } else {
    std::snprintf(buf, sizeof buf, "%" PRIu64, static_cast<uint64_t>(v));
  }
  return buf;
}

/// Texts of an integer-class / logical / char array (exact, no double round trip).
std::vector<std::string> integer_texts(const Tensor& t) {
  std::vector<std::string> out;
  const int64_t n = t.numel();
  out.reserve(n);
  dispatch_class(t.cls(), [&](auto tag) {
    using T = decltype(tag);
    if constexpr (std::is_floating_point_v<T>) {
      for (int64_t i = 0; i < n; ++i) out.push_back(real_text(t.get_double(i), RealFmt{}));
    } else {
      const T* d = t.data<T>();
      const int step = t.is_complex() ? 2 : 1;
      for (int64_t i = 0; i < n; ++i) {
        std::string s = int_text<T>(d[i * step]);
        if (t.is_complex()) {
          T im = d[i * step + 1];
          std::string it = int_text<T>(im);
          if (it[0] == '-') s += " - " + it.substr(1) + "i";
          else s += " + " + it + "i";
        }
        out.push_back(std::move(s));
      }
    }
  });
  return out;
}

Stats stats_of(const Tensor& t) {
  Stats s;
  const int64_t n = t.numel();
  for (int64_t i = 0; i < n; ++i) {
    if (t.is_complex()) {
      std::complex<double> z = t.get_complex(i);
      scan(z.real(), s);
      scan(z.imag(), s);
    } else {
      scan(t.get_double(i), s);
    }
  }
  return s;
}

}  // namespace

namespace {

/// `format hex`: the bytes of each element as hexadecimal digits, most significant first
/// (IEEE bits for double and single, two's complement for the integer classes).
std::string hex_text(const Tensor& t, int64_t i, bool imag) {
  const int eb = t.elem_bytes();
  const int step = t.is_complex() ? 2 : 1;
  const unsigned char* p =
      static_cast<const unsigned char*>(t.raw()) + (i * step + (imag ? 1 : 0)) * eb;
  static const char* dig = "0123456789abcdef";
  std::string s;
  for (int b = eb - 1; b >= 0; --b) {  // little-endian storage
    s += dig[p[b] >> 4];
    s += dig[p[b] & 15];
  }
  return s;
}

/// `format rat`: rats texts (trimmed) of real values; "re + im*i" forms for complex.
std::string rat_elem(double v) {
  std::string s = rats_text(v, 13);
  size_t a = s.find_first_not_of(' '), b = s.find_last_not_of(' ');
  return a == std::string::npos ? s : s.substr(a, b - a + 1);
}

}  // namespace

FormattedNumeric format_numeric(const Tensor& t, NumericFormat nf) {
  FormattedNumeric r;
  const int64_t n = t.numel();
  if (nf == NumericFormat::Hex && t.cls() != ClassId::Logical && t.cls() != ClassId::Char) {
    std::vector<std::string> texts;
    for (int64_t i = 0; i < n; ++i)
      texts.push_back(t.is_complex() ? hex_text(t, i, false) + "   " + hex_text(t, i, true) + "i"
                                     : hex_text(t, i, false));
    size_t maxlen = 1;
    for (auto& x : texts) maxlen = std::max(maxlen, x.size());
    r.width = static_cast<int>(maxlen) + 3;
    for (auto& x : texts) r.texts.push_back(pad_left(x, r.width));
    return r;
  }
  if (nf == NumericFormat::Rat && is_float_class(t.cls())) {
    std::vector<std::string> texts;
    for (int64_t i = 0; i < n; ++i) {
      if (t.is_complex()) {
        std::complex<double> z = t.get_complex(i);
        std::string im = rat_elem(std::fabs(z.imag()));
        texts.push_back(rat_elem(z.real()) + (std::signbit(z.imag()) ? " - " : " + ") + im + "i");
      } else {
        texts.push_back(rat_elem(t.get_double(i)));
      }
    }
    size_t maxlen = 1;
    for (auto& x : texts) maxlen = std::max(maxlen, x.size());
    r.width = static_cast<int>(maxlen) + 5;
    for (auto& x : texts) r.texts.push_back(pad_left(x, r.width));
    return r;
  }
  if (!is_float_class(t.cls())) {
    std::vector<std::string> texts = integer_texts(t);
    size_t maxlen = 1;
    for (auto& s : texts) maxlen = std::max(maxlen, s.size());
    r.width = static_cast<int>(maxlen) + 3;
    r.texts.reserve(n);
    for (auto& s : texts) r.texts.push_back(pad_left(s, r.width));
    return r;
  }
  Stats s = stats_of(t);
  Plan p = plan_float(s, nf, t.cls() == ClassId::Single, t.is_scalar(), t.is_complex());
  r.scale_line = p.scale_line;
  if (!t.is_complex()) {
    std::vector<std::string> texts;
    texts.reserve(n);
    size_t maxlen = 0;
    for (int64_t i = 0; i < n; ++i) {
      texts.push_back(real_text(t.get_double(i), p.fmt));
      maxlen = std::max(maxlen, texts.back().size());
    }
    r.width = std::max(p.width, static_cast<int>(maxlen) + (p.fmt.kind == Kind::G ? 3 : 2));
    r.texts.reserve(n);
    for (auto& x : texts) r.texts.push_back(pad_left(x, r.width));
    return r;
  }
  // Complex: "re + imi" with the real parts and the imaginary magnitudes each right-aligned.
  std::vector<std::string> re(n), im(n);
  std::vector<bool> neg(n);
  size_t wr = 0, wi = 0;
  for (int64_t i = 0; i < n; ++i) {
    std::complex<double> z = t.get_complex(i);
    re[i] = real_text(z.real(), p.fmt);
    neg[i] = std::signbit(z.imag()) && !std::isnan(z.imag());
    im[i] = real_text(std::fabs(z.imag()), p.fmt);
    if (std::isnan(z.imag())) im[i] = "NaN";
    // The real part's field reserves a sign slot: widths come from the unsigned text.
    wr = std::max(wr, re[i].size() - (re[i][0] == '-' ? 1 : 0));
    wi = std::max(wi, im[i].size());
  }
  r.width = 3 + static_cast<int>(wr) + 3 + static_cast<int>(wi) + 1;  // "   re + imi"
  r.texts.reserve(n);
  for (int64_t i = 0; i < n; ++i) {
    r.texts.push_back(pad_left(re[i], 3 + static_cast<int>(wr)) + (neg[i] ? " - " : " + ") +
                      pad_left(im[i], static_cast<int>(wi)) + "i");
  }
  return r;
}

std::string scalar_inline_text(const Tensor& t, int64_t index, NumericFormat nf) {
  Tensor one = Tensor::uninit(t.cls(), Dims::scalar(), t.is_complex());
  if (t.is_complex()) one.set_complex(0, t.get_complex(index));
  else if (is_float_class(t.cls())) one.set_double(0, t.get_double(index));
  else {
    const int eb = t.elem_bytes();
    std::memcpy(one.mutable_raw(), static_cast<const char*>(t.raw()) + index * eb, eb);
  }
  FormattedNumeric f = format_numeric(one, nf);
  std::string s = f.texts.empty() ? std::string() : f.texts[0];
  size_t b = s.find_first_not_of(' ');
  return b == std::string::npos ? s : s.substr(b);
}

std::string row_inline_text(const Tensor& t, NumericFormat nf) {
  std::string s = "[";
  for (int64_t i = 0; i < t.numel(); ++i) {
    if (i) s += ' ';
    s += scalar_inline_text(t, i, nf);
  }
  return s + "]";
}

void print_grid(std::string& out, const std::vector<std::string>& texts, int64_t rows,
                int64_t cols, const std::vector<int>& widths, const std::string& indent,
                bool loose, int line_width) {
  int64_t start = 0;
  bool first = true;
  while (start < cols || (cols == 0 && first)) {
    int64_t end = start;
    int used = static_cast<int>(indent.size());
    while (end < cols && (end == start || used + widths[end] <= line_width)) {
      used += widths[end];
      ++end;
    }
    const bool chunked = !(start == 0 && end == cols);
    if (chunked) {
      if (!first && loose) out += "\n";
      if (end - start == 1) out += "  Column " + std::to_string(start + 1) + "\n";
      else
        out += "  Columns " + std::to_string(start + 1) + " through " + std::to_string(end) + "\n";
      if (loose) out += "\n";
    }
    for (int64_t r = 0; r < rows; ++r) {
      out += indent;
      for (int64_t c = start; c < end; ++c) out += texts[c * rows + r];
      out += "\n";
    }
    first = false;
    if (cols == 0) break;
    start = end;
  }
}

}  // namespace matfuse::display_detail
