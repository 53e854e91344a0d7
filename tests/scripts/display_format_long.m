% format long / short and disp
format long
p = pi
format short
q = pi
disp(pi)
disp([1 2 3])
disp('text')
format compact
r = 7
