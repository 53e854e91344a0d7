// Automatic limits, ticks and labels (see axes_layout.h).
#include "graphics/axes_layout.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>

#include "graphics/geometry.h"

namespace matfuse::gfx {

namespace {

const char* kData[3] = {"XData", "YData", "ZData"};

bool is_log(const GNode& ax, int dim) {
  static const char* s[3] = {"XScale", "YScale", "ZScale"};
  return ax.text(s[dim]) == "log";
}

void grow(Range& r, bool& any, double v, bool log) {
  if (!std::isfinite(v) || (log && v <= 0)) return;
  if (!any) {
    r.lo = r.hi = v;
    any = true;
  } else {
    r.lo = std::min(r.lo, v);
    r.hi = std::max(r.hi, v);
  }
}

/// Whether an axis shows its data extent without rounding (images, contours).
bool tight_child(const GNode& c) { return c.type() == "image" || c.type() == "contour"; }

}  // namespace

bool data_extent(const GNode& ax, int dim, Range& r) {
  bool any = false;
  const bool log = is_log(ax, dim);
  for (const auto& cp : ax.children()) {
    const GNode& c = *cp;
    if (c.text("Visible") == "off" && c.type() != "text") continue;
    const std::string& t = c.type();
    if (t == "text") continue;  // text does not widen MATLAB's automatic limits
    if (t == "bar" || t == "histogram") {
      for (const auto& b : bar_rects(c)) {
        if (dim == 0) {
          grow(r, any, b[0], log);
          grow(r, any, b[2], log);
        } else if (dim == 1) {
          grow(r, any, b[1], log);
          grow(r, any, b[3], log);
        }
      }
      continue;
    }
    if (t == "image") {
      if (dim == 2) continue;
      const Range e = image_extent(c, dim);
      grow(r, any, e.lo, log);
      grow(r, any, e.hi, log);
      continue;
    }
    if (t == "quiver" && dim < 2) {
      for (const auto& seg : quiver_segments(c)) {
        grow(r, any, dim == 0 ? seg[0] : seg[1], log);
        grow(r, any, dim == 0 ? seg[2] : seg[3], log);
      }
      continue;
    }
    for (double v : c.vec(kData[dim])) grow(r, any, v, log);
    if (t == "errorbar" && dim < 2) {
      const std::vector<double> d = c.vec(kData[dim]);
      const std::vector<double> neg = c.vec(dim == 0 ? "XNegativeDelta" : "YNegativeDelta");
      const std::vector<double> pos = c.vec(dim == 0 ? "XPositiveDelta" : "YPositiveDelta");
      for (size_t i = 0; i < d.size(); ++i) {
        if (i < neg.size()) grow(r, any, d[i] - neg[i], log);
        if (i < pos.size()) grow(r, any, d[i] + pos[i], log);
      }
    }
    if ((t == "stem" || t == "area") && dim == 1) grow(r, any, c.num("BaseValue"), log);
    if (t == "area" && dim == 1)
      for (double v : c.vec("_Lower")) grow(r, any, v, log);
  }
  return any;
}

std::vector<double> nice_ticks(double& lo, double& hi, int max_ticks, bool widen) {
  std::vector<double> out;
  if (!(hi > lo) || !std::isfinite(lo) || !std::isfinite(hi)) return out;
  max_ticks = std::max(max_ticks, 2);
  const double span = hi - lo;
  double step = 0;
  const double base = std::pow(10.0, std::floor(std::log10(span / max_ticks)) - 1);
  for (int e = 0; e < 4 && step == 0; ++e) {
    const double p = base * std::pow(10.0, e);
    for (double m : {1.0, 2.0, 5.0}) {
      const double s = m * p;
      const double a = std::floor(lo / s + 1e-9), b = std::ceil(hi / s - 1e-9);
      const double lo2 = widen ? a : std::ceil(lo / s - 1e-9);
      const double hi2 = widen ? b : std::floor(hi / s + 1e-9);
      if (hi2 - lo2 <= max_ticks) {
        step = s;
        break;
      }
    }
  }
  if (step == 0) step = span;
  const double a = widen ? std::floor(lo / step + 1e-9) : std::ceil(lo / step - 1e-9);
  const double b = widen ? std::ceil(hi / step - 1e-9) : std::floor(hi / step + 1e-9);
  if (widen) {
    lo = a * step;
    hi = b * step;
  }
  for (double k = a; k <= b + 1e-9; k += 1) {
    double v = k * step;
    if (std::fabs(v) < step * 1e-9) v = 0;
    out.push_back(v);
  }
  return out;
}

std::vector<double> log_ticks(double lo, double hi) {
  std::vector<double> out;
  if (!(lo > 0) || !(hi > lo)) return out;
  const int a = static_cast<int>(std::ceil(std::log10(lo) - 1e-9));
  const int b = static_cast<int>(std::floor(std::log10(hi) + 1e-9));
  int every = 1;
  while ((b - a) / every > 8) ++every;
  for (int k = a; k <= b; ++k)
    if ((k - a) % every == 0) out.push_back(std::pow(10.0, k));
  return out;
}

bool is_3d(const GNode& ax) {
  const std::vector<double> v = ax.vec("View");
  return v.size() == 2 && v[1] != 90;
}

std::array<double, 2> figure_size(const GNode& fig) {
  const std::vector<double> p = fig.vec("Position");
  if (p.size() < 4) return {560, 420};
  return {std::max(p[2], 1.0), std::max(p[3], 1.0)};
}

namespace {

std::array<double, 4> raw_box(const GNode& ax, double fw, double fh) {
  std::vector<double> p = ax.vec("Position");
  if (p.size() < 4) p = {0.13, 0.11, 0.775, 0.815};
  if (ax.text("Units") == "pixels") return {p[0], fh - p[1] - p[3], p[2], p[3]};
  return {p[0] * fw, fh - (p[1] + p[3]) * fh, p[2] * fw, p[3] * fh};
}

/// Axis pixel length of dim (2-D) for tick density.
double axis_pixels(const GNode& ax, int dim) {
  GNode* f = nullptr;
  GPtr fp = const_cast<GNode&>(ax).ancestor("figure");
  f = fp.get();
  const auto sz = f ? figure_size(*f) : std::array<double, 2>{560, 420};
  const auto b = raw_box(ax, sz[0], sz[1]);
  if (is_3d(ax)) return 0.45 * std::min(b[2], b[3]) + 60;
  return dim == 0 ? b[2] : b[3];
}

int max_intervals(const GNode& ax, int dim, double lo, double hi) {
  const double len = axis_pixels(ax, dim);
  const double font = ax.num("FontSize") * 96.0 / 72.0;
  if (dim == 1 || dim == 2) return std::max(2, static_cast<int>(len / (2.25 * font)));
  // x: the labels must fit side by side.
  const double mag = std::max(std::fabs(lo), std::fabs(hi));
  const int chars = std::max(1, static_cast<int>(std::floor(std::log10(std::max(mag, 1.0)))) + 2);
  const double w = std::max(2.9 * font, chars * 0.6 * font + font);
  return std::max(2, static_cast<int>(len / w));
}

bool any_tight_child(const GNode& ax) {
  for (const auto& c : ax.children())
    if (tight_child(*c)) return true;
  return false;
}

Range auto_limits(const GNode& ax, int dim) {
  Range r;
  const bool log = is_log(ax, dim);
  if (!data_extent(ax, dim, r)) return log ? Range{1, 10} : Range{0, 1};
  if (r.hi == r.lo) {
    if (log) return {r.lo / 10, r.hi * 10};
    const double d = r.lo == 0 ? 1 : std::fabs(r.lo) * 0.1;
    return {r.lo - d, r.hi + d};
  }
  if (ax.type() == "polaraxes" && dim == 1 && r.lo > 0) r.lo = 0;  // RLim starts at 0
  const bool tight = ax.text("_Tight") == "on" || (dim < 2 && any_tight_child(ax));
  if (tight) return r;
  if (log) {
    return {std::pow(10.0, std::floor(std::log10(r.lo) + 1e-9)),
            std::pow(10.0, std::ceil(std::log10(r.hi) - 1e-9))};
  }
  nice_ticks(r.lo, r.hi, max_intervals(ax, dim, r.lo, r.hi), true);
  return r;
}

}  // namespace

Range axis_limits(const GNode& ax, int dim) {
  static const char* lim[3] = {"XLim", "YLim", "ZLim"};
  static const char* mode[3] = {"XLimMode", "YLimMode", "ZLimMode"};
  if (ax.text(mode[dim]) == "manual") {
    std::vector<double> v = ax.vec(lim[dim]);
    Range r{v[0], v[1]};
    if (!std::isfinite(r.lo) || !std::isfinite(r.hi)) {
      const Range a = auto_limits(ax, dim);
      if (!std::isfinite(r.lo)) r.lo = a.lo;
      if (!std::isfinite(r.hi)) r.hi = a.hi;
    }
    return r;
  }
  Range r = auto_limits(ax, dim);
  // axis equal with automatic limits: widen the sparser axis so that data units have equal
  // length on screen (MATLAB keeps the plot box and extends the limits).
  if (dim < 2 && !is_3d(ax) && ax.text("DataAspectRatioMode") == "manual" &&
      ax.text("_Tight") != "on") {
    const int other = 1 - dim;
    if (ax.text(mode[other]) == "auto") {
      const Range o = auto_limits(ax, other);
      const std::vector<double> dar = ax.vec("DataAspectRatio");
      const double px = axis_pixels(ax, dim), po = axis_pixels(ax, other);
      const double need = (o.hi - o.lo) / dar[other] * dar[dim] * px / po;
      if (need > r.hi - r.lo) {
        const double c = 0.5 * (r.lo + r.hi);
        r = {c - need / 2, c + need / 2};
      }
    }
  }
  return r;
}

std::vector<double> axis_ticks(const GNode& ax, int dim) {
  static const char* tick[3] = {"XTick", "YTick", "ZTick"};
  static const char* mode[3] = {"XTickMode", "YTickMode", "ZTickMode"};
  if (ax.text(mode[dim]) == "manual") return ax.vec(tick[dim]);
  Range r = axis_limits(ax, dim);
  if (is_log(ax, dim)) return log_ticks(r.lo, r.hi);
  return nice_ticks(r.lo, r.hi, max_intervals(ax, dim, r.lo, r.hi), false);
}

std::vector<std::string> tick_labels(const GNode& ax, int dim, const std::vector<double>& ticks,
                                     int* exponent) {
  static const char* lab[3] = {"XTickLabel", "YTickLabel", "ZTickLabel"};
  static const char* mode[3] = {"XTickLabelMode", "YTickLabelMode", "ZTickLabelMode"};
  if (exponent) *exponent = 0;
  std::vector<std::string> out;
  if (ax.text(mode[dim]) == "manual") {
    const Value& v = ax.prop(lab[dim]);
    if (v.is_cell())
      for (int64_t i = 0; i < v.numel(); ++i)
        out.push_back(v.cell()[i].is_text() ? v.cell()[i].to_text() : "");
    // Labels repeat cyclically when fewer than ticks (MATLAB).
    if (!out.empty() && out.size() < ticks.size()) {
      const size_t k = out.size();
      for (size_t i = k; i < ticks.size(); ++i) out.push_back(out[i % k]);
    }
    out.resize(ticks.size());
    return out;
  }
  if (is_log(ax, dim)) {
    for (double t : ticks) {
      const int e = static_cast<int>(std::lround(std::log10(t)));
      out.push_back("10^{" + std::to_string(e) + "}");
    }
    return out;
  }
  double mag = 0;
  for (double t : ticks) mag = std::max(mag, std::fabs(t));
  int e = 0;
  if (mag >= 1e4 || (mag > 0 && mag < 1e-3)) e = static_cast<int>(std::floor(std::log10(mag)));
  if (exponent) *exponent = e;
  const double scale = std::pow(10.0, -e);
  double step = ticks.size() > 1 ? std::fabs(ticks[1] - ticks[0]) * scale : 1;
  int dec = 0;
  while (dec < 6 && std::fabs(step * std::pow(10.0, dec) - std::round(step * std::pow(10.0, dec))) >
                        1e-6 * step * std::pow(10.0, dec))
    ++dec;
  for (double t : ticks) {
    char b[64];
    double v = t * scale;
    if (std::fabs(v) < 1e-12) v = 0;
    std::snprintf(b, sizeof b, "%.*f", dec, v);
    std::string s = b;
    if (s.find('.') != std::string::npos) {
      while (s.back() == '0') s.pop_back();
      if (s.back() == '.') s.pop_back();
    }
    if (s == "-0") s = "0";
    out.push_back(s);
  }
  return out;
}

Range color_limits(const GNode& ax) {
  if (ax.text("CLimMode") == "manual") {
    const std::vector<double> v = ax.vec("CLim");
    return {v[0], v[1]};
  }
  Range r;
  bool any = false;
  for (const auto& c : ax.children()) {
    const std::string& t = c->type();
    std::vector<double> d;
    if (t == "image" && c->text("CDataMapping") == "scaled")
      d = c->vec("CData");
    else if (t == "surface" || t == "patch")
      d = c->vec(c->prop("CData").is_empty() ? "ZData" : "CData");
    else if (t == "contour")
      d = c->vec("ZData");
    else if (t == "scatter" && c->prop("CData").numel() != 3)
      d = c->vec("CData");
    else
      continue;
    if (t == "surface" || t == "patch") {
      const Value& cd = c->prop("CData");
      if (cd.is_tensor() && cd.dims().ndims() == 3) continue;  // true colour
    }
    for (double v : d) grow(r, any, v, false);
  }
  if (!any) return {0, 1};
  if (r.hi == r.lo) return {r.lo - 1, r.hi + 1};
  return r;
}

namespace {

size_t text_chars(const std::string& s) {
  size_t n = 0;
  for (unsigned char c : s)
    if ((c & 0xC0) != 0x80 && c != '{' && c != '}' && c != '^' && c != '_') ++n;
  return n;
}

int label_lines(const GNode& ax, const char* slot) {
  const Value& v = ax.prop(slot);
  if (!v.is_object()) return 0;
  const auto& ns = static_cast<const GHandle*>(v.object().get())->nodes();
  if (ns.empty()) return 0;
  const Value& s = ns[0]->prop("String");
  if (s.is_empty()) return 0;
  if (s.is_cell() || s.is_string()) return static_cast<int>(s.numel());
  if (s.is_char()) {
    const std::string t = s.dims().rows() > 1 ? "" : s.to_text();
    return s.dims().rows() > 1 ? static_cast<int>(s.dims().rows())
                               : 1 + static_cast<int>(std::count(t.begin(), t.end(), '\n'));
  }
  return 1;
}

/// MATLAB's OuterPosition layout: the inner box shrinks so that the tick labels, axis labels
/// and title fit inside the outer box (estimated from the font size).
std::array<double, 4> fit_labels(const GNode& ax, std::array<double, 4> b, double fw, double fh) {
  std::vector<double> o = ax.vec("OuterPosition");
  if (o.size() < 4) o = {0, 0, 1, 1};
  const double ox = o[0] * fw, oy = fh - (o[1] + o[3]) * fh, ow = o[2] * fw, oh = o[3] * fh;
  const double fs = ax.num("FontSize") * 96.0 / 72.0;
  const bool vis = ax.text("Visible") != "off";
  double top = 0.4 * fs, bottom = 0.2 * fs, left = 0.2 * fs, right = 0.5 * fs;
  const int tl = label_lines(ax, "Title");
  if (tl > 0) top = tl * 1.1 * 1.2 * fs + 0.7 * fs;
  if (vis) {
    const std::vector<double> xt = axis_ticks(ax, 0), yt = axis_ticks(ax, 1);
    size_t yc = 0, xc = 0;
    for (const auto& l : tick_labels(ax, 1, yt)) yc = std::max(yc, text_chars(l));
    for (const auto& l : tick_labels(ax, 0, xt)) xc = std::max(xc, text_chars(l));
    bottom = 1.25 * fs + 0.35 * fs + 2;
    left = yc * 0.62 * fs + 0.35 * fs + 3;
    right = std::max(right, xc * 0.31 * fs + 2);
    const int xl = label_lines(ax, "XLabel"), yl = label_lines(ax, "YLabel");
    if (xl > 0) bottom += xl * 1.1 * 1.2 * fs + 0.3 * fs;
    if (yl > 0) left += yl * 1.1 * 1.2 * fs + 0.45 * fs;
  }
  const double x0 = std::max(b[0], ox + left), y0 = std::max(b[1], oy + top);
  const double x1 = std::min(b[0] + b[2], ox + ow - right);
  const double y1 = std::min(b[1] + b[3], oy + oh - bottom);
  if (x1 - x0 < 0.25 * b[2] || y1 - y0 < 0.25 * b[3]) return b;  // too small: keep
  return {x0, y0, x1 - x0, y1 - y0};
}

}  // namespace

std::array<double, 4> axes_box(const GNode& ax, double fw, double fh) {
  std::array<double, 4> b = raw_box(ax, fw, fh);
  if (ax.text("_Fit") == "on" && !is_3d(ax) && ax.type() == "axes") b = fit_labels(ax, b, fw, fh);
  if (is_3d(ax)) return b;
  double want = 0;  // width / height
  if (ax.text("_Square") == "on") want = 1;
  if (ax.text("DataAspectRatioMode") == "manual" &&
      (ax.text("_Tight") == "on" || ax.text("XLimMode") == "manual" ||
       ax.text("YLimMode") == "manual")) {
    const Range x = axis_limits(ax, 0), y = axis_limits(ax, 1);
    const std::vector<double> dar = ax.vec("DataAspectRatio");
    want = ((x.hi - x.lo) / dar[0]) / ((y.hi - y.lo) / dar[1]);
  }
  if (want > 0 && std::isfinite(want)) {
    if (b[2] / b[3] > want) {
      const double w = b[3] * want;
      b[0] += (b[2] - w) / 2;
      b[2] = w;
    } else {
      const double h = b[2] / want;
      b[1] += (b[3] - h) / 2;
      b[3] = h;
    }
  }
  return b;
}

}  // namespace matfuse::gfx
