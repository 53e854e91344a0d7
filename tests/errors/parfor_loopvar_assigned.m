% The loop index cannot be assigned in the body.
parfor i = 1:3
  i = i + 1;
end
