% fzero, fminbnd, fminsearch, lsqnonneg, optimset/optimget. Expected values from MATLAB's
% documentation examples (fzero of cos on [1 2], x^3-2x-5, fminbnd of cos on [3 4], the
% Rosenbrock function, the lsqnonneg example).
x = fzero(@cos, [1 2]); fprintf('%.10f\n', x);
[x, fval, flag] = fzero(@(x) x.^3 - 2*x - 5, 2);
fprintf('%.10f %d\n', x, flag);
x = fzero(@sin, 3); fprintf('%.12f\n', x);
[x, fv, ef] = fminbnd(@cos, 3, 4); fprintf('%.6f %.6f %d\n', x, fv, ef);
f = @(x) 100*(x(2) - x(1)^2)^2 + (1 - x(1))^2;
[x, fv, ef, o] = fminsearch(f, [-1.2, 1]);
fprintf('%.4f %.4f %d\n', x, ef);
disp(o.algorithm)
o = optimset('TolX', 1e-8, 'Display', 'off');
disp(optimget(o, 'TolX'))
disp(optimget(o, 'MaxIter', 99))
[x, fv] = fminsearch(f, [-1.2, 1], optimset('TolX', 1e-8, 'TolFun', 1e-8));
fprintf('%.6f %.6f\n', x);
C = [0.0372 0.2869; 0.6861 0.7071; 0.6233 0.6245; 0.6344 0.6170];
d = [0.8587; 0.1781; 0.0747; 0.8405];
[x, resnorm, res, ef] = lsqnonneg(C, d);
fprintf('%.4f\n', x, resnorm); disp(ef)
