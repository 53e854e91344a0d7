% switch on numbers, strings and cell-array cases
function_names = {'sin', 'cos', 'tan', 'exp'};
for k = 1:numel(function_names)
  switch function_names{k}
    case 'sin'
      fprintf('sine\n');
    case {'cos', 'tan'}
      fprintf('%s is trig too\n', function_names{k});
    otherwise
      fprintf('other: %s\n', function_names{k});
  end
end
for v = [1 2 5]
  switch v
    case 1, fprintf('one\n');
    case {2, 3}, fprintf('two or three\n');
    otherwise, fprintf('many\n');
  end
end
switch 'abc'
  case 'ABC', fprintf('case-sensitive failed\n');
  case 'abc', fprintf('matched abc\n');
end
