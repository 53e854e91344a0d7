// Builtins of the "reduce" family: sum prod mean min max any all cumsum norm.
// Argument parsing lives here; the kernels are in reduce_core.cc and reduce_minmax.cc.
#include "runtime/reduce.h"

#include <algorithm>
#include <cctype>
#include <cmath>

#include "accel/run/window.h"
#include "accel/capture/capture.h"
#include "builtins/data_util.h"
#include "builtins/norm.h"
#include "builtins/linalg_device.h"
#include "runtime/reduce_layout.h"
#include "builtins/registry.h"
#include "runtime/scalar_ops.h"

namespace matfuse {
namespace {

std::string lower(std::string s) {
  for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

Tensor data_arg(const Value& v, const char* fname) {
  if (!v.is_tensor())
    throw_error("MATLAB:UndefinedFunction", "Undefined function '%s' for input arguments of type '%s'.",
                fname, v.class_name().c_str());
  return v.tensor();
}

/// Parsed trailing arguments of a reduction call.
struct RedArgs {
  bool has_dim = false;
  bool all = false;
  std::vector<int> dims;  // 0-based
  OutType out = OutType::Default;
  NanFlag nan = NanFlag::Include;
  bool nan_set = false;
  bool reverse = false;
  bool linear = false;
  MinMaxCompare cmp = MinMaxCompare::Auto;
};

enum Allow : unsigned { kOutType = 1, kNan = 2, kDirection = 4, kLinear = 8, kCompare = 16 };

[[noreturn]] void bad_dim() {
  throw_error("MATLAB:getdimarg:invalidDim",
              "Dimension argument must be a positive integer scalar, a vector of unique positive "
              "integers, or 'all'.");
}

RedArgs parse(Args args, size_t start, unsigned allow, const char* fname) {
  RedArgs r;
  for (size_t i = start; i < args.size(); ++i) {
    const Value& a = args[i];
    if (a.is_text()) {
      std::string s = lower(a.to_text());
      if (s == "all" && !r.has_dim && i == start) { r.all = true; r.has_dim = true; continue; }
      if ((allow & kOutType) && (s == "double" || s == "native" || s == "default")) {
        r.out = s == "double" ? OutType::Double : s == "native" ? OutType::Native : OutType::Default;
        continue;
      }
      if ((allow & kNan) && (s == "omitnan" || s == "includenan" || s == "omitmissing" ||
                             s == "includemissing")) {
        r.nan = s.rfind("omit", 0) == 0 ? NanFlag::Omit : NanFlag::Include;
        r.nan_set = true;
        continue;
      }
      if ((allow & kDirection) && (s == "forward" || s == "reverse")) {
        r.reverse = s == "reverse";
        continue;
      }
      if ((allow & kLinear) && s == "linear") { r.linear = true; continue; }
      if ((allow & kCompare) && s == "comparisonmethod") {
        std::string m = i + 1 < args.size() && args[i + 1].is_text() ? lower(args[i + 1].to_text()) : "";
        if (m != "auto" && m != "abs" && m != "real")
          throw_error("MATLAB:max:InvalidComparisonMethod",
                      "'ComparisonMethod' value must be 'auto', 'real', or 'abs'.");
        r.cmp = m == "abs" ? MinMaxCompare::Abs : m == "real" ? MinMaxCompare::Real : MinMaxCompare::Auto;
        ++i;
        continue;
      }
      throw_error("MATLAB:invalidOption", "Invalid option '%s' for %s.", s.c_str(), fname);
    }
    if (i != start || r.has_dim) bad_dim();
    r.dims = data::vecdim_arg(a);
    r.has_dim = true;
  }
  return r;
}

accel::ReduceOut red_out(OutType o) {
  return o == OutType::Double   ? accel::ReduceOut::Double
         : o == OutType::Native ? accel::ReduceOut::Native
                                : accel::ReduceOut::Default;
}

/// The lazy form of a single-output reduction (see accel/capture/capture.h), or nullopt.
std::optional<Tensor> lazy_reduce(accel::ReduceKind k, const Tensor& x, const std::vector<int>& d,
                                  bool omitnan, OutType out = OutType::Default) {
  return accel::capture_reduce(k, x, d, omitnan, red_out(out));
}

std::vector<int> all_dims_of(const Dims& d) {
  std::vector<int> v;
  for (int k = 0; k < d.ndims(); ++k) v.push_back(k);
  return v;
}

/// Reduction dims for the sum-like family (0x0 input without dim reduces to a scalar).
std::vector<int> red_dims(const RedArgs& r, const Tensor& x, bool empty_to_scalar) {
  if (r.all) return all_dims_of(x.dims());
  if (r.has_dim) return r.dims;
  if (empty_to_scalar && x.dims() == Dims(0, 0)) return {0, 1};
  return {first_nonsingleton_dim(x.dims())};
}

Outputs bi_sum(CallContext&, Args args, int nargout) {
  check_nargin(args, 1, 4);
  check_nargout(nargout, 1);
  Tensor x = data_arg(args[0], "sum");
  RedArgs r = parse(args, 1, kOutType | kNan, "sum");
  const std::vector<int> d = red_dims(r, x, true);
  if (auto lazy = lazy_reduce(accel::ReduceKind::Sum, x, d, r.nan == NanFlag::Omit, r.out))
    return {Value(std::move(*lazy))};
  return {Value(sum_dims(x, d, r.out, r.nan))};
}

Outputs bi_prod(CallContext&, Args args, int nargout) {
  check_nargin(args, 1, 4);
  check_nargout(nargout, 1);
  Tensor x = data_arg(args[0], "prod");
  RedArgs r = parse(args, 1, kOutType | kNan, "prod");
  const std::vector<int> d = red_dims(r, x, true);
  if (auto lazy = lazy_reduce(accel::ReduceKind::Prod, x, d, r.nan == NanFlag::Omit, r.out))
    return {Value(std::move(*lazy))};
  return {Value(prod_dims(x, d, r.out, r.nan))};
}

Outputs bi_mean(CallContext&, Args args, int nargout) {
  check_nargin(args, 1, 4);
  check_nargout(nargout, 1);
  Tensor x = data_arg(args[0], "mean");
  RedArgs r = parse(args, 1, kOutType | kNan, "mean");
  const std::vector<int> d = red_dims(r, x, true);
  if (auto lazy = lazy_reduce(accel::ReduceKind::Mean, x, d, r.nan == NanFlag::Omit, r.out))
    return {Value(std::move(*lazy))};
  return {Value(mean_dims(x, d, r.out, r.nan))};
}

Outputs bi_any_all(Args args, int nargout, bool is_any) {
  const char* name = is_any ? "any" : "all";
  check_nargin(args, 1, 3);
  check_nargout(nargout, 1);
  Tensor x = data_arg(args[0], name);
  RedArgs r = parse(args, 1, kNan, name);
  if (r.nan_set && r.nan == NanFlag::Omit && is_float_class(x.cls())) {
    // 'omitnan': NaN elements are ignored (any: as false, all: as true).
    Tensor y = Tensor::uninit(ClassId::Logical, x.dims());
    bool* yp = y.mutable_data<bool>();
    for (int64_t i = 0; i < x.numel(); ++i) {
      auto z = x.get_complex(i);
      yp[i] = (std::isnan(z.real()) || std::isnan(z.imag())) ? !is_any : z != std::complex<double>(0);
    }
    x = y;
  }
  std::vector<int> d = red_dims(r, x, true);
  if (auto lazy = lazy_reduce(is_any ? accel::ReduceKind::Any : accel::ReduceKind::All, x, d, false))
    return {Value(std::move(*lazy))};
  return {Value(is_any ? any_dims(x, d) : all_dims(x, d))};
}
Outputs bi_any(CallContext&, Args args, int nargout) { return bi_any_all(args, nargout, true); }
Outputs bi_all(CallContext&, Args args, int nargout) { return bi_any_all(args, nargout, false); }

Outputs bi_cumsum(CallContext&, Args args, int nargout) {
  check_nargin(args, 1, 4);
  check_nargout(nargout, 1);
  Tensor x = data_arg(args[0], "cumsum");
  RedArgs r = parse(args, 1, kNan | kDirection, "cumsum");
  if (r.all || r.dims.size() > 1) bad_dim();
  int dim = r.has_dim ? r.dims[0] : first_nonsingleton_dim(x.dims());
  if (dim < x.dims().ndims())
    if (auto d = accel::cumulative_sum(x, dim, r.reverse, r.nan == NanFlag::Omit))
      return {Value(std::move(*d))};
  return {Value(cumsum_dim(x, dim, r.reverse, r.nan))};
}

Outputs bi_minmax(Args args, int nargout, bool is_max) {
  const char* name = is_max ? "max" : "min";
  check_nargin(args, 1, 7);
  check_nargout(nargout, 2);
  Tensor x = data_arg(args[0], name);
  bool binary = args.size() == 2 || (args.size() >= 3 && !args[1].is_empty());
  if (args.size() == 2 && args[1].is_text()) {
    // max(A, 'omitnan') is not a MATLAB form: the second argument must be [] for options.
    binary = true;
  }
  if (binary) {
    if (nargout > 1)
      throw_error("MATLAB:max:TwoInTwoOutCaseNotSupported",
                  "%s with two matrices to compare and two output arguments is not supported.",
                  is_max ? "MAX" : "MIN");
    Tensor y = data_arg(args[1], name);
    RedArgs r = parse(args, 2, kNan | kCompare, name);
    if (r.has_dim) bad_dim();
    NanFlag nf = r.nan_set ? r.nan : NanFlag::Omit;
    if (nf == NanFlag::Omit && r.cmp == MinMaxCompare::Auto)
      if (auto lazy = accel::capture_binary(is_max ? OpId::Max : OpId::Min, x, y))
        return {Value(std::move(*lazy))};
    return {Value(minmax_binary(x, y, is_max, nf, r.cmp))};
  }
  RedArgs r = parse(args, 2, kNan | kLinear | kCompare, name);
  NanFlag nf = r.nan_set ? r.nan : NanFlag::Omit;
  std::vector<int> d = red_dims(r, x, false);
  if (nargout < 2) {
    if (r.cmp == MinMaxCompare::Auto)
      if (auto lazy = lazy_reduce(is_max ? accel::ReduceKind::Max : accel::ReduceKind::Min, x, d,
                                  nf == NanFlag::Omit))
        return {Value(std::move(*lazy))};
    return {Value(minmax_dims(x, d, is_max, nf, nullptr, r.cmp))};
  }
  Tensor idx;
  Tensor m = minmax_dims(x, d, is_max, nf, &idx, r.cmp);
  if (r.linear && !idx.is_empty()) {
    reduce_detail::Layout L = reduce_detail::make_layout(x, d);
    if (L.src.dims() != x.dims() && L.pre != 1)
      throw_error("matfuse:notAvailable", "'linear' with this dimension vector is not supported yet.");
    double* ip = idx.mutable_data<double>();
    for (int64_t b = 0; b < L.post; ++b)
      for (int64_t i = 0; i < L.pre; ++i) {
        double& v = ip[b * L.pre + i];
        v = static_cast<double>((b * L.n + static_cast<int64_t>(v) - 1) * L.pre + i + 1);
      }
  }
  return {Value(m), Value(idx)};
}
Outputs bi_max(CallContext&, Args args, int nargout) { return bi_minmax(args, nargout, true); }
Outputs bi_min(CallContext&, Args args, int nargout) { return bi_minmax(args, nargout, false); }

Outputs bi_norm(CallContext&, Args args, int nargout) {
  check_nargin(args, 1, 2);
  check_nargout(nargout, 1);
  Tensor x = data_arg(args[0], "norm");
  double p = 2;
  bool fro = false;
  if (args.size() == 2) {
    if (args[1].is_text()) {
      std::string s = lower(args[1].to_text());
      if (s == "fro") fro = true;
      else if (s == "inf") p = INFINITY;
      else if (s == "-inf") p = -INFINITY;
      else
        throw_error("MATLAB:norm:unknownNorm",
                    "The only matrix norms available are 1, 2, inf, and 'fro'.");
    } else {
      p = args[1].to_double("norm type");
    }
  }
  // The 2-norm of a matrix is its largest singular value: on the device when x lives there.
  if (p == 2 && !fro && x.dims().ndims() == 2 && !x.dims().is_vector() && x.numel() > 0)
    if (auto s = linalg_device::singular_values(x))
      return {Value(Tensor::scalar(s->front(), x.cls() == ClassId::Single ? ClassId::Single
                                                                          : ClassId::Double))};
  // The 2-norm of a vector and the Frobenius norm stay lazy (where the data is: a device
  // value is not gathered for its norm).
  if ((fro || (p == 2 && x.dims().is_vector())) && x.dims().ndims() == 2 && x.numel() > 1) {
    if (auto lazy = accel::capture_norm2(x, {0, 1})) return {Value(std::move(*lazy))};
  }
  return {Value(norm_tensor(x, p, fro))};
}

double identity1(double x) { return x; }
double abs1(double x) { return std::fabs(x); }
double max2(double a, double b) { return mf_max(a, b); }
double min2(double a, double b) { return mf_min(a, b); }

}  // namespace

// Scalar fast paths: a reduction of a real double scalar is the scalar itself (norm: its
// magnitude); two-argument max/min use the shared NaN-ignoring scalar semantics.
void register_reduce(Registry& r) {
  r.add("sum", bi_sum, identity1);
  r.add("prod", bi_prod, identity1);
  r.add("mean", bi_mean, identity1);
  r.add("min", bi_min, identity1, min2);
  r.add("max", bi_max, identity1, max2);
  r.add("any", bi_any);
  r.add("all", bi_all);
  r.add("cumsum", bi_cumsum, identity1);
  r.add("norm", bi_norm, abs1);
}

}  // namespace matfuse
