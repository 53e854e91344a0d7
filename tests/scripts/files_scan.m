% fscanf, sscanf, textscan, fgetl, fgets (numbers checked against GNU Octave).
f = [tempname() '.txt'];
fid = fopen(f, 'w');
fprintf(fid, 'x y\n1 2.5\n3 -4e2\n5 Inf\n');
fclose(fid);
fid = fopen(f, 'r');
h = fgetl(fid)
A = fscanf(fid, '%f %f', [2 Inf])
fclose(fid);
fid = fopen(f, 'r');
l1 = fgets(fid);
disp(double(l1(end)))
B = fscanf(fid, '%f')
fclose(fid);
v = sscanf('3 4 5', '%d')
[w, n] = sscanf('1,2,3', '%f,')
s = sscanf('hello world', '%s')
fid = fopen(f, 'w');
fprintf(fid, 'name,score,rank\nann,9.5,1\nbob,7.25,2\n');
fclose(fid);
fid = fopen(f, 'r');
C = textscan(fid, '%s %f %d', 'Delimiter', ',', 'HeaderLines', 1);
fclose(fid);
disp(C{1}{1}), disp(C{1}{2}), disp(size(C{1}))
disp(C{2})
disp(class(C{3}))
disp(C{3})
D = textscan('1 2 3 4 5 6', '%f %f');
disp([D{1} D{2}])
E = textscan('a;;3', '%s %f %f', 'Delimiter', ';');
disp(E{1}{1}), disp(isnan(E{2})), disp(E{3})
delete(f);
