function y = scale_values(x, factor)
%SCALE_VALUES multiplies x by factor (default 2); a function file on the path.
if nargin < 2
  factor = 2;
end
y = x * factor;
end
