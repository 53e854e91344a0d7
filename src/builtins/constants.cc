// Named constants and constant-valued constructors: pi, Inf, NaN, eps, realmax, realmin,
// flintmax, intmax, intmin, true, false, i, j, and magic squares.
#include <cfloat>
#include <cmath>
#include <limits>
#include <utility>
#include <vector>

#include "builtins/argparse.h"
#include "builtins/registry.h"
#include "runtime/array_size.h"

namespace matfuse {
namespace {

bool float_only(ClassId c) { return is_float_class(c); }

/// f(sizes..., 'double'|'single'|'like', p) filled with v (Inf, NaN, pi, eps...).
Value filled_float(Args args, std::string_view name, double v) {
  if (args.empty()) return Value(v);
  SizeClassArgs sc = parse_size_class(args, name, ClassId::Double, float_only);
  Tensor t = Tensor::uninit(sc.cls, sc.dims, sc.complex);
  int64_t n = t.numel();
  if (sc.cls == ClassId::Single) {
    float* p = t.mutable_data<float>();
    int64_t step = sc.complex ? 2 : 1;
    for (int64_t k = 0; k < n; ++k) {
      p[k * step] = static_cast<float>(v);
      if (sc.complex) p[k * step + 1] = 0.0f;
    }
  } else {
    double* p = t.mutable_data<double>();
    int64_t step = sc.complex ? 2 : 1;
    for (int64_t k = 0; k < n; ++k) {
      p[k * step] = v;
      if (sc.complex) p[k * step + 1] = 0.0;
    }
  }
  return Value(std::move(t));
}

Outputs bi_pi(CallContext&, Args a, int) { return {filled_float(a, "pi", M_PI)}; }
Outputs bi_inf(CallContext&, Args a, int) {
  return {filled_float(a, "Inf", std::numeric_limits<double>::infinity())};
}
Outputs bi_nan(CallContext&, Args a, int) {
  return {filled_float(a, "NaN", std::numeric_limits<double>::quiet_NaN())};
}

/// Class named by a single text argument ('single', 'double', 'int8', ...), or the class of a
/// 'like' prototype.
ClassId class_arg(Args a, std::string_view fname, ClassId def) {
  if (a.empty()) return def;
  if (a.size() == 2 && a[0].is_text() && a[0].to_text() == "like") return a[1].cls();
  if (a.size() == 1) {
    if (auto c = class_name_arg(a[0])) return *c;
  }
  throw_error("MATLAB:invalidInputClass", "Invalid input to %.*s.", static_cast<int>(fname.size()),
              fname.data());
}

Outputs bi_eps(CallContext&, Args a, int) {
  if (a.size() == 1 && !a[0].is_text()) {
    // eps(x): distance from |x| to the next larger number of the same class.
    Tensor x = a[0].tensor();
    if (!is_float_class(x.cls()))
      throw_error("MATLAB:eps:invalidInput", "Input must be floating point.");
    Tensor out = Tensor::uninit(x.cls(), x.dims());
    for (int64_t k = 0; k < x.numel(); ++k) {
      double v = std::fabs(x.get_double(k));
      double r;
      if (x.cls() == ClassId::Single) {
        float f = static_cast<float>(v);
        r = !std::isfinite(f) ? NAN
            : f < FLT_MIN     ? std::ldexp(1.0, -149)
                              : std::nextafter(f, INFINITY) - f;
      } else {
        r = !std::isfinite(v) ? NAN
            : v < DBL_MIN     ? std::ldexp(1.0, -1074)
                              : std::nextafter(v, INFINITY) - v;
      }
      out.set_double(k, r);
    }
    return {Value(std::move(out))};
  }
  if (a.size() == 1 || (a.size() == 2 && a[0].is_text() && a[0].to_text() == "like")) {
    ClassId c = class_arg(a, "eps", ClassId::Double);
    if (c == ClassId::Single) return {Value(Tensor::scalar(FLT_EPSILON, ClassId::Single))};
    return {Value(DBL_EPSILON)};
  }
  return {filled_float(a, "eps", DBL_EPSILON)};
}

Outputs float_limit(Args a, const char* name, double dv, float fv) {
  check_nargin(a, 0, 2);
  ClassId c = class_arg(a, name, ClassId::Double);
  if (c == ClassId::Single) return {Value(Tensor::scalar(fv, ClassId::Single))};
  if (c != ClassId::Double)
    throw_error("MATLAB:invalidInputClass", "Class must be 'single' or 'double'.");
  return {Value(dv)};
}
Outputs bi_realmax(CallContext&, Args a, int) { return float_limit(a, "realmax", DBL_MAX, FLT_MAX); }
Outputs bi_realmin(CallContext&, Args a, int) { return float_limit(a, "realmin", DBL_MIN, FLT_MIN); }
Outputs bi_flintmax(CallContext&, Args a, int) {
  return float_limit(a, "flintmax", 9007199254740992.0, 16777216.0f);
}

Outputs int_limit(Args a, const char* name, bool max) {
  check_nargin(a, 0, 2);
  ClassId c = class_arg(a, name, ClassId::Int32);
  if (!is_integer_class(c))
    throw_error("MATLAB:invalidInputClass", "Invalid class name. Class must be an integer class.");
  return {Value(Tensor::scalar(max ? int_class_max(c) : int_class_min(c), c))};
}
Outputs bi_intmax(CallContext&, Args a, int) { return int_limit(a, "intmax", true); }
Outputs bi_intmin(CallContext&, Args a, int) { return int_limit(a, "intmin", false); }

Outputs logical_filled(Args a, std::string_view name, bool v) {
  Dims d = Dims::scalar();
  if (!a.empty()) {
    // true(sizes..., 'like', p) keeps logical; a class name other than 'logical' is an error.
    size_t n = a.size();
    if (n >= 2 && a[n - 2].is_text() && a[n - 2].to_text() == "like") n -= 2;
    else if (n >= 1 && a[n - 1].is_text()) {
      if (a[n - 1].to_text() != "logical")
        throw_error("MATLAB:invalidInputClass", "Class name must be 'logical'.");
      n -= 1;
    }
    d = parse_size_list(a.subspan(0, n), name);
  }
  Tensor t = Tensor::uninit(ClassId::Logical, d);
  bool* p = t.mutable_data<bool>();
  for (int64_t k = 0; k < t.numel(); ++k) p[k] = v;
  return {Value(std::move(t))};
}
Outputs bi_true(CallContext&, Args a, int) { return logical_filled(a, "true", true); }
Outputs bi_false(CallContext&, Args a, int) { return logical_filled(a, "false", false); }

Outputs bi_imag_unit(CallContext&, Args a, int) {
  check_nargin(a, 0, 0);
  return {Value(Tensor::complex_scalar({0.0, 1.0}))};
}

/// magic(n): odd orders by the Siamese method, doubly even orders by the diagonal complement
/// rule, singly even orders by the LUX (Strachey) construction from four odd squares. These
/// are the classical constructions MATLAB documents; magic(3) = [8 1 6; 3 5 7; 4 9 2].
Outputs bi_magic(CallContext&, Args a, int) {
  check_nargin(a, 1, 1);
  double nd = a[0].to_double("n");
  if (!std::isfinite(nd)) throw_error("MATLAB:magic:invalidInput", "N must be finite.");
  int64_t n = clamp_count(std::floor(nd));  // 1e300: the size check fails (no undefined cast)
  if (n < 1) return {Value(Tensor::zeros(ClassId::Double, Dims(0, 0)))};
  Tensor t = Tensor::zeros(ClassId::Double, Dims(n, n));
  double* m = t.mutable_data<double>();
  auto at = [&](int64_t r, int64_t c) -> double& { return m[c * n + r]; };
  auto odd = [&](int64_t k, auto&& put) {
    // Siamese method on a k x k square, values 1..k^2; put(r, c, v).
    int64_t r = 0, c = k / 2;
    for (int64_t v = 1; v <= k * k; ++v) {
      put(r, c, static_cast<double>(v));
      // Up and right; the next cell is occupied exactly after every k-th value: go down.
      if (v % k == 0) {
        r = (r + 1) % k;
      } else {
        r = (r - 1 + k) % k;
        c = (c + 1) % k;
      }
    }
  };
  if (n == 2) {
    m[0] = 4; m[1] = 1; m[2] = 3; m[3] = 2;  // MATLAB's magic(2) = [4 3; 1 2]
  } else if (n % 2 == 1) {
    odd(n, [&](int64_t r, int64_t c, double v) { at(r, c) = v; });
  } else if (n % 4 == 0) {
    for (int64_t r = 0; r < n; ++r)
      for (int64_t c = 0; c < n; ++c) {
        double v = static_cast<double>(r * n + c + 1);
        bool diag = ((r % 4) == (c % 4)) || ((r % 4) + (c % 4) == 3);
        at(r, c) = diag ? static_cast<double>(n * n + 1) - v : v;
      }
  } else {
    int64_t h = n / 2, k = (n - 2) / 4;
    std::vector<double> q(static_cast<size_t>(h * h));
    odd(h, [&](int64_t r, int64_t c, double v) { q[c * h + r] = v; });
    double add[4] = {0, 2.0 * h * h, 3.0 * h * h, 1.0 * h * h};  // A, B, C, D quadrants
    for (int64_t r = 0; r < h; ++r)
      for (int64_t c = 0; c < h; ++c) {
        double v = q[c * h + r];
        at(r, c) = v + add[0];
        at(r + h, c + h) = v + add[3];
        at(r, c + h) = v + add[1];
        at(r + h, c) = v + add[2];
      }
    // Swap the leftmost k columns (shifted by one on the middle row) and the rightmost k-1
    // columns between the top and bottom halves.
    for (int64_t r = 0; r < h; ++r) {
      for (int64_t c = 0; c < n; ++c) {
        // Middle row: columns 1..k instead of 0..k-1.
        bool swap = (r == h / 2) ? (c >= 1 && c <= k) : (c < k);
        if (c >= n - k + 1) swap = true;
        if (swap) std::swap(at(r, c), at(r + h, c));
      }
    }
  }
  return {Value(std::move(t))};
}

}  // namespace

void register_constants(Registry& r) {
  r.add("pi", bi_pi);
  r.add("Inf", bi_inf);
  r.add("inf", bi_inf);
  r.add("NaN", bi_nan);
  r.add("nan", bi_nan);
  r.add("eps", bi_eps);
  r.add("realmax", bi_realmax);
  r.add("realmin", bi_realmin);
  r.add("flintmax", bi_flintmax);
  r.add("intmax", bi_intmax);
  r.add("intmin", bi_intmin);
  r.add("true", bi_true);
  r.add("false", bi_false);
  r.add("i", bi_imag_unit);
  r.add("j", bi_imag_unit);
  r.add("magic", bi_magic);
}

}  // namespace matfuse
