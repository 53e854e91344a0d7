% Octave peer of W9 with Octave's own rand (statistical agreement); sum(C(:)) for sum(C, 'all').
N = str2double(getenv('BENCH_N')); if isnan(N), N = 2e6; end
D = str2double(getenv('BENCH_D')); if isnan(D), D = 256; end
reps = str2double(getenv('BENCH_REPS')); if isnan(reps), reps = 3; end
rand('seed', 9);
X = rand(N, D, 'single');
times = zeros(1, reps);
for r = 1:reps
  t0 = tic;
  C = cov(X);
  c = sum(C(:));
  times(r) = toc(t0);
end
fprintf('checksum = %.6e\n', c);
fprintf('times_ms =%s\n', sprintf(' %.3f', 1000 * times));
