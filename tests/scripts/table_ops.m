% table functions: head, tail, sortrows, concatenation, addvars, removevars, renamevars,
% movevars, conversions (forms of MATLAB's documentation examples).
LastName = {'Sweet'; 'Jacobson'; 'Wang'; 'Joiner'; 'Berger'};
Age = [38; 43; 38; 40; 49];
Height = [71; 69; 64; 67; 64];
Weight = [176; 163; 131; 133; 119];
T = table(Age, Height, Weight, 'RowNames', LastName)
head(T, 2)
tail(T, 2)
size(head(T))
head((1:10)', 3)
tblA = sortrows(T)
tblB = sortrows(T, 'RowNames')
tblC = sortrows(T, {'Height', 'Weight'}, {'ascend', 'descend'})
[tblD, index] = sortrows(T, 'Age', 'descend');
index'
sortrows(T, -3)
% concatenation
T1 = table([1; 2], {'a'; 'b'}, 'VariableNames', {'N', 'S'});
T2 = table([3], {'c'}, 'VariableNames', {'N', 'S'});
V = [T1; T2]
H = [T1, table([10; 20], 'VariableNames', {'M'})]
V2 = vertcat(T1, T2, T1);
disp(height(V2))
% variables
A = table([1; 2; 3], [4; 5; 6], 'VariableNames', {'A', 'B'});
C = [7; 8; 9];
A2 = addvars(A, C)
A3 = addvars(A, C, 'Before', 'B', 'NewVariableNames', 'Cnew')
A4 = removevars(A3, {'A', 'B'})
A5 = renamevars(A, 'B', 'Beta')
A6 = movevars(A3, 'A', 'After', 'B')
% conversions
c = table2cell(A)
s = table2struct(A)
s1 = table2struct(A, 'ToScalar', true)
S.Name = {'x'; 'y'};
S.Value = [1; 2];
TS = struct2table(S)
SA = struct('Name', {'p', 'q'}, 'Value', {10, 20});
TA = struct2table(SA)
TC = cell2table({1, 'one'; 2, 'two'}, 'VariableNames', {'Num', 'Word'})
TP = table('Size', [2 3], 'VariableTypes', {'double', 'string', 'logical'})
