% ode113 (Adams-Bashforth-Moulton PECE) and ode15s (NDF) against closed forms: exp(-2),
% sin/cos, exp(-t), the ball's landing time 20/4.905, y' = -1000(y - cos t) (y(1) close to
% (1e6*cos(1) + 1e3*sin(1))/(1e6 + 1)) and Robertson's reactions (the ode23s values).
opts = odeset('RelTol', 1e-8, 'AbsTol', 1e-10);
[t, y] = ode113(@(t, y) -2*y, [0 1], 1, opts);
fprintf('%.6f %.6f\n', t(end), y(end));
[t, y] = ode113(@(t, y) [y(2); -y(1)], [0 pi/2 pi], [0; 1], opts);
disp(size(y));
fprintf('%.6f %.6f\n', abs(y.'));
sol = ode113(@(t, y) -y, [0 2], 1, opts);
disp(sol.solver)
fprintf('%.6f\n', deval(sol, [0.5 1 1.5]));
[yi, ypi] = deval(sol, 1);
fprintf('%.5f %.5f\n', yi, ypi);
evf = @(t, y) deal(y(1), 1, -1);
[t, y, te, ye, ie] = ode113(@(t, y) [y(2); -9.81], [0 10], [0; 20], odeset(opts, 'Events', evf));
fprintf('%.5f %.5f %d\n', te, t(end), ie);
% van der Pol, mu = 1, default tolerances and a refined tolerance
[t, y] = ode113(@(t, y) [y(2); (1 - y(1)^2)*y(2) - y(1)], [0 20], [2; 0], opts);
fprintf('%.4f %.4f\n', y(end, 1), y(end, 2));
[t, y] = ode113(@(t, y) -y, [0 1], 1);
fprintf('%.3f\n', y(end));
% ode15s
o15 = odeset('RelTol', 1e-6, 'AbsTol', 1e-8);
[t, y] = ode15s(@(t, y) -1000*(y - cos(t)), [0 1], 0, o15);
fprintf('%.5f\n', y(end));
[t, y] = ode15s(@(t, y) -1000*(y - cos(t)), [0 1], 0, odeset(o15, 'Jacobian', -1000));
fprintf('%.5f\n', y(end));
[t, y] = ode15s(@(t, y) -1000*(y - cos(t)), [0 1], 0, odeset(o15, 'BDF', 'on', 'MaxOrder', 2));
fprintf('%.5f\n', y(end));
f = @(t, y) [-0.04*y(1) + 1e4*y(2)*y(3); 0.04*y(1) - 1e4*y(2)*y(3) - 3e7*y(2)^2; 3e7*y(2)^2];
[t, y] = ode15s(f, [0 40], [1; 0; 0], odeset('RelTol', 1e-6, 'AbsTol', [1e-8 1e-14 1e-8]));
fprintf('%.4f %.4f\n', y(end, 1), y(end, 3));
sol = ode15s(@(t, y) -y, [0 2], 1, odeset('RelTol', 1e-8, 'AbsTol', 1e-10));
disp(sol.solver)
fprintf('%.5f\n', deval(sol, [0.5 1 1.5]));
[t, y] = ode15s(@(t, y) -y, [0 0.5 1], 1, o15);
fprintf('%.5f\n', y);
[t, y, te, ye, ie] = ode15s(@(t, y) [y(2); -9.81], [0 10], [0; 20], odeset(o15, 'Events', evf));
fprintf('%.4f %d\n', te, ie);
try
  ode15s(@(t, y) -y, [0 1], 1, odeset('MaxOrder', 7));
catch ME
  disp(ME.identifier)
end
% the same problem through every solver
for s = {@ode45, @ode23, @ode113, @ode15s, @ode23s}
  [t, y] = s{1}(@(t, y) -y + 1, [0 2], 0, odeset('RelTol', 1e-7, 'AbsTol', 1e-9));
  fprintf('%s %.4f\n', func2str(s{1}), y(end));
end
