x = 1;
eval('y = (1 +');
