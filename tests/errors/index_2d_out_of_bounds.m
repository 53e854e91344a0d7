A = eye(3);
A(2, 5)
