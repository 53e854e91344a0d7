% numeric literals
fprintf('%g\n', 1e-3);
fprintf('%g\n', .5);
fprintf('%d\n', 0x1F);
fprintf('%g\n', 1.5e2);
z = 3i;
fprintf('%g %g\n', real(z), imag(z));
w = 2 + 3j;
fprintf('%g %g\n', real(w), imag(w));
fprintf('%g\n', abs(3 + 4i));
fprintf('%d\n', 1e3);
fprintf('%s\n', class(0x1F));
