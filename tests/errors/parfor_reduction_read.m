% A reduction variable read outside its reduction statements cannot be classified.
s = 0;
parfor i = 1:3
  s = s + i;
  disp(s)
end
