x = 1;
if x > 0
  disp(x)

