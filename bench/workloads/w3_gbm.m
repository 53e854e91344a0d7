% W3 gbm: Monte Carlo pricing of a European call under geometric Brownian motion.
M = bench_param('M', 1e6); T = bench_param('T', 256);
reps = bench_param('REPS', 3);
S0 = single(100); mu = single(0.05); sigma = single(0.20);
dt = single(1/252); K = single(100);
drift = (mu - 0.5 * sigma^2) * dt;
scale = sigma * sqrt(dt);
times = zeros(1, reps);
for r = 1:reps
  rng(0);
  t0 = tic;
  S = ones(M, 1, 'single') * S0;
  for t = 1:T
    Z = randn(M, 1, 'single');
    S = S .* exp(drift + scale .* Z);
  end
  price = mean(max(S - K, 0)) * exp(-mu * T * dt);
  price = bench_force(price);
  times(r) = toc(t0);
end
fprintf('checksum = %.6e\n', price);
fprintf('times_ms =%s\n', sprintf(' %.3f', 1000 * times));
