% varargin / varargout
[a, b, c] = spread(10, 20, 30);
fprintf('%d %d %d\n', a, b, c);
fprintf('%d\n', total(1, 2, 3, 4));
fprintf('%d\n', total());
x = cell(1, 2);
[x{:}] = spread(7, 8);
fprintf('%d %d\n', x{1}, x{2});

function varargout = spread(varargin)
  for k = 1:nargout
    varargout{k} = varargin{k};
  end
end

function t = total(varargin)
  t = 0;
  for k = 1:numel(varargin)
    t = t + varargin{k};
  end
end
