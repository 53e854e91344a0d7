// Builtins of the "types" family. (Being written; registration function only for now.)
#include "builtins/registry.h"

namespace matfuse {

void register_types(Registry& r) { (void)r; }

}  // namespace matfuse
