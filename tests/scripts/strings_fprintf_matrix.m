% fprintf recycling over matrices and mixed arguments
M = [1 2 3; 4 5 6];
fprintf('%d %d\n', M);
fprintf('row: %d, %d, %d\n', M');
fprintf('%s=%d\n', 'a', 1, 'b', 2);
fprintf('%5.1f|%-5.1f|\n', pi, -pi);
fprintf('[%6.2e]\n', 123456);
fprintf('%d%%\n', 50);
fprintf('%i %u\n', -3, 7);
fprintf('%g\n', [0.1 100000 1e6]);
fprintf('%s\n', 'multi', 'args');
fprintf('no newline at end');
fprintf('\n');
x = sprintf('%d', []);
fprintf('%d %d\n', isempty(x), ischar(x));
fprintf('%.2f\n', single(2.345));
fprintf('%d %d\n', int8(-5), uint16(65535));
fprintf('%d\n', true);
