% arithmetic mixing classes; results printed with fprintf
a = int16([100 200 300]) * 200;
fprintf('%d ', a); fprintf('%s\n', class(a));
b = uint8(200) + 100;
fprintf('%d\n', b);
c = -uint8(5);
fprintf('%d\n', c);
d = int32(10) / 4;
fprintf('%d\n', d);
e = int32(-10) / 4;
fprintf('%d\n', e);
f = double(int8(-128)) - 1;
fprintf('%d\n', f);
g = int8(-128) - 1;
fprintf('%d\n', g);
h = abs(int8(-128));
fprintf('%d\n', h);
fprintf('%d %d\n', intmin('int8'), intmax('uint16'));
