// Property tables (MATLAB's factory defaults per object type) and get/set with MATLAB's
// conversions (see gobject.h).
#include <algorithm>
#include <cmath>
#include <cstring>

#include "graphics/axes_layout.h"
#include "graphics/colormaps.h"
#include "graphics/gstate.h"

namespace matfuse::gfx {

namespace {

Value txt(const char* s) { return Value::from_chars(s); }
Value row(std::initializer_list<double> xs) {
  Tensor t = Tensor::zeros(ClassId::Double, Dims(1, static_cast<int64_t>(xs.size())));
  int64_t i = 0;
  for (double x : xs) t.set_double(i++, x);
  return Value(std::move(t));
}
Value empty() { return Value(); }
Value empty_cell() { return Value(CellArray(Dims(0, 0))); }

Value color_order_value() {
  const auto& co = default_color_order();
  Tensor t = Tensor::zeros(ClassId::Double, Dims(static_cast<int64_t>(co.size()), 3));
  for (size_t i = 0; i < co.size(); ++i)
    for (int j = 0; j < 3; ++j) t.set_double(static_cast<int64_t>(j * co.size() + i), co[i][j]);
  return Value(std::move(t));
}

void common_props(GNode& n) {
  n.define("Visible", txt("on"));
  n.define("Tag", Value::from_chars(""));
  n.define("UserData", empty());
  n.define("HandleVisibility", txt("on"));
}

void line_props(GNode& n) {
  n.define("Color", row({0, 0.4470, 0.7410}));
  n.define("LineStyle", txt("-"));
  n.define("LineWidth", Value(0.5));
  n.define("Marker", txt("none"));
  n.define("MarkerSize", Value(6.0));
  n.define("MarkerEdgeColor", txt("auto"));
  n.define("MarkerFaceColor", txt("none"));
}

void xyz(GNode& n) {
  n.define("XData", empty());
  n.define("YData", empty());
  n.define("ZData", Value(Tensor::zeros(ClassId::Double, Dims(1, 0))));
}

void text_props(GNode& n, double size) {
  n.define("String", Value::from_chars(""));
  n.define("Position", row({0, 0, 0}));
  n.define("Units", txt("data"));
  n.define("FontSize", Value(size));
  n.define("FontName", txt("Helvetica"));
  n.define("FontWeight", txt("normal"));
  n.define("FontAngle", txt("normal"));
  n.define("Color", row({0, 0, 0}));
  n.define("HorizontalAlignment", txt("left"));
  n.define("VerticalAlignment", txt("middle"));
  n.define("Rotation", Value(0.0));
  n.define("Interpreter", txt("tex"));
  n.define("BackgroundColor", txt("none"));
  n.define("EdgeColor", txt("none"));
  n.define("Margin", Value(3.0));
}

void axes_props(GNode& n) {
  n.define("Position", row({0.13, 0.11, 0.775, 0.815}));
  n.define("OuterPosition", row({0, 0, 1, 1}));
  n.define("Units", txt("normalized"));
  for (const char* a : {"X", "Y", "Z"}) {
    const std::string s(a);
    n.define(s + "Lim", row({0, 1}));
    n.define(s + "LimMode", txt("auto"));
    n.define(s + "Tick", empty());
    n.define(s + "TickMode", txt("auto"));
    n.define(s + "TickLabel", empty_cell());
    n.define(s + "TickLabelMode", txt("auto"));
    n.define(s + "Scale", txt("linear"));
    n.define(s + "Grid", txt("off"));
    n.define(s + "MinorGrid", txt("off"));
    n.define(s + "MinorTick", txt("off"));
    n.define(s + "Dir", txt("normal"));
    n.define(s + "Color", row({0.15, 0.15, 0.15}));
  }
  n.define("XAxisLocation", txt("bottom"));
  n.define("YAxisLocation", txt("left"));
  n.define("Box", txt("off"));
  n.define("Color", row({1, 1, 1}));
  n.define("GridColor", row({0.15, 0.15, 0.15}));
  n.define("GridAlpha", Value(0.15));
  n.define("GridLineStyle", txt("-"));
  n.define("MinorGridAlpha", Value(0.25));
  n.define("FontSize", Value(10.0));
  n.define("FontName", txt("Helvetica"));
  n.define("FontWeight", txt("normal"));
  n.define("LineWidth", Value(0.5));
  n.define("TickDir", txt("in"));
  n.define("TickLength", row({0.01, 0.025}));
  n.define("TitleFontSizeMultiplier", Value(1.1));
  n.define("LabelFontSizeMultiplier", Value(1.1));
  n.define("TitleFontWeight", txt("bold"));
  n.define("View", row({0, 90}));
  n.define("NextPlot", txt("replace"));
  n.define("ColorOrder", color_order_value());
  n.define("ColorOrderIndex", Value(1.0));
  n.define("LineStyleOrderIndex", Value(1.0));
  n.define("CLim", row({0, 1}));
  n.define("CLimMode", txt("auto"));
  n.define("Colormap", empty());  // empty: the figure's
  n.define("DataAspectRatio", row({1, 1, 1}));
  n.define("DataAspectRatioMode", txt("auto"));
  n.define("PlotBoxAspectRatio", row({1, 1, 1}));
  n.define("PlotBoxAspectRatioMode", txt("auto"));
  n.define("Layer", txt("bottom"));
  n.define("Title", empty());
  n.define("XLabel", empty());
  n.define("YLabel", empty());
  n.define("ZLabel", empty());
  n.define("Legend", empty());
  n.define("Colorbar", empty());
  n.define("_Square", txt("off"));  // axis square
  n.define("_Tight", txt("off"));   // axis tight: automatic limits without rounding
  n.define("_Layout", empty());     // [rows cols index] of subplot/nexttile
  n.define("_Fit", txt("on"));      // labels fit inside OuterPosition (Position not set)
}

void chart_face(GNode& n, const char* face, const char* edge) {
  n.define("FaceColor", face[0] == '[' ? row({0, 0.4470, 0.7410}) : txt(face));
  n.define("EdgeColor", edge[0] == '[' ? row({0, 0, 0}) : txt(edge));
  n.define("FaceAlpha", Value(1.0));
  n.define("EdgeAlpha", Value(1.0));
  n.define("LineStyle", txt("-"));
  n.define("LineWidth", Value(0.5));
}

}  // namespace

void init_defaults(GNode& n) {
  const std::string& t = n.type();
  n.define("Type", txt(t.c_str()));
  if (t == "root") {
    n.define("CurrentFigure", empty());
    n.define("ScreenSize", row({1, 1, 1920, 1080}));
    n.define("Units", txt("pixels"));
    n.define("ShowHiddenHandles", txt("off"));
    n.define("ScreenPixelsPerInch", Value(96.0));
  } else if (t == "figure") {
    n.define("Number", Value(1.0));
    n.define("Name", Value::from_chars(""));
    n.define("NumberTitle", txt("on"));
    n.define("Color", row({0.94, 0.94, 0.94}));
    n.define("Position", row({680, 458, 560, 420}));
    n.define("Units", txt("pixels"));
    n.define("NextPlot", txt("add"));
    n.define("Colormap", colormap_value("parula", 256));
    n.define("CurrentAxes", empty());
    n.define("InvertHardcopy", txt("on"));
    n.define("PaperPositionMode", txt("auto"));
    n.define("MenuBar", txt("figure"));
    n.define("ToolBar", txt("auto"));
    n.define("Resize", txt("on"));
    n.define("WindowStyle", txt("normal"));
    n.define("Renderer", txt("opengl"));
  } else if (t == "axes" || t == "polaraxes") {
    axes_props(n);
    if (t == "polaraxes") {
      n.define("RLim", row({0, 1}));
      n.define("RLimMode", txt("auto"));
      n.define("ThetaZeroLocation", txt("right"));
      n.define("ThetaDir", txt("counterclockwise"));
    }
  } else if (t == "line") {
    line_props(n);
    xyz(n);
  } else if (t == "stair" || t == "stem" || t == "errorbar") {
    line_props(n);
    xyz(n);
    if (t == "stem") {
      n.put("Marker", txt("o"));
      n.define("BaseValue", Value(0.0));
    }
    if (t == "errorbar") {
      for (const char* d : {"YNegativeDelta", "YPositiveDelta", "XNegativeDelta", "XPositiveDelta"})
        n.define(d, empty());
      n.define("CapSize", Value(6.0));
    }
  } else if (t == "text") {
    text_props(n, 10);
  } else if (t == "scatter") {
    xyz(n);
    n.define("SizeData", Value(36.0));
    n.define("CData", row({0, 0.4470, 0.7410}));
    n.define("Marker", txt("o"));
    n.define("MarkerEdgeColor", txt("flat"));
    n.define("MarkerFaceColor", txt("none"));
    n.define("LineWidth", Value(0.5));
  } else if (t == "bar") {
    n.define("XData", empty());
    n.define("YData", empty());
    n.define("BarWidth", Value(0.8));
    n.define("BaseValue", Value(0.0));
    n.define("Horizontal", txt("off"));
    chart_face(n, "[", "[");
    n.define("_Group", row({1, 1}));  // [index count] within grouped bars
    n.define("_Stacked", txt("off"));
    n.define("_Base", empty());  // stacked bars: the lower ends
  } else if (t == "histogram") {
    n.define("Data", empty());
    n.define("BinEdges", empty());
    n.define("BinCounts", empty());
    n.define("Values", empty());
    n.define("NumBins", Value(0.0));
    n.define("BinWidth", Value(0.0));
    n.define("Normalization", txt("count"));
    n.define("Orientation", txt("vertical"));
    n.define("DisplayStyle", txt("bar"));
    chart_face(n, "[", "[");
    n.put("FaceAlpha", Value(0.6));
  } else if (t == "area") {
    n.define("XData", empty());
    n.define("YData", empty());
    n.define("BaseValue", Value(0.0));
    chart_face(n, "[", "[");
    n.define("_Lower", empty());  // stacked areas: the lower boundary
  } else if (t == "patch") {
    xyz(n);
    n.define("Faces", empty());
    n.define("Vertices", empty());
    n.define("CData", empty());
    chart_face(n, "[", "[");
  } else if (t == "contour") {
    xyz(n);
    n.define("LevelList", empty());
    n.define("LevelListMode", txt("auto"));
    n.define("LevelStep", Value(0.0));
    n.define("Fill", txt("off"));
    n.define("LineColor", txt("flat"));
    n.define("LineStyle", txt("-"));
    n.define("LineWidth", Value(0.5));
    n.define("ShowText", txt("off"));
    n.define("_NumLevels", Value(0.0));  // contour(Z, n)
  } else if (t == "image") {
    n.define("XData", row({1, 1}));
    n.define("YData", row({1, 1}));
    n.define("CData", empty());
    n.define("CDataMapping", txt("direct"));
    n.define("AlphaData", Value(1.0));
  } else if (t == "surface") {
    xyz(n);
    n.define("CData", empty());
    n.define("FaceColor", txt("flat"));
    n.define("EdgeColor", row({0, 0, 0}));
    n.define("FaceAlpha", Value(1.0));
    n.define("LineStyle", txt("-"));
    n.define("LineWidth", Value(0.5));
    n.define("MeshStyle", txt("both"));
  } else if (t == "quiver") {
    n.define("XData", empty());
    n.define("YData", empty());
    n.define("UData", empty());
    n.define("VData", empty());
    n.define("Color", row({0, 0.4470, 0.7410}));
    n.define("LineStyle", txt("-"));
    n.define("LineWidth", Value(0.5));
    n.define("AutoScale", txt("on"));
    n.define("AutoScaleFactor", Value(0.9));
    n.define("MaxHeadSize", Value(0.2));
  } else if (t == "legend") {
    n.define("String", empty_cell());
    n.define("Location", txt("northeast"));
    n.define("Orientation", txt("vertical"));
    n.define("Box", txt("on"));
    n.define("FontSize", Value(9.0));
    n.define("Color", row({1, 1, 1}));
    n.define("EdgeColor", row({0.15, 0.15, 0.15}));
    n.define("TextColor", row({0, 0, 0}));
    n.define("Interpreter", txt("tex"));
    n.define("NumColumns", Value(1.0));
    n.define("AutoUpdate", txt("on"));
    n.define("Axes", empty());
    n.define("_Items", empty());  // handles of the plotted objects the entries describe
  } else if (t == "colorbar") {
    n.define("Location", txt("eastoutside"));
    n.define("Limits", row({0, 1}));
    n.define("Ticks", empty());
    n.define("TickLabels", empty_cell());
    n.define("FontSize", Value(9.0));
    n.define("Color", row({0.15, 0.15, 0.15}));
    n.define("Label", empty());
    n.define("Axes", empty());
  } else if (t == "tiledlayout") {
    n.define("GridSize", row({1, 1}));
    n.define("TileSpacing", txt("loose"));
    n.define("Padding", txt("loose"));
    n.define("TileIndexing", txt("rowmajor"));
    n.define("Title", empty());
    n.define("_Next", Value(1.0));
  }
  const bool plotted = t != "root" && t != "figure" && t != "axes" && t != "polaraxes" &&
                       t != "text" && t != "legend" && t != "colorbar" && t != "tiledlayout";
  if (plotted) n.define("DisplayName", Value::from_chars(""));
  common_props(n);
}

// ---- create / destroy -------------------------------------------------------------------------

GPtr create(const std::string& type, const GPtr& parent) {
  auto n = std::make_shared<GNode>(type);
  init_defaults(*n);
  if (parent) {
    n->set_parent(parent);
    parent->children().push_back(n);
  }
  // Default<Type><Prop> values set on the root or on the enclosing figure.
  std::string key = "Default";
  for (GPtr src : {root(), parent ? parent->ancestor("figure") : GPtr()}) {
    if (!src || src == n) continue;
    for (const auto& p : src->props()) {
      if (p.name.size() <= 7 + type.size() || p.name.compare(0, 7, "Default") != 0) continue;
      if (lower_ascii(p.name.substr(7, type.size())) != lower_ascii(type)) continue;
      const std::string prop = p.name.substr(7 + type.size());
      if (n->find_prop(prop) >= 0) set_prop(n, prop, p.value);
    }
  }
  return n;
}

void destroy(const GPtr& n) {
  n->deleted = true;
  const std::vector<GPtr> kids = n->children();  // destroy(c) edits n's list
  for (const auto& c : kids) destroy(c);
  if (GPtr p = n->parent()) {
    auto& ch = p->children();
    ch.erase(std::remove(ch.begin(), ch.end(), n), ch.end());
  }
}

// ---- get / set --------------------------------------------------------------------------------

namespace {

[[noreturn]] void unknown_prop(const GNode& n, std::string_view name) {
  throw_error("MATLAB:hg:InvalidProperty", "Unrecognized property '%.*s' for class '%s'.",
              static_cast<int>(name.size()), name.data(), n.short_class().c_str());
}

bool is_color_prop(const std::string& p) {
  static const char* const k[] = {"Color",     "MarkerEdgeColor", "MarkerFaceColor", "FaceColor",
                                  "EdgeColor", "XColor",          "YColor",          "ZColor",
                                  "GridColor", "BackgroundColor", "TextColor",       "LineColor"};
  for (const char* c : k)
    if (p == c) return true;
  return false;
}

bool is_switch_prop(const std::string& p) {
  static const char* const k[] = {
      "Visible",    "Box",         "XGrid",      "YGrid",          "ZGrid",     "XMinorGrid",
      "YMinorGrid", "XMinorTick",  "YMinorTick", "InvertHardcopy", "Fill",      "ShowText",
      "AutoScale",  "NumberTitle", "Resize",     "Horizontal",     "AutoUpdate"};
  for (const char* c : k)
    if (p == c) return true;
  return false;
}

double positive_scalar(const Value& v, const std::string& name) {
  if (!v.is_tensor() || v.is_char() || v.numel() != 1 || !(v.to_double() > 0))
    throw_error("MATLAB:hg:set_chck:InvalidValue",
                "Error setting property '%s'. Value must be a positive scalar.", name.c_str());
  return v.to_double();
}

Value as_double_row(const Value& v, const std::string& name, int64_t n) {
  if (!v.is_tensor() || v.is_char() || (n > 0 && v.numel() != n))
    throw_error("MATLAB:hg:set_chck:InvalidValue",
                "Error setting property '%s'. Value must be a %lld-element vector of type "
                "double.",
                name.c_str(), static_cast<long long>(n));
  Tensor t = v.tensor().to_class(ClassId::Double);
  return Value(t.reshaped(Dims(1, t.numel())));
}

Value labels_cell(const Value& v) {
  if (v.is_cell()) return v;
  CellArray c;
  if (v.is_string()) {
    const auto& s = v.string_array();
    c = CellArray(Dims(s.numel(), 1));
    for (int64_t i = 0; i < s.numel(); ++i) c.at(i) = Value::from_chars(s[i] ? *s[i] : "");
    return Value(c);
  }
  if (v.is_char()) {
    Tensor t = v.tensor();
    const int64_t r = t.dims().rows(), k = t.dims().cols();
    c = CellArray(Dims(r, 1));
    for (int64_t i = 0; i < r; ++i) {
      std::u16string s;
      for (int64_t j = 0; j < k; ++j) s.push_back(static_cast<char16_t>(t.get_double(i + j * r)));
      std::string u;
      for (char16_t ch : s) u.push_back(static_cast<char>(ch));
      while (!u.empty() && u.back() == ' ') u.pop_back();
      c.at(i) = Value::from_chars(u);
    }
    return Value(c);
  }
  if (v.is_tensor()) {  // numbers: their %g text
    Tensor t = v.tensor();
    c = CellArray(Dims(t.numel(), 1));
    for (int64_t i = 0; i < t.numel(); ++i) {
      char b[64];
      std::snprintf(b, sizeof b, "%g", t.get_double(i));
      c.at(i) = Value::from_chars(b);
    }
    return Value(c);
  }
  throw_error("MATLAB:hg:set_chck:InvalidValue", "Tick labels must be a cell array of text.");
}

/// Text object stored in an axes slot (Title, XLabel, ...), created on first use.
GPtr label_node(const GPtr& ax, const char* slot) {
  const Value& v = ax->prop(slot);
  if (v.is_object()) return nodes_of(v)[0];
  GPtr t = create("text", nullptr);
  t->set_parent(ax);
  const double fs = ax->num("FontSize");
  const bool title = std::strcmp(slot, "Title") == 0;
  t->put("FontSize", Value(fs * (title ? ax->num("TitleFontSizeMultiplier")
                                       : ax->num("LabelFontSizeMultiplier"))));
  if (title) t->put("FontWeight", Value::from_chars(ax->text("TitleFontWeight")));
  t->put("HorizontalAlignment", Value::from_chars("center"));
  t->put("Units", Value::from_chars("normalized"));
  ax->put(slot, handle_value(t));
  return t;
}

}  // namespace

GPtr axes_label(const GPtr& ax, const char* slot) { return label_node(ax, slot); }

Value get_prop(const GPtr& n, std::string_view name) {
  const int i = n->find_prop(name);
  if (i < 0) {
    if (lower_ascii(name) == "parent") {
      GPtr p = n->parent();
      return p ? handle_value(p) : Value();
    }
    if (lower_ascii(name) == "children") {
      std::vector<GPtr> kids(n->children().rbegin(), n->children().rend());
      return handle_column(kids);
    }
    if (n->type() == "root" && lower_ascii(name).rfind("default", 0) == 0)
      throw_error("MATLAB:hg:InvalidProperty", "Unrecognized property '%.*s' for class 'Root'.",
                  static_cast<int>(name.size()), name.data());
    unknown_prop(*n, name);
  }
  const std::string& p = n->props()[i].name;
  const bool is_axes = n->type() == "axes" || n->type() == "polaraxes";
  if (is_axes && p.size() == 4 && p.substr(1) == "Lim") {
    const int dim = p[0] - 'X';
    const Range r = axis_limits(*n, dim);
    return row({r.lo, r.hi});
  }
  if (is_axes && p.size() == 5 && p.substr(1) == "Tick") {
    std::vector<double> t = axis_ticks(*n, p[0] - 'X');
    Tensor out = Tensor::zeros(ClassId::Double, Dims(1, static_cast<int64_t>(t.size())));
    for (size_t k = 0; k < t.size(); ++k) out.set_double(static_cast<int64_t>(k), t[k]);
    return Value(std::move(out));
  }
  if (is_axes && p.size() == 10 && p.substr(1) == "TickLabel") {
    const int dim = p[0] - 'X';
    if (n->text(p + "Mode") == "manual") return n->props()[i].value;
    auto labels = tick_labels(*n, dim, axis_ticks(*n, dim));
    CellArray c(Dims(static_cast<int64_t>(labels.size()), 1));
    for (size_t k = 0; k < labels.size(); ++k)
      c.at(static_cast<int64_t>(k)) = Value::from_chars(labels[k]);
    return Value(std::move(c));
  }
  if (is_axes && p == "CLim") {
    const Range r = color_limits(*n);
    return row({r.lo, r.hi});
  }
  if (is_axes && (p == "Title" || p == "XLabel" || p == "YLabel" || p == "ZLabel"))
    return handle_value(label_node(n, p.c_str()));
  if (is_axes && p == "Colormap" && n->props()[i].value.is_empty()) {
    GPtr f = n->ancestor("figure");
    if (f) return f->prop("Colormap");
  }
  return n->props()[i].value;
}

void set_prop(const GPtr& n, std::string_view name, const Value& v) {
  const int i = n->find_prop(name);
  if (i < 0) {
    if (n->type() == "root" || n->type() == "figure") {
      const std::string l = lower_ascii(name);
      if (l.rfind("default", 0) == 0 && l.size() > 7) {
        n->define(std::string(name), v);  // Default<Type><Prop>, applied by create()
        return;
      }
    }
    const std::string l = lower_ascii(name);
    if (l == "parent" || l == "children" || l == "type")
      throw_error("MATLAB:hg:set_chck:ReadOnly", "Unable to set the '%.*s' property.",
                  static_cast<int>(name.size()), name.data());
    unknown_prop(*n, name);
  }
  const std::string p = n->props()[i].name;
  if (p == "Type" || p == "Number" || p == "ScreenSize")
    throw_error("MATLAB:class:SetProhibited",
                "Unable to set the '%s' property of class '%s' because it is read-only.", p.c_str(),
                n->short_class().c_str());
  Value sv = v;
  if (is_color_prop(p)) {
    sv = color_value(v, {"none", "flat", "interp", "auto"});
  } else if (is_switch_prop(p)) {
    if (v.is_text()) {
      const std::string s = lower_ascii(v.to_text());
      if (s != "on" && s != "off")
        throw_error("MATLAB:datatypes:onoffboolean:IncorrectValue",
                    "Invalid value for OnOffSwitchState.");
      sv = Value::from_chars(s);
    } else if (v.is_tensor() && v.numel() == 1) {
      sv = Value::from_chars(v.to_double() != 0 ? "on" : "off");
    } else {
      throw_error("MATLAB:datatypes:onoffboolean:IncorrectValue",
                  "Invalid value for OnOffSwitchState.");
    }
  } else if (p == "LineWidth" || p == "MarkerSize" || p == "FontSize" || p == "BarWidth") {
    sv = Value(positive_scalar(v, p));
  } else if (p.size() == 4 && p.substr(1) == "Lim") {
    sv = as_double_row(v, p, 2);
    Tensor t = sv.tensor();
    if (!(t.get_double(0) < t.get_double(1)))
      throw_error("MATLAB:hg:shaped_arrays:LimitsWithInfsPredicate",
                  "Value must be a 1x2 vector of numeric type in which the second element is "
                  "larger than the first and may be Inf.");
    n->put(p + "Mode", Value::from_chars("manual"));
  } else if (p == "CLim" || p == "RLim") {
    sv = as_double_row(v, p, 2);
    n->put(p + "Mode", Value::from_chars("manual"));
  } else if (p.size() == 5 && p.substr(1) == "Tick" && n->find_prop(p + "Mode") >= 0) {
    sv = v.is_empty() ? Value() : as_double_row(v, p, 0);
    n->put(p + "Mode", Value::from_chars("manual"));
  } else if (p.size() == 10 && p.substr(1) == "TickLabel") {
    sv = labels_cell(v);
    n->put(p + "Mode", Value::from_chars("manual"));
  } else if (p == "Position" || p == "OuterPosition") {
    sv = as_double_row(v, p, n->type() == "text" ? 0 : 4);
    if (p == "Position" && n->find_prop("_Fit") >= 0) n->put("_Fit", Value::from_chars("off"));
  } else if (p == "DataAspectRatio") {
    sv = as_double_row(v, p, 3);
    n->put("DataAspectRatioMode", Value::from_chars("manual"));
  } else if (p == "View") {
    sv = as_double_row(v, p, 2);
  } else if (p == "LevelList") {
    n->put("LevelListMode", Value::from_chars("manual"));
  } else if (p == "Colormap") {
    if (v.is_text()) sv = colormap_value(v.to_text(), 256);
  } else if (p == "Title" || p == "XLabel" || p == "YLabel" || p == "ZLabel") {
    if (!v.is_object()) {  // ax.Title = 'text' is not MATLAB; a handle must be given
      GPtr t = label_node(n, p.c_str());
      set_prop(t, "String", v);
      return;
    }
  } else if (p == "String" && n->type() == "legend") {
    sv = labels_cell(v);
    if (sv.is_cell()) sv = Value(sv.cell().reshaped(Dims(1, sv.numel())));
  } else if (p == "LineStyle" || p == "Marker") {
    if (!v.is_text())
      throw_error("MATLAB:hg:set_chck:InvalidValue", "Invalid value for '%s'.", p.c_str());
    std::string s = v.to_text();
    const std::string l = lower_ascii(s);
    if (p == "Marker") {
      static const std::pair<const char*, const char*> kLong[] = {
          {"circle", "o"},   {"square", "s"},  {"diamond", "d"}, {"pentagram", "p"},
          {"hexagram", "h"}, {"none", "none"}, {"plus", "+"},    {"point", "."},
          {"cross", "x"},    {"asterisk", "*"}};
      bool ok = false;
      for (const auto& [lng, sh] : kLong)
        if (l == lng) {
          s = sh;
          ok = true;
        }
      if (!ok && (s.size() != 1 || !std::strchr("o+*.xsd^v<>ph_|", s[0])))
        throw_error("MATLAB:hg:set_chck:InvalidValue",
                    "'%s' is not a valid value for the Marker property.", s.c_str());
    } else if (l != "-" && l != "--" && l != ":" && l != "-." && l != "none") {
      throw_error("MATLAB:hg:set_chck:InvalidValue",
                  "'%s' is not a valid value for the LineStyle property.", s.c_str());
    }
    sv = Value::from_chars(p == "Marker" ? s : l);
  }
  n->put(p, std::move(sv));
  if ((n->type() == "axes" || n->type() == "polaraxes") &&
      (p == "FontSize" || p == "TitleFontSizeMultiplier" || p == "LabelFontSizeMultiplier")) {
    // The title, axis labels and legend follow the axes font size (MATLAB).
    const double fs = n->num("FontSize");
    for (const char* slot : {"Title", "XLabel", "YLabel", "ZLabel"}) {
      const Value& lv = n->prop(slot);
      if (!lv.is_object()) continue;
      const bool title = std::strcmp(slot, "Title") == 0;
      nodes_of(lv)[0]->put("FontSize", Value(fs * n->num(title ? "TitleFontSizeMultiplier"
                                                               : "LabelFontSizeMultiplier")));
    }
    const Value& lg = n->prop("Legend");
    if (lg.is_object()) nodes_of(lg)[0]->put("FontSize", Value(0.9 * fs));
  }
}

void set_pairs(const GPtr& n, std::span<const Value> args, size_t first) {
  if ((args.size() - first) % 2 != 0)
    throw_error("MATLAB:class:BadParamValuePairs", "Invalid parameter/value pair arguments.");
  for (size_t k = first; k + 1 < args.size(); k += 2) {
    if (!args[k].is_text())
      throw_error("MATLAB:class:BadParamValuePairs", "Invalid parameter/value pair arguments.");
    set_prop(n, args[k].to_text(), args[k + 1]);
  }
}

Value get_all(const GPtr& n) {
  StructArray s(Dims::scalar());
  std::vector<std::string> names;
  for (const auto& p : n->props())
    if (p.name[0] != '_' && p.name.rfind("Default", 0) != 0) names.push_back(p.name);
  names.push_back("Parent");
  names.push_back("Children");
  std::sort(names.begin(), names.end());
  for (const auto& nm : names) {
    const int f = s.add_field(nm);
    s.at(0, f) = get_prop(n, nm);
  }
  return Value(std::move(s));
}

}  // namespace matfuse::gfx
