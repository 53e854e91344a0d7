// Chart geometry (see geometry.h).
#include "graphics/geometry.h"

#include <algorithm>
#include <cmath>

namespace matfuse::gfx {

std::vector<std::array<double, 4>> bar_rects(const GNode& c) {
  std::vector<std::array<double, 4>> out;
  if (c.type() == "histogram") {
    const std::vector<double> e = c.vec("BinEdges"), v = c.vec("Values");
    const bool horiz = c.text("Orientation") == "horizontal";
    for (size_t i = 0; i + 1 < e.size() && i < v.size(); ++i) {
      if (horiz)
        out.push_back({0, e[i], v[i], e[i + 1]});
      else
        out.push_back({e[i], 0, e[i + 1], v[i]});
    }
    return out;
  }
  const std::vector<double> x = c.vec("XData"), y = c.vec("YData"), base = c.vec("_Base");
  const std::vector<double> grp = c.vec("_Group");
  const double n = grp.size() > 1 ? grp[1] : 1, k = grp.empty() ? 1 : grp[0];
  double spacing = 1;
  if (x.size() > 1) {
    std::vector<double> s = x;
    std::sort(s.begin(), s.end());
    spacing = INFINITY;
    for (size_t i = 1; i < s.size(); ++i)
      if (s[i] > s[i - 1]) spacing = std::min(spacing, s[i] - s[i - 1]);
    if (!std::isfinite(spacing)) spacing = 1;
  }
  const bool stacked = c.text("_Stacked") == "on";
  const double bw = c.num("BarWidth");
  double width, offset = 0;
  if (n <= 1 || stacked) {
    width = bw * spacing;
  } else {
    const double gw = std::min(0.8, n / (n + 1.5)) * spacing;
    width = gw / n * bw / 0.8 * 0.8;
    offset = (k - (n + 1) / 2) * gw / n;
  }
  const double b0 = c.num("BaseValue");
  const bool horiz = c.text("Horizontal") == "on";
  for (size_t i = 0; i < x.size() && i < y.size(); ++i) {
    const double lo = stacked && i < base.size() ? base[i] : b0;
    const double hi = stacked && i < base.size() ? base[i] + y[i] : y[i];
    const double xc = x[i] + offset;
    if (horiz)
      out.push_back({std::min(lo, hi), xc - width / 2, std::max(lo, hi), xc + width / 2});
    else
      out.push_back({xc - width / 2, std::min(lo, hi), xc + width / 2, std::max(lo, hi)});
  }
  return out;
}

Range image_extent(const GNode& img, int dim) {
  const std::vector<double> d = img.vec(dim == 0 ? "XData" : "YData");
  const Value& cd = img.prop("CData");
  const int64_t n = dim == 0 ? cd.dims().cols() : cd.dims().rows();
  if (d.empty() || n == 0) return {0, 1};
  const double a = d.front(), b = d.back();
  const double px = n > 1 ? (b - a) / static_cast<double>(n - 1) : 1.0;
  return {std::min(a, b) - std::fabs(px) / 2, std::max(a, b) + std::fabs(px) / 2};
}

std::vector<std::array<double, 4>> quiver_segments(const GNode& q) {
  const std::vector<double> x = q.vec("XData"), y = q.vec("YData"), u = q.vec("UData"),
                            v = q.vec("VData");
  const size_t n = std::min({x.size(), y.size(), u.size(), v.size()});
  double scale = 1;
  if (q.text("AutoScale") == "on" && n > 0) {
    // MATLAB's quiver: arrows scaled so the longest fits the average grid spacing.
    double maxlen = 0;
    for (size_t i = 0; i < n; ++i) maxlen = std::max(maxlen, std::hypot(u[i], v[i]));
    double xr = 0, yr = 0;
    if (n > 1) {
      const auto [xa, xb] = std::minmax_element(x.begin(), x.begin() + n);
      const auto [ya, yb] = std::minmax_element(y.begin(), y.begin() + n);
      xr = *xb - *xa;
      yr = *yb - *ya;
    }
    const double m = std::max(1.0, std::sqrt(static_cast<double>(n)));
    const double spacing =
        std::max(xr, yr) > 0 ? std::sqrt(std::max(xr, 1e-300) * std::max(yr, 1e-300)) / m : 1.0;
    const double d = std::max(xr, yr) > 0 && (xr == 0 || yr == 0) ? std::max(xr, yr) / m : spacing;
    if (maxlen > 0) scale = q.num("AutoScaleFactor") * d / maxlen;
  }
  std::vector<std::array<double, 4>> out;
  for (size_t i = 0; i < n; ++i)
    out.push_back({x[i], y[i], x[i] + scale * u[i], y[i] + scale * v[i]});
  return out;
}

Grid grid_of(const GNode& c) {
  Grid g;
  const Value& zv = c.prop("ZData");
  const Value& xv = c.prop("XData");
  const Value& yv = c.prop("YData");
  g.rows = zv.dims().rows();
  g.cols = zv.dims().cols();
  g.z = c.vec("ZData");
  const std::vector<double> x = c.vec("XData"), y = c.vec("YData");
  const int64_t N = g.rows * g.cols;
  g.x.resize(N);
  g.y.resize(N);
  const bool xm = xv.numel() == N && xv.dims().rows() == g.rows && g.rows > 1;
  const bool ym = yv.numel() == N && yv.dims().cols() == g.cols && g.cols > 1;
  for (int64_t j = 0; j < g.cols; ++j)
    for (int64_t i = 0; i < g.rows; ++i) {
      const int64_t k = i + j * g.rows;
      g.x[k] = xm ? x[k] : (static_cast<size_t>(j) < x.size() ? x[j] : j + 1);
      g.y[k] = ym ? y[k] : (static_cast<size_t>(i) < y.size() ? y[i] : i + 1);
    }
  return g;
}

std::vector<double> contour_levels(const GNode& c) {
  if (c.text("LevelListMode") == "manual") return c.vec("LevelList");
  double lo = INFINITY, hi = -INFINITY;
  for (double v : c.vec("ZData"))
    if (std::isfinite(v)) {
      lo = std::min(lo, v);
      hi = std::max(hi, v);
    }
  if (!(hi > lo)) return std::isfinite(lo) ? std::vector<double>{lo} : std::vector<double>{};
  const double n = c.num("_NumLevels");
  if (n > 0) {  // contour(Z, n): n levels evenly spaced strictly inside the range
    std::vector<double> out;
    for (int k = 1; k <= static_cast<int>(n); ++k) out.push_back(lo + (hi - lo) * k / (n + 1));
    return out;
  }
  double a = lo, b = hi;
  std::vector<double> t = nice_ticks(a, b, 10, false);
  if (c.text("Fill") == "on" && (t.empty() || t.front() > lo)) t.insert(t.begin(), lo);
  return t;
}

namespace {

std::array<double, 2> lerp(double x0, double y0, double z0, double x1, double y1, double z1,
                           double l) {
  const double t = z1 == z0 ? 0.5 : (l - z0) / (z1 - z0);
  return {x0 + t * (x1 - x0), y0 + t * (y1 - y0)};
}

}  // namespace

std::vector<std::array<double, 4>> contour_segments(const Grid& g, double l) {
  std::vector<std::array<double, 4>> out;
  for (int64_t j = 0; j + 1 < g.cols; ++j)
    for (int64_t i = 0; i + 1 < g.rows; ++i) {
      // Corners counter-clockwise: (i,j) (i,j+1) (i+1,j+1) (i+1,j).
      const int64_t ci[4] = {i, i, i + 1, i + 1}, cj[4] = {j, j + 1, j + 1, j};
      double z[4], x[4], y[4];
      bool ok = true;
      for (int k = 0; k < 4; ++k) {
        z[k] = g.Z(ci[k], cj[k]);
        x[k] = g.X(ci[k], cj[k]);
        y[k] = g.Y(ci[k], cj[k]);
        if (!std::isfinite(z[k])) ok = false;
      }
      if (!ok) continue;
      std::vector<std::array<double, 2>> pts;
      int edge_of[4];
      for (int e = 0; e < 4; ++e) {
        const int a = e, b = (e + 1) % 4;
        edge_of[e] = -1;
        if ((z[a] >= l) != (z[b] >= l)) {
          edge_of[e] = static_cast<int>(pts.size());
          pts.push_back(lerp(x[a], y[a], z[a], x[b], y[b], z[b], l));
        }
      }
      if (pts.size() == 2) {
        out.push_back({pts[0][0], pts[0][1], pts[1][0], pts[1][1]});
      } else if (pts.size() == 4) {
        const double centre = (z[0] + z[1] + z[2] + z[3]) / 4;
        const bool c_above = centre >= l;
        // Pair the crossings so that the centre's side stays connected.
        if (c_above == (z[0] >= l)) {
          out.push_back(
              {pts[edge_of[0]][0], pts[edge_of[0]][1], pts[edge_of[1]][0], pts[edge_of[1]][1]});
          out.push_back(
              {pts[edge_of[2]][0], pts[edge_of[2]][1], pts[edge_of[3]][0], pts[edge_of[3]][1]});
        } else {
          out.push_back(
              {pts[edge_of[3]][0], pts[edge_of[3]][1], pts[edge_of[0]][0], pts[edge_of[0]][1]});
          out.push_back(
              {pts[edge_of[1]][0], pts[edge_of[1]][1], pts[edge_of[2]][0], pts[edge_of[2]][1]});
        }
      }
    }
  return out;
}

namespace {

struct P3 {
  double x, y, z;
};

/// Sutherland-Hodgman clip of a convex polygon to z >= l (keep_above) or z <= l.
std::vector<P3> clip(const std::vector<P3>& in, double l, bool keep_above) {
  std::vector<P3> out;
  const size_t n = in.size();
  for (size_t k = 0; k < n; ++k) {
    const P3& a = in[k];
    const P3& b = in[(k + 1) % n];
    const bool ia = keep_above ? a.z >= l : a.z <= l;
    const bool ib = keep_above ? b.z >= l : b.z <= l;
    if (ia) out.push_back(a);
    if (ia != ib) {
      const double t = (l - a.z) / (b.z - a.z);
      out.push_back({a.x + t * (b.x - a.x), a.y + t * (b.y - a.y), l});
    }
  }
  return out;
}

}  // namespace

std::vector<BandPolygon> contour_bands(const Grid& g, const std::vector<double>& levels) {
  std::vector<BandPolygon> out;
  const int nb = static_cast<int>(levels.size()) + 1;
  for (int64_t j = 0; j + 1 < g.cols; ++j)
    for (int64_t i = 0; i + 1 < g.rows; ++i) {
      P3 c[4] = {{g.X(i, j), g.Y(i, j), g.Z(i, j)},
                 {g.X(i, j + 1), g.Y(i, j + 1), g.Z(i, j + 1)},
                 {g.X(i + 1, j + 1), g.Y(i + 1, j + 1), g.Z(i + 1, j + 1)},
                 {g.X(i + 1, j), g.Y(i + 1, j), g.Z(i + 1, j)}};
      bool ok = true;
      for (const P3& p : c) ok = ok && std::isfinite(p.z);
      if (!ok) continue;
      const P3 m{(c[0].x + c[1].x + c[2].x + c[3].x) / 4, (c[0].y + c[1].y + c[2].y + c[3].y) / 4,
                 (c[0].z + c[1].z + c[2].z + c[3].z) / 4};
      for (int t = 0; t < 4; ++t) {
        std::vector<P3> tri = {c[t], c[(t + 1) % 4], m};
        double zlo = std::min({tri[0].z, tri[1].z, tri[2].z});
        double zhi = std::max({tri[0].z, tri[1].z, tri[2].z});
        for (int b = 0; b < nb; ++b) {
          const double lo = b == 0 ? -INFINITY : levels[b - 1];
          const double hi = b == nb - 1 ? INFINITY : levels[b];
          if (zhi < lo || zlo > hi) continue;
          std::vector<P3> p = tri;
          if (std::isfinite(lo)) p = clip(p, lo, true);
          if (p.size() >= 3 && std::isfinite(hi)) p = clip(p, hi, false);
          if (p.size() < 3) continue;
          BandPolygon bp;
          bp.band = b;
          for (const P3& q : p) bp.pts.push_back({q.x, q.y});
          out.push_back(std::move(bp));
        }
      }
    }
  return out;
}

}  // namespace matfuse::gfx
