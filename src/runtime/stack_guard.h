// C++ stack budget of the calling thread, for the recursive parts of matfuse (parser, value
// comparison, display, MAT-file writing) so that deep input ends in MATLAB:recursionLimit instead
// of a stack overflow.
//
// The interpreter thread has a large stack (1 GiB, see cli/main.cc); unit tests and other
// callers run on ordinary 8 MiB stacks. Both are measured, not assumed: the bounds come from
// pthread_getattr_np on first use in each thread.
#pragma once

#include <cstddef>

namespace matfuse {

/// Bytes of stack left below the caller's frame on this thread (SIZE_MAX when unknown).
size_t stack_remaining();

/// Total size of this thread's stack in bytes (0 when unknown).
size_t stack_size();

/// Throws MATLAB:recursionLimit ("Maximum recursion limit of 500 reached...") when fewer than
/// `reserve` bytes of stack are left, or when less than `keep_fraction` of the whole stack is
/// left (0.5: the caller may use at most half, leaving the rest to the walkers that later
/// recurse over what it built).
void check_stack_depth(size_t reserve = size_t{1} << 20, double keep_fraction = 0.0);

/// The MATLAB:recursionLimit error, as the interpreter raises it for deep function calls.
[[noreturn]] void throw_recursion_limit();

}  // namespace matfuse
