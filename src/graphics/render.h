// Rendering figures to PNG, SVG and PDF through Cairo (optional: MATFUSE_HAVE_CAIRO). Without
// Cairo every function here raises matfuse:notAvailable naming the library.
#pragma once

#include <string>

#include "graphics/gobject.h"

namespace matfuse::gfx {

enum class ImageFormat { Png, Svg, Pdf };

/// True when built with Cairo.
bool rendering_available();
/// The figure as file bytes. The output is Position(3:4) * dpi / 96 pixels (PNG) or
/// Position(3:4) * 72 / 96 points (SVG, PDF). With InvertHardcopy 'on' (MATLAB's default for
/// printing) the figure background is white.
std::string render_figure(const GNode& fig, ImageFormat f, double dpi);
/// Writes render_figure's bytes to path. Errors: MATLAB:print:CannotCreateOutputFile.
void write_figure(const GNode& fig, const std::string& path, ImageFormat f, double dpi);
/// The format of a file name's extension (.png .svg .pdf); false for others.
bool format_of_path(const std::string& path, ImageFormat& f);

/// While an SVG is rendered, texts are collected as SVG <text> elements (see render_text.cc).
struct SvgTextSink {
  std::string elements;
  double scale = 1;  ///< SVG units per pixel
};
SvgTextSink* svg_text_sink();

}  // namespace matfuse::gfx
