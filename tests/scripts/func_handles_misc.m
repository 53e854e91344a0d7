% feval, function handles to local functions, handles in structs and cells
fprintf('%g\n', feval(@plus, 2, 3));
fprintf('%g\n', feval('max', [4 9 2]));
ops.add = @(a, b) a + b;
ops.mul = @times;
fprintf('%g %g\n', ops.add(2, 3), ops.mul(2, 3));
h = @twice;
fprintf('%g\n', h(21));
fprintf('%g\n', apply_n(@(x) x + 3, 0, 4));
f = str2func('@(x) x * 10');
fprintf('%g\n', f(5));
g = str2func('twice');
fprintf('%g\n', g(8));
fprintf('%s\n', func2str(h));

function y = twice(x)
  y = 2 * x;
end

function x = apply_n(f, x, n)
  for k = 1:n
    x = f(x);
  end
end
