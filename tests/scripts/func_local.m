% local functions, multiple outputs, nargin/nargout, ~ outputs
[s, p] = sum_prod([1 2 3 4]);
fprintf('sum = %d, prod = %d\n', s, p);
[~, p2] = sum_prod([2 5]);
fprintf('prod only = %d\n', p2);
fprintf('nargin: %d %d\n', count_args(1), count_args(1, 2));
fprintf('one output: %d\n', sum_prod([7 8]));
fprintf('fib(15) = %d\n', fib(15));

function [s, p] = sum_prod(v)
  s = sum(v);
  if nargout > 1
    p = prod(v);
  end
end

function n = count_args(varargin)
  n = nargin;
end

function f = fib(n)
  if n < 2
    f = n;
  else
    f = fib(n - 1) + fib(n - 2);
  end
end
