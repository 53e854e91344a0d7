% optional arguments through nargin and exist, outputs through nargout
fprintf('%g\n', area(3));
fprintf('%g\n', area(3, 4));
[a, p] = area_perimeter(2, 5);
fprintf('%g %g\n', a, p);
a2 = area_perimeter(2, 5);
fprintf('%g\n', a2);
fprintf('%d\n', count_out());
[q1, q2, q3] = count_out();
fprintf('%d %d %d\n', q1, q2, q3);

function a = area(w, h)
  if nargin < 2
    h = w;
  end
  a = w * h;
end

function [a, p] = area_perimeter(w, h)
  a = w * h;
  p = 2 * (w + h);
end

function varargout = count_out()
  for k = 1:max(nargout, 1)
    varargout{k} = nargout;
  end
end
