% Octave peer of W4 with Octave's own randn (the checksum agrees statistically only).
C = str2double(getenv('BENCH_C')); if isnan(C), C = 1e6; end
T = str2double(getenv('BENCH_T')); if isnan(T), T = 4000; end
reps = str2double(getenv('BENCH_REPS')); if isnan(reps), reps = 3; end
randn('seed', 2);
X = randn(C, T, 'single');
times = zeros(1, reps);
for r = 1:reps
  t0 = tic;
  y = zeros(C, 1, 'single'); a = single(0.01);
  for t = 1:T
    y = a * X(:, t) + (1 - a) * y;
  end
  c = sum(y);
  times(r) = toc(t0);
end
fprintf('checksum = %.6e\n', c);
fprintf('times_ms =%s\n', sprintf(' %.3f', 1000 * times));
