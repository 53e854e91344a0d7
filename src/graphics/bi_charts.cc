// Charts: scatter, scatter3, bar, barh, histogram, hist, area, fill, patch, quiver.
#include <algorithm>
#include <cmath>

#include "graphics/bi_util.h"

namespace matfuse::gfx {

namespace {

/// Prepares the axes of a chart call (newplot) and reports whether hold was on.
GPtr chart_axes(Args& args, bool& held) {
  GPtr ax = take_axes(args);
  if (!ax)
    ax = current_axes(true);
  else
    make_current_axes(ax);
  held = hold_on(*ax);
  if (!held) reset_axes(ax);
  return ax;
}

Outputs scatter_impl(Args args, int nargout, bool three) {
  bool held;
  GPtr ax = chart_axes(args, held);
  const size_t nd = three ? 3 : 2;
  if (args.size() < nd) throw_error("MATLAB:minrhs", "Not enough input arguments.");
  GPtr s = create("scatter", ax);
  const Tensor x = num(args[0], "scatter"), y = num(args[1], "scatter");
  if (x.numel() != y.numel())
    throw_error("MATLAB:scatter:InvalidXYData", "X and Y must be vectors of the same length.");
  s->put("XData", row_value(values(x)));
  s->put("YData", row_value(values(y)));
  size_t k = nd;
  if (three) s->put("ZData", row_value(values(num(args[2], "scatter3"))));
  if (k < args.size() && !args[k].is_text()) {
    if (!args[k].is_empty())
      s->put("SizeData", Value(num(args[k], "scatter").to_class(ClassId::Double)));
    ++k;
  }
  bool color_given = false;
  if (k < args.size() && !(args[k].is_text() && opt(args[k]) == "filled")) {
    const Value& c = args[k];
    LineSpec ls;
    if (c.is_text() && c.to_text().size() <= 7 && !parse_linespec(c.to_text(), ls)) {
      // a colour name such as 'red' or '#FF0000'
      s->put("CData", rgb_value(parse_color(c)));
      color_given = true;
      ++k;
    } else if (!c.is_text()) {
      s->put("CData", Value(num(c, "scatter").to_class(ClassId::Double)));
      color_given = true;
      ++k;
    }
  }
  if (!color_given) s->put("CData", rgb_value(next_color(*ax)));
  for (; k < args.size(); ++k) {
    if (!args[k].is_text()) break;
    const std::string o = opt(args[k]);
    LineSpec ls;
    if (o == "filled") {
      s->put("MarkerFaceColor", Value::from_chars("flat"));
    } else if (parse_linespec(args[k].to_text(), ls) && ls.line_style.empty()) {
      if (!ls.marker.empty()) s->put("Marker", Value::from_chars(ls.marker));
      if (ls.has_color) s->put("CData", rgb_value(ls.color));
    } else {
      break;
    }
  }
  set_pairs(s, args, k);
  add_plotted(ax, s);
  if (three && !held) {
    ax->put("View", row_value({-37.5, 30}));
    for (const char* g : {"XGrid", "YGrid", "ZGrid"}) ax->put(g, Value::from_chars("on"));
  } else {
    box_on_if_new(ax, held);
  }
  return handles_out({s}, nargout);
}

Outputs bi_scatter(CallContext&, Args a, int n) { return scatter_impl(a, n, false); }
Outputs bi_scatter3(CallContext&, Args a, int n) { return scatter_impl(a, n, true); }

Outputs bar_impl(Args args, int nargout, bool horiz) {
  bool held;
  GPtr ax = chart_axes(args, held);
  size_t nd = 0;
  while (nd < args.size() && !args[nd].is_text()) ++nd;
  Tensor X, Y;
  double width = 0.8;
  if (nd == 0) throw_error("MATLAB:minrhs", "Not enough input arguments.");
  if (nd >= 2 && args[1].numel() == 1 && args[0].numel() > 1) {  // bar(y, width)
    Y = num(args[0], "bar");
    width = args[1].to_double("width");
    nd = 1;
  } else if (nd >= 2) {
    X = num(args[0], "bar");
    Y = num(args[1], "bar");
    if (nd >= 3) width = args[2].to_double("width");
  } else {
    Y = num(args[0], "bar");
  }
  const bool yvec = Y.dims().rows() == 1 || Y.dims().cols() == 1;
  const int64_t rows = yvec ? Y.numel() : Y.dims().rows();
  const int64_t nser = yvec ? 1 : Y.dims().cols();
  std::vector<double> x;
  if (X.numel() == 0)
    for (int64_t i = 0; i < rows; ++i) x.push_back(static_cast<double>(i + 1));
  else
    x = values(X);
  if (X.numel() > 0 && !(X.dims().rows() == 1 || X.dims().cols() == 1))
    throw_error("MATLAB:bar:InvalidInput", "bar: X must be a vector");
  {
    std::vector<double> sx = x;
    std::sort(sx.begin(), sx.end());
    if (std::adjacent_find(sx.begin(), sx.end()) != sx.end())
      throw_error("MATLAB:bar:InvalidInput", "bar: X vector values must be unique");
  }
  if (static_cast<int64_t>(x.size()) != rows)
    throw_error("MATLAB:bar:XYLengthMismatch", "X and Y must have the same number of rows.");
  size_t k = nd;
  bool stacked = false;
  LineSpec spec;
  bool has_color = false;
  for (; k < args.size() && args[k].is_text(); ++k) {
    const std::string o = opt(args[k]);
    if (o == "stacked")
      stacked = true;
    else if (o == "grouped" || o == "hist" || o == "histc") {
    } else if (parse_linespec(args[k].to_text(), spec) && spec.has_color && spec.marker.empty() &&
               spec.line_style.empty()) {
      has_color = true;
    } else {
      break;
    }
  }
  std::vector<GPtr> out;
  std::vector<double> base(static_cast<size_t>(rows), 0.0),
      base_neg(static_cast<size_t>(rows), 0.0);
  for (int64_t j = 0; j < nser; ++j) {
    GPtr b = create("bar", ax);
    std::vector<double> y;
    for (int64_t i = 0; i < rows; ++i) y.push_back(Y.get_double(yvec ? i : i + j * rows));
    b->put("XData", row_value(x));
    b->put("YData", row_value(y));
    b->put("BarWidth", Value(width));
    b->put("Horizontal", Value::from_chars(horiz ? "on" : "off"));
    b->put("_Group", row_value({static_cast<double>(j + 1), static_cast<double>(nser)}));
    if (stacked) {
      b->put("_Stacked", Value::from_chars("on"));
      std::vector<double> lo;
      for (int64_t i = 0; i < rows; ++i) {
        double& acc = y[i] >= 0 ? base[i] : base_neg[i];
        lo.push_back(acc);
        acc += y[i];
      }
      b->put("_Base", row_value(lo));
    }
    b->put("FaceColor", has_color ? rgb_value(spec.color) : rgb_value(next_color(*ax)));
    out.push_back(b);
  }
  for (const auto& b : out) {
    set_pairs(b, args, k);
    add_plotted(ax, b);
  }
  box_on_if_new(ax, held);
  // Categorical-style ticks at the bar positions for few bars (MATLAB's bar ticks).
  if (!held && rows <= 12 && X.numel() == 0) {
    ax->put(horiz ? "YTick" : "XTick", row_value(x));
    ax->put(horiz ? "YTickMode" : "XTickMode", Value::from_chars("manual"));
  }
  return handles_out(out, nargout);
}

Outputs bi_bar(CallContext&, Args a, int n) { return bar_impl(a, n, false); }
Outputs bi_barh(CallContext&, Args a, int n) { return bar_impl(a, n, true); }

Outputs bi_histogram(CallContext& ctx, Args args, int nargout) {
  bool held;
  GPtr ax = chart_axes(args, held);
  if (args.empty()) throw_error("MATLAB:minrhs", "Not enough input arguments.");
  const Value data = args[0];
  std::vector<Value> hc_args = {data};
  size_t k = 1;
  if (k < args.size() && !args[k].is_text()) {
    if (args[k].numel() == 1) {
      hc_args.push_back(args[k]);
    } else {
      hc_args.push_back(args[k]);
    }
    ++k;
  }
  std::string norm = "count", orient = "vertical", style = "bar";
  std::vector<std::pair<std::string, Value>> rest;
  for (size_t i = k; i + 1 < args.size(); i += 2) {
    const std::string o = opt(args[i]);
    if (o == "binwidth" || o == "numbins" || o == "binedges" || o == "binlimits" ||
        o == "binmethod") {
      std::string name = o == "binwidth"    ? "BinWidth"
                         : o == "numbins"   ? "NumBins"
                         : o == "binedges"  ? "BinEdges"
                         : o == "binlimits" ? "BinLimits"
                                            : "BinMethod";
      if (o == "numbins") {
        hc_args.push_back(args[i + 1]);
        continue;
      }
      if (o == "binedges") {
        hc_args.push_back(args[i + 1]);
        continue;
      }
      hc_args.push_back(Value::from_chars(name));
      hc_args.push_back(args[i + 1]);
    } else if (o == "normalization") {
      norm = opt(args[i + 1]);
    } else if (o == "orientation") {
      orient = opt(args[i + 1]);
    } else if (o == "displaystyle") {
      style = opt(args[i + 1]);
    } else {
      rest.push_back({args[i].to_text(), args[i + 1]});
    }
  }
  Outputs hc = ctx.call_named("histcounts", hc_args, 2);
  std::vector<double> counts = values(hc[0].tensor()), edges = values(hc[1].tensor());
  double total = 0;
  for (double c : counts) total += c;
  std::vector<double> v = counts;
  for (size_t i = 0; i < v.size(); ++i) {
    const double w = edges[i + 1] - edges[i];
    if (norm == "probability")
      v[i] = total > 0 ? counts[i] / total : 0;
    else if (norm == "pdf")
      v[i] = total > 0 ? counts[i] / (total * w) : 0;
    else if (norm == "countdensity")
      v[i] = counts[i] / w;
    else if (norm == "cumcount" || norm == "cdf") {
      v[i] = (i > 0 ? v[i - 1] : 0) + counts[i];
    }
  }
  if (norm == "cdf" && total > 0)
    for (double& x : v) x /= total;
  GPtr h = create("histogram", ax);
  h->put("Data", data);
  h->put("BinEdges", row_value(edges));
  h->put("BinCounts", row_value(counts));
  h->put("Values", row_value(v));
  h->put("NumBins", Value(static_cast<double>(counts.size())));
  h->put("BinWidth", Value(edges.size() > 1 ? edges[1] - edges[0] : 0.0));
  h->put("Normalization", Value::from_chars(norm));
  h->put("Orientation", Value::from_chars(orient));
  h->put("DisplayStyle", Value::from_chars(style));
  h->put("FaceColor", rgb_value(next_color(*ax)));
  if (style == "stairs") h->put("FaceColor", Value::from_chars("none"));
  for (const auto& [n, val] : rest) set_prop(h, n, val);
  add_plotted(ax, h);
  box_on_if_new(ax, held);
  return handles_out({h}, nargout);
}

/// hist(y), hist(y, nbins), hist(y, centers), hist(y, x, norm): counts in bins centred on the
/// centres (a value on a boundary between two bins counts in the lower one); with outputs
/// [counts, centers] and no plot. A vector y gives row outputs; a matrix y counts per column
/// (counts nbins-by-columns, centres a column). norm scales each column to sum to norm.
Outputs bi_hist(CallContext&, Args args, int nargout) {
  GPtr ax = take_axes(args);
  check_nargin(args, 1, 3);
  if (!args[0].is_tensor() || args[0].is_char() || args[0].tensor().is_complex())
    throw_error("MATLAB:hist:InvalidInput", "hist: Y must be real-valued");
  Tensor y = args[0].tensor();
  const bool yvec = y.dims().ndims() == 2 && (y.dims().rows() == 1 || y.dims().cols() == 1);
  const int64_t rows = yvec ? y.numel() : y.dims().rows();
  const int64_t cols = yvec ? 1 : y.numel() / std::max<int64_t>(rows, 1);
  double lo = INFINITY, hi = -INFINITY;
  for (int64_t i = 0; i < y.numel(); ++i) {
    const double v = y.get_double(i);
    if (std::isfinite(v)) {
      lo = std::min(lo, v);
      hi = std::max(hi, v);
    }
  }
  std::vector<double> centers;
  auto equal_bins = [&](int64_t n) {
    if (lo != hi)
      for (int64_t k = 0; k < n; ++k)
        centers.push_back(((hi - lo) * static_cast<double>(2 * k + 1) + 2.0 * n * lo) / (2.0 * n));
    else
      for (int64_t k = -((n - 1) / 2); k <= n / 2; ++k)
        centers.push_back(static_cast<double>(k) + lo);
  };
  if (args.size() >= 2) {
    if (!args[1].is_tensor() || args[1].is_char() || args[1].tensor().is_complex())
      throw_error("MATLAB:hist:InvalidInput",
                  "hist: bin specification must be a numeric scalar or vector");
    Tensor x = args[1].tensor();
    if (x.numel() == 1) {
      const double n = std::trunc(x.get_double(0));
      if (!(n > 0))
        throw_error("MATLAB:hist:InvalidInput", "hist: number of bins NBINS must be positive");
      equal_bins(static_cast<int64_t>(n));
    } else {
      if (!(x.dims().ndims() == 2 && (x.dims().rows() == 1 || x.dims().cols() == 1)))
        throw_error("MATLAB:hist:InvalidInput",
                    "hist: bin specification must be a scalar or vector");
      centers = values(x);
      std::sort(centers.begin(), centers.end());
    }
  } else {
    equal_bins(10);
  }
  std::vector<double> norm;
  if (args.size() == 3) {
    if (!args[2].is_tensor() || args[2].is_char())
      throw_error("MATLAB:hist:InvalidInput", "hist: NORM must be a numeric constant > 0");
    norm = values(args[2].tensor());
    for (double v : norm)
      if (!(v > 0))
        throw_error("MATLAB:hist:InvalidInput", "hist: NORM must be a numeric constant > 0");
    if (norm.size() != 1 && static_cast<int64_t>(norm.size()) != cols)
      throw_error("MATLAB:hist:InvalidInput",
                  "hist: NORM must be scalar or vector of length 'columns (Y)'");
  }
  const int64_t nb = static_cast<int64_t>(centers.size());
  std::vector<double> cutoff;
  for (int64_t i = 0; i + 1 < nb; ++i) cutoff.push_back((centers[i] + centers[i + 1]) / 2);
  std::vector<double> freq(static_cast<size_t>(nb * cols), 0.0);
  for (int64_t j = 0; j < cols; ++j) {
    double count = 0;
    for (int64_t i = 0; i < rows; ++i) {
      const double v = y.get_double(i + j * rows);
      if (std::isnan(v)) continue;
      const int64_t b = std::lower_bound(cutoff.begin(), cutoff.end(), v) - cutoff.begin();
      freq[b + j * nb] += 1;
      count += 1;
    }
    if (!norm.empty() && count > 0) {
      const double s = norm.size() == 1 ? norm[0] : norm[j];
      for (int64_t b = 0; b < nb; ++b) freq[b + j * nb] *= s / count;
    }
  }
  Tensor nn = Tensor::zeros(ClassId::Double, yvec ? Dims(1, nb) : Dims(nb, cols));
  for (int64_t k = 0; k < nb * cols; ++k) nn.set_double(k, freq[k]);
  Tensor xx = Tensor::zeros(ClassId::Double, yvec ? Dims(1, nb) : Dims(nb, 1));
  for (int64_t k = 0; k < nb; ++k) xx.set_double(k, centers[k]);
  // The centres' class: that of given centres, else that of Y (single stays single).
  const bool centres_given = args.size() >= 2 && args[1].numel() > 1;
  const ClassId xcls = centres_given ? args[1].cls() : y.cls();
  if (xcls == ClassId::Single) xx = xx.to_class(ClassId::Single);
  if (nargout > 0) return {Value(nn), Value(xx)};
  if (!ax) ax = current_axes(true);
  const bool held = hold_on(*ax);
  if (!held) reset_axes(ax);
  std::vector<GPtr> out;
  for (int64_t j = 0; j < cols; ++j) {
    GPtr b = create("bar", ax);
    b->put("XData", row_value(centers));
    b->put("YData",
           row_value(std::vector<double>(freq.begin() + j * nb, freq.begin() + (j + 1) * nb)));
    b->put("BarWidth", Value(cols > 1 ? 0.8 : 1.0));
    b->put("_Group", row_value({static_cast<double>(j + 1), static_cast<double>(cols)}));
    b->put("FaceColor", rgb_value(next_color(*ax)));
    add_plotted(ax, b);
  }
  box_on_if_new(ax, held);
  return {};
}

Outputs bi_area(CallContext&, Args args, int nargout) {
  bool held;
  GPtr ax = chart_axes(args, held);
  size_t nd = 0;
  while (nd < args.size() && !args[nd].is_text()) ++nd;
  if (nd == 0) throw_error("MATLAB:minrhs", "Not enough input arguments.");
  if (nd > 3) throw_error("MATLAB:TooManyInputs", "Too many input arguments.");
  for (size_t i = 0; i < nd; ++i) {
    const bool level =
        (nd == 3 && i == 2) || (nd == 2 && args[1].numel() == 1 && i == 1 && args[0].numel() > 1);
    if (!args[i].is_tensor() || args[i].is_char() || args[i].tensor().is_complex()) {
      if (level || (nd == 2 && i == 1 && args[1].numel() == 1))
        throw_error("MATLAB:area:InvalidInput", "area: LVL must be a real scalar");
      throw_error("MATLAB:area:InvalidInput", "area: X and Y must be real vectors or matrices");
    }
    if (level && args[i].numel() != 1)
      throw_error("MATLAB:area:InvalidInput", "area: LVL must be a real scalar");
  }
  if (nd == 3 && args[2].numel() != 1)
    throw_error("MATLAB:area:InvalidInput", "area: LVL must be a real scalar");
  const bool y_base = nd == 2 && args[1].numel() == 1 && args[0].numel() > 1;  // area(Y, lvl)
  Tensor Y = num(args[(nd >= 2 && !y_base) ? 1 : 0], "area");
  double base = 0;
  if (nd == 3) base = args[2].to_double("basevalue");
  if (y_base) base = args[1].to_double("basevalue");
  const bool yvec = Y.dims().rows() == 1 || Y.dims().cols() == 1;
  const int64_t rows = yvec ? Y.numel() : Y.dims().rows(), nser = yvec ? 1 : Y.dims().cols();
  std::vector<double> x;
  if (nd >= 2 && !y_base)
    x = values(num(args[0], "area"));
  else
    for (int64_t i = 0; i < rows; ++i) x.push_back(static_cast<double>(i + 1));
  if (static_cast<int64_t>(x.size()) != rows)
    throw_error("MATLAB:area:InvalidInput", "area: X and Y must have the same number of rows");
  std::vector<double> acc(static_cast<size_t>(rows), 0.0);
  std::vector<GPtr> out;
  for (int64_t j = 0; j < nser; ++j) {
    GPtr a = create("area", ax);
    std::vector<double> lo = j == 0 ? std::vector<double>(static_cast<size_t>(rows), base) : acc;
    std::vector<double> y;
    for (int64_t i = 0; i < rows; ++i) {
      acc[i] += Y.get_double(yvec ? i : i + j * rows);
      y.push_back(acc[i]);
    }
    a->put("XData", row_value(x));
    a->put("YData", row_value(y));
    a->put("BaseValue", Value(base));
    a->put("_Lower", row_value(lo));
    a->put("FaceColor", rgb_value(next_color(*ax)));
    out.push_back(a);
  }
  for (const auto& a : out) {
    set_pairs(a, args, nd);
    add_plotted(ax, a);
  }
  box_on_if_new(ax, held);
  return handles_out(out, nargout);
}

/// fill(x, y, c, ...) and patch(x, y, c, ...): polygons per column; c a colour or colour data.
Outputs polygon_impl(Args args, int nargout, bool is_fill) {
  GPtr ax = take_axes(args);
  bool held = true;
  if (!ax) ax = current_axes(true);
  if (is_fill) {
    held = hold_on(*ax);
    if (!held) reset_axes(ax);
  }
  std::vector<GPtr> out;
  size_t k = 0;
  if (!args.empty() && args[0].is_text()) {  // patch('XData', ..., 'Faces', ..., ...)
    GPtr p = create("patch", ax);
    set_pairs(p, args, 0);
    const Value& F = p->prop("Faces");
    const Value& V = p->prop("Vertices");
    if (!F.is_empty() && !V.is_empty()) {
      Tensor f = F.tensor(), v = V.tensor();
      const int64_t nf = f.dims().rows(), nv = f.dims().cols(), vr = v.dims().rows();
      Tensor X = Tensor::zeros(ClassId::Double, Dims(nv, nf)), Y = X;
      for (int64_t i = 0; i < nf; ++i)
        for (int64_t j = 0; j < nv; ++j) {
          // NaN pads faces with fewer vertices; compared as a double before the cast (NaN
          // and huge values would be undefined to convert).
          const double fv = f.get_double(i + j * nf);
          const bool in = fv >= 1 && fv < static_cast<double>(vr) + 1;
          const int64_t idx = in ? static_cast<int64_t>(fv) - 1 : 0;
          X.set_double(j + i * nv, in ? v.get_double(idx) : NAN);
          Y.set_double(j + i * nv, in ? v.get_double(idx + vr) : NAN);
        }
      p->put("XData", Value(X));
      p->put("YData", Value(Y));
    }
    add_plotted(ax, p);
    return handles_out({p}, nargout);
  }
  while (k + 2 < args.size() + 1 && k + 1 < args.size() && !args[k].is_text()) {
    Tensor x = num(args[k], "fill"), y = num(args[k + 1], "fill");
    if (x.numel() != y.numel())
      throw_error("MATLAB:fill:VectorsMustBeSameLength", "Vectors must be the same length.");
    GPtr p = create("patch", ax);
    auto shape = [](const Tensor& t) {
      return (t.dims().rows() == 1) ? t.reshaped(Dims(t.numel(), 1)) : t;
    };
    p->put("XData", Value(shape(x.to_class(ClassId::Double))));
    p->put("YData", Value(shape(y.to_class(ClassId::Double))));
    k += 2;
    if (k < args.size()) {
      const Value& c = args[k];
      LineSpec ls;
      if (c.is_text() && parse_linespec(c.to_text(), ls) && ls.has_color) {
        p->put("FaceColor", rgb_value(ls.color));
        ++k;
      } else if (c.is_text() && (opt(c) == "none" || opt(c) == "flat" || opt(c) == "interp")) {
        p->put("FaceColor", Value::from_chars(opt(c)));
        ++k;
      } else if (c.is_text() && c.to_text()[0] == '#') {
        p->put("FaceColor", rgb_value(parse_color(c)));
        ++k;
      } else if (!c.is_text()) {
        Tensor ct = num(c, "fill");
        if (ct.numel() == 3 && (ct.dims().cols() == 3 || ct.dims().ndims() == 3) &&
            x.numel() != 3) {
          p->put("FaceColor", rgb_value(parse_color(c)));
        } else {
          p->put("CData", Value(ct.to_class(ClassId::Double)));
          p->put("FaceColor", Value::from_chars("flat"));
        }
        ++k;
      }
    }
    out.push_back(p);
  }
  for (const auto& p : out) {
    set_pairs(p, args, k);
    add_plotted(ax, p);
  }
  if (is_fill) box_on_if_new(ax, held);
  return handles_out(out, nargout);
}

Outputs bi_fill(CallContext&, Args a, int n) { return polygon_impl(a, n, true); }
Outputs bi_patch(CallContext&, Args a, int n) { return polygon_impl(a, n, false); }

Outputs bi_quiver(CallContext&, Args args, int nargout) {
  bool held;
  GPtr ax = chart_axes(args, held);
  size_t nd = 0;
  while (nd < args.size() && !args[nd].is_text()) ++nd;
  Tensor X, Y, U, V;
  double scale = -1;
  if (nd == 2 || nd == 3) {
    U = num(args[0], "quiver");
    V = num(args[1], "quiver");
    const int64_t r = U.dims().rows(), c = U.dims().cols();
    X = Tensor::zeros(ClassId::Double, U.dims());
    Y = X;
    for (int64_t j = 0; j < c; ++j)
      for (int64_t i = 0; i < r; ++i) {
        X.set_double(i + j * r, static_cast<double>(j + 1));
        Y.set_double(i + j * r, static_cast<double>(i + 1));
      }
    if (nd == 3) scale = args[2].to_double("scale");
  } else if (nd == 4 || nd == 5) {
    X = num(args[0], "quiver");
    Y = num(args[1], "quiver");
    U = num(args[2], "quiver");
    V = num(args[3], "quiver");
    if (nd == 5) scale = args[4].to_double("scale");
    // Vector X, Y with matrix U: meshgrid expansion.
    if (X.numel() != U.numel() && X.numel() == U.dims().cols() && Y.numel() == U.dims().rows()) {
      const int64_t r = U.dims().rows(), c = U.dims().cols();
      Tensor XX = Tensor::zeros(ClassId::Double, U.dims()), YY = XX;
      for (int64_t j = 0; j < c; ++j)
        for (int64_t i = 0; i < r; ++i) {
          XX.set_double(i + j * r, X.get_double(j));
          YY.set_double(i + j * r, Y.get_double(i));
        }
      X = XX;
      Y = YY;
    }
  } else {
    throw_error("MATLAB:quiver:InvalidInput", "Invalid number of data arguments.");
  }
  if (U.numel() != X.numel() || V.numel() != U.numel() || Y.numel() != X.numel())
    throw_error("MATLAB:quiver:DataLengthMismatch", "X, Y, U and V must be the same size.");
  GPtr q = create("quiver", ax);
  q->put("XData", row_value(values(X)));
  q->put("YData", row_value(values(Y)));
  q->put("UData", row_value(values(U)));
  q->put("VData", row_value(values(V)));
  if (scale == 0)
    q->put("AutoScale", Value::from_chars("off"));
  else if (scale > 0)
    q->put("AutoScaleFactor", Value(scale * 0.9));
  size_t k = nd;
  LineSpec ls;
  if (k < args.size() && args[k].is_text() && parse_linespec(args[k].to_text(), ls)) {
    if (ls.has_color) q->put("Color", rgb_value(ls.color));
    if (!ls.line_style.empty()) q->put("LineStyle", Value::from_chars(ls.line_style));
    ++k;
  }
  if (!ls.has_color) q->put("Color", rgb_value(next_color(*ax)));
  set_pairs(q, args, k);
  add_plotted(ax, q);
  box_on_if_new(ax, held);
  return handles_out({q}, nargout);
}

}  // namespace

void register_graphics_charts(Registry& r) {
  r.add("scatter", bi_scatter);
  r.add("scatter3", bi_scatter3);
  r.add("bar", bi_bar);
  r.add("barh", bi_barh);
  r.add("histogram", bi_histogram);
  r.add("hist", bi_hist);
  r.add("area", bi_area);
  r.add("fill", bi_fill);
  r.add("patch", bi_patch);
  r.add("quiver", bi_quiver);
}

}  // namespace matfuse::gfx
