// Builtins of the "reduce" family. (Being written; registration function only for now.)
#include "builtins/registry.h"

namespace matfuse {

void register_reduce(Registry& r) { (void)r; }

}  // namespace matfuse
