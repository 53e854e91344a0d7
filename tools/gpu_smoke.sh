#!/usr/bin/env bash
# GPU smoke test: runs examples/*.m and bench/workloads/w1..w4 (small sizes) with
# MATFUSE_DEVICE=gpu and MATFUSE_DEVICE=cpu, requires identical printed output (and, for the
# examples, the expected examples/NAME.out), and prints each run's --profile summary.
#   tools/gpu_smoke.sh BUILD_DIR
# Extra environment (e.g. MATFUSE_LAZY_MIN=1, MATFUSE_DUMP_KERNELS=1) is passed through.
# Exit status: 0 all identical, 1 a mismatch or a failed run, 2 usage error.
set -u
if [ $# -ne 1 ] || [ ! -x "$1/matfuse" ]; then
  echo "usage: $0 BUILD_DIR   (BUILD_DIR/matfuse must exist)" >&2
  exit 2
fi
bin=$(realpath "$1/matfuse")
root=$(cd "$(dirname "$0")/.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0

# Small workload sizes (bench/workloads/bench_param.m reads BENCH_<NAME>), one repetition.
export BENCH_REPS=1
export BENCH_N=1000000                           # w1
export BENCH_B=4 BENCH_H=256 BENCH_W=512         # w2
export BENCH_M=100000                            # w3 (and its T below)
export BENCH_C=100000                            # w4 (and its T below)

# run DIR SCRIPT DEVICE: stdout in $tmp/<script>.<device>.out (timing lines removed),
# stderr (profile) in $tmp/<script>.<device>.err. Returns matfuse's exit status.
run() {
  local dir=$1 script=$2 dev=$3 name rc
  name=$(basename "$script" .m)
  (cd "$dir" && MATFUSE_DEVICE=$dev timeout 300 "$bin" --profile "$script" \
     >"$tmp/$name.$dev.raw" 2>"$tmp/$name.$dev.err")
  rc=$?
  grep -v '^times_ms' "$tmp/$name.$dev.raw" >"$tmp/$name.$dev.out"
  return $rc
}

check() {
  local dir=$1 script=$2 expected=${3:-} name t0 t1 rc_g rc_c
  name=$(basename "$script" .m)
  echo "=== $name"
  t0=$(date +%s%N)
  run "$dir" "$script" gpu; rc_g=$?
  t1=$(date +%s%N)
  run "$dir" "$script" cpu; rc_c=$?
  echo "--- gpu run ($(( (t1 - t0) / 1000000 )) ms, exit $rc_g): profile"
  cat "$tmp/$name.gpu.err"
  echo "--- cpu run (exit $rc_c): profile"
  cat "$tmp/$name.cpu.err"
  if [ "$rc_g" -ne 0 ] || [ "$rc_c" -ne 0 ]; then
    echo "FAIL $name: exit status gpu $rc_g, cpu $rc_c"
    fail=1
  fi
  if ! diff "$tmp/$name.cpu.out" "$tmp/$name.gpu.out" >"$tmp/$name.diff"; then
    echo "FAIL $name: gpu output differs from cpu output (< cpu, > gpu):"
    cat "$tmp/$name.diff"
    fail=1
  fi
  if [ -n "$expected" ] && [ -f "$expected" ]; then
    if ! diff "$expected" "$tmp/$name.gpu.out" >"$tmp/$name.exp.diff"; then
      echo "FAIL $name: gpu output differs from $(basename "$expected") (< expected, > gpu):"
      cat "$tmp/$name.exp.diff"
      fail=1
    fi
  fi
  echo "--- output (gpu)"
  cat "$tmp/$name.gpu.out"
}

for s in "$root"/examples/*.m; do
  check "$root/examples" "$(basename "$s")" "${s%.m}.out"
done
for w in w1_chain w2_image w3_gbm w4_ema; do
  case $w in
    w3_gbm) export BENCH_T=64 ;;
    w4_ema) export BENCH_T=200 ;;
    *) unset BENCH_T ;;
  esac
  check "$root/bench/workloads" "$w.m"
done

if [ "$fail" -eq 0 ]; then
  echo "gpu smoke: all outputs identical"
else
  echo "gpu smoke: MISMATCHES (see FAIL lines)"
fi
exit "$fail"
