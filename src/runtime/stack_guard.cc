#include "runtime/stack_guard.h"

#include <pthread.h>

#include <cstdint>

#include "runtime/error.h"

namespace matfuse {

namespace {

struct StackBounds {
  bool known = false;
  char* lo = nullptr;  // lowest usable address (the stack grows down towards it)
  size_t size = 0;
};

const StackBounds& bounds() {
  thread_local StackBounds b = [] {
    StackBounds r;
    pthread_attr_t attr;
    if (pthread_getattr_np(pthread_self(), &attr) != 0) return r;
    void* addr = nullptr;
    size_t size = 0;
    if (pthread_attr_getstack(&attr, &addr, &size) == 0 && addr && size > 0) {
      r.known = true;
      r.lo = static_cast<char*>(addr);
      r.size = size;
    }
    pthread_attr_destroy(&attr);
    return r;
  }();
  return b;
}

}  // namespace

size_t stack_remaining() {
  const StackBounds& b = bounds();
  if (!b.known) return SIZE_MAX;
  char here;
  char* p = &here;
  return p > b.lo ? static_cast<size_t>(p - b.lo) : 0;
}

size_t stack_size() { return bounds().size; }

[[noreturn]] void throw_recursion_limit() {
  throw_error("MATLAB:recursionLimit",
              "Maximum recursion limit of %d reached. Use set(0,'RecursionLimit',N) to change "
              "the limit. Be aware that exceeding your available stack space can crash MATLAB "
              "and/or your computer.",
              500);
}

void check_stack_depth(size_t reserve, double keep_fraction) {
  const size_t left = stack_remaining();
  if (left == SIZE_MAX) return;
  size_t need = reserve;
  const size_t frac = static_cast<size_t>(static_cast<double>(stack_size()) * keep_fraction);
  if (frac > need) need = frac;
  if (left < need) throw_recursion_limit();
}

}  // namespace matfuse
