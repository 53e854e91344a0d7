% gbm.m: Monte Carlo pricing of a European call under geometric Brownian motion
rng(0);
M = 1000000; T = 256;
S0 = single(100); mu = single(0.05); sigma = single(0.20);
dt = single(1/252); K = single(100);
S = ones(M, 1, 'single') * S0;
drift = (mu - 0.5 * sigma^2) * dt;
scale = sigma * sqrt(dt);
for t = 1:T
  Z = randn(M, 1, 'single');
  S = S .* exp(drift + scale .* Z);
end
price = mean(max(S - K, 0)) * exp(-mu * T * dt);
fprintf('price = %.4f\n', price);
