% MATLAB-only option forms: max/min 'ComparisonMethod', compose of complex numbers with %s,
% dateshift to the end of units below a day, 2^A of a defective matrix, and the error for a
% non-integer power of a defective matrix.
[m, i] = max([3 -3 2], [], 'ComparisonMethod', 'abs')
[m, i] = min([3 -3 2], [], 'ComparisonMethod', 'abs')
m = max([1 -5], [2 3], 'ComparisonMethod', 'abs')
m = max([1+2i 3-1i; 2 -4], [], 2, 'ComparisonMethod', 'real')
m = min([1+1i, 1-1i, 0.5], [], 'ComparisonMethod', 'real')
m = max([1 NaN -7], [], 'ComparisonMethod', 'abs')
m = max(int8([-100 50]), [], 'ComparisonMethod', 'abs')
try
  max([1 2], [], 'ComparisonMethod', 'size')
catch e
  disp(e.identifier)
end
s = compose('%s', 1+2i)
s = compose("%s and %d", [1-2i 5])
d = dateshift(datetime(2020,1,1,10,30,15), 'end', 'hour')
d = dateshift(datetime(2020,1,1,10,30,15), 'end', 'day')
d = dateshift(datetime(2020,1,1,10,30,15), 'end', 'minute', 'next')
d = dateshift(datetime(2020,1,1,10,30,15.5), 'end', 'second')
E = 2^[1 2; 0 1]
try
  [1 1; 0 1]^0.5
catch e
  disp(e.identifier)
end
