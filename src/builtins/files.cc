// Builtins of the "files" family (registration entry point; the functions live in files*.cc).
#include "builtins/registry.h"

namespace matfuse {

void register_files(Registry& r) { (void)r; }

}  // namespace matfuse
