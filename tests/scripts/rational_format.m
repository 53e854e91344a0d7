% rat, rats and the format styles rat, hex, long e, long g, short e, short g (values from
% MATLAB's documentation: rat(pi) = 3 + 1/(7 + 1/16) = 355/113, rats(0.75) = '      3/4     ',
% format hex of 1 is 3ff0000000000000).
[n, d] = rat(pi);
fprintf('%d/%d\n', n, d);
disp(rat(pi))
disp(rat(1.5))
[n, d] = rat([0.5 0.75 1/3 -2.25])
[n, d] = rat(pi, 1e-2)
r = rat([0.5; 0.25])
s = rats(0.75);
disp(['[' s ']'])
disp(size(rats([0.5 0.25])))
disp(rats([1/3 -0.125 5]))
disp(rats(pi, 5))
format rat
x = pi
y = [1/2 1/3; -0.75 2]
format hex
x = 1
z = int8([-1 16])
w = single(1)
format long e
x = pi
format long g
x = pi
y = [pi 1e6]
format short e
x = pi
format short g
x = pi
format long
x = pi
format
x = pi
