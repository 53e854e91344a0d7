// The hooks through which code below the graphics layer reaches figures.
//
// - Render hook: graphics code installs a function that returns the figures opened or changed
//   since its last call, each rendered to PNG; the Jupyter kernel calls it after every cell and
//   shows each image inline. Without graphics (no hook installed) no figure is shown.
// - Delete hook: graphics code installs a function that deletes the graphics objects a value
//   names; the delete builtin calls it before treating its arguments as file names.
#pragma once

#include <string>
#include <vector>

namespace matfuse {

class Value;

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

/// delete(h) for graphics handles: removes the objects v names and returns true; false (and
/// nothing done) when v is not a graphics handle value.
using HandleDeleteHook = bool (*)(const Value& v);
/// Installs (or, with nullptr, removes) the delete hook. Not thread-safe: call at start-up.
void set_handle_delete_hook(HandleDeleteHook hook);
/// The installed delete hook, or nullptr.
HandleDeleteHook handle_delete_hook();

}  // namespace matfuse
