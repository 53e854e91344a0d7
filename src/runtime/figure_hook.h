// The hook through which front ends that show figures (the Jupyter kernel) get them rendered.
//
// Graphics code installs a function that returns the figures opened or changed since its last
// call, each rendered to PNG; the Jupyter kernel calls it after every cell and shows each image
// inline. Without graphics (no hook installed) no figure is shown.
#pragma once

#include <string>
#include <vector>

namespace matfuse {

struct RenderedFigure {
  int number = 0;     ///< the figure's number (figure(n))
  std::string png;    ///< PNG file bytes
  int width = 0;      ///< pixels (0: unknown)
  int height = 0;
};

/// Returns the figures opened or changed since the previous call, rendered to PNG, and marks
/// them unchanged. May throw MatlabError (reported as the cell's error).
using FigureRenderHook = std::vector<RenderedFigure> (*)();

/// Installs (or, with nullptr, removes) the hook. Not thread-safe: call at start-up.
void set_figure_render_hook(FigureRenderHook hook);
/// The installed hook, or nullptr.
FigureRenderHook figure_render_hook();

}  // namespace matfuse
