// Graphics builtins: the object model (figure, axes, gcf, gca, groot, get, set, close, clf,
// cla, hold, ishold, subplot, tiledlayout, nexttile, ishandle, isgraphics, drawnow, shg,
// refresh) and the helpers in bi_util.h.
#include <algorithm>
#include <climits>
#include <cmath>

#include "graphics/bi_util.h"
#include "graphics/graphics.h"
#include "graphics/render.h"
#include "runtime/figure_hook.h"

namespace matfuse::gfx {

// ---- helpers ----------------------------------------------------------------------------------

GPtr take_handle(Args& args) {
  if (args.empty() || !args[0].is_object()) return nullptr;
  if (!dynamic_cast<GHandle*>(args[0].object().get())) return nullptr;
  std::vector<GPtr> ns = nodes_of(args[0]);
  if (ns.size() != 1) return nullptr;
  args = args.subspan(1);
  return ns[0];
}

GPtr take_axes(Args& args) {
  if (args.empty() || !args[0].is_object()) return nullptr;
  auto* h = dynamic_cast<GHandle*>(args[0].object().get());
  if (!h || h->nodes().size() != 1) return nullptr;
  const std::string& t = h->nodes()[0]->type();
  if (t != "axes" && t != "polaraxes") return nullptr;
  return take_handle(args);
}

std::string opt(const Value& v) { return v.is_text() ? lower_ascii(v.to_text()) : ""; }

Tensor num(const Value& v, const char* fname) {
  if (!v.is_tensor() || v.is_char())
    throw_error("MATLAB:hg:InvalidInput", "%s: data must be numeric or logical.", fname);
  Tensor t = v.tensor();
  if (t.is_complex()) t = t.to_class(t.cls());
  return t;
}

std::vector<double> values(const Tensor& t) {
  std::vector<double> r(static_cast<size_t>(t.numel()));
  for (int64_t i = 0; i < t.numel(); ++i) r[i] = t.get_double(i);
  return r;
}

Value row_value(const std::vector<double>& v) {
  Tensor t = Tensor::zeros(ClassId::Double, Dims(1, static_cast<int64_t>(v.size())));
  for (size_t i = 0; i < v.size(); ++i) t.set_double(static_cast<int64_t>(i), v[i]);
  return Value(std::move(t));
}

size_t first_pair(Args args, size_t from) {
  for (size_t i = from; i < args.size(); ++i) {
    if (!args[i].is_text()) continue;
    LineSpec ls;
    if (parse_linespec(args[i].to_text(), ls)) continue;
    return i;
  }
  return args.size();
}

void add_plotted(const GPtr& ax, const GPtr& obj) {
  const Value& lv = ax->prop("Legend");
  if (!lv.is_object()) return;
  GPtr lg = nodes_of(lv)[0];
  if (lg->text("AutoUpdate") != "on") return;
  std::vector<GPtr> items;
  const Value& iv = lg->prop("_Items");
  if (iv.is_object()) items = static_cast<GHandle*>(iv.object().get())->nodes();
  items.push_back(obj);
  lg->put("_Items", handle_column(items));
  CellArray s = lg->prop("String").is_cell() ? lg->prop("String").cell() : CellArray(Dims(1, 0));
  std::string name = obj->find_prop("DisplayName") >= 0 ? obj->text("DisplayName") : "";
  if (name.empty()) name = "data" + std::to_string(items.size());
  const int64_t k = s.numel();
  s.resize(Dims(1, k + 1));
  s.at(k) = Value::from_chars(name);
  lg->put("String", Value(s));
}

Outputs handles_out(const std::vector<GPtr>& objs, int nargout) {
  if (nargout <= 0) return {};
  if (objs.size() == 1) return {handle_value(objs[0])};
  return {handle_column(objs)};
}

void box_on_if_new(const GPtr& ax, bool was_held) {
  if (!was_held) ax->put("Box", Value::from_chars("on"));
}

namespace {

// ---- figure, axes, gcf, gca -------------------------------------------------------------------

Outputs bi_figure(CallContext&, Args args, int nargout) {
  check_nargout(nargout, 1);
  GPtr f;
  if (!args.empty() && !args[0].is_text()) {
    if (args[0].is_object()) {
      f = nodes_of(args[0])[0];
      if (f->type() != "figure") throw_error("MATLAB:hg:InvalidHandle", "Invalid figure handle.");
      make_current_figure(f);
    } else {
      const double n = args[0].to_double("figure number");
      // A figure number is a positive integer in int's range (Inf, NaN and 1e12 are not; the
      // conversion below would be undefined for them).
      if (!(n >= 1 && n <= INT_MAX) || n != std::floor(n))
        throw_error("MATLAB:hg:InvalidHandle", "Invalid figure handle.");
      f = find_figure(n);
      if (f)
        make_current_figure(f);
      else
        f = new_figure(static_cast<int>(n));
    }
    args = args.subspan(1);
  } else {
    f = new_figure(0);
  }
  set_pairs(f, args, 0);
  return nargout > 0 ? Outputs{handle_value(f)} : Outputs{};
}

Outputs bi_gcf(CallContext&, Args args, int nargout) {
  check_nargin(args, 0, 0);
  return {handle_value(current_figure(true))};
}

Outputs bi_gca(CallContext&, Args args, int nargout) {
  check_nargin(args, 0, 1);
  if (args.size() == 1) {
    GPtr f = nodes_of(args[0])[0];
    make_current_figure(f);
  }
  return {handle_value(current_axes(true))};
}

Outputs bi_groot(CallContext&, Args args, int) {
  check_nargin(args, 0, 0);
  return {handle_value(root())};
}

Outputs bi_axes(CallContext&, Args args, int nargout) {
  if (args.size() == 1 && args[0].is_object()) {  // axes(ax): make current
    GPtr ax = nodes_of(args[0])[0];
    make_current_axes(ax);
    return nargout > 0 ? Outputs{handle_value(ax)} : Outputs{};
  }
  GPtr parent;
  if (!args.empty() && args[0].is_object()) {
    parent = nodes_of(args[0])[0];
    args = args.subspan(1);
  }
  // axes('Parent', f, ...)
  for (size_t i = 0; i + 1 < args.size(); i += 2)
    if (opt(args[i]) == "parent") parent = nodes_of(args[i + 1])[0];
  if (!parent) parent = current_figure(true);
  GPtr ax = new_axes(parent, {0.13, 0.11, 0.775, 0.815});
  for (size_t i = 0; i + 1 < args.size(); i += 2)
    if (opt(args[i]) != "parent") set_prop(ax, args[i].to_text(), args[i + 1]);
  make_current_axes(ax);
  return nargout > 0 ? Outputs{handle_value(ax)} : Outputs{};
}

// ---- get / set --------------------------------------------------------------------------------

Outputs bi_get(CallContext&, Args args, int nargout) {
  check_nargin(args, 1, 2);
  std::vector<GPtr> ns = nodes_of(args[0]);
  if (args.size() == 1) {
    if (ns.size() != 1)
      throw_error("MATLAB:hg:InvalidInput", "get with one argument needs a single object.");
    return {get_all(ns[0])};
  }
  if (args[1].is_cell()) {
    const CellArray& names = args[1].cell();
    CellArray out(Dims(static_cast<int64_t>(ns.size()), names.numel()));
    for (size_t i = 0; i < ns.size(); ++i)
      for (int64_t j = 0; j < names.numel(); ++j)
        out.at(static_cast<int64_t>(i) + j * static_cast<int64_t>(ns.size())) =
            get_prop(ns[i], names[j].to_text("property name"));
    return {Value(out)};
  }
  const std::string name = args[1].to_text("property name");
  if (ns.size() == 1) return {get_prop(ns[0], name)};
  CellArray out(Dims(static_cast<int64_t>(ns.size()), 1));
  for (size_t i = 0; i < ns.size(); ++i) out.at(static_cast<int64_t>(i)) = get_prop(ns[i], name);
  return {Value(out)};
}

Outputs bi_set(CallContext&, Args args, int nargout) {
  check_nargout(nargout, 0);
  if (args.size() < 2) throw_error("MATLAB:minrhs", "Not enough input arguments.");
  std::vector<GPtr> ns = nodes_of(args[0]);
  if (args.size() == 2 && args[1].is_struct()) {
    const StructArray& s = args[1].struct_array();
    for (const auto& n : ns)
      for (size_t f = 0; f < s.fields().size(); ++f)
        set_prop(n, s.fields()[f], s.get(0, static_cast<int>(f)));
    return {};
  }
  // set(h, {names}, {values})
  if (args.size() == 3 && args[1].is_cell() && args[2].is_cell()) {
    const CellArray& nm = args[1].cell();
    const CellArray& vs = args[2].cell();
    for (size_t i = 0; i < ns.size(); ++i)
      for (int64_t j = 0; j < nm.numel(); ++j) {
        const int64_t r =
            vs.dims().rows() == static_cast<int64_t>(ns.size()) ? static_cast<int64_t>(i) : 0;
        set_prop(ns[i], nm[j].to_text(), vs[r + j * vs.dims().rows()]);
      }
    return {};
  }
  for (const auto& n : ns) set_pairs(n, args, 1);
  return {};
}

// ---- close, clf, cla, hold ---------------------------------------------------------------------

Outputs bi_close(CallContext&, Args args, int nargout) {
  check_nargout(nargout, 1);
  std::vector<GPtr> targets;
  if (args.empty()) {
    if (GPtr f = current_figure(false)) targets.push_back(f);
  } else if (opt(args[0]) == "all") {
    targets = figures();
  } else if (args[0].is_text()) {
    for (const auto& f : figures())
      if (f->text("Name") == args[0].to_text()) targets.push_back(f);
  } else {
    for (const auto& n : nodes_of(args[0]))
      if (n->type() == "figure") targets.push_back(n);
  }
  GPtr r = root();
  for (const auto& f : targets) {
    destroy(f);
    const Value& cf = r->prop("CurrentFigure");
    if (cf.is_object() && nodes_of_unchecked_equal(cf, f)) r->put("CurrentFigure", Value());
  }
  if (!r->prop("CurrentFigure").is_object()) current_figure(false);
  return nargout > 0 ? Outputs{Value(1.0)} : Outputs{};
}

Outputs bi_clf(CallContext&, Args args, int nargout) {
  GPtr f;
  if (!args.empty() && args[0].is_object()) {
    f = nodes_of(args[0])[0];
    args = args.subspan(1);
  } else {
    f = current_figure(true);
  }
  clear_figure(f, !args.empty() && opt(args[0]) == "reset");
  return nargout > 0 ? Outputs{handle_value(f)} : Outputs{};
}

Outputs bi_cla(CallContext&, Args args, int nargout) {
  GPtr ax = take_axes(args);
  if (!ax) ax = current_axes(true);
  if (!args.empty() && opt(args[0]) == "reset") {
    reset_axes(ax);
  } else {
    std::vector<GPtr> kids = ax->children();
    for (const auto& k : kids) destroy(k);
    ax->put("ColorOrderIndex", Value(1.0));
  }
  return nargout > 0 ? Outputs{handle_value(ax)} : Outputs{};
}

Outputs bi_hold(CallContext&, Args args, int nargout) {
  check_nargout(nargout, 0);
  GPtr ax = take_axes(args);
  if (!ax) ax = current_axes(true);
  std::string mode = args.empty() ? (hold_on(*ax) ? "off" : "on") : opt(args[0]);
  if (mode == "all") mode = "on";
  if (mode != "on" && mode != "off")
    throw_error("MATLAB:hold:UnknownOption", "Unknown command option.");
  ax->put("NextPlot", Value::from_chars(mode == "on" ? "add" : "replace"));
  if (GPtr f = ax->ancestor("figure")) f->put("NextPlot", Value::from_chars("add"));
  return {};
}

Outputs bi_ishold(CallContext&, Args args, int) {
  GPtr ax = take_axes(args);
  if (!ax) ax = current_axes(false);
  return {Value::logical(ax && hold_on(*ax))};
}

// ---- subplot, tiledlayout, nexttile ------------------------------------------------------------

/// Inner position of the tiles `cells` (0-based, row-major) of an m x n grid: MATLAB's
/// subplot.m geometry (default axes position with insets of [.2 .18 .04 .1] of a cell).
std::array<double, 4> grid_position(int m, int n, const std::vector<int>& cells, double scale,
                                    Value* outer_out = nullptr) {
  const double def[4] = {0.13, 0.11, 0.775, 0.815};
  double inset[4] = {0.2 * scale, 0.18 * scale, 0.04 * scale, 0.1 * scale};
  int rmin = m, rmax = -1, cmin = n, cmax = -1;
  for (int c : cells) {
    const int row = (m - 1) - c / n, col = c % n;
    rmin = std::min(rmin, row);
    rmax = std::max(rmax, row);
    cmin = std::min(cmin, col);
    cmax = std::max(cmax, col);
  }
  const double width = def[2] / (n - inset[0] - inset[2]);
  const double height = def[3] / (m - inset[1] - inset[3]);
  for (int k = 0; k < 4; ++k) inset[k] *= (k % 2 == 0 ? width : height);
  double outer[4] = {def[0] + cmin * width - inset[0], def[1] + rmin * height - inset[1],
                     width * (cmax - cmin + 1), height * (rmax - rmin + 1)};
  if (cmin == 0) {
    inset[0] = def[0];
    outer[2] = outer[0] + outer[2];
    outer[0] = 0;
  }
  if (rmin == 0) {
    inset[1] = def[1];
    outer[3] = outer[1] + outer[3];
    outer[1] = 0;
  }
  if (cmax == n - 1) {
    inset[2] = std::max(0.0, 1 - def[0] - def[2]);
    outer[2] = 1 - outer[0];
  }
  if (rmax == m - 1) {
    inset[3] = std::max(0.0, 1 - def[1] - def[3]);
    outer[3] = 1 - outer[1];
  }
  if (outer_out) *outer_out = row_value({outer[0], outer[1], outer[2], outer[3]});
  return {outer[0] + inset[0], outer[1] + inset[1], outer[2] - inset[0] - inset[2],
          outer[3] - inset[1] - inset[3]};
}

bool overlaps(const std::vector<double>& a, const std::array<double, 4>& b) {
  if (a.size() < 4) return false;
  const double ix = std::min(a[0] + a[2], b[0] + b[2]) - std::max(a[0], b[0]);
  const double iy = std::min(a[1] + a[3], b[1] + b[3]) - std::max(a[1], b[1]);
  return ix > 1e-6 && iy > 1e-6;
}

Outputs bi_subplot(CallContext&, Args args, int nargout) {
  check_nargout(nargout, 1);
  GPtr f = current_figure(true);
  if (args.size() >= 2 && opt(args[0]) == "position") {
    Tensor p = num(args[1], "subplot");
    GPtr ax = new_axes(f, {p.get_double(0), p.get_double(1), p.get_double(2), p.get_double(3)});
    ax->put("_Fit", Value::from_chars("off"));
    make_current_axes(ax);
    return nargout > 0 ? Outputs{handle_value(ax)} : Outputs{};
  }
  int m, n;
  std::vector<int> cells;
  size_t used;
  if (args.size() == 1 || (args.size() >= 2 && args[1].is_text())) {
    const double dv = args[0].to_double("subplot");
    // Checked as a double: NaN, Inf and 1e12 would be undefined to cast to int.
    if (!(dv >= 111 && dv < 1000))
      throw_error("MATLAB:subplot:InvalidSyntax", "Unknown command option.");
    const int v = static_cast<int>(dv);
    m = v / 100;
    n = (v / 10) % 10;
    cells = {v % 10 - 1};
    used = 1;
  } else if (args.size() >= 3) {
    // The grid and the cell numbers are checked as doubles (NaN, Inf and 1e12 would be
    // undefined to cast to int); the grid's m*n cells are numbered in int.
    const double dm = args[0].to_double("m"), dn = args[1].to_double("n");
    if (!(dm >= 1 && dn >= 1 && std::floor(dm) * std::floor(dn) <= INT_MAX))
      throw_error("MATLAB:subplot:InvalidSyntax", "Invalid subplot grid.");
    m = static_cast<int>(dm);
    n = static_cast<int>(dn);
    Tensor p = num(args[2], "subplot");
    for (int64_t i = 0; i < p.numel(); ++i) {
      const double c = p.get_double(i);
      if (!(c >= 1 && c < static_cast<double>(m) * n + 1))
        throw_error("MATLAB:subplot:IndexOutOfRange", "Index exceeds number of subplots.");
      cells.push_back(static_cast<int>(c) - 1);
    }
    used = 3;
  } else {
    throw_error("MATLAB:minrhs", "Not enough input arguments.");
  }
  if (m < 1 || n < 1) throw_error("MATLAB:subplot:InvalidSyntax", "Invalid subplot grid.");
  for (int c : cells)
    if (c < 0 || c >= int64_t{m} * n)
      throw_error("MATLAB:subplot:IndexOutOfRange", "Index exceeds number of subplots.");
  std::sort(cells.begin(), cells.end());
  std::vector<double> key = {static_cast<double>(m), static_cast<double>(n)};
  for (int c : cells) key.push_back(c);
  bool replace = false;
  for (size_t i = used; i < args.size(); ++i)
    if (opt(args[i]) == "replace") replace = true;
  // An existing axes of the same grid cell becomes current.
  for (const auto& c : f->children()) {
    if (c->type() != "axes" && c->type() != "polaraxes") continue;
    if (c->vec("_Layout") == key) {
      if (replace) {
        destroy(c);
        break;
      }
      make_current_axes(c);
      return nargout > 0 ? Outputs{handle_value(c)} : Outputs{};
    }
  }
  Value outer;
  const auto pos = grid_position(m, n, cells, 1.0, &outer);
  std::vector<GPtr> kids = f->children();
  for (const auto& c : kids)
    if ((c->type() == "axes" || c->type() == "polaraxes") && overlaps(c->vec("Position"), pos))
      destroy(c);
  GPtr ax = new_axes(f, pos);
  ax->put("_Layout", row_value(key));
  ax->put("OuterPosition", outer);
  for (size_t i = used; i + 1 < args.size(); i += 2)
    if (opt(args[i]) != "replace") set_prop(ax, args[i].to_text(), args[i + 1]);
  make_current_axes(ax);
  return nargout > 0 ? Outputs{handle_value(ax)} : Outputs{};
}

GPtr current_layout(const GPtr& f) {
  for (auto it = f->children().rbegin(); it != f->children().rend(); ++it)
    if ((*it)->type() == "tiledlayout") return *it;
  return nullptr;
}

double spacing_scale(const GNode& t) {
  const std::string s = t.text("TileSpacing");
  return s == "compact" ? 0.55 : (s == "tight" || s == "none") ? 0.3 : 0.8;
}

void place_tiles(const GPtr& f, const GPtr& t) {
  const std::vector<double> g = t->vec("GridSize");
  const int m = static_cast<int>(g[0]), n = static_cast<int>(g[1]);
  for (const auto& c : f->children()) {
    const std::vector<double> key = c->type() == "axes" ? c->vec("_Layout") : std::vector<double>();
    if (key.size() < 3 || key[0] != -1) continue;
    std::vector<int> cells;
    for (size_t k = 3; k < key.size(); ++k) cells.push_back(static_cast<int>(key[k]));
    Value outer;
    const auto pos = grid_position(m, n, cells, spacing_scale(*t), &outer);
    c->put("OuterPosition", outer);
    Tensor p = Tensor::zeros(ClassId::Double, Dims(1, 4));
    for (int k = 0; k < 4; ++k) p.set_double(k, pos[k]);
    c->put("Position", Value(std::move(p)));
  }
}

Outputs bi_tiledlayout(CallContext&, Args args, int nargout) {
  GPtr f = current_figure(true);
  clear_figure(f, false);
  GPtr t = create("tiledlayout", f);
  size_t used = 0;
  if (!args.empty() && opt(args[0]) == "flow") {
    t->put("GridSize", row_value({1, 1}));
    t->define("_Flow", Value::from_chars("on"));
    used = 1;
  } else if (!args.empty() && !args[0].is_text()) {
    // m, n or [m n]: positive integers with m*n tiles numbered in int (NaN, Inf and 1e12 would
    // be undefined to cast to int where the tiles are placed).
    double m, n;
    if (args.size() >= 2 && !args[1].is_text()) {
      m = args[0].to_double("m");
      n = args[1].to_double("n");
      used = 2;
    } else {
      Tensor g = num(args[0], "tiledlayout");
      if (g.numel() != 2)
        throw_error("MATLAB:tiledlayout:InvalidGridSize",
                    "Grid size must be two positive integers.");  // unverified
      m = g.get_double(0);
      n = g.get_double(1);
      used = 1;
    }
    if (!(m >= 1 && n >= 1 && m * n <= INT_MAX) || m != std::floor(m) || n != std::floor(n))
      throw_error("MATLAB:tiledlayout:InvalidGridSize",
                  "Grid size must be two positive integers.");  // unverified
    t->put("GridSize", row_value({m, n}));
  }
  set_pairs(t, args, used);
  return nargout > 0 ? Outputs{handle_value(t)} : Outputs{};
}

Outputs bi_nexttile(CallContext&, Args args, int nargout) {
  GPtr f = current_figure(true);
  GPtr t = current_layout(f);
  if (!t) {
    t = create("tiledlayout", f);
    t->put("GridSize", row_value({1, 1}));
    t->define("_Flow", Value::from_chars("on"));
  }
  const bool flow = t->find_prop("_Flow") < 0 ? false : t->text("_Flow") == "on";
  int index = static_cast<int>(t->num("_Next"));
  std::vector<double> span = {1, 1};
  // Tile numbers and spans are positive integers (NaN, Inf or 1e12 would be undefined to cast
  // to int); a span larger than the grid covers the tiles to its edge.
  auto positive_int = [](double v, const char* id, const char* msg) {
    if (!(v >= 1 && v <= INT_MAX / 2) || v != std::floor(v)) throw_error(id, "%s", msg);
    return v;
  };
  auto check_span = [&] {
    for (double& v : span)
      v = positive_int(v, "MATLAB:tiledlayout:InvalidSpan",
                       "Span must be a two-element vector of positive integers.");  // unverified
  };
  if (!args.empty() && !args[0].is_text()) {
    Tensor a = num(args[0], "nexttile");
    if (a.numel() == 2 && args.size() == 1) {
      span = {a.get_double(0), a.get_double(1)};
      check_span();
    } else {
      if (a.numel() < 1)
        throw_error("MATLAB:tiledlayout:InvalidTileIndex", "Tile index out of range.");
      index = static_cast<int>(positive_int(a.get_double(0), "MATLAB:tiledlayout:InvalidTileIndex",
                                            "Tile index out of range."));
    }
    if (args.size() >= 2 && !args[1].is_text()) {
      Tensor s = num(args[1], "nexttile");
      if (s.numel() != 2)
        throw_error("MATLAB:tiledlayout:InvalidSpan",
                    "Span must be a two-element vector of positive integers.");  // unverified
      span = {s.get_double(0), s.get_double(1)};
      check_span();
    }
  }
  std::vector<double> g = t->vec("GridSize");
  if (flow) {
    const int count = std::max(index, 1);
    const int cols = static_cast<int>(std::ceil(std::sqrt(static_cast<double>(count))));
    const int rows = (count + cols - 1) / cols;
    g = {static_cast<double>(rows), static_cast<double>(cols)};
    t->put("GridSize", row_value(g));
  }
  const int m = static_cast<int>(g[0]), n = static_cast<int>(g[1]);
  if (index < 1 || index > int64_t{m} * n)
    throw_error("MATLAB:tiledlayout:InvalidTileIndex", "Tile index out of range.");
  // An existing tile at this index becomes current.
  for (const auto& c : f->children()) {
    const std::vector<double> key = c->type() == "axes" ? c->vec("_Layout") : std::vector<double>();
    if (key.size() >= 4 && key[0] == -1 && key[1] == index && !flow) {
      make_current_axes(c);
      t->put("_Next", Value(static_cast<double>(index + 1)));
      return nargout > 0 ? Outputs{handle_value(c)} : Outputs{};
    }
  }
  std::vector<double> key = {-1, static_cast<double>(index), 0};
  const int r0 = (index - 1) / n, c0 = (index - 1) % n;
  for (int r = 0; r < std::min<double>(span[0], m); ++r)
    for (int c = 0; c < std::min<double>(span[1], n); ++c)
      if (r0 + r < m && c0 + c < n) key.push_back((r0 + r) * n + c0 + c);
  GPtr ax = new_axes(f, {0.13, 0.11, 0.775, 0.815});
  ax->put("_Layout", row_value(key));
  t->put("_Next", Value(static_cast<double>(index + 1)));
  place_tiles(f, t);
  make_current_axes(ax);
  return nargout > 0 ? Outputs{handle_value(ax)} : Outputs{};
}

// ---- queries and no-display commands --------------------------------------------------------

Outputs bi_ishandle(CallContext&, Args args, int) {
  check_nargin(args, 1, 2);
  if (args.size() == 2 && !args[1].is_text())
    throw_error("MATLAB:isgraphics:InvalidType", "isgraphics: TYPE must be a string");
  const Value& v = args[0];
  if (v.is_object() && dynamic_cast<GHandle*>(v.object().get())) {
    const auto& ns = static_cast<GHandle*>(v.object().get())->nodes();
    Tensor t = Tensor::zeros(ClassId::Logical, v.dims());
    for (size_t i = 0; i < ns.size(); ++i) {
      bool ok = !ns[i]->deleted;
      if (ok && args.size() == 2) ok = ns[i]->type() == opt(args[1]);
      t.set_double(static_cast<int64_t>(i), ok);
    }
    return {Value(t)};
  }
  if (v.is_tensor() && !v.is_char()) {
    Tensor in = v.tensor();
    Tensor t = Tensor::zeros(ClassId::Logical, in.dims());
    for (int64_t i = 0; i < in.numel(); ++i) {
      const double k = in.get_double(i);
      GPtr n = k == 0 ? root() : find_figure(k);
      bool ok = n != nullptr;
      if (ok && args.size() == 2) ok = n->type() == opt(args[1]);
      t.set_double(i, ok);
    }
    return {Value(t)};
  }
  return {Value::logical(false)};
}

Outputs bi_noop(CallContext&, Args, int) { return {}; }

}  // namespace

bool nodes_of_unchecked_equal(const Value& v, const GPtr& n) {
  auto* h = dynamic_cast<GHandle*>(v.object().get());
  return h && h->nodes().size() == 1 && h->nodes()[0] == n;
}

void register_graphics_core(Registry& r) {
  set_handle_delete_hook(&matfuse::graphics::delete_handles);  // delete(h) (files_sys.cc)
  r.add("figure", bi_figure);
  r.add("gcf", bi_gcf);
  r.add("gca", bi_gca);
  r.add("groot", bi_groot);
  r.add("axes", bi_axes);
  r.add("get", bi_get);
  r.add("set", bi_set);
  r.add("close", bi_close);
  r.add("clf", bi_clf);
  r.add("cla", bi_cla);
  r.add("hold", bi_hold);
  r.add("ishold", bi_ishold);
  r.add("subplot", bi_subplot);
  r.add("tiledlayout", bi_tiledlayout);
  r.add("nexttile", bi_nexttile);
  r.add("ishandle", bi_ishandle);
  r.add("isgraphics", bi_ishandle);
  for (const char* n : {"drawnow", "shg", "refresh"}) r.add(n, bi_noop);
}

}  // namespace matfuse::gfx

