% matrix power, scalar division and elementwise power
A = [2 1; 1 3];
fprintf('%g ', A ^ 3); fprintf('\n');
fprintf('%g ', A .^ 2); fprintf('\n');
fprintf('%g ', 2 .^ [1 2 3]); fprintf('\n');
fprintf('%g ', [1 2 3] .^ [3 2 1]); fprintf('\n');
fprintf('%g ', A / 2); fprintf('\n');
fprintf('%g ', 2 ./ [1 2 4]); fprintf('\n');
fprintf('%.6f ', inv_via_solve(A)); fprintf('\n');
fprintf('%g\n', (-8) ^ 2);
r = (-8) ^ (1/3);
fprintf('%.4f %.4f\n', real(r), imag(r));

function B = inv_via_solve(A)
  B = A \ eye(size(A, 1));
end
