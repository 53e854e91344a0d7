// Builtins of MATLAB's missing data: missing (the missing value object, runtime/missing.h),
// standardizeMissing and rmmissing (ismissing and fillmissing live in text_strings.cc and
// compat.cc). The standard missing values: NaN (double, single), <missing> (string), '' (cell
// arrays of character vectors), ' ' (char).
#include <cctype>
#include <cmath>
#include <string>
#include <vector>

#include "builtins/registry.h"
#include "runtime/error.h"
#include "runtime/missing.h"

namespace matfuse {

namespace {

/// m = missing: the 1x1 missing value; assigned into or concatenated with double or single
/// it becomes NaN, with strings <missing>.
Outputs bi_missing(CallContext&, Args args, int nargout) {
  check_nargin(args, 0, 0);
  check_nargout(nargout, 1);
  return {make_missing()};
}

/// Logical mask of ismissing(A [, indicator]).
Tensor missing_mask(CallContext& ctx, const Value& a, const Value* ind) {
  std::vector<Value> in{a};
  if (ind) in.push_back(*ind);
  Value m = ctx.call_named("ismissing", Args(in.data(), in.size()), 1)[0];
  return m.tensor();
}

/// B = standardizeMissing(A, indicator): A with the elements equal to indicator (a value or an
/// array of values; text for string and cell arrays) replaced by the standard missing value of
/// A's class. Errors: MATLAB:standardizeMissing:IntegerInput... for integer or logical A, which
/// have no missing value.
Outputs bi_standardizeMissing(CallContext& ctx, Args args, int nargout) {
  check_nargin(args, 2, 4);
  check_nargout(nargout, 1);
  const Value& a = args[0];
  if (a.is_tensor() && !a.is_char() && a.cls() != ClassId::Double && a.cls() != ClassId::Single)
    throw_error("MATLAB:standardizeMissing:UnsupportedType",
                "Standard missing value for %s arrays is not defined.", a.class_name().c_str());
  if (!(a.is_tensor() || a.is_string() || a.is_cell()))
    throw_error("MATLAB:standardizeMissing:FirstInputInvalid",
                "First input must be a numeric array, a string array, a character array, or a "
                "cell array of character vectors.");
  Tensor mask = missing_mask(ctx, a, &args[1]);
  const bool* m = mask.numel() ? mask.data<bool>() : nullptr;
  const int64_t n = mask.numel();
  if (a.is_string()) {
    StringArray s = a.string_array();
    for (int64_t i = 0; i < n; ++i)
      if (m[i]) s.at(i) = std::nullopt;
    return {Value(std::move(s))};
  }
  if (a.is_cell()) {
    CellArray c = a.cell();
    for (int64_t i = 0; i < n; ++i)
      if (m[i]) c.at(i) = Value::from_chars("");
    return {Value(std::move(c))};
  }
  Tensor t = a.tensor();
  if (a.is_char()) {
    char16_t* d = t.mutable_data<char16_t>();
    for (int64_t i = 0; i < n; ++i)
      if (m[i]) d[i] = u' ';
    return {Value(t)};
  }
  for (int64_t i = 0; i < n; ++i)
    if (m[i]) {
      if (t.is_complex()) t.set_complex(i, {std::nan(""), 0.0});
      else t.set_double(i, std::nan(""));
    }
  return {Value(t)};
}

/// [B, TF] = rmmissing(A) | rmmissing(A, dim) | rmmissing(___, 'MinNumMissing', n):
/// removes the missing entries of a vector, or the rows (dim 1, the default for a matrix) or
/// columns (dim 2) of a matrix that hold at least n (default 1) missing entries. TF marks the
/// removed rows, columns or elements (logical). Missing: ismissing's standard values.
/// Errors: MATLAB:rmmissing:DimensionInvalid, MATLAB:rmmissing:MinNumMissing,
/// MATLAB:rmmissing:NDArrays for arrays of more than 2 dimensions.
Outputs bi_rmmissing(CallContext& ctx, Args args, int nargout) {
  check_nargin(args, 1, 4);
  check_nargout(nargout, 2);
  const Value& a = args[0];
  Dims d = a.dims();
  if (d.ndims() > 2)
    throw_error("MATLAB:rmmissing:NDArrays", "Input array must be a vector or a matrix.");
  int dim = 0;  // 0: not given
  double minnum = 1;
  for (size_t i = 1; i < args.size(); ++i) {
    if (args[i].is_text()) {
      std::string name = args[i].to_text();
      std::string ln;
      for (char c : name) ln += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
      if (ln != "minnummissing" || i + 1 >= args.size())
        throw_error("MATLAB:rmmissing:NameValueNames",
                    "Name-value pair arguments must be 'MinNumMissing'.");
      minnum = args[++i].to_double("MinNumMissing");
      if (!(minnum >= 0 && minnum == std::floor(minnum)))
        throw_error("MATLAB:rmmissing:MinNumMissing",
                    "'MinNumMissing' value must be a nonnegative integer scalar.");
    } else {
      double v = args[i].to_double("dim");
      if (!(v == 1 || v == 2))
        throw_error("MATLAB:rmmissing:DimensionInvalid",
                    "Dimension must be 1 or 2.");
      dim = static_cast<int>(v);
    }
  }
  Tensor mask = missing_mask(ctx, a, nullptr);
  const bool* m = mask.numel() ? mask.data<bool>() : nullptr;
  const int64_t rows = d[0], cols = d[1];
  const bool vec = dim == 0 && (rows == 1 || cols == 1);
  if (dim == 0) dim = vec && rows == 1 ? 2 : 1;
  // Count the missing entries per row (dim 1) or column (dim 2).
  int64_t nl = dim == 1 ? rows : cols;
  std::vector<int64_t> count(static_cast<size_t>(nl), 0);
  for (int64_t j = 0; j < cols; ++j)
    for (int64_t i = 0; i < rows; ++i)
      if (m[j * rows + i]) ++count[static_cast<size_t>(dim == 1 ? i : j)];
  Tensor tf = Tensor::uninit(ClassId::Logical, dim == 1 ? Dims(nl, 1) : Dims(1, nl));
  bool* tp = nl ? tf.mutable_data<bool>() : nullptr;
  std::vector<double> keep;
  for (int64_t k = 0; k < nl; ++k) {
    tp[k] = minnum > 0 ? count[static_cast<size_t>(k)] >= minnum : false;
    if (!tp[k]) keep.push_back(static_cast<double>(k + 1));
  }
  Tensor kt = Tensor::uninit(ClassId::Double, Dims(1, static_cast<int64_t>(keep.size())));
  for (size_t k = 0; k < keep.size(); ++k) kt.set_double(static_cast<int64_t>(k), keep[k]);
  // B = A(keep, :) or A(:, keep) through subsref.
  CellArray subs(Dims(1, 2));
  subs.at(dim == 1 ? 0 : 1) = Value(kt);
  subs.at(dim == 1 ? 1 : 0) = Value::from_chars(":");
  StructArray s(Dims(1, 1));
  s.at(0, s.add_field("type")) = Value::from_chars("()");
  s.at(0, s.add_field("subs")) = Value(std::move(subs));
  Value in[2] = {a, Value(std::move(s))};
  Value b = ctx.call_named("subsref", Args(in, 2), 1)[0];
  return {b, Value(tf)};
}

}  // namespace

void register_missing(Registry& r) {
  r.add("missing", bi_missing);
  r.add("standardizeMissing", bi_standardizeMissing);
  r.add("rmmissing", bi_rmmissing);
}

}  // namespace matfuse
