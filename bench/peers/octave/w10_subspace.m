% Octave peer of W10 with Octave's own rand (statistical agreement).
D = str2double(getenv('BENCH_D')); if isnan(D), D = 4096; end
k = str2double(getenv('BENCH_k')); if isnan(k), k = 64; end
S = str2double(getenv('BENCH_S')); if isnan(S), S = 50; end
reps = str2double(getenv('BENCH_REPS')); if isnan(reps), reps = 3; end
rand('seed', 10);
A = rand(D, 'single');
G = A + A';
Q0 = rand(D, k, 'single');
times = zeros(1, reps);
for r = 1:reps
  t0 = tic;
  Q = Q0;
  for s = 1:S
    Q = G * Q;
    [Q, ~] = qr(Q, 0);
  end
  ev = diag(Q' * G * Q);
  c = sum(abs(ev));
  times(r) = toc(t0);
end
fprintf('checksum = %.6e\n', c);
fprintf('times_ms =%s\n', sprintf(' %.3f', 1000 * times));
