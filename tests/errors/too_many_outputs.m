[a, b] = g();
function a = g()
  a = 1;
end
