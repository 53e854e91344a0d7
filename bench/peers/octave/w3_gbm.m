% Octave peer of W3 with Octave's own randn (the price agrees within Monte Carlo error).
M = str2double(getenv('BENCH_M')); if isnan(M), M = 1e6; end
T = str2double(getenv('BENCH_T')); if isnan(T), T = 256; end
reps = str2double(getenv('BENCH_REPS')); if isnan(reps), reps = 3; end
S0 = single(100); mu = single(0.05); sigma = single(0.20);
dt = single(1/252); K = single(100);
drift = (mu - 0.5 * sigma^2) * dt;
scale = sigma * sqrt(dt);
times = zeros(1, reps);
for r = 1:reps
  randn('seed', 0);
  t0 = tic;
  S = ones(M, 1, 'single') * S0;
  for t = 1:T
    Z = randn(M, 1, 'single');
    S = S .* exp(drift + scale .* Z);
  end
  price = mean(max(S - K, 0)) * exp(-mu * T * dt);
  times(r) = toc(t0);
end
fprintf('checksum = %.6e\n', price);
fprintf('times_ms =%s\n', sprintf(' %.3f', 1000 * times));
