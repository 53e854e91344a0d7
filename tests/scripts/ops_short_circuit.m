% && and || short-circuit; & and | do not
calls = 0;
function_called = false;
x = [];
if ~isempty(x) && x(1) > 0
  fprintf('bad\n');
else
  fprintf('short-circuit avoided x(1)\n');
end
if true || error('never evaluated')
  fprintf('or short-circuits\n');
end
r = [1 0 1] & [1 1 0];
fprintf('%d ', r); fprintf('\n');
r = [1 0 0] | [0 0 1];
fprintf('%d ', r); fprintf('\n');
fprintf('%d\n', xor(true, false));
