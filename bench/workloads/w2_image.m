% W2 image: per-image whitening, gain/bias, clamp and gamma on a batch of frames.
B = bench_param('B', 16); H = bench_param('H', 2160); W = bench_param('W', 3840);
reps = bench_param('REPS', 5);
rng(1);
imgs = rand(B, H, W, 'single');
gain = single(1.0123); bias = single(-0.02); gamma = single(1.8); eps0 = single(1e-6);
times = zeros(1, reps);
for r = 1:reps
  t0 = tic;
  mu = mean(imgs, [2 3]);
  sigma = sqrt(mean((imgs - mu).^2, [2 3]) + eps0);
  out = ((imgs - mu) ./ sigma) * gain + bias;
  out = max(out, 0) .^ gamma;
  err = out - imgs;
  c = mean(err .* err, 'all');
  c = bench_force(c);
  times(r) = toc(t0);
end
fprintf('checksum = %.6e\n', c);
fprintf('times_ms =%s\n', sprintf(' %.3f', 1000 * times));
