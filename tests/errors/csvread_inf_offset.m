% An infinite row offset is an error (its conversion to an integer was undefined behaviour).
f = [tempname '.csv'];
fid = fopen(f, 'w');
fprintf(fid, '1,2\n3,4\n');
fclose(fid);
m = csvread(f, Inf, 0);
