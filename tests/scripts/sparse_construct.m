% sparse construction, queries and structure functions
S = sparse([1 3 2 3 1], [1 1 2 3 1], [1 2 3 -4 5])
disp(full(S))
disp([issparse(S) issparse(full(S)) nnz(S) nzmax(S)])
disp(class(S)); disp(size(S)); disp(numel(S))
disp([isnumeric(S) isfloat(S) islogical(S) isreal(S) isa(S, 'double') isa(S, 'numeric')])
disp(nonzeros(S)')
[i, j, v] = find(S);
disp([i j v])
disp(find(S)')
E = sparse(2, 3)
disp(size(E))
L = sparse([1 2], [2 1], [true true])
disp(class(L))
D = sparse(logical([1 0; 0 0]) | logical([0 0; 0 1]));
disp(full(D))
I = speye(3, 4);
disp(full(I))
disp(nzmax(spalloc(4, 4, 7)))
P = spones(S);
disp(full(P))
F = spfun(@exp, sparse([0 1; 2 0]));
disp(full(F))
disp(full(tril(S))); disp(full(triu(S, 1)))
disp(full(diag(S))'); disp(full(diag(sparse([1 2 3]), 1)))
K = kron(speye(2), sparse([1 2; 3 4]));
disp(issparse(K)); disp(full(K))
B = blkdiag(sparse([1 2]), 3);
disp(issparse(B)); disp(full(B))
T = S';
disp(full(T))
R = reshape(S, 1, 9);
disp(full(R))
Z = sparse([1 1], [1 1], [2 -2], 2, 2)
C = sparse([1 2], [1 1], [1+2i 3], 2, 2)
x = sparse(1:3, 1, 1)'
disp(full(sum(S, 'all')))
