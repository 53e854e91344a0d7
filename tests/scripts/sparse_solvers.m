% sparse direct and iterative solvers, incomplete factorizations
A = delsq(numgrid('S', 7));
disp(size(A)); disp(nnz(A))
n = size(A, 1);
b = A * (1:n)';
x = A \ b;
fprintf('%.10f\n', norm(x - (1:n)'))
u = sparse([4 1 0; 1 4 1; 0 1 4]) \ [1; 2; 3];
fprintf('%.4f\n', u)
T = sparse([2 0 0; 1 3 0; 0 1 4]);
fprintf('%.4f\n', T \ [2; 4; 9])
U = sparse([1 -1 0; 2 1 3; 0 1 2]);
fprintf('%.4f\n', U \ [1; 2; 3])
R = sparse([1 0; 1 1; 0 1]);
fprintf('%.4f\n', R \ [1; 2; 3])
C = chol(A);
fprintf('%d %.2e\n', istriu(C), norm(full(C' * C - A), 1) < 1e-12)
[L, U2, P, Q] = lu(sparse([1 2 0; 3 4 5; 0 6 7]));
fprintf('%d\n', norm(full(P * sparse([1 2 0; 3 4 5; 0 6 7]) * Q - L * U2), 1) < 1e-12)
[x, flag, relres, iter, resvec] = pcg(A, b, 1e-10, 100);
fprintf('pcg %d %d %d %d\n', flag, iter, relres < 1e-10, numel(resvec) == iter + 1)
Li = ichol(A);
fprintf('%d %d\n', istril(Li), nnz(Li) == nnz(tril(A)))
[x2, flag2, ~, iter2] = pcg(A, b, 1e-10, 100, Li, Li');
fprintf('pcg+ichol %d %d %d\n', flag2, iter2 < iter, norm(x2 - (1:n)') < 1e-6)
[Lu, Uu] = ilu(sparse([4 -1 0; -1 4 -1; 0 -1 4]));
disp(full(Lu)); disp(full(Uu))
[x3, flag3] = bicgstab(A, b, 1e-10, 100);
fprintf('bicgstab %d %d\n', flag3, norm(x3 - (1:n)') < 1e-6)
[x4, flag4, ~, iter4] = gmres(A, b, 10, 1e-10, 20);
fprintf('gmres %d %d %d\n', flag4, numel(iter4), norm(x4 - (1:n)') < 1e-6)
[x5, flag5] = minres(A, b, 1e-10, 100);
fprintf('minres %d %d\n', flag5, norm(x5 - (1:n)') < 1e-6)
afun = @(v) A * v;
[x6, flag6] = pcg(afun, b, 1e-10, 100);
fprintf('pcg handle %d %d\n', flag6, norm(x6 - (1:n)') < 1e-6)
x7 = pcg(A, b, 1e-10, 100);
[x8, flag8] = pcg(A, b, 1e-12, 2);
fprintf('maxit %d\n', flag8)
[x9, flag9, relres9, iter9] = pcg(A, zeros(n, 1));
fprintf('%d %d %d %d\n', flag9, relres9, iter9, nnz(x9))
