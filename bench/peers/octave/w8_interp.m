% Octave peer of W8 (the same loop).
N = str2double(getenv('BENCH_N')); if isnan(N), N = 1e6; end
reps = str2double(getenv('BENCH_REPS')); if isnan(reps), reps = 1; end
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
