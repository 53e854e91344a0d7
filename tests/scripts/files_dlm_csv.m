% csvread, dlmread, csvwrite, dlmwrite, fileread (numbers checked against GNU Octave).
f = [tempname() '.csv'];
M = [1.5 -2 3; 4 5e-3 6; 7 8 9.25];
csvwrite(f, M);
disp(fileread(f))
A = csvread(f)
B = csvread(f, 1, 1)
C = dlmread(f, ',', [0 0 1 1])
dlmwrite(f, pi * M, 'precision', 8);
D = dlmread(f)
dlmwrite(f, [1 2; 3 4], ';');
dlmwrite(f, [5 6], '-append', 'delimiter', ';');
disp(fileread(f))
E = dlmread(f, ';')
% empty fields read as zero
fid = fopen(f, 'w'); fprintf(fid, '1,,3\n4,5\n'); fclose(fid);
F = csvread(f)
delete(f);
