% Nested anonymous functions keep one text (linear in the nesting), and rethrow keeps the
% caught error's stack (linear in the recursion depth).
f = @() @(x) x + 1
g = f();
disp(g(2))
disp(func2str(g))
src = ['h = ' repmat('@() ', 1, 20000) '7;'];
eval(src);
for k = 1:20000
  h = h();
end
disp(h)
try
  dive(200);
catch err
  disp(err.message)
  disp(numel(err.stack))
  disp(err.stack(1).line)
end
function r = dive(n)
  try
    if n == 0
      error('demo:deep', 'bottom');
    end
    r = dive(n - 1);
  catch err
    rethrow(err);
  end
end
