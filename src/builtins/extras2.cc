// More builtins that scripts commonly use: text predicates and conversions (isletter,
// isstrprop, isStringScalar, convertStringsToChars, convertCharsToStrings, count, splitlines),
// matrix functions (poly, sqrtm, schur, hess, bandwidth, normest), data helpers (nanmean, nansum, nanmax,
// nanmin, discretize, detrend, isoutlier, rmoutliers, topkrows), celldisp, input and the
// folder commands (cd, rmdir, copyfile, movefile, dir).
//
// Algorithms:
// - sqrtm: the Schur method of A. Bjorck and S. Hammarling, "A Schur method for the square
//   root of a matrix", Linear Algebra Appl. 52/53 (1983) 127-140 (complex Schur form by LAPACK
//   zgees, then the upper-triangular recurrence R(i,j) = (T(i,j) - sum R(i,k)R(k,j)) /
//   (R(i,i) + R(j,j))).
// - schur / hess: LAPACK dgees/zgees and dgehrd+dorghr / zgehrd+zunghr.
// - normest: the power iteration on A'*A of MATLAB's normest (tolerance 1e-6).
// - isoutlier: more than ThresholdFactor (3) scaled median absolute deviations from the median
//   (scale -1/(sqrt(2)*erfcinv(3/2))), standard deviations from the mean, or 1.5 interquartile
//   ranges outside the quartiles.
#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <ctime>
#include <cmath>
#include <complex>
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <string>
#include <vector>

#include "builtins/lapack_inc.h"
#include "builtins/math_util.h"
#include "builtins/registry.h"
#include "runtime/error.h"
#include "runtime/session.h"

