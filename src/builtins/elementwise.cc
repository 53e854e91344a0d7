// Builtins of the "elementwise" family. (Being written; registration function only for now.)
#include "builtins/registry.h"

namespace matfuse {

void register_elementwise(Registry& r) { (void)r; }

}  // namespace matfuse
