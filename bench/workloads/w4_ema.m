% W4 ema: an exponential moving average over the columns of a random matrix.
C = bench_param('C', 1e6); T = bench_param('T', 4000);
reps = bench_param('REPS', 3);
rng(2);
X = randn(C, T, 'single');
times = zeros(1, reps);
for r = 1:reps
  t0 = tic;
  y = zeros(C, 1, 'single'); a = single(0.01);
  for t = 1:T
    y = a * X(:, t) + (1 - a) * y;
  end
  c = sum(y);
  c = bench_force(c);
  times(r) = toc(t0);
end
fprintf('checksum = %.6e\n', c);
fprintf('times_ms =%s\n', sprintf(' %.3f', 1000 * times));
