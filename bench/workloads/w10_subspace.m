% W10 subspace iteration: S steps of Q = G*Q followed by an economy QR, then the Rayleigh
% quotients ev = diag(Q'*G*Q) of the k-dimensional subspace. G (symmetric, D x D) and the start
% Q0 (D x k) are generated once, outside the timed region. The checksum is sum(abs(ev)): the
% subspace holds the eigenvalues of largest magnitude, of both signs.
D = bench_param('D', 4096); k = bench_param('k', 64); S = bench_param('S', 50);
reps = bench_param('REPS', 5);
rng(10);
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
  c = bench_force(sum(abs(ev)));
  times(r) = toc(t0);
end
fprintf('checksum = %.6e\n', c);
fprintf('times_ms =%s\n', sprintf(' %.3f', 1000 * times));
