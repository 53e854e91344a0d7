% anonymous functions capture their workspace at creation
a = 2;
f = @(x) a * x + 1;
a = 100;
fprintf('%g\n', f(3));
g = @(x, y) x .^ 2 + y;
fprintf('%g ', g([1 2 3], 1)); fprintf('\n');
h = @sin;
fprintf('%.4f\n', h(pi / 2));
compose = @(f1, f2) @(x) f1(f2(x));
sq_then_neg = compose(@(x) -x, @(x) x^2);
fprintf('%g\n', sq_then_neg(3));
fs = {@(x) x + 1, @(x) x * 2};
fprintf('%g %g\n', fs{1}(10), fs{2}(10));
fprintf('%s\n', func2str(g));
k = @() 42;
fprintf('%d\n', k());
