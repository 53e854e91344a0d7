classdef Point3 < Point2
  % A subclass: its constructor calls the superclass constructor; disp is overloaded.
  properties
    Z = 0
  end
  methods
    function p = Point3(x, y, z)
      p = p@Point2(x, y);
      p.Z = z;
    end
    function disp(p)
      fprintf('Point3(%g, %g, %g)\n', p.X, p.Y, p.Z);
    end
  end
end
