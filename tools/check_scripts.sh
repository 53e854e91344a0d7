#!/usr/bin/env bash
# Runs every tests/scripts/*.m with the given matfuse binary and compares its output with the
# expected .out file; prints one FAIL line per mismatch and a summary. Extra environment (e.g.
# MATFUSE_LAZY_MIN=1 MATFUSE_DEVICE=gpu, to push every array operation through the fused path on
# the GPU) is taken from the caller.
#   tools/check_scripts.sh BUILD/matfuse [DIFF_DIR]
# MATFUSE_SKIP_SCRIPTS: names (without .m, space-separated) not run, e.g. by tools/sanitize.sh.
set -u
bin=$(realpath "$1")
diffdir=${2:-}
pass=0
fail=0
for s in "$(dirname "$0")"/../tests/scripts/*.m; do
  name=$(basename "$s" .m)
  [[ " ${MATFUSE_SKIP_SCRIPTS:-} " == *" $name "* ]] && continue
  out=$(cd "$(dirname "$s")" && timeout 120 "$bin" "$name.m" 2>&1)
  if [ "$out" == "$(cat "${s%.m}.out")" ]; then
    pass=$((pass + 1))
  else
    fail=$((fail + 1))
    echo "FAIL $name"
    if [ -n "$diffdir" ]; then
      diff <(echo "$out") "${s%.m}.out" > "$diffdir/$name.diff"
    fi
  fi
done
echo "scripts: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
