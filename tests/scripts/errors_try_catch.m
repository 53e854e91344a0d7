% try/catch with identifiers and messages
try
  error('my:id', 'value %d is too big', 42);
catch err
  fprintf('%s | %s\n', err.identifier, err.message);
end
try
  x = [1 2 3];
  y = x(5);
catch err
  fprintf('%s\n', err.identifier);
  fprintf('%s\n', err.message);
end
try
  undefined_thing_xyz(1);
catch err
  fprintf('%s\n', err.message);
end
try
  [1 2] + [1 2 3];
catch err
  fprintf('%s\n', err.message);
end
try
  error('simple message');
catch e
  fprintf('%d %s\n', isempty(e.identifier), e.message);
end
try
  try
    error('inner:id', 'inner');
  catch e1
    error('outer:id', 'wrapped: %s', e1.message);
  end
catch e2
  fprintf('%s: %s\n', e2.identifier, e2.message);
end
