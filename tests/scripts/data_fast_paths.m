% The fast paths of mode (counting integer data), prctile (order statistics by selection),
% trapz (uniform spacing), conv (direct and FFT, every shape) and accumarray, on inputs that
% exercise their edges: NaN, negative and tied values, long and short kernels.
x = [4 -2 7 -2 4 NaN 9 4 -2 NaN];
[m, f, c] = mode(x); disp(m), disp(f), disp(c{1})
disp(mode([5 5 1e9 1e9 3]))
disp(mode([2.5 2.5 1 1]))
disp(mode(magic(4) > 8))
disp(mode([1 2; 1 3; 4 3], 2)')
p = prctile([10 1 7 3 NaN 8 2 9 5 4 6], [0 10 33 50 90 100]);
fprintf('%.4f ', p); fprintf('\n');
fprintf('%.4f ', quantile((1:20).^2, [0.25 0.5 0.75])); fprintf('\n');
fprintf('%.4f\n', trapz((1:1001).^0.5));
fprintf('%.4f\n', trapz(0.25, sin(0:0.25:10)));
fprintf('%.4f ', trapz([1 2; 3 5; 8 13])); fprintf('\n');
u = sin(0:0.01:30); v = cos(0:0.05:5);
fprintf('%.6f ', sum(conv(u, v)), sum(conv(u, v, 'same')), sum(conv(u, v, 'valid'))); fprintf('\n');
w = ones(1, 200) / 200;
y = conv(u, w, 'same');
fprintf('%d %.6f %.6f\n', numel(y), y(1), y(1500));
fprintf('%.6f ', conv([1 2 3], [0.5; 0.25], 'valid'), conv([1; 2; 3], [1 2 3 4 5], 'same')'); fprintf('\n');
disp(accumarray([3; 1; 3; 2], [1; 2; 3; 4])')
disp(accumarray([1 2; 2 1; 1 2], [10; 20; 30]))
% A row of subscripts is one N-D subscript (a column of subscripts indexes a column).
disp(accumarray([2 3], 5))
disp(accumarray([1; 2; 2], [1; 2; 3])')
disp(accumarray([4; 1], 2)')
