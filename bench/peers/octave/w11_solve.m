% Octave peer of W11 (single) with Octave's own rand (statistical agreement).
n = str2double(getenv('BENCH_n')); if isnan(n), n = 8192; end
K = str2double(getenv('BENCH_K')); if isnan(K), K = 64; end
reps = str2double(getenv('BENCH_REPS')); if isnan(reps), reps = 3; end
rand('seed', 11);
A = rand(n, 'single') + n * eye(n, 'single');
B = rand(n, K, 'single');
times = zeros(1, reps);
for r = 1:reps
  t0 = tic;
  X = A \ B;
  c = sum(X(:));
  times(r) = toc(t0);
end
fprintf('checksum = %.6e\n', c);
fprintf('times_ms =%s\n', sprintf(' %.3f', 1000 * times));
