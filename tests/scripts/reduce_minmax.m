% min and max: dims, index outputs, NaN handling, two-argument forms
v = [3 7 1 7 NaN];
[m, i] = max(v);
fprintf('%g %d\n', m, i);
[m, i] = min(v);
fprintf('%g %d\n', m, i);
A = [4 9 2; 3 5 7];
fprintf('%d ', max(A)); fprintf('\n');
fprintf('%d ', max(A, [], 2)); fprintf('\n');
[m, idx] = min(A, [], 2);
fprintf('%d %d / %d %d\n', m, idx);
fprintf('%d ', max(A, 5)); fprintf('\n');
fprintf('%d\n', max(A, [], 'all'));
fprintf('%g\n', max([NaN NaN]));
fprintf('%d %d\n', any([0 0 1]), all([1 1 0]));
fprintf('%d ', any([0 1; 0 0])); fprintf('\n');
fprintf('%d ', all([1 1; 0 1], 2)); fprintf('\n');
fprintf('%d\n', isempty(max([])));
