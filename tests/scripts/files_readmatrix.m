% readmatrix, readcell, writematrix, writecell: no row is lost (MATLAB's import rules).
f = [tempname() '.csv'];
fid = fopen(f, 'w');
% UTF-8 BOM and CRLF line ends; a header row; a text column; quoted fields with the
% delimiter, doubled quotes and a line break.
fprintf(fid, '%sid,name,value\r\n', char(65279));
fprintf(fid, '1,"Smith, J",2.5\r\n');
fprintf(fid, '2,"say ""hi""",-3.25e2\r\n');
fprintf(fid, '3,"two\r\nlines",\r\n');
fprintf(fid, '4,plain,7\r\n');
fclose(fid);
A = readmatrix(f)
C = readcell(f);
disp(size(C))
disp(C{1, 1}), disp(C{3, 2}), disp(C{4, 2}), disp(isempty(C{4, 3}))
B = readmatrix(f, 'NumHeaderLines', 2)
R = readmatrix(f, 'Range', 'A2:A3')
R2 = readmatrix(f, 'Range', 'C2')
% no header: every row is data
fid = fopen(f, 'w'); fprintf(fid, '1;2,5\n3;4,75\n'); fclose(fid);
D = readmatrix(f, 'DecimalSeparator', ',')
% writematrix round trip: shortest digits that read back exactly
X = [pi, -1/3; 1e-300, 123456789.125; NaN, Inf];
writematrix(X, f);
disp(fileread(f))
disp(isequaln(readmatrix(f), X))
% strings with quotes, delimiters and line breaks round-trip through writecell/readcell
S = {'a,b', 'say "hi"'; 'plain', sprintf('x\ny')};
writecell(S, f);
disp(fileread(f))
T = readcell(f);
disp(isequal(T, S))
writematrix(["p" "q,r"], f);
disp(fileread(f))
delete(f);
