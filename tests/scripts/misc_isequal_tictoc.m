% isequal, tic/toc, getenv, exist
fprintf('%d %d %d\n', isequal([1 2], [1 2]), isequal([1 2], [1 2 3]), isequal(1, int8(1)));
fprintf('%d %d\n', isequal('abc', 'abc'), isequal({1, 'a'}, {1, 'a'}));
fprintf('%d\n', isequal(NaN, NaN));
s1.a = 1; s2.a = 1;
fprintf('%d\n', isequal(s1, s2));
t = tic;
e = toc(t);
fprintf('%d\n', e >= 0);
fprintf('%d\n', ischar(getenv('HOME')));
fprintf('%d %d\n', exist('sin'), exist('no_such_thing_here'));
v = 3;
fprintf('%d\n', exist('v'));
