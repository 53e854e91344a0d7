// Special matrices of the "arrays" family: toeplitz, hankel.
#include <complex>
#include <string>

#include "builtins/registry.h"
#include "runtime/error.h"

namespace matfuse {
namespace {

using cd = std::complex<double>;

/// Numeric/logical/char vector argument (empty allowed) as a Tensor.
Tensor vector_arg(const Value& v, const char* fname, const char* id) {
  if (!v.is_tensor())
    throw_error("MATLAB:UndefinedFunction", "Undefined function '%s' for input arguments of type '%s'.",
                fname, v.class_name().c_str());
  const Tensor& t = v.tensor();
  if (!t.dims().is_vector() && !t.is_empty())
    throw_error(id, "Inputs must be vectors.");
  return t;
}

/// Result class: single when either input is single, else the class of c (double for
/// logical and char inputs, as MATLAB's indexing into zeros gives).
ClassId result_class(const Tensor& c, const Tensor* r) {
  if (c.cls() == ClassId::Single || (r && r->cls() == ClassId::Single)) return ClassId::Single;
  if (c.cls() == ClassId::Logical || c.cls() == ClassId::Char) return ClassId::Double;
  return c.cls();
}

void warn(CallContext& ctx, const char* id, const char* msg) {
  Value a[3] = {Value::from_chars(id), Value::from_chars("%s"), Value::from_chars(msg)};
  ctx.call_named("warning", Args(a, 3), 0);
}

/// T = toeplitz(c, r): numel(c) x numel(r), T(i,j) = c(i-j+1) for i >= j, r(j-i+1) above the
/// diagonal; c(1) wins a conflict with r(1) (warning MATLAB:toeplitz:DiagonalConflict).
/// T = toeplitz(r): the symmetric (Hermitian for complex r: first column conj(r), diagonal
/// r(1)) Toeplitz matrix.
Outputs bi_toeplitz(CallContext& ctx, Args args, int nargout) {
  check_nargin(args, 1, 2);
  check_nargout(nargout, 1);
  Tensor c = vector_arg(args[0], "toeplitz", "MATLAB:toeplitz:InputNotVector");
  Tensor r = args.size() == 2 ? vector_arg(args[1], "toeplitz", "MATLAB:toeplitz:InputNotVector") : c;
  bool one = args.size() == 1;
  int64_t m = c.numel(), n = r.numel();
  if (!one && m > 0 && n > 0 && c.get_complex(0) != r.get_complex(0))
    warn(ctx, "MATLAB:toeplitz:DiagonalConflict",
         "First element of input column does not match first element of input row. \n"
         "         Column wins diagonal conflict.");
  bool cplx = c.is_complex() || r.is_complex();
  Tensor t = Tensor::uninit(result_class(c, one ? nullptr : &r), Dims(m, n), cplx);
  for (int64_t j = 0; j < n; ++j)
    for (int64_t i = 0; i < m; ++i) {
      cd v;
      if (i > j) v = one ? std::conj(c.get_complex(i - j)) : c.get_complex(i - j);
      else if (i == j) v = c.get_complex(0);
      else v = r.get_complex(j - i);
      t.set_complex(j * m + i, v);
    }
  return {Value(cplx ? t.drop_zero_imag() : t)};
}

/// H = hankel(c): square, H(i,j) = c(i+j-1) on and above the anti-diagonal, 0 below.
/// H = hankel(c, r): numel(c) x numel(r) with first column c and last row r; c(end) wins a
/// conflict with r(1) (warning MATLAB:hankel:AntiDiagonalConflict).
Outputs bi_hankel(CallContext& ctx, Args args, int nargout) {
  check_nargin(args, 1, 2);
  check_nargout(nargout, 1);
  Tensor c = vector_arg(args[0], "hankel", "MATLAB:hankel:InputNotVector");
  bool one = args.size() == 1;
  Tensor r = one ? Tensor::zeros(c.cls(), Dims(1, c.numel())) : vector_arg(args[1], "hankel", "MATLAB:hankel:InputNotVector");
  int64_t m = c.numel(), n = r.numel();
  if (!one && m > 0 && n > 0 && c.get_complex(m - 1) != r.get_complex(0))
    warn(ctx, "MATLAB:hankel:AntiDiagonalConflict",
         "Last element of input column does not match first element of input row. \n"
         "         Column wins anti-diagonal conflict.");
  bool cplx = c.is_complex() || r.is_complex();
  Tensor t = Tensor::uninit(result_class(c, one ? nullptr : &r), Dims(m, n), cplx);
  for (int64_t j = 0; j < n; ++j)
    for (int64_t i = 0; i < m; ++i) {
      int64_t k = i + j;  // 0-based index into [c, r(2:end)]
      t.set_complex(j * m + i, k < m ? c.get_complex(k) : r.get_complex(k - m + 1));
    }
  return {Value(cplx ? t.drop_zero_imag() : t)};
}

}  // namespace

void register_arrays_special(Registry& r) {
  r.add("toeplitz", bi_toeplitz);
  r.add("hankel", bi_hankel);
}

}  // namespace matfuse
