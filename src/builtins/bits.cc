// Builtins of the "bits" family: bitand, bitor, bitxor, bitshift, bitcmp, swapbytes, idivide,
// and base conversion: dec2bin, dec2hex, dec2base, bin2dec, hex2dec, base2dec.
//
// Integer semantics follow MATLAB: inputs of an integer class give that class; double inputs
// must hold non-negative integers up to flintmax (2^53) and give double. Implicit expansion
// applies to the two-operand functions.
#include <algorithm>
#include <cmath>
#include <cstring>
#include <string>

#include "builtins/math_util.h"
#include "builtins/registry.h"

namespace matfuse {

namespace {

constexpr double kFlint = 9007199254740992.0;  // 2^53

/// Element i of an integer-valued tensor as uint64 bits (two's complement for signed classes).
uint64_t bits_at(const Tensor& t, int64_t i) {
  switch (t.cls()) {
    case ClassId::Int64: return static_cast<uint64_t>(t.data<int64_t>()[i]);
    case ClassId::UInt64: return t.data<uint64_t>()[i];
    default: {
      double d = t.get_double(i);
      if (d < 0) return static_cast<uint64_t>(static_cast<int64_t>(d));
      return static_cast<uint64_t>(d);
    }
  }
}

/// Stores bits into element i of an integer tensor (truncating to its width) or a double.
void set_bits(Tensor& t, int64_t i, uint64_t v) {
  switch (t.cls()) {
    case ClassId::Int8: t.mutable_data<int8_t>()[i] = static_cast<int8_t>(v); break;
    case ClassId::UInt8: t.mutable_data<uint8_t>()[i] = static_cast<uint8_t>(v); break;
    case ClassId::Int16: t.mutable_data<int16_t>()[i] = static_cast<int16_t>(v); break;
    case ClassId::UInt16: t.mutable_data<uint16_t>()[i] = static_cast<uint16_t>(v); break;
    case ClassId::Int32: t.mutable_data<int32_t>()[i] = static_cast<int32_t>(v); break;
    case ClassId::UInt32: t.mutable_data<uint32_t>()[i] = static_cast<uint32_t>(v); break;
    case ClassId::Int64: t.mutable_data<int64_t>()[i] = static_cast<int64_t>(v); break;
    case ClassId::UInt64: t.mutable_data<uint64_t>()[i] = v; break;
    default: t.set_double(i, static_cast<double>(v)); break;
  }
}

Tensor bit_operand(const Value& v, const char* fname) {
  if (!v.is_tensor()) mathutil::undefined_for(fname, v);
  Tensor t = v.tensor();
  if (t.is_complex())
    throw_error("MATLAB:bitops:complexNotSupported", "%s: inputs must be real.", fname);
  if (t.cls() == ClassId::Single || t.cls() == ClassId::Char) t = t.to_class(ClassId::Double);
  if (t.cls() == ClassId::Logical) t = t.to_class(ClassId::Double);
  if (t.cls() == ClassId::Double) {
    const double* d = t.data<double>();
    for (int64_t i = 0; i < t.numel(); ++i)
      if (!(d[i] >= 0 && d[i] <= kFlint && d[i] == std::floor(d[i])))
        throw_error("MATLAB:bitops:integerNotNonNegative", "Double inputs must have integer "
                    "values in the range of ASSUMEDTYPE.");
  }
  return t;
}

ClassId bit_class(const Tensor& a, const Tensor& b, const char* fname) {
  ClassId ca = a.cls(), cb = b.cls();
  if (is_integer_class(ca) && is_integer_class(cb) && ca != cb)
    throw_error("MATLAB:bitops:inputsMustMatch", "%s: inputs must have the same integer class "
                "or be double.", fname);
  return is_integer_class(ca) ? ca : cb;
}

template <class Op>
Outputs bit_binary(Args args, int nargout, const char* fname, Op op) {
  check_nargin(args, 2, 3);
  check_nargout(nargout, 1);
  Tensor a = bit_operand(args[0], fname), b = bit_operand(args[1], fname);
  ClassId c = bit_class(a, b, fname);
  Dims od = broadcast_dims(a.dims(), b.dims());
  auto ia = mathutil::broadcast_map(a.dims(), od), ib = mathutil::broadcast_map(b.dims(), od);
  Tensor r = Tensor::uninit(c, od);
  for (int64_t i = 0; i < od.numel(); ++i) set_bits(r, i, op(bits_at(a, ia[i]), bits_at(b, ib[i])));
  return {Value(r)};
}

Outputs bi_bitand(CallContext&, Args a, int n) {
  return bit_binary(a, n, "bitand", [](uint64_t x, uint64_t y) { return x & y; });
}
Outputs bi_bitor(CallContext&, Args a, int n) {
  return bit_binary(a, n, "bitor", [](uint64_t x, uint64_t y) { return x | y; });
}
Outputs bi_bitxor(CallContext&, Args a, int n) {
  return bit_binary(a, n, "bitxor", [](uint64_t x, uint64_t y) { return x ^ y; });
}

int class_bits(ClassId c) { return is_integer_class(c) ? element_size(c) * 8 : 53; }

/// C = bitshift(A, k [, assumedtype]): A shifted left by k bits (right for k < 0); bits past
/// the class width (53 for double) are lost.
Outputs bi_bitshift(CallContext&, Args args, int nargout) {
  check_nargin(args, 2, 3);
  check_nargout(nargout, 1);
  Tensor a = bit_operand(args[0], "bitshift");
  if (!args[1].is_tensor()) mathutil::undefined_for("bitshift", args[1]);
  Tensor k = args[1].tensor();
  int width = class_bits(a.cls());
  if (args.size() > 2 && args[2].is_text()) {
    auto c = class_from_name(args[2].to_text());
    if (c && is_integer_class(*c)) width = element_size(*c) * 8;
  }
  Dims od = broadcast_dims(a.dims(), k.dims());
  auto ia = mathutil::broadcast_map(a.dims(), od), ik = mathutil::broadcast_map(k.dims(), od);
  Tensor r = Tensor::uninit(a.cls(), od);
  uint64_t mask = width >= 64 ? ~0ULL : ((1ULL << width) - 1);
  bool sgn = is_signed_integer(a.cls());
  for (int64_t i = 0; i < od.numel(); ++i) {
    uint64_t v = bits_at(a, ia[i]);
    double s = k.get_double(ik[i]);
    if (s != std::floor(s))
      throw_error("MATLAB:bitshift:nonIntegerShift", "The number of bits to shift must be an "
                  "integer.");
    int sh = static_cast<int>(std::max(-64.0, std::min(64.0, s)));
    uint64_t out;
    if (sh >= 0) out = sh >= 64 ? 0 : (v << sh);
    else if (sgn) out = static_cast<uint64_t>(static_cast<int64_t>(v) >> std::min(63, -sh));
    else out = -sh >= 64 ? 0 : ((v & mask) >> -sh);
    if (!sgn) out &= mask;
    set_bits(r, i, out);
  }
  return {Value(r)};
}

/// C = bitcmp(A [, assumedtype]): bitwise complement in A's integer class, or in assumedtype
/// ('uint64' by default for double input, returned as double).
Outputs bi_bitcmp(CallContext&, Args args, int nargout) {
  check_nargin(args, 1, 2);
  check_nargout(nargout, 1);
  Tensor a = bit_operand(args[0], "bitcmp");
  int width = class_bits(a.cls());
  if (a.cls() == ClassId::Double) width = 64;
  if (args.size() > 1) {
    if (args[1].is_text()) {
      auto c = class_from_name(args[1].to_text());
      if (!c || !is_integer_class(*c))
        throw_error("MATLAB:bitcmp:invalidAssumedType", "ASSUMEDTYPE must be an integer type "
                    "name.");
      width = element_size(*c) * 8;
    } else {
      // The old bitcmp(A, N) form: N bits, checked before the cast and the shift by N.
      const double n = args[1].to_double("N");
      if (!(n >= 0 && n <= 64) || n != std::floor(n))
        throw_error("MATLAB:bitcmp:invalidN", "N must be an integer between 0 and 64.");
      width = static_cast<int>(n);
    }
  }
  uint64_t mask = width >= 64 ? ~0ULL : ((1ULL << width) - 1);
  Tensor r = Tensor::uninit(a.cls(), a.dims());
  for (int64_t i = 0; i < a.numel(); ++i) {
    uint64_t v = ~bits_at(a, i);
    if (!is_signed_integer(a.cls())) v &= mask;
    set_bits(r, i, v);
  }
  if (args[0].is_tensor() && args[0].cls() == ClassId::Single) r = r.to_class(ClassId::Single);
  return {Value(r)};
}

/// Y = swapbytes(X): reverses the byte order of every element (numeric classes).
Outputs bi_swapbytes(CallContext&, Args args, int nargout) {
  check_nargin(args, 1, 1);
  check_nargout(nargout, 1);
  if (!args[0].is_numeric()) mathutil::undefined_for("swapbytes", args[0]);
  Tensor x = args[0].tensor();
  Tensor r = Tensor::uninit(x.cls(), x.dims(), x.is_complex());
  int es = element_size(x.cls());
  int64_t n = x.numel() * (x.is_complex() ? 2 : 1);
  const unsigned char* s = static_cast<const unsigned char*>(x.raw());
  unsigned char* d = static_cast<unsigned char*>(r.mutable_raw());
  for (int64_t i = 0; i < n; ++i)
    for (int b = 0; b < es; ++b) d[i * es + b] = s[i * es + (es - 1 - b)];
  return {Value(r)};
}

/// C = idivide(A, B [, 'fix' | 'round' | 'floor' | 'ceil']): integer division with the given
/// rounding (default 'fix'); at least one input of an integer class; results saturate.
Outputs bi_idivide(CallContext&, Args args, int nargout) {
  check_nargin(args, 2, 3);
  check_nargout(nargout, 1);
  if (!args[0].is_tensor() || !args[1].is_tensor())
    throw_error("MATLAB:idivide:InputClass", "At least one input must be an integer type.");
  Tensor a = args[0].tensor(), b = args[1].tensor();
  if (!is_integer_class(a.cls()) && !is_integer_class(b.cls()))
    throw_error("MATLAB:idivide:InputClass", "At least one input must be an integer type.");
  if (is_integer_class(a.cls()) && is_integer_class(b.cls()) && a.cls() != b.cls())
    throw_error("MATLAB:idivide:mixedIntegerTypes", "Integers can only be combined with "
                "integers of the same class, or scalar doubles.");
  std::string mode = args.size() > 2 ? args[2].to_text("opt") : "fix";
  ClassId c = is_integer_class(a.cls()) ? a.cls() : b.cls();
  Dims od = broadcast_dims(a.dims(), b.dims());
  auto ia = mathutil::broadcast_map(a.dims(), od), ib = mathutil::broadcast_map(b.dims(), od);
  Tensor r = Tensor::uninit(c, od);
  double lo = int_class_min(c), hi = int_class_max(c);
  if (c == ClassId::Int64 || c == ClassId::UInt64) {  // exact 64-bit integer arithmetic
    auto get = [&](const Tensor& t, int64_t k) -> __int128 {
      if (t.cls() == ClassId::UInt64) return static_cast<__int128>(t.data<uint64_t>()[k]);
      if (t.cls() == ClassId::Int64) return static_cast<__int128>(t.data<int64_t>()[k]);
      double d = std::round(t.get_double(k));
      return static_cast<__int128>(std::max(-9.3e18, std::min(1.8e19, d)));
    };
    __int128 lo128 = c == ClassId::Int64 ? -(static_cast<__int128>(1) << 63) : 0;
    __int128 hi128 = c == ClassId::Int64 ? (static_cast<__int128>(1) << 63) - 1
                                         : (static_cast<__int128>(1) << 64) - 1;
    for (int64_t i = 0; i < od.numel(); ++i) {
      __int128 x = get(a, ia[i]), y = get(b, ib[i]), q;
      if (y == 0) {
        q = x > 0 ? hi128 : x < 0 ? lo128 : 0;
      } else {
        q = x / y;
        __int128 rem = x - q * y;
        bool neg = (x < 0) != (y < 0);
        if (rem != 0) {
          if (mode == "floor" && neg) q -= 1;
          else if (mode == "ceil" && !neg) q += 1;
          else if (mode == "round") {
            __int128 ar = rem < 0 ? -rem : rem, ay = y < 0 ? -y : y;
            if (2 * ar >= ay) q += neg ? -1 : 1;
          } else if (mode != "fix" && mode != "floor" && mode != "ceil")
            throw_error("MATLAB:idivide:InvalidRoundingOption", "Invalid rounding option '%s'.",
                        mode.c_str());
        }
      }
      q = std::max(lo128, std::min(hi128, q));
      if (c == ClassId::Int64) r.mutable_data<int64_t>()[i] = static_cast<int64_t>(q);
      else r.mutable_data<uint64_t>()[i] = static_cast<uint64_t>(q);
    }
    return {Value(r)};
  }
  for (int64_t i = 0; i < od.numel(); ++i) {
    double x = a.get_double(ia[i]), y = b.get_double(ib[i]);
    if (!is_integer_class(a.cls())) x = std::round(x);
    if (!is_integer_class(b.cls())) y = std::round(y);
    double q;
    if (y == 0) {
      q = x > 0 ? hi : x < 0 ? lo : 0;
    } else {
      double v = x / y;
      if (mode == "fix") v = std::trunc(v);
      else if (mode == "floor") v = std::floor(v);
      else if (mode == "ceil") v = std::ceil(v);
      else if (mode == "round") v = std::round(v);
      else
        throw_error("MATLAB:idivide:InvalidRoundingOption", "Invalid rounding option '%s'.",
                    mode.c_str());
      q = v;
    }
    r.set_double(i, std::max(lo, std::min(hi, q)));
  }
  return {Value(r)};
}

// ---------------------------------------------------------------------------------------------
// Base conversion

std::string to_base(uint64_t v, int base, const std::string& sym) {
  if (v == 0) return std::string(1, sym[0]);
  std::string s;
  while (v) {
    s.push_back(sym[v % base]);
    v /= base;
  }
  std::reverse(s.begin(), s.end());
  return s;
}

/// Char matrix of the rows (right-aligned, left padded with pad).
Value char_rows(const std::vector<std::string>& rows, char pad) {
  size_t w = 0;
  for (const auto& r : rows) w = std::max(w, r.size());
  int64_t m = static_cast<int64_t>(rows.size());
  Tensor t = Tensor::uninit(ClassId::Char, Dims(m, static_cast<int64_t>(w)));
  char16_t* d = t.mutable_data<char16_t>();
  for (int64_t i = 0; i < m; ++i) {
    size_t off = w - rows[i].size();
    for (size_t j = 0; j < w; ++j)
      d[j * m + i] = j < off ? pad : static_cast<char16_t>(rows[i][j - off]);
  }
  return Value(t);
}

Outputs dec2any(Args args, int base, const std::string& sym, const char* fname, size_t lenarg) {
  if (!args[0].is_tensor())
    throw_error(("MATLAB:" + std::string(fname) + ":InputMustBeNumeric").c_str(),
                "%s: input must be integer values.", fname);
  Tensor d = args[0].tensor();
  if (d.is_complex())
    throw_error(("MATLAB:" + std::string(fname) + ":InputMustBeReal").c_str(),
                "%s: input must be integer values (real).", fname);
  for (int64_t i = 0; i < d.numel(); ++i) {
    double v = d.get_double(i);
    if (std::isfinite(v) && v != std::floor(v))
      throw_error(("MATLAB:" + std::string(fname) + ":InputMustBeInteger").c_str(),
                  "%s: input must be integer values.", fname);
  }
  size_t minlen = 0;
  if (args.size() > lenarg) minlen = static_cast<size_t>(args[lenarg].to_index("len"));
  std::vector<std::string> rows;
  for (int64_t i = 0; i < d.numel(); ++i) {
    double v = d.get_double(i);
    uint64_t u;
    if (is_integer_class(d.cls()) || d.cls() == ClassId::Logical || d.cls() == ClassId::Char) {
      u = bits_at(d, i);
      if (v < 0) {  // two's complement in the class width
        int w = element_size(d.cls()) * 8;
        if (w < 64) u &= (1ULL << w) - 1;
      }
    } else if (v < 0 && std::isfinite(v)) {
      // Two's complement in the smallest signed integer type that holds v (MATLAB R2020a).
      int w = v >= -128 ? 8 : v >= -32768 ? 16 : v >= -2147483648.0 ? 32 : 64;
      u = static_cast<uint64_t>(static_cast<int64_t>(std::max(v, -9223372036854775808.0)));
      if (w < 64) u &= (1ULL << w) - 1;
    } else {
      if (!(v >= 0) || !std::isfinite(v))
        throw_error(("MATLAB:" + std::string(fname) + ":negativeInput").c_str(),
                    "D must be a nonnegative integer smaller than flintmax.");
      if (v >= 18446744073709551616.0)
        throw_error(("MATLAB:" + std::string(fname) + ":tooLargeInput").c_str(),
                    "D must be smaller than 2^64.");
      u = static_cast<uint64_t>(std::floor(v));
    }
    std::string s = to_base(u, base, sym);
    if (s.size() < minlen) s = std::string(minlen - s.size(), sym[0]) + s;
    rows.push_back(s);
  }
  if (rows.empty()) return {Value(Tensor::zeros(ClassId::Char, Dims(0, 0)))};
  return {char_rows(rows, sym[0])};
}

const std::string kDigits = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ";

/// str = dec2bin(d [, n]): binary text of each element of d (rows of a char matrix, at least n
/// digits). d non-negative integers (integer classes may be negative: two's complement).
Outputs bi_dec2bin(CallContext&, Args args, int nargout) {
  check_nargin(args, 1, 2);
  check_nargout(nargout, 1);
  return dec2any(args, 2, kDigits, "dec2bin", 1);
}
Outputs bi_dec2hex(CallContext&, Args args, int nargout) {
  check_nargin(args, 1, 2);
  check_nargout(nargout, 1);
  return dec2any(args, 16, kDigits, "dec2hex", 1);
}
/// str = dec2base(d, base [, n]): base 2..36 or a symbol string of at least two characters.
Outputs bi_dec2base(CallContext&, Args args, int nargout) {
  check_nargin(args, 2, 3);
  check_nargout(nargout, 1);
  if (args[0].is_char())
    throw_error("MATLAB:dec2base:InputMustBeNumeric", "dec2base: input must be real "
                "non-negative integers.");
  for (double v : mathutil::doubles_of(args[0], "dec2base"))
    if (v < 0)
      throw_error("MATLAB:dec2base:negativeInput", "dec2base: input must be real non-negative "
                  "integers.");
  std::string sym;
  int base;
  if (args[1].is_text()) {
    sym = args[1].to_text();
    base = static_cast<int>(sym.size());
    if (base < 2)
      throw_error("MATLAB:dec2base:symbolsTooShort", "Symbols must contain at least two "
                  "characters.");
    for (size_t i = 0; i < sym.size(); ++i) {
      if (std::isspace(static_cast<unsigned char>(sym[i])))
        throw_error("MATLAB:dec2base:whitespaceSymbol", "Whitespace characters are not valid "
                    "symbols.");
      if (sym.find(sym[i], i + 1) != std::string::npos)
        throw_error("MATLAB:dec2base:symbolsNotUnique", "Symbols representing digits must be "
                    "unique.");
    }
  } else {
    if (args[1].numel() != 1 || args[1].to_double("base") != std::floor(args[1].to_double()))
      throw_error("MATLAB:dec2base:invalidBase", "BASE must be an integer between 2 and 36.");
    const double b = args[1].to_double("base");  // range checked before the cast to int
    if (!(b >= 2 && b <= 36))
      throw_error("MATLAB:dec2base:invalidBase", "Base must be an integer between 2 and 36.");
    base = static_cast<int>(b);
    sym = kDigits.substr(0, static_cast<size_t>(base));
  }
  return dec2any(args, base, sym, "dec2base", 2);
}

/// Rows of text input: char matrix rows, cellstr elements or string elements.
std::vector<std::string> text_rows(const Value& v, const char* fname) {
  std::vector<std::string> rows;
  if (v.is_cell()) {
    for (const Value& e : v.cell().elems()) rows.push_back(e.to_text("element"));
  } else if (v.is_string()) {
    for (const auto& e : v.string_array().elems()) rows.push_back(e ? *e : "");
  } else if (v.is_char()) {
    Tensor t = v.tensor();
    int64_t m = t.dims()[0], n = t.numel() / std::max<int64_t>(m, 1);
    const char16_t* d = t.data<char16_t>();
    for (int64_t i = 0; i < m; ++i) {
      std::string s;
      for (int64_t j = 0; j < n; ++j) s.push_back(static_cast<char>(d[j * m + i]));
      rows.push_back(s);
    }
  } else {
    throw_error(("MATLAB:" + std::string(fname) + ":InputMustBeText").c_str(),
                "Input must be a character vector, cell array of character vectors, or string "
                "array.");
  }
  return rows;
}

Outputs any2dec(const Value& v, int base, const std::string& sym, const char* fname) {
  std::vector<std::string> rows = text_rows(v, fname);
  std::vector<double> out;
  for (const std::string& s : rows) {
    double acc = 0;
    bool bad = false, any = false;
    for (char ch : s) {
      if (ch == ' ' || ch == '\0') continue;
      size_t k = std::string::npos;
      if (sym.empty()) {
        char u = static_cast<char>(std::toupper(static_cast<unsigned char>(ch)));
        size_t p = kDigits.find(u);
        if (p != std::string::npos && static_cast<int>(p) < base) k = p;
      } else {
        k = sym.find(ch);
      }
      if (k == std::string::npos) {
        bad = true;
        break;
      }
      any = true;
      acc = acc * base + static_cast<double>(k);
    }
    out.push_back(bad ? NAN : (any ? acc : 0));
  }
  Tensor t = Tensor::uninit(ClassId::Double, Dims(static_cast<int64_t>(out.size()), 1));
  for (size_t i = 0; i < out.size(); ++i) t.set_double(static_cast<int64_t>(i), out[i]);
  if (v.is_string()) t = t.reshaped(v.dims());
  return {Value(t)};
}

/// d = bin2dec(str): value of binary text (rows of a char matrix, cellstr or strings; spaces
/// ignored; invalid text gives NaN).
Outputs bi_bin2dec(CallContext&, Args args, int nargout) {
  check_nargin(args, 1, 1);
  check_nargout(nargout, 1);
  return any2dec(args[0], 2, "", "bin2dec");
}
Outputs bi_hex2dec(CallContext&, Args args, int nargout) {
  check_nargin(args, 1, 1);
  check_nargout(nargout, 1);
  return any2dec(args[0], 16, "", "hex2dec");
}
/// d = base2dec(str, base): base 2..36 or a symbol string.
Outputs bi_base2dec(CallContext&, Args args, int nargout) {
  check_nargin(args, 2, 2);
  check_nargout(nargout, 1);
  if (args[1].is_text()) {
    std::string sym = args[1].to_text();
    for (size_t i = 0; i < sym.size(); ++i) {
      if (std::isspace(static_cast<unsigned char>(sym[i])))
        throw_error("MATLAB:base2dec:whitespaceSymbol", "Whitespace characters are not valid "
                    "symbols.");
      if (sym.find(sym[i], i + 1) != std::string::npos)
        throw_error("MATLAB:base2dec:symbolsNotUnique", "Symbols representing digits must be "
                    "unique.");
    }
    return any2dec(args[0], static_cast<int>(sym.size()), sym, "base2dec");
  }
  if (args[1].numel() != 1)
    throw_error("MATLAB:base2dec:invalidBase", "Base must be a scalar integer between 2 and "
                "36.");
  // Checked as a double: converting one outside int's range (1e12) is undefined.
  const double b = args[1].to_double("base");
  if (!(b >= 2 && b <= 36) || b != std::floor(b))
    throw_error("MATLAB:base2dec:invalidBase", "Base must be an integer between 2 and 36.");
  return any2dec(args[0], static_cast<int>(b), "", "base2dec");
}

}  // namespace

void register_bits(Registry& r) {
  r.add("bitand", bi_bitand);
  r.add("bitor", bi_bitor);
  r.add("bitxor", bi_bitxor);
  r.add("bitshift", bi_bitshift);
  r.add("bitcmp", bi_bitcmp);
  r.add("swapbytes", bi_swapbytes);
  r.add("idivide", bi_idivide);
  r.add("dec2bin", bi_dec2bin);
  r.add("dec2hex", bi_dec2hex);
  r.add("dec2base", bi_dec2base);
  r.add("bin2dec", bi_bin2dec);
  r.add("hex2dec", bi_hex2dec);
  r.add("base2dec", bi_base2dec);
}

}  // namespace matfuse
