% table display and construction: the examples of MATLAB's array2table, table2array and table
% documentation pages (expected bodies as MathWorks prints them; command-window layout).
A = [1 4 7; 2 5 8; 3 6 9];
T = array2table(A)
A = [1 12 30.48; 2 24 60.96; 3 36 91.44];
T = array2table(A, 'VariableNames', {'Feet', 'Inches', 'Centimeters'})
T = table([1;2;3], [2 8; 4 10; 6 12], [3 12 21; 6 15 24; 9 18 27], ...
    'VariableNames', {'One' 'Two' 'Three'})
A = table2array(T)
T = table(["A"; "B"; "C"], [1; 2; 3], [true; false; true])
T = table(["A"; "B"; "C"], [1; 2; 3], 'VariableNames', ["Letter", "Number"])
% row names (table with RowNames)
names = {'Harry'; 'Sally'; 'Jose'};
weights = [185; 133; 210];
heights = [74; 65.4; 72.2];
patients = table(weights, heights, 'RowNames', names)
patients(1:2, 1)
patients({'Harry' 'Jose'}, :)
mat = patients{{'Harry' 'Jose'}, :}
wtcol = patients{:, 'weights'}
% cell and mixed variables
LastName = {'Sanchez'; 'Johnson'; 'Li'};
Age = [38; 43; 38];
Smoker = logical([1; 0; 1]);
T = table(LastName, Age, Smoker)
disp(T(2:3, :))
E = table()
size(E)
Z = T([], :)
