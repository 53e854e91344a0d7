% W17 block fill: a B x H x W single array filled by blocks of 16 rows in a loop, as RunMat's
% 4K image-processing script does (imgs(b, rows, :) = chunk, the chunk a 32-bit LCG of the
% element's linear position), then normalised per image (W2's math) and summarised by a MSE.
B = bench_param('B', 16); H = bench_param('H', 2160); W = bench_param('W', 3840);
reps = bench_param('REPS', 5);
seed = 42; row_block = 16;
gain = single(1.0123); bias = single(-0.02); gamma = single(1.8); eps0 = single(1e-6);
times = zeros(1, reps);
for r = 1:reps
  t0 = tic;
  imgs = zeros(B, H, W, 'single');
  plane = H * W;
  x_idx = reshape(0:(W - 1), [1 1 W]);
  for b = 1:B
    batch_offset = (b - 1) * plane + seed;
    row_start = 1;
    while row_start <= H
      row_count = min(row_block, H - row_start + 1);
      rows = row_start:(row_start + row_count - 1);
      y_idx = reshape((row_start - 1):(row_start + row_count - 2), [1 row_count 1]);
      idx = batch_offset + y_idx * W + x_idx;
      state = mod(1664525 .* idx + 1013904223, 4294967296);
      chunk = single(state) ./ single(4294967296);
      imgs(b, rows, :) = chunk;
      row_start = row_start + row_count;
    end
  end
  mu = mean(imgs, [2 3], 'native');
  sigma = sqrt(mean((imgs - mu).^2, [2 3], 'native') + eps0);
  out = ((imgs - mu) ./ sigma) * gain + bias;
  out = max(out, single(0));
  out = out .^ gamma;
  err = out - imgs;
  c = mean(err .* err, 'all');
  c = bench_force(c);
  times(r) = toc(t0);
end
fprintf('checksum = %.6e\n', c);
fprintf('times_ms =%s\n', sprintf(' %.3f', 1000 * times));
