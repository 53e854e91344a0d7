% eval in a parfor-loop is a transparency violation.
parfor i = 1:3
  eval('a = i;');
end
