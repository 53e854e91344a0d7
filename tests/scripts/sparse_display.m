% MATLAB's display of sparse matrices
S = sparse([1 10 2], [1 10 12], [0.5 -2 1e-3], 10, 12)
format long
S
format short
disp(sparse([1 2; 0 0]))
B = sparse([1000.5 0; 0 2])
E = sparse(0, 3)
whos
