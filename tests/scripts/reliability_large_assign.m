% Regressions: a new struct field or cell element assigned from a large array (once a crash),
% and x(:) of a long row (once a row). Sizes above the capture threshold (32768 elements).
s.f = 1;
s.h(1:40000) = zeros(1, 40000);
disp(size(s.h))
c = {1};
c{2}(1:40000) = zeros(1, 40000);
disp(size(c{2}))
t = struct('a', {1, 2});
t(2).b(1:40000) = ones(1, 40000);
disp(sum(t(2).b))
x = 1:40000;
disp(size(x(:)))
y = x(:);
disp(y' * y)
z = x * 2;
disp(size(z(:)))
w = (1:40000)' * 3;
disp(size(w(:)))
A = reshape(1:90000, 300, 300);
disp(size(A(:)))
disp(A(:)' * ones(90000, 1))
