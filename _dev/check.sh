# Mid-session GPU check of the integration tree _int (untracked copy), results under $OUT.
set -u
tools/device-debs.sh unpack >/tmp/debs.log 2>&1 || tail -20 /tmp/debs.log
A=$(tools/device-debs.sh cmake-args)
cmake -S _int -B /tmp/bi -G Ninja -DCMAKE_BUILD_TYPE=Release $A >/tmp/bi.cfg 2>&1
cmake --build /tmp/bi -j16 >/tmp/bi.log 2>&1; echo "build rc $?"
grep -B3 -A12 "error:" /tmp/bi.log | head -60 | tee $OUT/build_errors.txt
ctest --test-dir /tmp/bi -L gpu -E GpuMathModes -j4 --output-on-failure --timeout 200 >$OUT/gpu_tests.txt 2>&1
grep -E "tests passed|Failed|\*\*\*" $OUT/gpu_tests.txt | head -40
for t in ${BENCH_ONLY:-}; do :; done
if [ -n "${BENCH_ONLY:-}" ]; then
  (cd _int && timeout ${BENCH_T:-240} bench/run --only $BENCH_ONLY --peers ${BENCH_PEERS:-jax,torch} --matfuse /tmp/bi/matfuse --reps 5 --budget $((${BENCH_T:-240}-20)) --json $OUT/bench.json) >$OUT/bench.txt 2>&1
  grep "^|" $OUT/bench.txt
fi
