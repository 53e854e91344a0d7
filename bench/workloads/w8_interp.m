% W8 interpreter: a scalar loop that exercises variable access, arithmetic and builtin calls.
N = bench_param('N', 1e7);
reps = bench_param('REPS', 3);
times = zeros(1, reps);
for r = 1:reps
  t0 = tic;
  s = 0;
  for i = 1:N
    s = s + sqrt(i) * mod(i, 7);
  end
  times(r) = toc(t0);
end
fprintf('checksum = %.10e\n', s);
fprintf('times_ms =%s\n', sprintf(' %.3f', 1000 * times));
