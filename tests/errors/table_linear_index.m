T = table([1; 2]);
y = T(2);
