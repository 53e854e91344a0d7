// GNode, GHandle, colours and line specs (see gobject.h).
#include "graphics/gobject.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstring>

#include "graphics/gstate.h"

namespace matfuse::gfx {

std::string lower_ascii(std::string_view s) {
  std::string r(s);
  for (char& c : r) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return r;
}

namespace {

bool iequal(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i)
    if (std::tolower(static_cast<unsigned char>(a[i])) !=
        std::tolower(static_cast<unsigned char>(b[i])))
      return false;
  return true;
}

bool iprefix(std::string_view pre, std::string_view s) {
  return pre.size() <= s.size() && iequal(pre, s.substr(0, pre.size()));
}

}  // namespace

// ---- GNode ------------------------------------------------------------------------------------

std::string GNode::short_class() const {
  static const std::pair<const char*, const char*> kNames[] = {
      {"root", "Root"},           {"figure", "Figure"},     {"axes", "Axes"},
      {"polaraxes", "PolarAxes"}, {"line", "Line"},         {"text", "Text"},
      {"scatter", "Scatter"},     {"bar", "Bar"},           {"histogram", "Histogram"},
      {"stair", "Stair"},         {"stem", "Stem"},         {"errorbar", "ErrorBar"},
      {"area", "Area"},           {"patch", "Patch"},       {"contour", "Contour"},
      {"image", "Image"},         {"surface", "Surface"},   {"quiver", "Quiver"},
      {"legend", "Legend"},       {"colorbar", "ColorBar"}, {"tiledlayout", "TiledChartLayout"}};
  for (const auto& [t, n] : kNames)
    if (type_ == t) return n;
  return type_;
}

std::string GNode::class_name() const {
  const std::string s = short_class();
  if (type_ == "root") return "matlab.ui.Root";
  if (type_ == "figure") return "matlab.ui.Figure";
  if (type_ == "axes") return "matlab.graphics.axis.Axes";
  if (type_ == "polaraxes") return "matlab.graphics.axis.PolarAxes";
  if (type_ == "text" || type_ == "patch" || type_ == "surface" || type_ == "image")
    return "matlab.graphics.primitive." + s;
  if (type_ == "legend" || type_ == "colorbar") return "matlab.graphics.illustration." + s;
  if (type_ == "tiledlayout") return "matlab.graphics.layout.TiledChartLayout";
  if (type_ == "histogram") return "matlab.graphics.chart.primitive.Histogram";
  return "matlab.graphics.chart.primitive." + s;
}

int GNode::find_prop(std::string_view name) const {
  int prefix_hit = -1, prefix_count = 0;
  for (size_t i = 0; i < props_.size(); ++i) {
    const std::string& n = props_[i].name;
    if (n[0] == '_') continue;  // internal
    if (iequal(n, name)) return static_cast<int>(i);
    if (!name.empty() && iprefix(name, n)) {
      prefix_hit = static_cast<int>(i);
      ++prefix_count;
    }
  }
  return prefix_count == 1 ? prefix_hit : -1;
}

const Value& GNode::prop(std::string_view name) const {
  for (const auto& p : props_)
    if (p.name == name) return p.value;
  internal_assert_failed("prop", __FILE__, __LINE__,
                         type_ + " has no property " + std::string(name));
}

void GNode::define(std::string name, Value v) {
  for (auto& p : props_)
    if (p.name == name) {
      p.value = std::move(v);
      return;
    }
  props_.push_back({std::move(name), std::move(v)});
}

void GNode::put(std::string_view name, Value v) {
  for (auto& p : props_)
    if (p.name == name) {
      p.value = std::move(v);
      return;
    }
  internal_assert_failed("put", __FILE__, __LINE__,
                         type_ + " has no property " + std::string(name));
}

double GNode::num(std::string_view name) const {
  const Value& v = prop(name);
  if (v.is_scalar_double()) return v.scalar();
  if (v.is_tensor() && v.numel() >= 1 && !v.is_char()) return v.tensor().get_double(0);
  return std::nan("");
}

