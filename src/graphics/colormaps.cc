// Colormaps (see colormaps.h). jet, hot, gray, cool, spring, summer, autumn, winter, bone,
// copper, pink, hsv and lines follow the formulas of MATLAB's (and GNU Octave's) colormap
// functions. parula is interpolated linearly from MATLAB's 8-colour parula table. turbo uses
// the polynomial approximation published with Turbo (A. Mikhailov, Google AI blog, 2019,
// Apache-2.0).
#include "graphics/colormaps.h"

#include <algorithm>
#include <cmath>

namespace matfuse::gfx {

namespace {

std::vector<double> ramp(int m) {
  std::vector<double> r(m);
  for (int i = 0; i < m; ++i) r[i] = m > 1 ? static_cast<double>(i) / (m - 1) : 0.0;
  return r;
}

std::vector<Rgb> hot(int m) {
  const int n = static_cast<int>(std::floor(3.0 / 8.0 * m));
  std::vector<Rgb> c(m);
  for (int i = 0; i < m; ++i) {
    const int k = i + 1;
    c[i][0] = k <= n ? static_cast<double>(k) / n : 1.0;
    c[i][1] = k <= n ? 0.0 : (k <= 2 * n ? static_cast<double>(k - n) / n : 1.0);
    c[i][2] = k <= 2 * n ? 0.0 : static_cast<double>(k - 2 * n) / (m - 2 * n);
  }
  return c;
}

std::vector<Rgb> jet(int m) {
  std::vector<Rgb> c(m, Rgb{0, 0, 0});
  const int n = (m + 3) / 4;
  std::vector<double> u;
  for (int i = 1; i <= n; ++i) u.push_back(static_cast<double>(i) / n);
  for (int i = 1; i < n; ++i) u.push_back(1.0);
  for (int i = n; i >= 1; --i) u.push_back(static_cast<double>(i) / n);
  const int L = static_cast<int>(u.size());
  const int g0 = (n + 1) / 2 - (m % 4 == 1 ? 1 : 0);
  std::vector<int> g, r, b;
  for (int i = 1; i <= L; ++i) {
    const int gi = g0 + i;
    if (gi <= m) g.push_back(gi);
    if (gi + n <= m) r.push_back(gi + n);
    if (gi - n >= 1) b.push_back(gi - n);
  }
  for (size_t i = 0; i < r.size(); ++i) c[r[i] - 1][0] = u[i];
  for (size_t i = 0; i < g.size(); ++i) c[g[i] - 1][1] = u[i];
  for (size_t i = 0; i < b.size(); ++i) c[b[i] - 1][2] = u[L - b.size() + i];
  return c;
}

Rgb hsv_rgb(double h, double s, double v) {
  h = 6 * (h - std::floor(h));
  const int k = static_cast<int>(std::floor(h)) % 6;
  const double f = h - std::floor(h);
  const double p = v * (1 - s), q = v * (1 - s * f), t = v * (1 - s * (1 - f));
  switch (k) {
    case 0:
      return {v, t, p};
    case 1:
      return {q, v, p};
    case 2:
      return {p, v, t};
    case 3:
      return {p, q, v};
    case 4:
      return {t, p, v};
    default:
      return {v, p, q};
  }
}

std::vector<Rgb> interp_table(const std::vector<Rgb>& anchors, int m) {
  std::vector<Rgb> c(m);
  const int a = static_cast<int>(anchors.size());
  for (int i = 0; i < m; ++i) {
    const double x = m > 1 ? static_cast<double>(i) / (m - 1) * (a - 1) : 0.0;
    const int k = std::min(static_cast<int>(std::floor(x)), a - 2);
    const double f = x - k;
    for (int j = 0; j < 3; ++j) c[i][j] = anchors[k][j] * (1 - f) + anchors[k + 1][j] * f;
  }
  return c;
}

const char* const kNames[] = {"parula", "turbo",  "jet",    "hsv",    "hot",  "cool",
                              "spring", "summer", "autumn", "winter", "gray", "bone",
                              "copper", "pink",   "lines",  "white"};

}  // namespace

bool is_colormap_name(const std::string& name) {
  for (const char* n : kNames)
    if (lower_ascii(name) == n) return true;
  return false;
}

std::vector<Rgb> colormap_table(const std::string& name0, int m) {
  const std::string name = lower_ascii(name0);
  if (m < 0) m = 0;
  const std::vector<double> r = ramp(m);
  std::vector<Rgb> c(m);
  if (name == "parula") {
    static const std::vector<Rgb> k = {{0.2422, 0.1504, 0.6603}, {0.2810, 0.3228, 0.9579},
                                       {0.1786, 0.5289, 0.9682}, {0.0689, 0.6948, 0.8394},
                                       {0.2161, 0.7843, 0.5923}, {0.6720, 0.7793, 0.2227},
                                       {0.9970, 0.7659, 0.2199}, {0.9769, 0.9839, 0.0805}};
    return m == 0 ? c : interp_table(k, m);
  }
  if (name == "turbo") {
    for (int i = 0; i < m; ++i) {
      const double t = r[i];
      c[i][0] = 0.13572138 +
                t * (4.61539260 + t * (-42.66032258 +
                                       t * (132.13108234 + t * (-152.94239396 + t * 59.28637943))));
      c[i][1] = 0.09140261 +
                t * (2.19418839 +
                     t * (4.84296658 + t * (-14.18503333 + t * (4.27729857 + t * 2.82956604))));
      c[i][2] = 0.10667330 +
                t * (12.64194608 + t * (-60.58204836 +
                                        t * (110.36276771 + t * (-89.90310912 + t * 27.34824973))));
      for (double& x : c[i]) x = std::clamp(x, 0.0, 1.0);
    }
    return c;
  }
  if (name == "jet") return jet(m);
  if (name == "hot") return hot(m);
  if (name == "hsv") {
    for (int i = 0; i < m; ++i) c[i] = hsv_rgb(static_cast<double>(i) / m, 1, 1);
    return c;
  }
  if (name == "gray" || name == "bone" || name == "copper" || name == "pink") {
    std::vector<Rgb> h = (name == "bone" || name == "pink") ? hot(m) : std::vector<Rgb>();
    for (int i = 0; i < m; ++i) {
      const double g = r[i];
      if (name == "gray")
        c[i] = {g, g, g};
      else if (name == "copper")
        c[i] = {std::min(1.0, 1.25 * g), std::min(1.0, 0.7812 * g), std::min(1.0, 0.4975 * g)};
      else if (name == "bone") {
        const Rgb& hh = h[i];
        c[i] = {(7 * g + hh[2]) / 8, (7 * g + hh[1]) / 8, (7 * g + hh[0]) / 8};
      } else {
        for (int j = 0; j < 3; ++j) c[i][j] = std::sqrt((2 * g + h[i][j]) / 3);
      }
    }
    return c;
  }
  for (int i = 0; i < m; ++i) {
    const double t = r[i];
    if (name == "cool")
      c[i] = {t, 1 - t, 1};
    else if (name == "spring")
      c[i] = {1, t, 1 - t};
    else if (name == "summer")
      c[i] = {t, 0.5 + t / 2, 0.4};
    else if (name == "autumn")
      c[i] = {1, t, 0};
    else if (name == "winter")
      c[i] = {0, t, 0.5 + (1 - t) / 2};
    else if (name == "white")
      c[i] = {1, 1, 1};
    else if (name == "lines")
      c[i] = default_color_order()[i % default_color_order().size()];
    else
      throw_error("MATLAB:colormap:InvalidInputType",
                  "Invalid input argument: '%s' is not a colormap name.", name0.c_str());
  }
  return c;
}

Value colormap_value(const std::string& name, int m) {
  const std::vector<Rgb> c = colormap_table(name, m);
  Tensor t = Tensor::zeros(ClassId::Double, Dims(m, 3));
  for (int i = 0; i < m; ++i)
    for (int j = 0; j < 3; ++j) t.set_double(i + static_cast<int64_t>(j) * m, c[i][j]);
  return Value(std::move(t));
}

std::vector<Rgb> colormap_rows(const Value& v) {
  std::vector<Rgb> out;
  if (!v.is_tensor() || v.is_char()) return out;
  Tensor t = v.tensor();
  const int64_t m = t.dims().rows();
  if (t.dims().cols() != 3) return out;
  for (int64_t i = 0; i < m; ++i)
    out.push_back({std::clamp(t.get_double(i), 0.0, 1.0), std::clamp(t.get_double(i + m), 0.0, 1.0),
                   std::clamp(t.get_double(i + 2 * m), 0.0, 1.0)});
  return out;
}

}  // namespace matfuse::gfx
