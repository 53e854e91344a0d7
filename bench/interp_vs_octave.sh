#!/usr/bin/env bash
# Times the W8 interpreter loop under matfuse (N = 1e7) and GNU Octave (N = 1e6, scaled by 10)
# and prints the per-iteration ratio. Usage: bench/interp_vs_octave.sh [path/to/matfuse]
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
matfuse=${1:-$here/../build/matfuse}
w=$here/workloads/w8_interp.m
now() { date +%s.%N; }
t0=$(now); out_m=$(MATFUSE_BENCH_N=10000000 "$matfuse" "$w"); t1=$(now)
echo "matfuse  N=1e7: $out_m  ($(echo "$t1 - $t0" | bc -l | xargs printf '%.3f') s)"
if command -v octave-cli >/dev/null; then
  t2=$(now); out_o=$(MATFUSE_BENCH_N=1000000 octave-cli --no-gui -q --norc "$w"); t3=$(now)
  echo "octave   N=1e6: $out_o  ($(echo "$t3 - $t2" | bc -l | xargs printf '%.3f') s)"
  echo "per-iteration speedup over Octave: $(echo "(($t3 - $t2) * 10) / ($t1 - $t0)" | bc -l | xargs printf '%.1f')x"
else
  echo "octave-cli not installed: no comparison"
fi