std::string GNode::text(std::string_view name) const {
  const Value& v = prop(name);
  if (v.is_text()) return v.to_text();
  if (v.is_char()) return "";
  if (v.is_cell() && v.numel() > 0 && v.cell()[0].is_text()) return v.cell()[0].to_text();
  if (v.is_string() && v.numel() > 0 && v.string_array()[0]) return *v.string_array()[0];
  return "";
}

bool GNode::color(std::string_view name, Rgb& out, std::string* kw) const {
  const Value& v = prop(name);
  if (v.is_char()) {
    if (kw) *kw = v.to_text();
    return false;
  }
  if (v.is_tensor() && v.numel() >= 3) {
    Tensor t = v.tensor();
    for (int i = 0; i < 3; ++i) out[i] = t.get_double(i);
    if (kw) kw->clear();
    return true;
  }
  if (kw) *kw = "none";
  return false;
}

std::vector<double> GNode::vec(std::string_view name) const {
  const Value* vp = nullptr;
  for (const auto& p : props_)
    if (p.name == name) vp = &p.value;
  std::vector<double> r;
  if (!vp) return r;  // no such property: no data
  const Value& v = *vp;
  if (v.is_scalar_double()) return {v.scalar()};
  if (!v.is_tensor() || v.is_char()) return r;
  Tensor t = v.tensor();
  r.resize(static_cast<size_t>(t.numel()));
  for (int64_t i = 0; i < t.numel(); ++i) r[i] = t.get_double(i);
  return r;
}

GPtr GNode::ancestor(std::string_view type) {
  GPtr n = shared_from_this();
  while (n && n->type() != type) n = n->parent();
  return n;
}

// ---- GHandle ----------------------------------------------------------------------------------

std::string GHandle::class_name() const {
  if (nodes_.empty()) return "matlab.graphics.GraphicsPlaceholder";
  return nodes_[0]->class_name();
}

bool GHandle::paren_read(std::span<const Value> idx, Value& out) const {
  std::vector<GPtr> sel;
  const int64_t n = static_cast<int64_t>(nodes_.size());
  for (const Value& ix : idx) {
    if (ix.is_char() && ix.to_text() == ":") continue;
  }
  if (idx.empty()) {
    out = Value(std::make_shared<GHandle>(nodes_, dims_));
    return true;
  }
  // Linear index (or the element of a row/column given by two subscripts).
  const Value& ix = idx.size() == 1 ? idx[0] : (dims_.rows() == 1 ? idx[1] : idx[0]);
  if (ix.is_char() && ix.to_text() == ":") {
    out = handle_column(nodes_);
    return true;
  }
  Tensor t = ix.tensor();
  if (t.cls() == ClassId::Logical) {
    for (int64_t i = 0; i < t.numel() && i < n; ++i)
      if (t.get_double(i) != 0) sel.push_back(nodes_[i]);
  } else {
    for (int64_t i = 0; i < t.numel(); ++i) {
      const double k = t.get_double(i);
      if (k != std::floor(k) || k < 1)
        throw_error("MATLAB:badsubscript",
                    "Array indices must be positive integers or logical values.");
      if (k > n)
        throw_error("MATLAB:badsubscript",
                    "Index exceeds the number of array elements. Index must not exceed %lld.",
                    static_cast<long long>(n));
      sel.push_back(nodes_[static_cast<size_t>(k - 1)]);
    }
  }
  const int64_t k = static_cast<int64_t>(sel.size());
  out =
      Value(std::make_shared<GHandle>(std::move(sel), dims_.rows() == 1 ? Dims(1, k) : Dims(k, 1)));
  return true;
}

bool GHandle::paren_assign(std::span<const Value> idx, const Value& rhs) {
  return false;  // default 1x1-handle rules
}

bool GHandle::get_property(std::string_view name, Value& out) const {
  if (nodes_.size() != 1) {
    if (nodes_.empty())
      throw_error("MATLAB:noSuchMethodOrField",
                  "Unrecognized method, property, or field '%.*s' for class "
                  "'matlab.graphics.GraphicsPlaceholder'.",
                  static_cast<int>(name.size()), name.data());
    CellArray c(Dims(static_cast<int64_t>(nodes_.size()), 1));
    for (size_t i = 0; i < nodes_.size(); ++i)
      c.at(static_cast<int64_t>(i)) = get_prop(nodes_[i], name);
    out = Value(std::move(c));
    return true;
  }
  out = get_prop(nodes_[0], name);
  return true;
}

