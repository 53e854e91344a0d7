% building matrices by concatenation in loops
M = [];
for k = 1:4
  M = [M; k, k^2, k^3];
end
fprintf('%dx%d\n', size(M));
fprintf('%d ', M(:, 3)); fprintf('\n');
R = [];
for k = 1:3
  R = [R, k * ones(2, 1)];
end
fprintf('%d ', R); fprintf('\n');
C = {};
for k = 1:3
  C = [C, {k}];
end
fprintf('%d\n', numel(C));
S = '';
for k = 1:3
  S = [S, sprintf('%d;', k)];
end
fprintf('%s\n', S);
B = blkdiag_simple([1 2; 3 4], 5);
fprintf('%d ', B); fprintf('\n');

function B = blkdiag_simple(A1, A2)
  [r1, c1] = size(A1);
  [r2, c2] = size(A2);
  B = zeros(r1 + r2, c1 + c2);
  B(1:r1, 1:c1) = A1;
  B(r1+1:end, c1+1:end) = A2;
end
