% Octave peer of W2: Octave 7 has no vector-dims mean, so mean(mean(., 2), 3); Octave's own
% rand (the checksum agrees statistically, not bit for bit).
B = str2double(getenv('BENCH_B')); if isnan(B), B = 16; end
H = str2double(getenv('BENCH_H')); if isnan(H), H = 2160; end
W = str2double(getenv('BENCH_W')); if isnan(W), W = 3840; end
reps = str2double(getenv('BENCH_REPS')); if isnan(reps), reps = 5; end
rand('seed', 1);
imgs = rand(B, H, W, 'single');
gain = single(1.0123); bias = single(-0.02); gamma = single(1.8); eps0 = single(1e-6);
times = zeros(1, reps);
for r = 1:reps
  t0 = tic;
  mu = mean(mean(imgs, 2), 3);
  sigma = sqrt(mean(mean((imgs - mu).^2, 2), 3) + eps0);
  out = ((imgs - mu) ./ sigma) * gain + bias;
  out = max(out, 0) .^ gamma;
  err = out - imgs;
  c = mean(err(:) .* err(:));
  times(r) = toc(t0);
end
fprintf('checksum = %.6e\n', c);
fprintf('times_ms =%s\n', sprintf(' %.3f', 1000 * times));
