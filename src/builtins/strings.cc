// Builtins of the "strings" family. (Being written; registration function only for now.)
#include "builtins/registry.h"

namespace matfuse {

void register_strings(Registry& r) { (void)r; }

}  // namespace matfuse
