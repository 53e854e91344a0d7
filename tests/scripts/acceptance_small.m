% small versions of the acceptance workloads (chain, image normalisation, GBM), consumed as checksums
N = 100000;
x = single(linspace(0, 4*pi, N));
y0 = sin(x) .* exp(-x / 10);
y1 = y0 .* cos(x / 4) + 0.25 * y0 .^ 2;
y2 = tanh(y1) + 0.1 * y1;
fprintf('chain %.4e\n', sum(y2, 'double'));

imgs = reshape(single(mod(0:(2*6*8-1), 17)) / 16, 2, 6, 8);
mu = mean(imgs, [2 3]);
sigma = sqrt(mean((imgs - mu).^2, [2 3]) + single(1e-6));
out = ((imgs - mu) ./ sigma) * single(1.0123) + single(-0.02);
out = max(out, 0) .^ single(1.8);
err = out - imgs;
fprintf('image %.4e %s\n', mean(err .* err, 'all'), class(err));

S = ones(4, 1, 'single') * single(100);
for t = 1:8
  S = S .* exp(single(0.001) + single(0.01) .* single([-1; 0; 1; 2]) * (-1)^t);
end
fprintf('gbm %.4f %s\n', mean(max(S - 100, 0)), class(S));
