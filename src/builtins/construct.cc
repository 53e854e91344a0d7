// Builtins of the "construct" family. (Being written; registration function only for now.)
#include "builtins/registry.h"

namespace matfuse {

void register_construct(Registry& r) { (void)r; }

}  // namespace matfuse
