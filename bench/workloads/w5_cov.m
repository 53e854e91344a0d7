% W5 covariance: column means, centring and the Gram matrix of a tall random matrix.
% The random input is generated once, outside the timed region (as in W2 and W4).
N = bench_param('N', 2e6); D = bench_param('D', 256);
reps = bench_param('REPS', 5);
rng(5);
X = rand(N, D, 'single');
times = zeros(1, reps);
for r = 1:reps
  t0 = tic;
  mu = mean(X);
  Xc = X - mu;
  C = (Xc' * Xc) / (N - 1);
  c = sum(C, 'all');
  c = bench_force(c);
  times(r) = toc(t0);
end
fprintf('checksum = %.6e\n', c);
fprintf('times_ms =%s\n', sprintf(' %.3f', 1000 * times));
