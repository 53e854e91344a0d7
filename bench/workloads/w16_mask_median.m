% W16 masked update and selection: X(X > t) = 0; m = median(X) on an N x 1 single vector
% (t = 0.8, so the median lies in the uniform part: about 0.3).
N = bench_param('N', 1e8);
reps = bench_param('REPS', 5);
rng(16);
X0 = rand(N, 1, 'single');
t = single(0.8);
times = zeros(1, reps);
for r = 1:reps
  t0 = tic;
  X = X0;
  X(X > t) = 0;
  m = median(X);
  c = bench_force(double(m));
  times(r) = toc(t0);
end
fprintf('checksum = %.6e\n', c);
fprintf('times_ms =%s\n', sprintf(' %.3f', 1000 * times));
