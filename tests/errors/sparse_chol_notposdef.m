R = chol(sparse([1 2; 2 1]));
