T = table([1; 2], 'VariableNames', {'x'});
y = T.y;
