% Octave peer of W12 with Octave's own rand (statistical agreement); sum(A(:)) for sum(A, 'all').
n = str2double(getenv('BENCH_n')); if isnan(n), n = 8192; end
reps = str2double(getenv('BENCH_REPS')); if isnan(reps), reps = 3; end
rand('seed', 12);
B = rand(n, n, 'single');
times = zeros(1, reps);
for r = 1:reps
  t0 = tic;
  A = (B' * B) / n;
  c = sum(A(:));
  times(r) = toc(t0);
end
fprintf('checksum = %.6e\n', c);
fprintf('times_ms =%s\n', sprintf(' %.3f', 1000 * times));
