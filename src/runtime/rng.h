// Counter-based random numbers: Philox4x32-10 (Salmon et al., "Parallel random numbers: as easy
// as 1, 2, 3", SC'11), identical on host and device (DESIGN.md decision 7).
//
// Stream model: rng(seed) sets the 64-bit key from the seed and resets the counter to 0. Each
// rand/randn/randi call of n elements takes the next n counters: element i of the call uses
// counter (offset + i), and the state advances by n. The per-element transforms live in
// runtime/philox.inc, written in the common subset of C++ and CUDA C so the device code
// generator can embed the very same text.
#pragma once

#include <cstdint>

namespace matfuse {

struct RngState {
  uint64_t seed = 0;     ///< the seed given to rng (default 0)
  uint64_t key = 0;      ///< Philox key derived from the seed
  uint64_t offset = 0;   ///< next unused counter
  /// Reserves n counters; returns the first.
  uint64_t take(uint64_t n) { uint64_t o = offset; offset += n; return o; }
  void set_seed(uint64_t s);
};

}  // namespace matfuse
