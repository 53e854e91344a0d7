S = speye(3);
S(4, 1)
