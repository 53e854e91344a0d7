% eigs and svds of sparse matrices
A = delsq(numgrid('S', 12));
d = eigs(A, 4);
e = sort(eig(full(A)), 'descend');
fprintf('%d\n', norm(d - e(1:4)) < 1e-8)
ds = eigs(A, 3, 'smallestabs');
es = sort(eig(full(A)));
fprintf('%d\n', norm(ds - es(1:3)) < 1e-8)
[V, D] = eigs(A, 2, 'largestreal');
fprintf('%d %d\n', isequal(size(V), [100 2]), norm(A * V - V * D) < 1e-8)
d2 = eigs(A, 2, 4.5);
fprintf('%d\n', all(abs(d2 - 4.5) <= min(abs(es - 4.5)) + 0.2))
N = sparse([2 1 0 0; 0 3 1 0; 0 0 4 1; 1 0 0 5]);
dn = eigs(N, 4);
fprintf('%d\n', norm(sort(abs(dn)) - sort(abs(eig(full(N))))) < 1e-8)
% A function handle (of a matrix with distinct eigenvalues: a Krylov method finds a repeated one
% only through rounding, which differs between BLAS builds)
Ad = A + spdiags((1:100)' / 1000, 0, 100, 100);
ed = sort(eig(full(Ad)), 'descend');
f = @(x) Ad * x;
df = eigs(f, 100, 3, 'largestabs', 'IsFunctionSymmetric', true);
fprintf('%d\n', norm(df - ed(1:3)) < 1e-8)
B = sparse([3 0 1; 0 2 0; 1 0 1; 0 1 0]);
s = svds(B, 2);
sv = svd(full(B));
fprintf('%d\n', norm(s - sv(1:2)) < 1e-10)
[U, S, W] = svds(B, 2);
fprintf('%d\n', norm(B * W - U * S) < 1e-10)
x = (1:100)';
fprintf('%d\n', isequal(A' * x, full(A)' * x))
