// Builtins of the "io" family. (Being written; registration function only for now.)
#include "builtins/registry.h"

namespace matfuse {

void register_io(Registry& r) { (void)r; }

}  // namespace matfuse
