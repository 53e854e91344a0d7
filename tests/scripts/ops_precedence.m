% operator precedence and associativity
fprintf('%g\n', -2^2);
fprintf('%g\n', 2^-1);
fprintf('%g\n', 2^3^2);
fprintf('%g\n', 1 + 2 * 3 - 4 / 2);
fprintf('%g\n', ~0 == 1);
fprintf('%d ', 1:3 + 1); fprintf('\n');
fprintf('%d ', (1:3) + 1); fprintf('\n');
fprintf('%g\n', 1 < 2 == 1);
fprintf('%d\n', 1 | 0 & 0);
x = 3;
fprintf('%d\n', x > 2 && x < 5 || false);
fprintf('%g\n', [1 -2] * [1; 1]);
fprintf('%g\n', [1 - 2]);
a = [1 2 3]';
fprintf('%d %d\n', size(a'));
fprintf('%g\n', 10 \ 5);
fprintf('%g ', [2 4] ./ [4 8], [2 4] .\ [4 8]); fprintf('\n');
