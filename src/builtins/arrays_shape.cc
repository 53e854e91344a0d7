// Element-rearranging builtins of the "arrays" family: flip fliplr flipud rot90 circshift
// (every Value kind: numeric, logical, char, cell, string, struct arrays), tril triu (numeric,
// logical and char arrays) and issquare.
#include <cmath>
#include <cstring>

#include "builtins/math_util.h"
#include "builtins/registry.h"
#include "builtins/shape_util.h"
#include "runtime/error.h"

namespace matfuse {
namespace {

using namespace mathutil;

/// Source linear index for every element of an array of dims `out`, where f maps the
/// subscripts of an output element (osub) to those of its source in an array of dims `in`.
template <class F>
std::vector<int64_t> remap(const Dims& in, const Dims& out, F f) {
  const int nd = std::max(in.ndims(), out.ndims());
  const auto st = strides_of(in);
  std::vector<int64_t> src(static_cast<size_t>(out.numel()));
  std::vector<int64_t> osub(static_cast<size_t>(nd), 0), isub(static_cast<size_t>(nd), 0);
  for (size_t i = 0; i < src.size(); ++i) {
    f(osub.data(), isub.data());
    int64_t s = 0;
    for (int k = 0; k < nd; ++k) s += isub[k] * (k < in.ndims() ? st[k] : 0);
    src[i] = s;
    for (int k = 0; k < nd; ++k) {
      if (++osub[k] < out[k]) break;
      osub[k] = 0;
    }
  }
  return src;
}

/// flip(A, dim): A reversed along dim (0-based); the identity past ndims(A).
Value flip_dim(const Value& a, int dim) {
  const Dims d = a.dims();
  if (dim >= d.ndims() || d[dim] <= 1) return a;
  const int nd = d.ndims();
  const int64_t n = d[dim];
  return gather_elements(a, d, remap(d, d, [&](const int64_t* o, int64_t* i) {
    for (int k = 0; k < nd; ++k) i[k] = o[k];
    i[dim] = n - 1 - o[dim];
  }));
}

/// flip(A) reverses the first non-singleton dimension; flip(A, dim) the given one.
Outputs bi_flip(CallContext&, Args args, int nargout) {
  check_nargin(args, 1, 2);
  check_nargout(nargout, 1);
  int dim;
  if (args.size() == 2 && args[1].is_text()) {  // flip(A, 'horizontal' | 'vertical')
    std::string dir = args[1].to_text();
    if (dir == "horizontal") dim = 1;
    else if (dir == "vertical") dim = 0;
    else
      throw_error("MATLAB:flip:InvalidDirection", "Direction must be 'horizontal' or "
                  "'vertical'.");
  } else {
    dim = args.size() == 2 ? dim_arg(args[1]) : first_nonsingleton(args[0].dims());
  }
  return {flip_dim(args[0], dim)};
}
Outputs bi_fliplr(CallContext&, Args args, int nargout) {
  check_nargin(args, 1, 1);
  check_nargout(nargout, 1);
  return {flip_dim(args[0], 1)};
}
Outputs bi_flipud(CallContext&, Args args, int nargout) {
  check_nargin(args, 1, 1);
  check_nargout(nargout, 1);
  return {flip_dim(args[0], 0)};
}

/// Integer scalar argument, else error `id` with `msg`.
int64_t int_scalar(const Value& v, const char* id, const char* msg) {
  if (!v.is_tensor() || v.numel() != 1 || v.tensor().is_complex()) throw_error(id, "%s", msg);
  const double d = v.tensor().get_double(0);
  if (!is_int_value(d) || std::fabs(d) > 9e15) throw_error(id, "%s", msg);
  return static_cast<int64_t>(d);
}

/// rot90(A[, k]): A rotated by k*90 degrees counterclockwise in the plane of dimensions 1, 2
/// (N-d arrays rotate every page).
Outputs bi_rot90(CallContext&, Args args, int nargout) {
  check_nargin(args, 1, 2);
  check_nargout(nargout, 1);
  int64_t k = 1;
  if (args.size() == 2) {
    if (!args[1].is_tensor() || args[1].numel() != 1)
      throw_error("MATLAB:rot90:kNonScalar", "k must be a scalar.");
    k = int_scalar(args[1], "MATLAB:rot90:kNonInteger", "k must be an integer.");
  }
  k = ((k % 4) + 4) % 4;
  const Value& a = args[0];
  const Dims d = a.dims();
  if (k == 0) return {a};
  Dims out = d;
  if (k % 2 == 1) out.set(0, d[1]), out.set(1, d[0]);
  const int nd = d.ndims();
  const int64_t m = d[0], n = d[1];
  return {gather_elements(a, out, remap(d, out, [&](const int64_t* o, int64_t* i) {
    for (int t = 2; t < nd; ++t) i[t] = o[t];
    if (k == 1) i[0] = o[1], i[1] = n - 1 - o[0];
    else if (k == 2) i[0] = m - 1 - o[0], i[1] = n - 1 - o[1];
    else i[0] = m - 1 - o[1], i[1] = o[0];
  }))};
}

/// circshift(A, K): K scalar shifts the first non-singleton dimension, K a vector shifts
/// dimension j by K(j); circshift(A, K, dim) shifts dimension dim by scalar K. Positive shifts
/// move elements toward higher indices.
Outputs bi_circshift(CallContext&, Args args, int nargout) {
  check_nargin(args, 2, 3);
  check_nargout(nargout, 1);
  const Value& a = args[0];
  const Dims d = a.dims();
  const char* id = "MATLAB:circshift:InvalidShiftType";
  const char* msg = "Invalid shift type: must be a real finite integer vector.";
  if (!args[1].is_tensor() || args[1].tensor().is_complex() || args[1].is_char() ||
      (!args[1].dims().is_vector() && !args[1].is_empty()))
    throw_error(id, "%s", msg);
  std::vector<double> kv = doubles_of(args[1], "circshift");
  for (double s : kv)
    if (!is_int_value(s)) throw_error(id, "%s", msg);
  std::vector<int64_t> shift(static_cast<size_t>(std::max<int>(d.ndims(), 1)), 0);
  // A shift reduced modulo its dimension's length in double (exact), so that 1e300 is no
  // undefined conversion to int64.
  auto amount = [&](double k, int dim) {
    return dim < d.ndims() && d[dim] > 0
               ? static_cast<int64_t>(std::fmod(k, static_cast<double>(d[dim])))
               : int64_t{0};
  };
  if (args.size() == 3) {
    // circshift(A, K, DIM): DIM a scalar, or a vector with one shift per listed dimension.
    std::vector<double> dv = doubles_of(args[2], "circshift");
    if (dv.size() != kv.size())
      throw_error("MATLAB:circshift:NonScalarDim",
                  "When DIM is specified, the shift and DIM must have the same number of "
                  "elements.");
    for (size_t j = 0; j < dv.size(); ++j) {
      if (!(dv[j] >= 1) || !is_int_value(dv[j]))
        throw_error("MATLAB:getdimarg:dimensionMustBePositiveInteger",
                    "Dimension argument must be a positive integer scalar within indexing "
                    "range.");
      if (dv[j] > d.ndims()) continue;  // a trailing singleton dimension (1e12 included)
      const int dim = static_cast<int>(dv[j]) - 1;
      shift[dim] = amount(kv[j], dim);
    }
  } else if (kv.size() == 1) {
    const int dim = first_nonsingleton(d);
    shift[dim] = amount(kv[0], dim);
  } else {
    for (size_t j = 0; j < kv.size() && j < shift.size(); ++j)
      shift[j] = amount(kv[j], static_cast<int>(j));
  }
  bool any = false;
  for (int k = 0; k < d.ndims(); ++k) {
    if (d[k] > 0) shift[k] = ((shift[k] % d[k]) + d[k]) % d[k];
    any = any || shift[k] != 0;
  }
  if (!any) return {a};
  const int nd = d.ndims();
  return {gather_elements(a, d, remap(d, d, [&](const int64_t* o, int64_t* i) {
    for (int k = 0; k < nd; ++k) {
      int64_t s = o[k] - shift[k];
      i[k] = s < 0 ? s + d[k] : s;
    }
  }))};
}

/// tril(A[, k]) / triu(A[, k]): A with the elements above (tril) or below (triu) diagonal k set
/// to zero. A must be a 2-D numeric, logical or char array.
template <bool Lower> Outputs tri(CallContext&, Args args, int nargout) {
  const char* fname = Lower ? "tril" : "triu";
  check_nargin(args, 1, 2);
  check_nargout(nargout, 1);
  if (!args[0].is_tensor()) undefined_for(fname, args[0]);
  int64_t k = 0;
  if (args.size() == 2)
    k = int_scalar(args[1], Lower ? "MATLAB:tril:kthDiagInputNotInteger" : "MATLAB:triu:kthDiagInputNotInteger",
                   "K-th diagonal input must be an integer scalar.");
  const Tensor a = args[0].tensor();
  if (a.dims().ndims() != 2)
    throw_error(Lower ? "MATLAB:tril:firstInputMustBe2D" : "MATLAB:triu:firstInputMustBe2D",
                "First input must be 2D.");
  Tensor r = Tensor::zeros(a.cls(), a.dims(), a.is_complex());
  const int64_t m = a.dims()[0], n = a.dims()[1];
  const int eb = a.elem_bytes();
  const char* s = static_cast<const char*>(a.raw());
  char* o = static_cast<char*>(r.mutable_raw());
  for (int64_t j = 0; j < n; ++j)
    for (int64_t i = 0; i < m; ++i) {
      const bool keep = Lower ? (j - i <= k) : (j - i >= k);
      if (keep) std::memcpy(o + (i + j * m) * eb, s + (i + j * m) * eb, static_cast<size_t>(eb));
    }
  return {Value(r)};
}

/// issquare(A): true when A is 2-D with as many rows as columns (any class).
Outputs bi_issquare(CallContext&, Args args, int nargout) {
  check_nargin(args, 1, 1);
  check_nargout(nargout, 1);
  const Dims d = args[0].dims();
  return {Value::logical(d.ndims() == 2 && d[0] == d[1])};
}

}  // namespace

/// Registers the functions of this file (called from register_arrays).
void register_arrays_shape(Registry& r) {
  r.add("flip", bi_flip);
  r.add("fliplr", bi_fliplr);
  r.add("flipud", bi_flipud);
  r.add("rot90", bi_rot90);
  r.add("circshift", bi_circshift);
  r.add("tril", tri<true>);
  r.add("triu", tri<false>);
  r.add("issquare", bi_issquare);
}

}  // namespace matfuse
