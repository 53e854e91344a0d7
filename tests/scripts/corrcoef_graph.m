% corrcoef of a large matrix runs as cov's graph, scaled by the standard deviations and clamped
% to [-1, 1]: the diagonal is exactly 1, a constant column gives NaN, a perfectly correlated
% pair gives -1 (to rounding), and single data stays single.
rng(8);
X = randn(100000, 4);
X(:, 2) = -3 * X(:, 1);
X(:, 4) = 2.5;
R = corrcoef(X);
isequal(diag(R(1:3, 1:3)), [1; 1; 1])
[R(1, 2) R(2, 1)]
isequaln(isnan(R), logical([0 0 0 1; 0 0 0 1; 0 0 0 1; 1 1 1 1]))
all(abs(R(~isnan(R))) <= 1)
Rs = corrcoef(single(X(:, 1:3)));
class(Rs)
max(max(abs(double(Rs) - R(1:3, 1:3)))) < 1e-6
E = corrcoef(X(:, [1 3]));
abs(E(1, 2) - R(1, 3)) < 1e-12
