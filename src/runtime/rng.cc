// RngState: the session's Philox stream position (see rng.h and philox.inc).
#include "runtime/rng.h"

#include <cstdint>

#include "runtime/philox.inc"

namespace matfuse {

void RngState::set_seed(uint64_t s) {
  twister.reset();
  seed = s;
  key = mf_rng_key_from_seed(s);
  offset = 0;
}

void RngState::set_twister(uint64_t s) {
  seed = s;
  key = mf_rng_key_from_seed(s);
  offset = 0;
  twister = std::make_shared<Mt19937>();
  twister->seed(s == 0 ? 5489u : static_cast<uint32_t>(s));
}

// init_genrand and genrand_int32 of mt19937ar.c (Matsumoto & Nishimura, 2002 version).
void Mt19937::seed(uint32_t s) {
  mt[0] = s;
  for (mti = 1; mti < 624; ++mti)
    mt[mti] = 1812433253u * (mt[mti - 1] ^ (mt[mti - 1] >> 30)) + static_cast<uint32_t>(mti);
}

uint32_t Mt19937::next_u32() {
  static constexpr uint32_t kMag01[2] = {0x0u, 0x9908b0dfu};
  constexpr uint32_t kUpper = 0x80000000u, kLower = 0x7fffffffu;
  if (mti >= 624) {
    if (mti == 625) seed(5489u);
    int kk = 0;
    for (; kk < 624 - 397; ++kk) {
      const uint32_t y = (mt[kk] & kUpper) | (mt[kk + 1] & kLower);
      mt[kk] = mt[kk + 397] ^ (y >> 1) ^ kMag01[y & 1u];
    }
    for (; kk < 623; ++kk) {
      const uint32_t y = (mt[kk] & kUpper) | (mt[kk + 1] & kLower);
      mt[kk] = mt[kk + (397 - 624)] ^ (y >> 1) ^ kMag01[y & 1u];
    }
    const uint32_t y = (mt[623] & kUpper) | (mt[0] & kLower);
    mt[623] = mt[396] ^ (y >> 1) ^ kMag01[y & 1u];
    mti = 0;
  }
  uint32_t y = mt[mti++];
  y ^= (y >> 11);
  y ^= (y << 7) & 0x9d2c5680u;
  y ^= (y << 15) & 0xefc60000u;
  y ^= (y >> 18);
  return y;
}

}  // namespace matfuse
