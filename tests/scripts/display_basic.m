% unsuppressed display of common values (format short, loose)
x = 5
y = [1 2 3]
z = pi
a = [1.5 2.25; -3 4]
s = 'hello'
b = true
e = []
n = -0.5
1 + 1
i8 = int8(-5)
