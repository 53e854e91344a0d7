// Builtins of the "rng" family. (Being written; registration function only for now.)
#include "builtins/registry.h"

namespace matfuse {

void register_rng(Registry& r) { (void)r; }

}  // namespace matfuse
