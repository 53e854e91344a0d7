set -u
tools/device-debs.sh unpack >/tmp/debs.log 2>&1 || tail -20 /tmp/debs.log
grep -i "unresolved\|not found" /tmp/debs.log | head
A=$(tools/device-debs.sh cmake-args)
([ -x /tmp/bb/matfuse ] || (cmake -S _before -B /tmp/bb -G Ninja -DCMAKE_BUILD_TYPE=Release >/dev/null && cmake --build /tmp/bb -j6 --target matfuse >/tmp/bb.log 2>&1); echo before ok) &
(rm -rf /tmp/ba; cmake -S . -B /tmp/ba -G Ninja -DCMAKE_BUILD_TYPE=Release $A >/tmp/ba.cfg 2>&1 && cmake --build /tmp/ba -j10 >/tmp/ba.log 2>&1; echo after rc $?; tail -3 /tmp/ba.log) &
wait
grep -i "pcre\|matio\|readline\|cairo\|fftw" /tmp/ba.cfg | head
/tmp/ba/matfuse --version | head -30
ctest --test-dir /tmp/ba -L gpu -j3 --output-on-failure 2>&1 | tail -30
for r in 1 2; do
  for t in ba bb; do
    echo "== bench $t run $r"
    timeout 200 bench/run --only w1,w2,w3,w4,w5,w6,w7 --peers none --matfuse /tmp/$t/matfuse --reps 10 --budget 180 --json $OUT/bench_${t}_$r.json 2>&1 | grep -E "^ *w[0-9]|matfuse" | head -20
  done
done
