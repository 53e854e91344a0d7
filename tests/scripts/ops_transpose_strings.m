% quote disambiguation: transpose vs char literal
a = [1 2 3];
b = a';
fprintf('%dx%d\n', size(b));
c = [a' a'];
fprintf('%dx%d\n', size(c));
s = 'it''s';
fprintf('%s (%d chars)\n', s, length(s));
t = "say ""hi""";
fprintf('%s\n', t);
z = [1+2i, 3-4i];
zc = z';
zt = z.';
fprintf('%g %g | %g %g\n', imag(zc(1)), imag(zc(2)), imag(zt(1)), imag(zt(2)));
u = {'x', 'y'}';
fprintf('%dx%d\n', size(u));
