% sparse arithmetic: MATLAB's result classes, products, reductions, indexing, concatenation
S = sparse([1 3 2 3], [1 1 2 3], [1 2 3 -4]);
F = [1 2 3; 4 5 6; 7 8 9];
r = {S + S, S + F, S + 1, S - S, S .* F, S .* 2, S * 2, 2 * S, S / 2, -S, S .^ 2, ...
     S * F, F * S, S * S, S', S > 0, S == 0, S & F, ~S, abs(S), sqrt(abs(S)), S ./ F};
for k = 1:numel(r)
  fprintf('%d %d %s\n', k, issparse(r{k}), class(r{k}));
end
disp(full(S * S)); disp(S * F); disp(F * S)
disp(full(S .* F)); disp(full(S ./ F))
x = [1; 2; 3];
disp(S * x); disp(S' * x)
disp(full(sum(S))); disp(full(sum(S, 2))); disp(full(sum(S(:))))
disp(issparse(sum(S)))
disp(full(max(S))); disp(full(min(S))); disp(full(max(S, [], 2)))
disp(full(any(S))); disp(full(all(S + speye(3))))
disp(full(mean(S)))
disp([norm(S, 1) norm(S, inf) norm(S, 'fro') full(trace(S))])
disp(full(S(3, :))); disp(full(S(:, 1))'); disp(full(S(2:3, [1 3])))
disp(full(S(4))); disp(full(S([1 3 9])))
disp(issparse(S(1, 1)))
S(1, 3) = 7;
disp(full(S))
S(4, 4) = 1;
disp(size(S))
S(:, 2) = [];
disp(full(S))
A = [speye(2) sparse(2, 1); sparse([5 6 7])];
disp(issparse(A)); disp(full(A))
B = [sparse([1 0]); 3 4];
disp(issparse(B)); disp(full(B))
if sparse(1), disp('true'), end
if ~sparse(0), disp('not zero'), end
disp(isequal(sparse([1 0 2]), [1 0 2]))
M = speye(3) ^ 3;
disp(issparse(M)); disp(full(M))
z = zeros(2, 2); z(1, :) = sparse([1 2]);
disp(issparse(z)); disp(z)
