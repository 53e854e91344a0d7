% who with patterns and 'global' (regression: the arguments were ignored), and
% randn/rand(..., 'like', complex) returning complex values (regression: they were real).
abc = 1; abd = 2; xyz = 3;
c = who('ab*');
disp(c)
c = who('x*', 'abc');
disp(c)
global G1
G1 = 5;
g = who('global');
disp(g)
who('ab*')
rng(1);
z = randn(2, 2, 'like', 1i);
disp(isreal(z)); disp(class(z)); disp(size(z))
r = rand(1, 3, 'like', single(1i));
disp(class(r)); disp(isreal(r))
z = randn(1, 100000, 'like', 1i);
fprintf('%.1f %.1f %.1f\n', var(z), var(real(z)), var(imag(z)));