bool GHandle::set_property(std::string_view name, const Value& rhs) {
  for (const auto& n : nodes_) set_prop(n, name, rhs);
  return true;
}

namespace {

/// A property value as MATLAB's object display shows it: 'text', 6, 0.5000, [0 0.4470 0.7410],
/// [1×50 double], {1×2 cell}, [1×1 Text].
std::string short_value(const Value& v) {
  auto dims = [](const Dims& d) {
    std::string s;
    for (int i = 0; i < d.ndims(); ++i) s += (i ? "×" : "") + std::to_string(d[i]);
    return s;
  };
  auto num = [](double x) {
    char b[64];
    if (x == std::floor(x) && std::fabs(x) < 1e9)
      std::snprintf(b, sizeof b, "%.0f", x);
    else
      std::snprintf(b, sizeof b, "%.4f", x);
    return std::string(b);
  };
  if (v.is_char() && v.dims().rows() <= 1) return "'" + (v.is_empty() ? "" : v.to_text()) + "'";
  if (v.is_object()) {
    const auto* h = dynamic_cast<const GHandle*>(v.object().get());
    const std::string c = h && !h->nodes().empty() ? h->nodes()[0]->short_class() : "handle";
    return "[" + dims(v.dims()) + " " + c + "]";
  }
  if (v.is_cell()) return "{" + dims(v.dims()) + " cell}";
  if (v.is_tensor()) {
    Tensor t = v.tensor();
    if (t.numel() == 1) return num(t.get_double(0));
    if (t.dims().ndims() == 2 && t.dims().rows() == 1 && t.numel() > 0 && t.numel() <= 6) {
      bool all_int = true;
      for (int64_t i = 0; i < t.numel(); ++i)
        all_int = all_int && t.get_double(i) == std::floor(t.get_double(i));
      std::string s = "[";
      for (int64_t i = 0; i < t.numel(); ++i) {
        const double x = t.get_double(i);
        char b[64];
        if (all_int || x == 0)
          std::snprintf(b, sizeof b, "%.0f", x);
        else
          std::snprintf(b, sizeof b, "%.4f", x);
        s += (i ? " " : "") + std::string(b);
      }
      return s + "]";
    }
    return "[" + dims(t.dims()) + " " + v.class_name() + "]";
  }
  return "[" + dims(v.dims()) + " " + v.class_name() + "]";
}

}  // namespace

