#include "runtime/figure_hook.h"

namespace matfuse {

namespace {
FigureRenderHook g_hook = nullptr;
}

void set_figure_render_hook(FigureRenderHook hook) { g_hook = hook; }
FigureRenderHook figure_render_hook() { return g_hook; }

}  // namespace matfuse
