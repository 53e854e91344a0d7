// Drawing the objects inside an axes: lines and their markers, stairs, stems, error bars,
// scatter, bars, histograms, areas, patches, images, surfaces (painter's order), contours,
// quivers and text.
#ifdef MATFUSE_HAVE_CAIRO
#include <algorithm>
#include <cmath>
#include <cstring>
#include <numeric>

#include "graphics/geometry.h"
#include "graphics/render_internal.h"

namespace matfuse::gfx {

namespace {

bool finite_pt(const AxesMap& m, double x, double y, double z = 0) {
  if (!std::isfinite(x) || !std::isfinite(y) || !std::isfinite(z)) return false;
  if (m.log[0] && x <= 0) return false;
  if (m.log[1] && y <= 0) return false;
  return true;
}

/// Whether a data point lies within the axes limits (2-D); markers there are drawn whole even
/// where they cross the plot box edge, as MATLAB clips markers by their centre.
bool inside(const AxesMap& m, double x, double y) {
  if (m.three_d || m.polar) return true;
  auto in = [](const Range& r, double v) {
    const double e = (r.hi - r.lo) * 1e-9;
    return v >= r.lo - e && v <= r.hi + e;
  };
  return in(m.lim[0], x) && in(m.lim[1], y);
}

/// Polyline through the points, broken at NaN (MATLAB leaves gaps).
void stroke_polyline(cairo_t* cr, const AxesMap& m, const std::vector<double>& x,
                     const std::vector<double>& y, const std::vector<double>& z) {
  bool pen = false;
  const size_t n = std::min(x.size(), y.size());
  for (size_t i = 0; i < n; ++i) {
    const double zz = i < z.size() ? z[i] : 0;
    if (!finite_pt(m, x[i], y[i], zz)) {
      pen = false;
      continue;
    }
    const auto p = m.map(x[i], y[i], zz);
    if (pen)
      cairo_line_to(cr, p[0], p[1]);
    else
      cairo_move_to(cr, p[0], p[1]);
    pen = true;
  }
  cairo_stroke(cr);
}

Rgb rgb_or(const GNode& n, const char* p, const Rgb& def, bool* none = nullptr) {
  Rgb c;
  std::string kw;
  if (n.color(p, c, &kw)) return c;
  if (none) *none = kw == "none";
  return def;
}

void markers(cairo_t* cr, const GNode& c, const AxesMap& m, const std::vector<double>& x,
             const std::vector<double>& y, const std::vector<double>& z, const Rgb& lc) {
  const std::string mk = c.text("Marker");
  if (mk == "none" || mk.empty()) return;
  std::string kw;
  Rgb edge = lc, face{1, 1, 1};
  if (!c.color("MarkerEdgeColor", edge, &kw)) edge = lc;
  bool fill = c.color("MarkerFaceColor", face, &kw);
  if (!fill && kw == "auto") {
    fill = true;
    face = lc;
  }
  const double ms = c.num("MarkerSize"), lw = c.num("LineWidth");
  cairo_save(cr);
  if (!m.polar) cairo_reset_clip(cr);
  for (size_t i = 0; i < std::min(x.size(), y.size()); ++i) {
    const double zz = i < z.size() ? z[i] : 0;
    if (!finite_pt(m, x[i], y[i], zz) || !inside(m, x[i], y[i])) continue;
    const auto p = m.map(x[i], y[i], zz);
    draw_marker(cr, mk, p[0], p[1], ms, edge, fill, face, lw);
  }
  cairo_restore(cr);
}

void draw_line(cairo_t* cr, const GNode& c, const AxesMap& m) {
  std::vector<double> x = c.vec("XData"), y = c.vec("YData"), z = c.vec("ZData");
  if (c.type() == "stair") {  // stairs: horizontal then vertical steps
    std::vector<double> sx, sy;
    for (size_t i = 0; i < std::min(x.size(), y.size()); ++i) {
      if (i > 0) {
        sx.push_back(x[i]);
        sy.push_back(y[i - 1]);
      }
      sx.push_back(x[i]);
      sy.push_back(y[i]);
    }
    x = sx;
    y = sy;
  }
  const Rgb lc = rgb_or(c, "Color", {0, 0, 0});
  cairo_set_line_join(cr, CAIRO_LINE_JOIN_ROUND);
  set_rgb(cr, lc);
  if (apply_line_style(cr, c.text("LineStyle"), c.num("LineWidth")))
    stroke_polyline(cr, m, x, y, z);
  cairo_set_dash(cr, nullptr, 0, 0);
  if (c.type() == "stair") {
    markers(cr, c, m, c.vec("XData"), c.vec("YData"), {}, lc);
    return;
  }
  markers(cr, c, m, x, y, z, lc);
}

void draw_stem(cairo_t* cr, const GNode& c, const AxesMap& m) {
  const std::vector<double> x = c.vec("XData"), y = c.vec("YData");
  const Rgb lc = rgb_or(c, "Color", {0, 0, 0});
  const double base = c.num("BaseValue");
  set_rgb(cr, lc);
  if (apply_line_style(cr, c.text("LineStyle"), c.num("LineWidth"))) {
    for (size_t i = 0; i < std::min(x.size(), y.size()); ++i) {
      if (!finite_pt(m, x[i], y[i])) continue;
      const auto a = m.map(x[i], base), b = m.map(x[i], y[i]);
      cairo_move_to(cr, a[0], a[1]);
      cairo_line_to(cr, b[0], b[1]);
    }
    cairo_stroke(cr);
  }
  cairo_set_dash(cr, nullptr, 0, 0);
  // Baseline across the axes.
  cairo_set_line_width(cr, 0.75);
  set_rgb(cr, {0.15, 0.15, 0.15});
  const auto a = m.map(m.lim[0].lo, base), b = m.map(m.lim[0].hi, base);
  cairo_move_to(cr, a[0], a[1]);
  cairo_line_to(cr, b[0], b[1]);
  cairo_stroke(cr);
  markers(cr, c, m, x, y, {}, lc);
}

void draw_errorbar(cairo_t* cr, const GNode& c, const AxesMap& m) {
  const std::vector<double> x = c.vec("XData"), y = c.vec("YData");
  const std::vector<double> yn = c.vec("YNegativeDelta"), yp = c.vec("YPositiveDelta");
  const std::vector<double> xn = c.vec("XNegativeDelta"), xp = c.vec("XPositiveDelta");
  const Rgb lc = rgb_or(c, "Color", {0, 0, 0});
  set_rgb(cr, lc);
  apply_line_style(cr, "-", c.num("LineWidth"));
  const double cap = c.num("CapSize") * kPt / 2;
  for (size_t i = 0; i < std::min(x.size(), y.size()); ++i) {
    if (!finite_pt(m, x[i], y[i])) continue;
    if (i < yn.size() || i < yp.size()) {
      const double lo = y[i] - (i < yn.size() ? yn[i] : 0), hi = y[i] + (i < yp.size() ? yp[i] : 0);
      const auto a = m.map(x[i], lo), b = m.map(x[i], hi);
      cairo_move_to(cr, a[0], a[1]);
      cairo_line_to(cr, b[0], b[1]);
      cairo_move_to(cr, a[0] - cap, a[1]);
      cairo_line_to(cr, a[0] + cap, a[1]);
      cairo_move_to(cr, b[0] - cap, b[1]);
      cairo_line_to(cr, b[0] + cap, b[1]);
    }
    if (i < xn.size() || i < xp.size()) {
      const double lo = x[i] - (i < xn.size() ? xn[i] : 0), hi = x[i] + (i < xp.size() ? xp[i] : 0);
      const auto a = m.map(lo, y[i]), b = m.map(hi, y[i]);
      cairo_move_to(cr, a[0], a[1]);
      cairo_line_to(cr, b[0], b[1]);
      cairo_move_to(cr, a[0], a[1] - cap);
      cairo_line_to(cr, a[0], a[1] + cap);
      cairo_move_to(cr, b[0], b[1] - cap);
      cairo_line_to(cr, b[0], b[1] + cap);
    }
  }
  cairo_stroke(cr);
  draw_line(cr, c, m);
}

void draw_scatter(cairo_t* cr, const GNode& c, const AxesMap& m, const GNode& ax) {
  const std::vector<double> x = c.vec("XData"), y = c.vec("YData"), z = c.vec("ZData");
  const std::vector<double> s = c.vec("SizeData");
  const Value& cd = c.prop("CData");
  const std::vector<double> cv = c.vec("CData");
  const std::vector<Rgb> cm = axes_colormap(ax);
  const Range cl = color_limits(ax);
  const size_t n = std::min(x.size(), y.size());
  const std::string mk = c.text("Marker");
  if (!m.polar) cairo_reset_clip(cr);  // draw_children saved the state
  for (size_t i = 0; i < n; ++i) {
    const double zz = i < z.size() ? z[i] : 0;
    if (!finite_pt(m, x[i], y[i], zz) || !inside(m, x[i], y[i])) continue;
    Rgb col{0, 0, 0};
    if (cd.numel() == 3)
      col = {cv[0], cv[1], cv[2]};
    else if (cd.dims().cols() == 3 && cd.dims().rows() == static_cast<int64_t>(n))
      col = {cv[i], cv[i + n], cv[i + 2 * n]};
    else if (i < cv.size())
      col = map_color(cm, cl, cv[i]);
    Rgb edge = col, face = col;
    std::string kw;
    if (!c.color("MarkerEdgeColor", edge, &kw)) edge = kw == "none" ? Rgb{-1, 0, 0} : col;
    bool fill = c.color("MarkerFaceColor", face, &kw);
    if (!fill && (kw == "flat" || kw == "auto")) {
      fill = true;
      face = col;
    }
    const double area = s.empty() ? 36 : (s.size() == 1 ? s[0] : (i < s.size() ? s[i] : 36));
    const double d = std::sqrt(std::max(area, 0.0));
    const auto p = m.map(x[i], y[i], zz);
    if (edge[0] < 0) edge = face;
    draw_marker(cr, mk == "." ? "o" : mk, p[0], p[1], mk == "." ? d / 3 : d, edge, fill, face,
                c.num("LineWidth"));
  }
}

void fill_stroke(cairo_t* cr, const GNode& c, const Rgb& face, bool has_face, double falpha) {
  if (has_face) {
    set_rgb(cr, face, falpha);
    cairo_fill_preserve(cr);
  }
  bool none = false;
  const Rgb ec = rgb_or(c, "EdgeColor", {0, 0, 0}, &none);
  if (!none && apply_line_style(cr, c.text("LineStyle"), c.num("LineWidth"))) {
    set_rgb(cr, ec);
    cairo_stroke(cr);
  }
  cairo_new_path(cr);
  cairo_set_dash(cr, nullptr, 0, 0);
}

void draw_bars(cairo_t* cr, const GNode& c, const AxesMap& m) {
  bool none = false;
  const Rgb face = rgb_or(c, "FaceColor", {0, 0.447, 0.741}, &none);
  const double fa = c.num("FaceAlpha");
  for (const auto& r : bar_rects(c)) {
    const double x0 = m.log[0] && r[0] <= 0 ? m.lim[0].lo : r[0];
    const double y0 = m.log[1] && r[1] <= 0 ? m.lim[1].lo : r[1];
    const auto a = m.map(x0, y0), b = m.map(r[2], r[3]);
    if (!std::isfinite(a[0] + a[1] + b[0] + b[1])) continue;
    cairo_rectangle(cr, std::min(a[0], b[0]), std::min(a[1], b[1]), std::fabs(b[0] - a[0]),
                    std::fabs(b[1] - a[1]));
    fill_stroke(cr, c, face, !none, fa);
  }
}

void draw_area(cairo_t* cr, const GNode& c, const AxesMap& m) {
  const std::vector<double> x = c.vec("XData"), y = c.vec("YData"), lo = c.vec("_Lower");
  const double base = c.num("BaseValue");
  const size_t n = std::min(x.size(), y.size());
  if (n == 0) return;
  for (size_t i = 0; i < n; ++i) {
    const auto p = m.map(x[i], y[i]);
    if (i == 0)
      cairo_move_to(cr, p[0], p[1]);
    else
      cairo_line_to(cr, p[0], p[1]);
  }
  for (size_t k = n; k-- > 0;) {
    const auto p = m.map(x[k], k < lo.size() ? lo[k] : base);
    cairo_line_to(cr, p[0], p[1]);
  }
  cairo_close_path(cr);
  bool none = false;
  const Rgb face = rgb_or(c, "FaceColor", {0, 0.447, 0.741}, &none);
  fill_stroke(cr, c, face, !none, c.num("FaceAlpha"));
}

void draw_patch(cairo_t* cr, const GNode& c, const AxesMap& m, const GNode& ax) {
  const Value& xv = c.prop("XData");
  const std::vector<double> x = c.vec("XData"), y = c.vec("YData"), z = c.vec("ZData");
  const std::vector<double> cd = c.vec("CData");
  const int64_t rows = xv.dims().rows(), cols = std::max<int64_t>(xv.dims().cols(), 1);
  std::string kw;
  Rgb face{0, 0, 0};
  const bool solid = c.color("FaceColor", face, &kw);
  const std::vector<Rgb> cm = axes_colormap(ax);
  const Range cl = color_limits(ax);
  for (int64_t j = 0; j < cols; ++j) {
    bool first = true;
    for (int64_t i = 0; i < rows; ++i) {
      const int64_t k = i + j * rows;
      if (static_cast<size_t>(k) >= y.size()) break;
      const double zz = static_cast<size_t>(k) < z.size() ? z[k] : 0;
      if (!finite_pt(m, x[k], y[k], zz)) continue;
      const auto p = m.map(x[k], y[k], zz);
      if (first)
        cairo_move_to(cr, p[0], p[1]);
      else
        cairo_line_to(cr, p[0], p[1]);
      first = false;
    }
    cairo_close_path(cr);
    Rgb f = face;
    bool has = solid;
    if (!solid && (kw == "flat" || kw == "interp") && !cd.empty()) {
      if (cd.size() == 3 && c.prop("CData").dims().ndims() == 3)
        f = {cd[0], cd[1], cd[2]};
      else if (static_cast<int64_t>(cd.size()) == cols)
        f = map_color(cm, cl, cd[j]);
      else if (static_cast<int64_t>(cd.size()) >= rows * (j + 1)) {
        double s = 0;
        for (int64_t i = 0; i < rows; ++i) s += cd[i + j * rows];
        f = map_color(cm, cl, s / rows);
      } else {
        f = map_color(cm, cl, cd[0]);
      }
      has = true;
    }
    fill_stroke(cr, c, f, has, c.num("FaceAlpha"));
  }
}

void draw_image(cairo_t* cr, const GNode& c, const AxesMap& m, const GNode& ax) {
  const Value& cv = c.prop("CData");
  if (cv.is_empty() || !cv.is_tensor()) return;
  Tensor t = cv.tensor();
  const int64_t rows = t.dims().rows(), cols = t.dims().cols();
  const bool truecolor = t.dims().ndims() == 3 && t.dims()[2] == 3;
  const bool scaled = c.text("CDataMapping") == "scaled";
  const std::vector<Rgb> cm = axes_colormap(ax);
  const Range cl = color_limits(ax);
  const bool is_int =
      t.cls() != ClassId::Double && t.cls() != ClassId::Single && t.cls() != ClassId::Logical;
  const double imax =
      t.cls() == ClassId::UInt8 ? 255.0 : (t.cls() == ClassId::UInt16 ? 65535.0 : 1.0);
  cairo_surface_t* img = cairo_image_surface_create(CAIRO_FORMAT_RGB24, static_cast<int>(cols),
                                                    static_cast<int>(rows));
  unsigned char* data = cairo_image_surface_get_data(img);
  const int stride = cairo_image_surface_get_stride(img);
  const int64_t plane = rows * cols;
  for (int64_t i = 0; i < rows; ++i)
    for (int64_t j = 0; j < cols; ++j) {
      Rgb col;
      if (truecolor) {
        for (int k = 0; k < 3; ++k)
          col[k] = std::clamp(t.get_double(i + j * rows + k * plane) / imax, 0.0, 1.0);
      } else {
        const double v = t.get_double(i + j * rows);
        if (scaled) {
          col = map_color(cm, cl, v);
        } else {
          // direct: 1-based colormap index (0-based for integer classes)
          const int64_t k = static_cast<int64_t>(std::floor(v)) - (is_int ? 0 : 1);
          col = cm.empty() ? Rgb{0, 0, 0}
                           : cm[std::clamp<int64_t>(k, 0, static_cast<int64_t>(cm.size()) - 1)];
        }
      }
      uint32_t* px = reinterpret_cast<uint32_t*>(data + i * stride) + j;
      *px = (static_cast<uint32_t>(col[0] * 255 + 0.5) << 16) |
            (static_cast<uint32_t>(col[1] * 255 + 0.5) << 8) |
            static_cast<uint32_t>(col[2] * 255 + 0.5);
    }
  cairo_surface_mark_dirty(img);
  const std::vector<double> xd = c.vec("XData"), yd = c.vec("YData");
  const double x0 = xd.front(), x1 = xd.back(), y0 = yd.front(), y1 = yd.back();
  const double dx = cols > 1 ? (x1 - x0) / static_cast<double>(cols - 1) : 1;
  const double dy = rows > 1 ? (y1 - y0) / static_cast<double>(rows - 1) : 1;
  const auto a = m.map(x0 - dx / 2, y0 - dy / 2), b = m.map(x1 + dx / 2, y1 + dy / 2);
  cairo_save(cr);
  cairo_translate(cr, a[0], a[1]);
  cairo_scale(cr, (b[0] - a[0]) / static_cast<double>(cols),
              (b[1] - a[1]) / static_cast<double>(rows));
  cairo_set_source_surface(cr, img, 0, 0);
  cairo_pattern_set_filter(cairo_get_source(cr), CAIRO_FILTER_NEAREST);
  cairo_rectangle(cr, 0, 0, static_cast<double>(cols), static_cast<double>(rows));
  cairo_fill(cr);
  cairo_restore(cr);
  cairo_surface_destroy(img);
}

void draw_surface(cairo_t* cr, const GNode& c, const AxesMap& m, const GNode& ax) {
  const Grid g = grid_of(c);
  const Value& cdv = c.prop("CData");
  const std::vector<double> cd = cdv.is_empty() ? g.z : c.vec("CData");
  const bool truecolor = cdv.dims().ndims() == 3;
  const std::vector<Rgb> cm = axes_colormap(ax);
  const Range cl = color_limits(ax);
  std::string fkw, ekw;
  Rgb fc{1, 1, 1}, ec{0, 0, 0};
  const bool fsolid = c.color("FaceColor", fc, &fkw);
  const bool esolid = c.color("EdgeColor", ec, &ekw);
  const bool faces = fsolid || fkw == "flat" || fkw == "interp";
  const bool edges = (esolid || ekw == "flat" || ekw == "interp") && c.text("LineStyle") != "none";
  const int64_t N = g.rows * g.cols;
  auto color_at = [&](int64_t k) -> Rgb {
    if (truecolor) return {cd[k], cd[k + N], cd[k + 2 * N]};
    return map_color(cm, cl, k < static_cast<int64_t>(cd.size()) ? cd[k] : 0);
  };
  struct Face {
    double depth;
    int64_t i, j;
  };
  std::vector<Face> order;
  const bool flat2d = !m.three_d;
  for (int64_t j = 0; j + 1 < g.cols; ++j)
    for (int64_t i = 0; i + 1 < g.rows; ++i) {
      const double zc =
          flat2d ? 0 : (g.Z(i, j) + g.Z(i + 1, j) + g.Z(i, j + 1) + g.Z(i + 1, j + 1)) / 4;
      const double xc = (g.X(i, j) + g.X(i + 1, j + 1)) / 2,
                   yc = (g.Y(i, j) + g.Y(i + 1, j + 1)) / 2;
      order.push_back({flat2d ? 0 : m.depth(xc, yc, zc), i, j});
    }
  if (!flat2d)
    std::stable_sort(order.begin(), order.end(),
                     [](const Face& a, const Face& b) { return a.depth < b.depth; });
  cairo_set_line_join(cr, CAIRO_LINE_JOIN_ROUND);
  const double lw = std::max(c.num("LineWidth") * kPt, 0.6);
  for (const Face& f : order) {
    const int64_t ii[4] = {f.i, f.i + 1, f.i + 1, f.i}, jj[4] = {f.j, f.j, f.j + 1, f.j + 1};
    bool ok = true;
    std::array<double, 2> p[4];
    for (int k = 0; k < 4; ++k) {
      const double zz = flat2d ? 0 : g.Z(ii[k], jj[k]);
      if (!finite_pt(m, g.X(ii[k], jj[k]), g.Y(ii[k], jj[k]), zz)) ok = false;
      p[k] = m.map(g.X(ii[k], jj[k]), g.Y(ii[k], jj[k]), zz);
    }
    if (!ok) continue;
    cairo_move_to(cr, p[0][0], p[0][1]);
    for (int k = 1; k < 4; ++k) cairo_line_to(cr, p[k][0], p[k][1]);
    cairo_close_path(cr);
    Rgb face = fc;
    if (!fsolid && fkw == "interp") {
      Rgb s{0, 0, 0};
      for (int k = 0; k < 4; ++k) {
        const Rgb q = color_at(ii[k] + jj[k] * g.rows);
        for (int d = 0; d < 3; ++d) s[d] += q[d] / 4;
      }
      face = s;
    } else if (!fsolid) {
      face = color_at(f.i + f.j * g.rows);
    }
    if (faces) {
      set_rgb(cr, face, c.num("FaceAlpha"));
      if (edges)
        cairo_fill_preserve(cr);
      else {
        // Cover the seams between faces.
        cairo_fill_preserve(cr);
        cairo_set_line_width(cr, 0.5);
        cairo_stroke_preserve(cr);
      }
    }
    if (edges) {
      set_rgb(cr, esolid ? ec : color_at(f.i + f.j * g.rows));
      cairo_set_line_width(cr, lw);
      cairo_stroke(cr);
    }
    cairo_new_path(cr);
  }
}

void draw_contour(cairo_t* cr, const GNode& c, const AxesMap& m, const GNode& ax) {
  const Grid g = grid_of(c);
  const std::vector<double> lv = contour_levels(c);
  const std::vector<Rgb> cm = axes_colormap(ax);
  const Range cl = color_limits(ax);
  if (c.on("Fill")) {
    double zmin = INFINITY;
    for (double v : g.z)
      if (std::isfinite(v)) zmin = std::min(zmin, v);
    for (const auto& bp : contour_bands(g, lv)) {
      const double v = bp.band == 0 ? zmin : lv[bp.band - 1];
      for (size_t k = 0; k < bp.pts.size(); ++k) {
        const auto p = m.map(bp.pts[k][0], bp.pts[k][1]);
        if (k == 0)
          cairo_move_to(cr, p[0], p[1]);
        else
          cairo_line_to(cr, p[0], p[1]);
      }
      cairo_close_path(cr);
      set_rgb(cr, map_color(cm, cl, v));
      cairo_fill_preserve(cr);
      cairo_set_line_width(cr, 0.4);
      cairo_stroke(cr);
    }
  }
  std::string kw;
  Rgb lc{0, 0, 0};
  const bool solid = c.color("LineColor", lc, &kw);
  if (!solid && kw == "none") return;
  if (!apply_line_style(cr, c.text("LineStyle"), c.num("LineWidth"))) return;
  const bool fill = c.on("Fill");
  for (double l : lv) {
    set_rgb(cr, solid ? lc : (fill ? Rgb{0, 0, 0} : map_color(cm, cl, l)));
    for (const auto& s : contour_segments(g, l)) {
      const auto a = m.map(s[0], s[1]), b = m.map(s[2], s[3]);
      cairo_move_to(cr, a[0], a[1]);
      cairo_line_to(cr, b[0], b[1]);
    }
    cairo_stroke(cr);
  }
  cairo_set_dash(cr, nullptr, 0, 0);
}

void draw_quiver(cairo_t* cr, const GNode& c, const AxesMap& m) {
  const Rgb lc = rgb_or(c, "Color", {0, 0, 0});
  set_rgb(cr, lc);
  apply_line_style(cr, c.text("LineStyle"), c.num("LineWidth"));
  const double head = c.num("MaxHeadSize");
  for (const auto& s : quiver_segments(c)) {
    const auto a = m.map(s[0], s[1]), b = m.map(s[2], s[3]);
    if (!std::isfinite(a[0] + a[1] + b[0] + b[1])) continue;
    cairo_move_to(cr, a[0], a[1]);
    cairo_line_to(cr, b[0], b[1]);
    const double L = std::hypot(b[0] - a[0], b[1] - a[1]);
    if (L <= 0) continue;
    const double ux = (b[0] - a[0]) / L, uy = (b[1] - a[1]) / L, h = std::min(L * head * 1.5, 12.0);
    cairo_move_to(cr, b[0] - h * (ux - 0.5 * uy), b[1] - h * (uy + 0.5 * ux));
    cairo_line_to(cr, b[0], b[1]);
    cairo_line_to(cr, b[0] - h * (ux + 0.5 * uy), b[1] - h * (uy - 0.5 * ux));
  }
  cairo_stroke(cr);
}

void draw_text_obj(cairo_t* cr, const GNode& t, const AxesMap& m) {
  const std::vector<double> p = t.vec("Position");
  if (p.size() < 2) return;
  std::array<double, 2> at;
  if (t.text("Units") == "normalized")
    at = {m.box[0] + p[0] * m.box[2], m.box[1] + (1 - p[1]) * m.box[3]};
  else
    at = m.map(p[0], p[1], p.size() > 2 ? p[2] : 0);
  std::string s;
  for (const auto& l : text_lines(t.prop("String"))) s += (s.empty() ? "" : "\n") + l;
  Rgb col{0, 0, 0};
  t.color("Color", col);
  Rgb bg;
  if (t.color("BackgroundColor", bg)) {
    const auto sz = text_size(cr, s, t.num("FontSize"), t.text("FontWeight") == "bold");
    const std::string h = t.text("HorizontalAlignment");
    const double x0 = h == "center" ? at[0] - sz[0] / 2 : (h == "right" ? at[0] - sz[0] : at[0]);
    set_rgb(cr, bg);
    cairo_rectangle(cr, x0 - 2, at[1] - sz[1] / 2 - 1, sz[0] + 4, sz[1] + 2);
    cairo_fill(cr);
  }
  draw_text(cr, s, at[0], at[1], t.num("FontSize"), t.text("FontWeight") == "bold", col,
            t.text("HorizontalAlignment"), t.text("VerticalAlignment"), t.num("Rotation"),
            t.text("Interpreter") != "none");
}

}  // namespace

void draw_children(cairo_t* cr, const GNode& ax, const AxesMap& m) {
  std::vector<GPtr> texts;
  for (const auto& cp : ax.children()) {
    const GNode& c = *cp;
    if (c.text("Visible") == "off") continue;
    const std::string& t = c.type();
    cairo_save(cr);
    if (t == "line")
      draw_line(cr, c, m);
    else if (t == "stair")
      draw_line(cr, c, m);
    else if (t == "stem")
      draw_stem(cr, c, m);
    else if (t == "errorbar")
      draw_errorbar(cr, c, m);
    else if (t == "scatter")
      draw_scatter(cr, c, m, ax);
    else if (t == "bar" || t == "histogram")
      draw_bars(cr, c, m);
    else if (t == "area")
      draw_area(cr, c, m);
    else if (t == "patch")
      draw_patch(cr, c, m, ax);
    else if (t == "image")
      draw_image(cr, c, m, ax);
    else if (t == "surface")
      draw_surface(cr, c, m, ax);
    else if (t == "contour")
      draw_contour(cr, c, m, ax);
    else if (t == "quiver")
      draw_quiver(cr, c, m);
    else if (t == "text")
      texts.push_back(cp);
    cairo_restore(cr);
  }
  if (!texts.empty()) {
    cairo_save(cr);
    cairo_reset_clip(cr);
    for (const auto& t : texts) draw_text_obj(cr, *t, m);
    cairo_restore(cr);
  }
}

void draw_legend_sample(cairo_t* cr, const GNode& c, double x, double y, double w, double h) {
  const std::string& t = c.type();
  const double cy = y + h / 2;
  cairo_save(cr);
  if (t == "line" || t == "stair" || t == "stem" || t == "errorbar" || t == "contour" ||
      t == "quiver") {
    Rgb lc{0, 0, 0};
    std::string kw;
    if (t == "contour")
      c.color("LineColor", lc, &kw);
    else
      c.color("Color", lc, &kw);
    set_rgb(cr, lc);
    if (apply_line_style(cr, c.text("LineStyle"), c.num("LineWidth"))) {
      cairo_move_to(cr, x + 2, cy);
      cairo_line_to(cr, x + w - 2, cy);
      cairo_stroke(cr);
    }
    if (t != "contour" && t != "quiver") {
      const std::string mk = c.text("Marker");
      Rgb edge = lc, face{1, 1, 1};
      if (!c.color("MarkerEdgeColor", edge)) edge = lc;
      bool fill = c.color("MarkerFaceColor", face, &kw);
      if (!fill && kw == "auto") {
        fill = true;
        face = lc;
      }
      draw_marker(cr, mk, x + w / 2, cy, c.num("MarkerSize"), edge, fill, face, c.num("LineWidth"));
    }
  } else if (t == "scatter") {
    const std::vector<double> cv = c.vec("CData");
    Rgb col = cv.size() == 3 ? Rgb{cv[0], cv[1], cv[2]} : Rgb{0, 0.447, 0.741};
    Rgb face = col;
    std::string kw;
    bool fill = c.color("MarkerFaceColor", face, &kw) || kw == "flat";
    if (kw == "flat") face = col;
    draw_marker(cr, c.text("Marker"), x + w / 2, cy, 6, col, fill, face, c.num("LineWidth"));
  } else {
    Rgb face{0, 0.447, 0.741}, edge{0, 0, 0};
    std::string kw;
    const bool has = c.color("FaceColor", face, &kw);
    cairo_rectangle(cr, x + 2, y + h * 0.2, w - 4, h * 0.6);
    if (has) {
      set_rgb(cr, face, c.find_prop("FaceAlpha") >= 0 ? c.num("FaceAlpha") : 1);
      cairo_fill_preserve(cr);
    }
    if (c.find_prop("EdgeColor") >= 0 && c.color("EdgeColor", edge)) {
      set_rgb(cr, edge);
      cairo_set_line_width(cr, 0.75);
      cairo_stroke(cr);
    }
    cairo_new_path(cr);
  }
  cairo_restore(cr);
}

}  // namespace matfuse::gfx

#endif  // MATFUSE_HAVE_CAIRO
