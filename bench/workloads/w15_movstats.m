% W15 sliding-window statistics: movmean(X, 64) and movstd(X, 64) down the columns of X
% (N x C single), MATLAB's shrinking windows at the ends.
N = bench_param('N', 1e6); C = bench_param('C', 256);
reps = bench_param('REPS', 3);
rng(15);
X = rand(N, C, 'single');
bench_force(X(1));  % materialise the input before the timed runs
times = zeros(1, reps);
for r = 1:reps
  t0 = tic;
  m = movmean(X, 64);
  s = movstd(X, 64);
  c = sum(m, 'all') + sum(s, 'all');
  c = bench_force(c);
  times(r) = toc(t0);
end
fprintf('checksum = %.6e\n', c);
fprintf('times_ms =%s\n', sprintf(' %.3f', 1000 * times));
