% atan2d, beta, betaln, ellipke, factor, skewness, kurtosis, mad, iqr, psi, Bessel functions,
% legendre, poly, polyvalm, sqrtm, schur, hess, planerot, normest, bandwidth, detrend (checked
% against GNU Octave's functions of the same names).
fprintf('%g ', atan2d([1 1 -1 0], [1 -1 -1 -2])); fprintf('\n');
fprintf('%.10f %.10f %.10f\n', beta(2, 3), beta(0.5, 0.5), betaln(10, 20));
[K, E] = ellipke([0 0.5 0.9]);
fprintf('%.10f ', K, E); fprintf('\n');
fprintf('%d ', factor(360)); fprintf('\n');
[p, m] = factor(360); fprintf('%d ', p, m); fprintf('\n');
fprintf('%d ', factor(97), factor(1), factor(0)); fprintf('\n');
x = [2 8 0 4 1 9 9 0];
fprintf('%.8f %.8f\n', skewness(x), skewness(x, 0));
fprintf('%.8f %.8f\n', kurtosis(x), kurtosis(x, 0));
fprintf('%.8f %.8f\n', mad(x), mad(x, 1));
X = [1 4; 2 8; 3 1; 9 2];
fprintf('%.8f ', skewness(X), kurtosis(X), mad(X), iqr(X)); fprintf('\n');
fprintf('%.10f ', psi([0.5 1 2 10]), psi(1, [1 2]), psi(2, 3)); fprintf('\n');
fprintf('%.10f ', besselj(0, [0 1 2.5]), besselj(1, 3), bessely(0, 1), besseli(1, 2), besselk(0, 2)); fprintf('\n');
fprintf('%.10f ', besselj(0.5, 1), besseli(0, 1, 1), besselk(1, 1, 1)); fprintf('\n');
fprintf('%.8f ', legendre(2, [0 0.5 1])); fprintf('\n');
fprintf('%.8f ', legendre(3, 0.3, 'sch')); fprintf('\n');
fprintf('%.8f ', legendre(2, 0.4, 'norm')); fprintf('\n');
fprintf('%g ', poly([1 2 3])); fprintf('\n');
fprintf('%.6f ', poly([1 2; 3 4])); fprintf('\n');
fprintf('%g ', polyvalm([1 2 3], [1 2; 3 4])); fprintf('\n');
A = [4 1; 0 9];
fprintf('%.10f ', sqrtm(A)); fprintf('\n');
B = [1 2 3; 4 5 6; 7 8 10];
S = sqrtm(B); fprintf('%.3e\n', norm(S*S - B) < 1e-10);
[U, T] = schur(B); fprintf('%d %d\n', norm(U*T*U' - B) < 1e-10, norm(tril(T, -1)) < 1e-10);
[P, H] = hess(magic(4)); fprintf('%d %d\n', norm(P*H*P' - magic(4)) < 1e-10, norm(tril(H, -2)) < 1e-12);
[G, y] = planerot([3; 4]); fprintf('%g ', G, y); fprintf('\n');
fprintf('%.6f\n', normest(magic(4)));
[lo, up] = bandwidth([1 2 0; 3 4 5; 0 6 7]); fprintf('%d %d\n', lo, up);
fprintf('%.10f ', detrend([1 3 2 5 4])); fprintf('\n');
fprintf('%.10f ', detrend([1 3 2 5 4], 0)); fprintf('\n');
