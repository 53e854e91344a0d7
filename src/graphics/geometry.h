// Data-space geometry of charts, shared by the automatic limits and the renderer: bar and
// histogram rectangles, image extents, quiver arrows, contour lines (marching squares) and
// filled contour bands (piecewise-linear on a triangulated grid).
#pragma once

#include <array>
#include <vector>

#include "graphics/axes_layout.h"

namespace matfuse::gfx {

/// Rectangles {x0, y0, x1, y1} (data units) of a Bar (grouped/stacked, vertical or
/// horizontal: already in axes x/y) or Histogram object.
std::vector<std::array<double, 4>> bar_rects(const GNode& c);
/// The x (dim 0) or y (dim 1) extent of an Image: pixel centres XData/YData plus half a pixel.
Range image_extent(const GNode& img, int dim);
/// Arrow shafts {x0, y0, x1, y1} of a Quiver (MATLAB's automatic scaling applied).
std::vector<std::array<double, 4>> quiver_segments(const GNode& q);

/// A grid Z (rows x cols, column-major) with coordinates: x per column, y per row when the
/// inputs are vectors; full matrices otherwise.
struct Grid {
  int64_t rows = 0, cols = 0;
  std::vector<double> x, y, z;  ///< each rows*cols, column-major
  double X(int64_t i, int64_t j) const { return x[i + j * rows]; }
  double Y(int64_t i, int64_t j) const { return y[i + j * rows]; }
  double Z(int64_t i, int64_t j) const { return z[i + j * rows]; }
};
/// The grid of a Contour or Surface object (XData/YData vectors or matrices, ZData matrix).
Grid grid_of(const GNode& c);

/// Contour levels in use (LevelList, or MATLAB's automatic nice levels of the data range).
std::vector<double> contour_levels(const GNode& c);
/// Segments {x0, y0, x1, y1} of the contour line at `level` (marching squares, saddle cells
/// resolved by the cell-centre average).
std::vector<std::array<double, 4>> contour_segments(const Grid& g, double level);

/// A filled polygon of one contour band (band k lies between levels[k-1] and levels[k];
/// band 0 is below the first level).
struct BandPolygon {
  int band = 0;
  std::vector<std::array<double, 2>> pts;
};
std::vector<BandPolygon> contour_bands(const Grid& g, const std::vector<double>& levels);

}  // namespace matfuse::gfx
