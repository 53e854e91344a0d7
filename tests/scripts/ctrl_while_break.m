% while, break, continue
k = 0; total = 0;
while true
  k = k + 1;
  if mod(k, 2) == 0, continue; end
  if k > 9, break; end
  total = total + k;
end
fprintf('k = %d, total = %d\n', k, total);
n = 27; steps = 0;
while n ~= 1
  if mod(n, 2) == 0, n = n / 2; else, n = 3 * n + 1; end
  steps = steps + 1;
end
fprintf('collatz steps = %d\n', steps);
for i = 1:3
  for j = 1:3
    if j > i, break; end
    fprintf('(%d,%d) ', i, j);
  end
end
fprintf('\n');
