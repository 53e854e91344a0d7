#include "runtime/figure_hook.h"

namespace matfuse {

namespace {
FigureRenderHook g_hook = nullptr;
HandleDeleteHook g_delete_hook = nullptr;
}

void set_figure_render_hook(FigureRenderHook hook) { g_hook = hook; }
FigureRenderHook figure_render_hook() { return g_hook; }
void set_handle_delete_hook(HandleDeleteHook hook) { g_delete_hook = hook; }
HandleDeleteHook handle_delete_hook() { return g_delete_hook; }

}  // namespace matfuse
