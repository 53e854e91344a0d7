#!/usr/bin/env bash
# The sanitizer CI stage: builds matfuse with clang under AddressSanitizer and
# UndefinedBehaviorSanitizer (and libFuzzer coverage) in build-asan/, then runs the unit tests,
# the script and error tests and a short run of each libFuzzer target there.
#
# Usage: tools/sanitize.sh [--build-only] [ctest args...]
# Skips itself (exit 0, with a message) when clang or its libFuzzer/ASan runtime is missing:
# tools/install-deps.sh --test installs them (clang, libclang-rt-dev).
# Measured on a 2-core machine: see README.md ("Tests").
set -euo pipefail
cd "$(dirname "$0")/.."
cc=${MATFUSE_SANITIZE_CC:-clang}
cxx=${MATFUSE_SANITIZE_CXX:-clang++}
if ! command -v "$cxx" >/dev/null; then
  echo "sanitize: $cxx not found; skipping the sanitizer build" >&2
  exit 0
fi
probe=$(mktemp -d)
trap 'rm -rf "$probe"' EXIT
printf 'extern "C" int LLVMFuzzerTestOneInput(const unsigned char*, unsigned long) {return 0;}\n' \
  >"$probe/p.cc"
if ! "$cxx" -fsanitize=fuzzer,address,undefined "$probe/p.cc" -o "$probe/p" 2>/dev/null; then
  echo "sanitize: $cxx cannot link -fsanitize=fuzzer,address,undefined (libclang-rt-dev?);" \
       "skipping the sanitizer build" >&2
  exit 0
fi
build_only=0
if [[ ${1:-} == --build-only ]]; then build_only=1; shift; fi
# -O1 -g: ASan's recommended setting (fast enough, exact stack traces).
cmake -S . -B build-asan -G Ninja -DCMAKE_BUILD_TYPE=Debug -DCMAKE_C_COMPILER="$cc" \
  -DCMAKE_CXX_COMPILER="$cxx" -DCMAKE_C_FLAGS_DEBUG="-O1 -g" -DCMAKE_CXX_FLAGS_DEBUG="-O1 -g" \
  -DMATFUSE_SANITIZE=address,undefined -DMATFUSE_FUZZ=ON -DMATFUSE_GPU_TESTS=OFF >/dev/null
cmake --build build-asan -j"${MATFUSE_JOBS:-2}"
((build_only)) && exit 0
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=0:allocator_may_return_null=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
# ASan's stack frames are several times larger than a Release build's: the parser's nesting
# tests (1,000 levels on the main thread's stack, 8 MiB by default) get a 60 MiB stack, below
# the 64 MiB up to which ASan clears a stack's poisoning when an exception unwinds it.
ulimit -s 61440 2>/dev/null || echo "sanitize: cannot raise the stack limit; deep-nesting tests may fail" >&2
# Unit, script and error tests and the fuzz runs; not the Octave comparisons, the full-size
# examples or the GPU label (their code paths are the same as the script tests'). Also left out:
# - providers.CudaCodegen.*: each compiles generated device code with g++ through a host shim
#   (uninstrumented); under ASan one of them alone takes over 20 minutes on 2 cores.
# - script.recursion_limits (also in scripts.all_fused): it recurses until the guard throws
#   MATLAB:recursionLimit hundreds of MiB deep on the interpreter's 1 GiB stack; ASan does not
#   clear the poisoning of a stack unwound from deeper than 64 MiB and then reports false stack
#   errors (https://github.com/google/sanitizers/issues/189).
export MATFUSE_SKIP_SCRIPTS=${MATFUSE_SKIP_SCRIPTS:-recursion_limits}
ctest --test-dir build-asan -j"${MATFUSE_JOBS:-2}" --output-on-failure -L 'unit|scripts|errors|fuzz' \
  -E '^(gpu\.|fuzz\.eager_vs_fused|providers\.CudaCodegen\.|script\.recursion_limits$)' \
  "$@"
