% N-d arrays: indexing, assignment, growth and reductions
A = zeros(2, 3, 2);
A(:, :, 2) = [1 2 3; 4 5 6];
fprintf('%d ', size(A)); fprintf('\n');
fprintf('%d ', A(:, 2, 2)); fprintf('\n');
A(1, 1, 4) = 9;
fprintf('%d ', size(A)); fprintf('\n');
B = A(:, :, 2);
fprintf('%d ', size(B)); fprintf('\n');
fprintf('%d\n', A(2, 3, 2));
fprintf('%d\n', A(12));
C = reshape(1:8, 2, 2, 2);
fprintf('%d ', C(:, :, end)); fprintf('\n');
fprintf('%d ', C(2, :)); fprintf('\n');
fprintf('%d ', squeeze(C(1, 1, :))); fprintf('\n');
D = sum(C, 3);
fprintf('%d ', D); fprintf('\n');
