S = sparse(int8([1 0 2]));
