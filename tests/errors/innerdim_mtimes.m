A = ones(2, 3);
B = ones(2, 3);
C = A * B;
