% logical masks for reading and writing
x = [3 -1 4 -1 5 -9 2 6];
x(x < 0) = 0;
fprintf('%d ', x); fprintf('\n');
y = 1:10;
y(mod(y, 3) == 0) = [];
fprintf('%d ', y); fprintf('\n');
A = magic(4);
A(A > 10) = -A(A > 10);
fprintf('%d ', A(1, :)); fprintf('\n');
m = logical([1 0 1 0]);
z = [5 6 7 8];
fprintf('%d ', z(m), z(~m)); fprintf('\n');
fprintf('%d\n', nnz_count(A < 0));
B = zeros(3);
B(logical(eye(3))) = [1 2 3];
fprintf('%d ', B); fprintf('\n');

function n = nnz_count(mask)
  n = sum(mask(:));
end
