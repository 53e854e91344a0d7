// Colormaps: MATLAB's named colormaps as m-by-3 tables.
#pragma once

#include <string>
#include <vector>

#include "graphics/gobject.h"

namespace matfuse::gfx {

/// The colormap `name` with m colours (parula, turbo, jet, hsv, hot, cool, spring, summer,
/// autumn, winter, gray, bone, copper, pink, lines, colorcube-free subset). Throws
/// MATLAB:colormap:InvalidInput for an unknown name.
std::vector<Rgb> colormap_table(const std::string& name, int m);
bool is_colormap_name(const std::string& name);
/// The same as an m-by-3 double Value.
Value colormap_value(const std::string& name, int m);
/// An m-by-3 Value as colours (rows clamped to [0, 1]).
std::vector<Rgb> colormap_rows(const Value& v);

}  // namespace matfuse::gfx
