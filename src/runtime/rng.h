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
#include <memory>

namespace matfuse {

/// MATLAB's 'twister' generator: MT19937 (Matsumoto & Nishimura, "Mersenne Twister: a
/// 623-dimensionally equidistributed uniform pseudo-random number generator", ACM TOMACS 1998;
/// reference code mt19937ar.c). Seeded with init_genrand(seed), seed 0 meaning 5489 as MATLAB
/// does; a double is genrand_res53 (two 32-bit words, 53 bits, in [0, 1)), which reproduces
/// MATLAB's rand under rng(seed, 'twister') bit for bit.
struct Mt19937 {
  uint32_t mt[624];
  int mti = 625;
  void seed(uint32_t s);
  uint32_t next_u32();
  double next_res53() {
    const uint32_t a = next_u32() >> 5, b = next_u32() >> 6;
    return (a * 67108864.0 + b) * (1.0 / 9007199254740992.0);
  }
};

struct RngState {
  uint64_t seed = 0;     ///< the seed given to rng (default 0)
  uint64_t key = 0;      ///< Philox key derived from the seed
  uint64_t offset = 0;   ///< next unused stream position
  /// Reserves n stream positions; returns the first.
  uint64_t take(uint64_t n) { uint64_t o = offset; offset += n; return o; }
  void set_seed(uint64_t s);
  /// Non-null while the generator is MATLAB's Mersenne Twister (rng(seed, 'twister')): rand,
  /// randi, randn and randperm then draw from it on the host (never a graph generator node).
  std::shared_ptr<Mt19937> twister;
  /// rng(seed, 'twister'): seed 0 is MT19937's default seed 5489 (MATLAB's rng default).
  void set_twister(uint64_t s);
};

}  // namespace matfuse
