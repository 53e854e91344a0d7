// Builtins of the "signal" family, piecewise polynomials: mkpp, unmkpp, ppval.
//
// A piecewise polynomial is MATLAB's pp struct with fields (in this order)
//   form   'pp'
//   breaks 1 x (l+1) row of increasing break points
//   coefs  (prod(d)*l) x k coefficients, highest power first, local to each piece: piece j
//          (breaks(j) <= x < breaks(j+1)) of component i is sum_m coefs(r, m) (x-breaks(j))^(k-m)
//          with row r = i + prod(d)*(j-1) (the component index varies fastest)
//   pieces l, order k, dim d (a row vector of the value dimensions, 1 for scalar values).
// ppval evaluates outside [breaks(1), breaks(end)] with the first or last piece (extrapolation).
#include <algorithm>
#include <cmath>

#include "builtins/signal_detail.h"

namespace matfuse::sig {

namespace {

[[noreturn]] void not_pp(const char* fname) {
  throw_error("MATLAB:ppval:InvalidPP", "%s: argument must be a pp-form structure.", fname);
}

/// The fields of a pp struct (validated).
struct PP {
  std::vector<double> breaks;
  Tensor coefs;  // L x k
  int64_t pieces = 0, order = 0;
  std::vector<int64_t> dim;  // value dimensions
  int64_t dprod = 1;
};

PP read_pp(const Value& v, const char* fname) {
  if (!v.is_struct() || v.struct_array().numel() != 1) not_pp(fname);
  const StructArray& s = v.struct_array();
  int f = s.field_index("form");
  if (f < 0 || !s.get(0, f).is_text() || s.get(0, f).to_text() != "pp") not_pp(fname);
  int fb = s.field_index("breaks"), fc = s.field_index("coefs"), fd = s.field_index("dim");
  if (fb < 0 || fc < 0) not_pp(fname);
  PP p;
  p.breaks = elems<double>(operand(s.get(0, fb), fname));
  p.coefs = operand(s.get(0, fc), fname);
  if (p.breaks.size() < 2) not_pp(fname);
  p.pieces = static_cast<int64_t>(p.breaks.size()) - 1;
  std::vector<double> d{1.0};
  if (fd >= 0) d = elems<double>(operand(s.get(0, fd), fname));
  std::vector<int64_t> dv;
  for (double x : d) {
    if (!(x >= 0) || x != std::floor(x)) not_pp(fname);
    dv.push_back(static_cast<int64_t>(x));
    p.dprod *= dv.back();
  }
  if (dv.empty()) dv.push_back(1);
  p.dim = dv;
  int64_t rows = p.dprod * p.pieces;
  if (rows == 0 || p.coefs.numel() % rows != 0) not_pp(fname);
  p.order = p.coefs.numel() / rows;
  return p;
}

/// pp = mkpp(breaks, coefs [, d]): the pp struct of the given breaks (l+1 of them, a vector),
/// coefficients (any shape with prod(d)*l*k elements, reshaped to prod(d)*l x k) and value
/// dimensions d (default 1). Errors: MATLAB:mkpp:BreaksTooFew, MATLAB:mkpp:PPNumberMismatchCoeffs.
Outputs bi_mkpp(CallContext&, Args args, int nargout) {
  check_nargin(args, 2, 3);
  check_nargout(nargout, 1);
  Tensor bt = operand(args[0], "mkpp"), ct = operand(args[1], "mkpp");
  if (bt.numel() < 2)
    throw_error("MATLAB:mkpp:BreaksTooFew", "There must be at least two break points.");
  std::vector<int64_t> dv{1};
  if (args.size() == 3) {
    dv.clear();
    for (double x : elems<double>(operand(args[2], "mkpp"))) {
      if (!(x >= 0) || x != std::floor(x))
        throw_error("MATLAB:mkpp:InvalidDim", "D must be a vector of nonnegative integers.");
      dv.push_back(static_cast<int64_t>(x));
    }
    if (dv.empty()) dv.push_back(1);
  }
  int64_t dprod = 1;
  for (int64_t x : dv) dprod *= x;
  int64_t l = bt.numel() - 1, rows = dprod * l;
  if (rows == 0 || ct.numel() == 0 || ct.numel() % rows != 0)
    throw_error("MATLAB:mkpp:PPNumberMismatchCoeffs",
                "The number of coefficients must be a multiple of prod(D) times the number of pieces.");
  int64_t k = ct.numel() / rows;
  std::vector<double> b = elems<double>(bt);
  return {make_pp(b, ct.reshaped(Dims(rows, k)), dv)};
}

/// [breaks, coefs, l, k, d] = unmkpp(pp): the fields of a pp struct.
Outputs bi_unmkpp(CallContext&, Args args, int nargout) {
  check_nargin(args, 1, 1);
  check_nargout(nargout, 5);
  if (!args[0].is_struct() || args[0].struct_array().field_index("form") < 0)
    throw_error("MATLAB:unmkpp:InvalidPP", "unmkpp: the input must be a piecewise polynomial structure.");
  PP p;
  try {
    p = read_pp(args[0], "unmkpp");
  } catch (const MatlabError&) {
    throw_error("MATLAB:unmkpp:InvalidPP", "unmkpp: the input must be a piecewise polynomial structure.");
  }
  Outputs out;
  out.push_back(Value(make(Dims(1, p.pieces + 1), p.breaks, ClassId::Double)));
  out.push_back(Value(p.coefs.reshaped(Dims(p.dprod * p.pieces, p.order))));
  out.push_back(Value(static_cast<double>(p.pieces)));
  out.push_back(Value(static_cast<double>(p.order)));
  std::vector<double> d(p.dim.begin(), p.dim.end());
  out.push_back(Value(make(Dims(1, static_cast<int64_t>(d.size())), d, ClassId::Double)));
  out.resize(static_cast<size_t>(std::max(nargout, 1)));
  return out;
}

/// v = ppval(pp, xq): the piecewise polynomial at the points xq (outside the breaks the end
/// pieces extrapolate; NaN points give NaN). Size: size(xq) for scalar values, else
/// [d, numel(xq)] for a vector xq and [d, size(xq)] otherwise.
Outputs bi_ppval(CallContext&, Args args, int nargout) {
  check_nargin(args, 2, 2);
  check_nargout(nargout, 1);
  PP p = read_pp(args[0], "ppval");
  Tensor xt = operand(args[1], "ppval");
  std::vector<double> x = elems<double>(xt);
  bool cplx = p.coefs.is_complex();
  ClassId c = result_class({&p.coefs, &xt});
  int64_t nx = static_cast<int64_t>(x.size()), D = p.dprod, L = D * p.pieces, k = p.order;
  auto run = [&](auto tag) {
    using T = decltype(tag);
    std::vector<T> cf = elems<T>(p.coefs), out(static_cast<size_t>(nx * D));
    for (int64_t i = 0; i < nx; ++i) {
      double q = x[i];
      if (std::isnan(q)) {
        for (int64_t r = 0; r < D; ++r) out[i * D + r] = T(NAN);
        continue;
      }
      int64_t j = std::upper_bound(p.breaks.begin(), p.breaks.end(), q) - p.breaks.begin() - 1;
      j = std::clamp<int64_t>(j, 0, p.pieces - 1);
      double t = q - p.breaks[j];
      for (int64_t r = 0; r < D; ++r) {
        int64_t row = r + D * j;
        T s(0);
        for (int64_t m = 0; m < k; ++m) s = s * t + cf[m * L + row];
        out[i * D + r] = s;
      }
    }
    Dims od;
    bool scalar_vals = p.dim.size() == 1 && p.dim[0] == 1;
    if (scalar_vals) {
      od = xt.dims();
    } else {
      std::vector<int64_t> dv = p.dim;
      if (xt.dims().is_vector()) dv.push_back(nx);
      else
        for (int i = 0; i < xt.dims().ndims(); ++i) dv.push_back(xt.dims()[i]);
      od = Dims(dv[0], dv.size() > 1 ? dv[1] : 1);
      for (size_t i = 2; i < dv.size(); ++i) od.push_back(dv[i]);
      od.normalize();
    }
    return Value(make(od, out, c));
  };
  return {cplx ? run(cd{}) : run(double{})};
}

}  // namespace

Value make_pp(const std::vector<double>& breaks, const Tensor& coefs,
              const std::vector<int64_t>& d) {
  int64_t l = static_cast<int64_t>(breaks.size()) - 1;
  int64_t k = coefs.dims().ndims() >= 2 ? coefs.dims()[1] : 1;
  StructArray s(Dims(1, 1));
  s.at(0, s.add_field("form")) = Value::from_chars("pp");
  s.at(0, s.add_field("breaks")) = Value(make(Dims(1, l + 1), breaks, ClassId::Double));
  s.at(0, s.add_field("coefs")) = Value(coefs);
  s.at(0, s.add_field("pieces")) = Value(static_cast<double>(l));
  s.at(0, s.add_field("order")) = Value(static_cast<double>(k));
  std::vector<double> dv(d.begin(), d.end());
  s.at(0, s.add_field("dim")) =
      Value(make(Dims(1, static_cast<int64_t>(dv.size())), dv, ClassId::Double));
  return Value(s);
}

void register_pp(Registry& r) {
  r.add("mkpp", bi_mkpp);
  r.add("unmkpp", bi_unmkpp);
  r.add("ppval", bi_ppval);
}

}  // namespace matfuse::sig
