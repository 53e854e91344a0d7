% image_normalize.m: per-image whitening, gain/bias, clamp and gamma on a batch of 4K frames
rng(1);
B = 16; H = 2160; W = 3840;
imgs = rand(B, H, W, 'single');
gain = single(1.0123); bias = single(-0.02); gamma = single(1.8); eps0 = single(1e-6);
mu = mean(imgs, [2 3]);
sigma = sqrt(mean((imgs - mu).^2, [2 3]) + eps0);
out = ((imgs - mu) ./ sigma) * gain + bias;
out = max(out, 0) .^ gamma;
err = out - imgs;
fprintf('mse = %.6e\n', mean(err .* err, 'all'));
