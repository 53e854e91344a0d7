// Helpers of math_util.h.
#include "builtins/math_util.h"

#include <cmath>

#include "runtime/error.h"

namespace matfuse::mathutil {

Value call1(CallContext& ctx, const char* name, std::vector<Value> args) {
  const Builtin* b = builtins().find(name);
  MF_ASSERT(b != nullptr, "math helper: builtin not registered");
  Outputs o = b->fn(ctx, args, 1);
  MF_ASSERT(!o.empty(), "math helper: builtin returned no value");
  return o[0];
}

void undefined_for(const char* fname, const Value& v) {
  throw_error("MATLAB:UndefinedFunction", "Undefined function '%s' for input arguments of type '%s'.",
              fname, v.class_name().c_str());
}

Tensor float_arg(const Value& v, const char* fname, bool allow_complex) {
  if (!v.is_tensor()) undefined_for(fname, v);
  Tensor t = v.tensor();
  if (is_integer_class(t.cls())) undefined_for(fname, v);
  if (!is_float_class(t.cls())) t = t.to_class(ClassId::Double);
  if (!allow_complex && t.is_complex())
    throw_error((std::string("MATLAB:") + fname + ":notFullReal").c_str(), "Input must be real and full.");
  return t;
}

int dim_arg(const Value& v) {
  if (v.is_tensor() && v.numel() == 1 && !v.is_char()) {
    const Tensor t = v.tensor();
    if (!t.is_complex()) {
      const double d = t.get_double(0);
      if (d >= 1 && d == std::floor(d) && d < 2147483647.0) return static_cast<int>(d) - 1;
    }
  }
  throw_error("MATLAB:getdimarg:dimensionMustBePositiveInteger",
              "Dimension argument must be a positive integer scalar within indexing range.");
}

int first_nonsingleton(const Dims& d) {
  for (int k = 0; k < d.ndims(); ++k)
    if (d[k] != 1) return k;
  return 0;
}

std::vector<int64_t> broadcast_map(const Dims& in, const Dims& out) {
  const int nd = out.ndims();
  std::vector<int64_t> map(static_cast<size_t>(out.numel()));
  if (in == out) {
    for (size_t i = 0; i < map.size(); ++i) map[i] = static_cast<int64_t>(i);
    return map;
  }
  const auto st = strides_of(in);
  std::vector<int64_t> sub(static_cast<size_t>(nd), 0);
  int64_t src = 0;
  for (size_t i = 0; i < map.size(); ++i) {
    map[i] = src;
    for (int k = 0; k < nd; ++k) {  // odometer increment over out's subscripts
      if (++sub[k] < out[k]) {
        if (in[k] != 1) src += st[k];
        break;
      }
      if (in[k] != 1) src -= st[k] * (out[k] - 1);
      sub[k] = 0;
    }
  }
  return map;
}

std::vector<double> doubles_of(const Value& v, const char* fname) {
  if (!v.is_tensor()) undefined_for(fname, v);
  const Tensor t = v.tensor();
  std::vector<double> r(static_cast<size_t>(t.numel()));
  for (int64_t i = 0; i < t.numel(); ++i) r[static_cast<size_t>(i)] = t.get_double(i);
  return r;
}

bool is_int_value(double d) { return std::isfinite(d) && d == std::floor(d); }

}  // namespace matfuse::mathutil
