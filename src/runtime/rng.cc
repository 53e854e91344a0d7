// RngState: the session's Philox stream position (see rng.h and philox.inc).
#include "runtime/rng.h"

#include <cstdint>

#include "runtime/philox.inc"

namespace matfuse {

void RngState::set_seed(uint64_t s) {
  seed = s;
  key = mf_rng_key_from_seed(s);
  offset = 0;
}

}  // namespace matfuse
