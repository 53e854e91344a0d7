% chain.m: a long elementwise chain over a ramp, consumed by a sum
N = 10000000;
x = single(linspace(0, 4*pi, N));
y0 = sin(x) .* exp(-x / 10);
y1 = y0 .* cos(x / 4) + 0.25 * y0 .^ 2;
y2 = tanh(y1) + 0.1 * y1;
fprintf('checksum = %.6e\n', sum(y2, 'double'));
