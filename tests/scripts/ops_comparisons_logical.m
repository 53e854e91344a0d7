% comparisons, logical operators and their classes
a = [1 2 3] > 2;
fprintf('%s %d %d %d\n', class(a), a);
fprintf('%d ', [1 NaN 3] == [1 NaN 3]); fprintf('\n');
fprintf('%d ', ~[1 0 2]); fprintf('\n');
fprintf('%d\n', 'abc' == 'abc');
fprintf('%d ', 'abc' == 'abd'); fprintf('\n');
fprintf('%d %d\n', 3 ~= 3, 3 >= 3);
b = ~isempty([1]) && numel([1 2]) == 2;
fprintf('%d %s\n', b, class(b));
fprintf('%d ', any([0 0; 0 1]), all([])); fprintf('\n');
fprintf('%d ', xor([1 1 0], [1 0 0])); fprintf('\n');
fprintf('%d\n', true + 1);
fprintf('%d ', (1:5) >= 3 & (1:5) < 5); fprintf('\n');
