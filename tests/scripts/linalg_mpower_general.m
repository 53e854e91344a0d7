% Matrix powers beyond integer exponents: non-integer and negative fractional powers (symmetric
% and general matrices, real and complex results), scalar ^ matrix, and hypot of complex values.
A = [2 1; 1 3];
B = A^1.5;
disp(norm(B - sqrtm(A)^3) < 1e-12)
printf_ok = @(x) fprintf('%.4f ', x);
printf_ok(B); fprintf('\n');
C = [4 1; 2 3]^-0.5;
printf_ok(C); fprintf('\n');
disp(norm(inv(C*C) - [4 1; 2 3]) < 1e-12)
Y = [1 2; 3 4]^(1/3);
disp(isreal(Y))
printf_ok(real(Y)); printf_ok(imag(Y)); fprintf('\n');
disp(norm(Y^3 - [1 2; 3 4]) < 1e-12)
E = 2^[1 2; 0 3];
printf_ok(E); fprintf('\n');
F = exp(1)^[0 1; -1 0];
printf_ok(F); fprintf('\n');
G = single([2 1; 1 3])^0.5;
disp(class(G))
disp(norm(double(G*G) - [2 1; 1 3]) < 1e-5)
I = eye(3)^0.25;
disp(isequal(I, eye(3)))
h = hypot(3+4i, 1);
fprintf('%.4f\n', h);
disp(hypot([1i 3], [0 4i]))
% A diagonalizable non-Hermitian matrix with a repeated eigenvalue (the eigenvector path).
A = [2 0 0; 0 2 0; 1 1 3];
B = A^0.5; disp(norm(B*B - A) < 1e-12)
C = A^-1.5; disp(norm(C*C*A*A*A - eye(3)) < 1e-9)
