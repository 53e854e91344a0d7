% classdef: handle and value classes, validation, Dependent/Constant properties, set methods,
% operator overloading, static methods, inheritance with obj@Super, disp overloads and
% enumerations (classes in classes/).
addpath('classes')
a = BankAccount('Ann', 100);
b = a;            % a handle: b is the same object
deposit(b, 50);
disp(a.Balance)
a.withdraw(30);
disp(b.Balance)
try
  withdraw(a, 1000);
catch err
  disp(err.identifier)
end
disp(isa(a, 'handle'))
disp(class(a))
disp(a.Owner)
p = Point2(3, 4);
q = p;            % a value: q is a copy
q.X = 10;
disp([p.X q.X])
disp(p.R)
s = p + Point2(1, 1);
disp([s.X s.Y])
disp(p == Point2(3, 4))
disp(dist(p, Point2(0, 0)))
u = Point2.unit();
disp(u.X)
disp(Point2.Origin)
try
  p.X = -200;
catch err
  disp(err.message)
end
try
  p.Y = [1 2];
catch err
  disp(err.identifier)
end
p3 = Point3(1, 2, 3);
disp(isa(p3, 'Point2'))
disp(p3.R)
p3
w = Weekday.Friday;
disp(w == Weekday.Friday)
disp(w == Weekday.Monday)
w
p
properties(p)
m = methods('Point2')
disp(isprop(p, 'R'))
disp(ismethod(p, 'dist'))
disp(ismethod(p, 'nothing'))
t = evalc('disp(42)');
disp(strtrim(t))
disp(numel(t))
disp(isequal(Point2(1, 2), Point2(1, 2)))
disp(isequal(Point2(1, 2), Point2(1, 3)))
