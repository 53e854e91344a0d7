% min and max over long columns in the host kernel (eight running extremes; a zero result is
% recomputed in order, so that the first zero met keeps its sign as in the eager engine),
% vecnorm and dot (conj of real data costs no copy) against values known exactly.
x = zeros(50000, 2); x(1:10, 1) = -0; x(11:20, 2) = -0;
disp(1 ./ max(x)); disp(1 ./ min(x))
y = mod((1:50000)', 997) - 500; y(31234) = 1000; y(777) = -2000;
disp([max(y) min(y)])
y(5) = NaN;
disp([max(y) min(y)])
disp(max(y, [], 'includenan'))
z = single(y);
disp(class(max(z)))
disp([max(z) min(z)])
v = 3 * ones(40000, 1);
disp(vecnorm(v))
w = (1:40000)';
fprintf('%d %d\n', dot(w, w), sum(w .^ 2));
