// Helpers shared by the graphics builtins.
#pragma once

#include <string>
#include <vector>

#include "builtins/registry.h"
#include "graphics/gobject.h"
#include "graphics/gstate.h"

namespace matfuse::gfx {

/// When args[0] is an axes handle (plot(ax, ...)), removes it and returns the axes.
GPtr take_axes(Args& args);
/// When args[0] is a graphics handle of any type, removes it and returns the object.
GPtr take_handle(Args& args);
/// Lower-cased text of a text argument ("" for non-text).
std::string opt(const Value& v);
/// A real numeric/logical argument as a double tensor (MATLAB:hg:... errors for others).
Tensor num(const Value& v, const char* fname);
/// 1xN double row.
Value row_value(const std::vector<double>& v);
/// Values of a tensor as doubles (column-major).
std::vector<double> values(const Tensor& t);
/// Index of the first name-value property name in args at or after `from` (a text argument
/// that is not a line spec); args.size() when none.
size_t first_pair(Args args, size_t from);
/// Records a plotted object with its axes: a legend with AutoUpdate 'on' gains an entry.
void add_plotted(const GPtr& ax, const GPtr& obj);
/// What a plotting call returns: nothing for nargout 0, else the handle(s).
Outputs handles_out(const std::vector<GPtr>& objs, int nargout);
/// Box 'on' for a fresh 2-D plot (MATLAB's plot, bar, scatter, ... when hold is off).
void box_on_if_new(const GPtr& ax, bool was_held);
/// Whether handle value v names exactly the object n.
bool nodes_of_unchecked_equal(const Value& v, const GPtr& n);
/// Registers the builtins of each graphics file.
void register_graphics_core(Registry& r);
void register_graphics_annot(Registry& r);
void register_graphics_plot(Registry& r);
void register_graphics_charts(Registry& r);
void register_graphics_surface(Registry& r);
void register_graphics_export(Registry& r);

}  // namespace matfuse::gfx
