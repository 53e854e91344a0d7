r(1);
function r(n)
  r(n + 1);
end
