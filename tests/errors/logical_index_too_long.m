v = 1:3;
w = v(logical([1 0 1 1]));
