% Octave peer of W15 with Octave's own rand (the checksum agrees statistically only).
N = str2double(getenv('BENCH_N')); if isnan(N), N = 1e6; end
C = str2double(getenv('BENCH_C')); if isnan(C), C = 256; end
reps = str2double(getenv('BENCH_REPS')); if isnan(reps), reps = 3; end
rand('seed', 15);
X = rand(N, C, 'single');
times = zeros(1, reps);
for r = 1:reps
  t0 = tic;
  m = movmean(X, 64);
  s = movstd(X, 64);
  c = sum(m(:)) + sum(s(:));
  times(r) = toc(t0);
end
fprintf('checksum = %.6e\n', c);
fprintf('times_ms =%s\n', sprintf(' %.3f', 1000 * times));
