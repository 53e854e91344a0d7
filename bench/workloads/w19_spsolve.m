% W19 sparse direct solve x = A \ b of the 2-D Poisson matrix (five-point stencil on a k-by-k
% grid with a zero border, n = (k-2)^2 unknowns), built as a MATLAB user builds it:
% A = delsq(numgrid('S', k)). A is symmetric positive definite, so mldivide takes the sparse
% Cholesky path (CHOLMOD). A and b are built once, outside the timed region; the checksum is
% sum(x) (no random numbers: every implementation solves the same system).
k = bench_param('k', 1002);
reps = bench_param('REPS', 3);
A = delsq(numgrid('S', k));
b = ones(size(A, 1), 1);
times = zeros(1, reps);
for r = 1:reps
  t0 = tic;
  x = A \ b;
  c = bench_force(sum(x));
  times(r) = toc(t0);
end
fprintf('checksum = %.6e\n', c);
fprintf('times_ms =%s\n', sprintf(' %.3f', 1000 * times));
