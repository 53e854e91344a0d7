% readtable / writetable round trip through a CSV file.
f = [tempname '.csv'];
fid = fopen(f, 'w');
fprintf(fid, 'Name,Age,Height,City name\nAnn,38,71.5,"Paris, FR"\nBob,43,,Rome\n"Cy ""C""",,64,\n');
fclose(fid);
T = readtable(f)
T.Properties.VariableDescriptions
class(T.Name)
T = readtable(f, 'TextType', 'string', 'VariableNamingRule', 'preserve')
T = readtable(f, 'ReadRowNames', true)
g = [tempname '.csv'];
writetable(T, g, 'WriteRowNames', true);
fprintf('%s', fileread(g));
U = table([1.5; 2], {'x,y'; 'z'}, [true; false], [1 2; 3 4], 'VariableNames', {'A', 'B', 'C', 'D'});
writetable(U, g);
fprintf('%s', fileread(g));
R = readtable(g)
writetable(U, g, 'WriteVariableNames', false, 'Delimiter', ';');
fprintf('%s', fileread(g));
delete(f);
delete(g);
