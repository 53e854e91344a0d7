% feof on a file opened for writing only is false and does not touch the stream: it read from
% it before, which set the stream's error flag, and fclose then failed with "Input/output
% error". Reads from such a file find nothing; fclose succeeds and the data is all written.
name = [tempname() '.txt'];
f = fopen(name, 'w');
fprintf(f, 'abc\n');
disp(feof(f))
disp(fgetl(f))
disp(isempty(fscanf(f, '%d')))
fprintf(f, 'def\n');
disp(fclose(f))
f = fopen(name, 'a');
disp(feof(f))
fclose(f);
% An update stream switches between reading and writing (a seek between them, as C requires).
f = fopen(name, 'a+');
disp(feof(f))
fprintf(f, 'ghi\n');
disp(feof(f))
fprintf(f, 'jkl\n');
disp(fclose(f))
f = fopen(name, 'r');
disp(feof(f))
while true
  t = fgetl(f);
  if ~ischar(t), break; end
  disp(t)
end
disp(feof(f))
disp(fclose(f))
delete(name)
