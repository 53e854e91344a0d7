% An indexed assignment that does not slice by the loop index cannot be classified.
x = zeros(1, 4);
parfor i = 1:4
  x(2) = i;
end
