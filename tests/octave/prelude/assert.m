function assert(cond, varargin)
% Test prelude for Octave's own tests (tests/octave/octave_tests.py): Octave's assert forms,
% written for matfuse. Not a matfuse builtin: it shadows the builtin only in the test runs.
%
%   assert(cond)                  fails unless cond is non-empty numeric/logical and all true
%   assert(cond, fmt, args...)    the same with a message (cond logical, fmt char)
%   assert(observed, expected)    fails unless class, size and values agree exactly
%   assert(observed, expected, tol)  numeric values within tol (tol > 0 absolute, tol < 0
%                                 relative to |expected|); NaN and Inf must be in the same places
% Cells and structs are compared element by element (recursively); char must be equal.
if nargin == 1 || (nargin > 1 && islogical(cond) && ischar(varargin{1}))
  ok = (isnumeric(cond) || islogical(cond)) && ~isempty(cond);
  if ok
    ok = all(cond(:));
  end
  if ~ok
    if nargin == 1
      error('assert (cond) failed');
    else
      error(varargin{:});
    end
  end
  return;
end
expected = varargin{1};
tol = 0;
if nargin > 2
  tol = varargin{2};
end
msg = mft_compare(cond, expected, tol, 'observed');
if ~isempty(msg)
  error('ASSERT errors: %s', msg);
end
end

function msg = mft_compare(a, b, tol, where)
% The reason a and b differ ('' when they agree).
msg = '';
if ischar(b)
  if ~ischar(a)
    msg = sprintf('%s: expected char, observed %s', where, class(a));
  elseif ~isequal(size(a), size(b)) || ~all(a(:) == b(:))
    msg = sprintf('%s: strings differ: ''%s'' vs ''%s''', where, a(:)', b(:)');
  end
  return;
end
if iscell(b)
  if ~iscell(a)
    msg = sprintf('%s: expected cell, observed %s', where, class(a));
  elseif ~isequal(size(a), size(b))
    msg = sprintf('%s: cell dimensions differ', where);
  else
    for k = 1:numel(b)
      msg = mft_compare(a{k}, b{k}, tol, sprintf('%s{%d}', where, k));
      if ~isempty(msg)
        return;
      end
    end
  end
  return;
end
if isstruct(b)
  if ~isstruct(a)
    msg = sprintf('%s: expected struct, observed %s', where, class(a));
    return;
  end
  fa = sort(fieldnames(a));
  fb = sort(fieldnames(b));
  if ~isequal(size(a), size(b)) || ~isequal(fa, fb)
    msg = sprintf('%s: struct dimensions or fields differ', where);
    return;
  end
  for k = 1:numel(b)
    for f = 1:numel(fb)
      msg = mft_compare(a(k).(fb{f}), b(k).(fb{f}), tol, sprintf('%s(%d).%s', where, k, fb{f}));
      if ~isempty(msg)
        return;
      end
    end
  end
  return;
end
if isa(b, 'function_handle')
  if ~isa(a, 'function_handle') || ~strcmp(func2str(a), func2str(b))
    msg = sprintf('%s: function handles differ', where);
  end
  return;
end
if ~isequal(size(a), size(b))
  msg = sprintf('%s: dimensions differ: %s vs %s', where, mat2str(size(a)), mat2str(size(b)));
  return;
end
if ~strcmp(class(a), class(b))
  msg = sprintf('%s: class %s ~= %s', where, class(a), class(b));
  return;
end
if isempty(b)
  return;
end
if ~(isnumeric(b) || islogical(b))
  if ~isequal(a, b)
    msg = sprintf('%s: values differ', where);
  end
  return;
end
a = a(:);
b = b(:);
t = tol(:);
if ~(isscalar(t) || numel(t) == numel(b))
  msg = sprintf('%s: tolerance size does not match', where);
  return;
end
if ~isfloat(a)
  a = double(a);
  b = double(b);
end
t = double(t);
if isscalar(t)
  t = t + zeros(size(b));
end
na = isnan(a);
nb = isnan(b);
if any(na ~= nb)
  msg = sprintf('%s: NaN positions differ', where);
  return;
end
ia = isinf(a);
ib = isinf(b);
if any(ia ~= ib) || any(a(ia) ~= b(ib))
  msg = sprintf('%s: Inf positions differ', where);
  return;
end
keep = ~(na | ia);
a = a(keep);
b = b(keep);
t = t(keep);
err = abs(a - b);
bad = false(size(err));
zt = t == 0;
bad(zt) = a(zt) ~= b(zt);
pos = t > 0;
bad(pos) = err(pos) > t(pos);
neg = t < 0;
bad(neg) = err(neg) > abs(t(neg)) .* abs(b(neg));
if any(bad)
  k = find(bad, 1);
  msg = sprintf('%s: values differ (element %d: observed %.17g, expected %.17g, tol %g)', ...
                where, k, double(real(a(k))), double(real(b(k))), t(k));
end
end
