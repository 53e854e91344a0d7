// Graphics layer: automatic ticks and limits, colormaps, contour geometry, linespec parsing.
#include <gtest/gtest.h>

#include "graphics/axes_layout.h"
#include "graphics/colormaps.h"
#include "graphics/geometry.h"
#include "graphics/gobject.h"

namespace matfuse::gfx {

TEST(GraphicsTicks, NiceTicksWidenToStepMultiples) {
  // MATLAB's plot(x, sin(x)) for x in [0, 2*pi]: x limits [0 7] with unit ticks.
  double lo = 0, hi = 6.283185307179586;
  std::vector<double> t = nice_ticks(lo, hi, 11, true);
  EXPECT_EQ(lo, 0);
  EXPECT_EQ(hi, 7);
  ASSERT_EQ(t.size(), 8u);
  EXPECT_EQ(t[3], 3);
  // y in [-1, 1] with room for 11 intervals: steps of 0.2.
  lo = -1;
  hi = 1;
  t = nice_ticks(lo, hi, 11, true);
  ASSERT_EQ(t.size(), 11u);
  EXPECT_NEAR(t[1], -0.8, 1e-12);
  EXPECT_EQ(t[5], 0);
}

TEST(GraphicsTicks, NiceTicksInsideLimits) {
  double lo = 0.05, hi = 0.95;
  std::vector<double> t = nice_ticks(lo, hi, 5, false);
  EXPECT_EQ(lo, 0.05);  // not widened
  ASSERT_FALSE(t.empty());
  EXPECT_GE(t.front(), 0.05);
  EXPECT_LE(t.back(), 0.95);
}

TEST(GraphicsTicks, LogTicksAreDecades) {
  std::vector<double> t = log_ticks(1, 1000);
  ASSERT_EQ(t.size(), 4u);
  EXPECT_EQ(t[0], 1);
  EXPECT_EQ(t[3], 1000);
}

TEST(GraphicsColormaps, MatlabFormulas) {
  // jet(4) and gray(3) as MATLAB returns them.
  std::vector<Rgb> j = colormap_table("jet", 4);
  const Rgb want[4] = {{0, 0, 1}, {0, 1, 1}, {1, 1, 0}, {1, 0, 0}};
  for (int i = 0; i < 4; ++i)
    for (int k = 0; k < 3; ++k) EXPECT_EQ(j[i][k], want[i][k]) << i << "," << k;
  std::vector<Rgb> g = colormap_table("gray", 3);
  EXPECT_EQ(g[1][0], 0.5);
  std::vector<Rgb> p = colormap_table("parula", 8);
  EXPECT_NEAR(p[0][2], 0.6603, 1e-12);
  EXPECT_NEAR(p[7][0], 0.9769, 1e-12);
  EXPECT_THROW(colormap_table("nosuchmap", 4), MatlabError);
}

TEST(GraphicsContour, SegmentsCrossTheLevel) {
  // z = x on a 2x2 grid over [0, 1]^2: the 0.5 contour is the vertical line x = 0.5.
  Grid g;
  g.rows = g.cols = 2;
  g.x = {0, 0, 1, 1};
  g.y = {0, 1, 0, 1};
  g.z = {0, 0, 1, 1};
  auto s = contour_segments(g, 0.5);
  ASSERT_EQ(s.size(), 1u);
  EXPECT_DOUBLE_EQ(s[0][0], 0.5);
  EXPECT_DOUBLE_EQ(s[0][2], 0.5);
  // Filled bands cover the cell: area below 0.5 plus above equals 1.
  auto bands = contour_bands(g, {0.5});
  double area[2] = {0, 0};
  for (const auto& b : bands) {
    double a = 0;
    for (size_t k = 0; k < b.pts.size(); ++k) {
      const auto& p = b.pts[k];
      const auto& q = b.pts[(k + 1) % b.pts.size()];
      a += p[0] * q[1] - q[0] * p[1];
    }
    area[b.band] += std::abs(a) / 2;
  }
  EXPECT_NEAR(area[0], 0.5, 1e-12);
  EXPECT_NEAR(area[1], 0.5, 1e-12);
}

TEST(GraphicsLineSpec, ParsesMatlabSpecs) {
  LineSpec s;
  ASSERT_TRUE(parse_linespec("r--o", s));
  EXPECT_EQ(s.line_style, "--");
  EXPECT_EQ(s.marker, "o");
  EXPECT_TRUE(s.has_color);
  EXPECT_EQ(s.color[0], 1);
  ASSERT_TRUE(parse_linespec(":k", s));
  EXPECT_EQ(s.line_style, ":");
  EXPECT_FALSE(parse_linespec("LineWidth", s));
  EXPECT_FALSE(parse_linespec("r-r", s));
}

TEST(GraphicsColor, ParsesNamesHexAndTriplets) {
  Rgb c = parse_color(Value::from_chars("#FF8000"));
  EXPECT_EQ(c[0], 1);
  EXPECT_NEAR(c[1], 128.0 / 255, 1e-12);
  c = parse_color(Value::from_chars("magenta"));
  EXPECT_EQ(c[2], 1);
  EXPECT_THROW(parse_color(Value::from_chars("purpleish")), MatlabError);
}

}  // namespace matfuse::gfx
