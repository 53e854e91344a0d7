s = struct('a', 1);
x = s(2);
