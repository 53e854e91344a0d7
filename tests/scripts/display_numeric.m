% numeric display: integers, negatives, NaN/Inf, scale factors, e-notation
a = [1 -2 300]
b = [1.5 NaN Inf]
c = 1e-5
d = 12345.678
e = [1 1000.5]
f = -Inf
g = zeros(0, 3)
h = [true false true]
k = uint8([1 2; 30 4])
