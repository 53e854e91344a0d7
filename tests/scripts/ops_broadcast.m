% implicit expansion for elementwise operators
A = [1 2 3; 4 5 6];
B = A - [1; 4];
fprintf('%d ', B); fprintf('\n');
C = A .* [10 100 1000];
fprintf('%d ', C); fprintf('\n');
D = (1:3)' + (1:4);
fprintf('%dx%d sum %d\n', size(D, 1), size(D, 2), sum(D(:)));
E = [1 2 3] == [1; 2];
fprintf('%d ', E); fprintf('\n');
F = max(A, [2 5 4]);
fprintf('%d ', F); fprintf('\n');
