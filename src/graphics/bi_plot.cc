// Line plots: plot, plot3, semilogx, semilogy, loglog, line, stairs, stem, errorbar, polarplot
// (and polar), with MATLAB's call forms: plot(Y), plot(X, Y), plot(X1, Y1, LineSpec1, X2, Y2,
// ...), matrices as one line per column (or per row when only the rows match), complex Y as
// real vs imaginary, plot(ax, ...), and name-value pairs applied to every line.
#include <algorithm>
#include <cmath>

#include "graphics/bi_util.h"

namespace matfuse::gfx {

namespace {

struct Series {
  std::vector<double> x, y, z;
};

[[noreturn]] void length_mismatch() {
  throw_error("MATLAB:plot:VectorsMustBeSameLength", "Vectors must be the same length.");
}

bool is_vec(const Tensor& t) {
  return t.dims().ndims() == 2 && (t.dims().rows() == 1 || t.dims().cols() == 1);
}

std::vector<double> column(const Tensor& t, int64_t j, bool by_row) {
  const int64_t r = t.dims().rows(), c = t.dims().cols();
  std::vector<double> out;
  if (by_row)
    for (int64_t k = 0; k < c; ++k) out.push_back(t.get_double(j + k * r));
  else
    for (int64_t k = 0; k < r; ++k) out.push_back(t.get_double(k + j * r));
  return out;
}

/// Splits X and Y (and Z) into line series with MATLAB's matrix rules.
std::vector<Series> split_series(const Tensor& X, const Tensor& Y, const Tensor* Z) {
  std::vector<Series> out;
  const bool xv = is_vec(X), yv = is_vec(Y);
  if (Z) {
    const bool zv = is_vec(*Z);
    if (xv && yv && zv) {
      if (X.numel() != Y.numel() || X.numel() != Z->numel()) length_mismatch();
      out.push_back({values(X), values(Y), values(*Z)});
      return out;
    }
    // Matrices of one size: one line per column.
    const Tensor& M = !zv ? *Z : (!yv ? Y : X);
    const int64_t cols = M.dims().cols(), rows = M.dims().rows();
    for (int64_t j = 0; j < cols; ++j) {
      Series s;
      for (const Tensor* t : {&X, &Y, Z}) {
        std::vector<double>& dst = t == &X ? s.x : (t == &Y ? s.y : s.z);
        if (is_vec(*t) && t->numel() == rows)
          dst = values(*t);
        else if (t->numel() == rows * cols)
          dst = column(*t, j, false);
        else
          length_mismatch();
      }
      out.push_back(std::move(s));
    }
    return out;
  }
  if (xv && yv) {
    if (X.numel() != Y.numel()) length_mismatch();
    out.push_back({values(X), values(Y), {}});
    return out;
  }
  if (xv) {  // X vector, Y matrix
    const int64_t n = X.numel();
    const bool by_row = Y.dims().rows() != n && Y.dims().cols() == n;
    if (!by_row && Y.dims().rows() != n) length_mismatch();
    const int64_t k = by_row ? Y.dims().rows() : Y.dims().cols();
    for (int64_t j = 0; j < k; ++j) out.push_back({values(X), column(Y, j, by_row), {}});
    return out;
  }
  if (yv) {  // X matrix, Y vector
    const int64_t n = Y.numel();
    const bool by_row = X.dims().rows() != n && X.dims().cols() == n;
    if (!by_row && X.dims().rows() != n) length_mismatch();
    const int64_t k = by_row ? X.dims().rows() : X.dims().cols();
    for (int64_t j = 0; j < k; ++j) out.push_back({column(X, j, by_row), values(Y), {}});
    return out;
  }
  if (X.dims() != Y.dims()) length_mismatch();
  for (int64_t j = 0; j < X.dims().cols(); ++j)
    out.push_back({column(X, j, false), column(Y, j, false), {}});
  return out;
}

/// plot(Y) with Y alone: x = 1:n (per column), or real/imag for complex Y.
void implicit_x(const Value& yv, Tensor& X, Tensor& Y) {
  Tensor t = yv.tensor();
  if (t.is_complex()) {
    const int64_t n = t.numel();
    X = Tensor::zeros(ClassId::Double, t.dims());
    Y = Tensor::zeros(ClassId::Double, t.dims());
    for (int64_t i = 0; i < n; ++i) {
      X.set_double(i, t.get_complex(i).real());
      Y.set_double(i, t.get_complex(i).imag());
    }
    return;
  }
  Y = t;
  const int64_t n = is_vec(t) ? t.numel() : t.dims().rows();
  X = Tensor::zeros(ClassId::Double, Dims(n, 1));
  for (int64_t i = 0; i < n; ++i) X.set_double(i, static_cast<double>(i + 1));
}

/// One (data, linespec) group of a plot call.
struct Group {
  std::vector<Series> series;
  LineSpec spec;
  bool has_spec = false;
};

std::vector<Group> parse_groups(Args args, size_t end, int dims, const char* fname) {
  std::vector<Group> groups;
  size_t i = 0;
  while (i < end) {
    if (args[i].is_text())
      throw_error("MATLAB:plot:InvalidFirstInput",
                  "Data must be numeric, datetime, duration, "
                  "categorical, or an array convertible to double.");
    Group g;
    std::vector<Tensor> data;
    while (i < end && !args[i].is_text() && static_cast<int>(data.size()) < dims) {
      data.push_back(args[i].tensor());
      ++i;
    }
    if (dims == 3) {
      if (data.size() != 3)
        throw_error("MATLAB:plot3:NotEnoughInputs", "Not enough input arguments.");
      g.series = split_series(num(Value(data[0]), fname), num(Value(data[1]), fname), &data[2]);
    } else if (data.size() == 1) {
      Tensor X, Y;
      implicit_x(Value(data[0]), X, Y);
      g.series = split_series(X, Y, nullptr);
    } else {
      g.series = split_series(num(Value(data[0]), fname), num(Value(data[1]), fname), nullptr);
    }
    if (i < end && args[i].is_text()) {
      if (!parse_linespec(args[i].to_text(), g.spec))
        throw_error("MATLAB:plot:InvalidLineSpec", "Invalid line specification: '%s'.",
                    args[i].to_text().c_str());
      g.has_spec = true;
      ++i;
    }
    groups.push_back(std::move(g));
  }
  return groups;
}

void apply_spec(const GPtr& l, const LineSpec& s, bool has) {
  if (!has) return;
  if (s.has_color) l->put("Color", rgb_value(s.color));
  if (!s.marker.empty()) l->put("Marker", Value::from_chars(s.marker));
  if (!s.line_style.empty())
    l->put("LineStyle", Value::from_chars(s.line_style));
  else if (!s.marker.empty())
    l->put("LineStyle", Value::from_chars("none"));
}

/// Shared body of plot/plot3/semilog*/loglog/stairs: newplot, groups, pairs.
std::vector<GPtr> plot_lines(Args args, int dims, const char* type, const char* fname,
                             GPtr* ax_out = nullptr) {
  GPtr ax = take_axes(args);
  if (args.empty()) throw_error("MATLAB:narginchk:notEnoughInputs", "Not enough input arguments.");
  if (ax) make_current_axes(ax);
  const size_t pairs = first_pair(args, 0);
  std::vector<Group> groups = parse_groups(args, pairs, dims, fname);
  if (!ax) ax = current_axes(true);
  const bool held = hold_on(*ax);
  if (!held) reset_axes(ax);
  std::vector<GPtr> out;
  for (const Group& g : groups)
    for (const Series& s : g.series) {
      GPtr l = create(type, ax);
      l->put("XData", row_value(s.x));
      l->put("YData", row_value(s.y));
      if (!s.z.empty()) l->put("ZData", row_value(s.z));
      if (!(g.has_spec && g.spec.has_color)) l->put("Color", rgb_value(next_color(*ax)));
      apply_spec(l, g.spec, g.has_spec);
      out.push_back(l);
    }
  for (const auto& l : out) set_pairs(l, args, pairs);
  for (const auto& l : out) add_plotted(ax, l);
  if (dims == 3 && !held) {
    ax->put("View", row_value({-37.5, 30}));
    for (const char* g : {"XGrid", "YGrid", "ZGrid"}) ax->put(g, Value::from_chars("on"));
  } else {
    box_on_if_new(ax, held);
  }
  if (ax_out) *ax_out = ax;
  return out;
}

Outputs bi_plot(CallContext&, Args args, int nargout) {
  return handles_out(plot_lines(args, 2, "line", "plot"), nargout);
}
Outputs bi_plot3(CallContext&, Args args, int nargout) {
  return handles_out(plot_lines(args, 3, "line", "plot3"), nargout);
}

Outputs log_plot(Args args, int nargout, bool lx, bool ly) {
  GPtr ax;
  auto out = plot_lines(args, 2, "line", "plot", &ax);
  if (lx) ax->put("XScale", Value::from_chars("log"));
  if (ly) ax->put("YScale", Value::from_chars("log"));
  if (!hold_on(*ax) || true) {
    if (lx) ax->put("XMinorTick", Value::from_chars("on"));
    if (ly) ax->put("YMinorTick", Value::from_chars("on"));
  }
  return handles_out(out, nargout);
}
Outputs bi_semilogx(CallContext&, Args a, int n) { return log_plot(a, n, true, false); }
Outputs bi_semilogy(CallContext&, Args a, int n) { return log_plot(a, n, false, true); }
Outputs bi_loglog(CallContext&, Args a, int n) { return log_plot(a, n, true, true); }

Outputs bi_stairs(CallContext&, Args args, int nargout) {
  for (const Value& a : args)
    if (a.is_tensor() && !a.is_char() && a.dims().ndims() > 2)
      throw_error("MATLAB:stairs:InvalidInput", "stairs: Y must be a numeric 2-D vector");
  return handles_out(plot_lines(args, 2, "stair", "stairs"), nargout);
}

/// line(x, y), line(x, y, z), line('XData', x, 'YData', y, ...): low-level, no newplot.
Outputs bi_line(CallContext&, Args args, int nargout) {
  GPtr ax = take_axes(args);
  if (!ax) ax = current_axes(true);
  size_t k = 0;
  std::vector<Tensor> data;
  while (k < args.size() && !args[k].is_text() && data.size() < 3)
    data.push_back(args[k++].tensor());
  std::vector<GPtr> out;
  if (data.size() >= 2) {
    std::vector<Series> ss = split_series(data[0], data[1], data.size() == 3 ? &data[2] : nullptr);
    for (const Series& s : ss) {
      GPtr l = create("line", ax);
      l->put("XData", row_value(s.x));
      l->put("YData", row_value(s.y));
      if (!s.z.empty()) l->put("ZData", row_value(s.z));
      out.push_back(l);
    }
  } else if (data.empty()) {
    out.push_back(create("line", ax));
  } else {
    throw_error("MATLAB:minrhs", "Not enough input arguments.");
  }
  for (const auto& l : out) {
    set_pairs(l, args, k);
    add_plotted(ax, l);
  }
  return handles_out(out, nargout);
}

Outputs bi_stem(CallContext&, Args args, int nargout) {
  GPtr ax = take_axes(args);
  bool filled = false;
  size_t nnum = 0;
  for (const Value& a : args) {
    if (a.is_tensor() && !a.is_char()) {
      ++nnum;
      if (a.dims().ndims() > 2)
        throw_error("MATLAB:stem:InvalidInput", "stem: Y must be a vector or 2-D array");
    } else {
      break;
    }
  }
  if (nnum > 2) throw_error("MATLAB:stem:InvalidInput", "stem: can not define Z for 2-D stem plot");
  std::vector<Value> rest;
  for (const Value& a : args) {
    if (opt(a) == "filled")
      filled = true;
    else
      rest.push_back(a);
  }
  if (ax) rest.insert(rest.begin(), handle_value(ax));
  auto out = plot_lines(rest, 2, "stem", "stem");
  for (const auto& s : out) {
    if (filled) s->put("MarkerFaceColor", s->prop("Color"));
  }
  return handles_out(out, nargout);
}

Outputs bi_errorbar(CallContext&, Args args, int nargout) {
  GPtr ax = take_axes(args);
  const size_t pairs = first_pair(args, 0);
  size_t nd = 0;
  while (nd < pairs && !args[nd].is_text()) ++nd;
  LineSpec spec;
  bool has_spec = nd < pairs && args[nd].is_text() && parse_linespec(args[nd].to_text(), spec);
  std::vector<std::vector<double>> d;
  for (size_t i = 0; i < nd; ++i) d.push_back(values(num(args[i], "errorbar")));
  std::vector<double> x, y, yn, yp, xn, xp;
  if (nd == 2) {
    y = d[0];
    yn = yp = d[1];
  } else if (nd == 3) {
    x = d[0];
    y = d[1];
    yn = yp = d[2];
  } else if (nd == 4) {
    x = d[0];
    y = d[1];
    yn = d[2];
    yp = d[3];
  } else if (nd == 6) {
    x = d[0];
    y = d[1];
    yn = d[2];
    yp = d[3];
    xn = d[4];
    xp = d[5];
  } else {
    throw_error("MATLAB:errorbar:InvalidInput", "Invalid number of data arguments.");
  }
  if (x.empty())
    for (size_t i = 0; i < y.size(); ++i) x.push_back(static_cast<double>(i + 1));
  for (size_t i = 1; i < d.size(); ++i)
    if (d[i].size() != d[0].size())
      throw_error("MATLAB:errorbar:InvalidInput",
                  "errorbar: size of argument %zu does not match others", i + 1);
  if (x.size() != y.size() || yn.size() != y.size()) length_mismatch();
  if (!ax) ax = current_axes(true);
  const bool held = hold_on(*ax);
  if (!held) reset_axes(ax);
  GPtr e = create("errorbar", ax);
  e->put("XData", row_value(x));
  e->put("YData", row_value(y));
  e->put("YNegativeDelta", row_value(yn));
  e->put("YPositiveDelta", row_value(yp));
  if (!xn.empty()) {
    e->put("XNegativeDelta", row_value(xn));
    e->put("XPositiveDelta", row_value(xp));
  }
  if (!(has_spec && spec.has_color)) e->put("Color", rgb_value(next_color(*ax)));
  apply_spec(e, spec, has_spec);
  set_pairs(e, args, pairs);
  add_plotted(ax, e);
  box_on_if_new(ax, held);
  return handles_out({e}, nargout);
}

/// polarplot(theta, rho, LineSpec, ...), polarplot(rho), polar(theta, rho).
Outputs bi_polarplot(CallContext&, Args args, int nargout) {
  GPtr ax = take_axes(args);
  const size_t pairs = first_pair(args, 0);
  std::vector<Group> groups = parse_groups(args, pairs, 2, "polarplot");
  if (!ax) ax = current_axes(true);
  if (ax->type() != "polaraxes" && !hold_on(*ax)) {
    GPtr f = ax->ancestor("figure");
    const Value pos = ax->prop("Position"), layout = ax->prop("_Layout");
    destroy(ax);
    ax = create("polaraxes", f);
    ax->put("Position", pos);
    ax->put("_Layout", layout);
    make_current_axes(ax);
  } else if (!hold_on(*ax)) {
    reset_axes(ax);
  }
  std::vector<GPtr> out;
  for (const Group& g : groups)
    for (const Series& s : g.series) {
      GPtr l = create("line", ax);
      // With one data argument, parse_groups puts the index in x: polarplot(rho) uses
      // theta = 0 .. 2*pi over the points.
      l->put("XData", row_value(s.x));
      l->put("YData", row_value(s.y));
      l->define("ThetaData", row_value(s.x));
      l->define("RData", row_value(s.y));
      if (!(g.has_spec && g.spec.has_color)) l->put("Color", rgb_value(next_color(*ax)));
      apply_spec(l, g.spec, g.has_spec);
      out.push_back(l);
    }
  for (const auto& l : out) {
    set_pairs(l, args, pairs);
    add_plotted(ax, l);
  }
  return handles_out(out, nargout);
}

/// fplot(f), fplot(f, [xmin xmax]), fplot(f, limits, LineSpec, ...): f evaluated at 200
/// evenly spaced points (default interval [-5 5], as MATLAB). f must accept a vector (MATLAB
/// warns and evaluates point by point otherwise; so does this).
Outputs bi_fplot(CallContext& ctx, Args args, int nargout) {
  GPtr ax = take_axes(args);
  if (args.empty() || !args[0].is_function())
    throw_error("MATLAB:fplot:InvalidFunction", "Input must be a function handle.");
  double a = -5, b = 5;
  size_t k = 1;
  if (k < args.size() && !args[k].is_text()) {
    if (args[k].is_cell())
      throw_error("MATLAB:fplot:InvalidInput", "fplot: bad input in position %zu", k + 1);
    Tensor l = num(args[k], "fplot");
    if ((l.numel() != 2 && l.numel() != 4) || !(l.get_double(0) < l.get_double(1)))
      throw_error("MATLAB:fplot:InvalidLimits",
                  "fplot: LIMITS must be a real vector with 2 or 4 elements");
    a = l.get_double(0);
    b = l.get_double(1);
    ++k;
  }
  if (k < args.size() && !args[k].is_text())
    throw_error("MATLAB:fplot:InvalidInput", "fplot: bad input in position %zu", k + 1);
  if (k < args.size() && args[k].is_text()) {
    LineSpec ls;
    if (!parse_linespec(args[k].to_text(), ls) && k + 1 >= args.size())
      throw_error("MATLAB:fplot:InvalidInput", "fplot: bad input in position %zu", k + 1);
  }
  const int n = 200;
  Tensor x = Tensor::zeros(ClassId::Double, Dims(1, n));
  for (int i = 0; i < n; ++i) x.set_double(i, a + (b - a) * i / (n - 1));
  Tensor y;
  try {
    Value xv(x);
    Outputs r = ctx.call(args[0], std::span<const Value>(&xv, 1), 1);
    y = r.at(0).tensor();
    if (y.numel() != n) throw MatlabError("", "");
  } catch (const MatlabError&) {
    y = Tensor::zeros(ClassId::Double, Dims(1, n));
    for (int i = 0; i < n; ++i) {
      Value xi(x.get_double(i));
      y.set_double(i, ctx.call(args[0], std::span<const Value>(&xi, 1), 1).at(0).to_double());
    }
  }
  if (nargout >= 2) {  // [x, y] = fplot(...): the points, no plot (columns)
    return {Value(x.reshaped(Dims(n, 1))), Value(y.to_class(ClassId::Double).reshaped(Dims(n, 1)))};
  }
  std::vector<Value> pargs;
  if (ax) pargs.push_back(handle_value(ax));
  pargs.push_back(Value(x));
  pargs.push_back(Value(y.to_class(ClassId::Double)));
  for (size_t i = k; i < args.size(); ++i) pargs.push_back(args[i]);
  GPtr used;
  auto out = plot_lines(pargs, 2, "line", "fplot", &used);
  if (!hold_on(*used)) set_prop(used, "XLim", row_value({a, b}));
  return handles_out(out, nargout);
}

}  // namespace

void register_graphics_plot(Registry& r) {
  r.add("fplot", bi_fplot);
  r.add("plot", bi_plot);
  r.add("plot3", bi_plot3);
  r.add("semilogx", bi_semilogx);
  r.add("semilogy", bi_semilogy);
  r.add("loglog", bi_loglog);
  r.add("stairs", bi_stairs);
  r.add("line", bi_line);
  r.add("stem", bi_stem);
  r.add("errorbar", bi_errorbar);
  r.add("polarplot", bi_polarplot);
  r.add("polar", bi_polarplot);
}

}  // namespace matfuse::gfx
