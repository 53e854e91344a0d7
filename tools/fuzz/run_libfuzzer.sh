#!/usr/bin/env bash
# Runs one libFuzzer target (built by tools/sanitize.sh into build-asan/tests/fuzz/) for a
# number of seconds over a fresh corpus seeded from the given folders, with a per-input time
# limit and a memory limit. Exit status 0 when nothing was found; otherwise libFuzzer's status,
# and the crashing input is left in the working folder (crash-*, timeout-*, oom-*): make it a
# regression test.
#
# Usage: tools/fuzz/run_libfuzzer.sh FUZZ_BINARY SECONDS SEED_DIR...
# Long runs (an hour per target, on all cores, keeping the corpus):
#   tools/sanitize.sh --build-only
#   for t in parse interp matload textread sprintf; do
#     MATFUSE_FUZZ_CORPUS=$HOME/fuzz-corpus/$t MATFUSE_FUZZ_JOBS=$(nproc) MATFUSE_FUZZ_SEED=0 \
#       tools/fuzz/run_libfuzzer.sh build-asan/tests/fuzz/fuzz_$t 3600 tests/scripts tests/errors
#   done
# (MATFUSE_FUZZ_CORPUS: a folder kept between runs; MATFUSE_FUZZ_JOBS: parallel fuzzing jobs;
# MATFUSE_FUZZ_ARTIFACTS: where findings go (a folder with a trailing /, or a file prefix);
# MATFUSE_FUZZ_TIMEOUT: seconds one input may run, default 20: raise it on a loaded machine, where
# the slowest test scripts take that long under the sanitizers; MATFUSE_FUZZ_SEED: libFuzzer's
# seed, default 1 so that CI's short runs are the same everywhere, 0 for a random one.)
set -euo pipefail
bin=$1 secs=$2
shift 2
corpus=${MATFUSE_FUZZ_CORPUS:-}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
if [[ -z $corpus ]]; then corpus=$tmp/corpus; fi
mkdir -p "$corpus"
for d in "$@"; do
  [[ -d $d ]] || continue
  find "$d" -maxdepth 1 -type f \( -name '*.m' -o -name '*.mat' -o -name '*.csv' -o \
       -name '*.txt' -o -name '*.fmt' \) -size -64k -exec cp {} "$corpus"/ \;
done
jobs=${MATFUSE_FUZZ_JOBS:-1}
artifacts=${MATFUSE_FUZZ_ARTIFACTS:-$PWD/}
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=0:allocator_may_return_null=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
# A fixed seed by default (MATFUSE_FUZZ_SEED; 0 lets libFuzzer pick one): the short CI runs then
# replay the same mutations on every machine, and a long run is repeatable.
args=(-seed="${MATFUSE_FUZZ_SEED:-1}" -max_total_time="$secs" -timeout="${MATFUSE_FUZZ_TIMEOUT:-20}" -rss_limit_mb=3072 -max_len=4096
      -artifact_prefix="$artifacts" -print_final_stats=1)
if ((jobs > 1)); then args+=(-jobs="$jobs" -workers="$jobs"); fi
"$bin" "${args[@]}" "$corpus"
