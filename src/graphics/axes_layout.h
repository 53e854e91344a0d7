// Axes layout: automatic limits, tick positions and labels as MATLAB chooses them, the colour
// limits, the inner plot box in figure pixels, and the fixed 3-D view projection.
#pragma once

#include <array>
#include <string>
#include <vector>

#include "graphics/gobject.h"

namespace matfuse::gfx {

struct Range {
  double lo = 0, hi = 1;
};

/// Extent of the data of ax's children along dim (0 x, 1 y, 2 z), ignoring NaN and, on a log
/// axis, values <= 0. False when there is no data.
bool data_extent(const GNode& ax, int dim, Range& r);
/// The limits in use: the manual XLim/YLim/ZLim, or MATLAB's automatic ones (the data extent
/// widened outward to tick multiples; [0 1] without data; 'tight' for images and surfaces).
Range axis_limits(const GNode& ax, int dim);
/// Tick positions in use (manual XTick, or automatic "nice" ticks for the axis length).
std::vector<double> axis_ticks(const GNode& ax, int dim);
/// Tick label texts in use (manual XTickLabel, or formatted automatic labels). `exponent` gets
/// the common power of ten MATLAB writes once at the axis end (0 when none).
std::vector<std::string> tick_labels(const GNode& ax, int dim, const std::vector<double>& ticks,
                                     int* exponent = nullptr);
/// Colour limits (CLim, or the range of the scaled colour data of the children).
Range color_limits(const GNode& ax);

/// Inner position of ax in figure pixels (x from the left, y from the TOP), for a figure
/// w x h pixels (96 dpi units).
std::array<double, 4> axes_box(const GNode& ax, double fig_w, double fig_h);
/// Figure size in 96-dpi pixels (Position(3:4)).
std::array<double, 2> figure_size(const GNode& fig);
/// Whether ax shows a 3-D view (View elevation other than 90).
bool is_3d(const GNode& ax);

/// "Nice" ticks covering [lo, hi] with at most max_ticks intervals: steps of 1, 2 or 5 times
/// a power of ten (MATLAB's choice); when `widen` the limits are rounded outward to ticks.
std::vector<double> nice_ticks(double& lo, double& hi, int max_ticks, bool widen);
/// Ticks of a log axis over [lo, hi] (decades).
std::vector<double> log_ticks(double lo, double hi);

}  // namespace matfuse::gfx
