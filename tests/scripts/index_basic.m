% linear, subscript, logical, colon and end indexing
A = magic(4);
fprintf('%d\n', A(2, 3));
fprintf('%d\n', A(7));
fprintf('%d ', A(end, :)); fprintf('\n');
fprintf('%d ', A(:, end)'); fprintf('\n');
fprintf('%d ', A(end)); fprintf('\n');
fprintf('%d ', A(2:3, [1 end])); fprintf('\n');
v = 10:10:100;
fprintf('%d ', v(v > 50)); fprintf('\n');
fprintf('%d ', v(end-2:end)); fprintf('\n');
fprintf('%d ', v([true false true])); fprintf('\n');
fprintf('%d\n', numel(A(:)));
B = reshape(1:24, 2, 3, 4);
fprintf('%d %d\n', B(2, 3, 4), B(1, end, end));
fprintf('%d ', B(:, :, 2)); fprintf('\n');
fprintf('%d\n', B(end));
fprintf('%d ', v(min(end, 12))); fprintf('\n');
