% Newton iteration and bisection with while loops
x = 1;
it = 0;
while abs(x^2 - 2) > 1e-12
  x = x - (x^2 - 2) / (2 * x);
  it = it + 1;
end
fprintf('%.12f %d\n', x, it);
lo = 0; hi = 2;
while hi - lo > 1e-10
  mid = (lo + hi) / 2;
  if cos(mid) - mid > 0
    lo = mid;
  else
    hi = mid;
  end
end
fprintf('%.8f\n', (lo + hi) / 2);
