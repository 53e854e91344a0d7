// Graphics state: the root object, the open figures, the current figure and axes, and the
// "newplot" preparation the high-level plotting functions share.
#pragma once

#include <vector>

#include "graphics/gobject.h"

namespace matfuse::gfx {

/// The root object (groot, handle 0); created on first use.
GPtr root();
/// Open figures, in creation order.
std::vector<GPtr> figures();
/// The open figure with Number n, or null.
GPtr find_figure(double n);
/// Creates figure number n (the lowest free number when n <= 0) and makes it current.
GPtr new_figure(int n = 0);
/// The current figure; creates figure 1 when none is open and create is true (gcf).
GPtr current_figure(bool create = true);
/// The current axes of the current figure; creates a figure and axes when needed (gca).
GPtr current_axes(bool create = true);
/// Makes fig current (and raises it to the end of the root's figure list).
void make_current_figure(const GPtr& fig);
/// Makes ax the current axes of its figure and the figure current.
void make_current_axes(const GPtr& ax);
/// Creates axes in fig at the normalized inner position pos (x, y, w, h).
GPtr new_axes(const GPtr& fig, const std::array<double, 4>& pos);

/// MATLAB's newplot: the axes a plotting function draws into. Creates a figure and axes when
/// none exist; when the axes' NextPlot is 'replace' (hold off) clears its children and resets
/// its properties (keeping Position); 'add' (hold on) keeps them. Returns the axes.
GPtr newplot();
/// Whether hold is on for ax (NextPlot 'add').
bool hold_on(const GNode& ax);
/// The next colour of ax's ColorOrder (and advances ColorOrderIndex).
Rgb next_color(GNode& ax);
/// Clears a figure's children (clf); reset also restores the figure's properties.
void clear_figure(const GPtr& fig, bool reset);
/// Resets an axes to its defaults, keeping its position, and removes its children.
void reset_axes(const GPtr& ax);

/// The text object in an axes slot ("Title", "XLabel", "YLabel", "ZLabel"), created on first
/// use with MATLAB's size and weight for that slot.
GPtr axes_label(const GPtr& ax, const char* slot);

/// Defines a fresh object's properties (factory defaults for its type). Used by create().
void init_defaults(GNode& n);

}  // namespace matfuse::gfx
