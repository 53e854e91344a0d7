% W12 Gram product with a scalar: A = (B' * B) / n of a square random matrix, then
% sum(A, 'all'). The random input is generated once, outside the timed region.
n = bench_param('n', 8192);
reps = bench_param('REPS', 5);
rng(12);
B = rand(n, n, 'single');
times = zeros(1, reps);
for r = 1:reps
  t0 = tic;
  A = (B' * B) / n;
  c = sum(A, 'all');
  c = bench_force(c);
  times(r) = toc(t0);
end
fprintf('checksum = %.6e\n', c);
fprintf('times_ms =%s\n', sprintf(' %.3f', 1000 * times));
