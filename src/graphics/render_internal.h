// Internal interface of the Cairo renderer (render.cc draws figures, axes, legends and
// colorbars; render_items.cc draws the objects inside an axes). Units: 96-dpi figure pixels
// (the Cairo context is scaled to the output resolution); font sizes and line widths are in
// points as in MATLAB (1 pt = 96/72 px).
#pragma once

#ifdef MATFUSE_HAVE_CAIRO
#include <cairo.h>

#include <array>
#include <string>
#include <vector>

#include "graphics/axes_layout.h"
#include "graphics/gobject.h"

namespace matfuse::gfx {

constexpr double kPt = 96.0 / 72.0;  ///< pixels per point
/// The fixed font used for every text (reproducible output): DejaVu Sans via fontconfig.
constexpr const char* kFont = "DejaVu Sans";

/// Data-to-pixel mapping of one axes (2-D, 3-D projection or polar).
struct AxesMap {
  std::array<double, 4> box{};  ///< x, y (top), w, h in pixels
  Range lim[3];
  bool log[3] = {false, false, false};
  bool rev[3] = {false, false, false};
  bool three_d = false;
  bool polar = false;
  double rot[3][3] = {};             ///< 3-D: view matrix rows (screen x, screen y, depth)
  double scale = 1, cx = 0, cy = 0;  ///< 3-D and polar: pixels per unit, screen centre
  /// Normalised coordinate of v along dim in [0, 1] (log and direction applied).
  double norm(int dim, double v) const;
  /// Pixel position of a data point.
  std::array<double, 2> map(double x, double y, double z = 0) const;
  /// Depth of a data point (3-D; larger is nearer the viewer).
  double depth(double x, double y, double z) const;
};

AxesMap make_map(const GNode& ax, double fw, double fh);

void set_rgb(cairo_t* cr, const Rgb& c, double alpha = 1);
/// Line style dash pattern ("-", "--", ":", "-."); false for "none".
bool apply_line_style(cairo_t* cr, const std::string& style, double width_pt);
/// Draws marker m centred at (x, y); size in points; face may be 'none' (fill false).
void draw_marker(cairo_t* cr, const std::string& m, double x, double y, double size_pt,
                 const Rgb& edge, bool fill, const Rgb& face, double lw_pt);

/// Text extents of a MATLAB text with the TeX subset (Greek letters and symbols by name,
/// ^{...} and _{...}, \bf \it \rm); width and height in pixels.
std::array<double, 2> text_size(cairo_t* cr, const std::string& s, double size_pt, bool bold);
/// Draws a (possibly multi-line) text at (x, y) with alignment h ("left" "center" "right")
/// and v ("top" "middle" "bottom" "baseline" "cap"), rotated by rot degrees (counter-clockwise).
void draw_text(cairo_t* cr, const std::string& s, double x, double y, double size_pt, bool bold,
               const Rgb& color, const std::string& h, const std::string& v, double rot = 0,
               bool tex = true);
/// Lines of a text property value (char matrix rows, cellstr, string array).
std::vector<std::string> text_lines(const Value& v);

/// The colormap in use for ax (its own, else its figure's).
std::vector<Rgb> axes_colormap(const GNode& ax);
/// Colour of value c in colormap cm with colour limits r (MATLAB's scaled mapping).
Rgb map_color(const std::vector<Rgb>& cm, const Range& r, double c);

/// Draws ax's children (clipped to the plot box for 2-D axes).
void draw_children(cairo_t* cr, const GNode& ax, const AxesMap& m);
/// Draws one legend entry sample for item c inside the rectangle (x, y, w, h).
void draw_legend_sample(cairo_t* cr, const GNode& c, double x, double y, double w, double h);

}  // namespace matfuse::gfx

#endif  // MATFUSE_HAVE_CAIRO
