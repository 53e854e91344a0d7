% W1 chain: a long elementwise chain over a ramp, consumed by a sum.
N = bench_param('N', 1e7);
reps = bench_param('REPS', 5);
times = zeros(1, reps);
for r = 1:reps
  t0 = tic;
  x = single(linspace(0, 4*pi, N));
  y0 = sin(x) .* exp(-x / 10);
  y1 = y0 .* cos(x / 4) + 0.25 * y0 .^ 2;
  y2 = tanh(y1) + 0.1 * y1;
  c = sum(y2, 'double');
  c = bench_force(c);
  times(r) = toc(t0);
end
fprintf('checksum = %.6e\n', c);
fprintf('times_ms =%s\n', sprintf(' %.3f', 1000 * times));
