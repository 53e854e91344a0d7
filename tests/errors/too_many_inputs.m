f(1, 2, 3);
function f(a)
  disp(a);
end
