// Grid and block builtins of the "arrays" family: meshgrid ndgrid kron blkdiag sub2ind ind2sub.
#include <cmath>

#include "builtins/math_util.h"
#include "builtins/registry.h"
#include "builtins/shape_util.h"
#include "runtime/error.h"

namespace matfuse {
namespace {

using namespace mathutil;

/// An array of dims `out` whose element with subscript s along dimension `dim` is v(s) (v read
/// as a vector in linear order). Keeps v's class and kind.
Value spread(const Value& v, const Dims& out, int dim) {
  const auto st = strides_of(out);
  std::vector<int64_t> src(static_cast<size_t>(out.numel()));
  for (size_t i = 0; i < src.size(); ++i)
    src[i] = (static_cast<int64_t>(i) / st[dim]) % out[dim];
  return gather_elements(v, out, src);
}

/// [X, Y] = meshgrid(x, y) (ny-by-nx), [X, Y, Z] = meshgrid(x, y, z) (ny-by-nx-by-nz);
/// meshgrid(x) means meshgrid(x, x) (and meshgrid(x, x, x) for three outputs).
Outputs bi_meshgrid(CallContext&, Args args, int nargout) {
  check_nargin(args, 1, 3);
  const int no = std::max(nargout, 1);
  std::vector<Value> v(args.begin(), args.end());
  if (v.size() == 1) v.assign(no == 3 ? 3 : 2, args[0]);
  check_nargout(nargout, static_cast<int>(v.size()));
  Dims out(v[1].numel(), v[0].numel());
  if (v.size() == 3) out = Dims{v[1].numel(), v[0].numel(), v[2].numel()};
  out.normalize();
  Outputs r;
  const int dim_of[3] = {1, 0, 2};
  for (int i = 0; i < no; ++i) r.push_back(spread(v[i], out, dim_of[i]));
  return r;
}

/// [X1, ..., Xn] = ndgrid(x1, ..., xn): Xi varies along dimension i; ndgrid(x) with n outputs
/// uses x for every dimension; ndgrid(x) with one output is x as a column.
Outputs bi_ndgrid(CallContext&, Args args, int nargout) {
  if (args.empty()) check_nargin(args, 1, 1);
  const int no = std::max(nargout, 1);
  std::vector<Value> v(args.begin(), args.end());
  if (v.size() == 1) v.assign(static_cast<size_t>(no), args[0]);
  check_nargout(nargout, static_cast<int>(v.size()));
  Dims out = Dims(v[0].numel(), v.size() == 1 ? 1 : v[1].numel());
  for (size_t k = 2; k < v.size(); ++k) out.set(static_cast<int>(k), v[k].numel());
  out.normalize();
  Outputs r;
  for (int i = 0; i < no; ++i) r.push_back(spread(v[i], out, i));
  return r;
}

/// kron(A, B): Kronecker tensor product, out(i*size(B)+j) = A(i) .* B(j) along every dimension
/// (N-d supported); class and complex rules are those of times.
Outputs bi_kron(CallContext& ctx, Args args, int nargout) {
  check_nargin(args, 2, 2);
  check_nargout(nargout, 1);
  for (int i = 0; i < 2; ++i)
    if (!args[i].is_tensor()) undefined_for("kron", args[i]);
  const Dims da = args[0].dims(), db = args[1].dims();
  const int nd = std::max(da.ndims(), db.ndims());
  Dims out = Dims(da[0] * db[0], da[1] * db[1]);
  for (int k = 2; k < nd; ++k) out.set(k, da[k] * db[k]);
  out.normalize();
  const auto sa = strides_of(da), sb = strides_of(db), so = strides_of(out);
  std::vector<int64_t> ia(static_cast<size_t>(out.numel())), ib(ia.size());
  for (size_t i = 0; i < ia.size(); ++i) {
    int64_t a = 0, b = 0;
    for (int k = 0; k < nd; ++k) {
      const int64_t s = (static_cast<int64_t>(i) / so[k]) % out[k];
      a += (s / db[k]) * (k < da.ndims() ? sa[k] : 0);
      b += (s % db[k]) * (k < db.ndims() ? sb[k] : 0);
    }
    ia[i] = a, ib[i] = b;
  }
  return {call1(ctx, "times", {gather_elements(args[0], out, ia), gather_elements(args[1], out, ib)})};
}

/// blkdiag(A, B, ...): block-diagonal matrix of 2-D inputs. Class: an integer class if any
/// input has one, else single if any, else char/logical when all are, else double.
Outputs bi_blkdiag(CallContext&, Args args, int nargout) {
  check_nargout(nargout, 1);
  int64_t rows = 0, cols = 0;
  bool cplx = false, all_char = true, all_logical = true, single = false;
  ClassId integer = ClassId::Double;
  for (const Value& v : args) {
    if (!v.is_tensor()) undefined_for("blkdiag", v);
    const Tensor t = v.tensor();
    if (t.dims().ndims() != 2) throw_error("MATLAB:blkdiag:inputMustBe2D", "Inputs must be 2-D.");
    rows += t.dims()[0], cols += t.dims()[1];
    cplx = cplx || t.is_complex();
    all_char = all_char && t.cls() == ClassId::Char;
    all_logical = all_logical && t.cls() == ClassId::Logical;
    single = single || t.cls() == ClassId::Single;
    if (is_integer_class(t.cls())) integer = t.cls();
  }
  ClassId cls = ClassId::Double;
  if (integer != ClassId::Double) cls = integer;
  else if (single) cls = ClassId::Single;
  else if (!args.empty() && all_char) cls = ClassId::Char;
  else if (!args.empty() && all_logical) cls = ClassId::Logical;
  Tensor r = Tensor::zeros(cls, Dims(rows, cols), cplx);
  int64_t r0 = 0, c0 = 0;
  for (const Value& v : args) {
    const Tensor t = v.tensor();
    const int64_t m = t.dims()[0], n = t.dims()[1];
    for (int64_t j = 0; j < n; ++j)
      for (int64_t i = 0; i < m; ++i) {
        const int64_t o = (r0 + i) + (c0 + j) * rows;
        if (cplx) r.set_complex(o, t.get_complex(i + j * m));
        else r.set_double(o, t.get_double(i + j * m));
      }
    r0 += m, c0 += n;
  }
  return {Value(r)};
}

/// Size vector argument of sub2ind/ind2sub (at least two nonnegative integers).
std::vector<double> size_arg(const Value& v, const char* id) {
  if (!v.is_tensor() || v.tensor().is_complex() || !v.dims().is_vector() || v.numel() < 2)
    throw_error(id, "Size vector must have at least 2 elements.");
  std::vector<double> sz = doubles_of(v, "sub2ind");
  for (double s : sz)
    if (!is_int_value(s) || s < 0) throw_error(id, "Size vector must have at least 2 elements.");
  return sz;
}

/// sub2ind(sz, i1, ..., in): linear indices of the subscripts (double, the subscripts' size).
/// Fewer subscripts than dimensions fold the trailing dimensions into the last one; extra
/// subscripts index singleton dimensions.
Outputs bi_sub2ind(CallContext&, Args args, int nargout) {
  check_nargin(args, 2, 1000);
  check_nargout(nargout, 1);
  std::vector<double> sz = size_arg(args[0], "MATLAB:sub2ind:InvalidSize");
  const size_t ns = args.size() - 1;
  if (ns < sz.size()) {  // fold trailing dims
    double p = 1;
    for (size_t k = ns - 1; k < sz.size(); ++k) p *= sz[k];
    sz.resize(ns);
    sz[ns - 1] = p;
  }
  sz.resize(std::max(sz.size(), ns), 1.0);
  const Dims d = args[1].dims();
  for (size_t k = 1; k <= ns; ++k)
    if (args[k].dims() != d)
      throw_error("MATLAB:sub2ind:SubscriptVectorSize", "The subscript vectors must all be of the same size.");
  Tensor r = Tensor::zeros(ClassId::Double, d);
  double* o = r.mutable_data<double>();
  double stride = 1;
  for (size_t k = 0; k < ns; ++k) {
    const std::vector<double> s = doubles_of(args[k + 1], "sub2ind");
    for (size_t i = 0; i < s.size(); ++i) {
      if (!(s[i] >= 1 && s[i] <= sz[k]))
        throw_error("MATLAB:sub2ind:IndexOutOfRange", "Out of range subscript.");
      if (!is_int_value(s[i]))
        throw_error("MATLAB:sub2ind:SubscriptNotInteger", "Subscript indices must either be real positive integers or logicals.");
      o[i] += (s[i] - 1) * stride;
    }
    stride *= sz[k];
  }
  for (int64_t i = 0; i < r.numel(); ++i) o[i] += 1;
  return {Value(r)};
}

/// [i1, ..., in] = ind2sub(sz, ind): subscripts of linear indices. With fewer outputs than
/// dimensions the last output indexes the folded trailing dimensions (one output: ind itself);
/// extra outputs are 1.
Outputs bi_ind2sub(CallContext&, Args args, int nargout) {
  check_nargin(args, 2, 2);
  const std::vector<double> sz0 = size_arg(args[0], "MATLAB:ind2sub:InvalidSize");
  if (!args[1].is_tensor() || args[1].tensor().is_complex())
    throw_error("MATLAB:ind2sub:RealSubscript", "Subscript indices must be real.");
  const size_t no = static_cast<size_t>(std::max(nargout, 1));
  std::vector<double> sz = sz0;
  if (no < sz.size()) {
    double p = 1;
    for (size_t k = no - 1; k < sz.size(); ++k) p *= sz[k];
    sz.resize(no);
    sz[no - 1] = p;
  }
  sz.resize(std::max(sz.size(), no), 1.0);
  double total = 1;
  for (double s : sz0) total *= s;
  const std::vector<double> ind = doubles_of(args[1], "ind2sub");
  for (double v : ind)
    if (!(v >= 1 && v <= total) || !is_int_value(v))
      throw_error("MATLAB:ind2sub:IndexOutOfRange", "Index out of range.");
  const Dims d = args[1].dims();
  Outputs out;
  std::vector<double> rem(ind.size());
  for (size_t i = 0; i < ind.size(); ++i) rem[i] = ind[i] - 1;
  for (size_t k = 0; k < no; ++k) {
    Tensor t = Tensor::uninit(ClassId::Double, d);
    double* o = t.mutable_data<double>();
    for (size_t i = 0; i < ind.size(); ++i) {
      if (k + 1 == no) o[i] = rem[i] + 1;
      else {
        o[i] = std::fmod(rem[i], sz[k]) + 1;
        rem[i] = std::floor(rem[i] / sz[k]);
      }
    }
    out.push_back(Value(t));
  }
  return out;
}

}  // namespace

/// Registers the functions of this file (called from register_arrays).
void register_arrays_grid(Registry& r) {
  r.add("meshgrid", bi_meshgrid);
  r.add("ndgrid", bi_ndgrid);
  r.add("kron", bi_kron);
  r.add("blkdiag", bi_blkdiag);
  r.add("sub2ind", bi_sub2ind);
  r.add("ind2sub", bi_ind2sub);
}

}  // namespace matfuse
