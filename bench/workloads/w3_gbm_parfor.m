% W3 gbm with parfor: the Monte Carlo paths of w3_gbm.m split into B blocks, one parfor
% iteration each. Each block seeds the generator with its own index, so the price does not
% depend on how many workers run the blocks (a pool of mpirun's ranks, parpool's workers, or
% none: the serial loop). Run on N ranks with `mpirun -np N matfuse w3_gbm_parfor.m`.
M = bench_param('M', 1e6); T = bench_param('T', 256);
B = bench_param('B', 8);
reps = bench_param('REPS', 3);
S0 = single(100); mu = single(0.05); sigma = single(0.20);
dt = single(1/252); K = single(100);
drift = (mu - 0.5 * sigma^2) * dt;
scale = sigma * sqrt(dt);
per_block = ceil(M / B);
times = zeros(1, reps);
for r = 1:reps
  t0 = tic;
  total = 0;
  parfor b = 1:B
    rng(b);
    S = ones(per_block, 1, 'single') * S0;
    for t = 1:T
      Z = randn(per_block, 1, 'single');
      S = S .* exp(drift + scale .* Z);
    end
    total = total + double(sum(max(S - K, 0)));
  end
  price = total / (per_block * B) * exp(-double(mu) * double(T) * double(dt));
  price = bench_force(price);
  times(r) = toc(t0);
end
fprintf('checksum = %.6e\n', price);
fprintf('times_ms =%s\n', sprintf(' %.3f', 1000 * times));
