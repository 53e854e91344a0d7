% integral, quadgk, quad, integral2, integral3, dblquad. Expected values from MATLAB's
% documentation examples and closed forms.
q = integral(@(x) exp(-x.^2).*log(x).^2, 0, Inf); fprintf('%.10f\n', q);
q = integral(@(x) 1./((x.^3-2*x-5)), 0, 2); fprintf('%.10f\n', q);
q = integral(@(x) sin(x), 0, pi); fprintf('%.12f\n', q);
q = integral(@(x) [sin(x); cos(x)], 0, 1, 'ArrayValued', true); fprintf('%.10f\n', q);
q = integral(@(x) abs(x - 1), 0, 3, 'Waypoints', 1); fprintf('%.12f\n', q);
q = integral(@(x) exp(-x.^2), -Inf, Inf); fprintf('%.9f\n', q);
q = integral(@(x) 1./x.^2, 1, Inf, 'RelTol', 1e-10); fprintf('%.10f\n', q);
[q, e] = quadgk(@(x) x.^5.*exp(-x).*sin(x), 0, Inf); fprintf('%.8f %d\n', q, e < 1e-6);
q = quad(@(x) 1./(x.^3-2*x-5), 0, 2); fprintf('%.8f\n', q);
q = integral2(@(x, y) x.*y, 0, 1, 0, @(x) x); fprintf('%.10f\n', q);
q = integral3(@(x, y, z) x + y + z, 0, 1, 0, 1, 0, 1); fprintf('%.10f\n', q);
q = dblquad(@(x, y) y.*sin(x) + x.*cos(y), pi, 2*pi, 0, pi); fprintf('%.6f\n', q);
