// MATLAB's validation functions (mustBe*): each returns nothing when its condition holds for
// every element of the value and otherwise raises MATLAB:validators:<name> with MATLAB's
// message. They are called directly or from function argument and property validation.
// Numeric conditions need numeric or logical values (MATLAB:validators:mustBeNumericOrLogical
// otherwise); NaN fails every comparison.
#include <cmath>
#include <complex>
#include <cstdio>
#include <string>

#include "builtins/registry.h"
#include "runtime/sparse.h"
#include "runtime/error.h"

namespace matfuse {

namespace {

[[noreturn]] void fail(const char* name, const std::string& msg) {
  throw_error((std::string("MATLAB:validators:") + name).c_str(), "%s", msg.c_str());
}

/// The numeric or logical tensor of v; other kinds raise mustBeNumericOrLogical.
Tensor num_or_logical(const Value& v) {
  if (!v.is_tensor() || v.is_char())
    fail("mustBeNumericOrLogical", "Value must be numeric or logical.");
  return v.tensor();
}

std::string num_text(const Value& v) {
  if (v.is_tensor() && v.numel() == 1 && !v.is_char()) {
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.15g", v.tensor().get_double(0));
    return buf;
  }
  return "the specified value";
}

/// Checks pred on every element (real part; complex values fail unless allow_complex).
template <class P>
void check_all(Args args, size_t nargs, const char* name, const std::string& msg, P pred) {
  check_nargin(args, nargs, nargs);
  Tensor t = num_or_logical(args[0]);
  for (int64_t i = 0; i < t.numel(); ++i) {
    std::complex<double> z = t.get_complex(i);
    if (z.imag() != 0 || !pred(z.real())) fail(name, msg);
  }
}

double bound_arg(const Value& v, const char* name) {
  if (!v.is_tensor() || v.is_char() || v.numel() != 1)
    throw_error((std::string("MATLAB:validators:") + name).c_str(),
                "Second input must be a real numeric scalar.");
  return v.tensor().get_double(0);
}

#define MF_VALIDATOR(NAME, MSG, PRED)                              \
  Outputs bi_##NAME(CallContext&, Args args, int nargout) {        \
    check_nargout(nargout, 0);                                     \
    check_all(args, 1, #NAME, MSG, [](double x) { return PRED; }); \
    return {};                                                     \
  }

/// mustBePositive(A): every element > 0.
MF_VALIDATOR(mustBePositive, "Value must be positive.", x > 0)
/// mustBeNonnegative(A): every element >= 0.
MF_VALIDATOR(mustBeNonnegative, "Value must be nonnegative.", x >= 0)
/// mustBeNegative(A): every element < 0.
MF_VALIDATOR(mustBeNegative, "Value must be negative.", x < 0)
/// mustBeNonpositive(A): every element <= 0.
MF_VALIDATOR(mustBeNonpositive, "Value must be nonpositive.", x <= 0)
/// mustBeFinite(A): no Inf or NaN.
MF_VALIDATOR(mustBeFinite, "Value must be finite.", std::isfinite(x))
/// mustBeNonNan(A): no NaN (char values have none).
Outputs bi_mustBeNonNan(CallContext&, Args args, int nargout) {
  check_nargin(args, 1, 1);
  check_nargout(nargout, 0);
  if (args[0].is_char()) return {};
  check_all(args, 1, "mustBeNonNan", "Value must not be NaN.",
            [](double x) { return !std::isnan(x); });
  return {};
}
/// mustBeInteger(A): every element a (finite) integer value.
MF_VALIDATOR(mustBeInteger, "Value must be integer.", std::isfinite(x) && x == std::floor(x))

/// mustBeNonzero(A): no zero element (complex values allowed).
Outputs bi_mustBeNonzero(CallContext&, Args args, int nargout) {
  check_nargin(args, 1, 1);
  check_nargout(nargout, 0);
  Tensor t = num_or_logical(args[0]);
  for (int64_t i = 0; i < t.numel(); ++i)
    if (t.get_complex(i) == std::complex<double>(0)) fail("mustBeNonzero", "Value must not be zero.");
  return {};
}

/// mustBeReal(A): numeric or logical with no imaginary part.
Outputs bi_mustBeReal(CallContext&, Args args, int nargout) {
  check_nargin(args, 1, 1);
  check_nargout(nargout, 0);
  if (!args[0].is_tensor() || args[0].tensor().is_complex()) fail("mustBeReal", "Value must be real.");
  return {};
}

/// mustBeNumeric(A): a numeric class (not logical or char).
Outputs bi_mustBeNumeric(CallContext&, Args args, int nargout) {
  check_nargin(args, 1, 1);
  check_nargout(nargout, 0);
  if (!args[0].is_numeric()) fail("mustBeNumeric", "Value must be numeric.");
  return {};
}

/// mustBeNumericOrLogical(A): numeric or logical.
Outputs bi_mustBeNumericOrLogical(CallContext&, Args args, int nargout) {
  check_nargin(args, 1, 1);
  check_nargout(nargout, 0);
  num_or_logical(args[0]);
  return {};
}

/// mustBeNonempty(A): at least one element.
Outputs bi_mustBeNonempty(CallContext&, Args args, int nargout) {
  check_nargin(args, 1, 1);
  check_nargout(nargout, 0);
  if (args[0].is_empty()) fail("mustBeNonempty", "Value must not be empty.");
  return {};
}

/// mustBeNonsparse(A): A is not a sparse matrix.
Outputs bi_mustBeNonsparse(CallContext&, Args args, int nargout) {
  check_nargin(args, 1, 1);
  check_nargout(nargout, 0);
  if (as_sparse(args[0])) fail("mustBeNonsparse", "Value must not be sparse.");
  return {};
}

/// mustBeScalarOrEmpty(A): 1x1 or empty.
Outputs bi_mustBeScalarOrEmpty(CallContext&, Args args, int nargout) {
  check_nargin(args, 1, 1);
  check_nargout(nargout, 0);
  if (!(args[0].numel() == 1 || args[0].is_empty()))
    fail("mustBeScalarOrEmpty", "Value must be scalar or empty.");
  return {};
}

/// mustBeVector(A) | mustBeVector(A, 'allow-all-empties'): 1-by-n or n-by-1.
Outputs bi_mustBeVector(CallContext&, Args args, int nargout) {
  check_nargin(args, 1, 2);
  check_nargout(nargout, 0);
  bool allow_empty = args.size() > 1 && args[1].is_text() && args[1].to_text() == "allow-all-empties";
  if (args.size() > 1 && !allow_empty)
    throw_error("MATLAB:validators:mustBeVector", "Second input must be 'allow-all-empties'.");
  Dims d = args[0].dims();
  if (!(d.is_vector() || (allow_empty && args[0].is_empty())))
    fail("mustBeVector", "Value must be a 1-by-n vector or an n-by-1 vector.");
  return {};
}

bool is_text_value(const Value& v) {
  if (v.is_string()) return true;
  if (v.is_char()) return v.dims().ndims() == 2 && v.dims()[0] <= 1;
  if (v.is_cell()) {
    for (int64_t i = 0; i < v.numel(); ++i) {
      const Value& e = v.cell()[i];
      if (!(e.is_char() && e.dims().ndims() == 2 && e.dims()[0] <= 1)) return false;
    }
    return true;
  }
  return false;
}

/// mustBeText(A): a string array, character vector or cell array of character vectors.
Outputs bi_mustBeText(CallContext&, Args args, int nargout) {
  check_nargin(args, 1, 1);
  check_nargout(nargout, 0);
  if (!is_text_value(args[0]))
    fail("mustBeText", "Value must be a character vector, string array, or cell array of "
                       "character vectors.");
  return {};
}

/// mustBeTextScalar(A): a character vector (or '') or a string scalar.
Outputs bi_mustBeTextScalar(CallContext&, Args args, int nargout) {
  check_nargin(args, 1, 1);
  check_nargout(nargout, 0);
  const Value& v = args[0];
  bool ok = (v.is_string() && v.numel() == 1) ||
            (v.is_char() && v.dims().ndims() == 2 && v.dims()[0] <= 1);
  if (!ok) fail("mustBeTextScalar", "Value must be a character vector or string scalar.");
  return {};
}

/// mustBeNonzeroLengthText(A): text whose every element has at least one character.
Outputs bi_mustBeNonzeroLengthText(CallContext&, Args args, int nargout) {
  check_nargin(args, 1, 1);
  check_nargout(nargout, 0);
  const Value& v = args[0];
  bool ok = is_text_value(v);
  if (ok && v.is_char()) ok = v.numel() > 0;
  if (ok && v.is_string())
    for (int64_t i = 0; i < v.numel(); ++i) ok = ok && v.string_array()[i] && !v.string_array()[i]->empty();
  if (ok && v.is_cell())
    for (int64_t i = 0; i < v.numel(); ++i) ok = ok && v.cell()[i].numel() > 0;
  if (!ok)
    fail("mustBeNonzeroLengthText", "Value must be text with one or more characters.");
  return {};
}

template <class P>
Outputs compare_bound(Args args, int nargout, const char* name, const char* rel, P pred) {
  check_nargin(args, 2, 2);
  check_nargout(nargout, 0);
  double c = bound_arg(args[1], name);
  Tensor t = num_or_logical(args[0]);
  for (int64_t i = 0; i < t.numel(); ++i) {
    std::complex<double> z = t.get_complex(i);
    if (z.imag() != 0 || !pred(z.real(), c))
      fail(name, std::string("Value must be ") + rel + " " + num_text(args[1]) + ".");
  }
  return {};
}

/// mustBeGreaterThan(A, c): every element > c.
Outputs bi_mustBeGreaterThan(CallContext&, Args args, int nargout) {
  return compare_bound(args, nargout, "mustBeGreaterThan", "greater than",
                       [](double x, double c) { return x > c; });
}
/// mustBeGreaterThanOrEqual(A, c): every element >= c.
Outputs bi_mustBeGreaterThanOrEqual(CallContext&, Args args, int nargout) {
  return compare_bound(args, nargout, "mustBeGreaterThanOrEqual", "greater than or equal to",
                       [](double x, double c) { return x >= c; });
}
/// mustBeLessThan(A, c): every element < c.
Outputs bi_mustBeLessThan(CallContext&, Args args, int nargout) {
  return compare_bound(args, nargout, "mustBeLessThan", "less than",
                       [](double x, double c) { return x < c; });
}
/// mustBeLessThanOrEqual(A, c): every element <= c.
Outputs bi_mustBeLessThanOrEqual(CallContext&, Args args, int nargout) {
  return compare_bound(args, nargout, "mustBeLessThanOrEqual", "less than or equal to",
                       [](double x, double c) { return x <= c; });
}

/// mustBeInRange(A, lower, upper) | mustBeInRange(___, boundflag): lower <= A <= upper
/// ('inclusive', the default), 'exclusive', 'exclude-lower' or 'exclude-upper'.
Outputs bi_mustBeInRange(CallContext&, Args args, int nargout) {
  check_nargin(args, 3, 4);
  check_nargout(nargout, 0);
  double lo = bound_arg(args[1], "mustBeInRange"), hi = bound_arg(args[2], "mustBeInRange");
  std::string flag = args.size() > 3 ? args[3].to_text("boundflag") : "inclusive";
  bool lo_ex = flag == "exclusive" || flag == "exclude-lower";
  bool hi_ex = flag == "exclusive" || flag == "exclude-upper";
  if (flag != "inclusive" && !lo_ex && !hi_ex)
    throw_error("MATLAB:validators:mustBeInRange", "Bound flag must be 'inclusive', "
                "'exclusive', 'exclude-lower', or 'exclude-upper'.");
  Tensor t = num_or_logical(args[0]);
  for (int64_t i = 0; i < t.numel(); ++i) {
    std::complex<double> z = t.get_complex(i);
    double x = z.real();
    bool ok = z.imag() == 0 && (lo_ex ? x > lo : x >= lo) && (hi_ex ? x < hi : x <= hi);
    if (!ok)
      fail("mustBeInRange", "Value must be greater than " + std::string(lo_ex ? "" : "or equal to ") +
                                num_text(args[1]) + ", and less than " +
                                (hi_ex ? "" : "or equal to ") + num_text(args[2]) + ".");
  }
  return {};
}

/// mustBeMember(A, B): every element of A is in B (ismember).
Outputs bi_mustBeMember(CallContext& ctx, Args args, int nargout) {
  check_nargin(args, 2, 2);
  check_nargout(nargout, 0);
  Value in[2] = {args[0], args[1]};
  Value tf = ctx.call_named("ismember", Args(in, 2), 1)[0];
  Tensor t = tf.tensor();
  for (int64_t i = 0; i < t.numel(); ++i)
    if (t.get_double(i) == 0)
      fail("mustBeMember", "Value must be a member of the specified set.");
  return {};
}

/// mustBeA(A, classNames): A is of (or derives from) one of the classes.
Outputs bi_mustBeA(CallContext& ctx, Args args, int nargout) {
  check_nargin(args, 2, 2);
  check_nargout(nargout, 0);
  std::vector<std::string> names;
  const Value& c = args[1];
  if (c.is_cell()) {
    for (int64_t i = 0; i < c.numel(); ++i) names.push_back(c.cell()[i].to_text("classNames"));
  } else if (c.is_string()) {
    for (int64_t i = 0; i < c.numel(); ++i) names.push_back(c.string_array()[i].value_or(""));
  } else {
    names.push_back(c.to_text("classNames"));
  }
  for (const std::string& n : names) {
    Value in[2] = {args[0], Value::from_chars(n)};
    if (ctx.call_named("isa", Args(in, 2), 1)[0].truthy()) return {};
  }
  std::string list;
  for (size_t i = 0; i < names.size(); ++i) list += (i ? ", " : "") + names[i];
  fail("mustBeA", "Value must be one of the following types: " + list + ".");
}

/// mustBeFile(path): an existing file; mustBeFolder(path): an existing folder.
Outputs bi_mustBeFile(CallContext& ctx, Args args, int nargout) {
  check_nargin(args, 1, 1);
  check_nargout(nargout, 0);
  if (!ctx.call_named("isfile", args, 1)[0].tensor().get_double(0))
    fail("mustBeFile", "The following files do not exist: '" + args[0].to_text("path") + "'.");
  return {};
}
Outputs bi_mustBeFolder(CallContext& ctx, Args args, int nargout) {
  check_nargin(args, 1, 1);
  check_nargout(nargout, 0);
  if (!ctx.call_named("isfolder", args, 1)[0].tensor().get_double(0))
    fail("mustBeFolder", "The following folders do not exist: '" + args[0].to_text("path") + "'.");
  return {};
}

}  // namespace

void register_validators(Registry& r) {
  r.add("mustBePositive", bi_mustBePositive);
  r.add("mustBeNonnegative", bi_mustBeNonnegative);
  r.add("mustBeNegative", bi_mustBeNegative);
  r.add("mustBeNonpositive", bi_mustBeNonpositive);
  r.add("mustBeFinite", bi_mustBeFinite);
  r.add("mustBeNonNan", bi_mustBeNonNan);
  r.add("mustBeInteger", bi_mustBeInteger);
  r.add("mustBeNonzero", bi_mustBeNonzero);
  r.add("mustBeReal", bi_mustBeReal);
  r.add("mustBeNumeric", bi_mustBeNumeric);
  r.add("mustBeNumericOrLogical", bi_mustBeNumericOrLogical);
  r.add("mustBeNonempty", bi_mustBeNonempty);
  r.add("mustBeNonsparse", bi_mustBeNonsparse);
  r.add("mustBeScalarOrEmpty", bi_mustBeScalarOrEmpty);
  r.add("mustBeVector", bi_mustBeVector);
  r.add("mustBeText", bi_mustBeText);
  r.add("mustBeTextScalar", bi_mustBeTextScalar);
  r.add("mustBeNonzeroLengthText", bi_mustBeNonzeroLengthText);
  r.add("mustBeGreaterThan", bi_mustBeGreaterThan);
  r.add("mustBeGreaterThanOrEqual", bi_mustBeGreaterThanOrEqual);
  r.add("mustBeLessThan", bi_mustBeLessThan);
  r.add("mustBeLessThanOrEqual", bi_mustBeLessThanOrEqual);
  r.add("mustBeInRange", bi_mustBeInRange);
  r.add("mustBeMember", bi_mustBeMember);
  r.add("mustBeA", bi_mustBeA);
  r.add("mustBeFile", bi_mustBeFile);
  r.add("mustBeFolder", bi_mustBeFolder);
}

}  // namespace matfuse
