// Builtins of the "cells_structs" family. (Being written; registration function only for now.)
#include "builtins/registry.h"

namespace matfuse {

void register_cells_structs(Registry& r) { (void)r; }

}  // namespace matfuse
