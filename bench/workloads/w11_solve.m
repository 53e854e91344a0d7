% W11 dense solve X = A \ B with n x n A and K right-hand sides, in single: A = rand(n) + n*I is
% diagonally dominant and not symmetric, so mldivide takes its LU path (with MATLAB's structure
% checks and RCOND estimate). A and B are generated once, outside the timed region; the checksum
% is sum(X(:)) (about sum(B(:)) / (1.5 n) for any random A of this kind).
n = bench_param('n', 8192); K = bench_param('K', 64);
reps = bench_param('REPS', 5);
rng(11);
A = rand(n, 'single') + n * eye(n, 'single');
B = rand(n, K, 'single');
times = zeros(1, reps);
for r = 1:reps
  t0 = tic;
  X = A \ B;
  c = bench_force(sum(X, 'all'));
  times(r) = toc(t0);
end
fprintf('checksum = %.6e\n', c);
fprintf('times_ms =%s\n', sprintf(' %.3f', 1000 * times));
