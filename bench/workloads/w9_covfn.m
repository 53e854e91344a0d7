% W9 cov builtin: C = cov(X) of a tall random matrix with a non-zero column mean (0.5), then
% sum(C, 'all'). The random input is generated once, outside the timed region (as in W5).
N = bench_param('N', 2e6); D = bench_param('D', 256);
reps = bench_param('REPS', 5);
rng(9);
X = rand(N, D, 'single');
times = zeros(1, reps);
for r = 1:reps
  t0 = tic;
  C = cov(X);
  c = sum(C, 'all');
  c = bench_force(c);
  times(r) = toc(t0);
end
fprintf('checksum = %.6e\n', c);
fprintf('times_ms =%s\n', sprintf(' %.3f', 1000 * times));
