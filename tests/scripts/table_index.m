% table indexing: dot, brace and paren reads and assignments, properties, size functions
% (forms of MATLAB's "Access Data in Tables" documentation).
Age = [38; 43; 38; 40; 49];
Height = [71; 69; 64; 67; 64];
Weight = [176; 163; 131; 133; 119];
LastName = {'Sanchez'; 'Johnson'; 'Li'; 'Diaz'; 'Brown'};
T = table(LastName, Age, Height, Weight);
disp(class(T))
disp(istable(T))
disp(istable(Age))
disp(size(T))
disp([height(T) width(T) numel(T)])
disp(isempty(T))
T.Age'
T.LastName{2}
T.Age(end)
T{2, 'Age'}
T{:, {'Height', 'Weight'}}
T{end, 2}
T(2:3, {'LastName', 'Weight'})
T(logical([1 0 0 0 1]), 2:3)
% assignment
T.BMI = T.Weight ./ (T.Height .^ 2) * 703;
T.Properties.VariableNames
T.Age(1) = 39;
T{2, 'Height'} = 70;
T.LastName{3} = 'Lee';
T(5, :) = {'Brown', 50, 65, 120, 20};
T
T.BMI = [];
T(:, 'Height') = [];
T([1 3], :) = []
T(4, :) = {'Kim', 30, 150}
T.Properties.VariableNames{2} = 'Years';
T.Properties.Description = 'Patients';
T.Properties.VariableUnits = {'', 'yr', 'lb'};
T.Properties.RowNames = {'a', 'b', 'c', 'd'};
T
T.Properties.Description
T.Properties.VariableUnits
T.Properties.DimensionNames
T('c', :)
T.Row'
T2 = T;
T2.Years(1) = 0;
disp([T.Years(1) T2.Years(1)])
isequal(T, T2)
isequal(T, T)
S = T(:, 'Years');
S.Years = S.Years * 2;
S
N = T(:, {'Years', 'Weight'});
N.Variables
