// Builtins of the "arrays" family (registration entry point; the functions live in arrays*.cc).
#include "builtins/registry.h"

namespace matfuse {

void register_arrays(Registry& r) { (void)r; }

}  // namespace matfuse
