% closures capture values, not variables; handles in loops
fs = cell(1, 3);
for k = 1:3
  fs{k} = @(x) x + k;
end
fprintf('%d ', cellfun(@(f) f(10), fs)); fprintf('\n');
base = 5;
addb = @(v) v + base;
base = 0;
fprintf('%d\n', addb(1));
counter = make_counter(3);
fprintf('%d\n', counter(4));
fprintf('%d\n', feval(@(varargin) numel(varargin), 1, 2, 3));
g = @(x) deal(x, 2 * x);
[p, q] = g(7);
fprintf('%d %d\n', p, q);

function f = make_counter(start)
  f = @(n) start + n;
end
