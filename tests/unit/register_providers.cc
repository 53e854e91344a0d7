// Test binaries register the providers of this build at start, as the matfuse CLI does.
#include "providers/standard.h"

namespace {
const bool registered = (matfuse::register_standard_providers(), true);
}  // namespace
