for i = 1:3
  disp(i)
