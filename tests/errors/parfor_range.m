% The range of a parfor-loop must be increasing consecutive integers.
y = zeros(1, 6);
parfor i = 1:2:11
  y(i) = i;
end
