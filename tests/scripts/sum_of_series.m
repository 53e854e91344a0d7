% numeric series with vectorised and looped forms agreeing
n = 1:100000;
s1 = sum(1 ./ n.^2);
s2 = 0;
for k = 1:100000
  s2 = s2 + 1 / k^2;
end
fprintf('%.12f\n', s1);
fprintf('%d\n', abs(s1 - s2) < 1e-12);
fprintf('%.10f\n', sqrt(6 * s1));
h = sum((-1).^(n + 1) ./ n);
fprintf('%.8f\n', h);
