% W6 power iteration: K normalised matrix-vector steps on a symmetric random matrix, then the
% Rayleigh quotient. The matrix is generated once, outside the timed region.
D = bench_param('D', 8192); K = bench_param('K', 100);
reps = bench_param('REPS', 5);
rng(6);
A = rand(D, 'single');
A = A + A';
times = zeros(1, reps);
for r = 1:reps
  t0 = tic;
  v = ones(D, 1, 'single');
  for k = 1:K
    v = A * v;
    v = v / norm(v);
  end
  lambda = v' * (A * v);
  lambda = bench_force(lambda);
  times(r) = toc(t0);
end
fprintf('checksum = %.6e\n', lambda);
fprintf('times_ms =%s\n', sprintf(' %.3f', 1000 * times));
