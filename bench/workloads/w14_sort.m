% W14 sort with indices: [s, i] = sort(x) of an N x 1 single vector. The checksum reads two
% order statistics and checks one index: x(i(k)) == s(k) adds 1.
N = bench_param('N', 1e8);
reps = bench_param('REPS', 5);
rng(14);
x = rand(N, 1, 'single');
times = zeros(1, reps);
for r = 1:reps
  t0 = tic;
  [s, i] = sort(x);
  k = round(N / 2);
  c = double(s(k)) + double(s(round(N / 10))) + double(x(i(k)) == s(k));
  c = bench_force(c);
  times(r) = toc(t0);
end
fprintf('checksum = %.6e\n', c);
fprintf('times_ms =%s\n', sprintf(' %.3f', 1000 * times));
