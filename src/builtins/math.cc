// Builtins of the "math" family (registration entry point; the functions live in math*.cc).
#include "builtins/registry.h"

namespace matfuse {

void register_math(Registry& r) { (void)r; }

}  // namespace matfuse
