% parfor with every class of variable (MATLAB's classification); without a pool it runs as a
% serial loop, under mpirun on the ranks (tests/parallel compares the two outputs).
n = 12;
c = 3;
f = @(v) v.^2 + c;
A = reshape(1:3*n, 3, n);
y = zeros(1, n);            % sliced output, preallocated
B = zeros(3, n);            % sliced output by columns
z = [];                     % sliced output grown from nothing
cc = cell(1, n);            % sliced output cell
s = 0; d = 100; p = 1; e = ones(1, 2); allpos = true; anyneg = false;
h = []; v = zeros(0, 1); lo = Inf; hi = -Inf; u = [];
tmp = 'before';
for_idx = 'kept';
parfor i = 1:n
  tmp = f(i);               % temporary
  y(i) = tmp + A(2, i);     % sliced input A, sliced output y
  B(:, i) = A(:, i) * c;    % broadcast c
  z(i) = mod(i * 5, 7);
  cc{i} = repmat('x', 1, mod(i, 4));
  if mod(i, 2) == 0
    continue
  end
  s = s + i;                % reductions
  d = d - i;
  p = p * 2;
  e = e .* [1 2];
  allpos = allpos & (i > 0);
  anyneg = anyneg | (i < 0);
  h = [h, i];
  v = [v; -i];
  lo = min(lo, mod(i * 7, 13));
  hi = max(hi, mod(i * 7, 13));
  u = union(u, mod(i, 4));
  for for_idx = 1:2         % a nested for-loop's index is a temporary
    y(i) = y(i) + for_idx;
  end
end
disp(y)
disp(B)
disp(z)
disp(cc)
fprintf('%d %d %d %s %d %d\n', s, d, p, mat2str(e), allpos, anyneg);
disp(h)
disp(v')
fprintf('%d %d %s\n', lo, hi, mat2str(u));
disp(tmp)
disp(for_idx)
% Sliced by an offset and along rows; a struct array sliced output; fprintf inside the loop.
x = (1:n+1) * 10;
w = zeros(n, 2);
parfor k = 1:n
  w(k, :) = [x(k+1), k];
end
disp(w(1:3, :))
st = struct('a', {});
parfor k = 1:4
  st(k).a = k * 11;
end
disp([st.a])
parfor k = 1:3
  fprintf('iteration %d\n', k);
end
% The worker count argument, an empty range and a column range of one element.
q = zeros(1, 4);
parfor (k = 1:4, 0)
  q(k) = k;
end
disp(q)
parfor k = 1:0
  q(k) = -1;
end
disp(q)
t2 = 0;
parfor k = 5
  t2 = t2 + k;
end
disp(t2)
