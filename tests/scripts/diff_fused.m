% diff of real single and double data: the graph's x(2:end) - x(1:end-1) for large arrays
% (fused with its neighbours), the eager loop for small ones; both in the data's class.
x = single([1 4 9 16 25]);
d1 = double(diff(x))
d2 = double(diff(x, 2))
class(diff(x, 2))
A = [1 2 4; 7 11 16];
diff(A)
diff(A, 1, 2)
diff(A, 2, 2)
rng(3);
y = rand(300000, 3);
% Large: captured; compare with the explicit slices and with the small-array loop per column.
d = diff(y);
isequal(d, y(2:end, :) - y(1:end-1, :))
isequal(d(1:5, 2), diff(y(1:6, 2)))
e = diff(y, 1, 2);
isequal(e, y(:, 2:3) - y(:, 1:2))
s = single(y);
f = diff(s, 2);
class(f)
isequal(f, (s(3:end, :) - s(2:end-1, :)) - (s(2:end-1, :) - s(1:end-2, :)))
% Fused with a consumer: the sum of squared steps.
r = sum(diff(y(:, 1)).^2);
abs(r - sum((y(2:end, 1) - y(1:end-1, 1)).^2)) < 1e-9
