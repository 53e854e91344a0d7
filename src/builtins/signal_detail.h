// Internal to the signal family: operand conversion and result construction shared by
// signal.cc (conv, deconv, filter), signal_poly.cc (polyfit, polyval, roots),
// signal_interp.cc (interp1) and signal_fft.cc (fft family, fftshift).
//
// Numbers are computed in double (T = double) or std::complex<double> (T = cd) and stored in the
// result class: single when any floating operand is single, otherwise double.
#pragma once

#include <complex>
#include <initializer_list>
#include <string>
#include <vector>

#include "builtins/registry.h"
#include "runtime/value.h"

namespace matfuse::sig {

using cd = std::complex<double>;

/// Numeric/logical/char operand as a Tensor; other kinds raise MATLAB:UndefinedFunction.
Tensor operand(const Value& v, const char* fname);
/// Single when any of ts is single, else double.
ClassId result_class(std::initializer_list<const Tensor*> ts);
/// Elements of t as T (double drops imaginary parts; callers pick cd for complex data).
template <class T> std::vector<T> elems(const Tensor& t) {
  std::vector<T> v(static_cast<size_t>(t.numel()));
  for (int64_t i = 0; i < t.numel(); ++i) {
    if constexpr (std::is_same_v<T, double>) v[i] = t.get_double(i);
    else v[i] = t.get_complex(i);
  }
  return v;
}
/// A tensor of class c and dims d from values (complex for T = cd, with zero imaginary parts
/// dropped unless keep_complex).
template <class T>
Tensor make(const Dims& d, const std::vector<T>& v, ClassId c, bool keep_complex = false) {
  constexpr bool cplx = std::is_same_v<T, cd>;
  Tensor t = Tensor::uninit(c, d, cplx);
  for (size_t i = 0; i < v.size(); ++i) {
    if constexpr (cplx) t.set_complex(static_cast<int64_t>(i), v[i]);
    else t.set_double(static_cast<int64_t>(i), v[i]);
  }
  return keep_complex ? t : t.drop_zero_imag();
}
/// 0-based dimension from a dim argument (positive integer scalar), else
/// MATLAB:getdimarg:dimensionMustBePositiveInteger.
int dim_arg(const Value& v);
/// 0-based first non-singleton dimension of d (0 when all are 1).
int default_dim(const Dims& d);
/// Lower-cased text of v, or "" when v is not text.
std::string lower_text(const Value& v);
/// Throws MATLAB:notAvailable-style matfuse:notAvailable for a missing library.
[[noreturn]] void not_available(const char* fname, const char* lib);

/// MATLAB's pp struct (form, breaks, coefs, pieces, order, dim) from breaks (l+1 values),
/// coefs (prod(d)*l x k, component index fastest) and value dimensions d ({1} for scalars).
Value make_pp(const std::vector<double>& breaks, const Tensor& coefs,
              const std::vector<int64_t>& d);

/// Registration of the other signal files (called from register_signal).
void register_poly(Registry& r);
void register_interp(Registry& r);
void register_fft(Registry& r);
void register_pp(Registry& r);  // mkpp, unmkpp, ppval (signal_pp.cc)
void register_conv2(Registry& r);

}  // namespace matfuse::sig
