S = speye(3);
y = S * ones(2, 1);
