y = outer(2);
function y = outer(x)
  y = inner(x);
end
function y = inner(x)
  y = x + [1 2] + [1 2 3];
end
