classdef Point2
  % A value class: validated properties, a Dependent property, a set method, operators,
  % a static method and a Constant property.
  properties
    X (1,1) double = 0
    Y (1,1) double = 0
  end
  properties (Dependent)
    R
  end
  properties (Constant)
    Origin = [0 0]
  end
  methods
    function p = Point2(x, y)
      if nargin == 2
        p.X = x;
        p.Y = y;
      end
    end
    function r = get.R(p)
      r = hypot(p.X, p.Y);
    end
    function p = set.X(p, v)
      if v < -100
        error('Point2:range', 'X out of range');
      end
      p.X = v;
    end
    function q = plus(a, b)
      q = Point2(a.X + b.X, a.Y + b.Y);
    end
    function tf = eq(a, b)
      tf = a.X == b.X && a.Y == b.Y;
    end
    function d = dist(a, b)
      d = hypot(a.X - b.X, a.Y - b.Y);
    end
  end
  methods (Static)
    function p = unit()
      p = Point2(1, 0);
    end
  end
end
