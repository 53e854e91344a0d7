addpath('../scripts/classes')
p = Point2(1, 2);
p.Z = 3;
