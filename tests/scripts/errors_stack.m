% err.stack and rethrow; errors from nested function calls carry the line of the failure
try
  level_one(0);
catch err
  fprintf('%s\n', err.identifier);
  fprintf('%s\n', err.message);
  fprintf('%s line %d\n', err.stack(1).name, err.stack(1).line);
  fprintf('%d\n', numel(err.stack) >= 2);
end
try
  try
    error('a:b', 'first');
  catch e
    rethrow(e);
  end
catch e2
  fprintf('%s %s\n', e2.identifier, e2.message);
end

function level_one(x)
  level_two(x);
end

function level_two(x)
  if x == 0
    error('deep:zero', 'x must be nonzero');
  end
end
