// The providers this build ships, for the programs that register them at start (the matfuse
// CLI, the test binaries): the host provider always, the CUDA provider when its libraries load
// and a device is usable (checked on first use, so a script without array work never loads
// CUDA).
#pragma once

namespace matfuse {

/// Registers "host", "cuda" then "vulkan" (provider.h register_provider). Idempotent.
void register_standard_providers();

}  // namespace matfuse
