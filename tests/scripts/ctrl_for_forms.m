% for over ranges, vectors, matrix columns, cells and empty ranges
s = 0;
for i = 1:10, s = s + i; end
fprintf('sum 1..10 = %d\n', s);
for v = [5 3 1], fprintf('%d ', v); end
fprintf('\n');
A = [1 2 3; 4 5 6];
for col = A
  fprintf('column: %d %d\n', col(1), col(2));
end
for c = {'a', 'bc'}
  fprintf('%s has class %s and size %dx%d\n', c{1}, class(c), size(c, 1), size(c, 2));
end
n = 0;
for k = 5:1, n = n + 1; end
fprintf('iterations over 5:1 = %d\n', n);
for k = 10:-3:1, fprintf('%d ', k); end
fprintf('\n');
for x = 0:0.25:1, fprintf('%.2f ', x); end
fprintf('\n');
