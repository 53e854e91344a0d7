// Builtins of the "math" family (registration entry point; the functions live in math*.cc):
// math_special.cc (gamma, erf family, roots and real powers), math_trig.cc (degree/pi-scaled
// and reciprocal trigonometry), math_number.cc (factorial, nchoosek, primes, gcd/lcm, cross,
// dot).
#include "builtins/registry.h"

namespace matfuse {

void register_math_special(Registry& r);
void register_math_trig(Registry& r);
void register_math_number(Registry& r);

void register_math(Registry& r) {
  register_math_special(r);
  register_math_trig(r);
  register_math_number(r);
}

}  // namespace matfuse
