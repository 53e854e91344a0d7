s.a = 1;
s.b
