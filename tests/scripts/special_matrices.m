% hilb, invhilb, pascal, rosser, wilkinson, vander, compan, hadamard (checked against GNU
% Octave's functions of the same names).
fprintf('%.6f ', hilb(3)); fprintf('\n');
fprintf('%g ', invhilb(4)); fprintf('\n');
fprintf('%.3e\n', norm(invhilb(5)*hilb(5) - eye(5)) < 1e-8);
fprintf('%d ', pascal(4)); fprintf('\n');
fprintf('%d ', pascal(4, 1)); fprintf('\n');
fprintf('%d ', pascal(3, 2)); fprintf('\n');
fprintf('%d ', pascal(4, 2)); fprintf('\n');
P = pascal(5, 1); fprintf('%d\n', isequal(P*P, eye(5)));
fprintf('%d ', rosser()); fprintf('\n');
fprintf('%g ', wilkinson(5)); fprintf('\n');
fprintf('%g ', wilkinson(4)); fprintf('\n');
fprintf('%g ', vander([2 3 5])); fprintf('\n');
fprintf('%g ', compan([1 -6 11 -6])); fprintf('\n');
fprintf('%.6f\n', sort(eig(compan([1 -6 11 -6]))));
for n = [1 2 4 8 12 20 24 40]
  H = hadamard(n);
  fprintf('%d %d\n', n, isequal(H'*H, n*eye(n)));
end
fprintf('%d ', hadamard(4)); fprintf('\n');
