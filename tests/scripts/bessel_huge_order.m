% Orders beyond int (1e12): the large-order limits (DLMF 10.19.1, 10.41.1), J and I tend to 0,
% Y to -Inf, K to +Inf; never an undefined conversion of the order inside the library.
disp([besselj(1e12, 1) bessely(1e12, 1) besseli(1e12, 1) besselk(1e12, 1)])
disp([besseli(-1e12, 2, 1) besselk(-1e12, 2) besselj(3e9, 0.5)])
disp(besselj(5, 1) > 0)
