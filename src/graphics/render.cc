// Cairo renderer: figures, axes (2-D, 3-D, polar), ticks, labels, legends and colorbars, and
// the PNG/SVG/PDF surfaces. MATLAB's default look: white axes, dark grey (0.15) axis lines and
// labels, ticks inside, 10 pt axes font, 11 pt bold title, grid lines at 15% opacity.
#include "graphics/render.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <fstream>

#include "graphics/colormaps.h"
#include "graphics/gstate.h"

#ifdef MATFUSE_HAVE_CAIRO
#include <cairo-pdf.h>
#include <cairo-svg.h>

#include "graphics/render_internal.h"
#endif

namespace matfuse::gfx {

bool format_of_path(const std::string& path, ImageFormat& f) {
  const size_t dot = path.rfind('.');
  if (dot == std::string::npos) return false;
  const std::string e = lower_ascii(path.substr(dot + 1));
  if (e == "png")
    f = ImageFormat::Png;
  else if (e == "svg")
    f = ImageFormat::Svg;
  else if (e == "pdf")
    f = ImageFormat::Pdf;
  else
    return false;
  return true;
}

void write_figure(const GNode& fig, const std::string& path, ImageFormat f, double dpi) {
  const std::string bytes = render_figure(fig, f, dpi);
  std::ofstream o(path, std::ios::binary);
  o << bytes;
  o.close();
  if (!o)
    throw_error("MATLAB:print:CannotCreateOutputFile", "Cannot create output file '%s'.",
                path.c_str());
}

#ifndef MATFUSE_HAVE_CAIRO

bool rendering_available() { return false; }
SvgTextSink* svg_text_sink() { return nullptr; }
std::string render_figure(const GNode&, ImageFormat, double) {
  throw_error("matfuse:notAvailable",
              "Rendering figures needs the Cairo library (Debian: libcairo2-dev); this matfuse "
              "was built without it.");
}

#else

bool rendering_available() { return true; }

namespace {
SvgTextSink* g_sink = nullptr;
}  // namespace

SvgTextSink* svg_text_sink() { return g_sink; }

// ---- basic drawing ----------------------------------------------------------------------------

void set_rgb(cairo_t* cr, const Rgb& c, double alpha) {
  if (alpha >= 1)
    cairo_set_source_rgb(cr, c[0], c[1], c[2]);
  else
    cairo_set_source_rgba(cr, c[0], c[1], c[2], alpha);
}

bool apply_line_style(cairo_t* cr, const std::string& style, double width_pt) {
  const double w = std::max(width_pt * kPt, 0.75);
  cairo_set_line_width(cr, w);
  const double u = std::max(w, 1.0);
  if (style == "none") return false;
  if (style == "--") {
    const double d[] = {6 * u, 4 * u};
    cairo_set_dash(cr, d, 2, 0);
  } else if (style == ":") {
    const double d[] = {1 * u, 2.5 * u};
    cairo_set_dash(cr, d, 2, 0);
  } else if (style == "-.") {
    const double d[] = {6 * u, 2.5 * u, 1 * u, 2.5 * u};
    cairo_set_dash(cr, d, 4, 0);
  } else {
    cairo_set_dash(cr, nullptr, 0, 0);
  }
  return true;
}

void draw_marker(cairo_t* cr, const std::string& m, double x, double y, double size_pt,
                 const Rgb& edge, bool fill, const Rgb& face, double lw_pt) {
  if (m.empty() || m == "none") return;
  cairo_save(cr);
  cairo_set_dash(cr, nullptr, 0, 0);
  cairo_set_line_width(cr, std::max(lw_pt * kPt, 0.75));
  const double r = size_pt * kPt / 2;
  cairo_new_path(cr);
  bool closed = true;
  const char c = m[0];
  auto poly = [&](std::initializer_list<std::array<double, 2> > pts) {
    bool first = true;
    for (const auto& p : pts) {
      if (first)
        cairo_move_to(cr, x + p[0] * r, y + p[1] * r);
      else
        cairo_line_to(cr, x + p[0] * r, y + p[1] * r);
      first = false;
    }
    cairo_close_path(cr);
  };
  switch (c) {
    case 'o':
      cairo_arc(cr, x, y, r, 0, 2 * M_PI);
      break;
    case '.':
      cairo_arc(cr, x, y, std::max(r / 3, 1.0), 0, 2 * M_PI);
      set_rgb(cr, edge);
      cairo_fill(cr);
      cairo_restore(cr);
      return;
    case 's':
      cairo_rectangle(cr, x - r, y - r, 2 * r, 2 * r);
      break;
    case 'd':
      poly({{0, -1}, {1, 0}, {0, 1}, {-1, 0}});
      break;
    case '^':
      poly({{0, -1}, {0.866, 0.5}, {-0.866, 0.5}});
      break;
    case 'v':
      poly({{0, 1}, {0.866, -0.5}, {-0.866, -0.5}});
      break;
    case '>':
      poly({{1, 0}, {-0.5, 0.866}, {-0.5, -0.866}});
      break;
    case '<':
      poly({{-1, 0}, {0.5, 0.866}, {0.5, -0.866}});
      break;
    case 'p':
    case 'h': {
      const int k = c == 'p' ? 5 : 6;
      const double inner = c == 'p' ? 0.382 : 0.5;
      for (int i = 0; i < 2 * k; ++i) {
        const double a = -M_PI / 2 + i * M_PI / k;
        const double rr = (i % 2 ? inner : 1.0) * r * 1.1;
        if (i == 0)
          cairo_move_to(cr, x + rr * std::cos(a), y + rr * std::sin(a));
        else
          cairo_line_to(cr, x + rr * std::cos(a), y + rr * std::sin(a));
      }
      cairo_close_path(cr);
      break;
    }
    default: {
      closed = false;
      const bool plus = c == '+' || c == '*', cross = c == 'x' || c == '*';
      if (plus) {
        cairo_move_to(cr, x - r, y);
        cairo_line_to(cr, x + r, y);
        cairo_move_to(cr, x, y - r);
        cairo_line_to(cr, x, y + r);
      }
      if (cross) {
        const double q = c == '*' ? r * 0.707 : r;
        cairo_move_to(cr, x - q, y - q);
        cairo_line_to(cr, x + q, y + q);
        cairo_move_to(cr, x - q, y + q);
        cairo_line_to(cr, x + q, y - q);
      }
      if (c == '_' || c == '|') {
        if (c == '_') {
          cairo_move_to(cr, x - r, y);
          cairo_line_to(cr, x + r, y);
        } else {
          cairo_move_to(cr, x, y - r);
          cairo_line_to(cr, x, y + r);
        }
      }
    }
  }
  if (closed && fill) {
    set_rgb(cr, face);
    cairo_fill_preserve(cr);
  }
  set_rgb(cr, edge);
  cairo_stroke(cr);
  cairo_restore(cr);
}

std::vector<Rgb> axes_colormap(const GNode& ax) {
  const Value& v = ax.prop("Colormap");
  if (!v.is_empty()) return colormap_rows(v);
  GPtr f = const_cast<GNode&>(ax).ancestor("figure");
  if (f) return colormap_rows(f->prop("Colormap"));
  return colormap_table("parula", 256);
}

Rgb map_color(const std::vector<Rgb>& cm, const Range& r, double c) {
  if (cm.empty()) return {0, 0, 0};
  const int m = static_cast<int>(cm.size());
  if (!std::isfinite(c)) return {1, 1, 1};
  int k = r.hi > r.lo ? static_cast<int>(std::floor((c - r.lo) / (r.hi - r.lo) * m)) : 0;
  return cm[std::clamp(k, 0, m - 1)];
}

// ---- axes mapping -----------------------------------------------------------------------------

double AxesMap::norm(int dim, double v) const {
  const Range& r = lim[dim];
  double t;
  if (log[dim])
    t = (std::log10(v) - std::log10(r.lo)) / (std::log10(r.hi) - std::log10(r.lo));
  else
    t = (v - r.lo) / (r.hi - r.lo);
  return rev[dim] ? 1 - t : t;
}

std::array<double, 2> AxesMap::map(double x, double y, double z) const {
  if (polar) {
    const double rr = (y - lim[1].lo) / (lim[1].hi - lim[1].lo);
    const double th = rev[0] ? -x : x;
    return {cx + scale * rr * std::cos(th + lim[0].lo), cy - scale * rr * std::sin(th + lim[0].lo)};
  }
  if (!three_d) return {box[0] + norm(0, x) * box[2], box[1] + (1 - norm(1, y)) * box[3]};
  const double X = norm(0, x) - 0.5, Y = norm(1, y) - 0.5, Z = (norm(2, z) - 0.5) * 0.8;
  const double sx = rot[0][0] * X + rot[0][1] * Y + rot[0][2] * Z;
  const double sy = rot[1][0] * X + rot[1][1] * Y + rot[1][2] * Z;
  return {cx + scale * sx, cy - scale * sy};
}

double AxesMap::depth(double x, double y, double z) const {
  const double X = norm(0, x) - 0.5, Y = norm(1, y) - 0.5, Z = (norm(2, z) - 0.5) * 0.8;
  return rot[2][0] * X + rot[2][1] * Y + rot[2][2] * Z;
}

AxesMap make_map(const GNode& ax, double fw, double fh) {
  AxesMap m;
  m.box = axes_box(ax, fw, fh);
  for (int d = 0; d < 3; ++d) {
    m.lim[d] = axis_limits(ax, d);
    static const char* sc[3] = {"XScale", "YScale", "ZScale"};
    static const char* dir[3] = {"XDir", "YDir", "ZDir"};
    m.log[d] = ax.text(sc[d]) == "log" && m.lim[d].lo > 0;
    m.rev[d] = ax.text(dir[d]) == "reverse";
  }
  if (ax.type() == "polaraxes") {
    m.polar = true;
    m.lim[0] = {0, 2 * M_PI};
    m.lim[1] = axis_limits(ax, 1);
    m.rev[0] = ax.text("ThetaDir") == "clockwise";
    const std::string z = ax.text("ThetaZeroLocation");
    m.lim[0].lo = z == "top" ? M_PI / 2 : z == "left" ? M_PI : z == "bottom" ? -M_PI / 2 : 0;
    m.cx = m.box[0] + m.box[2] / 2;
    m.cy = m.box[1] + m.box[3] / 2;
    const double fs = ax.num("FontSize") * kPt;
    m.scale = std::max(std::min(m.box[2] - 5 * fs, m.box[3] - 3.5 * fs) / 2, 10.0);
    return m;
  }
  m.three_d = is_3d(ax);
  if (m.three_d) {
    const std::vector<double> v = ax.vec("View");
    const double az = v[0] * M_PI / 180, el = v[1] * M_PI / 180;
    // MATLAB's viewmtx (azimuth about z, then elevation).
    const double R[3][3] = {
        {std::cos(az), std::sin(az), 0},
        {-std::sin(el) * std::sin(az), std::sin(el) * std::cos(az), std::cos(el)},
        {std::cos(el) * std::sin(az), -std::cos(el) * std::cos(az), std::sin(el)}};
    std::memcpy(m.rot, R, sizeof R);
    double x0 = 1e300, x1 = -1e300, y0 = 1e300, y1 = -1e300;
    for (int k = 0; k < 8; ++k) {
      const double X = (k & 1 ? 0.5 : -0.5), Y = (k & 2 ? 0.5 : -0.5), Z = (k & 4 ? 0.4 : -0.4);
      const double sx = R[0][0] * X + R[0][1] * Y + R[0][2] * Z;
      const double sy = R[1][0] * X + R[1][1] * Y + R[1][2] * Z;
      x0 = std::min(x0, sx);
      x1 = std::max(x1, sx);
      y0 = std::min(y0, sy);
      y1 = std::max(y1, sy);
    }
    m.scale = std::min(m.box[2] / (x1 - x0), m.box[3] / (y1 - y0));
    m.cx = m.box[0] + m.box[2] / 2 - m.scale * (x0 + x1) / 2;
    m.cy = m.box[1] + m.box[3] / 2 + m.scale * (y0 + y1) / 2;
  }
  return m;
}

namespace {

Rgb prop_rgb(const GNode& n, const char* name, Rgb def = {0.15, 0.15, 0.15}) {
  Rgb c;
  return n.color(name, c) ? c : def;
}

void line(cairo_t* cr, double x0, double y0, double x1, double y1) {
  cairo_move_to(cr, x0, y0);
  cairo_line_to(cr, x1, y1);
}

/// Tick label text for axis dim of ax and the exponent.
struct TickSet {
  std::vector<double> ticks;
  std::vector<std::string> labels;
  int exponent = 0;
};

TickSet ticks_of(const GNode& ax, int dim) {
  TickSet t;
  t.ticks = axis_ticks(ax, dim);
  const Range r = axis_limits(ax, dim);
  std::vector<double> keep;
  std::vector<std::string> lab = tick_labels(ax, dim, t.ticks, &t.exponent);
  for (size_t i = 0; i < t.ticks.size(); ++i) {
    const double eps = (r.hi - r.lo) * 1e-9;
    if (t.ticks[i] < r.lo - eps || t.ticks[i] > r.hi + eps) continue;
    keep.push_back(t.ticks[i]);
    t.labels.push_back(i < lab.size() ? lab[i] : "");
  }
  t.ticks = keep;
  return t;
}

void draw_label_slot(cairo_t* cr, const GNode& ax, const char* slot, double x, double y,
                     const std::string& h, const std::string& v, double rot) {
  const Value& hv = ax.prop(slot);
  if (!hv.is_object()) return;
  GPtr t = nodes_of(hv)[0];
  if (t->text("Visible") == "off") return;
  std::string s;
  for (const auto& l : text_lines(t->prop("String"))) s += (s.empty() ? "" : "\n") + l;
  Rgb c = prop_rgb(*t, "Color", {0, 0, 0});
  if (std::strcmp(slot, "Title") != 0 && c == Rgb{0, 0, 0}) c = {0.15, 0.15, 0.15};
  draw_text(cr, s, x, y, t->num("FontSize"), t->text("FontWeight") == "bold", c, h, v, rot,
            t->text("Interpreter") != "none");
}

/// Width in pixels of the widest label (for placing the y label).
double widest(cairo_t* cr, const std::vector<std::string>& labels, double fs) {
  double w = 0;
  for (const auto& l : labels) w = std::max(w, text_size(cr, l, fs, false)[0]);
  return w;
}

void draw_exponent(cairo_t* cr, int e, double x, double y, double fs, const Rgb& c,
                   const std::string& h, const std::string& v) {
  if (e == 0) return;
  draw_text(cr, "\\times10^{" + std::to_string(e) + "}", x, y, fs, false, c, h, v);
}

void draw_axes_2d(cairo_t* cr, const GNode& ax, const AxesMap& m) {
  const auto& b = m.box;
  const bool visible = ax.text("Visible") != "off";
  Rgb bg;
  if (visible && ax.color("Color", bg)) {
    set_rgb(cr, bg);
    cairo_rectangle(cr, b[0], b[1], b[2], b[3]);
    cairo_fill(cr);
  }
  const TickSet tx = ticks_of(ax, 0), ty = ticks_of(ax, 1);
  const double fs = ax.num("FontSize");
  const double lw = std::max(ax.num("LineWidth") * kPt, 0.75);
  // Grid lines under the data.
  if (visible) {
    Rgb gc = prop_rgb(ax, "GridColor");
    const double ga = ax.num("GridAlpha");
    cairo_set_line_width(cr, lw);
    cairo_set_dash(cr, nullptr, 0, 0);
    set_rgb(cr, gc, ga);
    if (ax.on("XGrid"))
      for (double t : tx.ticks) {
        const double x = std::round(m.map(t, m.lim[1].lo)[0]) + 0.5;
        line(cr, x, b[1], x, b[1] + b[3]);
      }
    if (ax.on("YGrid"))
      for (double t : ty.ticks) {
        const double y = std::round(m.map(m.lim[0].lo, t)[1]) + 0.5;
        line(cr, b[0], y, b[0] + b[2], y);
      }
    cairo_stroke(cr);
    if (ax.on("XMinorGrid") || ax.on("YMinorGrid")) {
      set_rgb(cr, gc, ax.num("MinorGridAlpha") * 0.6);
      const double d[] = {1, 2};
      cairo_set_dash(cr, d, 2, 0);
      for (int dim = 0; dim < 2; ++dim) {
        if (!ax.on(dim == 0 ? "XMinorGrid" : "YMinorGrid")) continue;
        const auto& tk = dim == 0 ? tx.ticks : ty.ticks;
        std::vector<double> minor;
        if (m.log[dim]) {
          for (double t : tk)
            for (int k = 2; k <= 9; ++k) minor.push_back(t * k);
        } else if (tk.size() > 1) {
          const double st = (tk[1] - tk[0]) / 5;
          for (double t = tk[0] - 5 * st; t <= tk.back() + 5 * st; t += st) minor.push_back(t);
        }
        for (double t : minor) {
          if (t < m.lim[dim].lo || t > m.lim[dim].hi) continue;
          if (dim == 0) {
            const double x = m.map(t, m.lim[1].lo)[0];
            line(cr, x, b[1], x, b[1] + b[3]);
          } else {
            const double y = m.map(m.lim[0].lo, t)[1];
            line(cr, b[0], y, b[0] + b[2], y);
          }
        }
      }
      cairo_stroke(cr);
      cairo_set_dash(cr, nullptr, 0, 0);
    }
  }
  // Data, clipped to the plot box.
  cairo_save(cr);
  cairo_rectangle(cr, b[0], b[1], b[2], b[3]);
  cairo_clip(cr);
  draw_children(cr, ax, m);
  cairo_restore(cr);
  if (!visible) {
    draw_label_slot(cr, ax, "Title", b[0] + b[2] / 2, b[1] - 4, "center", "bottom", 0);
    return;
  }
  // Axis lines, ticks, labels.
  const Rgb xc = prop_rgb(ax, "XColor"), yc = prop_rgb(ax, "YColor");
  const std::vector<double> tl = ax.vec("TickLength");
  const double tlen = (tl.empty() ? 0.01 : tl[0]) * std::max(b[2], b[3]);
  const bool out = ax.text("TickDir") == "out";
  const bool box = ax.on("Box");
  const bool top = ax.text("XAxisLocation") == "top";
  const bool right = ax.text("YAxisLocation") == "right";
  const double xl = std::round(b[0]) + 0.5, xr = std::round(b[0] + b[2]) + 0.5;
  const double yt = std::round(b[1]) + 0.5, yb = std::round(b[1] + b[3]) + 0.5;
  cairo_set_line_width(cr, lw);
  cairo_set_dash(cr, nullptr, 0, 0);
  cairo_set_line_cap(cr, CAIRO_LINE_CAP_SQUARE);
  set_rgb(cr, xc);
  const double xaxis_y = top ? yt : yb, xother = top ? yb : yt;
  line(cr, xl, xaxis_y, xr, xaxis_y);
  if (box) line(cr, xl, xother, xr, xother);
  for (double t : tx.ticks) {
    const double x = std::round(m.map(t, m.lim[1].lo)[0]) + 0.5;
    const double dir = (top ? 1 : -1) * (out ? -1 : 1);
    line(cr, x, xaxis_y, x, xaxis_y + dir * tlen);
    if (box && !out) line(cr, x, xother, x, xother - dir * tlen);
  }
  cairo_stroke(cr);
  set_rgb(cr, yc);
  const double yaxis_x = right ? xr : xl, yother = right ? xl : xr;
  line(cr, yaxis_x, yt, yaxis_x, yb);
  if (box) line(cr, yother, yt, yother, yb);
  for (double t : ty.ticks) {
    const double y = std::round(m.map(m.lim[0].lo, t)[1]) + 0.5;
    const double dir = (right ? -1 : 1) * (out ? -1 : 1);
    line(cr, yaxis_x, y, yaxis_x + dir * tlen, y);
    if (box && !out) line(cr, yother, y, yother - dir * tlen, y);
  }
  cairo_stroke(cr);
  cairo_set_line_cap(cr, CAIRO_LINE_CAP_BUTT);
  const double gap = 0.35 * fs * kPt + (out ? tlen : 0);
  double xlab_h = 0;
  for (size_t i = 0; i < tx.ticks.size(); ++i) {
    const double x = m.map(tx.ticks[i], m.lim[1].lo)[0];
    const double y = top ? xaxis_y - gap : xaxis_y + gap;
    draw_text(cr, tx.labels[i], x, y, fs, false, xc, "center", top ? "bottom" : "top");
    xlab_h = std::max(xlab_h, text_size(cr, tx.labels[i], fs, false)[1]);
  }
  draw_exponent(cr, tx.exponent, xr, yb + gap + xlab_h, fs, xc, "right", "top");
  for (size_t i = 0; i < ty.ticks.size(); ++i) {
    const double y = m.map(m.lim[0].lo, ty.ticks[i])[1];
    const double x = right ? yaxis_x + gap : yaxis_x - gap;
    draw_text(cr, ty.labels[i], x, y, fs, false, yc, right ? "left" : "right", "middle");
  }
  draw_exponent(cr, ty.exponent, xl, yt - 3, fs, yc, "left", "bottom");
  const double yw = widest(cr, ty.labels, fs);
  const double lab_gap = 0.45 * fs * kPt;
  draw_label_slot(cr, ax, "XLabel", b[0] + b[2] / 2,
                  top ? xaxis_y - gap - xlab_h - lab_gap : xaxis_y + gap + xlab_h + lab_gap * 0.6,
                  "center", top ? "bottom" : "top", 0);
  draw_label_slot(cr, ax, "YLabel",
                  right ? yaxis_x + gap + yw + lab_gap : yaxis_x - gap - yw - lab_gap,
                  b[1] + b[3] / 2, "center", right ? "top" : "bottom", 90);
  const double title_y = b[1] - (ty.exponent != 0 ? fs * kPt * 1.6 : 0.5 * fs * kPt);
  draw_label_slot(cr, ax, "Title", b[0] + b[2] / 2, title_y, "center", "bottom", 0);
}

void draw_axes_3d(cairo_t* cr, const GNode& ax, const AxesMap& m) {
  const bool visible = ax.text("Visible") != "off";
  const double fs = ax.num("FontSize");
  const double lw = std::max(ax.num("LineWidth") * kPt, 0.75);
  const Range& X = m.lim[0];
  const Range& Y = m.lim[1];
  const Range& Z = m.lim[2];
  // The back planes: for each axis the bound farther from the viewer.
  const double bx = m.depth(X.lo, (Y.lo + Y.hi) / 2, (Z.lo + Z.hi) / 2) <
                            m.depth(X.hi, (Y.lo + Y.hi) / 2, (Z.lo + Z.hi) / 2)
                        ? X.lo
                        : X.hi;
  const double by = m.depth((X.lo + X.hi) / 2, Y.lo, (Z.lo + Z.hi) / 2) <
                            m.depth((X.lo + X.hi) / 2, Y.hi, (Z.lo + Z.hi) / 2)
                        ? Y.lo
                        : Y.hi;
  const double bz = m.depth((X.lo + X.hi) / 2, (Y.lo + Y.hi) / 2, Z.lo) <
                            m.depth((X.lo + X.hi) / 2, (Y.lo + Y.hi) / 2, Z.hi)
                        ? Z.lo
                        : Z.hi;
  const TickSet tk[3] = {ticks_of(ax, 0), ticks_of(ax, 1), ticks_of(ax, 2)};
  auto seg = [&](double x0, double y0, double z0, double x1, double y1, double z1) {
    const auto a = m.map(x0, y0, z0), c = m.map(x1, y1, z1);
    line(cr, a[0], a[1], c[0], c[1]);
  };
  if (visible) {
    Rgb gc = prop_rgb(ax, "GridColor");
    cairo_set_line_width(cr, lw);
    set_rgb(cr, gc, ax.num("GridAlpha"));
    if (ax.on("XGrid"))
      for (double t : tk[0].ticks) {
        seg(t, Y.lo, bz, t, Y.hi, bz);
        seg(t, by, Z.lo, t, by, Z.hi);
      }
    if (ax.on("YGrid"))
      for (double t : tk[1].ticks) {
        seg(X.lo, t, bz, X.hi, t, bz);
        seg(bx, t, Z.lo, bx, t, Z.hi);
      }
    if (ax.on("ZGrid"))
      for (double t : tk[2].ticks) {
        seg(X.lo, by, t, X.hi, by, t);
        seg(bx, Y.lo, t, bx, Y.hi, t);
      }
    cairo_stroke(cr);
  }
  draw_children(cr, ax, m);
  if (!visible) return;
  // Axis lines along the lower front edges: x at y = front, z = lower; y at x = front.
  const double fy = by == Y.lo ? Y.hi : Y.lo, fx = bx == X.lo ? X.hi : X.lo;
  const double zl = Z.lo;
  const Rgb col = prop_rgb(ax, "XColor");
  set_rgb(cr, col);
  cairo_set_line_width(cr, lw);
  seg(X.lo, fy, zl, X.hi, fy, zl);
  seg(fx, Y.lo, zl, fx, Y.hi, zl);
  // z axis on the left-most vertical edge.
  double zx = X.lo, zy = Y.lo, best = 1e300;
  for (double cx : {X.lo, X.hi})
    for (double cy : {Y.lo, Y.hi}) {
      const double sx = m.map(cx, cy, zl)[0];
      if (sx < best) {
        best = sx;
        zx = cx;
        zy = cy;
      }
    }
  seg(zx, zy, Z.lo, zx, zy, Z.hi);
  if (ax.on("Box")) {
    for (double cx : {X.lo, X.hi})
      for (double cy : {Y.lo, Y.hi}) seg(cx, cy, Z.lo, cx, cy, Z.hi);
    for (double cz : {Z.lo, Z.hi}) {
      seg(X.lo, Y.lo, cz, X.hi, Y.lo, cz);
      seg(X.lo, Y.hi, cz, X.hi, Y.hi, cz);
      seg(X.lo, Y.lo, cz, X.lo, Y.hi, cz);
      seg(X.hi, Y.lo, cz, X.hi, Y.hi, cz);
    }
  }
  cairo_stroke(cr);
  const double gap = 0.6 * fs * kPt;
  const auto centre = m.map((X.lo + X.hi) / 2, (Y.lo + Y.hi) / 2, (Z.lo + Z.hi) / 2);
  auto label_at = [&](const std::array<double, 2>& p, const std::string& s, bool zaxis) {
    if (zaxis) {
      draw_text(cr, s, p[0] - gap, p[1], fs, false, col, "right", "middle");
      return;
    }
    const double dx = p[0] - centre[0], dy = p[1] - centre[1];
    const double d = std::max(std::hypot(dx, dy), 1.0);
    const double ox = p[0] + dx / d * gap, oy = p[1] + dy / d * gap;
    draw_text(cr, s, ox, oy, fs, false, col, dx > 5 ? "left" : (dx < -5 ? "right" : "center"),
              "top");
  };
  for (size_t i = 0; i < tk[0].ticks.size(); ++i)
    label_at(m.map(tk[0].ticks[i], fy, zl), tk[0].labels[i], false);
  for (size_t i = 0; i < tk[1].ticks.size(); ++i)
    label_at(m.map(fx, tk[1].ticks[i], zl), tk[1].labels[i], false);
  for (size_t i = 0; i < tk[2].ticks.size(); ++i)
    label_at(m.map(zx, zy, tk[2].ticks[i]), tk[2].labels[i], true);
  const auto xm = m.map((X.lo + X.hi) / 2, fy, zl), ym = m.map(fx, (Y.lo + Y.hi) / 2, zl);
  const auto zm = m.map(zx, zy, (Z.lo + Z.hi) / 2);
  auto outward = [&](const std::array<double, 2>& p, double dist) {
    const double dx = p[0] - centre[0], dy = p[1] - centre[1];
    const double d = std::max(std::hypot(dx, dy), 1.0);
    return std::array<double, 2>{p[0] + dx / d * dist, p[1] + dy / d * dist};
  };
  const auto xp = outward(xm, 2.6 * fs * kPt), yp = outward(ym, 2.6 * fs * kPt);
  draw_label_slot(cr, ax, "XLabel", xp[0], xp[1], "center", "middle", 0);
  draw_label_slot(cr, ax, "YLabel", yp[0], yp[1], "center", "middle", 0);
  draw_label_slot(cr, ax, "ZLabel", zm[0] - 3.5 * fs * kPt, zm[1], "center", "bottom", 90);
  draw_label_slot(cr, ax, "Title", m.box[0] + m.box[2] / 2, m.box[1] - 4, "center", "bottom", 0);
}

void draw_axes_polar(cairo_t* cr, const GNode& ax, const AxesMap& m) {
  const double fs = ax.num("FontSize");
  const Rgb col = prop_rgb(ax, "XColor");
  const double R = m.scale;
  set_rgb(cr, {1, 1, 1});
  cairo_arc(cr, m.cx, m.cy, R, 0, 2 * M_PI);
  cairo_fill(cr);
  cairo_set_line_width(cr, 0.75);
  set_rgb(cr, prop_rgb(ax, "GridColor"), 0.15 * 1.5);
  const TickSet rt = ticks_of(ax, 1);
  for (double t : rt.ticks) {
    const double rr = (t - m.lim[1].lo) / (m.lim[1].hi - m.lim[1].lo) * R;
    cairo_new_sub_path(cr);
    cairo_arc(cr, m.cx, m.cy, rr, 0, 2 * M_PI);
  }
  for (int k = 0; k < 12; ++k) {
    const auto p = m.map(k * M_PI / 6, m.lim[1].hi);
    line(cr, m.cx, m.cy, p[0], p[1]);
  }
  cairo_stroke(cr);
  set_rgb(cr, col);
  cairo_arc(cr, m.cx, m.cy, R, 0, 2 * M_PI);
  cairo_stroke(cr);
  for (int k = 0; k < 12; ++k) {
    const double th = k * M_PI / 6;
    const auto p = m.map(th, m.lim[1].lo + (m.lim[1].hi - m.lim[1].lo) * 1.08);
    draw_text(cr, std::to_string(k * 30) + "^{\\circ}", p[0], p[1], fs, false, col, "center",
              "middle");
  }
  for (size_t i = 0; i < rt.ticks.size(); ++i) {
    const auto p = m.map(80.0 * M_PI / 180.0, rt.ticks[i]);
    draw_text(cr, rt.labels[i], p[0] + 2, p[1], fs, false, col, "left", "bottom");
  }
  cairo_save(cr);
  cairo_arc(cr, m.cx, m.cy, R, 0, 2 * M_PI);
  cairo_clip(cr);
  draw_children(cr, ax, m);
  cairo_restore(cr);
  draw_label_slot(cr, ax, "Title", m.cx, m.cy - R - 1.6 * fs * kPt, "center", "bottom", 0);
}

// ---- legend and colorbar ------------------------------------------------------------------

void draw_legend(cairo_t* cr, const GNode& lg, const AxesMap& m) {
  if (lg.text("Visible") == "off") return;
  const Value& items = lg.prop("_Items");
  if (!items.is_object()) return;
  std::vector<GPtr> its;
  for (const auto& n : static_cast<GHandle*>(items.object().get())->nodes())
    if (!n->deleted) its.push_back(n);
  const std::vector<std::string> labels = text_lines(lg.prop("String"));
  const size_t n = std::min(its.size(), labels.size());
  if (n == 0) return;
  const double fs = lg.num("FontSize");
  const bool tex = lg.text("Interpreter") != "none";
  (void)tex;
  const double rowh = fs * kPt * 1.45, token = 30, pad = 6;
  const bool horiz = lg.text("Orientation") == "horizontal";
  std::vector<double> tw(n);
  double wmax = 0, wsum = 0;
  for (size_t i = 0; i < n; ++i) {
    tw[i] = text_size(cr, labels[i], fs, false)[0];
    wmax = std::max(wmax, tw[i]);
    wsum += token + 4 + tw[i] + 10;
  }
  const double W = horiz ? wsum + pad : pad + token + 4 + wmax + pad + 2;
  const double H = horiz ? rowh + 2 * pad - 4 : static_cast<double>(n) * rowh + 2 * pad - 4;
  const auto& b = m.box;
  const std::string loc = lower_ascii(lg.text("Location"));
  const double off = 6;
  double x = b[0] + b[2] - W - off, y = b[1] + off;  // northeast (also 'best')
  if (loc.find("west") != std::string::npos) x = b[0] + off;
  if (loc.find("south") != std::string::npos) y = b[1] + b[3] - H - off;
  if (loc == "north" || loc == "south" || loc == "northoutside" || loc == "southoutside")
    x = b[0] + (b[2] - W) / 2;
  if (loc == "east" || loc == "west" || loc == "eastoutside" || loc == "westoutside")
    y = b[1] + (b[3] - H) / 2;
  if (loc.find("eastoutside") != std::string::npos) x = b[0] + b[2] + off;
  if (loc.find("westoutside") != std::string::npos) x = b[0] - W - off - 40;
  if (loc == "northoutside") y = b[1] - H - off - 20;
  if (loc == "southoutside") y = b[1] + b[3] + off + 30;
  if (lg.on("Box")) {
    Rgb bg;
    if (lg.color("Color", bg)) {
      set_rgb(cr, bg);
      cairo_rectangle(cr, x, y, W, H);
      cairo_fill(cr);
    }
    Rgb ec;
    if (lg.color("EdgeColor", ec)) {
      set_rgb(cr, ec);
      cairo_set_line_width(cr, 0.75);
      cairo_set_dash(cr, nullptr, 0, 0);
      cairo_rectangle(cr, std::round(x) + 0.5, std::round(y) + 0.5, std::round(W), std::round(H));
      cairo_stroke(cr);
    }
  }
  Rgb tc{0, 0, 0};
  lg.color("TextColor", tc);
  double cx = x + pad;
  for (size_t i = 0; i < n; ++i) {
    const double ry = horiz ? y + pad - 2 : y + pad - 2 + static_cast<double>(i) * rowh;
    draw_legend_sample(cr, *its[i], cx, ry, token, rowh);
    draw_text(cr, labels[i], cx + token + 4, ry + rowh / 2, fs, false, tc, "left", "middle");
    if (horiz) cx += token + 4 + tw[i] + 10;
  }
}

void draw_colorbar(cairo_t* cr, const GNode& cb, const GNode& ax, double fw, double fh) {
  if (cb.text("Visible") == "off") return;
  const std::vector<double> p = cb.vec("Position");
  if (p.size() < 4) return;
  const double x = p[0] * fw, y = fh - (p[1] + p[3]) * fh, w = p[2] * fw, h = p[3] * fh;
  const std::vector<Rgb> cm = axes_colormap(ax);
  const Range cl = color_limits(ax);
  const bool horiz = cb.text("Location").find("north") != std::string::npos ||
                     cb.text("Location").find("south") != std::string::npos;
  const int mcount = static_cast<int>(cm.size());
  for (int k = 0; k < mcount; ++k) {
    set_rgb(cr, cm[k]);
    if (horiz) {
      const double x0 = x + w * k / mcount, x1 = x + w * (k + 1) / mcount;
      cairo_rectangle(cr, std::floor(x0), y, std::ceil(x1) - std::floor(x0), h);
    } else {
      const double y1 = y + h - h * k / mcount, y0 = y + h - h * (k + 1) / mcount;
      cairo_rectangle(cr, x, std::floor(y0), w, std::ceil(y1) - std::floor(y0));
    }
    cairo_fill(cr);
  }
  const Rgb col = prop_rgb(cb, "Color");
  set_rgb(cr, col);
  cairo_set_line_width(cr, 0.75);
  cairo_rectangle(cr, std::round(x) + 0.5, std::round(y) + 0.5, std::round(w), std::round(h));
  cairo_stroke(cr);
  double lo = cl.lo, hi = cl.hi;
  std::vector<double> ticks = cb.vec("Ticks");
  if (ticks.empty())
    ticks = nice_ticks(lo, hi, std::max(2, static_cast<int>((horiz ? w : h) / 30)), false);
  const double fs = cb.num("FontSize");
  for (double t : ticks) {
    if (t < cl.lo - 1e-12 || t > cl.hi + 1e-12) continue;
    const double f = (t - cl.lo) / (cl.hi - cl.lo);
    char buf[64];
    std::snprintf(buf, sizeof buf, "%g", std::fabs(t) < 1e-12 * (cl.hi - cl.lo) ? 0.0 : t);
    if (horiz) {
      const double tx = x + f * w;
      line(cr, tx, y + h, tx, y + h - w * 0.0);
      draw_text(cr, buf, tx, y + h + 4, fs, false, col, "center", "top");
    } else {
      const double ty = y + h - f * h;
      line(cr, x + w, ty, x + w - w * 0.25, ty);
      draw_text(cr, buf, x + w + 4, ty, fs, false, col, "left", "middle");
    }
  }
  cairo_stroke(cr);
  const Value& lab = cb.prop("Label");
  if (lab.is_object()) {
    GPtr t = nodes_of(lab)[0];
    std::string s;
    for (const auto& l : text_lines(t->prop("String"))) s += (s.empty() ? "" : "\n") + l;
    if (horiz)
      draw_text(cr, s, x + w / 2, y + h + 4 + 1.6 * fs * kPt, t->num("FontSize"), false, col,
                "center", "top");
    else
      draw_text(cr, s, x + w + 12 + widest(cr, {"-0.00"}, fs), y + h / 2, t->num("FontSize"), false,
                col, "center", "top", 90);
  }
}

void draw_figure(cairo_t* cr, const GNode& fig, bool print_bg) {
  const auto sz = figure_size(fig);
  Rgb bg{1, 1, 1};
  if (!print_bg || fig.text("InvertHardcopy") == "off") fig.color("Color", bg);
  set_rgb(cr, bg);
  cairo_paint(cr);
  cairo_set_line_join(cr, CAIRO_LINE_JOIN_ROUND);
  for (const auto& c : fig.children()) {
    if (c->type() == "tiledlayout") {
      const Value& t = c->prop("Title");
      if (t.is_object()) {
        GPtr tn = nodes_of(t)[0];
        std::string s;
        for (const auto& l : text_lines(tn->prop("String"))) s += (s.empty() ? "" : "\n") + l;
        draw_text(cr, s, sz[0] / 2, 8, tn->num("FontSize"), true, {0, 0, 0}, "center", "top");
      }
      continue;
    }
    if (c->type() != "axes" && c->type() != "polaraxes") continue;
    const AxesMap m = make_map(*c, sz[0], sz[1]);
    if (m.polar)
      draw_axes_polar(cr, *c, m);
    else if (m.three_d)
      draw_axes_3d(cr, *c, m);
    else
      draw_axes_2d(cr, *c, m);
    const Value& lg = c->prop("Legend");
    if (lg.is_object()) draw_legend(cr, *nodes_of(lg)[0], m);
    const Value& cb = c->prop("Colorbar");
    if (cb.is_object()) draw_colorbar(cr, *nodes_of(cb)[0], *c, sz[0], sz[1]);
  }
  // Free text objects in figure units (annotation-like) are not supported.
}

cairo_status_t append_bytes(void* closure, const unsigned char* data, unsigned int len) {
  static_cast<std::string*>(closure)->append(reinterpret_cast<const char*>(data), len);
  return CAIRO_STATUS_SUCCESS;
}

}  // namespace

std::string render_figure(const GNode& fig, ImageFormat f, double dpi) {
  const auto sz = figure_size(fig);
  std::string out;
  if (!(dpi > 0)) dpi = 96;
  if (f == ImageFormat::Png) {
    const int w = std::max(1, static_cast<int>(std::lround(sz[0] * dpi / 96)));
    const int h = std::max(1, static_cast<int>(std::lround(sz[1] * dpi / 96)));
    cairo_surface_t* s = cairo_image_surface_create(CAIRO_FORMAT_RGB24, w, h);
    cairo_t* cr = cairo_create(s);
    cairo_scale(cr, dpi / 96, dpi / 96);
    draw_figure(cr, fig, true);
    cairo_destroy(cr);
    cairo_surface_flush(s);
    cairo_surface_write_to_png_stream(s, append_bytes, &out);
    cairo_surface_destroy(s);
    return out;
  }
  const double wpt = sz[0] * 72 / 96, hpt = sz[1] * 72 / 96;
  cairo_surface_t* s = f == ImageFormat::Svg
                           ? cairo_svg_surface_create_for_stream(append_bytes, &out, wpt, hpt)
                           : cairo_pdf_surface_create_for_stream(append_bytes, &out, wpt, hpt);
  SvgTextSink sink;
  sink.scale = 72.0 / 96.0;
  if (f == ImageFormat::Svg) g_sink = &sink;
  cairo_t* cr = cairo_create(s);
  cairo_scale(cr, 72.0 / 96.0, 72.0 / 96.0);
  try {
    draw_figure(cr, fig, true);
  } catch (...) {
    g_sink = nullptr;
    cairo_destroy(cr);
    cairo_surface_destroy(s);
    throw;
  }
  g_sink = nullptr;
  cairo_destroy(cr);
  cairo_surface_finish(s);
  cairo_surface_destroy(s);
  if (f == ImageFormat::Svg) {
    const size_t end = out.rfind("</svg>");
    if (end != std::string::npos) out.insert(end, "<g id=\"text\">\n" + sink.elements + "</g>\n");
  }
  return out;
}

#endif  // MATFUSE_HAVE_CAIRO

}  // namespace matfuse::gfx
