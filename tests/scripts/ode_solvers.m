% ode45 / ode23 / ode23s, odeset / odeget, events and deval. Expected values checked against
% GNU Octave's solvers (same rounding) and closed forms: exp(-2), sin/cos, exp(-t), the
% ball's landing time 20/4.905.
opts = odeset('RelTol', 1e-8, 'AbsTol', 1e-10);
[t, y] = ode45(@(t, y) -2*y, [0 1], 1, opts);
fprintf('%.8f %.8f\n', t(end), y(end));
[t, y] = ode45(@(t, y) [y(2); -y(1)], [0 pi/2 pi], [0; 1], opts);
disp(size(y));
fprintf('%.6f %.6f\n', abs(y.'));
[t, y] = ode23(@(t, y) [y(2); -y(1)], [0 1 2 3], [0; 1], opts);
fprintf('%.5f %.5f\n', y.');
sol = ode45(@(t, y) -y, [0 2], 1, opts);
disp(sol.solver)
fprintf('%.6f\n', deval(sol, [0.5 1 1.5]));
% van der Pol, mu = 1 (MATLAB's ode45 documentation example)
[t, y] = ode45(@(t, y) [y(2); (1 - y(1)^2)*y(2) - y(1)], [0 20], [2; 0], opts);
fprintf('%.4f %.4f\n', y(end, 1), y(end, 2));
% default tolerances: Refine = 4 output points per step
[t, y] = ode45(@(t, y) -y, [0 1], 1);
disp(mod(numel(t) - 1, 4))
% a falling ball: terminal event when the height crosses 0 downwards
evf = @(t, y) deal(y(1), 1, -1);
opts2 = odeset('Events', evf, 'RelTol', 1e-8, 'AbsTol', 1e-10);
[t, y, te, ye, ie] = ode45(@(t, y) [y(2); -9.81], [0 10], [0; 20], opts2);
fprintf('%.6f %.6f %.6f %d\n', te, abs(ye(1)), ye(2), ie);
fprintf('%.6f\n', t(end));
% stiff: Robertson's reactions with ode23s
f = @(t, y) [-0.04*y(1) + 1e4*y(2)*y(3); 0.04*y(1) - 1e4*y(2)*y(3) - 3e7*y(2)^2; 3e7*y(2)^2];
[t, y] = ode23s(f, [0 40], [1; 0; 0], odeset('RelTol', 1e-6, 'AbsTol', [1e-8 1e-14 1e-8]));
fprintf('%.4f %.4f\n', y(end, 1), y(end, 3));
o = odeset('reltol', 1e-4);
disp(odeget(o, 'RelTol'));
disp(odeget(o, 'AbsTol', 7));
% extra parameters after the options
[t, y] = ode45(@(t, y, k) -k*y, [0 1], 1, [], 3);
fprintf('%.3f\n', y(end));
