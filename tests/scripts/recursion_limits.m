% Nesting deeper than the C++ stack allows ends in MATLAB:recursionLimit (parser, isequal,
% save), never in a crash; moderate nesting works.
e = ['x = ' repmat('(', 1, 1000) '1' repmat(')', 1, 1000) ';'];
eval(e);
disp(x)
try
  eval(['x = ' repmat('(', 1, 1000000) '1' repmat(')', 1, 1000000) ';']);
  disp('parsed')
catch err
  disp(err.identifier)
end
% Deep cells: compared and saved, or MATLAB:recursionLimit where the stack is smaller.
c = {1};
for k = 1:100000
  c = {c};
end
try
  ok = isequal(c, c);
catch err
  ok = strcmp(err.identifier, 'MATLAB:recursionLimit');
end
disp(ok)
c = {1};
for k = 1:20000
  c = {c};
end
f = [tempname '.mat'];
try
  save(f, 'c');
  d = load(f);
  ok = isequal(d.c, c);
  delete(f);
catch err
  ok = strcmp(err.identifier, 'MATLAB:recursionLimit') && ~exist(f, 'file');
end
disp(ok)
% jsonencode and jsondecode of nesting deeper than the stack: MATLAB:recursionLimit, no crash.
c = {1};
for k = 1:3000000
  c = {c};
end
try
  s = jsonencode(c);
  ok = numel(s) == 6000001;
catch err
  ok = strcmp(err.identifier, 'MATLAB:recursionLimit');
end
disp(ok)
clear c
try
  v = jsondecode([repmat('[', 1, 3000000) '1' repmat(']', 1, 3000000)]);
  ok = iscell(v) || isnumeric(v);
catch err
  ok = strcmp(err.identifier, 'MATLAB:recursionLimit');
end
disp(ok)
