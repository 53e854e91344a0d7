// Builtins of the "misc" family. (Being written; registration function only for now.)
#include "builtins/registry.h"

namespace matfuse {

void register_misc(Registry& r) { (void)r; }

}  // namespace matfuse
