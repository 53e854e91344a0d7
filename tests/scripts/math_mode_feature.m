% feature('MathMode'): exact by default; fast computes within documented bounds
% (docs/math-modes.md); switching back gives exact results again.
disp(feature('MathMode'))
x = single(linspace(0, 4*pi, 100000));
y = sin(x) .* exp(-x / 10) + x / 3;
e = double(y);
old = feature('MathMode', 'fast');
disp(old)
disp(feature('mathmode'))
x = single(linspace(0, 4*pi, 100000));
y = sin(x) .* exp(-x / 10) + x / 3;
f = double(y);
feature('MathMode', 'exact');
x = single(linspace(0, 4*pi, 100000));
y = sin(x) .* exp(-x / 10) + x / 3;
fprintf('fast within 1e-5 of exact: %d\n', max(abs(f - e)) < 1e-5);
fprintf('exact again: %d\n', isequal(double(y), e));
try
  feature('MathMode', 'quick');
catch err
  disp(err.identifier)
end
try
  feature('NoSuchFeature');
catch err
  disp(err.message)
end
