% colon ranges with fractional steps, negative steps, and cumulative sums
r = 0:0.1:1;
fprintf('%d %.1f\n', numel(r), r(end));
fprintf('%d\n', numel(1:0));
fprintf('%d %d\n', size(1:0));
fprintf('%g ', 5:-2:-3); fprintf('\n');
fprintf('%g ', -1:0.5:1); fprintf('\n');
c = cumsum(1:5);
fprintf('%d ', c); fprintf('\n');
x = linspace(-1, 1, 5);
fprintf('%g ', x); fprintf('\n');
fprintf('%g\n', sum(0.1 * ones(1, 10)) - 1 < 1e-12);
