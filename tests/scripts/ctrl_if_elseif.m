% if / elseif / else with scalar and array conditions
for x = [-2 0 3]
  if x < 0
    fprintf('%d negative\n', x);
  elseif x == 0
    fprintf('%d zero\n', x);
  else
    fprintf('%d positive\n', x);
  end
end
if [1 1 1], fprintf('all true\n'); end
if [1 0 1], fprintf('bad\n'); else, fprintf('not all true\n'); end
if [], fprintf('bad\n'); else, fprintf('empty is false\n'); end
