% Octave peer of W1 (identical math; Octave runs the .m workload's code as is except tic/toc ids).
N = str2double(getenv('BENCH_N')); if isnan(N), N = 1e7; end
reps = str2double(getenv('BENCH_REPS')); if isnan(reps), reps = 5; end
times = zeros(1, reps);
for r = 1:reps
  t0 = tic;
  x = single(linspace(0, 4*pi, N));
  y0 = sin(x) .* exp(-x / 10);
  y1 = y0 .* cos(x / 4) + 0.25 * y0 .^ 2;
  y2 = tanh(y1) + 0.1 * y1;
  c = sum(double(y2));
  times(r) = toc(t0);
end
fprintf('checksum = %.6e\n', c);
fprintf('times_ms =%s\n', sprintf(' %.3f', 1000 * times));
