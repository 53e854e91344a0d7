% Octave peer of W19: the same Poisson matrix as delsq(numgrid('S', k)) (Octave 7 has neither
% function: kron(I,T) + kron(T,I) with T = tridiag(-1, 2, -1) of order k-2 is that matrix, in
% numgrid's column-wise numbering), x = A \ b.
k = str2double(getenv('BENCH_k')); if isnan(k), k = 1002; end
reps = str2double(getenv('BENCH_REPS')); if isnan(reps), reps = 3; end
m = k - 2;
e = ones(m, 1);
T = spdiags([-e 2*e -e], -1:1, m, m);
I = speye(m);
A = kron(I, T) + kron(T, I);
b = ones(size(A, 1), 1);
times = zeros(1, reps);
for r = 1:reps
  t0 = tic;
  x = A \ b;
  c = sum(x);
  times(r) = toc(t0);
end
fprintf('checksum = %.6e\n', c);
fprintf('times_ms =%s\n', sprintf(' %.3f', 1000 * times));
