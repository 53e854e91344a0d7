% W7 matmul epilogue: a square product followed by scale, row-vector bias and ReLU.
% The operands are generated once, outside the timed region.
n = bench_param('n', 8192);
reps = bench_param('REPS', 5);
rng(7);
A = rand(n, 'single'); B = rand(n, 'single'); b = rand(1, n, 'single');
times = zeros(1, reps);
for r = 1:reps
  t0 = tic;
  C = max((A * B) * 0.5 + b, 0);
  c = sum(C, 'all');
  c = bench_force(c);
  times(r) = toc(t0);
end
fprintf('checksum = %.6e\n', c);
fprintf('times_ms =%s\n', sprintf(' %.3f', 1000 * times));
