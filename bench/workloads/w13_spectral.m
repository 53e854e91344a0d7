% W13 spectral filter: y = real(ifft(fft(x) .* H)) along the columns of x (N x C single), with a
% real, conjugate-symmetric low-pass H (a Butterworth-like response of order 1).
N = bench_param('N', 2^20); C = bench_param('C', 64);
reps = bench_param('REPS', 3);
rng(13);
x = rand(N, C, 'single');
k = (0:N-1)';
f = min(k, N - k);
H = single(1 ./ (1 + (f / (N / 16)) .^ 2));
bench_force(x(1)); bench_force(H(1));  % materialise the inputs before the timed runs
times = zeros(1, reps);
for r = 1:reps
  t0 = tic;
  y = real(ifft(fft(x) .* H));
  c = sum(y, 'all');
  c = bench_force(c);
  times(r) = toc(t0);
end
fprintf('checksum = %.6e\n', c);
fprintf('times_ms =%s\n', sprintf(' %.3f', 1000 * times));
