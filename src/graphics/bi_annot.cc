// Graphics builtins for annotation and axes appearance: title, subtitle, sgtitle, xlabel,
// ylabel, zlabel, legend, text, grid, box, axis, xlim, ylim, zlim, xticks, yticks, zticks,
// xticklabels, yticklabels, zticklabels, xtickangle/ytickangle, colormap and the colormap
// functions (parula, jet, gray, ...), colorbar, clim/caxis, view.
#include <algorithm>
#include <cmath>

#include "graphics/axes_layout.h"
#include "graphics/bi_util.h"
#include "graphics/colormaps.h"

namespace matfuse::gfx {

namespace {

/// title/xlabel/ylabel/zlabel: sets the text of an axes slot; returns the text object.
Outputs label_fn(Args args, int nargout, const char* slot, const char* fname) {
  GPtr ax = take_handle(args);
  if (ax && ax->type() == "tiledlayout") {
    if (args.empty()) throw_error("MATLAB:minrhs", "Not enough input arguments.");
    GPtr t = create("text", nullptr);
    t->set_parent(ax);
    t->put("FontSize", Value(11.0));
    t->put("FontWeight", Value::from_chars("bold"));
    set_prop(t, "String", args[0]);
    set_pairs(t, args, 1);
    ax->put("Title", handle_value(t));
    return nargout > 0 ? Outputs{handle_value(t)} : Outputs{};
  }
  if (!ax) ax = current_axes(true);
  if (args.empty()) throw_error("MATLAB:minrhs", "Not enough input arguments.");
  GPtr t = axes_label(ax, slot);
  Value s = args[0];
  if (s.is_tensor() && !s.is_char()) {  // numbers are shown as text
    char b[64];
    std::snprintf(b, sizeof b, "%g", s.to_double(fname));
    s = Value::from_chars(b);
  }
  set_prop(t, "String", s);
  set_pairs(t, args, 1);
  return nargout > 0 ? Outputs{handle_value(t)} : Outputs{};
}

Outputs bi_title(CallContext&, Args a, int n) { return label_fn(a, n, "Title", "title"); }
Outputs bi_xlabel(CallContext&, Args a, int n) { return label_fn(a, n, "XLabel", "xlabel"); }
Outputs bi_ylabel(CallContext&, Args a, int n) { return label_fn(a, n, "YLabel", "ylabel"); }
Outputs bi_zlabel(CallContext&, Args a, int n) { return label_fn(a, n, "ZLabel", "zlabel"); }

/// sgtitle: a title over all axes of the figure (a tiled layout's title).
Outputs bi_sgtitle(CallContext&, Args args, int nargout) {
  GPtr f = current_figure(true);
  if (!args.empty() && args[0].is_object()) {
    f = nodes_of(args[0])[0];
    args = args.subspan(1);
  }
  if (args.empty()) throw_error("MATLAB:minrhs", "Not enough input arguments.");
  GPtr holder;
  for (const auto& c : f->children())
    if (c->type() == "tiledlayout") holder = c;
  if (!holder) holder = create("tiledlayout", f);
  GPtr t = create("text", nullptr);
  t->set_parent(holder);
  t->put("FontSize", Value(11.0));
  t->put("FontWeight", Value::from_chars("bold"));
  set_prop(t, "String", args[0]);
  set_pairs(t, args, 1);
  holder->put("Title", handle_value(t));
  // Leave room at the top: shift the axes down a little, as MATLAB does.
  return nargout > 0 ? Outputs{handle_value(t)} : Outputs{};
}

/// Plotted objects of an axes that a legend can describe, oldest first.
std::vector<GPtr> legend_candidates(const GPtr& ax) {
  std::vector<GPtr> out;
  for (const auto& c : ax->children())
    if (c->type() != "text" && c->type() != "image" && c->find_prop("DisplayName") >= 0)
      out.push_back(c);
  return out;
}

Outputs bi_legend(CallContext&, Args args, int nargout) {
  GPtr ax = take_axes(args);
  if (!ax) ax = current_axes(true);
  const Value& existing = ax->prop("Legend");
  GPtr lg = existing.is_object() ? nodes_of(existing)[0] : nullptr;
  if (args.size() == 1 && args[0].is_text()) {
    const std::string o = opt(args[0]);
    if (o == "off") {
      if (lg) destroy(lg);
      ax->put("Legend", Value());
      return {};
    }
    if (o == "hide" || o == "boxoff" || o == "boxon" || o == "toggle") {
      if (!lg && o != "toggle") return {};
      if (o == "hide") lg->put("Visible", Value::from_chars("off"));
      if (o == "boxoff") lg->put("Box", Value::from_chars("off"));
      if (o == "boxon") lg->put("Box", Value::from_chars("on"));
      if (o == "toggle" && lg)
        lg->put("Visible", Value::from_chars(lg->on("Visible") ? "off" : "on"));
      return nargout > 0 ? Outputs{handle_value(lg)} : Outputs{};
    }
    if (o == "show" && lg) {
      lg->put("Visible", Value::from_chars("on"));
      return nargout > 0 ? Outputs{handle_value(lg)} : Outputs{};
    }
  }
  std::vector<GPtr> items;
  std::vector<std::string> labels;
  bool explicit_items = false;
  if (!args.empty() && args[0].is_object()) {
    items = nodes_of(args[0]);
    explicit_items = true;
    args = args.subspan(1);
  }
  // Labels: a cellstr, a string array, or text arguments up to the first property name.
  static const char* const kProps[] = {
      "location",    "orientation", "fontsize",   "box",     "textcolor", "color",      "edgecolor",
      "interpreter", "numcolumns",  "autoupdate", "visible", "fontname",  "fontweight", "title"};
  size_t k = 0;
  if (!args.empty() && (args[0].is_cell() || (args[0].is_string() && args[0].numel() != 1))) {
    for (int64_t i = 0; i < args[0].numel(); ++i)
      labels.push_back(args[0].is_cell() ? args[0].cell()[i].to_text("legend label")
                                         : *args[0].string_array()[i]);
    k = 1;
  } else {
    for (; k < args.size(); ++k) {
      if (!args[k].is_text()) break;
      const std::string o = opt(args[k]);
      bool is_prop = false;
      for (const char* p : kProps)
        if (o == p) is_prop = true;
      if (is_prop && k + 1 < args.size()) break;
      if (o == "show" && labels.empty()) continue;
      labels.push_back(args[k].to_text());
    }
  }
  if (!explicit_items) {
    const std::vector<GPtr> cands = legend_candidates(ax);
    if (labels.empty()) {
      items = cands;
    } else {
      for (size_t i = 0; i < cands.size() && i < labels.size(); ++i) items.push_back(cands[i]);
      if (labels.size() > cands.size())
        throw_error("MATLAB:legend:IgnoringExtraEntries",
                    "Ignoring extra legend entries.");  // MATLAB warns; nothing to label
    }
  }
  for (size_t i = labels.size(); i < items.size(); ++i) {
    std::string d = items[i]->text("DisplayName");
    labels.push_back(d.empty() ? "data" + std::to_string(i + 1) : d);
  }
  labels.resize(items.size());
  for (size_t i = 0; i < items.size(); ++i)
    if (items[i]->find_prop("DisplayName") >= 0)
      items[i]->put("DisplayName", Value::from_chars(labels[i]));
  if (!lg) {
    lg = create("legend", ax->ancestor("figure"));
    ax->put("Legend", handle_value(lg));
    lg->put("Axes", handle_value(ax));
  }
  lg->put("FontSize", Value(0.9 * ax->num("FontSize")));
  CellArray s(Dims(1, static_cast<int64_t>(labels.size())));
  for (size_t i = 0; i < labels.size(); ++i)
    s.at(static_cast<int64_t>(i)) = Value::from_chars(labels[i]);
  lg->put("String", Value(s));
  lg->put("_Items", handle_column(items));
  lg->put("Visible", Value::from_chars("on"));
  for (; k + 1 < args.size(); k += 2) set_prop(lg, args[k].to_text(), args[k + 1]);
  return nargout > 0 ? Outputs{handle_value(lg)} : Outputs{};
}

Outputs bi_text(CallContext&, Args args, int nargout) {
  GPtr ax = take_axes(args);
  if (args.size() < 3) throw_error("MATLAB:minrhs", "Not enough input arguments.");
  if (!ax) ax = current_axes(true);
  size_t si = 2;
  std::vector<double> z;
  if (args.size() >= 4 && !args[2].is_text() && !args[2].is_cell() && !args[2].is_string() &&
      !args[2].is_char()) {
    z = values(num(args[2], "text"));
    si = 3;
  }
  const std::vector<double> x = values(num(args[0], "text")), y = values(num(args[1], "text"));
  if (x.size() != y.size() || (!z.empty() && z.size() != x.size()))
    throw_error("MATLAB:text:InvalidInput", "text: X, Y, and Z coordinates must match");
  const Value& str = args[si];
  if (!str.is_text() && !str.is_cell() && !str.is_string() && !str.is_char())
    throw_error("MATLAB:text:InvalidInput", "text: STRING must be a character string");
  const int64_t nstr = str.is_cell() || str.is_string()
                           ? str.numel()
                           : (str.is_char() ? std::max<int64_t>(str.dims().rows(), 1) : 1);
  if (x.size() > 1 && nstr > 1 && nstr != static_cast<int64_t>(x.size()))
    throw_error("MATLAB:text:InvalidInput", "text: invalid combination of points and text strings");
  if (x.size() == 1 && nstr > 1 && str.is_cell() && false) {
  }
  if ((args.size() - si - 1) % 2 != 0)
    throw_error("MATLAB:text:InvalidInput", "Invalid call to text");
  std::vector<GPtr> out;
  for (size_t i = 0; i < x.size() && i < y.size(); ++i) {
    GPtr t = create("text", ax);
    t->put("Position", row_value({x[i], y[i], i < z.size() ? z[i] : 0.0}));
    Value s = args[si];
    if (s.is_cell() && s.numel() == static_cast<int64_t>(x.size()) && x.size() > 1) s = s.cell()[i];
    if (s.is_tensor() && !s.is_char()) {
      char b[64];
      std::snprintf(b, sizeof b, "%g", s.tensor().get_double(std::min<int64_t>(i, s.numel() - 1)));
      s = Value::from_chars(b);
    }
    set_prop(t, "String", s);
    set_pairs(t, args, si + 1);
    out.push_back(t);
  }
  return handles_out(out, nargout);
}

void switch_prop(Args args, const std::vector<const char*>& props, const char* fname) {
  GPtr ax = take_axes(args);
  if (!ax) ax = current_axes(true);
  std::string mode = args.empty() ? "toggle" : opt(args[0]);
  if (mode == "minor") {
    for (const char* p : props) {
      const std::string m = std::string(p).substr(0, 1) + "MinorGrid";
      if (ax->find_prop(m) >= 0) ax->put(m, Value::from_chars(ax->on(m) ? "off" : "on"));
    }
    return;
  }
  if (mode == "toggle") mode = ax->on(props[0]) ? "off" : "on";
  if (mode != "on" && mode != "off")
    throw_error("MATLAB:grid:UnknownOption", "Unknown command option.");
  for (const char* p : props) {
    ax->put(p, Value::from_chars(mode));
    if (mode == "off" && std::string(p).find("Grid") != std::string::npos) {
      const std::string m = std::string(p).substr(0, 1) + "MinorGrid";
      if (ax->find_prop(m) >= 0) ax->put(m, Value::from_chars("off"));
    }
  }
}

Outputs bi_grid(CallContext&, Args args, int nargout) {
  check_nargout(nargout, 0);
  switch_prop(args, {"XGrid", "YGrid", "ZGrid"}, "grid");
  return {};
}

Outputs bi_box(CallContext&, Args args, int nargout) {
  check_nargout(nargout, 0);
  switch_prop(args, {"Box"}, "box");
  return {};
}

void set_lim(const GPtr& ax, int dim, double lo, double hi) {
  static const char* lim[3] = {"XLim", "YLim", "ZLim"};
  set_prop(ax, lim[dim], row_value({lo, hi}));
}

Outputs bi_axis(CallContext&, Args args, int nargout) {
  GPtr ax = take_axes(args);
  if (!ax) ax = current_axes(true);
  if (args.empty()) {
    std::vector<double> v;
    for (int d = 0; d < (is_3d(*ax) ? 3 : 2); ++d) {
      const Range r = axis_limits(*ax, d);
      v.push_back(r.lo);
      v.push_back(r.hi);
    }
    return {row_value(v)};
  }
  for (const Value& a : args) {
    if (!a.is_text()) {
      Tensor t = num(a, "axis");
      if (t.numel() != 4 && t.numel() != 6)
        throw_error("MATLAB:axis:WrongNumberElements", "Vector must have 4 or 6 elements.");
      for (int d = 0; d < t.numel() / 2; ++d) {
        const double lo = t.get_double(2 * d), hi = t.get_double(2 * d + 1);
        static const char* mode[3] = {"XLimMode", "YLimMode", "ZLimMode"};
        static const char* lim[3] = {"XLim", "YLim", "ZLim"};
        ax->put(lim[d], row_value({lo, hi}));
        ax->put(mode[d], Value::from_chars("manual"));
        if (!(lo < hi) && std::isfinite(lo) && std::isfinite(hi))
          throw_error("MATLAB:hg:shaped_arrays:LimitsWithInfsPredicate",
                      "Value must be a 1x2 vector of numeric type in which the second element "
                      "is larger than the first and may be Inf.");
      }
      continue;
    }
    const std::string o = opt(a);
    auto on = [&](const char* p, const char* v) { ax->put(p, Value::from_chars(v)); };
    if (o == "equal") {
      ax->put("DataAspectRatio", row_value({1, 1, 1}));
      on("DataAspectRatioMode", "manual");
      on("_Square", "off");
    } else if (o == "image") {
      ax->put("DataAspectRatio", row_value({1, 1, 1}));
      on("DataAspectRatioMode", "manual");
      on("_Tight", "on");
    } else if (o == "square") {
      on("_Square", "on");
      on("DataAspectRatioMode", "auto");
    } else if (o == "normal" || o == "fill") {
      on("_Square", "off");
      on("DataAspectRatioMode", "auto");
    } else if (o == "tight" || o == "tickaligned" || o == "padded") {
      on("_Tight", o == "tight" ? "on" : "off");
      for (const char* m : {"XLimMode", "YLimMode", "ZLimMode"}) on(m, "auto");
    } else if (o == "auto") {
      on("_Tight", "off");
      for (const char* m : {"XLimMode", "YLimMode", "ZLimMode"}) on(m, "auto");
    } else if (o == "manual") {
      for (int d = 0; d < 3; ++d) {
        const Range r = axis_limits(*ax, d);
        set_lim(ax, d, r.lo, r.hi);
      }
    } else if (o == "off") {
      on("Visible", "off");
    } else if (o == "on") {
      on("Visible", "on");
    } else if (o == "ij") {
      on("YDir", "reverse");
    } else if (o == "xy") {
      on("YDir", "normal");
    } else if (o == "vis3d") {
    } else {
      throw_error("MATLAB:axis:UnknownOption", "Unknown command option %s.", a.to_text().c_str());
    }
  }
  return {};
}

Outputs lim_fn(Args args, int nargout, int dim) {
  GPtr ax = take_axes(args);
  if (!ax) ax = current_axes(true);
  static const char* mode[3] = {"XLimMode", "YLimMode", "ZLimMode"};
  if (args.empty()) {
    const Range r = axis_limits(*ax, dim);
    return {row_value({r.lo, r.hi})};
  }
  const std::string o = opt(args[0]);
  if (o == "auto" || o == "manual") {
    if (o == "manual") {
      const Range r = axis_limits(*ax, dim);
      set_lim(ax, dim, r.lo, r.hi);
    } else {
      ax->put(mode[dim], Value::from_chars("auto"));
    }
    return {};
  }
  if (o == "mode") return {Value::from_chars(ax->text(mode[dim]))};
  Tensor t = num(args[0], "xlim");
  if (t.numel() != 2)
    throw_error("MATLAB:xlim:InvalidNumberOfElements", "Limits must be a 2-element vector.");
  set_lim(ax, dim, t.get_double(0), t.get_double(1));
  return {};
}

Outputs bi_xlim(CallContext&, Args a, int n) { return lim_fn(a, n, 0); }
Outputs bi_ylim(CallContext&, Args a, int n) { return lim_fn(a, n, 1); }
Outputs bi_zlim(CallContext&, Args a, int n) { return lim_fn(a, n, 2); }

Outputs ticks_fn(Args args, int nargout, const char* prop, bool labels) {
  GPtr ax = take_axes(args);
  check_nargin(args, 0, 1);
  if (!ax) ax = current_axes(true);
  if (args.empty()) return {get_prop(ax, prop)};
  const std::string o = opt(args[0]);
  const std::string mode = std::string(prop) + "Mode";
  if (o == "auto" || o == "manual") {
    if (o == "manual")
      set_prop(ax, prop, get_prop(ax, prop));
    else
      ax->put(mode, Value::from_chars("auto"));
    return {};
  }
  if (o == "mode") return {Value::from_chars(ax->text(mode))};
  set_prop(ax, prop, args[0]);
  (void)labels;
  return {};
}

Outputs bi_xticks(CallContext&, Args a, int n) { return ticks_fn(a, n, "XTick", false); }
Outputs bi_yticks(CallContext&, Args a, int n) { return ticks_fn(a, n, "YTick", false); }
Outputs bi_zticks(CallContext&, Args a, int n) { return ticks_fn(a, n, "ZTick", false); }
Outputs bi_xticklabels(CallContext&, Args a, int n) { return ticks_fn(a, n, "XTickLabel", true); }
Outputs bi_yticklabels(CallContext&, Args a, int n) { return ticks_fn(a, n, "YTickLabel", true); }
Outputs bi_zticklabels(CallContext&, Args a, int n) { return ticks_fn(a, n, "ZTickLabel", true); }
/// xtickangle(angle) | xtickangle(ax, angle) | a = xtickangle: the tick label rotation (labels
/// are drawn horizontal, so a query gives 0). Errors: MATLAB:xtickangle:InvalidAxes (a first
/// argument that is not an axes), MATLAB:xtickangle:InvalidAngle (not a finite real scalar),
/// MATLAB:xtickangle:QueryAndSet (an output together with a set value).
Outputs bi_tickangle(CallContext&, Args args, int nargout) {
  const bool had_two = args.size() == 2;
  GPtr ax = take_axes(args);
  if (had_two && !ax)
    throw_error("MATLAB:xtickangle:InvalidAxes", "HAX must be a handle to an axes object.");
  if (args.size() > 1) throw_error("MATLAB:TooManyInputs", "Too many input arguments.");
  if (args.empty()) return {Value(0.0)};
  if (nargout > 0)
    throw_error("MATLAB:xtickangle:QueryAndSet",
                "Cannot be called with an output query and an input set value.");
  const Value& a = args[0];
  if (!a.is_tensor() || a.is_char() || a.numel() != 1 || a.tensor().is_complex() ||
      !std::isfinite(a.tensor().get_double(0)))
    throw_error("MATLAB:xtickangle:InvalidAngle", "ANGLE must be a finite real numeric scalar.");
  return {};  // tick label rotation is not drawn (labels stay horizontal)
}

Outputs bi_colormap(CallContext&, Args args, int nargout) {
  GPtr target = take_handle(args);
  if (!target) target = current_figure(true);
  const char* prop = "Colormap";
  if (args.empty()) return {get_prop(target, prop)};
  Value map = args[0];
  if (map.is_text()) {
    const std::string o = opt(map);
    if (o == "default")
      map = colormap_value("parula", 256);
    else
      map = colormap_value(o, 256);
  } else {
    Tensor t = num(map, "colormap");
    if (t.dims().ndims() != 2 || t.dims().cols() != 3)
      throw_error("MATLAB:colormap:InvalidInputArguments",
                  "Colormap must have 3 columns: [R,G,B].");
    for (int64_t i = 0; i < t.numel(); ++i)
      if (!(t.get_double(i) >= 0 && t.get_double(i) <= 1))
        throw_error("MATLAB:colormap:InvalidInputRange",
                    "Colormap values must be in the range from 0 to 1.");
    map = Value(t.to_class(ClassId::Double));
  }
  if (target->type() == "axes")
    target->put("Colormap", map);
  else {
    GPtr f = target->ancestor("figure");
    if (!f) f = current_figure(true);
    f->put("Colormap", map);
    for (const auto& c : f->children())
      if (c->type() == "axes") c->put("Colormap", Value());
  }
  return nargout > 0 ? Outputs{map} : Outputs{};
}

/// parula(n), jet(n), ...: the colormap table (n defaults to the current figure's colormap
/// length, 256 without a figure).
template <const char* Name>
Outputs bi_cmap(CallContext&, Args args, int) {
  check_nargin(args, 0, 1);
  int m = 256;
  if (!args.empty())
    m = static_cast<int>(args[0].to_index("colormap length"));
  else if (GPtr f = current_figure(false))
    m = static_cast<int>(f->prop("Colormap").dims().rows());
  return {colormap_value(Name, m)};
}

constexpr char kParula[] = "parula", kTurbo[] = "turbo", kJet[] = "jet", kHsv[] = "hsv",
               kHot[] = "hot", kCool[] = "cool", kSpring[] = "spring", kSummer[] = "summer",
               kAutumn[] = "autumn", kWinter[] = "winter", kGray[] = "gray", kBone[] = "bone",
               kCopper[] = "copper", kPink[] = "pink", kLines[] = "lines";

Outputs bi_colorbar(CallContext&, Args args, int nargout) {
  GPtr ax = take_axes(args);
  if (!ax) ax = current_axes(true);
  const Value& existing = ax->prop("Colorbar");
  GPtr cb = existing.is_object() ? nodes_of(existing)[0] : nullptr;
  if (!args.empty() && opt(args[0]) == "off") {
    if (cb) {
      // Give the axes its width back.
      std::vector<double> p = ax->vec("Position");
      if (cb->find_prop("_Taken") >= 0) p[2] += cb->num("_Taken");
      ax->put("Position", row_value(p));
      destroy(cb);
    }
    ax->put("Colorbar", Value());
    return {};
  }
  std::string loc = "eastoutside";
  size_t k = 0;
  static const char* const kLocs[] = {"north",       "south",        "east",
                                      "west",        "northoutside", "southoutside",
                                      "eastoutside", "westoutside",  "manual"};
  auto check_loc = [](const std::string& l) {
    for (const char* c : kLocs)
      if (l == c) return;
    throw_error("MATLAB:colorbar:InvalidLocation", "colorbar: unrecognized colorbar location");
  };
  for (size_t i = 0; i < args.size(); ++i)
    if (!args[i].is_text())
      throw_error("MATLAB:colorbar:InvalidInput",
                  "colorbar: expected string argument at position %zu", i + 1);
  if (!args.empty() && args.size() % 2 == 1) {
    const std::string o = opt(args[0]);
    if (o == "location")
      throw_error("MATLAB:colorbar:InvalidInput", "colorbar: missing value after \"location\"");
    if (o == "peer")
      throw_error("MATLAB:colorbar:InvalidInput", "colorbar: missing axes handle after \"peer\"");
    bool is_loc = false;
    for (const char* c : kLocs)
      if (o == c) is_loc = true;
    if (!is_loc)
      throw_error("MATLAB:colorbar:InvalidInput", "colorbar: PROP/VAL inputs must occur in pairs");
    loc = o;
    k = 1;
  }
  for (size_t i = k; i + 1 < args.size(); i += 2)
    if (opt(args[i]) == "location") {
      loc = opt(args[i + 1]);
      check_loc(loc);
    }
  if (!cb) {
    cb = create("colorbar", ax->ancestor("figure"));
    cb->put("Axes", handle_value(ax));
    ax->put("Colorbar", handle_value(cb));
    std::vector<double> p = ax->vec("Position");
    const bool horiz =
        loc.find("north") != std::string::npos || loc.find("south") != std::string::npos;
    if (horiz) {
      cb->define("Position", row_value({p[0], p[1] - 0.07, p[2], 0.03}));
      cb->define("_Taken", Value(0.0));
      if (loc == "southoutside") {
        p[1] += 0.1;
        p[3] -= 0.1;
        cb->put("Position", row_value({p[0], p[1] - 0.135, p[2], 0.03}));
      }
    } else {
      const double taken = std::min(0.1124, p[2] * 0.2);
      p[2] -= taken;
      cb->define("Position", row_value({p[0] + p[2] + 0.0295 * taken / 0.1124, p[1],
                                        0.0381 * taken / 0.1124, p[3]}));
      cb->define("_Taken", Value(taken));
    }
    ax->put("Position", row_value(p));
  }
  cb->put("Location", Value::from_chars(loc));
  cb->put("Limits", row_value({color_limits(*ax).lo, color_limits(*ax).hi}));
  GPtr label = create("text", nullptr);
  label->set_parent(cb);
  label->put("FontSize", Value(9.0));
  cb->put("Label", handle_value(label));
  for (; k + 1 < args.size(); k += 2)
    if (opt(args[k]) != "location") set_prop(cb, args[k].to_text(), args[k + 1]);
  return nargout > 0 ? Outputs{handle_value(cb)} : Outputs{};
}

Outputs bi_clim(CallContext&, Args args, int nargout) {
  GPtr ax = take_axes(args);
  if (!ax) ax = current_axes(true);
  if (args.empty()) {
    const Range r = color_limits(*ax);
    return {row_value({r.lo, r.hi})};
  }
  if (opt(args[0]) == "auto") {
    ax->put("CLimMode", Value::from_chars("auto"));
    return {};
  }
  Tensor t = num(args[0], "clim");
  if (t.numel() != 2 || !(t.get_double(0) < t.get_double(1)))
    throw_error("MATLAB:clim:InvalidLimits",
                "Limits must be a 2-element vector of increasing numeric values.");
  set_prop(ax, "CLim", args[0]);
  return {};
}

Outputs bi_view(CallContext&, Args args, int nargout) {
  GPtr ax = take_axes(args);
  if (!ax) ax = current_axes(true);
  if (args.empty()) return {get_prop(ax, "View")};
  check_nargin(args, 1, 2);
  double az, el;
  if (args.size() >= 2) {
    az = args[0].to_double("azimuth");
    el = args[1].to_double("elevation");
  } else {
    Tensor t = num(args[0], "view");
    if (t.numel() == 1) {
      const double d = t.get_double(0);
      if (d == 2) {
        az = 0;
        el = 90;
      } else if (d == 3) {
        az = -37.5;
        el = 30;
      } else {
        throw_error("MATLAB:view:InvalidInput", "Invalid view specification.");
      }
    } else {
      az = t.get_double(0);
      el = t.get_double(1);
    }
  }
  ax->put("View", row_value({az, el}));
  return {};
}

/// shading flat | interp | faceted: the face and edge colouring of the surfaces and patches
/// of the current axes.
Outputs bi_shading(CallContext&, Args args, int nargout) {
  check_nargout(nargout, 0);
  GPtr ax = take_axes(args);
  if (!ax) ax = current_axes(true);
  if (args.size() != 1) throw_error("MATLAB:minrhs", "Not enough input arguments.");
  const std::string m = opt(args[0]);
  if (m != "flat" && m != "interp" && m != "faceted")
    throw_error("MATLAB:shading:InvalidOption", "Unknown shading option '%s'.",
                args[0].to_text().c_str());
  for (const auto& c : ax->children()) {
    if (c->type() != "surface" && c->type() != "patch") continue;
    c->put("FaceColor", Value::from_chars(m == "interp" ? "interp" : "flat"));
    c->put("EdgeColor", m == "faceted" ? rgb_value({0, 0, 0}) : Value::from_chars("none"));
  }
  return {};
}

}  // namespace

void register_graphics_annot(Registry& r) {
  r.add("shading", bi_shading);
  r.add("title", bi_title);
  r.add("subtitle", bi_title);
  r.add("xlabel", bi_xlabel);
  r.add("ylabel", bi_ylabel);
  r.add("zlabel", bi_zlabel);
  r.add("sgtitle", bi_sgtitle);
  r.add("legend", bi_legend);
  r.add("text", bi_text);
  r.add("grid", bi_grid);
  r.add("box", bi_box);
  r.add("axis", bi_axis);
  r.add("xlim", bi_xlim);
  r.add("ylim", bi_ylim);
  r.add("zlim", bi_zlim);
  r.add("xticks", bi_xticks);
  r.add("yticks", bi_yticks);
  r.add("zticks", bi_zticks);
  r.add("xticklabels", bi_xticklabels);
  r.add("yticklabels", bi_yticklabels);
  r.add("zticklabels", bi_zticklabels);
  r.add("xtickangle", bi_tickangle);
  r.add("ytickangle", bi_tickangle);
  r.add("colormap", bi_colormap);
  r.add("parula", bi_cmap<kParula>);
  r.add("turbo", bi_cmap<kTurbo>);
  r.add("jet", bi_cmap<kJet>);
  r.add("hsv", bi_cmap<kHsv>);
  r.add("hot", bi_cmap<kHot>);
  r.add("cool", bi_cmap<kCool>);
  r.add("spring", bi_cmap<kSpring>);
  r.add("summer", bi_cmap<kSummer>);
  r.add("autumn", bi_cmap<kAutumn>);
  r.add("winter", bi_cmap<kWinter>);
  r.add("gray", bi_cmap<kGray>);
  r.add("bone", bi_cmap<kBone>);
  r.add("copper", bi_cmap<kCopper>);
  r.add("pink", bi_cmap<kPink>);
  r.add("lines", bi_cmap<kLines>);
  r.add("colorbar", bi_colorbar);
  r.add("clim", bi_clim);
  r.add("caxis", bi_clim);
  r.add("view", bi_view);
}

}  // namespace matfuse::gfx
