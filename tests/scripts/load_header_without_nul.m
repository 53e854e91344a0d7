% load's MAT-file header check reads the first 128 bytes, which need not hold a NUL: a text
% file of longer lines is read as text, one whose header names a MAT-file as a MAT-file.
f = [tempname '.txt'];
fid = fopen(f, 'w');
fprintf(fid, 'MATLAB 5.0 %s\n', repmat('x', 1, 200));
fclose(fid);
try
  load(f);
  disp('loaded')
catch err
  disp(err.identifier)
end
fid = fopen(f, 'w');
fprintf(fid, 'MATLAB 5.0 MAT-file%s\n', repmat(' ', 1, 200));
fclose(fid);
try
  load(f);
  disp('loaded')
catch err
  disp(err.identifier)
end
delete(f);