bool GHandle::display_lines(std::vector<std::string>& lines) const {
  if (nodes_.size() != 1) {
    const std::string c = nodes_.empty() ? "GraphicsPlaceholder" : nodes_[0]->short_class();
    lines.push_back("  " + std::to_string(dims_.rows()) + "×" + std::to_string(dims_.cols()) + " " +
                    c + " array:");
    lines.push_back("");
    for (const auto& n : nodes_) lines.push_back("  " + n->short_class());
    lines.push_back("");
    return true;
  }
  const GPtr& n = nodes_[0];
  if (n->deleted) {
    lines.push_back("  handle to deleted " + n->short_class());
    lines.push_back("");
    return true;
  }
  const std::string& t = n->type();
  std::vector<const char*> shown;
  if (t == "figure")
    shown = {"Number", "Name", "Color", "Position", "Units"};
  else if (t == "axes")
    shown = {"XLim", "YLim", "XScale", "YScale", "GridLineStyle", "Position", "Units"};
  else if (t == "line" || t == "stair" || t == "stem" || t == "errorbar")
    shown = {"Color",           "LineStyle", "LineWidth", "Marker", "MarkerSize",
             "MarkerFaceColor", "XData",     "YData",     "ZData"};
  else if (t == "text")
    shown = {"String",   "FontSize", "FontWeight", "FontName", "Color", "HorizontalAlignment",
             "Position", "Units"};
  else if (t == "bar")
    shown = {"BarLayout", "BarWidth", "FaceColor", "EdgeColor", "BaseValue", "XData", "YData"};
  else if (t == "scatter")
    shown = {"Marker", "MarkerEdgeColor", "MarkerFaceColor", "SizeData", "LineWidth",
             "XData",  "YData",           "ZData",           "CData"};
  else if (t == "histogram")
    shown = {"Data",     "Values",        "NumBins",   "BinEdges",
             "BinWidth", "Normalization", "FaceColor", "EdgeColor"};
  else if (t == "legend")
    shown = {"String", "Location", "Orientation", "FontSize"};
  std::vector<std::pair<std::string, std::string>> rows;
  if (shown.empty()) {
    for (const auto& p : n->props()) {
      if (p.name[0] == '_' || p.name == "Type" || rows.size() >= 8) continue;
      rows.push_back({p.name, short_value(get_prop(n, p.name))});
    }
  } else {
    for (const char* p : shown)
      if (n->find_prop(p) >= 0) rows.push_back({p, short_value(get_prop(n, p))});
  }
  size_t w = 0;
  for (const auto& r : rows) w = std::max(w, r.first.size());
  if (t == "figure")
    lines.push_back("  Figure (" + short_value(n->prop("Number")) + ") with properties:");
  else
    lines.push_back("  " + n->short_class() + " with properties:");
  lines.push_back("");
  for (const auto& r : rows)
    lines.push_back(std::string(4 + w - r.first.size(), ' ') + r.first + ": " + r.second);
  lines.push_back("");
  lines.push_back("  Show all properties");
  lines.push_back("");
  return true;
}

Value handle_value(const GPtr& n) {
  return Value(std::make_shared<GHandle>(std::vector<GPtr>{n}, Dims::scalar()));
}

Value handle_column(const std::vector<GPtr>& ns) {
  const int64_t k = static_cast<int64_t>(ns.size());
  return Value(std::make_shared<GHandle>(ns, k == 0 ? Dims(0, 0) : Dims(k, 1)));
}

std::vector<GPtr> nodes_of(const Value& v) {
  if (v.is_object()) {
    if (auto* h = dynamic_cast<GHandle*>(v.object().get())) {
      for (const auto& n : h->nodes())
        if (n->deleted) throw_error("MATLAB:class:InvalidHandle", "Invalid or deleted object.");
      return h->nodes();
    }
  }
  if (v.is_tensor() && !v.is_char()) {
    std::vector<GPtr> r;
    Tensor t = v.tensor();
    for (int64_t i = 0; i < t.numel(); ++i) {
      const double k = t.get_double(i);
      GPtr n = k == 0 ? root() : find_figure(k);
      if (!n) throw_error("MATLAB:hg:InvalidHandle", "Invalid or deleted object.");
      r.push_back(n);
    }
    return r;
  }
  throw_error("MATLAB:hg:InvalidHandle", "Invalid or deleted object.");
}

bool is_handle_value(const Value& v) {
  if (v.is_object()) {
    auto* h = dynamic_cast<GHandle*>(v.object().get());
    if (!h) return false;
    for (const auto& n : h->nodes())
      if (n->deleted) return false;
    return true;
  }
  if (v.is_tensor() && !v.is_char() && v.numel() == 1) {
    const double k = v.tensor().get_double(0);
    return k == 0 || find_figure(k) != nullptr;
  }
  return false;
}

// ---- colours and line specs -------------------------------------------------------------------

