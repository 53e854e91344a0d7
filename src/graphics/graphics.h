// Public graphics API for front ends (the command-line runner, notebook kernels).
//
// Figures are process-wide (MATLAB's root object). A front end that shows figures inline
// lists the open figures after running code, renders each to PNG bytes and may close them:
//
//   for (int n : matfuse::graphics::open_figures())
//     send_png(matfuse::graphics::figure_png(n));
//   matfuse::graphics::close_all();
#pragma once

#include <string>
#include <vector>

#include "runtime/value.h"

namespace matfuse::graphics {

/// Whether figures can be rendered (built with Cairo).
bool available();
/// Numbers of the open figures, ascending (figures with Visible 'off' included).
std::vector<int> open_figures();
/// PNG bytes of figure `number` at `dpi` (96: one image pixel per figure pixel, so the default
/// 560x420 figure gives a 560x420 image). Errors (MatlabError): matfuse:notAvailable without
/// Cairo; MATLAB:hg:InvalidHandle when no such figure is open.
std::string figure_png(int number, double dpi = 96);
/// Writes every open figure as DIR/figureN.png; returns how many were written. Errors as
/// figure_png, and MATLAB:print:CannotCreateOutputFile when a file cannot be written.
int write_open_figures(const std::string& dir, double dpi = 96);
/// Closes every figure (close all).
void close_all();
/// delete(h) for graphics handles: removes the objects v names and returns true; false (and
/// nothing done) when v is not a graphics handle value.
bool delete_handles(const Value& v);

}  // namespace matfuse::graphics
