% Octave peer of W19: the same Poisson matrix (delsq(numgrid('S', k))), x = A \ b.
k = str2double(getenv('BENCH_k')); if isnan(k), k = 1002; end
reps = str2double(getenv('BENCH_REPS')); if isnan(reps), reps = 3; end
A = delsq(numgrid('S', k));
b = ones(size(A, 1), 1);
times = zeros(1, reps);
for r = 1:reps
  t0 = tic;
  x = A \ b;
  c = sum(x);
  times(r) = toc(t0);
end
fprintf('checksum = %.6e\n', c);
fprintf('times_ms =%s\n', sprintf(' %.3f', 1000 * times));
