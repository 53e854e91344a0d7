x = 1;
f = str2func('@(x) (x +');
