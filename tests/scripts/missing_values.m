% MATLAB's missing value: NaN in double and single arrays, <missing> in string arrays;
% ismissing, standardizeMissing and rmmissing (examples of MATLAB's reference pages).
x = [1 2 3];
x(2) = missing;
disp(x)
s = ["a" "b" "c"];
s(3) = missing;
disp(ismissing(s))
y = [4 missing 6]
z = single([1 2]);
z(1) = missing;
disp(class(z)); disp(isnan(z))
m = missing;
disp(class(m))
disp(ismissing(m))
t = ["x", missing]
A = standardizeMissing([1 -99 3 -99], -99)
C = standardizeMissing({'a', 'NA', 'b'}, 'NA')
S = standardizeMissing(["yes" "N/A" "no"], "N/A")
[B, TF] = rmmissing([1 NaN 3 NaN 5])
M = [1 2; NaN 4; 5 6];
R1 = rmmissing(M)
R2 = rmmissing(M, 2)
R3 = rmmissing([NaN NaN 1; 2 NaN 3], 'MinNumMissing', 2)
R4 = rmmissing({'a', '', 'c'})
try
  q = int8([1 2]);
  q(1) = missing;
catch ME
  disp(ME.message)
end
