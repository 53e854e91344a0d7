% indexed assignment, growth with zero fill, deletion
x = [];
for k = 1:5
  x(end + 1) = k^2;
end
fprintf('%d ', x); fprintf('\n');
y = 1:3;
y(6) = 9;
fprintf('%d ', y); fprintf('\n');
M = zeros(2);
M(3, 4) = 1;
fprintf('%dx%d sum %d\n', size(M), sum(M(:)));
z = 1:10;
z([2 4 6]) = [];
fprintf('%d ', z); fprintf('\n');
A = magic(4);
A(:, 2) = [];
fprintf('%dx%d\n', size(A));
A(1, :) = 0;
fprintf('%d ', A(1, :)); fprintf('\n');
B = eye(3);
B(B == 0) = -1;
fprintf('%d ', B); fprintf('\n');
s = 'hello';
s(1) = 'J';
fprintf('%s\n', s);
q(2, 3) = 7;
fprintf('%d ', q); fprintf('\n');
v = int8([1 2 3]);
v(2) = 300;
fprintf('%d %s\n', v(2), class(v));
