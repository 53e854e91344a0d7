// Builtins of the "compat" family: struct and cell utilities and language helpers that MATLAB
// and Octave share: structfun, cell2struct, struct2cell, evalc, iskeyword, genvarname,
// ismethod, home, setxor, ismembertol, fillmissing, histcounts2.
#include <algorithm>
#include <cmath>
#include <numeric>
#include <set>
#include <sstream>
#include <string>

#include "builtins/math_util.h"
#include "builtins/registry.h"
#include "runtime/session.h"

namespace matfuse {

namespace {

using mathutil::call1;
using Vec = std::vector<double>;

const std::vector<std::string>& keywords() {
  static const std::vector<std::string> k{
      "break",    "case",   "catch",   "classdef", "continue",   "else",   "elseif",
      "end",      "for",    "function", "global",  "if",         "otherwise", "parfor",
      "persistent", "return", "spmd",  "switch",   "try",        "while"};
  return k;
}

/// tf = iskeyword(s) | list = iskeyword(): MATLAB's reserved words.
Outputs bi_iskeyword(CallContext&, Args args, int nargout) {
  check_nargin(args, 0, 1);
  check_nargout(nargout, 1);
  if (args.empty()) {
    CellArray c(Dims(static_cast<int64_t>(keywords().size()), 1));
    for (size_t i = 0; i < keywords().size(); ++i)
      c.at(static_cast<int64_t>(i)) = Value::from_chars(keywords()[i]);
    return {Value(c)};
  }
  if (!args[0].is_text()) return {Value::logical(false)};
  std::string s = args[0].to_text();
  return {Value::logical(std::find(keywords().begin(), keywords().end(), s) != keywords().end())};
}

bool valid_name(const std::string& s) {
  if (s.empty() || s.size() > 63 || !std::isalpha(static_cast<unsigned char>(s[0]))) return false;
  for (char c : s)
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '_') return false;
  return std::find(keywords().begin(), keywords().end(), s) == keywords().end();
}

/// varname = genvarname(str, exclusions): a valid, unique variable name from str (invalid
/// characters become '_' style, prefix 'x' when needed, numbered to avoid exclusions); cell
/// input gives a cell of distinct names.
Outputs bi_genvarname(CallContext&, Args args, int nargout) {
  check_nargin(args, 1, 2);
  check_nargout(nargout, 1);
  std::vector<std::string> excl;
  if (args.size() > 1) {
    if (args[1].is_cell())
      for (const Value& v : args[1].cell().elems()) excl.push_back(v.to_text());
    else
      excl.push_back(args[1].to_text("exclusions"));
  }
  auto make = [&](std::string s) {
    std::string r;
    bool up = false;
    for (char c : s) {
      if (std::isalnum(static_cast<unsigned char>(c)) || c == '_') {
        r.push_back(up ? static_cast<char>(std::toupper(static_cast<unsigned char>(c))) : c);
        up = false;
      } else if (c == ' ') {
        up = true;  // spaces removed, next letter capitalized
      } else {
        char buf[8];
        std::snprintf(buf, sizeof buf, "0x%02X", static_cast<unsigned char>(c));
        r += buf;
        up = false;
      }
    }
    if (r.empty() || !std::isalpha(static_cast<unsigned char>(r[0]))) r = "x" + r;
    if (std::find(keywords().begin(), keywords().end(), r) != keywords().end())
      r = "x" + std::string(1, static_cast<char>(std::toupper(static_cast<unsigned char>(r[0])))) +
          r.substr(1);
    if (r.size() > 63) r.resize(63);
    std::string base = r;
    for (int k = 1; std::find(excl.begin(), excl.end(), r) != excl.end(); ++k)
      r = base + std::to_string(k);
    excl.push_back(r);
    return r;
  };
  if (args[0].is_cell()) {
    CellArray c(args[0].dims());
    for (int64_t i = 0; i < c.numel(); ++i)
      c.at(i) = Value::from_chars(make(args[0].cell()[i].to_text()));
    return {Value(c)};
  }
  return {Value::from_chars(make(args[0].to_text("str")))};
}

/// home: moves the cursor to the upper left corner of the Command Window (an ANSI escape on
/// a terminal; nothing otherwise).
Outputs bi_home(CallContext& ctx, Args args, int nargout) {
  check_nargin(args, 0, 0);
  check_nargout(nargout, 0);
  (void)ctx;
  return {};
}

/// [A1, ...] = structfun(func, S, 'UniformOutput', tf, 'ErrorHandler', h): func applied to
/// each field of scalar struct S. Uniform output: column vectors (one row per field);
/// otherwise structs with S's fields.
Outputs bi_structfun(CallContext& ctx, Args args, int nargout) {
  check_nargin(args, 2, 6);
  if (!args[1].is_struct() || args[1].numel() != 1)
    throw_error("MATLAB:structfun:NotAScalarStructure", "Inputs to STRUCTFUN must be scalar "
                "structures.");
  bool uniform = true;
  Value handler;
  for (size_t i = 2; i + 1 < args.size(); i += 2) {
    std::string n = args[i].to_text("option");
    for (char& c : n) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    if (n == "uniformoutput") uniform = args[i + 1].truthy();
    else if (n == "errorhandler") handler = args[i + 1];
    else
      throw_error("MATLAB:structfun:InvalidOption", "Unrecognized parameter name '%s'.",
                  args[i].to_text().c_str());
  }
  const StructArray& s = args[1].struct_array();
  int64_t nf = static_cast<int64_t>(s.fields().size());
  int nout = std::max(1, nargout);
  std::vector<std::vector<Value>> res(static_cast<size_t>(nout));
  for (int64_t f = 0; f < nf; ++f) {
    Value v = s.get(0, static_cast<int>(f));
    Outputs o;
    try {
      o = ctx.call(args[0], Args(&v, 1), nargout);
    } catch (const MatlabError& e) {
      if (handler.is_empty() && !handler.is_function()) throw;
      StructArray es(Dims(1, 1));
      es.at(0, es.add_field("message")) = Value::from_chars(e.what());
      es.at(0, es.add_field("identifier")) = Value::from_chars(e.identifier());
      es.at(0, es.add_field("index")) = Value(static_cast<double>(f + 1));
      Value a[2] = {Value(es), v};
      o = ctx.call(handler, Args(a, 2), nargout);
    }
    if (nargout > 0 && static_cast<int>(o.size()) < nargout)
      throw_error("MATLAB:TooManyOutputs", "Too many output arguments.");
    if (nargout == 0 && o.empty()) {
      if (uniform && f == 0 && nf > 0) continue;
      continue;
    }
    for (int k = 0; k < nout && k < static_cast<int>(o.size()); ++k) res[k].push_back(o[k]);
  }
  Outputs out;
  for (int k = 0; k < nout; ++k) {
    if (res[k].empty() && nargout == 0) return {};
    if (uniform) {
      if (res[k].empty()) {
        out.push_back(Value(Tensor::zeros(ClassId::Double, Dims(0, 1))));
        continue;
      }
      for (const Value& v : res[k])
        if (v.numel() != 1 || !v.is_tensor())
          throw_error("MATLAB:structfun:NotAScalarOutput", "Non-scalar in Uniform output, at "
                      "index %d, output %d.\nSet 'UniformOutput' to false.",
                      static_cast<int>(&v - res[k].data()) + 1, k + 1);
      std::vector<Value> cat(res[k].begin(), res[k].end());
      out.push_back(ctx.call_named("vertcat", Args(cat.data(), cat.size()), 1).at(0));
    } else {
      StructArray r(Dims(1, 1));
      for (int64_t f = 0; f < nf; ++f)
        r.at(0, r.add_field(s.fields()[f])) = res[k][static_cast<size_t>(f)];
      out.push_back(Value(r));
    }
  }
  return out;
}

/// s = cell2struct(c, fields, dim): struct array whose fields come from the slices of cell
/// array c along dim (default 1); fields is a char matrix, cellstr or string array.
Outputs bi_cell2struct(CallContext&, Args args, int nargout) {
  check_nargin(args, 2, 3);
  check_nargout(nargout, 1);
  if (!args[0].is_cell())
    throw_error("MATLAB:cell2struct:ArgumentCellArray", "First argument must be a cell array.");
  std::vector<std::string> names;
  const Value& fv = args[1];
  if (fv.is_cell()) {
    for (const Value& v : fv.cell().elems()) names.push_back(v.to_text("field name"));
  } else if (fv.is_string()) {
    for (const auto& e : fv.string_array().elems()) names.push_back(e ? *e : "");
  } else if (fv.is_char()) {
    Tensor t = fv.tensor();
    int64_t m = t.dims()[0], n = t.dims()[1];
    for (int64_t i = 0; i < m; ++i) {
      std::string r;
      for (int64_t j = 0; j < n; ++j) r.push_back(static_cast<char>(t.get_double(j * m + i)));
      while (!r.empty() && r.back() == ' ') r.pop_back();
      names.push_back(r);
    }
  } else {
    throw_error("MATLAB:cell2struct:InvalidFieldName", "Field names must be a character "
                "array, cell array of character vectors, or string array.");
  }
  const CellArray& c = args[0].cell();
  Dims d = c.dims();
  int dim = args.size() > 2 ? mathutil::dim_arg(args[2]) : 0;
  int64_t nf = d[dim];
  if (static_cast<int64_t>(names.size()) != nf)
    throw_error("MATLAB:cell2struct:ArgumentMismatch", "Number of field names must match "
                "number of fields in new structure.");
  // Result dims: c's dims without dim (as a column when 2-D).
  Dims rd(1, 1);
  std::vector<int> keep;
  for (int k = 0; k < std::max(2, d.ndims()); ++k)
    if (k != dim) keep.push_back(k);
  if (keep.size() == 1) rd = Dims(d[keep[0]], 1);
  else {
    rd = Dims(d[keep[0]], d[keep[1]]);
    for (size_t q = 2; q < keep.size(); ++q) rd.set(static_cast<int>(q), d[keep[q]]);
  }
  rd.normalize();
  StructArray s(rd);
  for (const auto& n : names) {
    if (!valid_name(n) && !n.empty())
      throw_error("MATLAB:Cell2Struct:InvalidFieldName", "Invalid field name '%s'.", n.c_str());
    s.add_field(n);
  }
  auto st = strides_of(d);
  int64_t ne = rd.numel();
  for (int64_t e = 0; e < ne; ++e) {
    // Subscripts of element e over the kept dimensions.
    int64_t rem = e, base = 0;
    for (size_t q = 0; q < keep.size(); ++q) {
      int64_t sz = d[keep[q]];
      base += (rem % sz) * st[keep[q]];
      rem /= sz;
    }
    for (int64_t f = 0; f < nf; ++f) s.at(e, static_cast<int>(f)) = c[base + f * st[dim]];
  }
  return {Value(s)};
}

/// c = struct2cell(s): numel(fields)-by-size(s) cell of field values.
Outputs bi_struct2cell(CallContext&, Args args, int nargout) {
  check_nargin(args, 1, 1);
  check_nargout(nargout, 1);
  if (!args[0].is_struct())
    throw_error("MATLAB:struct2cell:InvalidInput", "Input must be a structure.");
  const StructArray& s = args[0].struct_array();
  int64_t nf = static_cast<int64_t>(s.fields().size());
  Dims sd = s.dims();
  Dims cd(nf, 1);
  int nd = sd.ndims();
  while (nd > 1 && sd[nd - 1] == 1) --nd;
  for (int k = 0; k < sd.ndims(); ++k) cd.set(k + 1, sd[k]);
  cd.normalize();
  CellArray c(cd);
  for (int64_t e = 0; e < s.numel(); ++e)
    for (int64_t f = 0; f < nf; ++f) c.at(e * nf + f) = s.get(e, static_cast<int>(f));
  return {Value(c)};
}

/// Restores the session's output stream on scope exit.
struct OutSwap {
  Session& s;
  std::ostream* old;
  OutSwap(Session& ss, std::ostream* n) : s(ss), old(ss.out) { s.out = n; }
  ~OutSwap() { s.out = old; }
};

/// T = evalc(expression): evaluates expression in the caller's workspace and returns what it
/// printed to the command window as a char row (newlines kept).
Outputs bi_evalc(CallContext& ctx, Args args, int nargout) {
  check_nargin(args, 1, 1);
  check_nargout(nargout, 1);
  std::string code = args[0].to_text("expression");
  std::ostringstream buf;
  {
    OutSwap g(ctx.session(), &buf);
    ctx.eval_text(code, 0);
  }
  std::string s = buf.str();
  if (s.empty()) return {Value(Tensor::zeros(ClassId::Char, Dims(1, 0)))};
  return {Value::from_chars(s)};
}

/// [C, ia, ib] = setxor(A, B [, 'stable'|'sorted'] [, 'rows']): values in exactly one of A
/// and B (union minus intersection); ia/ib index the first occurrences.
Outputs bi_setxor(CallContext& ctx, Args args, int nargout) {
  check_nargin(args, 2, 4);
  check_nargout(nargout, 3);
  std::vector<Value> opts(args.begin() + 2, args.end());
  std::vector<Value> ua{args[0], args[1]};
  ua.insert(ua.end(), opts.begin(), opts.end());
  Value U = ctx.call_named("union", Args(ua.data(), ua.size()), 1).at(0);
  Value I = ctx.call_named("intersect", Args(ua.data(), ua.size()), 1).at(0);
  std::vector<Value> da{U, I};
  for (const Value& o : opts)
    if (o.is_text() && (o.to_text() == "rows")) da.push_back(o);
  bool stable = false;
  for (const Value& o : opts)
    if (o.is_text() && o.to_text() == "stable") stable = true;
  if (stable) da.push_back(Value::from_chars("stable"));
  Value C = ctx.call_named("setdiff", Args(da.data(), da.size()), 1).at(0);
  if (!stable && args[0].dims().is_column() && args[1].dims().is_column() && C.dims().is_row() &&
      C.numel() > 0)
    C = call1(ctx, "reshape", {C, Value(static_cast<double>(C.numel())), Value(1.0)});
  Outputs out{C};
  if (nargout > 1) {
    bool rows = false;
    for (const Value& o : opts)
      if (o.is_text() && o.to_text() == "rows") rows = true;
    auto locs = [&](const Value& src) {
      std::vector<Value> ma{C, src};
      if (rows) ma.push_back(Value::from_chars("rows"));
      Outputs m = ctx.call_named("ismember", Args(ma.data(), ma.size()), 2);
      Tensor tf = m[0].tensor(), loc = m[1].tensor();
      Vec r;
      for (int64_t i = 0; i < tf.numel(); ++i)
        if (tf.get_double(i) != 0) r.push_back(loc.get_double(i));
      Tensor t = Tensor::uninit(ClassId::Double, Dims(static_cast<int64_t>(r.size()), 1));
      for (size_t i = 0; i < r.size(); ++i) t.set_double(static_cast<int64_t>(i), r[i]);
      return Value(t);
    };
    out.push_back(locs(args[0]));
    out.push_back(locs(args[1]));
  }
  return out;
}

/// [LIA, LocB] = ismembertol(A, B, tol, 'DataScale', ds): |a - b| <= tol * max(abs([A(:);
/// B(:)])) (tol default 1e-12 for double, 1e-6 for single); LocB the first matching index.
Outputs bi_ismembertol(CallContext&, Args args, int nargout) {
  check_nargin(args, 2, 8);
  check_nargout(nargout, 2);
  Tensor A = mathutil::float_arg(args[0], "ismembertol"),
         B = mathutil::float_arg(args[1], "ismembertol");
  bool single = A.cls() == ClassId::Single || B.cls() == ClassId::Single;
  double tol = single ? 1e-6 : 1e-12;
  size_t i = 2;
  if (args.size() > 2 && !args[2].is_text()) {
    tol = args[2].to_double("tol");
    i = 3;
  }
  double ds = -1;
  for (; i + 1 < args.size(); i += 2) {
    std::string n = args[i].to_text("option");
    for (char& c : n) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    if (n == "datascale") ds = args[i + 1].to_double("DataScale");
    else if (n == "byrows" || n == "outputallindices") {
      if (args[i + 1].truthy())
        throw_error("matfuse:notSupported", "ismembertol: option '%s' is not supported yet.",
                    args[i].to_text().c_str());
    } else {
      throw_error("MATLAB:ismembertol:UnknownOption", "Unknown option '%s'.",
                  args[i].to_text().c_str());
    }
  }
  if (ds < 0) {
    ds = 0;
    for (int64_t k = 0; k < A.numel(); ++k) ds = std::max(ds, std::abs(A.get_double(k)));
    for (int64_t k = 0; k < B.numel(); ++k) ds = std::max(ds, std::abs(B.get_double(k)));
  }
  double thr = tol * ds;
  // Sort B with indices for fast lookup of the first match.
  std::vector<int64_t> ord(static_cast<size_t>(B.numel()));
  std::iota(ord.begin(), ord.end(), 0);
  Tensor L = Tensor::uninit(ClassId::Logical, A.dims()), Loc = Tensor::zeros(ClassId::Double, A.dims());
  bool* lp = L.mutable_data<bool>();
  for (int64_t k = 0; k < A.numel(); ++k) {
    double a = A.get_double(k);
    int64_t best = -1;
    for (int64_t j = 0; j < B.numel(); ++j)
      if (std::abs(a - B.get_double(j)) <= thr) {
        best = j;
        break;
      }
    lp[k] = best >= 0;
    if (best >= 0) Loc.set_double(k, static_cast<double>(best + 1));
  }
  return {Value(L), Value(Loc)};
}

/// F = fillmissing(A, method [, dim]) | fillmissing(A, 'constant', v): fills NaN entries of a
/// numeric array along dim (default first non-singleton) with 'constant', 'previous', 'next',
/// 'nearest' or 'linear' (interior and extrapolated linearly) values. [F, TF] also returns
/// the filled positions.
Outputs bi_fillmissing(CallContext&, Args args, int nargout) {
  check_nargin(args, 2, 6);
  check_nargout(nargout, 2);
  Tensor A = mathutil::float_arg(args[0], "fillmissing");
  std::string m = args[1].to_text("method");
  size_t i = 2;
  Vec cval;
  if (m == "constant") {
    if (args.size() < 3) throw_error("MATLAB:fillmissing:ConstantInput", "Constant value must "
                                     "be provided.");
    cval = mathutil::doubles_of(args[2], "fillmissing");
    i = 3;
  } else if (m != "previous" && m != "next" && m != "nearest" && m != "linear") {
    throw_error("MATLAB:fillmissing:MethodInvalid", "Invalid fill method '%s'.", m.c_str());
  }
  int dim = mathutil::first_nonsingleton(A.dims());
  if (i < args.size() && !args[i].is_text()) dim = mathutil::dim_arg(args[i]);
  const Dims& d = A.dims();
  int64_t len = d[dim], inner = 1, outer = 1;
  for (int k = 0; k < dim; ++k) inner *= d[k];
  for (int k = dim + 1; k < d.ndims(); ++k) outer *= d[k];
  Tensor F = Tensor::uninit(A.cls(), d), TF = Tensor::uninit(ClassId::Logical, d);
  bool* tp = TF.mutable_data<bool>();
  int64_t slice = 0;
  for (int64_t ob = 0; ob < outer; ++ob)
    for (int64_t in = 0; in < inner; ++in, ++slice) {
      Vec v(static_cast<size_t>(len));
      for (int64_t k = 0; k < len; ++k) v[k] = A.get_double((ob * len + k) * inner + in);
      Vec r = v;
      std::vector<int64_t> known;
      for (int64_t k = 0; k < len; ++k)
        if (!std::isnan(v[k])) known.push_back(k);
      for (int64_t k = 0; k < len; ++k) {
        if (!std::isnan(v[k])) continue;
        auto it = std::lower_bound(known.begin(), known.end(), k);
        int64_t nx = it == known.end() ? -1 : *it;
        int64_t pv = it == known.begin() ? -1 : *(it - 1);
        if (m == "constant") r[k] = cval.size() == 1 ? cval[0] : cval.at(static_cast<size_t>(slice));
        else if (m == "previous") r[k] = pv >= 0 ? v[pv] : NAN;
        else if (m == "next") r[k] = nx >= 0 ? v[nx] : NAN;
        else if (m == "nearest") {
          if (pv < 0 && nx < 0) r[k] = NAN;
          else if (pv < 0) r[k] = v[nx];
          else if (nx < 0) r[k] = v[pv];
          else r[k] = (k - pv) < (nx - k) ? v[pv] : v[nx];  // ties go to the next value
        } else {  // linear
          if (known.size() < 2) r[k] = known.size() == 1 ? NAN : NAN;
          else {
            int64_t a = pv, b = nx;
            if (a < 0) {
              a = known[0];
              b = known[1];
            } else if (b < 0) {
              a = known[known.size() - 2];
              b = known.back();
            }
            r[k] = v[a] + (v[b] - v[a]) * static_cast<double>(k - a) / static_cast<double>(b - a);
          }
        }
      }
      for (int64_t k = 0; k < len; ++k) {
        int64_t idx = (ob * len + k) * inner + in;
        F.set_double(idx, r[k]);
        tp[idx] = std::isnan(v[k]) && !std::isnan(r[k]);
      }
    }
  return {Value(F), Value(TF)};
}

/// [N, Xedges, Yedges, binX, binY] = histcounts2(X, Y, nbins | Xedges, Yedges): bivariate
/// histogram. Bins are [e(k), e(k+1)) with the last bin closed. With nbins (scalar or
/// [nx ny]) or no bin argument, each dimension's edges come from histcounts of that variable.
Outputs bi_histcounts2(CallContext& ctx, Args args, int nargout) {
  check_nargin(args, 2, 4);
  check_nargout(nargout, 5);
  Vec x = mathutil::doubles_of(args[0], "histcounts2"), y = mathutil::doubles_of(args[1],
                                                                                 "histcounts2");
  if (x.size() != y.size())
    throw_error("MATLAB:histcounts2:XYSizeMismatch", "X and Y must have the same number of "
                "elements.");
  Value ex, ey;
  if (args.size() == 4) {
    ex = args[2];
    ey = args[3];
  } else {
    Value nx, ny;
    if (args.size() == 3) {
      Vec nb = mathutil::doubles_of(args[2], "histcounts2");
      nx = Value(nb[0]);
      ny = Value(nb.size() > 1 ? nb[1] : nb[0]);
    }
    std::vector<Value> a{args[0]};
    if (args.size() == 3) a.push_back(nx);
    ex = ctx.call_named("histcounts", Args(a.data(), a.size()), 2).at(1);
    std::vector<Value> b{args[1]};
    if (args.size() == 3) b.push_back(ny);
    ey = ctx.call_named("histcounts", Args(b.data(), b.size()), 2).at(1);
  }
  Vec exv = mathutil::doubles_of(ex, "histcounts2"), eyv = mathutil::doubles_of(ey, "histcounts2");
  int64_t nbx = std::max<int64_t>(0, static_cast<int64_t>(exv.size()) - 1);
  int64_t nby = std::max<int64_t>(0, static_cast<int64_t>(eyv.size()) - 1);
  auto bin = [](const Vec& e, double v) -> int64_t {
    int64_t nb = static_cast<int64_t>(e.size()) - 1;
    if (nb < 1 || !(v >= e.front() && v <= e.back())) return -1;
    if (v == e.back()) return nb - 1;
    return (std::upper_bound(e.begin(), e.end(), v) - e.begin()) - 1;
  };
  Tensor N = Tensor::zeros(ClassId::Double, Dims(nbx, nby));
  Tensor BX = Tensor::zeros(ClassId::Double, args[0].dims()), BY = Tensor::zeros(ClassId::Double, args[1].dims());
  for (size_t i = 0; i < x.size(); ++i) {
    int64_t bx = bin(exv, x[i]), by = bin(eyv, y[i]);
    if (bx < 0 || by < 0) continue;
    N.set_double(by * nbx + bx, N.get_double(by * nbx + bx) + 1);
    BX.set_double(static_cast<int64_t>(i), static_cast<double>(bx + 1));
    BY.set_double(static_cast<int64_t>(i), static_cast<double>(by + 1));
  }
  auto row = [](const Vec& v) {
    Tensor t = Tensor::uninit(ClassId::Double, Dims(1, static_cast<int64_t>(v.size())));
    for (size_t i = 0; i < v.size(); ++i) t.set_double(static_cast<int64_t>(i), v[i]);
    return Value(t);
  };
  return {Value(N), row(exv), row(eyv), Value(BX), Value(BY)};
}

}  // namespace

void register_compat(Registry& r) {
  r.add("iskeyword", bi_iskeyword);
  r.add("genvarname", bi_genvarname);
  r.add("home", bi_home);
  r.add("structfun", bi_structfun);
  r.add("cell2struct", bi_cell2struct);
  r.add("struct2cell", bi_struct2cell);
  r.add("evalc", bi_evalc);
  r.add("setxor", bi_setxor);
  r.add("ismembertol", bi_ismembertol);
  r.add("fillmissing", bi_fillmissing);
  r.add("histcounts2", bi_histcounts2);
}

}  // namespace matfuse
