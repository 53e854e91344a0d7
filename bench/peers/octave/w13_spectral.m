% Octave peer of W13 with Octave's own rand (the checksum agrees statistically only).
N = str2double(getenv('BENCH_N')); if isnan(N), N = 2^20; end
C = str2double(getenv('BENCH_C')); if isnan(C), C = 64; end
reps = str2double(getenv('BENCH_REPS')); if isnan(reps), reps = 3; end
rand('seed', 13);
x = rand(N, C, 'single');
k = (0:N-1)';
f = min(k, N - k);
H = single(1 ./ (1 + (f / (N / 16)) .^ 2));
times = zeros(1, reps);
for r = 1:reps
  t0 = tic;
  y = real(ifft(fft(x) .* H));
  c = sum(y(:));
  times(r) = toc(t0);
end
fprintf('checksum = %.6e\n', c);
fprintf('times_ms =%s\n', sprintf(' %.3f', 1000 * times));