namespace {

struct NamedColor {
  const char* name;
  char letter;
  Rgb rgb;
};
const NamedColor kColors[] = {{"red", 'r', {1, 0, 0}},     {"green", 'g', {0, 1, 0}},
                              {"blue", 'b', {0, 0, 1}},    {"cyan", 'c', {0, 1, 1}},
                              {"magenta", 'm', {1, 0, 1}}, {"yellow", 'y', {1, 1, 0}},
                              {"black", 'k', {0, 0, 0}},   {"white", 'w', {1, 1, 1}}};

bool color_from_text(std::string_view s0, Rgb& out) {
  const std::string s = lower_ascii(s0);
  for (const auto& c : kColors)
    if (s == c.name || (s.size() == 1 && s[0] == c.letter)) {
      out = c.rgb;
      return true;
    }
  if (s.size() == 7 || s.size() == 4) {
    if (s[0] != '#') return false;
    for (size_t i = 1; i < s.size(); ++i)
      if (!std::isxdigit(static_cast<unsigned char>(s[i]))) return false;
    auto hex = [](char c) {
      return std::isdigit(static_cast<unsigned char>(c)) ? c - '0' : c - 'a' + 10;
    };
    for (int i = 0; i < 3; ++i) {
      const int v = s.size() == 7 ? hex(s[1 + 2 * i]) * 16 + hex(s[2 + 2 * i]) : hex(s[1 + i]) * 17;
      out[i] = v / 255.0;
    }
    return true;
  }
  return false;
}

[[noreturn]] void bad_color() {
  throw_error("MATLAB:hg:ColorSpec_None", "Invalid color name or hexadecimal color code.");
}

}  // namespace

Rgb parse_color(const Value& v) {
  Rgb c{0, 0, 0};
  if (v.is_text()) {
    if (!color_from_text(v.to_text(), c)) bad_color();
    return c;
  }
  if (v.is_tensor() && !v.is_char() && v.numel() == 3) {
    Tensor t = v.tensor();
    for (int i = 0; i < 3; ++i) {
      double x = t.get_double(i);
      if (t.cls() == ClassId::UInt8) x /= 255.0;
      if (!(x >= 0 && x <= 1))
        throw_error("MATLAB:hg:ColorSpec_None",
                    "Color value must be a 3 element vector with values in the range [0 1].");
      c[i] = x;
    }
    return c;
  }
  bad_color();
}

Value rgb_value(const Rgb& c) {
  Tensor t = Tensor::zeros(ClassId::Double, Dims(1, 3));
  for (int i = 0; i < 3; ++i) t.set_double(i, c[i]);
  return Value(std::move(t));
}

Value color_value(const Value& v, std::initializer_list<const char*> keywords) {
  if (v.is_text()) {
    const std::string s = lower_ascii(v.to_text());
    for (const char* k : keywords)
      if (s == k) return Value::from_chars(k);
  }
  return rgb_value(parse_color(v));
}

bool parse_linespec(std::string_view s, LineSpec& out) {
  LineSpec r;
  size_t i = 0;
  if (s.empty()) return false;
  while (i < s.size()) {
    const char c = s[i];
    if (c == '-') {
      if (!r.line_style.empty()) return false;
      if (i + 1 < s.size() && (s[i + 1] == '-' || s[i + 1] == '.')) {
        r.line_style = std::string(s.substr(i, 2));
        i += 2;
      } else {
        r.line_style = "-";
        ++i;
      }
      continue;
    }
    if (c == ':') {
      if (!r.line_style.empty()) return false;
      r.line_style = ":";
      ++i;
      continue;
    }
    if (std::strchr("o+*.xsd^v<>ph", c)) {
      if (!r.marker.empty()) return false;
      r.marker = std::string(1, c);
      ++i;
      continue;
    }
    bool found = false;
    for (const auto& nc : kColors)
      if (c == nc.letter) {
        if (r.has_color) return false;
        r.has_color = true;
        r.color = nc.rgb;
        found = true;
      }
    if (!found) return false;
    ++i;
  }
  out = r;
  return true;
}

const std::vector<Rgb>& default_color_order() {
  static const std::vector<Rgb> k = {{0, 0.4470, 0.7410},      {0.8500, 0.3250, 0.0980},
                                     {0.9290, 0.6940, 0.1250}, {0.4940, 0.1840, 0.5560},
                                     {0.4660, 0.6740, 0.1880}, {0.3010, 0.7450, 0.9330},
                                     {0.6350, 0.0780, 0.1840}};
  return k;
}

}  // namespace matfuse::gfx
