% rng: same seed gives the same numbers; the counter advances between calls
rng(42);
a = rand(1, 5);
rng(42);
b = rand(1, 5);
fprintf('%d\n', isequal(a, b));
c = rand(1, 5);
fprintf('%d\n', isequal(a, c));
rng(7);
x = randn(1000, 1);
rng(7);
y1 = randn(400, 1);
y2 = randn(600, 1);
fprintf('%d\n', isequal(x, [y1; y2]));
fprintf('%d\n', all(a > 0 & a < 1));
rng('default');
d = rand;
rng(0);
e = rand;
fprintf('%d\n', d == e);
r = randi(6, 1, 1000);
fprintf('%d %d %d\n', min(r) >= 1, max(r) <= 6, all(r == round(r)));
r2 = randi([-3 3], 2, 500);
fprintf('%d %d\n', min(r2(:)), max(r2(:)));
z = randn(1, 200000);
fprintf('%d %d\n', abs(mean(z)) < 0.01, abs(std_dev(z) - 1) < 0.01);
s = rng;
p = rand(1, 3);
rng(s);
q = rand(1, 3);
fprintf('%d\n', isequal(p, q));
fprintf('%s %s\n', class(rand(2, 'single')), class(randn(2, 2, 'single')));

function s = std_dev(v)
  s = sqrt(sum((v - mean(v)).^2) / (numel(v) - 1));
end
