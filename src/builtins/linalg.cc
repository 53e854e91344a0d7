// Builtins of the "linalg" family. (Being written; registration function only for now.)
#include "builtins/registry.h"

namespace matfuse {

void register_linalg(Registry& r) { (void)r; }

}  // namespace matfuse