namespace matfuse::graphics {

bool available() { return gfx::rendering_available(); }

std::vector<int> open_figures() {
  std::vector<int> out;
  for (const auto& f : gfx::figures()) out.push_back(static_cast<int>(f->num("Number")));
  return out;
}

std::string figure_png(int number, double dpi) {
  gfx::GPtr f = gfx::find_figure(number);
  if (!f) throw_error("MATLAB:hg:InvalidHandle", "Invalid or deleted object.");
  return gfx::render_figure(*f, gfx::ImageFormat::Png, dpi);
}

int write_open_figures(const std::string& dir, double dpi) {
  int k = 0;
  for (const auto& f : gfx::figures()) {
    const std::string path =
        dir + "/figure" + std::to_string(static_cast<int>(f->num("Number"))) + ".png";
    gfx::write_figure(*f, path, gfx::ImageFormat::Png, dpi);
    ++k;
  }
  return k;
}

bool delete_handles(const Value& v) {
  if (!v.is_object() || !dynamic_cast<gfx::GHandle*>(v.object().get())) return false;
  for (const auto& n : gfx::nodes_of(v)) {
    if (n->type() == "root") continue;
    gfx::destroy(n);
    if (n->type() == "figure") gfx::current_figure(false);
  }
  return true;
}

void close_all() {
  for (const auto& f : gfx::figures()) gfx::destroy(f);
  gfx::root()->put("CurrentFigure", Value());
}

}  // namespace matfuse::graphics
