% complex values and N-d pages
z = 3 + 4i
w = [1+2i, -3.5-1i]
A = reshape(1:8, 2, 2, 2)
