% Octave peer of W6 with Octave's own rand (statistical agreement).
D = str2double(getenv('BENCH_D')); if isnan(D), D = 8192; end
K = str2double(getenv('BENCH_K')); if isnan(K), K = 100; end
reps = str2double(getenv('BENCH_REPS')); if isnan(reps), reps = 3; end
rand('seed', 6);
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
  times(r) = toc(t0);
end
fprintf('checksum = %.6e\n', lambda);
fprintf('times_ms =%s\n', sprintf(' %.3f', 1000 * times));
