% MException objects: catch ME, MException(id, fmt, ...), getReport, addCause, throw, rethrow,
% error(struct), lasterr.
try
  error('myComp:myId', 'Value %d too large', 7);
catch ME
  disp(class(ME))
  disp(ME.identifier)
  disp(ME.message)
  disp(class(ME.stack))
  disp(isempty(ME.cause))
end
ME = MException('a:b', 'Hello %s', 'world');
disp(ME.message)
r = getReport(ME)
ME2 = addCause(ME, MException('c:d', 'inner'));
disp(numel(ME2.cause))
disp(ME2.cause{1}.message)
disp(numel(ME.cause))
try
  throw(ME)
catch err
  fprintf('%s | %s\n', err.identifier, err.message);
end
try
  ME.throw();
catch err
  disp(err.message)
end
try
  rethrow(struct('identifier', 'x:y', 'message', 'from struct'))
catch err
  fprintf('%s %s\n', class(err), err.message);
end
try
  rethrow(ME2)
catch err
  disp(err.cause{1}.identifier)
end
try
  error(struct('identifier', 'p:q', 'message', 'struct error'))
catch err
  disp(err.identifier)
end
[msg, id] = lasterr
disp(isa(ME, 'MException'))
disp(ME.getReport())
try
  sqrt(1, 2, 3);
catch err
  disp(err.identifier)
  disp(err.stack(1).name)
end
try
  x = [1 2 3];
  y = x(5);
catch err
  disp(err.identifier)
end
ME
