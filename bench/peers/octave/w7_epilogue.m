% Octave peer of W7 with Octave's own rand (statistical agreement); sum(C(:)) for sum(C, 'all').
n = str2double(getenv('BENCH_n')); if isnan(n), n = 8192; end
reps = str2double(getenv('BENCH_REPS')); if isnan(reps), reps = 3; end
rand('seed', 7);
A = rand(n, 'single'); B = rand(n, 'single'); b = rand(1, n, 'single');
times = zeros(1, reps);
for r = 1:reps
  t0 = tic;
  C = max((A * B) * 0.5 + b, 0);
  c = sum(C(:));
  times(r) = toc(t0);
end
fprintf('checksum = %.6e\n', c);
fprintf('times_ms =%s\n', sprintf(' %.3f', 1000 * times));
