s.a = 1;
if s, end