namespace matfuse {

namespace {

using mathutil::call1;
using mathutil::float_arg;
using cd = std::complex<double>;
namespace fs = std::filesystem;

std::string lower_s(std::string s) {
  for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

Value subsref_paren(CallContext& ctx, const Value& a, std::vector<Value> subs) {
  CellArray c(Dims(1, static_cast<int64_t>(subs.size())));
  for (size_t i = 0; i < subs.size(); ++i) c.at(static_cast<int64_t>(i)) = subs[i];
  StructArray s(Dims(1, 1));
  s.at(0, s.add_field("type")) = Value::from_chars("()");
  s.at(0, s.add_field("subs")) = Value(std::move(c));
  Value in[2] = {a, Value(std::move(s))};
  return ctx.call_named("subsref", Args(in, 2), 1)[0];
}

// ---------------------------------------------------------------------------------------------
// Text predicates and conversions

/// tf = isletter(A): true for the letters of a char array (false for every element of other
/// types).
Outputs bi_isletter(CallContext&, Args args, int nargout) {
  check_nargin(args, 1, 1);
  check_nargout(nargout, 1);
  const Value& v = args[0];
  if (!v.is_char()) return {Value(Tensor::zeros(ClassId::Logical, v.dims()))};
  Tensor t = v.tensor();
  Tensor r = Tensor::uninit(ClassId::Logical, t.dims());
  for (int64_t i = 0; i < t.numel(); ++i) {
    char16_t c = t.data<char16_t>()[i];
    r.mutable_data<bool>()[i] = (c < 128 && std::isalpha(c)) || (c >= 0xC0 && c != 0xD7 && c != 0xF7 && c < 0x2000);
  }
  return {Value(r)};
}

bool char_in_category(char16_t c, const std::string& cat) {
  const bool a = c < 128;
  int ch = static_cast<int>(c);
  if (cat == "alpha") return (a && std::isalpha(ch)) || (c >= 0xC0 && c != 0xD7 && c != 0xF7 && c < 0x2000);
  if (cat == "digit") return a && std::isdigit(ch);
  if (cat == "alphanum") return (a && std::isalnum(ch)) || (c >= 0xC0 && c != 0xD7 && c != 0xF7 && c < 0x2000);
  if (cat == "lower") return (a && std::islower(ch)) || (c >= 0xDF && c <= 0xFF && c != 0xF7);
  if (cat == "upper") return (a && std::isupper(ch)) || (c >= 0xC0 && c <= 0xDE && c != 0xD7);
  if (cat == "wspace") return (a && std::isspace(ch)) || c == 0xA0 || c == 0x85 || (c >= 0x2000 && c <= 0x200A) || c == 0x2028 || c == 0x2029 || c == 0x3000;
  if (cat == "punct") return a && std::ispunct(ch);
  if (cat == "cntrl") return (a && std::iscntrl(ch)) || (c >= 0x80 && c < 0xA0);
  if (cat == "graphic" || cat == "graph") return (a && std::isgraph(ch)) || (c > 0xA0);
  if (cat == "print") return (a && std::isprint(ch)) || (c >= 0xA0);
  if (cat == "xdigit") return a && std::isxdigit(ch);
  return false;
}

/// TF = isstrprop(str, category) | isstrprop(str, category, 'ForceCellOutput', tf): the
/// characters of str in the category ('alpha', 'alphanum', 'digit', 'lower', 'upper',
/// 'wspace', 'punct', 'cntrl', 'graphic', 'print', 'xdigit'); a cell array of such arrays for
/// cell and non-scalar string input. Numeric input is read as character codes. Errors:
/// MATLAB:isstrprop:InvalidCategory.
Outputs bi_isstrprop(CallContext&, Args args, int nargout) {
  check_nargin(args, 2, 4);
  check_nargout(nargout, 1);
  if (args.size() == 3)
    throw_error("MATLAB:isstrprop:InvalidParameter", "Expected 'ForceCellOutput' and a "
                "value after the category.");
  std::string cat = lower_s(args[1].to_text("category"));
  static const char* cats[] = {"alpha", "alphanum", "digit", "lower", "upper", "wspace",
                               "punct", "cntrl", "graphic", "graph", "print", "xdigit"};
  if (std::find_if(std::begin(cats), std::end(cats), [&](const char* c) { return cat == c; }) ==
      std::end(cats))
    throw_error("MATLAB:isstrprop:InvalidCategory",
                "Category must be 'alpha', 'alphanum', 'digit', 'lower', 'upper', 'wspace', "
                "'punct', 'cntrl', 'graphic', 'print', or 'xdigit'.");
  bool force_cell = false;
  if (args.size() == 4) {
    if (lower_s(args[2].to_text("name")) != "forcecelloutput")
      throw_error("MATLAB:isstrprop:InvalidParameter", "Invalid parameter name.");
    force_cell = args[3].truthy();
  }
  auto of_tensor = [&](const Tensor& t) {
    Tensor r = Tensor::uninit(ClassId::Logical, t.dims());
    for (int64_t i = 0; i < t.numel(); ++i) {
      double code = t.get_double(i);
      r.mutable_data<bool>()[i] = code >= 0 && code < 65536 && code == std::floor(code) &&
                                  char_in_category(static_cast<char16_t>(code), cat);
    }
    return r;
  };
  const Value& v = args[0];
  if (v.is_cell() || (v.is_string() && v.numel() != 1)) {
    CellArray out(v.dims());
    for (int64_t i = 0; i < v.numel(); ++i) {
      Value e = v.is_cell() ? v.cell()[i] : Value::from_chars(v.string_array()[i].value_or(""));
      if (!e.is_tensor())
        throw_error("MATLAB:isstrprop:InvalidInput", "Input must be a character vector, a "
                    "string array, a cell array, or a numeric array.");
      out.at(i) = Value(of_tensor(e.tensor()));
    }
    return {Value(std::move(out))};
  }
  Tensor t = v.is_string() ? Value::from_chars(v.string_array()[0].value_or("")).tensor()
                           : v.is_tensor() ? v.tensor() : Tensor();
  if (!v.is_string() && !v.is_tensor())
    throw_error("MATLAB:isstrprop:InvalidInput", "Input must be a character vector, a string "
                "array, a cell array, or a numeric array.");
  Tensor r = of_tensor(t);
  if (force_cell) {
    CellArray out(Dims(1, 1));
    out.at(0) = Value(r);
    return {Value(std::move(out))};
  }
  return {Value(r)};
}

/// tf = isStringScalar(A): true for a 1x1 string array.
Outputs bi_isStringScalar(CallContext&, Args args, int nargout) {
  check_nargin(args, 1, 1);
  check_nargout(nargout, 1);
  return {Value::logical(args[0].is_string() && args[0].numel() == 1)};
}

/// [B1, ..., Bn] = convertStringsToChars(A1, ..., An): string scalars become char vectors,
/// other string arrays cell arrays of char vectors (<missing> becomes ''); every other input
/// is returned unchanged.
Outputs bi_convertStringsToChars(CallContext&, Args args, int nargout) {
  check_nargin(args, 1, 100000);
  if (nargout > static_cast<int>(args.size()))
    throw_error("MATLAB:TooManyOutputs", "Too many output arguments.");
  Outputs out;
  for (const Value& a : args) {
    if (!a.is_string()) {
      out.push_back(a);
    } else if (a.numel() == 1) {
      out.push_back(Value::from_chars(a.string_array()[0].value_or("")));
    } else {
      CellArray c(a.dims());
      for (int64_t i = 0; i < a.numel(); ++i)
        c.at(i) = Value::from_chars(a.string_array()[i].value_or(""));
      out.push_back(Value(std::move(c)));
    }
  }
  return out;
}

/// [B1, ..., Bn] = convertCharsToStrings(A1, ..., An): char vectors become string scalars,
/// cell arrays of char vectors string arrays; other inputs are returned unchanged.
Outputs bi_convertCharsToStrings(CallContext&, Args args, int nargout) {
  check_nargin(args, 1, 100000);
  if (nargout > static_cast<int>(args.size()))
    throw_error("MATLAB:TooManyOutputs", "Too many output arguments.");
  Outputs out;
  for (const Value& a : args) {
    if (a.is_char() && (a.dims().is_row() || a.is_empty()) && a.dims().ndims() == 2 &&
        a.dims()[0] <= 1) {
      out.push_back(Value::from_string(a.is_empty() ? std::string() : a.to_text()));
    } else if (a.is_cell()) {
      bool cellstr = true;
      for (int64_t i = 0; i < a.numel() && cellstr; ++i) {
        const Value& e = a.cell()[i];
        cellstr = e.is_char() && (e.dims()[0] <= 1);
        if (e.is_tensor() && e.is_empty() && e.is_char()) cellstr = true;
      }
      if (!cellstr || a.numel() == 0) {
        out.push_back(a);
        continue;
      }
      StringArray s(a.dims());
      for (int64_t i = 0; i < a.numel(); ++i)
        s.at(i) = a.cell()[i].is_empty() ? std::string() : a.cell()[i].to_text();
      out.push_back(Value(std::move(s)));
    } else {
      out.push_back(a);
    }
  }
  return out;
}

/// Texts of a string/char/cellstr value with the dims of the result.
std::vector<std::optional<std::string>> texts_of(const Value& v, Dims& d, const char* fname) {
  std::vector<std::optional<std::string>> r;
  if (v.is_string()) {
    d = v.dims();
    for (int64_t i = 0; i < v.numel(); ++i) r.push_back(v.string_array()[i]);
  } else if (v.is_char() || (v.is_tensor() && v.is_empty() && !v.is_cell())) {
    if (v.is_char() && v.dims()[0] > 1)
      throw_error(("MATLAB:" + std::string(fname) + ":MustBeText").c_str(),
                  "First argument must be text.");
    d = Dims(1, 1);
    r.push_back(v.is_empty() ? std::string() : v.to_text());
  } else if (v.is_cell()) {
    d = v.dims();
    for (int64_t i = 0; i < v.numel(); ++i) {
      const Value& e = v.cell()[i];
      if (!e.is_text() && !(e.is_tensor() && e.is_empty()))
        throw_error(("MATLAB:" + std::string(fname) + ":MustBeText").c_str(),
                    "First argument must be text.");
      r.push_back(e.is_empty() ? std::string() : e.to_text());
    }
  } else {
    throw_error(("MATLAB:" + std::string(fname) + ":MustBeText").c_str(),
                "First argument must be text.");
  }
  return r;
}

/// A = count(str, pat) | count(str, pat, 'IgnoreCase', true): the number of non-overlapping
/// occurrences of pat (text, or any of the texts of a string/cell array) in each element of
/// str; a double array of str's size (1x1 for a char vector).
Outputs bi_count(CallContext&, Args args, int nargout) {
  check_nargin(args, 2, 4);
  check_nargout(nargout, 1);
  bool icase = false;
  if (args.size() == 4) {
    if (lower_s(args[2].to_text("name")) != "ignorecase")
      throw_error("MATLAB:count:InvalidParameter", "Invalid parameter name.");
    icase = args[3].truthy();
  } else if (args.size() == 3) {
    throw_error("MATLAB:count:NameValuePair", "Name-value pair arguments must come in pairs.");
  }
  Dims d, pd;
  auto strs = texts_of(args[0], d, "count");
  auto pats = texts_of(args[1], pd, "count");
  std::vector<std::string> ps;
  for (auto& p : pats) ps.push_back(icase ? lower_s(p.value_or("")) : p.value_or(""));
  Tensor r = Tensor::uninit(ClassId::Double, d);
  for (size_t i = 0; i < strs.size(); ++i) {
    if (!strs[i]) {
      r.set_double(static_cast<int64_t>(i), std::nan(""));
      continue;
    }
    std::string s = icase ? lower_s(*strs[i]) : *strs[i];
    double n = 0;
    size_t p = 0;
    while (p <= s.size()) {
      size_t best = std::string::npos, blen = 0;
      for (const auto& pat : ps) {
        if (pat.empty()) continue;
        size_t q = s.find(pat, p);
        if (q != std::string::npos && (q < best || (q == best && pat.size() > blen))) {
          best = q;
          blen = pat.size();
        }
      }
      if (best == std::string::npos) break;
      ++n;
      p = best + blen;
    }
    r.set_double(static_cast<int64_t>(i), n);
  }
  return {Value(r)};
}

/// newStr = splitlines(str): str split at its line breaks (\n, \r\n, \r) into a column: a
/// string array for string input, a cell array of char vectors for char input.
Outputs bi_splitlines(CallContext&, Args args, int nargout) {
  check_nargin(args, 1, 1);
  check_nargout(nargout, 1);
  const Value& v = args[0];
  if (!(v.is_text() || (v.is_char() && v.is_empty())) && !(v.is_tensor() && v.is_empty()))
    throw_error("MATLAB:splitlines:InvalidInput", "Input must be a string scalar or a character "
                "vector.");
  std::string s = v.is_empty() && !v.is_string() ? std::string() : v.to_text();
  std::vector<std::string> parts;
  std::string cur;
  for (size_t i = 0; i < s.size(); ++i) {
    if (s[i] == '\r' || s[i] == '\n') {
      parts.push_back(cur);
      cur.clear();
      if (s[i] == '\r' && i + 1 < s.size() && s[i + 1] == '\n') ++i;
    } else {
      cur += s[i];
    }
  }
  parts.push_back(cur);
  int64_t n = static_cast<int64_t>(parts.size());
  if (v.is_string()) {
    StringArray r(Dims(n, 1));
    for (int64_t i = 0; i < n; ++i) r.at(i) = parts[static_cast<size_t>(i)];
    return {Value(std::move(r))};
  }
  CellArray c(Dims(n, 1));
  for (int64_t i = 0; i < n; ++i) c.at(i) = Value::from_chars(parts[static_cast<size_t>(i)]);
  return {Value(std::move(c))};
}

// ---------------------------------------------------------------------------------------------
// Matrix functions

/// Square matrix argument as a complex column-major copy.
std::vector<cd> square_complex(const Value& v, const char* fname, int64_t& n) {
  Tensor t = float_arg(v, fname, true);
  if (t.dims().ndims() != 2 || t.dims()[0] != t.dims()[1])
    throw_error(("MATLAB:" + std::string(fname) + ":inputMustBeSquare").c_str(),
                "Input matrix must be square.");
  n = t.dims()[0];
  std::vector<cd> a(static_cast<size_t>(n * n));
  for (int64_t i = 0; i < n * n; ++i) a[i] = t.get_complex(i);
  return a;
}

Tensor complex_tensor(const std::vector<cd>& a, int64_t m, int64_t n, bool keep_complex) {
  bool cx = keep_complex;
  if (!cx)
    for (const cd& z : a)
      if (z.imag() != 0) {
        cx = true;
        break;
      }
  Tensor t = Tensor::uninit(ClassId::Double, Dims(m, n), cx);
  for (int64_t i = 0; i < m * n; ++i) {
    if (cx) t.set_complex(i, a[i]);
    else t.set_double(i, a[i].real());
  }
  return t;
}

/// Complex Schur form A = U*T*U' (T upper triangular), by zgees.
bool complex_schur(std::vector<cd>& a, int64_t n, std::vector<cd>& U) {
  U.assign(static_cast<size_t>(n * n), 0.0);
  std::vector<cd> w(static_cast<size_t>(n));
  lapack_int sdim = 0;
  int ni = static_cast<int>(n);
  lapack_int info = LAPACKE_zgees(LAPACK_COL_MAJOR, 'V', 'N', nullptr, ni, a.data(), ni, &sdim,
                                  w.data(), U.data(), ni);
  return info == 0;
}

/// X = sqrtm(A) | [X, residual] = sqrtm(A): the principal square root of a square matrix (the
/// root whose eigenvalues have non-negative real parts), real when A is real with no
/// eigenvalue on the negative real axis. residual = norm(X*X - A, 'fro')/norm(A, 'fro').
/// Warning MATLAB:sqrtm:SingularMatrix when A is singular (a root may not exist).
Outputs bi_sqrtm(CallContext& ctx, Args args, int nargout) {
  check_nargin(args, 1, 1);
  check_nargout(nargout, 3);
  int64_t n;
  std::vector<cd> a = square_complex(args[0], "sqrtm", n);
  const bool real_in = !args[0].tensor().is_complex();
  std::vector<cd> A0 = a, U;
  if (!complex_schur(a, n, U))
    throw_error("MATLAB:sqrtm:SchurFailed", "The Schur decomposition did not converge.");
  std::vector<cd> R(static_cast<size_t>(n * n), 0.0);
  auto T = [&](int64_t i, int64_t j) { return a[j * n + i]; };
  bool singular = false;
  for (int64_t j = 0; j < n; ++j) {
    R[j * n + j] = std::sqrt(T(j, j));
    if (T(j, j) == 0.0) singular = true;
    for (int64_t i = j - 1; i >= 0; --i) {
      cd s = 0;
      for (int64_t k = i + 1; k < j; ++k) s += R[k * n + i] * R[j * n + k];
      cd den = R[i * n + i] + R[j * n + j];
      R[j * n + i] = den == 0.0 ? (T(i, j) - s == 0.0 ? 0.0 : cd(INFINITY)) : (T(i, j) - s) / den;
    }
  }
  if (singular)
    mathutil::call1(ctx, "warning", {Value::from_chars("MATLAB:sqrtm:SingularMatrix"),
                                     Value::from_chars("Matrix is singular and may not have a square root.")});
  // X = U*R*U'
  std::vector<cd> UR(static_cast<size_t>(n * n), 0.0), X(static_cast<size_t>(n * n), 0.0);
  for (int64_t j = 0; j < n; ++j)
    for (int64_t k = 0; k <= j; ++k)
      for (int64_t i = 0; i < n; ++i) UR[j * n + i] += U[k * n + i] * R[j * n + k];
  for (int64_t j = 0; j < n; ++j)
    for (int64_t k = 0; k < n; ++k)
      for (int64_t i = 0; i < n; ++i) X[j * n + i] += UR[k * n + i] * std::conj(U[k * n + j]);
  // A real matrix with a real root: drop the rounding-level imaginary parts.
  if (real_in) {
    double im = 0, re = 0;
    for (const cd& z : X) {
      im = std::max(im, std::abs(z.imag()));
      re = std::max(re, std::abs(z));
    }
    if (im <= 10 * n * 2.220446049250313e-16 * std::max(re, 1.0))
      for (cd& z : X) z = z.real();
  }
  Outputs out{Value(complex_tensor(X, n, n, false))};
  if (nargout > 1) {
    double num = 0, den = 0;
    for (int64_t j = 0; j < n; ++j)
      for (int64_t i = 0; i < n; ++i) {
        cd s = 0;
        for (int64_t k = 0; k < n; ++k) s += X[k * n + i] * X[j * n + k];
        num += std::norm(s - A0[j * n + i]);
        den += std::norm(A0[j * n + i]);
      }
    out.push_back(Value(den == 0 ? 0.0 : std::sqrt(num / den)));
  }
  return out;
}

/// T = schur(A) | [U, T] = schur(A) | schur(A, 'real') | schur(A, 'complex'): the Schur form
/// A = U*T*U' with U unitary: for real A (default 'real') T is quasi-triangular with 2x2
/// blocks for complex pairs; 'complex' (or complex A) gives a triangular T.
Outputs bi_schur(CallContext&, Args args, int nargout) {
  check_nargin(args, 1, 2);
  check_nargout(nargout, 2);
  std::string mode = args.size() > 1 ? lower_s(args[1].to_text("flag")) : "real";
  if (mode != "real" && mode != "complex")
    throw_error("MATLAB:schur:InvalidFlag", "Second input must be 'real' or 'complex'.");
  Tensor t = float_arg(args[0], "schur", true);
  if (t.dims().ndims() != 2 || t.dims()[0] != t.dims()[1])
    throw_error("MATLAB:square", "Matrix must be square.");
  const int64_t n = t.dims()[0];
  const int ni = static_cast<int>(n);
  if (!t.is_complex() && mode == "real") {
    std::vector<double> a(static_cast<size_t>(n * n)), U(static_cast<size_t>(n * n)),
        wr(static_cast<size_t>(n)), wi(static_cast<size_t>(n));
    for (int64_t i = 0; i < n * n; ++i) a[i] = t.get_double(i);
    lapack_int sdim = 0;
    if (n > 0 && LAPACKE_dgees(LAPACK_COL_MAJOR, 'V', 'N', nullptr, ni, a.data(), ni, &sdim,
                               wr.data(), wi.data(), U.data(), ni) != 0)
      throw_error("MATLAB:schur:SchurFailed", "The Schur decomposition did not converge.");
    Tensor T = Tensor::uninit(ClassId::Double, Dims(n, n)), Ut = Tensor::uninit(ClassId::Double, Dims(n, n));
    for (int64_t i = 0; i < n * n; ++i) {
      T.set_double(i, a[i]);
      Ut.set_double(i, U[i]);
    }
    if (nargout < 2) return {Value(T)};
    return {Value(Ut), Value(T)};
  }
  std::vector<cd> a(static_cast<size_t>(n * n)), U;
  for (int64_t i = 0; i < n * n; ++i) a[i] = t.get_complex(i);
  if (n > 0 && !complex_schur(a, n, U))
    throw_error("MATLAB:schur:SchurFailed", "The Schur decomposition did not converge.");
  Tensor T = complex_tensor(a, n, n, true), Ut = complex_tensor(U, n, n, true);
  if (nargout < 2) return {Value(T)};
  return {Value(Ut), Value(T)};
}

/// H = hess(A) | [P, H] = hess(A): the upper Hessenberg form A = P*H*P' with P unitary.
Outputs bi_hess(CallContext&, Args args, int nargout) {
  check_nargin(args, 1, 1);
  check_nargout(nargout, 2);
  Tensor t = float_arg(args[0], "hess", true);
  if (t.dims().ndims() != 2 || t.dims()[0] != t.dims()[1])
    throw_error("MATLAB:square", "Matrix must be square.");
  const int64_t n = t.dims()[0];
  const int ni = static_cast<int>(std::max<int64_t>(n, 1));
  Tensor H, P;
  if (!t.is_complex()) {
    std::vector<double> a(static_cast<size_t>(n * n)), tau(static_cast<size_t>(std::max<int64_t>(n - 1, 1)));
    for (int64_t i = 0; i < n * n; ++i) a[i] = t.get_double(i);
    if (n > 0) LAPACKE_dgehrd(LAPACK_COL_MAJOR, static_cast<int>(n), 1, static_cast<int>(n), a.data(), ni, tau.data());
    H = Tensor::uninit(ClassId::Double, Dims(n, n));
    for (int64_t j = 0; j < n; ++j)
      for (int64_t i = 0; i < n; ++i) H.set_double(j * n + i, i > j + 1 ? 0.0 : a[j * n + i]);
    if (nargout > 1) {
      if (n > 0) LAPACKE_dorghr(LAPACK_COL_MAJOR, static_cast<int>(n), 1, static_cast<int>(n), a.data(), ni, tau.data());
      P = Tensor::uninit(ClassId::Double, Dims(n, n));
      for (int64_t i = 0; i < n * n; ++i) P.set_double(i, a[i]);
    }
  } else {
    std::vector<cd> a(static_cast<size_t>(n * n)), tau(static_cast<size_t>(std::max<int64_t>(n - 1, 1)));
    for (int64_t i = 0; i < n * n; ++i) a[i] = t.get_complex(i);
    if (n > 0) LAPACKE_zgehrd(LAPACK_COL_MAJOR, static_cast<int>(n), 1, static_cast<int>(n), a.data(), ni, tau.data());
    H = Tensor::uninit(ClassId::Double, Dims(n, n), true);
    for (int64_t j = 0; j < n; ++j)
      for (int64_t i = 0; i < n; ++i) H.set_complex(j * n + i, i > j + 1 ? cd(0) : a[j * n + i]);
    if (nargout > 1) {
      if (n > 0) LAPACKE_zunghr(LAPACK_COL_MAJOR, static_cast<int>(n), 1, static_cast<int>(n), a.data(), ni, tau.data());
      P = complex_tensor(a, n, n, true);
    }
  }
  if (nargout < 2) return {Value(H)};
  return {Value(P), Value(H)};
}

/// c = poly(r): the coefficients (highest power first) of the polynomial with roots r (a
/// vector), or the characteristic polynomial of a square matrix (its eigenvalues); real when
/// the roots come in conjugate pairs. Errors: MATLAB:poly:InputSize for non-square matrices.
Outputs bi_poly(CallContext& ctx, Args args, int nargout) {
  check_nargin(args, 1, 1);
  check_nargout(nargout, 1);
  Tensor x = float_arg(args[0], "poly", true);
  const Dims& d = x.dims();
  std::vector<cd> r;
  if (x.is_empty()) return {Value(1.0)};
  if (d.ndims() == 2 && d[0] == d[1] && d[0] > 1) {
    Tensor e = call1(ctx, "eig", {Value(x)}).tensor();
    for (int64_t i = 0; i < e.numel(); ++i) r.push_back(e.get_complex(i));
  } else if (d.is_vector()) {
    for (int64_t i = 0; i < x.numel(); ++i) r.push_back(x.get_complex(i));
  } else {
    throw_error("MATLAB:poly:InputSize", "Argument must be a vector or a square matrix.");
  }
  std::vector<cd> c{1.0};
  for (const cd& z : r) {
    c.push_back(0.0);
    for (size_t k = c.size() - 1; k >= 1; --k) c[k] -= z * c[k - 1];
  }
  // Real coefficients when the roots are closed under conjugation.
  std::vector<cd> pos, neg;
  for (const cd& z : r) {
    if (z.imag() > 0) pos.push_back(z);
    else if (z.imag() < 0) neg.push_back(std::conj(z));
  }
  auto key = [](const cd& a, const cd& b) {
    return a.real() != b.real() ? a.real() < b.real() : a.imag() < b.imag();
  };
  std::sort(pos.begin(), pos.end(), key);
  std::sort(neg.begin(), neg.end(), key);
  bool real_out = pos == neg;
  Tensor out = Tensor::uninit(ClassId::Double, Dims(1, static_cast<int64_t>(c.size())), !real_out);
  for (size_t k = 0; k < c.size(); ++k) {
    if (real_out) out.set_double(static_cast<int64_t>(k), c[k].real());
    else out.set_complex(static_cast<int64_t>(k), c[k]);
  }
  if (x.cls() == ClassId::Single) out = out.to_class(ClassId::Single);
  return {Value(out)};
}

/// [lower, upper] = bandwidth(A) | bandwidth(A, 'lower') | bandwidth(A, 'upper'): the number
/// of nonzero diagonals below and above the main diagonal of a 2-D numeric matrix.
Outputs bi_bandwidth(CallContext&, Args args, int nargout) {
  check_nargin(args, 1, 2);
  check_nargout(nargout, 2);
  if (!args[0].is_tensor() || args[0].is_char() || args[0].dims().ndims() != 2)
    throw_error("MATLAB:bandwidth:inputMustBe2D", "First input must be a 2-D numeric or "
                "logical matrix.");
  Tensor t = args[0].tensor();
  int64_t m = t.dims()[0], n = t.dims()[1], lo = 0, up = 0;
  for (int64_t j = 0; j < n; ++j)
    for (int64_t i = 0; i < m; ++i)
      if (t.get_complex(j * m + i) != cd(0)) {
        lo = std::max(lo, i - j);
        up = std::max(up, j - i);
      }
  if (args.size() > 1) {
    std::string k = lower_s(args[1].to_text("type"));
    if (k == "lower") return {Value(static_cast<double>(lo))};
    if (k == "upper") return {Value(static_cast<double>(up))};
    throw_error("MATLAB:bandwidth:invalidType", "Second input must be 'lower' or 'upper'.");
  }
  return {Value(static_cast<double>(lo)), Value(static_cast<double>(up))};
}

/// nrm = normest(S) | normest(S, tol) | [nrm, count] = normest(___): an estimate of the
/// 2-norm by power iteration on S'*S to relative change tol (default 1e-6); count: the
/// iterations. Warning MATLAB:normest:notconverge after 100 iterations.
Outputs bi_normest(CallContext& ctx, Args args, int nargout) {
  check_nargin(args, 1, 2);
  check_nargout(nargout, 2);
  if (!args[0].is_tensor() || args[0].is_char() || args[0].is_logical() ||
      args[0].dims().ndims() > 2)
    throw_error("MATLAB:normest:InvalidInput", "A must be a numeric 2-D matrix.");
  double tol = 1e-6;
  if (args.size() > 1) {
    const Value& tv = args[1];
    if (!tv.is_tensor() || tv.is_char() || tv.numel() != 1 || tv.tensor().is_complex())
      throw_error("MATLAB:normest:InvalidTol", "TOL must be a real scalar.");
    tol = tv.tensor().get_double(0);
  }
  Value S = Value(float_arg(args[0], "normest", true));
  Value x = call1(ctx, "transpose", {call1(ctx, "sum", {call1(ctx, "abs", {S}), Value(1.0)})});
  double cnt = 0;
  double e = call1(ctx, "norm", {x}).to_double("norm");
  if (e == 0) return {Value(0.0), Value(0.0)};
  x = call1(ctx, "rdivide", {x, Value(e)});
  double e0 = 0;
  while (std::abs(e - e0) > tol * e) {
    e0 = e;
    Value Sx = call1(ctx, "mtimes", {S, x});
    double nSx = call1(ctx, "norm", {Sx}).to_double("norm");
    if (nSx == 0) {
      Sx = call1(ctx, "rand", {Value(static_cast<double>(Sx.numel())), Value(1.0)});
      nSx = call1(ctx, "norm", {Sx}).to_double("norm");
    }
    x = call1(ctx, "mtimes", {call1(ctx, "ctranspose", {S}), Sx});
    double nx = call1(ctx, "norm", {x}).to_double("norm");
    e = nx / nSx;
    x = call1(ctx, "rdivide", {x, Value(nx)});
    if (++cnt > 100) {
      call1(ctx, "warning", {Value::from_chars("MATLAB:normest:notconverge"),
                             Value::from_chars("NORMEST did not converge for 100 iterations "
                                               "with tolerance %g"),
                             Value(tol)});
      break;
    }
  }
  return {Value(e), Value(cnt)};
}

// ---------------------------------------------------------------------------------------------
// Data helpers

/// y = nanmean(X) | nanmean(X, dim): mean ignoring NaN values (mean(X, dim, 'omitnan')).
Outputs bi_nanmean(CallContext& ctx, Args args, int nargout) {
  check_nargin(args, 1, 2);
  check_nargout(nargout, 1);
  std::vector<Value> a(args.begin(), args.end());
  a.push_back(Value::from_chars("omitnan"));
  return {ctx.call_named("mean", Args(a.data(), a.size()), 1)[0]};
}
/// y = nansum(X) | nansum(X, dim): sum ignoring NaN values.
Outputs bi_nansum(CallContext& ctx, Args args, int nargout) {
  check_nargin(args, 1, 2);
  check_nargout(nargout, 1);
  std::vector<Value> a(args.begin(), args.end());
  a.push_back(Value::from_chars("omitnan"));
  return {ctx.call_named("sum", Args(a.data(), a.size()), 1)[0]};
}
/// [M, I] = nanmax(A) | nanmax(A, [], dim) | nanmax(A, B): max ignoring NaN values.
Outputs bi_nanmax(CallContext& ctx, Args args, int nargout) {
  check_nargin(args, 1, 3);
  check_nargout(nargout, 2);
  std::vector<Value> a(args.begin(), args.end());
  if (a.size() == 1) a.push_back(Value());  // the reduction form max(A, [], 'omitnan')
  a.push_back(Value::from_chars("omitnan"));
  return ctx.call_named("max", Args(a.data(), a.size()), std::max(nargout, 1));
}
/// [M, I] = nanmin(A) | nanmin(A, [], dim) | nanmin(A, B): min ignoring NaN values.
Outputs bi_nanmin(CallContext& ctx, Args args, int nargout) {
  check_nargin(args, 1, 3);
  check_nargout(nargout, 2);
  std::vector<Value> a(args.begin(), args.end());
  if (a.size() == 1) a.push_back(Value());  // the reduction form min(A, [], 'omitnan')
  a.push_back(Value::from_chars("omitnan"));
  return ctx.call_named("min", Args(a.data(), a.size()), std::max(nargout, 1));
}

/// Y = discretize(X, edges) | discretize(X, edges, values) | discretize(___, 'IncludedEdge',
/// side): the bin of each element of X: bin k holds edges(k) <= x < edges(k+1) ('left', the
/// default; the last bin also holds edges(end)) or edges(k) < x <= edges(k+1) ('right'; the
/// first bin also holds edges(1)); NaN outside the edges. values: the value returned per bin.
/// Errors: MATLAB:discretize:EdgesNotIncreasing, MATLAB:discretize:ValuesWrongSize.
Outputs bi_discretize(CallContext&, Args args, int nargout) {
  check_nargin(args, 2, 5);
  check_nargout(nargout, 1);
  Tensor x = float_arg(args[0], "discretize");
  Tensor e = float_arg(args[1], "discretize");
  std::vector<double> edges;
  if (e.numel() == 1) {
    throw_error("matfuse:notSupported", "discretize: a number of bins is not supported yet; "
                "give the bin edges.");
  }
  for (int64_t i = 0; i < e.numel(); ++i) edges.push_back(e.get_double(i));
  if (edges.size() < 2)  // [] (front() of no edges was read below)
    throw_error("MATLAB:discretize:InvalidEdges",
                "Bin edges must be a vector with at least two elements.");  // unverified
  for (size_t i = 1; i < edges.size(); ++i)
    if (!(edges[i] > edges[i - 1]))
      throw_error("MATLAB:discretize:EdgesNotIncreasing",
                  "Bin edges must be a vector that is real, numeric or logical, and "
                  "monotonically increasing.");
  bool right = false;
  std::vector<double> values;
  bool have_values = false;
  size_t i = 2;
  if (args.size() > 2 && !args[2].is_text()) {
    Tensor v = float_arg(args[2], "discretize");
    if (v.numel() != static_cast<int64_t>(edges.size()) - 1)
      throw_error("MATLAB:discretize:ValuesWrongSize",
                  "VALUES must have one fewer element than the bin edges.");
    for (int64_t k = 0; k < v.numel(); ++k) values.push_back(v.get_double(k));
    have_values = true;
    i = 3;
  }
  for (; i < args.size(); i += 2) {
    if (!args[i].is_text() || lower_s(args[i].to_text()) != "includededge" || i + 1 >= args.size())
      throw_error("MATLAB:discretize:InvalidOption", "Invalid option. Expected 'IncludedEdge'.");
    std::string s = lower_s(args[i + 1].to_text("IncludedEdge"));
    if (s != "left" && s != "right")
      throw_error("MATLAB:discretize:InvalidIncludedEdge",
                  "'IncludedEdge' value must be 'left' or 'right'.");
    right = s == "right";
  }
  Tensor r = Tensor::uninit(ClassId::Double, x.dims());
  const size_t nb = edges.size() - 1;
  for (int64_t q = 0; q < x.numel(); ++q) {
    double v = x.get_double(q);
    double bin = std::nan("");
    if (!std::isnan(v) && nb > 0 && v >= edges.front() && v <= edges.back()) {
      size_t k;
      if (!right) {
        k = static_cast<size_t>(std::upper_bound(edges.begin(), edges.end(), v) - edges.begin());
        if (k > nb) k = nb;  // v == last edge
      } else {
        k = static_cast<size_t>(std::lower_bound(edges.begin(), edges.end(), v) - edges.begin());
        if (k == 0) k = 1;  // v == first edge
      }
      bin = have_values ? values[k - 1] : static_cast<double>(k);
    }
    r.set_double(q, bin);
  }
  return {Value(r)};
}

/// y = detrend(x) | detrend(x, n) | detrend(x, 'constant'/'linear'): x minus its least-squares
/// polynomial fit of degree n (default 1, 'constant' 0) along the columns (a row vector is
/// treated as one column).
Outputs bi_detrend(CallContext& ctx, Args args, int nargout) {
  check_nargin(args, 1, 2);
  check_nargout(nargout, 1);
  if (args[0].is_char() || args[0].is_logical())
    throw_error("MATLAB:detrend:InvalidInput", "X must be a numeric (double or single) array.");
  Tensor x = float_arg(args[0], "detrend", true);
  int deg = 1;
  if (args.size() > 1) {
    if (args[1].is_text()) {
      std::string s = lower_s(args[1].to_text());
      if (s == "constant") deg = 0;
      else if (s == "linear") deg = 1;
      else
        throw_error("MATLAB:detrend:InvalidTrendType", "Trend type must be 'constant', "
                    "'linear', or a nonnegative integer.");
    } else {
      double d = args[1].to_double("n");
      if (!(d >= 0 && d == std::floor(d)))
        throw_error("MATLAB:detrend:InvalidTrendType", "Trend type must be 'constant', "
                    "'linear', or a nonnegative integer.");
      deg = static_cast<int>(d);
    }
  }
  bool row = x.dims().is_row() && x.numel() > 1;
  Value X = row ? call1(ctx, "transpose", {Value(x)}) : Value(x);
  int64_t m = X.dims()[0];
  if (m == 0) return {args[0]};
  // Vandermonde of t = (0:m-1)'/(m-1) scaled to [0, 1] for conditioning.
  Tensor V = Tensor::uninit(ClassId::Double, Dims(m, deg + 1));
  for (int64_t i = 0; i < m; ++i) {
    double t = m > 1 ? static_cast<double>(i) / static_cast<double>(m - 1) : 0.0;
    double p = 1;
    for (int k = deg; k >= 0; --k) {
      V.set_double(static_cast<int64_t>(k) * m + i, p);
      p *= t;
    }
  }
  Value coef = call1(ctx, "mldivide", {Value(V), X});
  Value y = call1(ctx, "minus", {X, call1(ctx, "mtimes", {Value(V), coef})});
  if (row) y = call1(ctx, "transpose", {y});
  return {y};
}

/// Outlier mask of isoutlier's methods along one lane.
void outlier_lane(const std::vector<double>& v, const std::string& method, double thr,
                  std::vector<bool>& out, double& lo, double& hi, double& center) {
  std::vector<double> f;
  for (double a : v)
    if (!std::isnan(a)) f.push_back(a);
  auto median = [](std::vector<double> s) {
    if (s.empty()) return std::nan("");
    std::sort(s.begin(), s.end());
    size_t n = s.size();
    return n % 2 ? s[n / 2] : 0.5 * (s[n / 2 - 1] + s[n / 2]);
  };
  if (method == "median") {
    double med = median(f);
    std::vector<double> dev;
    for (double a : f) dev.push_back(std::abs(a - med));
    double mad = 1.482602218505602 * median(dev);
    lo = med - thr * mad;
    hi = med + thr * mad;
    center = med;
  } else if (method == "mean") {
    double mu = 0;
    for (double a : f) mu += a;
    mu /= static_cast<double>(f.size());
    double s = 0;
    for (double a : f) s += (a - mu) * (a - mu);
    s = f.size() > 1 ? std::sqrt(s / static_cast<double>(f.size() - 1)) : 0;
    lo = mu - thr * s;
    hi = mu + thr * s;
    center = mu;
  } else {  // quartiles (MATLAB's prctile method on the sorted data)
    std::vector<double> s = f;
    std::sort(s.begin(), s.end());
    auto pct = [&](double p) {
      size_t n = s.size();
      if (n == 0) return std::nan("");
      double pos = p / 100 * static_cast<double>(n) + 0.5;
      if (pos < 1) return s.front();
      if (pos >= static_cast<double>(n)) return s.back();
      size_t k = static_cast<size_t>(std::floor(pos));
      double fr = pos - static_cast<double>(k);
      return s[k - 1] + fr * (s[k] - s[k - 1]);
    };
    double q1 = pct(25), q3 = pct(75), iqr = q3 - q1;
    lo = q1 - thr * iqr;
    hi = q3 + thr * iqr;
    center = median(f);
  }
  out.assign(v.size(), false);
  for (size_t i = 0; i < v.size(); ++i) out[i] = !std::isnan(v[i]) && (v[i] < lo || v[i] > hi);
}

/// [TF, L, U, C] = isoutlier(A) | isoutlier(A, method) | isoutlier(___, dim) |
/// isoutlier(___, 'ThresholdFactor', t): outliers of each column (dim 1) or row (dim 2);
/// methods 'median' (default: more than t = 3 scaled MADs from the median), 'mean' (t = 3
/// standard deviations), 'quartiles' (t = 1.5 interquartile ranges outside the quartiles).
/// L, U, C: the thresholds and centre per lane.
Outputs bi_isoutlier(CallContext&, Args args, int nargout) {
  check_nargin(args, 1, 6);
  check_nargout(nargout, 4);
  Tensor x = float_arg(args[0], "isoutlier");
  std::string method = "median";
  double thr = -1;
  int dim = -1;
  for (size_t i = 1; i < args.size(); ++i) {
    if (args[i].is_text()) {
      std::string s = lower_s(args[i].to_text());
      if (s == "median" || s == "mean" || s == "quartiles") {
        method = s;
      } else if (s == "thresholdfactor" && i + 1 < args.size()) {
        thr = args[++i].to_double("ThresholdFactor");
        if (!(thr >= 0))
          throw_error("MATLAB:isoutlier:ThresholdFactor", "'ThresholdFactor' must be a "
                      "nonnegative scalar.");
      } else {
        throw_error("MATLAB:isoutlier:MethodInvalid", "Invalid method or option '%s'.",
                    args[i].to_text().c_str());
      }
    } else {
      dim = mathutil::dim_arg(args[i]);
    }
  }
  if (thr < 0) thr = method == "quartiles" ? 1.5 : 3;
  if (dim < 0) dim = mathutil::first_nonsingleton(x.dims());
  Dims d = x.dims();
  int64_t n = d[dim], pre = 1, post = 1;
  for (int k = 0; k < dim; ++k) pre *= d[k];
  for (int k = dim + 1; k < d.ndims(); ++k) post *= d[k];
  Dims rd = d;
  rd.set(dim, 1);
  rd.normalize();
  Tensor tf = Tensor::uninit(ClassId::Logical, d);
  Tensor L = Tensor::uninit(ClassId::Double, rd), U = Tensor::uninit(ClassId::Double, rd),
         C = Tensor::uninit(ClassId::Double, rd);
  std::vector<double> lane(static_cast<size_t>(n));
  std::vector<bool> mask;
  for (int64_t b = 0; b < post; ++b)
    for (int64_t i = 0; i < pre; ++i) {
      for (int64_t k = 0; k < n; ++k) lane[k] = x.get_double((b * n + k) * pre + i);
      double lo, hi, c;
      outlier_lane(lane, method, thr, mask, lo, hi, c);
      for (int64_t k = 0; k < n; ++k) tf.mutable_data<bool>()[(b * n + k) * pre + i] = mask[k];
      if (rd.numel() > 0) {
        L.set_double(b * pre + i, lo);
        U.set_double(b * pre + i, hi);
        C.set_double(b * pre + i, c);
      }
    }
  return {Value(tf), Value(L), Value(U), Value(C)};
}

/// [B, TF] = rmoutliers(A) | rmoutliers(A, method) | rmoutliers(___, dim) |
/// rmoutliers(___, 'ThresholdFactor', t): A without its outliers (isoutlier): the elements of a
/// vector, or the rows (dim 1, default) or columns (dim 2) of a matrix that hold one.
Outputs bi_rmoutliers(CallContext& ctx, Args args, int nargout) {
  check_nargin(args, 1, 6);
  check_nargout(nargout, 2);
  const Value& a = args[0];
  Dims d = a.dims();
  if (d.ndims() > 2)
    throw_error("MATLAB:rmoutliers:NDArrays", "Input array must be a vector or a matrix.");
  // The lanes run along the other dimension than the one removed from.
  std::vector<Value> in(args.begin(), args.end());
  int rmdim = 1;
  for (size_t i = 1; i < in.size(); ++i)
    if (!in[i].is_text() && (i == 1 || !in[i - 1].is_text() ||
                             lower_s(in[i - 1].to_text()) != "thresholdfactor")) {
      // A positive integer (NaN or 1e12 would be undefined to cast to int).
      const double dv = in[i].to_double("dim");
      if (!(dv >= 1 && dv < 2147483647.0) || dv != std::floor(dv))
        throw_error("MATLAB:getdimarg:dimensionMustBePositiveInteger",
                    "Dimension argument must be a positive integer scalar within indexing "
                    "range.");
      rmdim = static_cast<int>(dv);
      in.erase(in.begin() + static_cast<long>(i));
      break;
    }
  bool vec = d.is_vector();
  if (vec) rmdim = d[0] == 1 ? 2 : 1;
  in.push_back(Value(static_cast<double>(rmdim)));
  Tensor tf = ctx.call_named("isoutlier", Args(in.data(), in.size()), 1)[0].tensor();
  const int64_t rows = d[0], cols = d[1];
  int64_t nl = rmdim == 1 ? rows : cols;
  Tensor rm = Tensor::uninit(ClassId::Logical, rmdim == 1 ? Dims(nl, 1) : Dims(1, nl));
  std::vector<double> keep;
  for (int64_t k = 0; k < nl; ++k) {
    bool any = false;
    for (int64_t q = 0; q < (rmdim == 1 ? cols : rows) && !any; ++q)
      any = tf.data<bool>()[rmdim == 1 ? q * rows + k : k * rows + q];
    rm.mutable_data<bool>()[k] = any;
    if (!any) keep.push_back(static_cast<double>(k + 1));
  }
  Tensor kt = Tensor::uninit(ClassId::Double, Dims(1, static_cast<int64_t>(keep.size())));
  for (size_t k = 0; k < keep.size(); ++k) kt.set_double(static_cast<int64_t>(k), keep[k]);
  Value colon = Value::from_chars(":");
  Value b = rmdim == 1 ? subsref_paren(ctx, a, {Value(kt), colon})
                       : subsref_paren(ctx, a, {colon, Value(kt)});
  return {b, Value(rm)};
}

/// [B, I] = topkrows(X, k) | topkrows(X, k, col) | topkrows(X, k, col, direction): the first
/// k rows of X sorted in descending (default) or 'ascend' order by the columns col (default
/// all, in order); I: their row indices in X.
Outputs bi_topkrows(CallContext& ctx, Args args, int nargout) {
  check_nargin(args, 2, 4);
  check_nargout(nargout, 2);
  const Value& X = args[0];
  if (X.dims().ndims() != 2)
    throw_error("MATLAB:topkrows:InvalidInput", "First argument must be a 2-D matrix.");
  double k = args[1].to_double("k");
  if (!(k >= 0 && k == std::floor(k)))
    throw_error("MATLAB:topkrows:InvalidK", "Second argument must be a nonnegative integer "
                "scalar.");
  int64_t n = X.dims()[1];
  std::vector<double> cols;
  if (args.size() > 2) {
    Tensor c = float_arg(args[2], "topkrows");
    for (int64_t i = 0; i < c.numel(); ++i) cols.push_back(c.get_double(i));
  } else {
    for (int64_t i = 1; i <= n; ++i) cols.push_back(static_cast<double>(i));
  }
  bool ascend = false;
  if (args.size() > 3) {
    std::string dir = lower_s(args[3].to_text("direction"));
    if (dir != "ascend" && dir != "descend")
      throw_error("MATLAB:topkrows:InvalidDirection", "Sorting direction must be 'ascend' or "
                  "'descend'.");
    ascend = dir == "ascend";
  }
  Tensor spec = Tensor::uninit(ClassId::Double, Dims(1, static_cast<int64_t>(cols.size())));
  for (size_t i = 0; i < cols.size(); ++i) spec.set_double(static_cast<int64_t>(i), ascend ? cols[i] : -cols[i]);
  Value in[2] = {X, Value(spec)};
  Outputs s = ctx.call_named("sortrows", Args(in, 2), 2);
  int64_t m = X.dims()[0];
  // Compared in double: k may be Inf or beyond int64 (undefined to convert).
  int64_t kk = k < static_cast<double>(m) ? static_cast<int64_t>(k) : m;
  Tensor idx = Tensor::uninit(ClassId::Double, Dims(1, kk));
  for (int64_t i = 0; i < kk; ++i) idx.set_double(i, static_cast<double>(i + 1));
  Value colon = Value::from_chars(":");
  Value B = subsref_paren(ctx, s[0], {Value(idx), colon});
  Value I = subsref_paren(ctx, s[1], {Value(idx)});
  return {B, I};
}

// ---------------------------------------------------------------------------------------------
// Display and input

/// celldisp(C) | celldisp(C, name): displays every element of a cell array as "name{i} = ..."
/// (name{i,j} for matrices), recursing into nested cells.
void celldisp_rec(CallContext& ctx, const Value& c, const std::string& name) {
  const CellArray& ca = c.cell();
  const Dims& d = ca.dims();
  for (int64_t i = 0; i < ca.numel(); ++i) {
    std::string label;
    if (d.is_vector()) {
      label = name + "{" + std::to_string(i + 1) + "}";
    } else {
      label = name + "{";
      int64_t r = i;
      for (int k = 0; k < d.ndims(); ++k) {
        label += (k ? "," : "") + std::to_string(r % d[k] + 1);
        r /= d[k];
      }
      label += "}";
    }
    if (ca[i].is_cell()) celldisp_rec(ctx, ca[i], label);
    else ctx.display(ca[i], label);
  }
}

Outputs bi_celldisp(CallContext& ctx, Args args, int nargout) {
  check_nargin(args, 1, 2);
  check_nargout(nargout, 0);
  if (!args[0].is_cell())
    throw_error("MATLAB:celldisp:notCellArray", "Must be a cell array.");
  std::string name = args.size() > 1 ? args[1].to_text("name") : std::string("C");
  celldisp_rec(ctx, args[0], name);
  return {};
}

/// x = input(prompt) | str = input(prompt, 's'): prints prompt and reads one line from the
/// standard input; without 's' the line is evaluated as an expression (an empty line gives
/// []). Errors: MATLAB:input:endOfFile... when the input has ended.
Outputs bi_input(CallContext& ctx, Args args, int nargout) {
  check_nargin(args, 1, 2);
  check_nargout(nargout, 1);
  std::string prompt = args[0].to_text("prompt");
  bool as_text = false;
  if (args.size() > 1) {
    if (args[1].to_text("option") != "s")
      throw_error("MATLAB:input:InvalidOption", "The second argument to INPUT must be 's'.");
    as_text = true;
  }
  std::ostream& os = *ctx.session().out;
  os << prompt;
  os.flush();
  std::string line;
  if (!std::getline(std::cin, line))
    throw_error("MATLAB:input:EndOfInput", "Input ended before a value was given.");
  if (!line.empty() && line.back() == '\r') line.pop_back();
  if (as_text) return {Value::from_chars(line)};
  bool blank = line.find_first_not_of(" \t") == std::string::npos;
  if (blank) return {Value()};
  Outputs r = ctx.eval_text(line, 1);
  if (r.empty()) return {Value()};
  return {r[0]};
}

// ---------------------------------------------------------------------------------------------
// Folders

std::string text_arg(const Value& v, const char* what) { return v.to_text(what); }

/// oldFolder = cd | cd(newFolder): the current folder, changing it first when newFolder is
/// given ('..' and relative paths allowed). Errors: MATLAB:cd:NonExistentFolder.
Outputs bi_cd(CallContext& ctx, Args args, int nargout) {
  check_nargin(args, 0, 1);
  check_nargout(nargout, 1);
  std::error_code ec;
  std::string old = fs::current_path(ec).string();
  if (args.empty()) {
    if (nargout == 0) {
      *ctx.session().out << old << "\n";
      return {};
    }
    return {Value::from_chars(old)};
  }
  std::string p = text_arg(args[0], "folder");
  if (!p.empty() && p[0] == '~') {
    const char* home = std::getenv("HOME");
    if (home) p = std::string(home) + p.substr(1);
  }
  fs::current_path(p, ec);
  if (ec)
    throw_error("MATLAB:cd:NonExistentFolder", "Unable to change current folder to '%s' (Name "
                "is nonexistent or not a folder).", p.c_str());
  if (nargout > 0) return {Value::from_chars(old)};
  return {};
}

/// Status outputs [status, msg, msgID] of the file commands (an error when nargout == 0).
Outputs file_status(int nargout, bool ok, const std::string& id, const std::string& msg) {
  if (!ok && nargout == 0) throw_error(id.c_str(), "%s", msg.c_str());
  Outputs out{Value::logical(ok)};
  if (nargout > 1) out.push_back(Value::from_chars(ok ? "" : msg));
  if (nargout > 2) out.push_back(Value::from_chars(ok ? "" : id));
  if (nargout == 0) return {};
  return out;
}

/// rmdir(folder) | rmdir(folder, 's') | [status, msg, msgID] = rmdir(___): removes an empty
/// folder, or with 's' the folder and everything in it.
Outputs bi_rmdir(CallContext&, Args args, int nargout) {
  check_nargin(args, 1, 2);
  check_nargout(nargout, 3);
  std::string p = text_arg(args[0], "folder");
  bool recursive = args.size() > 1 && text_arg(args[1], "option") == "s";
  std::error_code ec;
  if (!fs::is_directory(p, ec))
    return file_status(nargout, false, "MATLAB:RMDIR:NotADirectory",
                       p + " is not a directory or does not exist.");
  bool ok = recursive ? fs::remove_all(p, ec) > 0 && !ec : fs::remove(p, ec);
  if (!ok)
    return file_status(nargout, false, "MATLAB:RMDIR:NoDirectoriesRemoved",
                       "No directories were removed.");
  return file_status(nargout, true, "", "");
}

/// copyfile(source, destination) | [status, msg, msgID] = copyfile(___): copies a file or a
/// folder (recursively) to destination (a folder receives the source under its name).
Outputs bi_copyfile(CallContext&, Args args, int nargout) {
  check_nargin(args, 1, 3);
  check_nargout(nargout, 3);
  std::string src = text_arg(args[0], "source");
  std::string dst = args.size() > 1 ? text_arg(args[1], "destination") : std::string(".");
  std::error_code ec;
  if (!fs::exists(src, ec))
    return file_status(nargout, false, "MATLAB:COPYFILE:FileDoesNotExist",
                       "No matching files were found.");
  fs::path to = dst;
  if (fs::is_directory(to, ec) && !fs::is_directory(src, ec)) to /= fs::path(src).filename();
  fs::copy(src, to, fs::copy_options::recursive | fs::copy_options::overwrite_existing, ec);
  if (ec)
    return file_status(nargout, false, "MATLAB:COPYFILE:OSError", ec.message());
  return file_status(nargout, true, "", "");
}

/// movefile(source, destination) | [status, msg, msgID] = movefile(___): moves or renames a
/// file or folder (into destination when it is an existing folder).
Outputs bi_movefile(CallContext&, Args args, int nargout) {
  check_nargin(args, 1, 3);
  check_nargout(nargout, 3);
  std::string src = text_arg(args[0], "source");
  std::string dst = args.size() > 1 ? text_arg(args[1], "destination") : std::string(".");
  std::error_code ec;
  if (!fs::exists(src, ec))
    return file_status(nargout, false, "MATLAB:MOVEFILE:FileDoesNotExist",
                       "No matching files were found.");
  fs::path to = dst;
  if (fs::is_directory(to, ec)) to /= fs::path(src).filename();
  fs::rename(src, to, ec);
  if (ec) {
    // Across file systems: copy, then remove.
    std::error_code ec2;
    fs::copy(src, to, fs::copy_options::recursive | fs::copy_options::overwrite_existing, ec2);
    if (!ec2) fs::remove_all(src, ec2);
    if (ec2) return file_status(nargout, false, "MATLAB:MOVEFILE:OSError", ec2.message());
  }
  return file_status(nargout, true, "", "");
}

/// dir | dir(name) | listing = dir(___): the files and folders matching name (a folder, a
/// file, or a pattern with * in its last part). listing: struct array (column) with name,
/// folder, date, bytes, isdir, datenum; without an output the names are printed.
Outputs bi_dir(CallContext& ctx, Args args, int nargout) {
  check_nargin(args, 0, 1);
  check_nargout(nargout, 1);
  std::string name = args.empty() ? std::string(".") : text_arg(args[0], "name");
  std::error_code ec;
  fs::path p = name;
  std::string pattern;
  fs::path folder;
  if (fs::is_directory(p, ec)) {
    folder = p;
  } else if (name.find('*') != std::string::npos) {
    folder = p.parent_path().empty() ? fs::path(".") : p.parent_path();
    pattern = p.filename().string();
  } else {
    folder = p.parent_path().empty() ? fs::path(".") : p.parent_path();
    pattern = p.filename().string();
  }
  auto match = [&](const std::string& s) {
    if (pattern.empty()) return true;
    // Glob with '*' only.
    size_t pi = 0, si = 0, star = std::string::npos, mark = 0;
    while (si < s.size()) {
      if (pi < pattern.size() && (pattern[pi] == s[si] || pattern[pi] == '?')) {
        ++pi;
        ++si;
      } else if (pi < pattern.size() && pattern[pi] == '*') {
        star = pi++;
        mark = si;
      } else if (star != std::string::npos) {
        pi = star + 1;
        si = ++mark;
      } else {
        return false;
      }
    }
    while (pi < pattern.size() && pattern[pi] == '*') ++pi;
    return pi == pattern.size();
  };
  struct Entry {
    std::string name;
    bool isdir;
    double bytes;
    std::time_t mtime;
  };
  std::vector<Entry> es;
  fs::path abs = fs::absolute(folder, ec);
  if (pattern.empty()) {
    es.push_back({".", true, 0, 0});
    es.push_back({"..", true, 0, 0});
  }
  for (auto it = fs::directory_iterator(folder, ec); !ec && it != fs::directory_iterator();
       it.increment(ec)) {
    std::string n = it->path().filename().string();
    if (!match(n)) continue;
    std::error_code e2;
    bool isdir = it->is_directory(e2);
    double bytes = isdir ? 0 : static_cast<double>(it->file_size(e2));
    auto ft = it->last_write_time(e2);
    auto sctp = std::chrono::time_point_cast<std::chrono::system_clock::duration>(
        ft - fs::file_time_type::clock::now() + std::chrono::system_clock::now());
    es.push_back({n, isdir, bytes, std::chrono::system_clock::to_time_t(sctp)});
  }
  std::sort(es.begin(), es.end(), [](const Entry& a, const Entry& b) { return a.name < b.name; });
  if (nargout == 0) {
    std::ostream& os = *ctx.session().out;
    std::string line;
    for (const Entry& e : es) line += e.name + "  ";
    if (!es.empty()) os << "\n" << line << "\n\n";
    return {};
  }
  StructArray s(Dims(static_cast<int64_t>(es.size()), 1));
  int fn = s.add_field("name"), ff = s.add_field("folder"), fd = s.add_field("date"),
      fb = s.add_field("bytes"), fi = s.add_field("isdir"), fdn = s.add_field("datenum");
  for (size_t i = 0; i < es.size(); ++i) {
    const Entry& e = es[i];
    std::time_t t = e.mtime;
    if (t == 0) {
      std::error_code e3;
      auto ft = fs::last_write_time(folder, e3);
      auto sctp = std::chrono::time_point_cast<std::chrono::system_clock::duration>(
          ft - fs::file_time_type::clock::now() + std::chrono::system_clock::now());
      t = std::chrono::system_clock::to_time_t(sctp);
    }
    std::tm tm{};
    localtime_r(&t, &tm);
    char buf[64];
    std::strftime(buf, sizeof buf, "%d-%b-%Y %H:%M:%S", &tm);
    // datenum: days from year 0 (datenum(1970,1,1) = 719529), local time.
    double dn = 719529.0 + (static_cast<double>(t) + static_cast<double>(tm.tm_gmtoff)) / 86400.0;
    int64_t k = static_cast<int64_t>(i);
    s.at(k, fn) = Value::from_chars(e.name);
    s.at(k, ff) = Value::from_chars(abs.lexically_normal().string());
    s.at(k, fd) = Value::from_chars(buf);
    s.at(k, fb) = Value(e.bytes);
    s.at(k, fi) = Value::logical(e.isdir);
    s.at(k, fdn) = Value(dn);
  }
  return {Value(std::move(s))};
}

}  // namespace

void register_extras2(Registry& r) {
  r.add("isletter", bi_isletter);
  r.add("isstrprop", bi_isstrprop);
  r.add("isStringScalar", bi_isStringScalar);
  r.add("convertStringsToChars", bi_convertStringsToChars);
  r.add("convertCharsToStrings", bi_convertCharsToStrings);
  r.add("count", bi_count);
  r.add("splitlines", bi_splitlines);
  r.add("sqrtm", bi_sqrtm);
  r.add("schur", bi_schur);
  r.add("hess", bi_hess);
  r.add("poly", bi_poly);
  r.add("bandwidth", bi_bandwidth);
  r.add("normest", bi_normest);
  r.add("nanmean", bi_nanmean);
  r.add("nansum", bi_nansum);
  r.add("nanmax", bi_nanmax);
  r.add("nanmin", bi_nanmin);
  r.add("discretize", bi_discretize);
  r.add("detrend", bi_detrend);
  r.add("isoutlier", bi_isoutlier);
  r.add("rmoutliers", bi_rmoutliers);
  r.add("topkrows", bi_topkrows);
  r.add("celldisp", bi_celldisp);
  r.add("input", bi_input);
  r.add("cd", bi_cd);
  r.add("rmdir", bi_rmdir);
  r.add("copyfile", bi_copyfile);
  r.add("movefile", bi_movefile);
  r.add("dir", bi_dir);
}

}  // namespace matfuse
