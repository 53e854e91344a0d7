// Counter-based random numbers: Philox4x32-10 (Salmon et al., "Parallel random numbers: as easy
// as 1, 2, 3", SC'11), identical on host and device (DESIGN.md decision 7).
//
// Stream model: rng(seed) sets the 64-bit key from the seed and resets the stream offset to 0.
// Each rand/randn/randi call of n elements takes the next n stream positions: element i of the
// call has position (offset + i), and the state advances by n. A position is one lane of a
// Philox block (4 lanes per block in single precision, 2 in double: philox.inc's stream model),
// and its value depends on the key and the position alone. The transforms live in
// runtime/philox.inc, written in the common subset of C++ and CUDA C so the device code
// generator can embed the very same text.
#pragma once

#include <cstdint>

namespace matfuse {

struct RngState {
  uint64_t seed = 0;     ///< the seed given to rng (default 0)
  uint64_t key = 0;      ///< Philox key derived from the seed
  uint64_t offset = 0;   ///< next unused stream position
  /// Reserves n stream positions; returns the first.
  uint64_t take(uint64_t n) { uint64_t o = offset; offset += n; return o; }
  void set_seed(uint64_t s);
};

}  // namespace matfuse
