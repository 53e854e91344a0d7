% joins: innerjoin, outerjoin, join (forms of MATLAB's documentation examples).
Tleft = table({'a'; 'b'; 'c'; 'e'; 'h'}, [1; 2; 3; 11; 17], 'VariableNames', {'Key1', 'Var1'})
Tright = table({'a'; 'b'; 'd'; 'e'}, [4; 5; 6; 7], 'VariableNames', {'Key1', 'Var2'})
T = innerjoin(Tleft, Tright)
[T, ileft, iright] = innerjoin(Tleft, Tright);
disp([ileft iright])
T = outerjoin(Tleft, Tright)
T = outerjoin(Tleft, Tright, 'MergeKeys', true)
[T, ileft, iright] = outerjoin(Tleft, Tright, 'Type', 'left');
disp([ileft iright])
A = table({'Y'; 'N'; 'Y'}, [38; 43; 40], 'VariableNames', {'Smoker', 'Age'});
B = table({'N'; 'Y'}, {'no'; 'yes'}, 'VariableNames', {'Smoker', 'Label'});
J = join(A, B)
K = innerjoin(A, B, 'Keys', 'Smoker', 'RightVariables', 'Label')
