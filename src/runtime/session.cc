#include "runtime/session.h"

#include <iostream>

namespace matfuse {

Session::Session() : out(&std::cout), err(&std::cerr), tic_time(std::chrono::steady_clock::now()) {
  rng.set_seed(0);
}

}  // namespace matfuse
