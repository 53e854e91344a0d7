% load's MAT-file header check reads the first 128 bytes, which need not hold a NUL: a text
% file of longer lines is read as text, one whose header names a MAT-file as a MAT-file.
f = [tempname '.txt'];
for header = {['MATLAB 5.0 ' repmat('x', 1, 200)], ['MATLAB 5.0 MAT-file' repmat(' ', 1, 200)]}
  fid = fopen(f, 'w');
  fprintf(fid, '%s\n', header{1});
  fclose(fid);
  try
    load(f);
    disp('loaded')
  catch err
    disp(err.identifier)
  end
end
delete(f);
