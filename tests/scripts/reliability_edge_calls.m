% Calls with edge values that once crashed, hung or escaped try/catch. Each gives MATLAB's
% result or a MATLAB error that try/catch catches.
x = regexp({}, 'a')
y = regexp('abc', {})
[t, m] = regexp(cell(0, 2), 'a', 'tokens', 'match');
size(t), size(m)
n1 = histcounts(5e15)
n2 = histcounts(1e16)
d = diff([], 2^31)
d2 = diff(1:4, 1e12)
calls = {@() accumarray([1; Inf], [1; 2]), @() accumarray(single(1e38), 1), ...
         @() accumarray(int64(2^63-1), 1), @() accumarray([1; 2], 1, [NaN 1]), ...
         @() cell(100, 5e15), @() blanks(2^63), @() nchoosek([1 2], int64(2^63-1)), ...
         @() histcounts([0 1e16], 'BinWidth', 1e-3), @() histcounts(1, 'BinWidth', 0)};
for k = 1:numel(calls)
  try
    calls{k}();
    disp('no error')
  catch err
    disp(err.identifier)
  end
end
