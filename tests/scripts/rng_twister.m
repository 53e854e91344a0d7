% MATLAB's Mersenne Twister streams: rng(seed, 'twister') (values from MATLAB's documentation:
% rng default (twister, seed 0); rand(1,4) -> 0.8147 0.9058 0.1270 0.9134; randperm(8) ->
% 6 3 7 8 5 1 2 4; the long check against mt19937ar's genrand_res53 with init_genrand(5489)).
rng(0, 'twister');
x = rand(1, 4)
rng(0, 'twister');
r = randi(10, 1, 5)
rng(0, 'twister');
p = randperm(8)
rng(1, 'twister');
fprintf('%.15f\n', rand);
rng(0, 'twister');
y = rand(2000, 1);
fprintf('%.17g %.17g\n', y(1501), y(2000));
s = rng;
disp(s.Type)
disp(size(s.State))
a = rand(1, 3);
rng(s);
b = rand(1, 3);
disp(isequal(a, b))
rng(5);                 % keeps the twister
c = rand;
rng(5, 'twister');
disp(c == rand)
rng default             % back to Philox
s = rng;
disp(s.Type)
