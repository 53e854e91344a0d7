% One operand feeding a broadcast sum and a slice of another use (scripts.all_fused runs this
% with every operation captured).
v = [1 2];
a = sum(0) + v;
b = v + 1;
c = b(1, :);
disp(a + c)
w = 1:6;
p = max(w) - w;
q = w * 2;
r = q(1, 2:4);
disp(p(2:4) + r)
