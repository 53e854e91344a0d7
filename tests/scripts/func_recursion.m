% recursion: factorial, Ackermann and a recursive flatten of nested cells
fprintf('%d\n', fact(10));
fprintf('%d\n', ack(2, 3));
flat = flatten({1, {2, {3, 4}}, {}, 5});
fprintf('%d ', flat); fprintf('\n');

function r = fact(n)
  if n <= 1
    r = 1;
  else
    r = n * fact(n - 1);
  end
end

function r = ack(m, n)
  if m == 0
    r = n + 1;
  elseif n == 0
    r = ack(m - 1, 1);
  else
    r = ack(m - 1, ack(m, n - 1));
  end
end

function out = flatten(c)
  out = [];
  for k = 1:numel(c)
    if iscell(c{k})
      out = [out, flatten(c{k})];
    else
      out = [out, c{k}];
    end
  end
end
