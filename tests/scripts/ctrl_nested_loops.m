% nested loops building a multiplication table and a prime sieve
T = zeros(4);
for i = 1:4
  for j = 1:4
    T(i, j) = i * j;
  end
end
fprintf('%d ', T(4, :)); fprintf('\n');
N = 50;
is_p = true(1, N);
is_p(1) = false;
for k = 2:floor(sqrt(N))
  if is_p(k)
    is_p(k*k:k:N) = false;
  end
end
fprintf('%d ', find(is_p)); fprintf('\n');
count = 0;
k = 0;
while k < 100
  k = k + 7;
  if mod(k, 2) == 0, continue, end
  count = count + 1;
end
fprintf('%d %d\n', k, count);
