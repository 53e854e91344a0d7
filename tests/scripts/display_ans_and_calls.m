% ans, calls without outputs, and suppressed output
3 * 4;
disp(ans)
max([4 9 1])
x = 2; y = x + 1
disp(y)
fprintf('%d\n', ans);
