% end inside nested indexing and function-call arguments that are really indexing
v = [10 20 30 40 50];
w = [1 2 3];
fprintf('%d\n', v(w(end)));
fprintf('%d\n', v(end - w(end)));
fprintf('%d\n', v(min(end, 3)));
c = {1:3, 4:9};
fprintf('%d\n', c{end}(end));
fprintf('%d\n', c{1}(end - 1));
s.data = [7 8 9];
fprintf('%d\n', s.data(end));
M = magic(5);
fprintf('%d\n', M(end, end));
fprintf('%d\n', M(end));
fprintf('%d ', M(end, :)); fprintf('\n');
v(end + 1) = 60;
fprintf('%d\n', numel(v));
