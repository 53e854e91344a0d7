% Display of graphics handles (MATLAB's short property lists) and of arrays of them.
f = figure
h = plot([4 5 6])
hs = plot([1 2; 3 4]);
hs
close all
